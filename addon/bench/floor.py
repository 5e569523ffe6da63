"""Floor: how much relaying the largest pages slows small requests, without Plainview.

The concurrency benchmark's probes and loading clients, at several page rates:
first straight to the origin (what the load generator and the origin alone
cost on these cores), then through a bare mitmdump. No addon can slow the
probes less than the proxy it runs in does.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from addon.bench import concurrency
from addon.bench.common import BenchPage, Json, Target
from addon.bench.servers import Origin, run_origin, run_proxy

# Pages a second the 8 loading clients start between them: from light use to
# the rate the concurrency benchmark's clients reach through Plainview (40-48).
DEFAULT_RATES = (5.0, 10.0, 20.0, 40.0)


def run(
    largest: Sequence[BenchPage],
    *,
    rates: Sequence[float],
    rounds: int,
    probes: int,
    dataset: Path,
    workdir: Path,
    options: Sequence[str] = (),
) -> Json:
    """Time the probes idle and under paced load, without a proxy and through mitmdump.

    `options` are mitmproxy options (NAME=VALUE) for the bare mitmdump.
    """
    ids = [page.file_id for page in largest]
    with run_origin(dataset, ids) as origin:
        direct = _at_rates(origin, None, ids, rates=rates, rounds=rounds, probes=probes)
        with run_proxy("mitmdump", workdir / "mitmdump", options) as bare:
            relayed = _at_rates(origin, bare.port, ids, rates=rates, rounds=rounds, probes=probes)
    failures = sum(
        phases[name]["failures"]
        for runs in (direct, relayed)
        for phases in runs.values()
        for name in ("idle", "loaded", "loaders")
    )
    return {
        "benchmark": "floor",
        "largest": [{"id": page.file_id, "bytes": len(page.body)} for page in largest],
        "rounds": rounds,
        "probes": probes,
        "rates": list(rates),
        "mitmdump_options": list(options),
        "direct": direct,
        "mitmdump": relayed,
        "failures": failures,
    }


def _at_rates(
    origin: Origin,
    proxy_port: int | None,
    ids: Sequence[str],
    *,
    rates: Sequence[float],
    rounds: int,
    probes: int,
) -> dict[str, Json]:
    """Measure the probes' slowdown at each rate, keyed by the rate as text."""
    return {
        f"{rate:g}": concurrency.passthrough_under_load(
            origin, proxy_port, ids, rounds, probes, rate=rate
        )
        for rate in rates
    }


def targets(results: Json) -> list[Target]:
    """Return the targets this run can judge: none has a target but its failures."""
    return [Target("failed requests", float(results["failures"]), 0.0, "requests", at_most=True)]
