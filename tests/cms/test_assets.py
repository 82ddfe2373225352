"""Assets: text files are decoded; non-UTF-8 and oversized files are refused, storing nothing."""

import io
import os

import pytest
from django.core.exceptions import ValidationError

from cms import services
from cms.models import Asset
from cms.uploads import CappedTemporaryFileUploadHandler


def test_markdown_asset_keeps_decoded_text(workspace):
    asset = services.asset_upload(workspace=workspace, filename="faq.md", content="# 返品\n本文".encode())
    assert asset.mime_type == "text/markdown"
    assert asset.text == "# 返品\n本文"
    assert asset.size == len("# 返品\n本文".encode())


def test_non_utf8_text_is_refused_and_nothing_stored(workspace, settings):
    with pytest.raises(ValidationError, match="not valid UTF-8"):
        services.asset_upload(workspace=workspace, filename="sjis.txt", content="返品".encode("shift_jis"))
    assert Asset.objects.count() == 0
    assert not list((settings.MEDIA_ROOT).rglob("*.txt")) if settings.MEDIA_ROOT.exists() else True


def test_oversized_file_is_refused(workspace, settings):
    settings.ASSET_MAX_BYTES = 10
    with pytest.raises(ValidationError, match="limit is 10 bytes"):
        services.asset_upload(workspace=workspace, filename="big.txt", content=b"x" * 11)
    assert Asset.objects.count() == 0


def test_binary_asset_has_no_text(workspace):
    asset = services.asset_upload(workspace=workspace, filename="logo.png", content=b"\x89PNG\r\n")
    assert asset.mime_type == "image/png"
    assert asset.text is None


def test_upload_from_a_stream_over_the_limit_is_refused_after_limit_plus_one_bytes(workspace, settings):
    settings.ASSET_MAX_BYTES = 100_000
    stream = io.BytesIO(b"x" * 3_000_000)
    with pytest.raises(ValidationError, match="big.txt is over the limit of 100,000 bytes"):
        services.asset_upload(workspace=workspace, filename="big.txt", content=stream)
    assert stream.tell() == 100_001
    assert Asset.objects.count() == 0


def test_upload_from_a_stream_at_the_limit_is_stored(workspace, settings):
    settings.ASSET_MAX_BYTES = 100_000
    asset = services.asset_upload(workspace=workspace, filename="full.txt", content=io.BytesIO(b"y" * 100_000))
    assert (asset.size, len(asset.text)) == (100_000, 100_000)


def test_upload_handler_keeps_one_byte_past_the_limit_and_drops_the_rest(settings):
    settings.ASSET_MAX_BYTES = 1000
    handler = CappedTemporaryFileUploadHandler()
    handler.new_file("upload", "big.bin", "application/octet-stream", None)
    for start in range(0, 10_000, 512):
        handler.receive_data_chunk(b"z" * 512, start)
    uploaded = handler.file_complete(10_240)
    assert uploaded.size == 1001
    assert os.path.getsize(uploaded.temporary_file_path()) == 1001
    uploaded.close()
