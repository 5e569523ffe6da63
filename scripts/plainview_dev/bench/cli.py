"""`python -m plainview_dev.bench.cli`: run the benchmarks, print their tables, write their JSON.

scripts/bench                       all three on the full dataset
scripts/bench extraction --sample 100 --rounds 1
scripts/bench report --markdown     the tables of the last run, for docs/performance.md
scripts/bench floor                 mitmproxy's own floor for the concurrency target
scripts/bench compiled              what each compiled function buys, and the pure-Python build
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from plainview_dev.bench import compiled, concurrency, extraction, floor, proxy_overhead, report
from plainview_dev.bench.common import (
    DEFAULT_DATASET,
    BenchPage,
    Json,
    Target,
    load_pages,
    machine,
    progress,
    sample_ids,
    write_json,
)
from plainview_dev.bench.servers import StartFailed

BENCHMARKS = ("extraction", "proxy", "concurrency")
# Run only when named: what the proxy Plainview runs in costs on its own.
# and what each compiled function buys.
EXTRA = ("floor", "compiled")
DEFAULT_OUT = Path(__file__).resolve().parents[3] / "build" / "bench"
DEFAULT_ROUNDS = 3
# The concurrency throughput runs over this many pages spread over the dataset.
THROUGHPUT_PAGES = 300

Runner = Callable[[argparse.Namespace, list[BenchPage], Path], Json]


def build_parser() -> argparse.ArgumentParser:
    """Build the command line of the benchmarks."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench",
        description="Benchmark extraction, proxy overhead and concurrency; print tables, "
        "write JSON. 'report' prints the tables of earlier results.",
    )
    parser.add_argument(
        # Checked in main: argparse rejects an empty default against `choices`.
        "benchmarks", nargs="*", default=[],
        metavar="BENCHMARK",
        help="extraction, proxy, concurrency, all (default: these three), floor, compiled "
        "or report",
    )  # fmt: skip
    parser.add_argument(
        "--sample", type=_positive, metavar="N",
        help="use N pages spread evenly over the dataset (default: all)",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=_positive, default=DEFAULT_ROUNDS, metavar="R",
        help="rounds to take the median of (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, metavar="DIR",
        help="folder of the JSON results, one file per benchmark (default: build/bench)",
    )  # fmt: skip
    parser.add_argument(
        "--twins", type=lambda text: [name for name in text.split(",") if name], default=[],
        metavar="NAME,...",
        help="compiled: only these compiled functions' variants (default: every one)",
    )
    parser.add_argument(
        "--against", action="append", default=[], metavar="PYTHON",
        help="compiled: also time the install of this interpreter, e.g. an older checkout's "
        "venv, side by side; repeatable",
    )
    parser.add_argument(
        "--instructions", action="store_true",
        help="compiled: count each variant's instructions under valgrind's callgrind instead "
        "of timing it (one round; the machine's noise does not move a count)",
    )  # fmt: skip
    parser.add_argument(
        "--only", action="append", choices=extraction.CONTENDERS, default=[], metavar="NAME",
        help="extraction: run only this contender; repeatable (%(choices)s)",
    )  # fmt: skip
    parser.add_argument(
        "--probes", type=_positive, default=concurrency.PROBES, metavar="N",
        help="concurrency: passthrough requests per phase and round (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--rates", type=_rates, default=floor.DEFAULT_RATES, metavar="R,R,...",
        help="floor: the page rates to load at, pages per second the loading clients start "
        f"between them (default: {','.join(f'{rate:g}' for rate in floor.DEFAULT_RATES)})",
    )  # fmt: skip
    parser.add_argument(
        "--dataset", type=Path, default=DEFAULT_DATASET, metavar="PATH",
        help="the WCXB-layout dataset (default: ../shared/datasets/wcxb-dev)",
    )  # fmt: skip
    parser.add_argument(
        "--set", dest="mitm_options", action="append", default=[], metavar="OPTION=VALUE",
        help="pass a mitmproxy option to `plainview proxy` (floor: to the bare mitmdump), "
        "e.g. plainview_timeout=5; repeatable",
    )  # fmt: skip
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    return parser


def _positive(text: str) -> int:
    """Parse a whole number above 0, for argparse."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number above 0: {text!r}")
    return int(text)


def _rates(text: str) -> tuple[float, ...]:
    """Parse comma-separated page rates above 0, for argparse."""
    rates = []
    for part in text.split(","):
        try:
            rate = float(part)
        except ValueError:
            rate = math.nan
        if not (math.isfinite(rate) and rate > 0):
            raise argparse.ArgumentTypeError(f"not a page rate above 0: {part!r}")
        rates.append(rate)
    return tuple(rates)


def run_extraction(args: argparse.Namespace, pages: list[BenchPage], workdir: Path) -> Json:
    """Run the extraction benchmark over the pages."""
    return extraction.run(pages, args.rounds, args.only)


def run_proxy(args: argparse.Namespace, pages: list[BenchPage], workdir: Path) -> Json:
    """Run the proxy-overhead benchmark over the pages."""
    return proxy_overhead.run(pages, args.rounds, args.dataset, workdir, args.mitm_options)


def run_concurrency(args: argparse.Namespace, pages: list[BenchPage], workdir: Path) -> Json:
    """Run the concurrency benchmark: the largest pages for load, a spread for throughput."""
    spread = {page.file_id: page for page in pages}
    chosen = [spread[file_id] for file_id in sample_ids(list(spread), THROUGHPUT_PAGES)]
    return concurrency.run(chosen, concurrency.largest_pages(pages), _setup(args, workdir))


def run_floor(args: argparse.Namespace, pages: list[BenchPage], workdir: Path) -> Json:
    """Run the floor benchmark on the largest pages, as the concurrency benchmark loads them."""
    return floor.run(concurrency.largest_pages(pages), args.rates, _setup(args, workdir))


def run_compiled(args: argparse.Namespace, pages: list[BenchPage], workdir: Path) -> Json:
    """Run the compiled-functions benchmark: each variant extracts the pages in its own process."""
    ids = [page.file_id for page in pages]
    return compiled.run(
        args.dataset, ids, args.rounds, args.twins, args.against, instructions=args.instructions
    )


def _setup(args: argparse.Namespace, workdir: Path) -> concurrency.Setup:
    """Return the setup of the passthrough phases the command line asks for."""
    return concurrency.Setup(
        rounds=args.rounds,
        probes=args.probes,
        dataset=args.dataset,
        workdir=workdir,
        options=tuple(args.mitm_options),
    )


RUNNERS: dict[str, Runner] = {
    "extraction": run_extraction,
    "proxy": run_proxy,
    "concurrency": run_concurrency,
    "floor": run_floor,
    "compiled": run_compiled,
}
TARGETS: dict[str, Callable[[Json], list[Target]]] = {
    "extraction": extraction.targets,
    "proxy": proxy_overhead.targets,
    "concurrency": concurrency.targets,
    "floor": floor.targets,
    "compiled": compiled.targets,
}


def run_benchmark(name: str, args: argparse.Namespace, pages: list[BenchPage]) -> Json:
    """Run one benchmark and add the machine, the command, the time taken and the targets."""
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    about = machine()
    with tempfile.TemporaryDirectory(prefix=f"{name}-", dir=args.out) as workdir:
        results = RUNNERS[name](args, pages, Path(workdir))
    results["machine"] = about
    results["command"] = " ".join(["scripts/bench", *args.argv])
    results["sample"] = args.sample
    results["seconds"] = round(time.monotonic() - started, 1)
    results["targets"] = [target.to_json() for target in TARGETS[name](results)]
    return results


def print_report(paths: Sequence[Path], *, as_markdown: bool) -> int:
    """Print the tables of result files, the machine of the first once; 1 if none is readable."""
    shown = 0
    for path in paths:
        try:
            results = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"bench: {path}: {error}", file=sys.stderr)
            continue
        if shown == 0:
            print(_render_machine(results["machine"], as_markdown=as_markdown) + "\n")
        print(report.render(results, as_markdown=as_markdown) + "\n")
        shown += 1
    return 0 if shown else 1


def _render_machine(about: Json, *, as_markdown: bool) -> str:
    """Render the machine table."""
    table = report.machine_table(about)
    return report.markdown(table) if as_markdown else report.text(table)


def chosen_benchmarks(names: Sequence[str]) -> list[str]:
    """Return the benchmarks to run, in their fixed order ("all" means the three)."""
    wanted = set(names)
    if "all" in names or not names:
        wanted |= set(BENCHMARKS)
    return [name for name in (*BENCHMARKS, *EXTRA) if name in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks named on the command line (or print a report)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    unknown = sorted(set(args.benchmarks) - {*BENCHMARKS, *EXTRA, "all", "report"})
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}")
    if "report" in args.benchmarks:
        paths = [args.out / f"{name}.json" for name in (*BENCHMARKS, *EXTRA)]
        return print_report([path for path in paths if path.exists()], as_markdown=args.markdown)
    try:
        progress(f"loading {args.dataset}")
        pages = load_pages(args.dataset, args.sample)
    except ValueError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    for name in chosen_benchmarks(args.benchmarks):
        progress(f"{name}: {len(pages)} pages, {args.rounds} rounds")
        try:
            results = run_benchmark(name, args, pages)
        except (StartFailed, ValueError) as error:  # a proxy refused its options, a port
            # was taken, or a compiled function named that is not one
            print(f"bench: {name}: {error}", file=sys.stderr)
            return 1
        path = args.out / f"{name}.json"
        write_json(results, path)
        print(report.render(results, as_markdown=args.markdown) + "\n", flush=True)
        progress(f"{name} took {results['seconds']} s; results in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
