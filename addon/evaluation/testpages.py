"""Score extractors against Firefox Reader View on a dataset of Readability.js's test pages.

Layout (mozilla/readability's `test/test-pages`): one folder per page with
`source.html` (the page, UTF-8), `expected.html` (what Readability.js
extracts) and `expected-metadata.json` (its `title` ...). Every page is
extracted with the URL Readability's tests use, so relative links resolve
alike. Scores per page: word P/R/F1 of the text against the text of
`expected.html`, the structure measures of `structure.py` on the HTML, and an
exact title match against Readability's title. Averages are over the real
pages and over all pages; a structure rate is averaged over the pages whose
reference has such items.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from addon.evaluation.metrics import Score, headline_match, word_scores
from addon.evaluation.run import (
    Extractor,
    Progress,
    format_number,
    format_percent,
    html_text,
    mean_or_none,
)
from addon.evaluation.structure import Recall, StructureScores, structure_scores

# The URL Readability's test harness gives every page.
PAGE_URL = "http://fakehost/test/page.html"
# A page under this size was written by hand to test one rule (Lorem ipsum
# around the case under test): on readability-even the 20 such pages are at
# most 3.4 KB and the smallest page saved from a real site (001, a blog post
# with its site's header and footer) is 12.5 KB. Their scores say whether a
# rule holds, not how well articles read, so the "real" averages leave them out.
SYNTHETIC_MAX_BYTES = 4_096
SOURCE, EXPECTED, METADATA = "source.html", "expected.html", "expected-metadata.json"
# The structure measures, in report order, with their labels.
MEASURES = {
    "code": "code blocks",
    "headings": "headings",
    "images": "images",
    "link_texts": "link texts",
    "in_page_links": "in-page links",
}
# The verdicts measured beside them: the headline, and auto mode against Firefox's
# isProbablyReaderable (reader views among the pages it finds readerable, and
# among the others).
VERDICTS = {
    "headline": "title = Firefox's",
    "auto_readerable": "auto: Fx readerable",
    "auto_other": "auto: Fx not",
}


@dataclass(frozen=True, slots=True)
class ReferencePage:
    """One test page: its HTML, Firefox's article HTML and title, and whether it is synthetic."""

    name: str
    html: bytes
    expected: str
    title: str | None
    synthetic: bool
    # Firefox's isProbablyReaderable verdict; None where the metadata gives none.
    readerable: bool | None = None


@dataclass(frozen=True, slots=True)
class PageResult:
    """How one extractor did on one test page."""

    name: str
    synthetic: bool
    words: Score
    structure: StructureScores
    headline: bool | None
    title: str
    ms: float
    error: str | None = None
    # The extractor's auto-mode verdict, and Firefox's (None where either has none).
    readerable: bool | None = None
    firefox_readerable: bool | None = None


@dataclass(frozen=True, slots=True)
class Mean:
    """A per-page figure averaged over the pages that have it."""

    value: float | None
    pages: int


@dataclass(frozen=True, slots=True)
class Averages:
    """One extractor's mean scores over a set of pages."""

    pages: int
    precision: float | None
    recall: float | None
    f1: float | None
    code: Mean
    headings: Mean
    images: Mean
    link_texts: Mean
    in_page_links: Mean
    headline: Mean
    # Reader views in auto mode: of the pages Firefox finds readerable, of the others.
    auto_readerable: Mean = Mean(None, 0)
    auto_other: Mean = Mean(None, 0)


@dataclass(frozen=True, slots=True)
class Summary:
    """One extractor's averages over the real pages and over all, and its median time."""

    name: str
    real: Averages
    all: Averages
    median_ms: float | None


@dataclass(frozen=True, slots=True)
class ExtractorResults:
    """An extractor's summary and its per-page results."""

    summary: Summary
    pages: tuple[PageResult, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of one run over a test-pages dataset."""

    dataset: str
    limit: int | None
    pages: int
    synthetic: tuple[str, ...]  # names of the synthetic pages scored
    errors: tuple[tuple[str, str], ...]  # (page name, reason) of unreadable pages
    extractors: tuple[ExtractorResults, ...]


def is_dataset(dataset: Path) -> bool:
    """Tell whether a folder holds test pages: folders with source.html and expected.html."""
    return dataset.is_dir() and any(
        (folder / SOURCE).is_file() and (folder / EXPECTED).is_file()
        for folder in dataset.iterdir()
    )


def page_names(dataset: Path, limit: int | None = None) -> list[str]:
    """List the page folders (those holding a source.html) in sorted order."""
    names = sorted(folder.name for folder in dataset.iterdir() if (folder / SOURCE).is_file())
    return names[:limit] if limit is not None else names


def load_page(dataset: Path, name: str) -> ReferencePage | str:
    """Read one test page and its expectations; a string says why it cannot be read."""
    folder = dataset / name
    try:
        html = (folder / SOURCE).read_bytes()
        expected = (folder / EXPECTED).read_text("utf-8")
        metadata = json.loads((folder / METADATA).read_bytes())
    except (OSError, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    if not isinstance(metadata, dict):
        return f"{METADATA} is not a JSON object"
    title, readerable = metadata.get("title"), metadata.get("readerable")
    return ReferencePage(
        name=name,
        html=html,
        expected=expected,
        title=title if isinstance(title, str) else None,
        synthetic=len(html) < SYNTHETIC_MAX_BYTES,
        readerable=readerable if isinstance(readerable, bool) else None,
    )


def score_page(page: ReferencePage, extractor: Extractor) -> PageResult:
    """Run one extractor on one test page and score what it found."""
    start = time.perf_counter()
    prediction = extractor.run(page.html, PAGE_URL)
    ms = (time.perf_counter() - start) * 1000
    return PageResult(
        name=page.name,
        synthetic=page.synthetic,
        words=word_scores(prediction.text, html_text(page.expected)),
        structure=structure_scores(
            page.expected, prediction.html, title=prediction.title, url=PAGE_URL
        ),
        headline=headline_match(prediction.title, page.title),
        title=prediction.title,
        ms=ms,
        error=prediction.error,
        readerable=prediction.readerable,
        firefox_readerable=page.readerable,
    )


def evaluate(
    dataset: Path,
    extractors: Sequence[Extractor],
    *,
    limit: int | None = None,
    progress_stream: TextIO | None = None,
) -> Report | str:
    """Run every extractor over the test pages; a string says the dataset is unusable."""
    if not is_dataset(dataset):
        return f"{dataset}: not a test-pages dataset (needs folders with {SOURCE} and {EXPECTED})"
    names = page_names(dataset, limit)
    progress = Progress(progress_stream, len(names)) if progress_stream else None
    results: dict[str, list[PageResult]] = {extractor.name: [] for extractor in extractors}
    errors: list[tuple[str, str]] = []
    synthetic: list[str] = []
    for name in names:
        page = load_page(dataset, name)
        if isinstance(page, str):
            errors.append((name, page))
        else:
            if page.synthetic:
                synthetic.append(name)
            for extractor in extractors:
                results[extractor.name].append(score_page(page, extractor))
        if progress:
            progress.step(0 if isinstance(page, str) else len(page.html))
    if progress:
        progress.close()
    entries = tuple(ExtractorResults(summarise(n, r), tuple(r)) for n, r in results.items())
    scored = len(names) - len(errors)
    return Report(str(dataset), limit, scored, tuple(synthetic), tuple(errors), entries)


def summarise(name: str, results: Sequence[PageResult]) -> Summary:
    """Average one extractor's results over the real pages and over all pages."""
    real = [result for result in results if not result.synthetic]
    median = statistics.median(r.ms for r in results) if results else None
    return Summary(name, averages(real), averages(results), median)


def averages(results: Sequence[PageResult]) -> Averages:
    """Average page results: word scores over every page, the rest over the pages with data."""
    headlines = [float(r.headline) for r in results if r.headline is not None]
    return Averages(
        pages=len(results),
        precision=mean_or_none([r.words.precision for r in results]),
        recall=mean_or_none([r.words.recall for r in results]),
        f1=mean_or_none([r.words.f1 for r in results]),
        code=_rate_mean(results, lambda s: s.code),
        headings=_rate_mean(results, lambda s: s.headings),
        images=_rate_mean(results, lambda s: s.images),
        link_texts=_rate_mean(results, lambda s: s.link_texts),
        in_page_links=_rate_mean(results, lambda s: s.in_page_links),
        headline=Mean(mean_or_none(headlines), len(headlines)),
        auto_readerable=_reader_views(results, firefox=True),
        auto_other=_reader_views(results, firefox=False),
    )


def _reader_views(results: Sequence[PageResult], *, firefox: bool) -> Mean:
    """Return the share of reader views in auto mode among the pages Firefox judges FIREFOX."""
    verdicts = [
        float(r.readerable)
        for r in results
        if r.readerable is not None and r.firefox_readerable is firefox
    ]
    return Mean(mean_or_none(verdicts), len(verdicts))


def _rate_mean(results: Sequence[PageResult], measure: Callable[[StructureScores], Recall]) -> Mean:
    """Average one structure measure's rate over the pages whose reference has items."""
    rates = [rate for r in results if (rate := measure(r.structure).rate) is not None]
    return Mean(mean_or_none(rates), len(rates))


def report_json(report: Report) -> dict[str, object]:
    """Turn a report into plain JSON data, with every page's scores."""
    return {
        "dataset": report.dataset,
        "layout": "readability test pages",
        "page_url": PAGE_URL,
        "limit": report.limit,
        "pages": report.pages,
        "synthetic_pages": list(report.synthetic),
        "errors": dict(report.errors),
        "extractors": {
            entry.summary.name: {
                "real": _averages_json(entry.summary.real),
                "all": _averages_json(entry.summary.all),
                "median_ms": entry.summary.median_ms,
                "per_page": [_page_json(result) for result in entry.pages],
            }
            for entry in report.extractors
        },
    }


def _averages_json(averages: Averages) -> dict[str, object]:
    """Turn averages into plain JSON data."""
    means = {key: getattr(averages, key) for key in [*MEASURES, *VERDICTS]}
    return {
        "pages": averages.pages,
        "f1": averages.f1,
        "precision": averages.precision,
        "recall": averages.recall,
        **{key: {"rate": mean.value, "pages": mean.pages} for key, mean in means.items()},
    }


def _page_json(result: PageResult) -> dict[str, object]:
    """Turn one page's results into plain JSON data."""
    recalls = {key: getattr(result.structure, key) for key in MEASURES}
    return {
        "name": result.name,
        "synthetic": result.synthetic,
        "f1": result.words.f1,
        "precision": result.words.precision,
        "recall": result.words.recall,
        **{key: {"found": r.found, "total": r.total} for key, r in recalls.items()},
        "headline": result.headline,
        "readerable": result.readerable,
        "firefox_readerable": result.firefox_readerable,
        "title": result.title,
        "ms": result.ms,
        "error": result.error,
    }


def format_report(report: Report) -> str:
    """Render each extractor's figures, then a Markdown table comparing them."""
    parts = [_format_summary(entry.summary) for entry in report.extractors]
    parts.append(format_comparison([entry.summary for entry in report.extractors]))
    parts += [f"unreadable page {name}: {reason}" for name, reason in report.errors]
    parts += [
        f"{entry.summary.name} failed on page {result.name}: {result.error}"
        for entry in report.extractors
        for result in entry.pages
        if result.error is not None
    ]
    return "\n\n".join(parts)


def _format_summary(summary: Summary) -> str:
    """Render one extractor's averages as labelled rows: real pages, then all pages."""
    real, every = summary.real, summary.all
    rows = [
        f"{summary.name}: {every.pages} pages ({real.pages} real, "
        f"{every.pages - real.pages} synthetic)",
        f"  {'':<22}{'real pages':<28}all pages",
        f"  {'word F1 / P / R':<22}{_words(real):<28}{_words(every)}",
    ]
    for key, label in [*MEASURES.items(), *VERDICTS.items()]:
        cells = [_mean_cell(getattr(averages, key)) for averages in (real, every)]
        rows.append(f"  {label:<22}{cells[0]:<28}{cells[1]}")
    rows.append(f"  {'median time':<22}{format_number(summary.median_ms, 1)} ms/page")
    return "\n".join(rows)


def format_comparison(summaries: Sequence[Summary]) -> str:
    """Render the extractors side by side as a Markdown table, each cell "real / all"."""
    labels = ["word F1", *MEASURES.values(), *VERDICTS.values()]
    lines = [
        "| extractor (real pages / all pages) | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for summary in summaries:
        cells = [f"{format_number(summary.real.f1)} / {format_number(summary.all.f1)}"]
        for key in [*MEASURES, *VERDICTS]:
            real, every = getattr(summary.real, key), getattr(summary.all, key)
            cells.append(f"{format_percent(real.value)} / {format_percent(every.value)}")
        lines.append(f"| {summary.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _words(averages: Averages) -> str:
    """Render word F1, precision and recall."""
    return " / ".join(format_number(v) for v in (averages.f1, averages.precision, averages.recall))


def _mean_cell(mean: Mean) -> str:
    """Render a rate with the number of pages it is averaged over."""
    return f"{format_percent(mean.value)} ({mean.pages} pages)"
