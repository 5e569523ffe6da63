"""Floor: how much relaying the largest pages slows small requests, without Plainview.

The concurrency benchmark's probes and loading clients, at several page rates:
first straight to the origin (what the load generator and the origin alone
cost on these cores), then through a bare mitmdump. No addon can slow the
probes less than the proxy it runs in does.
"""

from __future__ import annotations

from collections.abc import Sequence

from plainview_dev.bench.common import BenchPage, Json, Target
from plainview_dev.bench.concurrency import Setup, passthrough_failures, passthrough_under_load
from plainview_dev.bench.servers import Origin, run_origin, run_proxy

# Pages a second the 8 loading clients start between them: from light use to
# the rate the concurrency benchmark's clients reach through Plainview (40-48).
DEFAULT_RATES = (5.0, 10.0, 20.0, 40.0)


def run(largest: Sequence[BenchPage], rates: Sequence[float], setup: Setup) -> Json:
    """Time the probes idle and under paced load, without a proxy and through mitmdump.

    The setup's options are for the bare mitmdump.
    """
    ids = [page.file_id for page in largest]
    with run_origin(setup.dataset, ids) as origin:
        direct = _at_rates(origin, None, ids, rates, setup)
        with run_proxy("mitmdump", setup.workdir / "mitmdump", setup.options) as bare:
            relayed = _at_rates(origin, bare.port, ids, rates, setup)
    failures = passthrough_failures([*direct.values(), *relayed.values()])
    return {
        "benchmark": "floor",
        "largest": [{"id": page.file_id, "bytes": len(page.body)} for page in largest],
        "rounds": setup.rounds,
        "probes": setup.probes,
        "rates": list(rates),
        "mitmdump_options": list(setup.options),
        "direct": direct,
        "mitmdump": relayed,
        "failures": failures,
    }


def _at_rates(
    origin: Origin,
    proxy_port: int | None,
    ids: Sequence[str],
    rates: Sequence[float],
    setup: Setup,
) -> dict[str, Json]:
    """Measure the probes' slowdown at each rate, keyed by the rate as text."""
    return {
        f"{rate:g}": passthrough_under_load(
            origin, proxy_port, ids, setup.rounds, setup.probes, rate=rate
        )
        for rate in rates
    }


def targets(results: Json) -> list[Target]:
    """Return the targets this run can judge: none has a target but its failures."""
    return [Target("failed requests", float(results["failures"]), 0.0, "requests", at_most=True)]
