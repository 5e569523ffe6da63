"""Reliability gates: hostile payloads through the reader view, hostile pages through `extract`.

Three gates, each usable from the tests and from the long runs in `scripts/`:

- the XSS gate embeds script-injection payloads in an article page, renders the
  reader view exactly as the proxy's workers do, and inspects the output with
  lxml for anything that could run script;
- the parser gate runs the real `plainview extract` command over the malformed
  and extreme pages of the shared corpora, with a watchdog, and records what
  each page gave, how long it took and the memory the process needed;
- the fuzzer mutates pages at random and checks decoding, extraction and
  rendering on each.

`python -m plainview_dev.gates xss|parser|fuzz --help` runs one gate and prints its table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

import lxml.html
from lxml import etree

from addon.core import Article, extract
from addon.core.decode import decode
from addon.core.output.tags import ALLOWED_ATTRS, ALLOWED_TAGS
from addon.job.budget import OverBudget, time_budget
from addon.job.reader_job import PageJob, PageOutcome, run_job
from addon.proxy.adapter import reader_links
from addon.render.pages import PageStyle, ReaderLinks, render_reader

# The repository's checkout sits beside the shared data folder.
CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
XSS_PAYLOADS = CORPORA / "xss" / "xss-payload-list.txt"
PARSER_CORPORA = ("html5lib-tree", "encodings", "extremes")

Element = etree._Element

# -- XSS: the pages ---------------------------------------------------------------------

PLACEMENTS = ("h1", "title", "paragraph", "attribute", "image")
GATE_URL = "https://news.example/2024/05/harbour-ferry-returns"
_SECRET = "reliability-gate"
_PROSE = (
    "<p>The harbour ferry carried its first passengers in months on day {n}, after the "
    "shipyard replaced the engines, the wheelhouse windows and most of the deck planks. "
    "Commuters said the crossing was quieter and the boat felt steadier in the swell.</p>"
)


def load_payloads(path: Path = XSS_PAYLOADS) -> list[str]:
    """Return the payloads of a list with one per line, used as they are."""
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line]


def _payload_block(payload: str, placement: str) -> str:
    """Return the paragraph of the page that carries the payload, for the body placements."""
    if placement == "paragraph":
        return f"<p>Residents wrote to the council: {payload} It answered within a week.</p>"
    if placement == "attribute":
        return (
            f'<p>The new <a href="{payload}" title="{payload}" class="{payload}">timetable</a>'
            " lists a crossing every twenty minutes at peak times.</p>"
        )
    if placement == "image":
        return (
            f'<figure><img src="{payload}" alt="The ferry at the pier" width="640" height="400">'
            "<figcaption>The ferry at the pier on its first morning.</figcaption></figure>"
        )
    return _PROSE.format(n=0)


def article_page(payload: str, placement: str) -> bytes:
    """Build a realistic article page with the payload, raw, in one place."""
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement: {placement}")
    title = payload if placement == "title" else "Harbour ferry returns | Coast News"
    headline = payload if placement == "h1" else "Harbour ferry returns after a winter of repairs"
    paragraphs = [_PROSE.format(n=n) for n in range(1, 7)]
    paragraphs.insert(3, _payload_block(payload, placement))
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title></head>\n<body>"
        '<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>'
        f"<article><h1>{headline}</h1>\n<p>By the Coast News desk</p>\n"
        + "\n".join(paragraphs)
        + "\n</article><footer><p>Coast News, the harbour road</p></footer></body></html>\n"
    ).encode()


def gate_links(url: str = GATE_URL) -> ReaderLinks:
    """Return the toolbar links the proxy gives a reader page of this URL."""
    parts = urlsplit(url)
    return reader_links(url, parts.scheme, parts.hostname or "", _SECRET, "gate")


def reader_view(body: bytes, url: str = GATE_URL) -> PageOutcome:
    """Extract and render a page exactly as the proxy's worker does, in reader mode."""
    job = PageJob(
        body=body,
        url=url,
        content_type="text/html; charset=utf-8",
        mode="reader",
        style=PageStyle(),
        links=gate_links(url),
    )
    return run_job(job)


# -- XSS: the inspection ----------------------------------------------------------------


def _words(names: str) -> frozenset[str]:
    """Return a set of names written as one space-separated string."""
    return frozenset(names.split())


# Elements that run script, embed or frame a document, or change how the page is read.
# Not <math>: the reader keeps formulas as MathML, each of its elements and attributes
# checked against the core's allow-list below, as every other content element is.
EXECUTABLE_ELEMENTS = _words(
    "script iframe frame frameset object embed applet base link svg template noscript"
    " portal foreignobject animate set animatemotion animatetransform handler listener"
    " import xml isindex param audio video source track canvas"
)
# URL schemes that run script or make a document out of the URL itself.
SCRIPT_SCHEMES = frozenset({"javascript", "vbscript", "livescript", "mocha", "data"})
# Attributes that hold one URL, lowercased as the HTML parser gives them.
URL_ATTRIBUTES = _words(
    "href src action formaction xlink:href poster background data codebase cite longdesc"
    " lowsrc dynsrc ping manifest icon archive classid usemap profile"
)
_SRCSET_ATTRIBUTES = frozenset({"srcset", "imagesrcset"})
# What the core allows on every content element (addon/core/output/tags.py), and what nh3 adds;
# an id only outside the reader page's own namespace (addon/core/output/anchors.py).
GLOBAL_ATTRS = frozenset({"dir", "lang", "id"})
READER_ID_PREFIX = "pv-"
LINK_REL = frozenset({"noopener", "noreferrer"})
# The template's own chrome: the toolbar forms and the head's meta elements.
_FORM_PARTS = frozenset({"form", "input", "button", "select", "textarea"})
_META_ATTRS = frozenset({"charset", "name", "content"})
_SCHEME_RE = re.compile(r"([a-z][a-z0-9+.\-]*):")
_URL_NOISE_RE = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def url_scheme(value: str) -> str:
    """Return a URL's scheme as a browser reads it (lowercase), or "" for a relative URL."""
    # Browsers strip leading/trailing C0 controls and spaces and drop tabs and newlines.
    cleaned = _URL_NOISE_RE.sub("", value).strip(_C0_AND_SPACE)
    match = _SCHEME_RE.match(cleaned.lower())
    return match.group(1) if match else ""


def is_data_image(tag: str, attribute: str, value: str) -> bool:
    """Tell an image's data: URL of an image type, the one data: URL the reader keeps.

    data:image/svg+xml is allowed too: an SVG used as an image runs no script
    and loads nothing (the HTML standard's "secure animated" image mode), and
    the reader page's CSP (img-src * data:) admits nothing else from it.
    """
    return (tag, attribute) == ("img", "src") and value.strip().lower().startswith("data:image/")


def _url_problem(tag: str, attribute: str, value: str) -> str:
    """Return what is wrong with one URL attribute, or ""."""
    scheme = url_scheme(value)
    if scheme in SCRIPT_SCHEMES and not is_data_image(tag, attribute, value):
        return f"{scheme}: URL in <{tag} {attribute}>"
    return ""


def _srcset_urls(value: str) -> list[str]:
    """Return the URLs of a srcset, roughly: each candidate's first word."""
    return [part.split()[0] for part in value.split(",") if part.split()]


def attribute_problems(el: Element) -> list[str]:
    """Return the executable attributes of one element: handlers, srcdoc, script URLs."""
    tag = str(el.tag).lower()
    problems: list[str] = []
    for raw_name, value in el.items():
        name = str(raw_name).lower()
        if name.startswith("on"):
            problems.append(f"event handler {name} on <{tag}>")
        elif name in ("srcdoc", "http-equiv"):
            problems.append(f"{name} attribute on <{tag}>")
        elif name in URL_ATTRIBUTES or name.endswith(":href"):
            problems.append(_url_problem(tag, name, str(value)))
        elif name in _SRCSET_ATTRIBUTES:
            problems.extend(_url_problem(tag, "srcset", url) for url in _srcset_urls(str(value)))
    return [problem for problem in problems if problem]


def _in_toolbar(el: Element) -> bool:
    """Tell whether an element sits in the template's toolbar."""
    return any(
        ancestor.tag == "header" and "toolbar" in (ancestor.get("class") or "").split()
        for ancestor in el.iterancestors()
    )


def element_problem(el: Element, links: ReaderLinks) -> str:
    """Return why one element may run script or act on the user's behalf, or ""."""
    tag = str(el.tag).lower()
    if tag in EXECUTABLE_ELEMENTS:
        return f"<{tag}> element"
    parent = el.getparent()
    if tag == "style" and (parent is None or parent.tag != "head"):
        return "<style> outside the head"
    names = [str(name) for name in el.attrib]
    if tag == "meta" and not set(names) <= _META_ATTRS:
        return f"<meta {' '.join(names)}>"
    if tag in _FORM_PARTS and not _in_toolbar(el):
        return f"<{tag}> outside the toolbar"
    # The toolbar's own forms post to Plainview's settings host: the toggles and "Aa".
    if tag == "form" and el.get("action") not in (links.toggle_action, links.style_action):
        return f"<form action={el.get('action')!r}>"
    return ""


def executable_constructs(document: bytes, links: ReaderLinks) -> list[str]:
    """Parse a rendered page with lxml and list every construct that could run script."""
    root = lxml.html.document_fromstring(document)
    problems: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue  # comments and processing instructions run nothing
        problem = element_problem(el, links)
        if problem:
            problems.append(problem)
        problems.extend(attribute_problems(el))
    if len(root.findall(".//style")) != 1:
        problems.append(f"{len(root.findall('.//style'))} <style> elements")
    return problems + content_violations(root)


def _content_elements(root: Element) -> Iterator[Element]:
    """Yield the elements of the article's content: the article less the template's header."""
    articles = root.findall(".//main/article")
    if len(articles) != 1:
        raise ValueError(f"{len(articles)} main > article elements: not a reader page")
    for child in articles[0]:
        if child is articles[0][0] and child.tag == "header":
            continue
        yield from (el for el in child.iter() if isinstance(el.tag, str))


def content_violations(root: Element) -> list[str]:
    """List content elements and attributes outside the core's allow-list; links need rel."""
    problems: list[str] = []
    for el in _content_elements(root):
        tag = str(el.tag)
        if tag not in ALLOWED_TAGS:
            problems.append(f"<{tag}> in the content")
            continue
        allowed = ALLOWED_ATTRS.get(tag, frozenset()) | GLOBAL_ATTRS
        allowed |= {"rel"} if tag == "a" else set()
        # The renderer's own: an image sends no Referer (render.pages.quiet_images).
        quiet = tag == "img" and el.get("referrerpolicy") == "no-referrer"
        allowed |= {"referrerpolicy"} if quiet else set()
        names = [str(name) for name in el.attrib]
        problems.extend(f"{name} attribute on <{tag}>" for name in names if name not in allowed)
        if (el.get("id") or "").startswith(READER_ID_PREFIX):
            problems.append(f"the reader page's own id on <{tag}>: {el.get('id')!r}")
        if tag == "a" and el.get("href") is not None:
            rel = set((el.get("rel") or "").lower().split())
            if not rel >= LINK_REL:
                problems.append(f"link without rel=noopener noreferrer: {el.get('href')!r}")
    return problems


def payload_shown_as_text(document: bytes, payload: str) -> bool:
    """Tell whether the payload appears verbatim in the page's visible text (escaped)."""
    root = lxml.html.document_fromstring(document)
    body = root.find("body")
    text = "" if body is None else etree.tostring(body, method="text", encoding="unicode")
    shown = [root.findtext(".//title") or "", text]
    return payload.strip() in "\n".join(shown)


# -- XSS: the gate ----------------------------------------------------------------------


@dataclass
class PlacementTally:
    """What the pages with the payload in one place became."""

    pages: int = 0
    reader_views: int = 0
    shown_as_text: int = 0
    originals: Counter[str] = field(default_factory=Counter)  # no reader view: why


@dataclass(frozen=True, slots=True)
class XssFinding:
    """One executable construct in a reader view."""

    index: int  # the payload's 0-based line number
    placement: str
    payload: str
    problem: str


@dataclass
class XssReport:
    """The XSS gate's counts per placement and every finding."""

    tallies: dict[str, PlacementTally] = field(
        default_factory=lambda: {name: PlacementTally() for name in PLACEMENTS}
    )
    findings: list[XssFinding] = field(default_factory=list)

    @property
    def pages(self) -> int:
        """Return how many pages were built and rendered."""
        return sum(tally.pages for tally in self.tallies.values())


def rotation(count: int) -> list[tuple[int, str]]:
    """Give payload i the placement i mod 5: every payload once, every placement a fifth."""
    return [(index, PLACEMENTS[index % len(PLACEMENTS)]) for index in range(count)]


def cross_product(count: int) -> list[tuple[int, str]]:
    """Give every payload every placement."""
    return [(index, placement) for index in range(count) for placement in PLACEMENTS]


def check_payload(report: XssReport, index: int, payload: str, placement: str) -> None:
    """Render one page with the payload and add what it gave to the report."""
    tally = report.tallies[placement]
    tally.pages += 1
    outcome = reader_view(article_page(payload, placement))
    if outcome.html is None:
        tally.originals[outcome.reason] += 1
        return
    tally.reader_views += 1
    tally.shown_as_text += payload_shown_as_text(outcome.html, payload)
    for problem in executable_constructs(outcome.html, gate_links()):
        report.findings.append(XssFinding(index, placement, payload, problem))


def run_xss_gate(payloads: Sequence[str], cases: Iterable[tuple[int, str]]) -> XssReport:
    """Run the XSS gate over (payload index, placement) cases."""
    report = XssReport()
    for index, placement in cases:
        check_payload(report, index, payloads[index], placement)
    return report


def format_xss_report(report: XssReport) -> str:
    """Render the XSS gate's counts as a Markdown table, then its findings."""
    lines = [
        "| placement | pages | reader views | original (no article) | payload shown as text"
        " | executable constructs |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    found = Counter(finding.placement for finding in report.findings)
    for name, tally in report.tallies.items():
        lines.append(
            f"| {name} | {tally.pages:,} | {tally.reader_views:,} | "
            f"{sum(tally.originals.values()):,} | {tally.shown_as_text:,} | {found[name]:,} |"
        )
    lines += [f"\nfinding: line {f.index + 1} in {f.placement}: {f.problem}: {f.payload!r}"
              for f in report.findings]  # fmt: skip
    return "\n".join(lines)


# -- Parser gate ------------------------------------------------------------------------

# A page that gives no result within this many budgets (plus the start-up) hangs.
STALL_BUDGETS = 10
STALL_GRACE_SECONDS = 30.0
_TRACEBACK = "Traceback (most recent call last)"


@dataclass(frozen=True, slots=True)
class PageResult:
    """What `plainview extract` gave for one input."""

    corpus: str
    source: str
    outcome: str  # article, skip, crash, hang or missing
    reason: str = ""  # the skip reason, or what went wrong
    ms: float | None = None  # extraction time the command reported
    peak_kib: int = 0  # peak resident memory of the process that handled it


@dataclass(frozen=True, slots=True)
class Batch:
    """One run of the command over several sources."""

    records: dict[str, dict[str, object]]  # jsonl records by source
    returncode: int
    stderr: str
    peak_kib: int
    stalled: bool


def plainview_command() -> list[str]:
    """Return the installed `plainview` command beside this Python, else `python -m`."""
    installed = Path(sys.executable).with_name("plainview")
    if installed.is_file():
        return [str(installed)]
    return [sys.executable, "-m", "addon.cli.main"]


def extract_command(sources: Sequence[Path], budget: float) -> list[str]:
    """Return the command line that extracts the sources as jsonl within the budget."""
    return [
        *plainview_command(), "extract", "--format", "jsonl",
        "--time-budget", f"{budget:g}", *map(str, sources),
    ]  # fmt: skip


def _pump(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Move a stream's lines into a queue, then None at its end."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _collect(lines: queue.Queue[bytes | None], stall: float) -> tuple[list[bytes], bool]:
    """Take lines until the end; True as well if none came within `stall` seconds."""
    got: list[bytes] = []
    while True:
        try:
            line = lines.get(timeout=stall)
        except queue.Empty:
            return got, True
        if line is None:
            return got, False
        got.append(line)


def _records(lines: Sequence[bytes]) -> dict[str, dict[str, object]]:
    """Parse jsonl lines into records keyed by their source."""
    records: dict[str, dict[str, object]] = {}
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # cut short by a crash or a kill: that page has no result
        records[str(record["source"])] = record
    return records


def run_batch(command: Sequence[str], *, stall: float) -> Batch:
    """Run a jsonl-printing command; kill it when it prints nothing for `stall` seconds."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(os.devnull, "rb") as stdin, tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=errors,
                                   env=env)  # fmt: skip
        assert process.stdout is not None
        lines: queue.Queue[bytes | None] = queue.Queue()
        reader = threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True)
        reader.start()
        got, stalled = _collect(lines, stall)
        if stalled:
            process.kill()
        # wait4 gives this child's own resource use: its peak memory in KiB on Linux.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        reader.join()
        process.stdout.close()
        errors.seek(0)
        stderr = errors.read().decode("utf-8", "replace")
    return Batch(_records(got), process.returncode, stderr, usage.ru_maxrss, stalled)


def _result(corpus: str, source: str, record: dict[str, object], peak_kib: int) -> PageResult:
    """Turn one jsonl record into a page result."""
    skip = record.get("skip")
    ms = record.get("ms")
    timing = float(ms) if isinstance(ms, int | float) else None
    if skip is None:
        return PageResult(corpus, source, "article", "", timing, peak_kib)
    return PageResult(corpus, source, "skip", str(skip), timing, peak_kib)


def _unreadable(stderr: str, source: str) -> str:
    """Return the command's message about a source it could not read, or ""."""
    prefix = f"plainview: {source}: "
    return next(
        (line[len(prefix) :] for line in stderr.splitlines() if line.startswith(prefix)), ""
    )


Command = Callable[[Sequence[Path], float], list[str]]


def gate_batch(
    corpus: str,
    sources: Sequence[Path],
    budget: float,
    *,
    command: Command = extract_command,
    stall: float | None = None,
) -> list[PageResult]:
    """Extract sources with one process; after a crash or hang, go on past the culprit."""
    results: list[PageResult] = []
    pending = list(sources)
    if stall is None:
        stall = STALL_BUDGETS * budget + STALL_GRACE_SECONDS
    while pending:
        batch = run_batch(command(pending, budget), stall=stall)
        rest = _take_results(corpus, pending, batch, results)
        if not rest:
            break
        culprit, pending = rest[0], rest[1:]
        if batch.stalled:
            results.append(PageResult(corpus, str(culprit), "hang", f"no result in {stall:g} s"))
        elif _TRACEBACK in batch.stderr:
            last = batch.stderr.strip().splitlines()[-1]
            results.append(PageResult(corpus, str(culprit), "crash", last))
        else:
            results.append(PageResult(corpus, str(culprit), "missing", batch.stderr.strip()))
    return results


def _take_results(
    corpus: str, pending: Sequence[Path], batch: Batch, results: list[PageResult]
) -> list[Path]:
    """Add the batch's results in source order; return the sources from the first unanswered."""
    for position, path in enumerate(pending):
        source = str(path)
        record = batch.records.get(source)
        if record is not None:
            results.append(_result(corpus, source, record, batch.peak_kib))
            continue
        unreadable = _unreadable(batch.stderr, source)
        if unreadable:
            results.append(PageResult(corpus, source, "missing", unreadable, None, batch.peak_kib))
            continue
        return list(pending[position:])
    return []


def corpus_files(name: str, root: Path = CORPORA) -> list[Path]:
    """Return a corpus folder's pages (.html and .html.gz), sorted by name."""
    folder = root / name
    return sorted(
        path
        for path in folder.iterdir()
        if path.is_file() and path.name.endswith((".html", ".html.gz"))
    )


def run_parser_gate(
    names: Sequence[str] = PARSER_CORPORA,
    *,
    budget: float = 2.0,
    root: Path = CORPORA,
    one_process_per_page: Sequence[str] = ("extremes",),
) -> list[PageResult]:
    """Run the parser gate over corpora; pages of some corpora get a process each."""
    results: list[PageResult] = []
    for name in names:
        files = corpus_files(name, root)
        if name in one_process_per_page:
            for path in files:
                results += gate_batch(name, [path], budget)
        else:
            results += gate_batch(name, files, budget)
    return results


@dataclass
class CorpusSummary:
    """One corpus's row of the parser gate's table."""

    inputs: int = 0
    articles: int = 0
    skips: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)  # crash, hang, missing
    max_ms: float = 0.0
    slowest: str = ""
    max_kib: int = 0
    largest: str = ""

    def add(self, result: PageResult) -> None:
        """Count one page's result."""
        self.inputs += 1
        if result.outcome == "article":
            self.articles += 1
        elif result.outcome == "skip":
            self.skips[result.reason] += 1
        else:
            self.failures[result.outcome] += 1
        name = Path(result.source).name
        if result.ms is not None and result.ms >= self.max_ms:
            self.max_ms, self.slowest = result.ms, name
        if result.peak_kib >= self.max_kib:
            self.max_kib, self.largest = result.peak_kib, name


def summarise(results: Iterable[PageResult]) -> dict[str, CorpusSummary]:
    """Group page results into one summary per corpus, in the order met."""
    summaries: dict[str, CorpusSummary] = {}
    for result in results:
        summaries.setdefault(result.corpus, CorpusSummary()).add(result)
    return summaries


def format_parser_report(results: Sequence[PageResult], budget: float) -> str:
    """Render the parser gate's table in Markdown, then every failure."""
    lines = [
        "| corpus | inputs | articles | skips by reason | crashes | hangs | missing"
        " | max time per page | max peak memory |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for name, row in summarise(results).items():
        skips = "; ".join(f"{reason}: {n:,}" for reason, n in row.skips.most_common()) or "none"
        lines.append(
            f"| {name} | {row.inputs:,} | {row.articles:,} | {skips} | {row.failures['crash']}"
            f" | {row.failures['hang']} | {row.failures['missing']} | {row.max_ms:,.0f} ms"
            f" ({row.slowest}) | {row.max_kib / 1024:,.0f} MiB ({row.largest}) |"
        )
    lines.append(f"\ntime budget per page: {budget:g} s")
    lines += [f"failure: {r.source}: {r.outcome}: {r.reason}" for r in results
              if r.outcome not in ("article", "skip")]  # fmt: skip
    return "\n".join(lines)


# -- Fuzzing ----------------------------------------------------------------------------

# Fragments the mutations splice in: markup that changes the parser's state.
TOKENS = (
    b"<", b">", b"</", b"<!--", b"-->", b"<!", b"<?", b"&", b"&#", b"&#x0;", b"&amp", b'"', b"'",
    b"=", b"\x00", b"\r", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xc3", b"\xe2\x80",
    b"<p>", b"</p>", b"<div>", b"</div>", b"<table>", b"<td>", b"<tr>", b"<li>", b"<ul>",
    b"<h1>", b"</h1>", b"<title>", b"</title>", b"<script>", b"</script>", b"<style>",
    b"<svg>", b"<math>", b"<template>", b"<noscript>", b"<textarea>", b"<plaintext>",
    b"<xmp>", b"<select>", b"<frameset>", b"<![CDATA[", b"]]>", b"<pre>\n", b"<br>",
    b'<meta charset="utf-16">', b'<meta charset="shift_jis">', b'<base href="javascript:x">',
    b'<a href="javascript:alert(1)">', b"<img src=x onerror=alert(1)>", b" onload=alert(1) ",
    b"<html dir=rtl lang=ar>", b"\xd8\xa7\xd9\x84", b"\xe6\x96\x87\xe5\xad\x97",
)  # fmt: skip
CONTENT_TYPES = (
    None, "text/html", "text/html; charset=utf-8", "text/html; charset=windows-1252",
    "text/html; charset=utf-16", "text/html; charset=utf-16be", "text/html; charset=shift_jis",
    "text/html; charset=gb18030", "text/html; charset=x-user-defined", "text/html; charset=",
    'text/html; charset="utf-8', "text/html; charset=bogus-42", "application/xhtml+xml",
    "text/plain", "text/html;;charset=utf-8;charset=latin1", "\x00;charset=\xff",
)  # fmt: skip
FUZZ_URL = "https://fuzz.example/section/page.html?id=1"
# An input that takes longer than this hangs, for the fuzzer.
FUZZ_HANG_SECONDS = 20.0

Mutation = Callable[[random.Random, bytes, Sequence[bytes]], bytes]


def _span(rng: random.Random, data: bytes) -> tuple[int, int]:
    """Pick a random slice [start, end) of data, biased to short ones."""
    start = rng.randrange(len(data) + 1)
    end = min(len(data), start + int(rng.expovariate(1 / 16)) + 1)
    return start, end


def _flip(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Flip one random bit."""
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def _insert_bytes(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Insert a few random bytes."""
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.randint(1, 8)) + data[at:]


def _delete(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Delete a random slice."""
    start, end = _span(rng, data)
    return data[:start] + data[end:]


def _duplicate(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Repeat a random slice a few times in place."""
    start, end = _span(rng, data)
    return data[:end] + data[start:end] * rng.randint(1, 4) + data[end:]


def _token(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Insert a markup token."""
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(TOKENS) + data[at:]


def _splice(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Insert a slice of another seed."""
    other = rng.choice(seeds)
    start, end = _span(rng, other)
    at = rng.randrange(len(data) + 1)
    return data[:at] + other[start : end + rng.randrange(256)] + data[at:]


def _truncate(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Cut the input at a random point."""
    return data[: rng.randrange(len(data) + 1)]


def _nest(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Wrap a random point in many nested elements."""
    tag = rng.choice((b"div", b"b", b"span", b"table", b"li", b"blockquote", b"a"))
    depth = rng.randint(10, 2000)
    at = rng.randrange(len(data) + 1)
    return data[:at] + (b"<" + tag + b">") * depth + data[at:]


MUTATIONS: tuple[Mutation, ...] = (
    _flip, _insert_bytes, _delete, _duplicate, _token, _token, _splice, _truncate, _nest,
)  # fmt: skip


def mutate(rng: random.Random, data: bytes, seeds: Sequence[bytes]) -> bytes:
    """Apply one to four random mutations."""
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(MUTATIONS)(rng, data, seeds)
    return data


def fuzz_seeds(root: Path = CORPORA, *, payloads: int = 200) -> list[bytes]:
    """Return the seed pages: encodings and html5lib inputs, and articles with XSS payloads."""
    seeds = [path.read_bytes() for path in corpus_files("encodings", root)]
    seeds += [path.read_bytes() for path in corpus_files("html5lib-tree", root)]
    lines = load_payloads(root / "xss" / "xss-payload-list.txt")
    rng = random.Random(0)
    for index in rng.sample(range(len(lines)), min(payloads, len(lines))):
        seeds.append(article_page(lines[index], PLACEMENTS[index % len(PLACEMENTS)]))
    return seeds


@dataclass(frozen=True, slots=True)
class FuzzFailure:
    """One input that broke a property, with what broke."""

    kind: str  # exception, hang, unsafe output
    detail: str
    body: bytes
    content_type: str | None


@dataclass
class FuzzReport:
    """How many inputs a fuzz run tried, how many became articles, and what failed."""

    seed: int
    tried: int = 0
    articles: int = 0
    seconds: float = 0.0
    failures: list[FuzzFailure] = field(default_factory=list)


def check_input(body: bytes, content_type: str | None) -> tuple[bool, list[str]]:
    """Decode, extract and render one input; return (article?, broken properties)."""
    decoded = decode(body, content_type)
    decoded.text.encode("utf-8")  # a lone surrogate would fail here, and in every writer
    result = extract(body, url=FUZZ_URL, content_type=content_type)
    if not isinstance(result, Article):
        return False, []
    page = render_reader(result, FUZZ_URL, PageStyle(), gate_links(FUZZ_URL))
    return True, executable_constructs(page.body, gate_links(FUZZ_URL))


def _fuzz_one(report: FuzzReport, body: bytes, content_type: str | None) -> None:
    """Check one input within the hang limit and record what it gave."""
    report.tried += 1
    try:
        with time_budget(FUZZ_HANG_SECONDS):
            article, problems = check_input(body, content_type)
    except OverBudget:
        report.failures.append(FuzzFailure("hang", f"over {FUZZ_HANG_SECONDS:g} s", body,
                                           content_type))  # fmt: skip
        return
    except Exception:  # the property under test: nothing may raise
        detail = traceback.format_exc()
        report.failures.append(FuzzFailure("exception", detail, body, content_type))
        return
    report.articles += article
    if problems:
        report.failures.append(FuzzFailure("unsafe output", "; ".join(problems), body,
                                           content_type))  # fmt: skip


def fuzz(
    seeds: Sequence[bytes],
    *,
    seed: int,
    max_inputs: int | None = None,
    seconds: float | None = None,
) -> FuzzReport:
    """Mutate seed pages at random and check each input until a count or a time is reached."""
    if max_inputs is None and seconds is None:
        raise ValueError("give max_inputs or seconds")
    rng = random.Random(seed)
    report = FuzzReport(seed)
    start = time.monotonic()
    deadline = start + seconds if seconds is not None else float("inf")
    while (max_inputs is None or report.tried < max_inputs) and time.monotonic() < deadline:
        body = mutate(rng, rng.choice(seeds), seeds)
        _fuzz_one(report, body, rng.choice(CONTENT_TYPES))
    report.seconds = time.monotonic() - start
    return report


def save_failures(report: FuzzReport, folder: Path, *, per_signature: int = 3) -> list[Path]:
    """Write the first failing inputs of each kind and their details; return the input files."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    kept: Counter[str] = Counter()
    for failure in report.failures:
        signature = failure_signature(failure)
        kept[signature] += 1
        if kept[signature] > per_signature:
            continue
        name = hashlib.sha256(failure.body).hexdigest()[:16]
        page = folder / f"{name}.html"
        page.write_bytes(failure.body)
        details = {"signature": signature, "detail": failure.detail,
                   "content_type": failure.content_type}  # fmt: skip
        (folder / f"{name}.json").write_text(json.dumps(details, indent=1) + "\n")
        written.append(page)
    return written


_FRAME_RE = re.compile(
    r'File "[^"]*/((?:addon|scripts/plainview_dev)/[^"]+)", line (\d+), in (\S+)'
)


def failure_signature(failure: FuzzFailure) -> str:
    """Summarise a failure as its kind, last message line and deepest frame in addon/."""
    lines = failure.detail.strip().splitlines() or [""]
    frames = _FRAME_RE.findall(failure.detail)
    where = f" at {frames[-1][0]}:{frames[-1][1]} ({frames[-1][2]})" if frames else ""
    return f"{failure.kind}: {lines[-1]}{where}"


def format_fuzz_report(report: FuzzReport) -> str:
    """Say how many inputs were tried, then each distinct failure with its count."""
    signatures = Counter(failure_signature(f) for f in report.failures)
    lines = [
        f"fuzz seed {report.seed}: {report.tried:,} inputs in {report.seconds:,.0f} s, "
        f"{report.articles:,} became reader views, {len(report.failures)} failures "
        f"({len(signatures)} distinct)"
    ]
    lines += [f"{count} x {signature}" for signature, count in signatures.most_common()]
    return "\n".join(lines)


# -- Command line -----------------------------------------------------------------------


def _run_xss(args: argparse.Namespace) -> int:
    """Run the XSS gate and print its table; 1 if anything executable was found."""
    payloads = load_payloads(args.payloads)
    count = min(len(payloads), args.limit or len(payloads))
    cases = rotation(count) if args.rotation else cross_product(count)
    start = time.monotonic()
    report = run_xss_gate(payloads, cases)
    print(format_xss_report(report))
    print(f"\n{count:,} payloads, {report.pages:,} pages in {time.monotonic() - start:,.0f} s")
    return 1 if report.findings else 0


def _run_parser(args: argparse.Namespace) -> int:
    """Run the parser gate and print its table; 1 on any crash, hang or missing result."""
    start = time.monotonic()
    results = run_parser_gate(args.corpus or PARSER_CORPORA, budget=args.budget,
                              root=args.corpora)  # fmt: skip
    print(format_parser_report(results, args.budget))
    print(f"\n{len(results):,} inputs in {time.monotonic() - start:,.0f} s")
    return 1 if any(r.outcome not in ("article", "skip") for r in results) else 0


def _run_fuzz(args: argparse.Namespace) -> int:
    """Fuzz for a while and print the counts; 1 if any input failed."""
    report = fuzz(fuzz_seeds(args.corpora), seed=args.seed, seconds=args.seconds)
    print(format_fuzz_report(report))
    if report.failures and args.out:
        for path in save_failures(report, args.out):
            print(f"saved {path}")
    return 1 if report.failures else 0


def build_parser() -> argparse.ArgumentParser:
    """Build the command line of the gates."""
    parser = argparse.ArgumentParser(prog="python -m plainview_dev.gates", description=__doc__)
    parser.add_argument("--corpora", type=Path, default=CORPORA, help="the corpora folder")
    commands = parser.add_subparsers(dest="command", required=True)
    xss = commands.add_parser("xss", help="XSS payloads through the reader view")
    xss.add_argument("--payloads", type=Path, default=XSS_PAYLOADS)
    xss.add_argument("--rotation", action="store_true",
                     help="each payload in one placement (i mod 5), as the tests do")  # fmt: skip
    xss.add_argument("--limit", type=int, help="only the first N payloads")
    xss.set_defaults(run=_run_xss)
    gate = commands.add_parser("parser", help="the corpora through `plainview extract`")
    gate.add_argument("--budget", type=float, default=2.0, help="seconds per page")
    gate.add_argument("--corpus", action="append", choices=PARSER_CORPORA)
    gate.set_defaults(run=_run_parser)
    fuzzer = commands.add_parser("fuzz", help="mutated pages through decode, extract, render")
    fuzzer.add_argument("seconds", type=float, nargs="?", default=60.0, help="how long")
    fuzzer.add_argument("--seed", type=int, default=1)
    fuzzer.add_argument("--out", type=Path, help="save failing inputs here")
    fuzzer.set_defaults(run=_run_fuzz)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one gate from the command line."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
