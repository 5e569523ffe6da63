"""The servers of the end-to-end tests: a local origin and a real `plainview proxy` process."""

from __future__ import annotations

import contextlib
import gzip
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest
from plainview_dev.loadtest import free_port, stop, why_not_listening

DATASET = Path(__file__).resolve().parents[3] / "shared/datasets/wcxb-dev"
# A plain article page of the dataset (CDC, "Healthy Eating Tips").
ARTICLE_ID = "0074"
# How long the proxy may take to start listening (it imports mitmproxy, makes a CA).
START_TIMEOUT = 60.0
# Seconds one page may take in the proxy under test.
PAGE_BUDGET = 30
# Host names under .test reach 127.0.0.1 through the proxy: plain-HTTP sites as
# Chromium sees them on the web (no Fetch Metadata), served by the tests' origins.
HOSTS_ADDON = Path(__file__).with_name("hosts_addon.py")
SETTINGS_PAGE = "http://plainview.proxy/"


class ProxyFailed(Exception):
    """The proxy process exited or never listened."""


@dataclass(frozen=True)
class Resource:
    """One thing the origin serves: body and headers."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    status: int = 200


def dataset_html(page_id: str) -> bytes:
    """Return a dataset page as it was served."""
    return gzip.decompress((DATASET / "html" / f"{page_id}.html.gz").read_bytes())


def article_html() -> bytes:
    """Return the dataset's article page as it was served."""
    return dataset_html(ARTICLE_ID)


def resources() -> dict[str, Resource]:
    """Return what the origin serves, by path."""
    html = article_html()
    page = (("Content-Type", "text/html; charset=utf-8"), ("Set-Cookie", "visit=1; Path=/"))
    return {
        "/article.html": Resource(html, page),
        "/original/article.html": Resource(html, page),
        "/gzip/article.html": Resource(gzip.compress(html), (*page, ("Content-Encoding", "gzip"))),
        "/image.png": Resource(
            b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64, (("Content-Type", "image/png"),)
        ),
        "/style.css": Resource(b"body { color: #123456; }\n" * 50, (("Content-Type", "text/css"),)),
        "/data.json": Resource(
            b'{"items": [1, 2, 3], "html": "<p>not a page</p>"}',
            (("Content-Type", "application/json"),),
        ),
        "/download.html": Resource(
            html,
            (
                ("Content-Type", "text/html"),
                ("Content-Disposition", 'attachment; filename="page.html"'),
            ),
        ),
    }


@dataclass
class OriginServer:
    """A running origin: its base URL, what it serves, and every request path it got."""

    base: str
    served: dict[str, Resource]
    paths: list[str] = field(default_factory=list)
    # Notified each time a response has been written in full.
    sent: threading.Condition = field(default_factory=threading.Condition)
    sent_paths: list[str] = field(default_factory=list)

    def wait_until_sent(self, paths: list[str], timeout: float = 60.0) -> bool:
        """Wait until the origin has written its whole response to each path; say if it did."""
        with self.sent:
            return self.sent.wait_for(
                lambda: all(path in self.sent_paths for path in paths), timeout
            )

    def url(self, path: str, host: str = "") -> str:
        """Return the absolute URL of a path on this origin, by another host name if given
        (one under .test reaches this origin through the proxy: HOSTS_ADDON)."""
        if not host:
            return self.base + path
        port = self.base.rsplit(":", 1)[1]
        return f"http://{host}:{port}{path}"

    def serve_dataset_page(self, page_id: str, prefix: str = "/wcxb/") -> str:
        """Serve a dataset page as UTF-8 HTML at prefix + "<id>.html"; return that path."""
        path = f"{prefix}{page_id}.html"
        html = (("Content-Type", "text/html; charset=utf-8"),)
        self.served[path] = Resource(dataset_html(page_id), html)
        return path


def _handler(origin: OriginServer) -> type[BaseHTTPRequestHandler]:
    """Return a request handler class serving the origin's resources."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            origin.paths.append(self.path)
            resource = origin.served.get(self.path.split("?", 1)[0])
            if resource is None:
                resource = Resource(b"not found", (("Content-Type", "text/plain"),), 404)
            self.send_response(resource.status)
            for name, value in resource.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(resource.body)))
            self.end_headers()
            self.wfile.write(resource.body)
            self.wfile.flush()
            with origin.sent:
                origin.sent_paths.append(self.path)
                origin.sent.notify_all()

        def log_message(self, format: str, *args: object) -> None:
            """Keep the test output quiet."""

    return Handler


@contextmanager
def serve_origin() -> Iterator[OriginServer]:
    """Serve an article page, an image, CSS, JSON and a download on 127.0.0.1."""
    origin = OriginServer("", resources())
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(origin))
    origin.base = f"http://127.0.0.1:{server.server_address[1]}"
    # A short poll interval lets shutdown() return quickly.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield origin
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class ProxyProcess:
    """A running `plainview proxy`: where it listens and where its files are."""

    process: subprocess.Popen[bytes]
    port: int
    config: Path
    confdir: Path
    log: Path

    @property
    def address(self) -> str:
        """Return "127.0.0.1:port"."""
        return f"127.0.0.1:{self.port}"

    @property
    def ca_file(self) -> Path:
        """Return the CA certificate (PEM) the proxy signs HTTPS sites with."""
        return self.confdir / "mitmproxy-ca-cert.pem"

    @property
    def secret(self) -> str:
        """Return the per-install token the settings forms carry."""
        return (self.config.parent / "secret-token").read_text().strip()


def wait_until_listening(proxy: ProxyProcess, timeout: float = START_TIMEOUT) -> None:
    """Wait until the proxy accepts connections; raise if it exits first."""
    problem = why_not_listening(proxy.process, proxy.port, timeout)
    if problem:
        raise ProxyFailed(f"plainview proxy {problem}:\n{proxy.log.read_text()}")


def wait_until_ready(proxy: ProxyProcess, timeout: float = START_TIMEOUT) -> None:
    """Poll the settings page through the proxy until the addon answers it.

    mitmdump listens before the addon has read its config and made the secret
    token; until then a request to the settings host fails.
    """
    address = f"http://{proxy.address}"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": address}))
    deadline = time.monotonic() + timeout
    while True:
        try:
            with opener.open(SETTINGS_PAGE, timeout=10) as response:
                if response.status == 200 and (proxy.config.parent / "secret-token").exists():
                    return
        except (urllib.error.URLError, OSError):
            pass  # not ready yet
        if time.monotonic() > deadline:
            raise ProxyFailed(f"plainview proxy did not serve its settings page within {timeout} s")
        try:
            # Between tries, wait on the process itself: its exit ends the wait at once.
            proxy.process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue
        raise ProxyFailed(f"plainview proxy exited:\n{proxy.log.read_text()}")


@contextmanager
def proxy_or_fail(home: Path, *extra: str) -> Iterator[ProxyProcess]:
    """Run `plainview proxy` as `run_proxy` does; fail the test when it cannot start."""
    try:
        with run_proxy(home, *extra) as proxy:
            yield proxy
    except ProxyFailed as error:
        pytest.fail(str(error))


@contextmanager
def run_proxy(home: Path, *extra: str) -> Iterator[ProxyProcess]:
    """Run `plainview proxy` on a free port with its config and a fresh CA under `home`."""
    config, confdir, log = home / "config" / "config.toml", home / "mitmproxy", home / "proxy.log"
    port = free_port()
    # A generous page budget unless the test sets its own: the first pages meet
    # workers still starting on a busy machine.
    own_budget = any(part.startswith("plainview_timeout=") for part in extra)
    budget = () if own_budget else ("--set", f"plainview_timeout={PAGE_BUDGET}")
    # A worker per core unless the test asks otherwise: the suite loads hundreds
    # of pages, which the default (one core left to the proxy) serves at half speed.
    own_workers = any(part.startswith("plainview_workers=") for part in extra)
    workers = () if own_workers else ("--set", f"plainview_workers={os.cpu_count() or 1}")
    command = [
        sys.executable, "-m", "addon.cli.main", "proxy",
        "--listen-port", str(port), "--config", str(config), "--set", f"confdir={confdir}",
        "--set", f"scripts={HOSTS_ADDON}",
        "--set", f"plainview_site_memory_dir={home / 'site-memory'}", *budget, *workers, *extra,
    ]  # fmt: skip
    # The proxy itself must connect to the origin directly.
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy")}
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=home)
    proxy = ProxyProcess(process, port, config, confdir, log)
    try:
        wait_until_listening(proxy)
        wait_until_ready(proxy)
        yield proxy
    finally:
        stop(process)


def resident_mib(pid: int) -> float:
    """Return a process's resident memory in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@dataclass(frozen=True)
class Fetched:
    """A response as the client saw it."""

    status: int
    headers: Message
    body: bytes


def fetch_through(
    proxy: ProxyProcess, url: str, *, headers: dict[str, str] | None = None, timeout: float = 120
) -> Fetched:
    """GET a URL through the proxy; an HTTP error status is an answer too."""
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": f"http://{proxy.address}"})
    )
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=timeout) as response:
            return Fetched(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Fetched(error.code, error.headers, error.read())


def add_rule(proxy: ProxyProcess, path: str, mode: str, host: str = "127.0.0.1") -> None:
    """Save a rule for a path of a host as the settings page's form does."""
    post_settings(proxy, "/rules", {"host": host, "path": path, "mode": mode}, shows=path)


def set_defaults(proxy: ProxyProcess, **fields: str) -> None:
    """Change the settings' defaults as the settings page's form does (blank: as they are)."""
    post_settings(proxy, "/defaults", fields)


def post_settings(proxy: ProxyProcess, path: str, fields: dict[str, str], shows: str = "") -> None:
    """POST a settings form with the token, from the settings page; it must land back there."""
    request = urllib.request.Request(
        f"http://plainview.proxy{path}",
        data=urlencode({"token": proxy.secret, **fields}).encode(),
        headers={"Origin": "http://plainview.proxy", "Sec-Fetch-Site": "same-origin"},
    )
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": f"http://{proxy.address}"})
    )
    with opener.open(request, timeout=30) as response:  # follows the 303 to the settings page
        assert response.status == 200
        assert shows.encode() in response.read()


# Writes one raw answer to the connection it is given: 1xx heads, trickled
# chunks, bodies shorter than their Content-Length.
Script = Callable[[socket.socket], None]


@contextmanager
def serve_scripts(scripts: dict[str, Script]) -> Iterator[str]:
    """Answer each path by its script over raw TCP on 127.0.0.1; yield the base URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    answering: list[threading.Thread] = []

    def answer(conn: socket.socket) -> None:
        with conn:
            head = b""
            while b"\r\n\r\n" not in head:
                piece = conn.recv(65536)
                if not piece:
                    return
                head += piece
            path = head.split(b" ", 2)[1].decode("latin-1")
            script = scripts.get(path.split("?", 1)[0])
            if script is not None:
                with contextlib.suppress(OSError):  # the proxy may close first
                    script(conn)

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # closed: the block ended
                return
            thread = threading.Thread(target=answer, args=(conn,), daemon=True)
            answering.append(thread)
            thread.start()

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        acceptor.join()
        for thread in answering:
            thread.join()


def chunk(data: bytes) -> bytes:
    """Return data as one chunk of a chunked body."""
    return b"%x\r\n%s\r\n" % (len(data), data)
