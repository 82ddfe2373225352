"""Raw UTF-8 in the request line, as curl sends it (`curl "…/search/entries?q=返品"`), read as
if it were percent-encoded.

gunicorn (27: gunicorn.http.message.Request.parse_request_line) refuses a request target
with any byte outside printable ASCII (RFC 9112 3.2: the rest must be percent-encoded),
before the app sees it, as a 400. Browsers and HTTP libraries percent-encode; curl sends
the bytes as typed, and that is often the first thing a Japanese developer tries.
`install` (gunicorn.conf.py's post_fork, in every worker) wraps the parser: bytes 0x80-0xFF
of the target, and only those, are percent-encoded (what a browser sends for the same URL)
before gunicorn's own checks run. Controls, spaces and DEL are still refused; the request
line's length limit was already applied to the bytes as received. The app decodes the
query string as UTF-8 (search/interfaces/api/searches.py), so bytes that are not UTF-8 are its 400
`query_invalid_encoding`, as over runserver.
"""

from __future__ import annotations

from gunicorn.http import message

_HIGH_BYTES = {byte: b"%%%02X" % byte for byte in range(0x80, 0x100)}


def target_percent_encode(target: bytes) -> bytes:
    """`target` with every byte 0x80-0xFF percent-encoded; the other bytes as they were."""
    if target.isascii():
        return target
    return b"".join(_HIGH_BYTES.get(byte, bytes((byte,))) for byte in target)


def install() -> None:
    """Wrap gunicorn's request-line parser (once per process)."""
    original = message.Request.parse_request_line
    if getattr(original, "_percent_encodes", False):
        return

    def parse_request_line(self, line_bytes):
        parts = bytes(line_bytes).split(b" ", 2)
        if len(parts) == 3 and not parts[1].isascii():
            parts[1] = target_percent_encode(parts[1])
            line_bytes = b" ".join(parts)
        return original(self, line_bytes)

    parse_request_line._percent_encodes = True
    message.Request.parse_request_line = parse_request_line
