"""Upload handling that never keeps more of a file than the asset limit lets through.

Django spools an upload larger than FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary file. This
handler does the same but stops writing one byte past ASSET_MAX_BYTES and drops the rest as
it streams in, so an oversized upload costs neither memory nor disk; the asset check
(cms.services.asset_content_read) then refuses it with a clear message.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import TemporaryFileUploadHandler


class CappedTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    """TemporaryFileUploadHandler that keeps at most ASSET_MAX_BYTES + 1 bytes of each file."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        room = settings.ASSET_MAX_BYTES + 1 - start
        if room > 0:
            self.file.write(raw_data[:room])

    def file_complete(self, file_size: int):
        uploaded = super().file_complete(file_size)
        # The size of what was kept: past the limit, the rest was never written.
        uploaded.size = min(file_size, settings.ASSET_MAX_BYTES + 1)
        return uploaded
