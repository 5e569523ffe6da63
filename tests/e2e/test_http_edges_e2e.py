"""End to end: what origins send that mitmproxy's buffering gets wrong, through a real proxy.

The origin here writes raw bytes (`serve_scripts`): a `103 Early Hints` head
before the page, a page trickled for longer than any reader view may wait, a
body cut short of its Content-Length.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
from e2e_servers import (
    ProxyProcess,
    Script,
    article_html,
    chunk,
    proxy_or_fail,
    resident_mib,
    serve_scripts,
)

pytestmark = pytest.mark.e2e

PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
READER_MARK = b'<main id="pv-content"'
# Seconds a client waits for an answer: far past what each case should take.
PATIENCE = 20.0
# Seconds the burst of 60 large pages may take, each page and all of them.
BURST_BUDGET = 240.0


@contextmanager
def proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> Iterator[ProxyProcess]:
    """Run a proxy of the test's own in reader mode with these options ("name=value")."""
    for variable in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(variable, raising=False)
    chosen = ("plainview_mode=reader", *options)
    arguments = [part for option in chosen for part in ("--set", option)]
    with proxy_or_fail(tmp_path, *arguments) as running:
        yield running


def get(
    running: ProxyProcess, url: str, accept: str = PAGE_ACCEPT, patience: float = PATIENCE
) -> http.client.HTTPResponse:
    """Send a page load's GET through the proxy; return the response once its headers are in."""
    connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=patience)
    connection.request("GET", url, headers={"Accept": accept})
    return connection.getresponse()


def read_all(response: http.client.HTTPResponse) -> bytes:
    """Read a body to its end, or to where the proxy closed the connection."""
    try:
        return response.read()
    except http.client.IncompleteRead as cut:
        return cut.partial


def with_early_hints(body: bytes, content_type: str) -> Script:
    """Answer with a 103 Early Hints head, then the response (as Node's writeEarlyHints does)."""

    def script(conn: socket.socket) -> None:
        conn.sendall(
            b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
            b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
            b"Connection: close\r\n\r\n%s" % (content_type.encode(), len(body), body)
        )

    return script


def test_a_103_early_hints_head_leaves_the_page_to_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 29 (6): mitmproxy took the 103 for the final response; the 200 after
    # it was dropped and the client waited for ever (mitmproxy/mitmproxy#2229).
    page, data = article_html(), b'{"items": [1, 2, 3]}'
    scripts = {
        "/page.html": with_early_hints(page, "text/html; charset=utf-8"),
        "/data.json": with_early_hints(data, "application/json"),
    }
    with serve_scripts(scripts) as base, proxy(tmp_path, monkeypatch) as running:
        reader = get(running, f"{base}/page.html")
        reader_body = read_all(reader)
        json = get(running, f"{base}/data.json", accept="*/*")
        json_body = read_all(json)
    assert reader.status == 200 and READER_MARK in reader_body
    assert (json.status, json_body) == (200, data)


class Trickle:
    """A page sent a piece at a time, until the client has seen its first bytes."""

    def __init__(self, pieces: int = 150, every: float = 0.2) -> None:
        self.pieces, self.every = pieces, every
        self.seen = threading.Event()  # set by the client on its first body bytes
        self.seen_while_sending = False
        self.sent = b""

    def script(self, conn: socket.socket) -> None:
        """Send the head and a piece every `every` seconds until the client has bytes."""
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        self.send(conn, b"<!doctype html><html><head><title>Live log</title></head><body>\n")
        for number in range(self.pieces):
            # The wait paces the pieces, and ends the page once the client has bytes.
            if self.seen.wait(self.every):
                break
            self.send(conn, b"<p>line %d of a log that is still being written</p>\n" % number)
        self.seen_while_sending = self.seen.is_set()
        self.send(conn, b"</body></html>\n")
        conn.sendall(b"0\r\n\r\n")

    def send(self, conn: socket.socket, data: bytes) -> None:
        """Send one chunk and remember its bytes."""
        self.sent += data
        conn.sendall(chunk(data))


def test_a_page_still_arriving_at_the_buffer_deadline_streams_as_the_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 29 (5): a chunked page was buffered until it ended, with no time
    # limit: 60 B every 0.5 s, nothing reached the client in 12 s.
    trickle = Trickle()
    options = ("plainview_buffer_timeout=1",)
    with serve_scripts({"/log.html": trickle.script}) as base, proxy(
        tmp_path, monkeypatch, *options
    ) as running:
        response = get(running, f"{base}/log.html")
        first = response.read1(65536)
        trickle.seen.set()
        body = first + read_all(response)
    assert trickle.seen_while_sending  # the client had bytes before the page ended
    assert response.status == 200
    assert body == trickle.sent  # the original, byte for byte
    assert response.headers["cache-control"] == "no-cache"  # shown once, not kept


def cut_short(body: bytes, declared: int) -> Script:
    """Answer with a Content-Length of `declared` bytes, send `body`, and close."""

    def script(conn: socket.socket) -> None:
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (declared, body)
        )

    return script


def test_a_body_cut_short_of_its_length_reaches_the_client_as_it_came(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 29 (14): in reader mode a body shorter than its Content-Length became
    # a 502 and what had arrived was lost; original mode relays it.
    page = article_html()
    with serve_scripts({"/cut.html": cut_short(page, 2 * len(page))}) as base, proxy(
        tmp_path, monkeypatch
    ) as running:
        response = get(running, f"{base}/cut.html")
        body = read_all(response)
    assert response.status == 200
    assert body == page


def settles_below(running: ProxyProcess, mib: float, within: float) -> bool:
    """Wait until the proxy's resident memory is below `mib`; say if it got there in time."""
    deadline = time.monotonic() + within
    while resident_mib(running.process.pid) >= mib:
        if time.monotonic() > deadline:
            return False
        # Between two readings, wait on the process itself: its exit ends the wait.
        with contextlib.suppress(subprocess.TimeoutExpired):
            running.process.wait(timeout=0.1)
            return False
    return True


def test_memory_goes_back_after_a_burst_of_large_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 29 (14): after 200 pages of 5 MB at once the proxy stayed at ~1 GiB:
    # glibc kept the heap the bodies had grown, and the recent pages' records
    # kept each page's left-out text.
    paragraph = b"<p>" + b"word " * 200 + b"</p>\n"
    page = b"<html><body><article><h1>Big</h1>" + paragraph * 5000 + b"</article></body></html>"
    served = cut_short(page, len(page))  # whole: as long as it says
    # Every page must become a reader view (its record is what held the memory),
    # however busy the machine: the 60 jobs queue for the workers, so the page
    # budget and the client's patience cover the whole queue.
    budget = f"plainview_timeout={BURST_BUDGET}"
    with (
        serve_scripts({"/big.html": served}) as base,
        proxy(tmp_path, monkeypatch, budget) as running,
    ):
        before = resident_mib(running.process.pid)
        url = f"{base}/big.html"
        with ThreadPoolExecutor(60) as loads:
            bodies = list(
                loads.map(lambda _: read_all(get(running, url, patience=BURST_BUDGET)), range(60))
            )
        assert all(READER_MARK in body for body in bodies)
        assert settles_below(running, before + 100, within=20)
