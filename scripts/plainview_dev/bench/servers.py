"""The parts of a proxy benchmark: an origin process, proxy processes, a client, memory.

The origin runs in its own process (`python -m plainview_dev.bench.servers`), so the
client's timings never wait on the origin's Python, and the proxies are the
real programs: `plainview proxy` and a bare `mitmdump`.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Literal
from urllib.parse import urlsplit

import psutil  # type: ignore[import-untyped]

from addon.cli.proxy_command import mitmdump_path
from plainview_dev.bench.common import PAGE_CONTENT_TYPE, Json, load_ids
from plainview_dev.loadtest import free_port, stop, why_not_listening

# How long a proxy or the origin may take to start (imports, a new CA, loading pages).
START_TIMEOUT = 120.0
# Seconds a client waits for one response before it counts as a failure.
CLIENT_TIMEOUT = 60.0
# The small subresources of the passthrough probes.
IMAGE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64
STYLE = b"body { color: #123456; margin: 0 auto; }\n" * 30
MIB = 2**20

ProxyKind = Literal["plainview", "mitmdump"]


class StartFailed(Exception):
    """A server exited or never listened."""


# -- the origin ------------------------------------------------------------------------


def origin_resources(pages: dict[str, bytes]) -> dict[str, tuple[bytes, str]]:
    """Return what the origin serves by path: the pages, an image and a stylesheet."""
    served = {page_path(file_id): (body, PAGE_CONTENT_TYPE) for file_id, body in pages.items()}
    served["/image.png"] = (IMAGE, "image/png")
    served["/style.css"] = (STYLE, "text/css")
    return served


def page_path(file_id: str) -> str:
    """Return the origin's path of one dataset page."""
    return f"/page/{file_id}.html"


def _handler(served: dict[str, tuple[bytes, str]]) -> type[BaseHTTPRequestHandler]:
    """Return a keep-alive request handler serving fixed resources."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; with Nagle's algorithm the second
        # waits for the client's delayed ACK (40 ms), which would swamp the timings.
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            body, content_type = served.get(self.path, (b"not found", "text/plain"))
            self.send_response(200 if self.path in served else 404)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Keep the benchmark's output quiet."""

    return Handler


def serve(served: dict[str, tuple[bytes, str]], ready: IO[str]) -> None:
    """Serve on a free port of 127.0.0.1 until killed; write the port to `ready` first."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(served), bind_and_activate=False)
    # Many clients connect at once under load; the default backlog of 5 would drop some.
    server.request_queue_size = 128
    server.daemon_threads = True
    server.server_bind()
    server.server_activate()
    ready.write(f"{server.server_address[1]}\n")
    ready.flush()
    server.serve_forever()


@dataclass
class Origin:
    """A running origin process and the port it listens on."""

    process: subprocess.Popen[str]
    port: int

    def url(self, path: str) -> str:
        """Return the absolute URL of a path on this origin."""
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def run_origin(dataset: Path, ids: Sequence[str]) -> Iterator[Origin]:
    """Run an origin process serving the given dataset pages, the image and the stylesheet."""
    command = [
        sys.executable, "-m", "plainview_dev.bench.servers", "--dataset", str(dataset), *ids,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=_no_proxy_env())
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        if not line.isdigit():
            raise StartFailed(f"the origin did not start (exit {process.wait(timeout=30)})")
        yield Origin(process, int(line))
    finally:
        stop(process)


def main(argv: Sequence[str] | None = None) -> int:
    """Load the named dataset pages and serve them (the origin process)."""
    parser = argparse.ArgumentParser(description="Serve dataset pages for the benchmarks.")
    parser.add_argument("--dataset", type=Path, required=True)
    parser.add_argument("ids", nargs="*", help="file ids to serve")
    args = parser.parse_args(argv)
    pages = {page.file_id: page.body for page in load_ids(args.dataset, args.ids)}
    serve(origin_resources(pages), sys.stdout)
    return 0


# -- the proxies -----------------------------------------------------------------------


@dataclass
class Proxy:
    """A running proxy process: what it is, where it listens, where it logs."""

    kind: ProxyKind
    process: subprocess.Popen[bytes]
    port: int
    log: Path


def proxy_command(kind: ProxyKind, port: int, home: Path, options: Sequence[str] = ()) -> list[str]:
    """Return the command line of `plainview proxy` in reader mode, or of a bare mitmdump.

    `options` are mitmproxy options (NAME=VALUE) for either.
    """
    extra = [part for option in options for part in ("--set", option)]
    confdir = f"confdir={home / 'mitmproxy'}"
    if kind == "plainview":
        return [
            sys.executable, "-m", "addon.cli.main", "proxy", "--listen-port", str(port),
            "--config", str(home / "config" / "config.toml"), "--mode", "reader",
            "--set", confdir, *extra,
        ]  # fmt: skip
    mitmdump = mitmdump_path()
    if mitmdump is None:
        raise StartFailed("mitmdump not found; install mitmproxy")
    # flow_detail=0 as `plainview proxy` sets it: no per-flow log lines in either,
    # unless asked for (mitmdump refuses an option given twice).
    quiet = [] if any(o.startswith("flow_detail=") for o in options) else ["--set", "flow_detail=0"]
    return [
        mitmdump, "--listen-host", "127.0.0.1", "--listen-port", str(port),
        *quiet, "--set", confdir, *extra,
    ]  # fmt: skip


@contextmanager
def run_proxy(kind: ProxyKind, home: Path, options: Sequence[str] = ()) -> Iterator[Proxy]:
    """Run one proxy on a free port with its files under `home`; stop it afterwards."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = home / "proxy.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            proxy_command(kind, port, home, options),
            stdout=out, stderr=subprocess.STDOUT, env=_no_proxy_env(), cwd=home,
        )  # fmt: skip
    proxy = Proxy(kind, process, port, log)
    try:
        problem = why_not_listening(process, port, START_TIMEOUT)
        if problem:
            raise StartFailed(f"{kind} {problem}:\n{log.read_text()}")
        yield proxy
    finally:
        stop(process)


def _no_proxy_env() -> dict[str, str]:
    """Return the environment without proxy settings: servers connect directly."""
    names = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
    return {key: value for key, value in os.environ.items() if key.lower() not in names}


# -- the client ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fetched:
    """One response as the client saw it, and how long it took to arrive whole."""

    status: int
    body: bytes
    headers: dict[str, str]
    seconds: float

    def server_timing(self, metric: str) -> float | None:
        """Return a Server-Timing metric's duration in ms, None when the response has none."""
        return server_timing_ms(self.headers.get("server-timing", ""), metric)

    @property
    def is_reader_view(self) -> bool:
        """Tell whether Plainview replaced the page (its strict policy is on every view)."""
        return "default-src 'none'" in self.headers.get("content-security-policy", "")


def server_timing_ms(header: str, metric: str) -> float | None:
    """Return the `dur` of one metric of a Server-Timing header value, in ms."""
    # Splits at every comma: the descriptions Plainview writes hold none.
    for entry in header.split(","):
        name, *params = (part.strip() for part in entry.split(";"))
        if name != metric:
            continue
        for param in params:
            key, _, value = param.partition("=")
            value = value.strip().strip('"')
            if key.strip().lower() == "dur":
                return float(value) if _DURATION.fullmatch(value) else None
    return None


# A Server-Timing duration: milliseconds, a decimal number.
_DURATION = re.compile(r"\d+(?:\.\d*)?")


class Client:
    """A keep-alive HTTP client, direct to the origin or through a proxy."""

    def __init__(self, proxy_port: int | None = None) -> None:
        self.proxy_port = proxy_port
        self._connection: http.client.HTTPConnection | None = None
        self._host = ""

    def get(self, url: str, headers: dict[str, str] | None = None) -> Fetched | str:
        """GET a URL; return the response, or a string saying why there is none."""
        parts = urlsplit(url)
        target = url if self.proxy_port else parts.path or "/"
        connection = self._connect(parts.netloc)
        started = time.perf_counter()
        try:
            connection.request("GET", target, headers=headers or {})
            response = connection.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            return f"{type(error).__name__}: {error}"
        seconds = time.perf_counter() - started
        found = {name.lower(): value for name, value in response.getheaders()}
        if response.will_close:
            self.close()
        return Fetched(response.status, body, found, seconds)

    def _connect(self, netloc: str) -> http.client.HTTPConnection:
        """Return the open connection, opening one to the proxy or the origin if needed."""
        host = f"127.0.0.1:{self.proxy_port}" if self.proxy_port else netloc
        if self._connection is None or self._host != host:
            self.close()
            self._connection = http.client.HTTPConnection(host, timeout=CLIENT_TIMEOUT)
            self._host = host
        return self._connection

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


# A browser's top-level navigation, as the proxy sees it.
PAGE_HEADERS = {
    "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
    "Sec-Fetch-Dest": "document",
    "Accept-Encoding": "identity",
}
IMAGE_HEADERS = {"Accept": "image/*", "Sec-Fetch-Dest": "image"}
STYLE_HEADERS = {"Accept": "text/css", "Sec-Fetch-Dest": "style"}


# -- memory ----------------------------------------------------------------------------


def peak_rss(process: psutil.Process) -> int | None:
    """Return the process's peak resident memory in bytes (Linux VmHWM), None elsewhere."""
    try:
        for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _mib(value: int | None) -> float | None:
    """Return bytes in MiB, rounded."""
    return None if value is None else round(value / MIB, 1)


def _role(child: psutil.Process, root: psutil.Process) -> str:
    """Name what a descendant of the proxy does: worker, fork server or resource tracker."""
    command = " ".join(child.cmdline())
    if "resource_tracker" in command:
        return "resource tracker"
    if "forkserver" in command and child.ppid() == root.pid:
        return "fork server"
    return "worker"


def memory_report(pid: int) -> Json:
    """Return the resident and peak memory of a proxy process and of each of its descendants."""
    root = psutil.Process(pid)
    children = []
    for child in root.children(recursive=True):
        try:
            children.append(
                {
                    "pid": child.pid,
                    "role": _role(child, root),
                    "rss_mib": _mib(child.memory_info().rss),
                    "peak_rss_mib": _mib(peak_rss(child)),
                }
            )
        except psutil.NoSuchProcess:
            continue  # it ended between the listing and the reading
    rss = root.memory_info().rss
    total = rss * 1.0 + sum(MIB * (child["rss_mib"] or 0) for child in children)
    return {
        "rss_mib": _mib(rss),
        "peak_rss_mib": _mib(peak_rss(root)),
        "children": children,
        "total_rss_mib": _mib(int(total)),
    }


@dataclass
class MemorySampler:
    """Sample a process tree's total resident memory in the background; keep the peak."""

    pid: int
    interval: float = 0.25
    peak_total: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> MemorySampler:
        # Sampled at both ends too, so a run shorter than the interval has its peak.
        self._sample()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._sample()

    def _loop(self) -> None:
        """Sample until stopped."""
        while not self._stop.wait(self.interval):
            self._sample()

    def _sample(self) -> None:
        """Add up the tree's RSS now and keep it if it is the highest yet."""
        self.peak_total = max(self.peak_total, tree_rss(self.pid))

    @property
    def peak_mib(self) -> float | None:
        """Return the highest total seen, in MiB."""
        return _mib(self.peak_total)


def cpu_seconds(pid: int) -> tuple[float, float]:
    """Return the CPU seconds (user + system) of a process and of all its descendants."""
    root = psutil.Process(pid)
    main = sum(root.cpu_times()[:2])
    descendants = 0.0
    for child in root.children(recursive=True):
        try:
            descendants += sum(child.cpu_times()[:2])
        except psutil.NoSuchProcess:
            continue
    return float(main), descendants


def tree_rss(pid: int) -> int:
    """Return the resident memory of a process and all its descendants, in bytes."""
    try:
        root = psutil.Process(pid)
        members = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


if __name__ == "__main__":
    sys.exit(main())
