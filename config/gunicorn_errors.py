"""gunicorn's own refusals in the API's error shape: {"code", "message"}, as JSON.

gunicorn answers a request it cannot parse or will not read before the app sees it: a
request line over `limit_request_line` (414), too many or too large headers (431), a
malformed request line, header or chunk (400). It writes those with `gunicorn.util.
write_error`, an HTML page. gunicorn.conf.py puts `write_error` here in its place in every
worker (`install`), so a client that sent a URL too long gets the same status with a code
it can branch on, like every other refusal. gunicorn has no setting for its error page;
the function it calls is the one place to change.
"""

from __future__ import annotations

import json

from gunicorn import util

from cms.error_codes import status_code_name

# gunicorn's message can quote the request line it refused (up to limit_request_line bytes).
MAX_MESSAGE_CHARS = 300


def write_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's contract (the socket, the status, its reason phrase and
    gunicorn's message), answered in JSON; the connection is closed after it, as there."""
    body = json.dumps({"code": status_code_name(status_int),
                       "message": (mesg or reason)[:MAX_MESSAGE_CHARS]}).encode()
    head = (f"HTTP/1.1 {int(status_int)} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    util.write_error = write_error
