"""The mitmproxy addon: top-level HTML pages become reader views; everything else passes.

This is the only module that talks to mitmproxy. CPU work (extraction and
rendering) runs in worker processes so the event loop never blocks; when it
fails, is too slow or finds too little, the original response goes out.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import math
import multiprocessing
import os
import re
import sys
import time
from collections.abc import Callable, Coroutine, Generator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from mitmproxy import connection, ctx, exceptions, http
from mitmproxy.addonmanager import Loader
from mitmproxy.proxy import events
from mitmproxy.proxy.layers.http import HttpStream
from mitmproxy.proxy.layers.http._events import ResponseData, ResponseProtocolError
from mitmproxy.proxy.layers.http._http1 import Http1Client
from mitmproxy.proxy.server_hooks import ServerConnectionHookData

from addon.core import params_for
from addon.core.heuristics.readerable import MIN_READER_CHARS
from addon.core.heuristics.site_memory import SiteMemory
from addon.core.paper.pipelines import Pipeline, SpecError, parse_pipeline
from addon.job.reader_job import (
    LearnJob,
    PageJob,
    PageOutcome,
    learn_job,
    lower_priority,
    run_job,
    warm_up,
)
from addon.proxy.body_copy import BodyCopy
from addon.proxy.frames import Frames, FrameScan
from addon.proxy.page_switch import OneTimePasses, strip_marker, with_marker
from addon.proxy.pool import PipePool
from addon.proxy.recent import PageRecord, RecentPages, new_id
from addon.render.pages import PageStyle, ReaderLinks, content_security_policy
from addon.settings.app import MAX_FORM_BYTES, SettingsApp, WebReply, WebRequest
from addon.settings.guard import (
    SETTINGS_HOST,
    SETTINGS_ORIGINS,
    SecretError,
    load_or_create_secret,
    site_token,
)
from addon.settings.memory import SiteMemoryStore, default_memory_dir
from addon.settings.rules import (
    MODES,
    ConfigStore,
    ConfigWriteError,
    SiteSettings,
    default_config_path,
)

log = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_TIMEOUT = "2.0"
# A page still arriving this long after its headers streams on as the original:
# a live log or a streamed answer reaches the client instead of waiting blank.
DEFAULT_BUFFER_TIMEOUT = "5.0"
# A job's own budget (a timer signal) ends it at the timeout when it runs Python;
# one still running this much later is stuck in a C call and its worker is killed.
KILL_GRACE = 0.25
MAX_WORKERS = 64
# flow.metadata keys: a response Plainview made itself; a page to show as it is.
OWN_PAGE = "plainview_own"
# The mode a one-time marker asked for this load of the page ("original", "reader").
ONE_TIME_MODE = "plainview_one_time_mode"
DECISION = "plainview_decision"
# When a page held to become a reader view stops being held (time.monotonic()).
BUFFER_UNTIL = "plainview_buffer_until"
# The site's settings, looked up once per flow.
SETTINGS = "plainview_settings"
# The FrameScan of a page that may go out as it came (plain HTTP, no Fetch Metadata).
FRAME_SCAN = "plainview_frame_scan"
# The BodyCopy of a page that goes out as it came, for the site memory to learn.
BODY_COPY = "plainview_body_copy"
# A page shown as the original is copied for the memory up to this size as it came
# (compressed, most often): each streaming page holds its copy until it is read, and a
# larger page is rare and no better a teacher of the site's template.
LEARN_MAX_BYTES = 2 * 1024 * 1024
READER_FORM_ACTION = " ".join([*sorted(SETTINGS_ORIGINS), "'self'"])
# Headers of the original that would be wrong for the reader view.
DROPPED_HEADERS = (
    "content-encoding",
    "transfer-encoding",
    "content-length",
    "etag",
    "last-modified",
    "content-security-policy",
    "content-security-policy-report-only",
    "content-md5",
    "digest",
    # What speaks for the original page, not for the reader view: preloads of
    # its scripts and fonts, a timed redirect, and leave for other sites to read
    # it (a reader view carries a site token: no other site may fetch it).
    "link",
    "refresh",
    "access-control-allow-origin",
    "access-control-allow-credentials",
    "access-control-expose-headers",
    "access-control-allow-methods",
    "access-control-allow-headers",
    "access-control-max-age",
    "timing-allow-origin",
)

Transform = Callable[[PageJob], PageOutcome]
J = TypeVar("J")
R = TypeVar("R")
# What the worker processes import up front: extraction and rendering, not mitmproxy.
WORKER_MODULE = run_job.__module__
# mitmproxy's exception class is untyped; this alias gives it a typed constructor.
OptionsError: type[Exception] = exceptions.OptionsError


def default_workers() -> int:
    """Return how many workers a pool of size 0 runs: one fewer than the cores, at least one."""
    # With a worker per core, small requests waited behind the reader views far
    # longer than behind mitmproxy's own relaying (2 cores: +140% p95 against
    # +88% at the same page rate); with one core left to the event loop, +101%
    # against +83%. The cost: a fifth fewer pages a second under heavy load
    # (docs/performance.md, "One worker instead of two").
    return max(1, (os.cpu_count() or 1) - 1)


def default_pool(workers: int = 0) -> PipePool:
    """Return `workers` processes fed through pipes (0: `default_workers`).

    Workers never fork the threaded proxy process: where available, a fork
    server that has imported only the worker's modules forks them (fast to
    start), else each is spawned afresh.
    """
    workers = workers or default_workers()
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload([WORKER_MODULE])
        return PipePool(workers, forkserver, initializer=lower_priority)
    return PipePool(workers, multiprocessing.get_context("spawn"), initializer=lower_priority)


@dataclass(frozen=True, slots=True)
class Decision:
    """Why a response goes out as it is: "passthrough" (not a page) or "original"."""

    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Limits:
    """The validated options that bound the work done per page."""

    max_bytes: int = DEFAULT_MAX_BYTES
    timeout: float = float(DEFAULT_TIMEOUT)
    buffer_timeout: float = float(DEFAULT_BUFFER_TIMEOUT)
    mode: str = ""  # overrides the config file's default mode when set
    workers: int = 0  # worker processes; 0: one fewer than the cores, at least one


def media_type(headers: http.Headers) -> str:
    """Return the Content-Type's media type, lowercase, without parameters."""
    return str(headers.get("content-type", "")).split(";", 1)[0].strip().lower()


def is_attachment(headers: http.Headers) -> bool:
    """Tell whether the response is a download (Content-Disposition: attachment)."""
    disposition = str(headers.get("content-disposition", ""))
    return disposition.split(";", 1)[0].strip().lower() == "attachment"


def declared_length(headers: http.Headers) -> int | None:
    """Return the Content-Length, or None when absent or malformed."""
    value = str(headers.get("content-length", "")).strip()
    return int(value) if value.isdigit() else None


# The headers that let an origin answer 304 Not Modified.
CONDITIONAL_HEADERS = ("if-none-match", "if-modified-since")


# Headers a page's own script sets on its requests for HTML fragments (htmx, Turbo,
# jQuery and most XHR wrappers).
SCRIPT_REQUEST_HEADERS = ("hx-request", "turbo-frame", "x-requested-with")


def wants_page(request: http.Request) -> bool:
    """Tell whether a request loads a page: by Fetch Metadata, else by what it accepts."""
    # Chromium sends Sec-Fetch-* to trustworthy origins only: over plain HTTP a
    # fetch() or an <img> of an HTML page carries none. Their Accept tells them
    # apart from a navigation's ("text/html,..."); a client that sends no Accept
    # at all (a simple reader app) asks for the page.
    dest: str | None = request.headers.get("sec-fetch-dest")
    if dest is not None:
        return dest.lower() == "document"
    if any(name in request.headers for name in SCRIPT_REQUEST_HEADERS):
        return False
    accept: str | None = request.headers.get("accept")
    return accept is None or "text/html" in accept or "application/xhtml+xml" in accept


def keep_out_of_cache(response: http.Response) -> None:
    """Make the browser ask again before it shows an original page load from its cache:
    "show original" is once, a mode change is seen on the next load."""
    # no-cache, not no-store: the back button still shows what was seen. Asked
    # again, the proxy strips the conditions (CONDITIONAL_HEADERS) and decides anew.
    response.headers["cache-control"] = "no-cache"


def is_page_load(flow: http.HTTPFlow) -> bool:
    """Tell whether the flow is a top-level navigation to an HTML page."""
    return (
        flow.request.method == "GET"
        and wants_page(flow.request)
        and flow.response is not None
        and media_type(flow.response.headers) in HTML_TYPES
    )


def may_hold_frames(flow: http.HTTPFlow) -> bool:
    """Tell whether a response is an HTML page whose frames' requests will carry no
    Fetch Metadata: a plain-HTTP page, itself asked for without it."""
    request, response = flow.request, flow.response
    return (
        request.scheme == "http"
        and "sec-fetch-dest" not in request.headers
        and response is not None
        and media_type(response.headers) in HTML_TYPES
    )


def refusal_by_headers(flow: http.HTTPFlow, max_bytes: int) -> str:
    """Return why the response cannot become a reader view, from headers alone ("" if it can)."""
    request, response = flow.request, flow.response
    assert response is not None
    dest = request.headers.get("sec-fetch-dest")
    length = declared_length(response.headers)
    reasons = (
        (flow.metadata.get(OWN_PAGE, False), "Plainview's own page"),
        # Answers made inside the proxy (mitm.it, other addons) never reached a server.
        (flow.server_conn.timestamp_start is None, "not from the site"),
        (flow.websocket is not None, "WebSocket"),
        (request.method != "GET", f"method {request.method}"),
        (response.status_code != 200, f"status {response.status_code}"),
        (media_type(response.headers) not in HTML_TYPES, "not HTML"),
        (dest is not None and dest.lower() != "document", f"Sec-Fetch-Dest: {dest}"),
        (dest is None and not wants_page(request), "not a page load (by its headers)"),
        (is_attachment(response.headers), "download (Content-Disposition: attachment)"),
        (length is not None and length > max_bytes, f"too large ({length} bytes)"),
    )
    return next((reason for refused, reason in reasons if refused), "")


def is_settings_host(host: str) -> bool:
    """Tell whether a host name is Plainview's reserved settings host."""
    return host.rstrip(".").lower() == SETTINGS_HOST


def reader_rule(settings: SiteSettings) -> str:
    """Return the site rule that sets reader mode for a page ("" if none does)."""
    return settings.mode_rule if settings.mode == "reader" else ""


def effective_mode(settings: SiteSettings, override: str) -> str:
    """Return the site's mode: its rule's, else the override, else the config default."""
    return override if override and settings.rule_index is None else settings.mode


def page_style(settings: SiteSettings) -> PageStyle:
    """Return how the site's reader view looks."""
    return PageStyle(
        theme=settings.theme,
        font_size=settings.font_size,
        width=settings.width,
        font=settings.font,
        line_height=settings.line_height,
    )


def reader_links(
    url: str, scheme: str, host: str, secret: str, record_id: str, *, rule: str = ""
) -> ReaderLinks:
    """Return the toolbar targets of one reader page (same scheme as the page), and the
    site rule that asks for reader views of it, if one does."""
    settings = f"{scheme}://{SETTINGS_HOST}/"
    return ReaderLinks(
        original_url=with_marker(url),
        toggle_action=f"{settings}toggle",
        settings_url=settings,
        token=site_token(secret, host),
        why_url=f"{settings}why?id={record_id}",
        rule=rule,
        style_action=f"{settings}style",
    )


def apply_reader_view(response: http.Response, outcome: PageOutcome) -> None:
    """Replace the response's body and the headers that describe it with the reader view."""
    assert outcome.html is not None
    for name in DROPPED_HEADERS:
        response.headers.pop(name, None)
    response.headers["content-type"] = "text/html; charset=utf-8"
    response.headers["content-security-policy"] = content_security_policy(
        outcome.style_source, READER_FORM_ACTION
    )
    # The origin alone, never the page's address; the toggle forms then send a real
    # Origin (no-referrer made it "null", which any page can send).
    response.headers["referrer-policy"] = "strict-origin"
    response.headers["cache-control"] = "no-store"
    response.headers["x-content-type-options"] = "nosniff"
    response.content = outcome.html


def server_timing(total_ms: float, worker_ms: float) -> str:
    """Describe the reader view's cost as a Server-Timing header (browsers' network panels)."""
    # plainview: the proxy's wait for the reader view; plainview-worker: the
    # worker's part of it (decode, extract, render); the rest is handing the page
    # over and back. It replaces the origin's header, which timed the original.
    return (
        f'plainview;desc="reader view";dur={total_ms:.1f}, '
        f'plainview-worker;desc="extraction and rendering";dur={worker_ms:.1f}'
    )


def make_response(reply: WebReply) -> http.Response:
    """Turn a settings-app reply into a mitmproxy response."""
    return http.Response.make(reply.status, reply.body, dict(reply.headers))


def is_encoded(request: http.Request) -> bool:
    """Tell whether a request's body carries a Content-Encoding other than identity."""
    codings = request.headers.get("content-encoding", "").split(",")
    return any(coding.strip().lower() not in ("", "identity") for coding in codings)


# A settings-host body past the form limit is answered (413) once read up to this
# size; past it the request is dropped unread.
MAX_ANSWERED_BYTES = 1 << 20

PLAIN_NO_STORE = {"content-type": "text/plain; charset=utf-8", "cache-control": "no-store"}


def body_refusal(headers: http.Headers) -> http.Response | None:
    """Return the answer to a settings-host request whose body must not be read, or None."""
    length = unread_bytes(headers)
    if length < 0:
        return http.Response.make(400, b"Bad Content-Length.", PLAIN_NO_STORE)
    if length > MAX_FORM_BYTES:
        return http.Response.make(413, b"The form is too large.", PLAIN_NO_STORE)
    return None


def unread_bytes(headers: http.Headers) -> int:
    """Return the length a request's headers announce (0 without a body, -1 if unreadable);
    a body without a length (chunked) counts as endless."""
    if "transfer-encoding" in headers:
        return sys.maxsize
    length = headers.get("content-length", "0").strip()
    return int(length) if length.isascii() and length.isdigit() else -1


def web_request(flow: http.HTTPFlow) -> WebRequest:
    """Describe a request to the settings host for the settings app."""
    request = flow.request
    return WebRequest(
        method=request.method,
        scheme=request.scheme,
        path=request.path,
        headers={
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in request.headers.fields
        },
        body=request.raw_content or b"",  # as sent: never decoded (is_encoded refused it)
    )


# Pages this large are followed by a heap trim; the trim waits this long, so a
# burst of them is trimmed about once a second.
TRIM_AFTER_BYTES = 1 << 20
TRIM_DELAY = 1.0


class HeapTrim:
    """Hand the memory freed after large pages back to the system (glibc's malloc_trim)."""

    # glibc keeps the heap its allocations grew to: after 200 pages of 5 MB at
    # once the proxy stayed at 1 GiB with nothing in it; trimmed, at ~300 MiB.
    # Other C libraries have no malloc_trim, and give memory back themselves.

    def __init__(self) -> None:
        library = ctypes.util.find_library("c")
        self._trim = getattr(ctypes.CDLL(library), "malloc_trim", None) if library else None
        self._pending = False

    def after(self, size: int) -> None:
        """Trim in a moment when a body of `size` bytes has gone (once for a burst)."""
        if self._trim is None or size < TRIM_AFTER_BYTES or self._pending:
            return
        self._pending = True
        asyncio.get_running_loop().call_later(TRIM_DELAY, self._run)

    def _run(self) -> None:
        """Trim the heap now."""
        self._pending = False
        assert self._trim is not None
        self._trim(0)


# A pool of workers: the default pipe-fed processes, or any executor (tests use threads).
Pool = PipePool | Executor
# Makes a pool of that many workers (0: default_workers()).
PoolFactory = Callable[[int], Pool]


class WorkerPool:
    """A pool of worker processes, recreated when it breaks or changes size."""

    def __init__(self, factory: PoolFactory) -> None:
        self._factory = factory
        self._pool: Pool | None = None
        self.size = 0

    def get(self) -> Pool:
        """Return the pool, creating it on first use."""
        if self._pool is None:
            self._pool = self._factory(self.size)
        return self._pool

    def resize(self, size: int) -> None:
        """Use `size` workers from the next page on (0: default_workers())."""
        if size != self.size:
            self.size = size
            self.shutdown()  # pages running in the old workers go out as the original

    async def start(self) -> None:
        """Start the workers, so the first page does not wait for them."""
        pool = self.get()
        if isinstance(pool, PipePool):
            await pool.start()
            return
        for _ in range(self.size or default_workers()):
            pool.submit(warm_up).add_done_callback(_report_warm_up)

    async def run(self, transform: Callable[[J], R], job: J, timeout: float) -> R:
        """Run one job in the pool; raise TimeoutError past `timeout` seconds."""
        pool = self.get()
        if isinstance(pool, PipePool):  # it replaces a dead worker itself
            running = pool.run(transform, job, kill_after=timeout + KILL_GRACE)
            outcome: R = await asyncio.wait_for(running, timeout)
            return outcome
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(pool, transform, job)
        except BrokenProcessPool:
            # The pool broke with no page in it (a worker died between pages, or
            # while starting): this page had no part in it, so a fresh pool takes it.
            self.replace(pool)
            pool = self.get()
            assert not isinstance(pool, PipePool)
            future = loop.run_in_executor(pool, transform, job)
        try:
            return await asyncio.wait_for(future, timeout)
        except BrokenProcessPool:
            self.replace(pool)
            raise

    def replace(self, broken: Executor) -> None:
        """Drop a broken pool (once, however many jobs saw it break)."""
        if self._pool is broken:
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers without waiting for running jobs."""
        pool, self._pool = self._pool, None
        if isinstance(pool, PipePool):
            pool.shutdown()
        elif pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class SiteLearning:
    """The site memory's work in the background: one original page read at a time (so
    learning never keeps a worker from more than one reader view), and the writes."""

    def __init__(self) -> None:
        self.reading: asyncio.Future[None] | None = None
        self.running: set[asyncio.Future[None]] = set()  # held, or the loop may drop them

    def busy(self) -> bool:
        """Tell whether a worker is reading a page for the memory."""
        return self.reading is not None and not self.reading.done()

    def read(self, work: Coroutine[Any, Any, None]) -> None:
        """Run the reading of one page."""
        self.reading = asyncio.ensure_future(work)
        self.keep(self.reading)

    def keep(self, task: asyncio.Future[None]) -> None:
        """Hold a task until it ends."""
        self.running.add(task)
        task.add_done_callback(self.running.discard)


class Plainview:
    """Turn top-level HTML pages into reader views; serve the settings host."""

    def __init__(
        self,
        transform: Transform = run_job,
        pool_factory: PoolFactory = default_pool,
        *,
        min_text_chars: int = MIN_READER_CHARS,
        recent_size: int = 100,
    ) -> None:
        self.transform = transform
        self.pool = WorkerPool(pool_factory)
        self.min_text_chars = min_text_chars
        self.recent = RecentPages(recent_size)
        self.heap = HeapTrim()
        self.passes = OneTimePasses()
        self.frames = Frames()
        self.limits = Limits()
        self.store: ConfigStore | None = None
        self.secret = ""
        self.params = params_for()
        self.pipeline: Pipeline | None = None  # extracts instead of `params` when set
        self.settings_clients: set[str] = set()  # connections that CONNECTed to the settings host
        self.memory: SiteMemoryStore | None = None
        self.learning = SiteLearning()

    # -- options ---------------------------------------------------------------------

    def load(self, loader: Loader) -> None:
        """Declare Plainview's options; close the gaps of mitmproxy's HTTP layer."""
        close_http_gaps()
        loader.add_option(
            "plainview_config", str, "",
            "Site settings file (TOML); empty: the user config directory's.",
        )  # fmt: skip
        loader.add_option(
            "plainview_mode", str, "",
            "Mode for sites without a rule: reader, original or auto; empty: the file's default.",
        )  # fmt: skip
        loader.add_option(
            "plainview_max_bytes", int, DEFAULT_MAX_BYTES,
            "Pages with larger bodies pass through untouched.",
        )  # fmt: skip
        loader.add_option(
            "plainview_timeout", str, DEFAULT_TIMEOUT,
            "Seconds one page may take to become a reader view; past it the original goes out.",
        )  # fmt: skip
        loader.add_option(
            "plainview_buffer_timeout", str, DEFAULT_BUFFER_TIMEOUT,
            "Seconds a page may take to arrive whole; one still arriving then streams on "
            "as the original.",
        )  # fmt: skip
        loader.add_option(
            "plainview_site_memory", bool, True,
            "Learn each site's template (menus, teasers, footers) from the pages that pass, "
            "and leave it out of its reader views.",
        )  # fmt: skip
        loader.add_option(
            "plainview_site_memory_dir", str, "",
            "Where the site memory is kept; empty: the user data directory's site-memory.",
        )  # fmt: skip
        loader.add_option(
            "plainview_workers", int, 0,
            "Worker processes that build reader views; 0: one fewer than the CPU cores, "
            "at least one.",
        )  # fmt: skip
        loader.add_option(
            "plainview_pipeline", str, "",
            "A pipeline of extraction algorithms for the reader view instead of the default "
            "one, e.g. vote2(addanag-plus,danag,dana); empty: off.",
        )  # fmt: skip

    def configure(self, updated: set[str]) -> None:
        """Validate the options; open the site settings and the secret token."""
        options = ctx.options
        self.limits = Limits(
            max_bytes=_check_max_bytes(options.plainview_max_bytes),
            timeout=_check_seconds("plainview_timeout", options.plainview_timeout),
            buffer_timeout=_check_seconds(
                "plainview_buffer_timeout", options.plainview_buffer_timeout
            ),
            mode=_check_mode(options.plainview_mode),
            workers=_check_workers(options.plainview_workers),
        )
        self.pipeline = _check_pipeline(options.plainview_pipeline)
        self.pool.resize(self.limits.workers)
        if "plainview_config" in updated or self.store is None:
            self._open_config(options.plainview_config)
        self._open_memory(options.plainview_site_memory, options.plainview_site_memory_dir)
        if "stream_large_bodies" in options and not options.stream_large_bodies:
            # mitmproxy buffers a body of unknown length (chunked) whole; with this
            # it switches to streaming once the buffer passes the page limit.
            options.stream_large_bodies = str(self.limits.max_bytes)

    def _open_config(self, option: str) -> None:
        """Open the config file (created if missing) and the secret token beside it."""
        path = Path(option).expanduser() if option else default_config_path()
        try:
            store = ConfigStore(path)
            store.ensure_exists()
            secret = load_or_create_secret(path.parent / "secret-token")
        except (OSError, ConfigWriteError, SecretError) as error:
            raise OptionsError(f"plainview_config: {error}") from error
        if store.error is not None:
            # The proxy still runs on the last good settings; the settings page shows this too.
            log.warning("plainview: %s", store.error)
        self.store, self.secret = store, secret

    def _open_memory(self, on: bool, directory: str) -> None:
        """Open the site memory's directory (created on its first page), or switch it off."""
        path = Path(directory).expanduser() if directory else default_memory_dir()
        if path.exists() and not path.is_dir():
            raise OptionsError(f"plainview_site_memory_dir: {path} is not a directory")
        if not on:
            self.memory = None
        elif self.memory is None or self.memory.directory != path:
            self.memory = SiteMemoryStore(path)

    async def running(self) -> None:
        """Start the workers now, so the first page does not wait for them."""
        try:
            await self.pool.start()
        except OSError as error:  # the first page tries again
            log.warning("plainview: the workers did not start: %s", error)

    def done(self) -> None:
        """Stop the workers."""
        self.pool.shutdown()

    # -- connections and requests ----------------------------------------------------

    def server_connect(self, data: ServerConnectionHookData) -> None:
        """Never connect upstream to the reserved settings host, over HTTP or HTTPS."""
        address = data.server.address
        # Behind an upstream proxy the address is the upstream's: the client's
        # CONNECT to the settings host tells instead.
        to_settings = address is not None and is_settings_host(address[0])
        if to_settings or data.client.id in self.settings_clients:
            data.server.error = f"{SETTINGS_HOST} is served by Plainview itself"

    def client_disconnected(self, client: connection.Client) -> None:
        """Forget a closed connection's CONNECT to the settings host."""
        self.settings_clients.discard(client.id)

    def http_connect(self, flow: http.HTTPFlow) -> None:
        """Accept a CONNECT to the settings host here, so no upstream connection is tried."""
        if is_settings_host(flow.request.host):
            self.settings_clients.add(flow.client_conn.id)
            flow.metadata[OWN_PAGE] = True
            flow.response = http.Response.make(200)
            flow.response.reason = "Connection established"
            flow.response.headers.clear()

    def requestheaders(self, flow: http.HTTPFlow) -> None:
        """Claim a settings-host request; refuse a body past the form limit unread."""
        # Answered from the headers, before mitmproxy reads the body or streams a
        # large one on: the settings host is never forwarded anywhere.
        if not is_settings_host(flow.request.host):
            return
        flow.metadata[OWN_PAGE] = True
        refusal = body_refusal(flow.request.headers)
        if refusal is None:
            return
        if refusal.status_code == 413 and unread_bytes(flow.request.headers) > MAX_ANSWERED_BYTES:
            # Answering would mean reading it all first (mitmproxy reads a body it
            # does not stream): a request this far past the limit is dropped unread.
            flow.kill()  # type: ignore[no-untyped-call]  # mitmproxy leaves it untyped
            return
        flow.request.stream = False  # a response set here goes out once the body is in
        flow.response = refusal

    async def request(self, flow: http.HTTPFlow) -> None:
        """Serve the settings host; turn a show-original link into a one-time pass."""
        request = flow.request
        if is_settings_host(request.host):
            await self._serve_settings(flow)
            return
        path, marked = strip_marker(request.path)
        if marked:
            # The site never sees the marker: it is stripped here, and a GET is
            # redirected to the clean URL, so the address bar and Referer lose it too.
            request.path = path
            # Only a page load arms the one-time pass: another site's fetch() of a
            # marked URL would arm it for the user's next visit.
            if request.method == "GET" and wants_page(request):
                self._redirect_once(flow, marked)
        elif request.method == "GET" and (mode := self.passes.take(request.url)):
            flow.metadata[ONE_TIME_MODE] = mode
        if request.method == "GET" and wants_page(request):
            # A 304 would pass through and show the browser's cached copy, which may
            # be an original: the proxy asks for the page itself.
            for name in CONDITIONAL_HEADERS:
                request.headers.pop(name, None)

    def _redirect_once(self, flow: http.HTTPFlow, mode: str) -> None:
        """Answer a marked link with a redirect to the page, whose next load goes out in
        `mode` once ("Show original", "Read this page")."""
        url = flow.request.url
        self.passes.allow(url, mode)
        flow.metadata[OWN_PAGE] = True
        flow.response = http.Response.make(303, b"", {"location": url, "cache-control": "no-store"})

    async def _serve_settings(self, flow: http.HTTPFlow) -> None:
        """Answer a request to the settings host without going upstream."""
        flow.metadata[OWN_PAGE] = True
        if flow.response is not None:  # answered from its headers
            return
        # The answer should the app fail: mitmproxy sends a flow without one on.
        flow.response = http.Response.make(
            500, b"Plainview's settings failed on this request.", PLAIN_NO_STORE
        )
        if is_encoded(flow.request):
            # Decoding is where a 1 MB bomb becomes gigabytes, on the event loop,
            # before any check: the forms are small and no browser compresses them.
            flow.response = http.Response.make(
                415, b"Plainview's settings take no compressed request bodies.", PLAIN_NO_STORE
            )
            return
        app = self._app()
        if app is None:
            flow.response = http.Response.make(503, b"Plainview is not configured yet.")
            return
        # In a thread, so other requests go on meanwhile: a write parses and rewrites
        # the file (1.2 s with 10,000 rules), the settings page reads the site memory's
        # files. The stores take their own locks.
        flow.response = make_response(await asyncio.to_thread(app.handle, web_request(flow)))

    def _app(self) -> SettingsApp | None:
        """Return the settings app over the current config (None before configure)."""
        if self.store is None:
            return None
        return SettingsApp(self.store, self.recent, self.secret, self.limits.mode, self.memory)

    # -- responses -------------------------------------------------------------------

    async def responseheaders(self, flow: http.HTTPFlow) -> None:
        """Stream what will go out as it is, so it is not buffered; remember the decision."""
        if flow.response is None or flow.metadata.get(OWN_PAGE):
            return
        if flow.response.status_code == 101:
            return  # a protocol switch has no body to buffer
        decision = await self._decide(flow)
        flow.metadata[DECISION] = decision  # None: the page may be transformed
        if may_hold_frames(flow):
            coding = flow.response.headers.get("content-encoding", "")
            scan = FrameScan(self.frames, flow.request.url, coding, self.limits.max_bytes)
            flow.metadata[FRAME_SCAN] = scan
        if decision is None:
            flow.metadata[BUFFER_UNTIL] = time.monotonic() + self.limits.buffer_timeout
        else:
            flow.response.stream = flow.metadata.get(FRAME_SCAN, True)
            if decision.action == "original" and is_page_load(flow):
                keep_out_of_cache(flow.response)  # before the streamed headers go out
                self._copy_to_learn(flow)

    def _copy_to_learn(self, flow: http.HTTPFlow) -> None:
        """Keep a copy of an original page as it streams, for the site memory to learn."""
        response = flow.response
        assert response is not None
        if self.memory is None or response.status_code != 200:
            return
        limit = min(self.limits.max_bytes, LEARN_MAX_BYTES)
        copy = BodyCopy(limit, flow.metadata.get(FRAME_SCAN))
        flow.metadata[BODY_COPY] = copy
        response.stream = copy

    async def _decide(self, flow: http.HTTPFlow) -> Decision | None:
        """Return why the response goes out as it is, or None when it may be transformed."""
        reason = refusal_by_headers(flow, self.limits.max_bytes)
        if reason:
            return Decision("passthrough", reason)
        if "sec-fetch-dest" not in flow.request.headers and self.frames.holds(
            flow.request.url, flow.request.headers.get("referer")
        ):
            return Decision("passthrough", "a frame of a page that went out as it came")
        once = flow.metadata.get(ONE_TIME_MODE)
        if once == "original":
            return Decision("original", "show original requested")
        settings = await self._settings(flow)
        if settings is None:
            return Decision("passthrough", "not configured")
        if once != "reader" and effective_mode(settings, self.limits.mode) == "original":
            return Decision("original", "original mode for this site")
        return None

    async def _settings(self, flow: http.HTTPFlow) -> SiteSettings | None:
        """Return the settings of the flow's site, looked up once (None before configure)."""
        if SETTINGS in flow.metadata:
            settings: SiteSettings = flow.metadata[SETTINGS]
            return settings
        if self.store is None:
            return None
        # current() stats the file and re-reads it when its identity changed: in a
        # thread, so a slow disk holds this page alone, not the event loop.
        config = await asyncio.to_thread(self.store.current)
        settings = config.settings_for(flow.request.pretty_host, flow.request.path)
        flow.metadata[SETTINGS] = settings
        return settings

    async def response(self, flow: http.HTTPFlow) -> None:
        """Replace an eligible page with its reader view; otherwise leave it untouched."""
        response = flow.response
        if response is None or flow.metadata.get(OWN_PAGE):
            return
        if DECISION in flow.metadata:
            decision = flow.metadata[DECISION]
        else:  # no responseheaders hook ran for this flow
            decision = await self._decide(flow)
        if decision is None and response.stream:
            decision = Decision(
                "passthrough", "streamed: body over the size limit, or by another addon"
            )
        if decision is not None:
            if is_page_load(flow):
                self._record(flow, decision.action, decision.reason, 0.0)
                self._learn_original(flow)
            return
        started = time.perf_counter()
        outcome = await self._transform(flow)
        ms = (time.perf_counter() - started) * 1000
        self.heap.after(len(response.raw_content or b""))
        self._remember(flow, outcome.fingerprints)
        if outcome.html is None:
            keep_out_of_cache(response)
            if scan := flow.metadata.get(FRAME_SCAN):
                scan(response.raw_content or b"")
            self._record(flow, "original", outcome.reason, ms, outcome)
            return
        apply_reader_view(response, outcome)
        response.headers["server-timing"] = server_timing(ms, outcome.worker_ms)
        self._record(flow, "reader", outcome.reason, ms, outcome)

    def _learn_original(self, flow: http.HTTPFlow) -> None:
        """Have a worker read an original page's fingerprints for the site memory, when
        none is reading another: learning never holds up a reader view."""
        copy = flow.metadata.pop(BODY_COPY, None)
        body = copy.body() if isinstance(copy, BodyCopy) else None
        if not body or self.memory is None or flow.response is None or self.learning.busy():
            return
        job = LearnJob(
            body,
            flow.response.headers.get("content-type", ""),
            flow.response.headers.get("content-encoding", ""),
            self.limits.max_bytes,
        )
        self.learning.read(self._learn_in_worker(flow, job))

    async def _learn_in_worker(self, flow: http.HTTPFlow, job: LearnJob) -> None:
        """Read a page's fingerprints in a worker and remember them."""
        try:
            prints = await self.pool.run(learn_job, job, self.limits.timeout)
        except Exception as error:  # learning is best effort: the page went out already
            log.info("plainview: site memory did not learn %s: %s", flow.request.url, error)
            return
        self._remember(flow, prints)

    def _remember(self, flow: http.HTTPFlow, prints: frozenset[int]) -> None:
        """Remember a page's fingerprints for its site, in a thread (a file is written)."""
        if self.memory is not None and prints:
            write = asyncio.to_thread(
                self.memory.learn, flow.request.pretty_host.lower(), flow.request.url, prints
            )
            self.learning.keep(asyncio.ensure_future(write))

    async def _memory_of(self, flow: http.HTTPFlow) -> SiteMemory | None:
        """Return the memory of the flow's site's other pages, read in a thread."""
        if self.memory is None:
            return None
        site, url = flow.request.pretty_host.lower(), flow.request.url
        memory = await asyncio.to_thread(self.memory.memory_for, site, url)
        return memory if memory.pages else None

    def error(self, flow: http.HTTPFlow) -> None:
        """Record a page load that went out as it came before its origin broke it off."""
        decision = flow.metadata.get(DECISION)
        if isinstance(decision, Decision) and is_page_load(flow):
            self._record(flow, decision.action, decision.reason, 0.0)

    async def _transform(self, flow: http.HTTPFlow) -> PageOutcome:
        """Build the job and run it in the pool; any failure becomes a refusal."""
        assert flow.response is not None
        raw = flow.response.raw_content
        if raw is None or len(raw) > self.limits.max_bytes:
            size = 0 if raw is None else len(raw)
            return PageOutcome(None, "", f"too large or empty ({size} bytes)")
        # The worker decodes the body: no decompression (or bomb) on the event loop.
        settings = await self._settings(flow)
        assert settings is not None  # _decide gave no decision without them
        job = self._job(flow, raw, settings, new_id())
        if self.memory is not None:
            job = replace(job, memory=await self._memory_of(flow), learn=True)
        return await self._run(job)

    async def _run(self, job: PageJob) -> PageOutcome:
        """Run a job; turn a timeout, a crash or an error into a reason to keep the original."""
        try:
            return await self.pool.run(self.transform, job, self.limits.timeout)
        except TimeoutError:
            return PageOutcome(None, "", f"timed out after {self.limits.timeout:g} s")
        except BrokenProcessPool:
            return PageOutcome(None, "", "the worker process crashed")
        except Exception as error:  # any failure in the worker must leave the page intact
            return PageOutcome(None, "", f"extraction failed: {type(error).__name__}: {error}")

    def _job(
        self, flow: http.HTTPFlow, body: bytes, settings: SiteSettings, record_id: str
    ) -> PageJob:
        """Describe the work for one page."""
        assert flow.response is not None
        url = flow.request.url
        flow.metadata["plainview_id"] = record_id
        host = flow.request.pretty_host
        return PageJob(
            body=body,
            url=url,
            content_type=flow.response.headers.get("content-type", ""),
            mode=flow.metadata.get(ONE_TIME_MODE) or effective_mode(settings, self.limits.mode),
            style=page_style(settings),
            links=reader_links(
                url, flow.request.scheme, host, self.secret, record_id, rule=reader_rule(settings)
            ),
            params=self.params,
            pipeline=self.pipeline,
            min_text_chars=self.min_text_chars,
            content_encoding=flow.response.headers.get("content-encoding", ""),
            max_bytes=self.limits.max_bytes,
            # A job still queued past the budget is skipped, one running past it stopped.
            deadline=time.time() + self.limits.timeout,
        )

    def _record(
        self,
        flow: http.HTTPFlow,
        action: str,
        reason: str,
        ms: float,
        outcome: PageOutcome | None = None,
    ) -> None:
        """Remember what happened to one page and log it in one line."""
        record_id = str(flow.metadata.get("plainview_id") or new_id())
        title = outcome.title if outcome else ""
        diagnostics = outcome.diagnostics if outcome else None
        url = flow.request.url
        self.recent.add(PageRecord(record_id, url, action, reason, ms, title, diagnostics))
        log.info("plainview: %s %s: %s (%.0f ms)", action, url, reason, ms)


def _report_warm_up(future: Future[bool]) -> None:
    """Log a worker that failed to start (the next page recreates the pool)."""
    if not future.cancelled() and future.exception() is not None:
        log.warning("plainview: a worker failed to start: %r", future.exception())


def _check_mode(value: str) -> str:
    """Validate plainview_mode."""
    if value not in ("", *MODES):
        raise OptionsError(
            f"plainview_mode must be one of reader, original, auto or empty, not {value!r}"
        )
    return value


def _check_pipeline(value: str) -> Pipeline | None:
    """Validate plainview_pipeline ("" or whitespace: off)."""
    if not value.strip():
        return None
    pipeline = parse_pipeline(value)
    if isinstance(pipeline, SpecError):
        raise OptionsError(f"plainview_pipeline: {pipeline.message}: {value!r}")
    return pipeline


def _check_max_bytes(value: int) -> int:
    """Validate plainview_max_bytes."""
    if value <= 0:
        raise OptionsError(f"plainview_max_bytes must be above 0, not {value}")
    return value


def _check_workers(value: int) -> int:
    """Validate plainview_workers (0: one fewer than the cores, at least one)."""
    # Each worker holds 70-110 MiB once it has seen large pages (docs/performance.md).
    if not 0 <= value <= MAX_WORKERS:
        raise OptionsError(f"plainview_workers must be from 0 to {MAX_WORKERS}, not {value}")
    return value


def _check_seconds(name: str, value: str) -> float:
    """Validate a number of seconds above 0 (plainview_timeout, plainview_buffer_timeout)."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise OptionsError(f"{name} must be a number of seconds above 0, not {value!r}")
    return seconds


# -- mitmproxy's HTTP layer -------------------------------------------------------------
# Three things mitmproxy's HTTP layer (11.0 to 12.2) does to a response that no
# hook can undo. Each is closed by wrapping the one layer method where it
# happens; the wrappers leave every other flow to the method they wrap.
# - A 1xx head before an HTTP/1 response (103 Early Hints, which Node's
#   writeEarlyHints sends) is taken for the final response: the client gets the
#   103 and the real response is dropped (mitmproxy/mitmproxy#2229). Dropped
#   here, as mitmproxy's own HTTP/2 layer drops them.
# - A buffered body has no time limit: a page that streams for minutes (a live
#   log, a chat) reaches the client only at its end. A page still arriving past
#   BUFFER_UNTIL goes on streaming as the original, with all it held so far.
# - A buffered body the origin breaks off (shorter than its Content-Length)
#   becomes a 502 and what arrived is lost; streamed, it would have been relayed.
#   A held page is relayed as far as it came, as the original.
HttpEvents = Generator[Any, Any, None]
# One or more complete 1xx heads (not 101, which switches protocols) at the start of
# a response: status line, header lines, blank line.
_INFORMATIONAL = re.compile(rb"HTTP/1\.[01] 1(?!01)\d\d[^\n]*\n(?:[^\r\n][^\n]*\n)*\r?\n")


def informational_length(data: bytes) -> int:
    """Return how many leading bytes of a response are complete 1xx heads (not 101)."""
    end = 0
    while (head := _INFORMATIONAL.match(data, end)) is not None:
        end = head.end()
    return end


def close_http_gaps() -> None:
    """Wrap the three layer methods, once per process."""
    if getattr(HttpStream, "plainview_wrapped", False):
        return
    HttpStream.plainview_wrapped = True  # type: ignore[attr-defined]
    Http1Client.read_headers = _skipping_informational(Http1Client.read_headers)  # type: ignore[method-assign]
    HttpStream.state_consume_response_body = _streaming_when_overdue(  # type: ignore[method-assign]
        HttpStream.state_consume_response_body
    )
    HttpStream.handle_protocol_error = _relaying_what_came(HttpStream.handle_protocol_error)  # type: ignore[method-assign]


def _skipping_informational(read_headers: Callable[..., HttpEvents]) -> Callable[..., HttpEvents]:
    """Wrap Http1Client.read_headers: drop 1xx heads before the response's own."""

    def wrapped(self: Http1Client, event: events.Event) -> HttpEvents:
        if isinstance(event, events.DataReceived) and self.request is not None:
            skipped = informational_length(bytes(self.buf))
            if skipped:
                self.buf.maybe_extract_at_most(skipped)
                log.debug("plainview: dropped a 1xx head from %s", self.request.host)
        yield from read_headers(self, event)

    return wrapped


def _streaming_when_overdue(consume: Callable[..., HttpEvents]) -> Callable[..., HttpEvents]:
    """Wrap HttpStream.state_consume_response_body: a held page past its time streams on."""

    def wrapped(self: HttpStream, event: events.Event) -> HttpEvents:
        until = self.flow.metadata.get(BUFFER_UNTIL)
        if isinstance(event, ResponseData) and until is not None and time.monotonic() > until:
            reason = "still arriving at the buffer deadline: streamed on as it came"
            yield from _stream_as_original(self, event.data, reason)
            return
        yield from consume(self, event)

    return wrapped


def _relaying_what_came(handle: Callable[..., HttpEvents]) -> Callable[..., HttpEvents]:
    """Wrap HttpStream.handle_protocol_error: a held page broken off goes out as it came."""

    def wrapped(self: HttpStream, event: events.Event) -> HttpEvents:
        held = (
            BUFFER_UNTIL in self.flow.metadata
            and self.server_state == self.state_consume_response_body
        )
        if isinstance(event, ResponseProtocolError) and held:
            reason = f"the origin broke the page off ({event.message}): relayed as it came"
            yield from _stream_as_original(self, b"", reason)
        yield from handle(self, event)

    return wrapped


def _stream_as_original(stream: HttpStream, data: bytes, reason: str) -> HttpEvents:
    """Send a held page's headers now, then what it held and `data`, and stream the rest."""
    # What mitmproxy itself does when a body passes stream_large_bodies.
    flow = stream.flow
    assert flow.response is not None
    del flow.metadata[BUFFER_UNTIL]
    flow.metadata[DECISION] = Decision("original", reason)
    keep_out_of_cache(flow.response)
    flow.response.stream = flow.metadata.get(FRAME_SCAN, True)
    held = bytes(stream.response_body_buf) + data
    stream.response_body_buf.clear()  # type: ignore[no-untyped-call]  # mitmproxy leaves it untyped
    yield from stream.start_response_stream()
    if held:
        yield from stream.handle_event(ResponseData(stream.stream_id, held))
