"""A tiny HTTP server on 127.0.0.1 for tests that fetch URLs."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    """What the server answers on one path."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Server:
    """A running server: its base URL and the headers of every request it got."""

    base: str
    requests: list[dict[str, str]]


@contextmanager
def serve(routes: dict[str, Reply]) -> Iterator[Server]:
    """Serve fixed replies per path on a free port, in a thread, until the block ends."""
    requests: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append({"path": self.path, **dict(self.headers.items())})
            reply = routes.get(self.path, Reply(404, b"not here"))
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: object) -> None:
            """Keep the test output quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A short poll interval lets shutdown() return quickly.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield Server(f"http://{host!s}:{port}", requests)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
