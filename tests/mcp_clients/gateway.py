"""A loopback reverse proxy that adds headers, as the TLS proxy in front of gunicorn does.

The conformance suite's server scenarios connect to a bare URL: the client has no option to
send a header, and /mcp/ answers 401 without a Bearer key. So its requests go through this
proxy, which adds `Authorization: Bearer <key>` (where the request has none) and
`X-Forwarded-Proto: https` (gunicorn sits behind a TLS proxy in production), and passes
everything else through unchanged, Host and Origin included, so the server's own host and
origin checks still see what the client sent. Bodies of unknown length (SSE) are streamed.
"""

from __future__ import annotations

import http.client
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# Headers of one connection, not of the request (RFC 9110 §7.6.1).
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer",
                         "upgrade", "content-length"})


class _Forward(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Gateway

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in _HOP_BY_HOP}
        for name, value in self.server.added_headers.items():
            if name.lower() not in {n.lower() for n in headers}:
                headers[name] = value
        upstream = http.client.HTTPConnection(self.server.upstream_host, self.server.upstream_port, timeout=120)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            self.server.record(self.command, response.status)
            self.send_response_only(response.status, response.reason)  # the upstream's Date and Server
            for name, value in response.getheaders():
                if name.lower() not in _HOP_BY_HOP:
                    self.send_header(name, value)
            known_length = response.getheader("Content-Length")
            if known_length is not None:
                self.send_header("Content-Length", known_length)
                self.end_headers()
                self.wfile.write(response.read())
                return
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            while chunk := response.read1(65536):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        finally:
            upstream.close()

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = _forward

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # counted in Gateway.requests instead


class _Gateway(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream: str, added_headers: dict[str, str]) -> None:
        super().__init__(("127.0.0.1", 0), _Forward)
        parts = urlsplit(upstream)
        self.upstream_host, self.upstream_port = parts.hostname, parts.port
        self.added_headers = added_headers
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()

    def record(self, method: str, status: int) -> None:
        with self._lock:
            self.requests[f"{method} {status}"] += 1


@contextmanager
def header_gateway(upstream: str, added_headers: dict[str, str]) -> Iterator[_Gateway]:
    """Serve the proxy to `upstream` (scheme://host:port) on a free loopback port while in the block.

    Its address is `gateway.server_address`; `gateway.requests` counts the answers by method and status.
    """
    gateway = _Gateway(upstream, added_headers)
    thread = threading.Thread(target=gateway.serve_forever, name="header-gateway", daemon=True)
    thread.start()
    try:
        yield gateway
    finally:
        gateway.shutdown()
        gateway.server_close()
        thread.join(10)
