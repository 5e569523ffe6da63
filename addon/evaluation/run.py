"""Score extractors on a dataset of the WCXB layout: words, snippets, LCS, headlines, speed.

Layout: `html/NNNN.html.gz` and `ground-truth/NNNN.json` (with `url`,
`ground_truth.main_content`, `.title`, `.with`, `.without` and
`_internal.page_type.primary`). Every page is read once and handed to every
extractor in turn. Word, LCS and headline scores are per page, averaged over
pages; a snippet rate is averaged over the pages that have such snippets.

With site pages, only the pages whose host has two or more pages in the whole
dataset are scored, and each extractor that can use them is also handed the
host's other pages.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import importlib.util
import json
import statistics
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from html import escape
from pathlib import Path
from typing import Literal, TextIO
from urllib.parse import urlsplit

from lxml import etree
from lxml.html import HTMLParser

from addon.core import Article, ExtractParams, SitePage, Skip, extract
from addon.core.heuristics.site_memory import remember
from addon.core.paper.combine import extract_pipeline
from addon.core.paper.pipelines import Pipeline
from addon.evaluation import readability_js
from addon.evaluation.metrics import (
    Score,
    headline_match,
    lcs_scores,
    lost_words,
    snippet_rate,
    word_scores,
)
from addon.evaluation.readability_js import INSTALL_HINT, JsFailure, ReadabilityJs

Split = Literal["even", "odd", "all"]
PAGE_TYPES = ("article", "documentation", "forum", "service", "product", "collection", "listing")
# Page types a reader view serves; the others (service, product, collection,
# listing) should stay as they are in the proxy's auto mode.
READER_TYPES = frozenset({"article", "documentation", "forum"})
# The dataset's pages are stored as UTF-8, whatever their markup declares.
DATASET_CONTENT_TYPE = "text/html; charset=utf-8"
PEER_MODULES = {"trafilatura": "trafilatura", "readability": "readability-lxml"}

# Elements whose text never shows, and elements that start a new line of text.
_HIDDEN = frozenset({"script", "style", "noscript", "template", "head"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th",
        "tr", "ul",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Prediction:
    """What an extractor says a page's main text and headline are.

    `html` is the main content as HTML, for the structure measures ("" when
    the extractor was not asked for it). `readerable` is the auto mode's
    verdict (would the page become a reader view?); None for extractors that
    give none. `error` says why the extractor failed on the page, which then
    predicts nothing.
    """

    text: str
    title: str
    html: str = ""
    readerable: bool | None = None
    error: str | None = None
    # Words of the kept source elements missing from the view (the fidelity check);
    # None where the extractor cannot tell.
    lost_words: int | None = None


@dataclass(frozen=True, slots=True)
class Extractor:
    """A named way to turn a page's HTML bytes and URL into a prediction.

    `close`, when given, ends what the extractor holds between pages (a node
    process). `run_with_site`, when given, is how the extractor reads a page with
    other pages of its site beside it (an evaluation on site pages hands them over).
    """

    name: str
    run: Callable[[bytes, str | None], Prediction]
    close: Callable[[], None] | None = None
    run_with_site: Callable[[bytes, str | None, Sequence[SitePage]], Prediction] | None = None


@dataclass(frozen=True, slots=True)
class DatasetPage:
    """One page of the dataset: its HTML and its ground truth."""

    file_id: str
    url: str | None
    html: bytes
    page_type: str
    reference: str
    title: str | None
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PageScore:
    """How one extractor did on one page."""

    file_id: str
    page_type: str
    words: Score
    lcs: Score
    with_rate: float | None
    without_rate: float | None
    headline: bool | None
    title: str
    ms: float
    html_bytes: int
    readerable: bool | None = None
    error: str | None = None
    lost_words: int | None = None


@dataclass(frozen=True, slots=True)
class TypeScore:
    """Mean word F1 over the pages of one page type."""

    page_type: str
    pages: int
    f1: float | None


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """How many pages of one page type the auto mode turns into a reader view."""

    page_type: str
    pages: int
    reader: int

    @property
    def original(self) -> int:
        """Return how many pages stay as they are."""
        return self.pages - self.reader

    @property
    def share(self) -> float | None:
        """Return the share of pages that get the reader view (None for no pages)."""
        return self.reader / self.pages if self.pages else None


@dataclass(frozen=True, slots=True)
class Summary:
    """One extractor's scores over all pages; None where no page had the data."""

    name: str
    pages: int
    precision: float | None
    recall: float | None
    f1: float | None
    by_type: tuple[TypeScore, ...]
    with_rate: float | None
    without_rate: float | None
    lcs_f1: float | None
    headline_match: float | None
    headline_pages: int
    mb_per_s: float | None
    median_ms: float | None
    lost_words: int | None = None  # over the pages the check ran on
    lossy_pages: int = 0
    # The auto decision per page type; empty for extractors without a verdict.
    decisions: tuple[DecisionRow, ...] = ()


@dataclass(frozen=True, slots=True)
class ExtractorReport:
    """An extractor's summary and its per-page scores."""

    summary: Summary
    pages: tuple[PageScore, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of one evaluation run."""

    dataset: str
    split: Split
    limit: int | None
    pages: int
    errors: tuple[tuple[str, str], ...]  # (file id, reason) of unreadable pages
    extractors: tuple[ExtractorReport, ...]
    site_pages: bool = False  # only pages of hosts with several pages, handed their site


class Progress:
    """A one-line progress report: redrawn in place on a terminal, else one final line."""

    def __init__(
        self,
        stream: TextIO,
        total: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        min_interval: float = 0.1,  # seconds between redraws, so drawing stays cheap
    ) -> None:
        self._stream = stream
        self._total = total
        self._clock = clock
        self._min_interval = min_interval
        self._live = stream.isatty()
        self._start = clock()
        self._drawn = float("-inf")
        self._done = 0
        self._bytes = 0

    def step(self, html_bytes: int) -> None:
        """Count one more page of the given size and redraw if it is time to."""
        self._done += 1
        self._bytes += html_bytes
        now = self._clock()
        if self._live and now - self._drawn >= self._min_interval:
            self._drawn = now
            self._stream.write(f"\r{self._line(now)}")
            self._stream.flush()

    def close(self) -> None:
        """Write the final line."""
        prefix = "\r" if self._live else ""
        self._stream.write(f"{prefix}{self._line(self._clock())}\n")
        self._stream.flush()

    def _line(self, now: float) -> str:
        """Describe how far the run is and how fast it goes."""
        seconds = now - self._start
        rate = self._done / seconds if seconds > 0 else 0.0
        mb = self._bytes / 1e6
        return f"{self._done}/{self._total} pages, {mb:.1f} MB, {seconds:.1f} s, {rate:.1f} pages/s"


def is_dataset(dataset: Path) -> bool:
    """Tell whether a folder has the WCXB layout: html/ and ground-truth/."""
    return (dataset / "ground-truth").is_dir() and (dataset / "html").is_dir()


def page_ids(dataset: Path, split: Split = "all", limit: int | None = None) -> list[str] | str:
    """List the dataset's file ids in order, of one parity; a string says what is wrong."""
    if not is_dataset(dataset):
        return f"{dataset}: not a dataset (needs html/ and ground-truth/)"
    truth = dataset / "ground-truth"
    ids = sorted(path.stem for path in truth.glob("*.json") if path.stem.isdigit())
    if split != "all":
        parity = 0 if split == "even" else 1
        ids = [file_id for file_id in ids if int(file_id) % 2 == parity]
    return ids[:limit] if limit is not None else ids


def load_page(dataset: Path, file_id: str) -> DatasetPage | str:
    """Read one page's HTML and ground truth; a string says why it cannot be read."""
    try:
        record = json.loads((dataset / "ground-truth" / f"{file_id}.json").read_bytes())
        with gzip.open(dataset / "html" / f"{file_id}.html.gz", "rb") as compressed:
            html = compressed.read()
    except (OSError, EOFError, zlib.error, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    if not isinstance(record, dict):
        return "ground truth is not a JSON object"
    return _page_from_record(file_id, record, html)


def _page_from_record(file_id: str, record: dict[str, object], html: bytes) -> DatasetPage:
    """Build a page from its ground-truth record, reading missing fields as empty."""
    truth = _field(record, "ground_truth")
    page_type = _field(_field(record, "_internal"), "page_type").get("primary")
    title = truth.get("title")
    url = record.get("url")
    return DatasetPage(
        file_id=file_id,
        url=url if isinstance(url, str) else None,
        html=html,
        page_type=page_type if isinstance(page_type, str) else "unknown",
        reference=_string(truth.get("main_content")),
        title=title if isinstance(title, str) else None,
        with_snippets=_strings(truth.get("with")),
        without_snippets=_strings(truth.get("without")),
    )


def _field(record: dict[str, object], key: str) -> dict[str, object]:
    """Return a nested object, or an empty one when it is missing or not an object."""
    value = record.get(key)
    return value if isinstance(value, dict) else {}


def _string(value: object) -> str:
    """Return a string value, or "" for anything else."""
    return value if isinstance(value, str) else ""


def _strings(value: object) -> tuple[str, ...]:
    """Return the strings of a list value."""
    return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()


def score_page(
    page: DatasetPage, extractor: Extractor, site: Sequence[SitePage] | None = None
) -> PageScore:
    """Run one extractor on one page and score what it found.

    `site` holds the page's site's other pages, for an extractor that can use them.
    """
    start = time.perf_counter()
    if site is not None and extractor.run_with_site is not None:
        prediction = extractor.run_with_site(page.html, page.url, site)
    else:
        prediction = extractor.run(page.html, page.url)
    ms = (time.perf_counter() - start) * 1000
    return PageScore(
        file_id=page.file_id,
        page_type=page.page_type,
        words=word_scores(prediction.text, page.reference),
        lcs=lcs_scores(prediction.text, page.reference),
        with_rate=snippet_rate(prediction.text, page.with_snippets),
        without_rate=snippet_rate(prediction.text, page.without_snippets),
        headline=headline_match(prediction.title, page.title),
        title=prediction.title,
        ms=ms,
        html_bytes=len(page.html),
        readerable=prediction.readerable,
        error=prediction.error,
        lost_words=prediction.lost_words,
    )


def evaluate(
    dataset: Path,
    extractors: Sequence[Extractor],
    *,
    split: Split = "all",
    limit: int | None = None,
    progress_stream: TextIO | None = None,
    site_pages: bool = False,
) -> Report | str:
    """Run every extractor over the dataset's pages; a string says the dataset is unusable.

    With `site_pages`, only the pages of hosts with two or more pages in the whole
    dataset are scored (the split and the limit pick among them), and each is
    handed its host's other pages.
    """
    ids = page_ids(dataset, split, None if site_pages else limit)
    if isinstance(ids, str):
        return ids
    members = site_members(dataset) if site_pages else {}
    if site_pages:
        ids = [file_id for file_id in ids if file_id in members][:limit]
    progress = Progress(progress_stream, len(ids)) if progress_stream else None
    scores: dict[str, list[PageScore]] = {extractor.name: [] for extractor in extractors}
    errors: list[tuple[str, str]] = []
    for file_id in ids:
        page = load_page(dataset, file_id)
        if isinstance(page, str):
            errors.append((file_id, page))
        else:
            site = site_of(dataset, file_id, members) if site_pages else None
            for extractor in extractors:
                scores[extractor.name].append(score_page(page, extractor, site))
        if progress:
            progress.step(0 if isinstance(page, str) else len(page.html))
    if progress:
        progress.close()
    reports = tuple(ExtractorReport(summarise(name, s), tuple(s)) for name, s in scores.items())
    pages = len(ids) - len(errors)
    return Report(str(dataset), split, limit, pages, tuple(errors), reports, site_pages)


def host_of(url: str | None) -> str | None:
    """Return a URL's host name without a leading "www.", or None when it has none."""
    host = urlsplit(url).hostname if url else None
    return host.removeprefix("www.") if host else None


def site_members(dataset: Path) -> dict[str, list[str]]:
    """Map each file id of the whole dataset whose host has two or more pages to the file
    ids of all that host's pages, in order."""
    ids = page_ids(dataset)
    by_host: dict[str, list[str]] = {}
    for file_id in ids if isinstance(ids, list) else []:
        host = host_of(_read_url(dataset, file_id))
        if host is not None:
            by_host.setdefault(host, []).append(file_id)
    return {
        file_id: pages for pages in by_host.values() if len(pages) >= 2 for file_id in pages
    }


def _read_url(dataset: Path, file_id: str) -> str | None:
    """Return the URL of a page's ground truth, or None when it cannot be read."""
    try:
        record = json.loads((dataset / "ground-truth" / f"{file_id}.json").read_bytes())
    except (OSError, ValueError):
        return None
    url = record.get("url") if isinstance(record, dict) else None
    return url if isinstance(url, str) else None


def site_of(dataset: Path, file_id: str, members: dict[str, list[str]]) -> list[SitePage]:
    """Return the other pages of a page's host (those that can be read), with their URLs."""
    others = [load_page(dataset, other) for other in members.get(file_id, []) if other != file_id]
    return [
        SitePage(page.html, page.url, DATASET_CONTENT_TYPE)
        for page in others
        if not isinstance(page, str)
    ]


def summarise(name: str, scores: Sequence[PageScore]) -> Summary:
    """Average one extractor's page scores, overall and per page type."""
    headlines = [float(s.headline) for s in scores if s.headline is not None]
    seconds = sum(s.ms for s in scores) / 1000
    return Summary(
        name=name,
        pages=len(scores),
        precision=mean_or_none([s.words.precision for s in scores]),
        recall=mean_or_none([s.words.recall for s in scores]),
        f1=mean_or_none([s.words.f1 for s in scores]),
        by_type=_by_type(scores),
        with_rate=mean_or_none([s.with_rate for s in scores if s.with_rate is not None]),
        without_rate=mean_or_none([s.without_rate for s in scores if s.without_rate is not None]),
        lcs_f1=mean_or_none([s.lcs.f1 for s in scores]),
        headline_match=mean_or_none(headlines),
        headline_pages=len(headlines),
        mb_per_s=sum(s.html_bytes for s in scores) / 1e6 / seconds if seconds > 0 else None,
        median_ms=statistics.median(s.ms for s in scores) if scores else None,
        decisions=decision_matrix(scores),
        lost_words=_total([s.lost_words for s in scores if s.lost_words is not None]),
        lossy_pages=sum(1 for s in scores if s.lost_words),
    )


def _total(values: Sequence[int]) -> int | None:
    """Return the sum of the values, or None for none."""
    return sum(values) if values else None


def _by_type(scores: Sequence[PageScore]) -> tuple[TypeScore, ...]:
    """Mean word F1 per page type: the known types in order, then any others."""
    seen = {s.page_type for s in scores}
    types = [*PAGE_TYPES, *sorted(seen - set(PAGE_TYPES))]
    result = []
    for page_type in types:
        values = [s.words.f1 for s in scores if s.page_type == page_type]
        result.append(TypeScore(page_type, len(values), mean_or_none(values)))
    return tuple(result)


def decision_matrix(scores: Sequence[PageScore]) -> tuple[DecisionRow, ...]:
    """Count the pages that get the reader view per page type; () if no page has a verdict."""
    judged = [s for s in scores if s.readerable is not None]
    if not judged:
        return ()
    seen = {s.page_type for s in judged}
    types = [*PAGE_TYPES, *sorted(seen - set(PAGE_TYPES))]
    return tuple(
        DecisionRow(
            page_type,
            sum(1 for s in judged if s.page_type == page_type),
            sum(1 for s in judged if s.page_type == page_type and s.readerable),
        )
        for page_type in types
    )


def confusion(rows: Sequence[DecisionRow]) -> dict[str, tuple[int, int]]:
    """Sum the rows into (reader view, original) for the pages that should and should not."""
    should = [row for row in rows if row.page_type in READER_TYPES]
    should_not = [row for row in rows if row.page_type not in READER_TYPES]
    return {
        "reader": (sum(r.reader for r in should), sum(r.original for r in should)),
        "original": (sum(r.reader for r in should_not), sum(r.original for r in should_not)),
    }


def mean_or_none(values: Sequence[float]) -> float | None:
    """Return the mean, or None for no values."""
    return statistics.fmean(values) if values else None


def report_json(report: Report) -> dict[str, object]:
    """Turn a report into plain JSON data, with every page's scores."""
    return {
        "dataset": report.dataset,
        "split": report.split,
        "limit": report.limit,
        **({"site_pages": True} if report.site_pages else {}),
        "pages": report.pages,
        "errors": dict(report.errors),
        "extractors": {
            entry.summary.name: {
                **_summary_json(entry.summary),
                "per_page": [_page_json(score) for score in entry.pages],
            }
            for entry in report.extractors
        },
    }


def _summary_json(summary: Summary) -> dict[str, object]:
    """Turn a summary into plain JSON data."""
    return {
        "pages": summary.pages,
        "f1": summary.f1,
        "precision": summary.precision,
        "recall": summary.recall,
        "by_type": {t.page_type: {"pages": t.pages, "f1": t.f1} for t in summary.by_type},
        "with_rate": summary.with_rate,
        "without_rate": summary.without_rate,
        "lcs_f1": summary.lcs_f1,
        "headline_match": summary.headline_match,
        "headline_pages": summary.headline_pages,
        "mb_per_s": summary.mb_per_s,
        "median_ms": summary.median_ms,
        "lost_words": summary.lost_words,
        "lossy_pages": summary.lossy_pages,
        "auto_decision": _decisions_json(summary.decisions),
    }


def _decisions_json(rows: Sequence[DecisionRow]) -> dict[str, object] | None:
    """Turn the auto decision matrix into plain JSON data (None without verdicts)."""
    if not rows:
        return None
    matrix = confusion(rows)
    return {
        "by_type": {
            row.page_type: {
                "pages": row.pages,
                "reader": row.reader,
                "original": row.original,
                "share": row.share,
            }
            for row in rows
        },
        "should_be_reader": dict(zip(("reader", "original"), matrix["reader"], strict=True)),
        "should_be_original": dict(zip(("reader", "original"), matrix["original"], strict=True)),
    }


def _page_json(score: PageScore) -> dict[str, object]:
    """Turn one page's scores into plain JSON data."""
    return {
        "file_id": score.file_id,
        "page_type": score.page_type,
        "f1": score.words.f1,
        "precision": score.words.precision,
        "recall": score.words.recall,
        "lcs_f1": score.lcs.f1,
        "with_rate": score.with_rate,
        "without_rate": score.without_rate,
        "headline": score.headline,
        "title": score.title,
        "ms": score.ms,
        "html_bytes": score.html_bytes,
        "readerable": score.readerable,
        "error": score.error,
        "lost_words": score.lost_words,
    }


def format_report(report: Report) -> str:
    """Render a report as a table per extractor, then a comparison if there are several."""
    parts = []
    if report.site_pages:
        parts.append(
            f"site pages: {report.pages} pages of hosts with two or more pages in the dataset,"
            " each handed its host's other pages"
        )
    for entry in report.extractors:
        parts.append(_format_summary(entry.summary))
        if entry.summary.decisions:
            parts.append(format_decisions(entry.summary.name, entry.summary.decisions))
    if len(report.extractors) > 1:
        parts.append(_format_comparison([entry.summary for entry in report.extractors]))
    for file_id, reason in report.errors:
        parts.append(f"unreadable page {file_id}: {reason}")
    parts.extend(
        f"{entry.summary.name} failed on page {score.file_id}: {score.error}"
        for entry in report.extractors
        for score in entry.pages
        if score.error is not None
    )
    return "\n\n".join(parts)


def _format_summary(summary: Summary) -> str:
    """Render one extractor's summary as labelled rows."""
    p, r, f = (format_number(v) for v in (summary.precision, summary.recall, summary.f1))
    rows = [
        f"{summary.name}: {summary.pages} pages",
        f"  {'word F1 / P / R':<22}{f} / {p} / {r}",
        *(
            f"    {t.page_type:<20}{format_number(t.f1):<7} ({t.pages} pages)"
            for t in summary.by_type
        ),
        f"  {'with snippets':<22}{format_percent(summary.with_rate)}",
        f"  {'without snippets':<22}{format_percent(summary.without_rate)}  (lower is better)",
        f"  {'LCS F1':<22}{format_number(summary.lcs_f1)}",
        f"  {'headline exact':<22}{format_percent(summary.headline_match)}"
        f"  ({summary.headline_pages} pages with a headline)",
        *_fidelity_row(summary),
        f"  {'throughput':<22}{format_number(summary.mb_per_s, 2)} MB/s",
        f"  {'median time':<22}{format_number(summary.median_ms, 1)} ms/page",
    ]
    return "\n".join(rows)


def _fidelity_row(summary: Summary) -> list[str]:
    """Render the fidelity check's row, for an extractor it ran on."""
    if summary.lost_words is None:
        return []
    lost = f"{summary.lost_words} on {summary.lossy_pages} pages"
    return [f"  {'lost words':<22}{lost}  (kept content missing from the view; the rule: 0)"]


def format_decisions(name: str, rows: Sequence[DecisionRow]) -> str:
    """Render the auto decision per page type, then the confusion matrix, as Markdown tables."""
    lines = [
        f"{name}: auto mode decision",
        "",
        "| page type | pages | reader view | original | reader view share |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| {row.page_type} | {row.pages} | {row.reader} | {row.original} "
            f"| {format_percent(row.share)} |"
            for row in rows
        ),
        "",
        "| should be \\ got | reader view | original |",
        "|---|---:|---:|",
    ]
    matrix = confusion(rows)
    reader_types = ", ".join(t for t in PAGE_TYPES if t in READER_TYPES)
    labels = {"reader": f"reader view ({reader_types})", "original": "original (the others)"}
    for expected, label in labels.items():
        got_reader, got_original = matrix[expected]
        lines.append(f"| {label} | {got_reader} | {got_original} |")
    return "\n".join(lines)


def _format_comparison(summaries: Sequence[Summary]) -> str:
    """Render the main figures of several extractors side by side."""
    width = max(len("extractor"), *(len(s.name) for s in summaries))
    header = f"{'extractor':<{width}}  {'F1':>6} {'P':>6} {'R':>6} {'LCS':>6} "
    header += f"{'with':>7} {'without':>7} {'title':>7} {'MB/s':>6} {'ms':>7}"
    rows = [header]
    for s in summaries:
        figures = [format_number(v) for v in (s.f1, s.precision, s.recall, s.lcs_f1)]
        rates = [format_percent(v) for v in (s.with_rate, s.without_rate, s.headline_match)]
        row = f"{s.name:<{width}}  " + " ".join(f"{v:>6}" for v in figures)
        row += " " + " ".join(f"{v:>7}" for v in rates)
        rows.append(row + f" {format_number(s.mb_per_s, 2):>6} {format_number(s.median_ms, 1):>7}")
    return "\n".join(rows)


def format_number(value: float | None, digits: int = 3) -> str:
    """Format a number, or a dash for none."""
    return "-" if value is None else f"{value:.{digits}f}"


def format_percent(value: float | None) -> str:
    """Format a share as a percentage, or a dash for none."""
    return "-" if value is None else f"{value:.1%}"


def plainview_extractor(name: str, params: ExtractParams) -> Extractor:
    """Wrap Plainview's own extraction with the given parameters."""
    return Extractor(
        name, partial(_run_plainview, params), run_with_site=partial(_run_plainview, params)
    )


def remembering_extractor(name: str, params: ExtractParams) -> Extractor:
    """Wrap Plainview's extraction with the site memory of the page's host's other pages,
    as the proxy would hold it having seen them (a page alone: no memory)."""
    remembering = _Remembering(params)
    return Extractor(
        f"{name}+memory", partial(_run_plainview, params), run_with_site=remembering.run
    )


class _Remembering:
    """Extract a page with the memory of its site's other pages, each learned once."""

    def __init__(self, params: ExtractParams) -> None:
        self.params = params
        self.learned: dict[bytes, frozenset[int]] = {}  # by the page's body, for this run

    def run(self, html: bytes, url: str | None, site: Sequence[SitePage]) -> Prediction:
        """Extract one page with the memory of the others."""
        memory = remember(self._learn(page) for page in site)
        result = extract(
            html,
            url=url,
            content_type=DATASET_CONTENT_TYPE,
            params=self.params,
            audit=True,
            memory=memory,
        )
        return _prediction(result)

    def _learn(self, page: SitePage) -> frozenset[int]:
        """Return a site page's fingerprints, learned on first use."""
        if page.body not in self.learned:
            result = extract(page.body, url=page.url, content_type=DATASET_CONTENT_TYPE, learn=True)
            self.learned[page.body] = (
                frozenset() if isinstance(result, Skip) else result.fingerprints
            )
        return self.learned[page.body]


def _run_plainview(
    params: ExtractParams, html: bytes, url: str | None, site: Sequence[SitePage] = ()
) -> Prediction:
    """Extract with Plainview, with the site's other pages if given; a skipped page predicts
    nothing."""
    # The audit reads the kept source elements' text too (counted in the time).
    result = extract(
        html, url=url, content_type=DATASET_CONTENT_TYPE, params=params, audit=True, site=site
    )
    return _prediction(result)


def _prediction(result: Article | Skip) -> Prediction:
    """Return what an extraction predicts; a skipped page predicts nothing."""
    if isinstance(result, Skip):
        # The proxy keeps a skipped page as it is, in every mode; the headline found
        # before the content was not is still the page's.
        return Prediction("", result.title, readerable=False)
    return Prediction(
        result.text,
        result.title,
        view_html(result),
        readerable=result.readerable,
        lost_words=fidelity_loss(result),
    )


def view_html(article: Article) -> str:
    """Return the article's HTML as the reader page shows it: the headline's h1 (a link
    where the page's headline was one), then the blocks."""
    if not article.title:
        return article.html
    title = escape(article.title)
    if article.title_href:
        title = f'<a href="{escape(article.title_href)}">{title}</a>'
    return f"<h1>{title}</h1>\n{article.html}"


def pipeline_extractor(name: str, pipeline: Pipeline) -> Extractor:
    """Wrap a CombinE pipeline of Plainview's algorithms."""
    return Extractor(name, partial(_run_pipeline, pipeline))


def _run_pipeline(pipeline: Pipeline, html: bytes, url: str | None) -> Prediction:
    """Extract with a pipeline; a skipped page predicts nothing."""
    # No fidelity check: a combined article's blocks come from several extractions.
    result = extract_pipeline(html, pipeline, url=url, content_type=DATASET_CONTENT_TYPE)
    if isinstance(result, Skip):
        return Prediction("", result.title, readerable=False)
    return Prediction(result.text, result.title, result.html, readerable=result.readerable)


def fidelity_loss(article: Article) -> int | None:
    """Count the kept source elements' words the view lacks, beyond what it left out and why."""
    diagnostics = article.diagnostics
    if diagnostics is None or diagnostics.source_text is None:
        return None
    # Each block apart: a word may run from the end of one into the start of the next.
    shown = [article.title, *article.text.split("\n\n"), *(p.text for p in diagnostics.left_out)]
    return lost_words(diagnostics.source_text, *shown)


def missing_peers() -> list[str]:
    """Name the distributions the peer extractors need that are not installed."""
    found = importlib.util.find_spec
    return [dist for module, dist in PEER_MODULES.items() if found(module) is None]


def peer_extractors(*, with_html: bool = False) -> list[Extractor] | str:
    """Return trafilatura, readability-lxml and Readability.js, or say what is missing.

    `with_html` asks trafilatura for its HTML too, in a second pass with links,
    images and formatting kept (its text stays that of its defaults).
    """
    python, node = missing_peers(), readability_js.missing()
    hints = [*(["pip install -e '.[dev]'"] if python else []), *([INSTALL_HINT] if node else [])]
    if hints:
        return f"--peers needs {' and '.join(python + node)}: {'; '.join(hints)}"
    peer = ReadabilityJs()
    return [
        Extractor(f"trafilatura {_version('trafilatura')}", partial(_run_trafilatura, with_html)),
        Extractor(f"readability-lxml {_version('readability-lxml')}", _run_readability),
        Extractor(
            f"readability.js {readability_js.version()}",
            partial(_run_readability_js, peer),
            peer.close,
        ),
    ]


@contextmanager
def running(extractors: Sequence[Extractor]) -> Iterator[Sequence[Extractor]]:
    """Hand out the extractors, then close those that hold something between pages."""
    try:
        yield extractors
    finally:
        for extractor in extractors:
            if extractor.close is not None:
                extractor.close()


def _version(distribution: str) -> str:
    """Return an installed distribution's version."""
    return importlib.metadata.version(distribution)


def _run_trafilatura(with_html: bool, html: bytes, url: str | None) -> Prediction:
    """Extract with trafilatura's defaults, and its metadata title (and its HTML if asked)."""
    import trafilatura

    text = trafilatura.extract(html, url=url, with_metadata=False)
    title = trafilatura.extract_metadata(html, default_url=url).title
    # Its defaults would leave links, images and formatting out of the HTML too.
    content = trafilatura.extract(
        html, url=url, with_metadata=False, output_format="html",
        include_links=True, include_images=True, include_formatting=True,
    ) if with_html else None  # fmt: skip
    return Prediction(text or "", title or "", content or "")


def _run_readability(html: bytes, url: str | None) -> Prediction:
    """Extract with readability-lxml: the text of its summary, and its short title."""
    from readability import Document
    from readability.readability import Unparseable

    document = Document(html, url=url)
    try:
        summary = document.summary()
    except Unparseable:
        return Prediction("", "")
    return Prediction(html_text(summary), document.short_title() or "", summary)


def _run_readability_js(peer: ReadabilityJs, html: bytes, url: str | None) -> Prediction:
    """Extract with Readability.js: the text of its article HTML, and its title.

    The text comes from the HTML as for readability-lxml: Readability's own
    `textContent` glues the words of adjacent blocks together.
    """
    answer = peer.extract(html, url)
    if isinstance(answer, JsFailure):
        return Prediction("", "", error=answer.reason)
    return Prediction(html_text(answer.content), answer.title, answer.content)


def baseline_extractors() -> list[Extractor]:
    """Return the whole-page text with the `<title>` and with the first `<h1>` as headline."""
    return [
        Extractor("page-text+title", partial(_run_baseline, "title")),
        Extractor("page-text+h1", partial(_run_baseline, "h1")),
    ]


def _run_baseline(headline_tag: str, html: bytes, url: str | None) -> Prediction:
    """Predict the whole body text and the first element of a tag as the headline."""
    root = parse_html(html)
    if root is None:
        return Prediction("", "")
    body = root.find("body")
    heading = root.find(f".//{headline_tag}")
    title = "" if heading is None else " ".join(element_text(heading).split())
    page = html.decode("utf-8", "replace")
    return Prediction(element_text(root if body is None else body), title, page)


def parse_html(html: bytes | str) -> etree._Element | None:
    """Parse an HTML document (bytes as UTF-8); None for an empty one."""
    data = html.encode("utf-8", "replace") if isinstance(html, str) else html
    root: etree._Element | None = etree.HTML(data, HTMLParser(encoding="utf-8"))
    return root


def html_text(html: bytes | str) -> str:
    """Return the visible text of an HTML document, one line per block."""
    root = parse_html(html)
    return "" if root is None else element_text(root)


def element_text(root: etree._Element) -> str:
    """Return an element's visible text: blocks on their own lines, spaces collapsed."""
    lines = "".join(_text_chunks(root)).splitlines()
    return "\n".join(" ".join(line.split()) for line in lines if line.strip())


def _text_chunks(root: etree._Element) -> Iterator[str]:
    """Yield text in document order with a newline around each block (no recursion)."""
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        element, closing = stack.pop()
        tag = element.tag if isinstance(element.tag, str) else ""
        tail = "" if element is root else element.tail or ""
        if closing or not tag or tag in _HIDDEN:
            # A comment or hidden element shows only its tail.
            yield ("\n" if closing and tag in _BLOCKS else "") + tail
            continue
        yield ("\n" if tag in _BLOCKS else "") + (element.text or "")
        stack.append((element, True))
        stack.extend((child, False) for child in reversed(element))


def write_json(data: dict[str, object], path: Path) -> str | None:
    """Write a report's JSON data; return why it failed, or None."""
    try:
        text = json.dumps(data, indent=1, ensure_ascii=False)
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    return None
