"""Concurrency: small passthrough requests while clients load the largest pages, and throughput.

The loading clients run in a separate process, so the probe's timings measure
the proxy rather than the load generator; idle and loaded phases alternate
from round to round, as do the client counts of the throughput runs.

The same probes then run through a bare mitmdump while its loading clients are
paced to the page rate Plainview's achieved: the slowdown mitmproxy itself
gives small requests while it relays those pages, the floor for any addon.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import queue
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import aiohttp

from plainview_dev.bench.common import BenchPage, Json, Target, median, progress, spread
from plainview_dev.bench.servers import (
    CLIENT_TIMEOUT,
    IMAGE_HEADERS,
    PAGE_HEADERS,
    STYLE_HEADERS,
    Client,
    MemorySampler,
    Origin,
    Proxy,
    cpu_seconds,
    memory_report,
    page_path,
    run_origin,
    run_proxy,
)

LEVELS = (1, 2, 8)
LOADERS = 8
LARGEST = 16
# Probe requests per phase (image and stylesheet alternate), and the pause between them.
PROBES = 200
PROBE_PAUSE = 0.02
MAX_SLOWDOWN = 0.20
MAX_LISTED_FAILURES = 20
# How long the loaders may take to have each finished one page before the probe starts.
LOAD_START_TIMEOUT = 60.0


@dataclass(slots=True)
class Tally:
    """What a set of page requests came to: reader views, originals, failures, latencies."""

    reader: int = 0
    original: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    running: float = 0.0  # seconds the clients ran, where a rate is wanted

    @property
    def requests(self) -> int:
        """Return how many requests were made."""
        return self.reader + self.original + len(self.failures)

    def add(self, other: Tally) -> None:
        """Add another tally's counts into this one."""
        self.reader += other.reader
        self.original += other.original
        self.failures += other.failures
        self.seconds += other.seconds
        self.running += other.running

    def to_json(self) -> Json:
        """Return the counts, the latency spread in ms, the rate and a few failures."""
        return {
            "requests": self.requests,
            "reader_views": self.reader,
            "originals_sent": self.original,
            "failures": len(self.failures),
            "failure_examples": self.failures[:MAX_LISTED_FAILURES],
            "latency_ms": spread([s * 1000 for s in self.seconds]),
            "pages_per_s": self.requests / self.running if self.running > 0 else math.nan,
        }


# -- page requests with aiohttp --------------------------------------------------------


async def _fetch_page(
    session: aiohttp.ClientSession, url: str, proxy: str | None, tally: Tally
) -> None:
    """Request one page, through the proxy if there is one, and count what came back."""
    started = time.perf_counter()
    try:
        async with session.get(url, proxy=proxy, headers=PAGE_HEADERS) as response:
            await response.read()
            policy = response.headers.get("content-security-policy", "")
            status = response.status
    except (aiohttp.ClientError, TimeoutError) as error:
        tally.failures.append(f"{url}: {type(error).__name__}: {error}")
        return
    if status != 200:
        tally.failures.append(f"{url}: status {status}")
        return
    tally.seconds.append(time.perf_counter() - started)
    if "default-src 'none'" in policy:
        tally.reader += 1
    else:
        tally.original += 1


def _session(clients: int) -> aiohttp.ClientSession:
    """Return a session with one keep-alive connection per client."""
    timeout = aiohttp.ClientTimeout(total=CLIENT_TIMEOUT)
    connector = aiohttp.TCPConnector(limit=clients)
    return aiohttp.ClientSession(timeout=timeout, connector=connector, trust_env=False)


async def _drain(urls: Sequence[str], proxy: str, clients: int) -> tuple[Tally, float]:
    """Request every URL once with `clients` concurrent clients; return the tally and seconds."""
    tally = Tally()
    queue = list(reversed(urls))

    async def client(session: aiohttp.ClientSession) -> None:
        while queue:
            await _fetch_page(session, queue.pop(), proxy, tally)

    started = time.perf_counter()
    async with _session(clients) as session:
        await asyncio.gather(*(client(session) for _ in range(clients)))
    return tally, time.perf_counter() - started


@dataclass(slots=True)
class Level:
    """What one number of clients achieved over the rounds."""

    clients: int
    rates: list[float] = field(default_factory=list)  # pages per second, per round
    # Cores' worth of CPU the proxy's main process and its workers used, per round.
    main_cpu: list[float] = field(default_factory=list)
    workers_cpu: list[float] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)

    def to_json(self) -> Json:
        """Return the round medians and the counts."""
        # The tally's own rate is left out: its running time is not measured here.
        return {
            **self.tally.to_json(),
            "clients": self.clients,
            "pages_per_s": median(self.rates),
            "pages_per_s_rounds": self.rates,
            "main_cpu_cores": median(self.main_cpu),
            "workers_cpu_cores": median(self.workers_cpu),
        }


def throughput(urls: Sequence[str], proxy: Proxy, rounds: int) -> Json:
    """Measure pages per second with 1, 2 and 8 clients, the levels' order turning per round."""
    address = f"http://127.0.0.1:{proxy.port}"
    levels = {clients: Level(clients) for clients in LEVELS}
    for round_index in range(rounds):
        turn = round_index % len(LEVELS)
        for clients in LEVELS[turn:] + LEVELS[:turn]:
            level = levels[clients]
            main_before, workers_before = cpu_seconds(proxy.process.pid)
            tally, seconds = asyncio.run(_drain(urls, address, clients))
            main_after, workers_after = cpu_seconds(proxy.process.pid)
            level.rates.append(len(urls) / seconds)
            level.main_cpu.append((main_after - main_before) / seconds)
            level.workers_cpu.append((workers_after - workers_before) / seconds)
            level.tally.add(tally)
        progress(f"throughput round {round_index + 1}/{rounds} done")
    return {str(clients): level.to_json() for clients, level in levels.items()}


# -- the loaders, in their own process -------------------------------------------------


def _load_process(
    urls: Sequence[str],
    proxy_port: int | None,
    stop: Event,
    ready: Connection,
    results: Any,
    *,
    rate: float | None,
) -> None:
    """Keep LOADERS clients requesting the pages until told to stop; report the tally.

    Without a `proxy_port` they request them straight from the origin.
    """
    proxy = f"http://127.0.0.1:{proxy_port}" if proxy_port else None
    tally = asyncio.run(_load(urls, proxy, rate, stop, ready))
    listed = tally.failures[:MAX_LISTED_FAILURES]
    counts = (tally.reader, tally.original, listed, len(tally.failures))
    results.put((*counts, tally.seconds, tally.running))


async def _load(
    urls: Sequence[str], proxy: str | None, rate: float | None, stop: Event, ready: Connection
) -> Tally:
    """Run the loading clients, each cycling through the pages from its own start.

    With a `rate`, the clients together start at most that many pages a second.
    Once every client has had a page back, say so on `ready`: the load is steady then.
    """
    tally = Tally()
    waiting = set(range(LOADERS))
    paced = rate is not None and math.isfinite(rate) and rate > 0
    interval = LOADERS / rate if paced and rate else 0.0  # each client's time between starts
    started = time.perf_counter()

    async def client(session: aiohttp.ClientSession, offset: int) -> None:
        index = offset
        # Spread the paced clients' first requests over one interval.
        next_start = started + interval * offset / LOADERS
        while not stop.is_set():
            # Pacing, not waiting: the load stays at the rate asked for.
            await asyncio.sleep(max(0.0, next_start - time.perf_counter()))
            # A client that fell behind does not catch up in a burst.
            next_start = max(next_start, time.perf_counter()) + interval
            await _fetch_page(session, urls[index % len(urls)], proxy, tally)
            index += 1
            if offset in waiting:
                waiting.discard(offset)
                if not waiting:
                    ready.send(True)

    async with _session(LOADERS) as session:
        await asyncio.gather(*(client(session, i) for i in range(LOADERS)))
    tally.running = time.perf_counter() - started
    return tally


class Loaders:
    """LOADERS clients in a child process, requesting the largest pages until stopped.

    With a `rate`, they start at most that many pages a second between them;
    without a `proxy_port`, they request the pages straight from the origin.
    """

    def __init__(
        self, urls: Sequence[str], proxy_port: int | None, rate: float | None = None
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._ready, ready = context.Pipe(duplex=False)
        self._results = context.Queue()
        self._process = context.Process(
            target=_load_process,
            args=(list(urls), proxy_port, self._stop, ready, self._results),
            kwargs={"rate": rate},
            daemon=True,
        )
        self.tally = Tally()

    def __enter__(self) -> Loaders:
        self._process.start()
        # Probe only once every client has seen a page through, or the clients exited.
        woken = wait([self._ready, self._process.sentinel], timeout=LOAD_START_TIMEOUT)
        if self._ready not in woken and self._process.sentinel in woken:
            self._process.join()
            raise RuntimeError(f"the loading clients exited ({self._process.exitcode})")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        deadline = time.monotonic() + CLIENT_TIMEOUT * 2
        while True:
            try:
                reader, original, failures, failed, seconds, running = self._results.get(
                    timeout=0.5
                )
                break
            except queue.Empty:
                if not self._process.is_alive() or time.monotonic() > deadline:
                    self._process.kill()
                    raise RuntimeError("the loading clients reported nothing") from None
        self._process.join()
        self.tally = Tally(reader, original, failures, seconds, running)
        # Only the first failures travel back; the count is kept in full.
        self.tally.failures += ["(not listed)"] * (failed - len(failures))


# -- the probe -------------------------------------------------------------------------


def probe(origin: Origin, proxy_port: int | None, count: int) -> Tally:
    """Request the image and the stylesheet in turn `count` times, pausing between them.

    Without a `proxy_port` the requests go straight to the origin.
    """
    client = Client(proxy_port)
    tally = Tally()
    kinds = ((origin.url("/image.png"), IMAGE_HEADERS), (origin.url("/style.css"), STYLE_HEADERS))
    try:
        for index in range(count):
            url, headers = kinds[index % 2]
            fetched = client.get(url, headers)
            if isinstance(fetched, str) or fetched.status != 200:
                reason = fetched if isinstance(fetched, str) else f"status {fetched.status}"
                tally.failures.append(f"{url}: {reason}")
            else:
                tally.original += 1
                tally.seconds.append(fetched.seconds)
            # Pacing, not waiting: the probes sample the proxy at a steady, light rate.
            time.sleep(PROBE_PAUSE)
    finally:
        client.close()
    return tally


def passthrough_under_load(
    origin: Origin,
    proxy_port: int | None,
    largest: Sequence[str],
    rounds: int,
    probes: int,
    *,
    rate: float | None = None,
) -> Json:
    """Time the probes on an idle proxy and while the loaders run, alternating per round.

    With a `rate`, the loaders start at most that many pages a second. Without
    a `proxy_port`, loaders and probes go straight to the origin.
    """
    phases: dict[str, list[Tally]] = {"idle": [], "loaded": []}
    loaders = Tally()
    for round_index in range(rounds):
        order = ("idle", "loaded") if round_index % 2 == 0 else ("loaded", "idle")
        for phase in order:
            if phase == "idle":
                phases["idle"].append(probe(origin, proxy_port, probes))
                continue
            urls = [origin.url(page_path(i)) for i in largest]
            with Loaders(urls, proxy_port, rate) as load:
                phases["loaded"].append(probe(origin, proxy_port, probes))
            loaders.add(load.tally)
        progress(f"passthrough round {round_index + 1}/{rounds} done")
    return _probe_summary(phases, loaders)


def _probe_summary(phases: dict[str, list[Tally]], loaders: Tally) -> Json:
    """Return each phase's p50/p95 (median over rounds) and the slowdown under load."""
    result: Json = {}
    for phase, tallies in phases.items():
        spreads = [spread([s * 1000 for s in tally.seconds]) for tally in tallies]
        total = Tally()
        for tally in tallies:
            total.add(tally)
        result[phase] = {
            "p50_ms": median([s["p50"] for s in spreads]),
            "p95_ms": median([s["p95"] for s in spreads]),
            "requests": len(total.seconds) + len(total.failures),
            "failures": len(total.failures),
            "failure_examples": total.failures[:MAX_LISTED_FAILURES],
        }
    for q in ("p50", "p95"):
        idle, loaded = result["idle"][f"{q}_ms"], result["loaded"][f"{q}_ms"]
        result[f"slowdown_{q}"] = loaded / idle - 1 if idle > 0 else math.nan
    result["loaders"] = loaders.to_json()
    return result


# -- the benchmark ---------------------------------------------------------------------


def largest_pages(pages: Sequence[BenchPage], count: int = LARGEST) -> list[BenchPage]:
    """Return the `count` largest pages, largest first."""
    return sorted(pages, key=lambda page: len(page.body), reverse=True)[:count]


@dataclass(frozen=True, slots=True)
class Setup:
    """How a benchmark of passthrough phases runs."""

    rounds: int  # rounds to take the medians over
    probes: int  # probe requests per phase and round
    dataset: Path  # where the origin reads the pages
    workdir: Path  # where the proxies keep their files
    options: Sequence[str] = ()  # mitmproxy options (NAME=VALUE) for the proxy measured


def passthrough_failures(runs: Iterable[Json]) -> int:
    """Count the failed requests of passthrough results: the probes' and the loaders'."""
    return sum(run[name]["failures"] for run in runs for name in ("idle", "loaded", "loaders"))


def run(pages: Sequence[BenchPage], largest: Sequence[BenchPage], setup: Setup) -> Json:
    """Serve the pages and measure passthrough latency under load and throughput.

    Then measure the passthrough slowdown of a bare mitmdump whose loaders are
    paced to the page rate Plainview's achieved. The setup's options are for
    `plainview proxy`.
    """
    rounds, probes, workdir = setup.rounds, setup.probes, setup.workdir
    ids = sorted({page.file_id for page in [*pages, *largest]})
    large_ids = [page.file_id for page in largest]
    with run_origin(setup.dataset, ids) as origin:
        urls = [origin.url(page_path(page.file_id)) for page in pages]
        with run_proxy("plainview", workdir / "plainview", setup.options) as proxy:
            # Warm up: start the workers and the connections.
            asyncio.run(_drain(urls[:4] * 2, f"http://127.0.0.1:{proxy.port}", 2))
            with MemorySampler(proxy.process.pid) as sampler:
                passthrough = passthrough_under_load(origin, proxy.port, large_ids, rounds, probes)
                rates = throughput(urls, proxy, rounds)
            memory = {**memory_report(proxy.process.pid), "peak_total_mib": sampler.peak_mib}
        rate = passthrough["loaders"]["pages_per_s"]
        with run_proxy("mitmdump", workdir / "mitmdump") as bare:
            floor = passthrough_under_load(origin, bare.port, large_ids, rounds, probes, rate=rate)
    failures = passthrough_failures([passthrough, floor])
    failures += sum(level["failures"] for level in rates.values())
    return {
        "benchmark": "concurrency",
        "pages": len(pages),
        "largest": [{"id": page.file_id, "bytes": len(page.body)} for page in largest],
        "rounds": rounds,
        "probes": probes,
        "cores": multiprocessing.cpu_count(),
        "passthrough": passthrough,
        # Bare mitmproxy relaying the same pages at the page rate Plainview achieved.
        "mitmproxy_floor": floor,
        "throughput": rates,
        "failures": failures,
        "memory": memory,
    }


def targets(results: Json) -> list[Target]:
    """Return the concurrency targets this run can judge."""
    slowdown = results["passthrough"]["slowdown_p95"]
    return [
        Target(
            "passthrough p95 slowdown under load", slowdown * 100, MAX_SLOWDOWN * 100, "%", True
        ),
        Target("failed requests", float(results["failures"]), 0.0, "requests", at_most=True),
    ]
