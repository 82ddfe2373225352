"""Assets: text files are decoded; non-UTF-8 and oversized files are refused, storing nothing."""

import pytest
from django.core.exceptions import ValidationError

from cms import services
from cms.models import Asset


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
