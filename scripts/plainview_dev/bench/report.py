"""Tables of benchmark results, as plain text or Markdown, from their JSON alone."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plainview_dev.bench.common import Json


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table of text cells."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def number(value: Any, digits: int = 1) -> str:
    """Format a number with fixed digits; a missing value (None, NaN) as "-"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def percent(value: Any) -> str:
    """Format a share (0.25) as a percentage ("25.0%")."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value * 100:.1f}%"


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """Build a table from any sequences."""
    return Table(title, tuple(headers), tuple(tuple(row) for row in rows))


# -- per benchmark -----------------------------------------------------------------------


def extraction_tables(results: Json) -> list[Table]:
    """Return the throughput table and Plainview's profile by stage."""
    ratios = results.get("ratios", {})
    rows = [
        (
            c["label"],
            number(c["mb_per_s"]),
            number(c["median_ms"]),
            number(c["p99_ms"]),
            number(c["mean_ms"]),
            number(ratios.get(c["name"]), 2) + ("x" if c["name"] in ratios else ""),
            str(c["errors"]),
        )
        for c in results["contenders"]
    ]
    title = (
        f"Extraction: {results['pages']} pages, {results['bytes'] / 1e6:,.1f} MB, "
        f"median of {results['rounds']} rounds"
    )
    headers = ("extractor", "MB/s", "median ms", "p99 ms", "mean ms", "plainview speed", "errors")
    tables = [_table(title, headers, rows)]
    profile = results.get("profile")
    if profile:
        stage_rows = [
            (s["stage"], number(s["total_ms"], 0), percent(s["share"]), number(s["median_ms"], 2))
            for s in profile["stages"]
        ]
        tables.append(
            _table(
                f"Plainview profile: {profile['articles']} articles "
                f"({profile['skipped']} pages without one), first round",
                ("stage", "total ms", "share", "median ms/page"),
                stage_rows,
            )
        )
    return tables


def proxy_tables(results: Json) -> list[Table]:
    """Return latencies, added latencies, sizes, subresources, failures and memory."""
    spread_headers = ("", "p50 ms", "p95 ms", "p99 ms")
    title = f"Proxy: {results['pages']} pages, each page's median of {results['rounds']} rounds"
    failures = (str(results["failures"]), str(results["altered_by_mitmproxy"]))
    return [
        _table(f"{title}: latency", spread_headers, _spread_rows(results["latency_ms"])),
        _table("Added latency per page", spread_headers, _spread_rows(results["added_ms"])),
        *_split_tables(results.get("added_split_ms"), spread_headers),
        _bytes_table(results["bytes"]),
        _subresource_table(results["subresources"]),
        _table("Failures", ("failed requests", "pages mitmproxy altered"), [failures]),
        *memory_tables(results["memory"]),
    ]


def _split_tables(split: Json | None, headers: tuple[str, ...]) -> list[Table]:
    """Return the reader views' added latency split at the worker, if the run measured it."""
    if split is None:  # results of a run before the proxy sent Server-Timing
        return []
    rows = [
        ("worker: decode, extract, render", *_spread_cells(split["worker"])),
        ("the rest: handing over, hooks", *_spread_cells(split["beyond_worker"])),
    ]
    return [_table("Reader views: the added latency split (Server-Timing)", headers, rows)]


def _spread_rows(spreads: dict[str, Json]) -> list[tuple[str, ...]]:
    """Return one row per named p50/p95/p99 spread."""
    return [(name.replace("_", " "), *_spread_cells(s)) for name, s in spreads.items()]


def _spread_cells(spread: Json) -> tuple[str, str, str]:
    """Return the p50, p95 and p99 cells of one spread."""
    return number(spread["p50"]), number(spread["p95"]), number(spread["p99"])


def _bytes_table(size: Json) -> Table:
    """Return the sizes of the original pages and of what Plainview sent instead."""
    headers = (
        "reader views", "originals sent", "original MB", "sent MB", "sent/original",
        "median reader/original",
    )  # fmt: skip
    row = (
        str(size["reader_views"]), str(size["originals_sent"]),
        number(size["original_total"] / 1e6), number(size["sent_total"] / 1e6),
        percent(size["sent_share"]), percent(size["reader_view_median_share"]),
    )  # fmt: skip
    return _table("What the user downloads (the page itself)", headers, [row])


def _subresource_table(subresources: Json) -> Table:
    """Return the subresources the originals reference and the reader views keep."""
    rows = [
        (kind, str(c["original"]), str(c["reader"]), str(c["saved"]))
        for kind, c in subresources["by_kind"].items()
    ]
    return _table(
        f"Subresources referenced, over the {subresources['pages']} reader views",
        ("kind", "original", "reader view", "no longer needed"),
        rows,
    )


def concurrency_tables(results: Json) -> list[Table]:
    """Return passthrough latency idle and under load, the loaders, throughput and memory."""
    return [
        _passthrough_table(results),
        _loaders_table(results["passthrough"]["loaders"]),
        *_floor_tables(results),
        _throughput_table(results),
        *memory_tables(results["memory"]),
    ]


def floor_tables(results: Json) -> list[Table]:
    """Return the probes' slowdown at each page rate, straight to the origin and via mitmdump."""
    rows = [
        (number(float(rate), 0), *_floor_cells(results["direct"][rate]),
         *_floor_cells(results["mitmdump"][rate]))
        for rate in results["direct"]
    ]  # fmt: skip
    largest = results["largest"]
    options = " ".join(results.get("mitmdump_options", [])) or "its defaults"
    title = (
        f"The floor: probes (image, stylesheet) while 8 clients load the {len(largest)} largest "
        f"pages at a paced rate, straight to the origin and through a bare mitmdump ({options}); "
        f"p95 ms, median of {results['rounds']} rounds"
    )
    headers = (
        "pages/s asked", "direct: pages/s", "idle", "loaded", "slowdown",
        "mitmdump: pages/s", "idle", "loaded", "slowdown",
    )  # fmt: skip
    return [_table(title, headers, rows)]


def compiled_tables(results: Json) -> list[Table]:
    """Return each variant's extraction seconds (or instructions) and what its twins cost."""
    counted = results.get("unit") == "instructions"
    rows = [
        (
            each["name"],
            each["module"] or "",
            f"{each['seconds'] / 1e9:.3f}" if counted else number(each["seconds"], 2),
            percent(each["cost"]),
        )
        for each in results["variants"]
    ]
    how = (
        "instructions counted under callgrind"
        if counted
        else f"median of {results['rounds']} rounds"
    )
    title = (
        f"Extraction of {results['pages']} pages with compiled functions turned into their "
        f"Python twins, each variant in its own interpreter; {how}"
    )
    unit = "instructions (10^9)" if counted else "seconds"
    return [_table(title, ("variant", "module", unit, "slower than all compiled"), rows)]


def _floor_cells(passthrough: Json) -> tuple[str, str, str, str]:
    """Return the achieved page rate, the idle and loaded p95 and the slowdown of one run."""
    return (
        number(passthrough["loaders"]["pages_per_s"]),
        number(passthrough["idle"]["p95_ms"]),
        number(passthrough["loaded"]["p95_ms"]),
        percent(passthrough["slowdown_p95"]),
    )


def _passthrough_table(results: Json) -> Table:
    """Return the probes' p50/p95 on the idle and the loaded proxy, and the slowdown."""
    largest = results["largest"]
    title = (
        f"Passthrough (image, stylesheet) while 8 clients load the {len(largest)} largest "
        f"pages ({largest[-1]['bytes'] / 1e6:,.1f}-{largest[0]['bytes'] / 1e6:,.1f} MB); "
        f"median of {results['rounds']} rounds"
    )
    return _phases_table(title, results["passthrough"])


def _floor_tables(results: Json) -> list[Table]:
    """Return the probes through a bare mitmdump relaying the same pages at the same rate."""
    floor = results.get("mitmproxy_floor")
    if floor is None:  # results of a run before the floor was measured
        return []
    title = (
        "The floor: the same probes through a bare mitmdump while 8 clients load the same "
        f"pages at Plainview's rate ({number(results['passthrough']['loaders']['pages_per_s'])}"
        f" pages/s); median of {results['rounds']} rounds"
    )
    loaders = _loaders_table(floor["loaders"], "The loading clients (largest pages, bare mitmdump)")
    return [_phases_table(title, floor), loaders]


def _phases_table(title: str, passthrough: Json) -> Table:
    """Return one proxy's probe p50/p95 idle and loaded, and the slowdown."""
    rows = [
        (
            phase,
            number(passthrough[phase]["p50_ms"]),
            number(passthrough[phase]["p95_ms"]),
            str(passthrough[phase]["requests"]),
            str(passthrough[phase]["failures"]),
        )
        for phase in ("idle", "loaded")
    ]
    slowdown = (percent(passthrough["slowdown_p50"]), percent(passthrough["slowdown_p95"]))
    rows.append(("slowdown", *slowdown, "", ""))
    return _table(title, ("phase", "p50 ms", "p95 ms", "requests", "failures"), rows)


def _loaders_table(
    loaders: Json, title: str = "The loading clients (largest pages, reader mode)"
) -> Table:
    """Return what the loading clients got."""
    row = (
        str(loaders["requests"]), number(loaders.get("pages_per_s")),
        str(loaders["reader_views"]), str(loaders["originals_sent"]),
        str(loaders["failures"]), number(loaders["latency_ms"]["p50"], 0),
        number(loaders["latency_ms"]["p95"], 0),
    )  # fmt: skip
    headers = (
        "requests", "pages/s", "reader views", "originals sent", "failures", "p50 ms", "p95 ms",
    )  # fmt: skip
    return _table(title, headers, [row])


def _throughput_table(results: Json) -> Table:
    """Return pages per second and latency by number of clients."""
    rows = [
        (
            str(level["clients"]),
            number(level["pages_per_s"]),
            number(level["latency_ms"]["p50"], 0),
            number(level["latency_ms"]["p95"], 0),
            number(level.get("main_cpu_cores"), 2),
            number(level.get("workers_cpu_cores"), 2),
            str(level["reader_views"]),
            str(level["originals_sent"]),
            str(level["failures"]),
        )
        for level in results["throughput"].values()
    ]
    headers = (
        "clients", "pages/s", "p50 ms", "p95 ms", "main process CPU (cores)",
        "workers CPU (cores)", "reader views", "originals sent", "failures",
    )  # fmt: skip
    title = (
        f"Throughput: {results['pages']} pages, {results['cores']} cores, "
        f"median of {results['rounds']} rounds"
    )
    return _table(title, headers, rows)


def memory_tables(memory: Json) -> list[Table]:
    """Return one memory table per proxy process tree."""
    trees = [("plainview", memory)] if "rss_mib" in memory else list(memory.items())
    return [_memory_table(name, tree) for name, tree in trees]


def _memory_table(name: str, tree: Json) -> Table:
    """Return the resident and peak memory of a proxy and each of its processes."""
    rows = [("main process", number(tree["rss_mib"]), number(tree["peak_rss_mib"]))]
    rows += [
        (f"{c['role']} (pid {c['pid']})", number(c["rss_mib"]), number(c["peak_rss_mib"]))
        for c in tree["children"]
    ]
    rows.append(("all together", number(tree["total_rss_mib"]), number(tree.get("peak_total_mib"))))
    return _table(
        f"Memory of the {name} proxy after the run", ("process", "RSS MiB", "peak MiB"), rows
    )


def target_table(targets: Sequence[Json]) -> Table:
    """Return the targets with their values and verdicts."""
    rows = []
    for t in targets:
        # Counts (of failed requests) read best as whole numbers.
        digits = 0 if t["unit"] == "requests" else 1
        rows.append(
            (
                t["name"],
                f"{number(t['value'], digits)} {t['unit']}",
                f"{'<=' if t['at_most'] else '>='} {number(t['limit'], digits)} {t['unit']}",
                "pass" if t["passed"] else "FAIL",
            )
        )
    return _table("Targets", ("target", "measured", "wanted", "verdict"), rows)


def machine_table(machine: Json) -> Table:
    """Return the machine the results come from."""
    libraries = ", ".join(f"{name} {version}" for name, version in machine["libraries"].items())
    rows = [
        ("CPU", f"{machine['cpu']}, {machine['cores']} cores"),
        ("memory", f"{machine['ram_gib']} GiB"),
        ("system", machine["system"]),
        ("Python", machine["python"]),
        ("libraries", libraries),
    ]
    return _table("Machine", ("", ""), rows)


TABLES: dict[str, Callable[[Json], list[Table]]] = {
    "extraction": extraction_tables,
    "proxy": proxy_tables,
    "concurrency": concurrency_tables,
    "floor": floor_tables,
    "compiled": compiled_tables,
}


def run_table(results: Json) -> Table:
    """Return when, on which commit and under what load a benchmark ran, and its command."""
    about = results["machine"]
    row = (
        about["date"],
        about["commit"],
        " ".join(str(x) for x in about["load_average"]),
        number(results["seconds"], 0),
        results["command"],
    )
    headers = ("date", "commit", "load average at start", "seconds", "command")
    return _table(f"Run of the {results['benchmark']} benchmark", headers, [row])


def tables(results: Json) -> list[Table]:
    """Return every table of one benchmark's results: the run first, the targets last."""
    found = [run_table(results)] if "machine" in results else []
    found += TABLES[results["benchmark"]](results)
    if results.get("targets"):
        found.append(target_table(results["targets"]))
    return found


# -- formats -----------------------------------------------------------------------------


def markdown(table: Table) -> str:
    """Render a table as GitHub Markdown, its title in bold above it."""
    lines = [f"**{table.title}**", ""] if table.title else []
    lines.append("| " + " | ".join(table.headers) + " |")
    lines.append("|" + "|".join("---" for _ in table.headers) + "|")
    lines += [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table.rows
    ]
    return "\n".join(lines)


def text(table: Table) -> str:
    """Render a table as aligned plain text under its title."""
    widths = [
        max(len(cell) for cell in column) for column in zip(table.headers, *table.rows, strict=True)
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))

    out = [table.title, line(table.headers), line(["-" * width for width in widths])]
    out += [line(row) for row in table.rows]
    return "\n".join(text.rstrip() for text in out)


def render(results: Json, *, as_markdown: bool = False) -> str:
    """Render every table of one benchmark's results."""
    form = markdown if as_markdown else text
    return "\n\n".join(form(table) for table in tables(results))
