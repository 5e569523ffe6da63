"""The worker's job: extract one page and render its reader view (runs in a pool process)."""

from __future__ import annotations

import os
import pickle
import time
from dataclasses import dataclass, field, fields, replace
from typing import Any, SupportsIndex

# The mojibake repair imports ftfy when a page first needs it (0.1 s, addon/core/
# heuristics/mojibake.py); the worker processes preload this module, so they hold
# it from the start and no page pays the import out of its time budget.
import ftfy  # noqa: F401

from addon.core import Article, ExtractParams, Skip, extract, params_for
from addon.core.extract import learn_page
from addon.core.heuristics.readerable import MIN_READER_CHARS, reader_refusal
from addon.core.heuristics.site_memory import SiteMemory
from addon.core.paper.combine import extract_pipeline
from addon.core.paper.pipelines import Pipeline
from addon.core.result import Diagnostics
from addon.job.budget import OverBudget, time_budget
from addon.job.content_encoding import decode_body
from addon.render.pages import PageStyle, ReaderLinks, render_reader


@dataclass(frozen=True, slots=True)
class PageJob:
    """Everything a worker needs to turn one page into a reader view (picklable)."""

    body: bytes  # as received: still in its Content-Encoding
    url: str
    content_type: str
    mode: str  # "reader" (always) or "auto" (when the article is readerable)
    style: PageStyle
    links: ReaderLinks
    params: ExtractParams = field(default_factory=params_for)
    min_text_chars: int = MIN_READER_CHARS
    content_encoding: str = ""
    # Decoded bodies above this size are not worth a reader view (and may be a bomb).
    max_bytes: int = 8 * 1024 * 1024
    # When the proxy stops waiting for the outcome (time.time()); 0: never. Work past
    # it is wasted and keeps the worker from the pages queued behind it.
    deadline: float = 0.0
    # The site memory of the site's other pages: their template is left out (None: off).
    memory: SiteMemory | None = None
    # Return the page's block fingerprints too, for the site memory of its next pages.
    learn: bool = False
    # A CombinE pipeline that extracts instead of `params` (plainview_pipeline); None: off.
    pipeline: Pipeline | None = None

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        """Pickle the body out of band where the protocol can: not copied into the pickle."""
        # Out of band (protocol 5, with a buffer_callback) the pool writes the proxy's
        # own bytes to the worker's pipe; in band it is pickled as bytes, as before.
        body: bytes | pickle.PickleBuffer = self.body
        if int(protocol) >= 5:
            body = pickle.PickleBuffer(self.body)
        return (_page_job, (body, *(getattr(self, name) for name in _AFTER_BODY)))


def _page_job(body: bytes | pickle.PickleBuffer, *rest: Any) -> PageJob:
    """Rebuild a job from its pickle: the body arrives as bytes or a buffer."""
    return PageJob(bytes(body), *rest)  # bytes of a bytes object is that object


_AFTER_BODY = tuple(each.name for each in fields(PageJob))[1:]  # in the order __init__ takes


@dataclass(frozen=True, slots=True)
class PageOutcome:
    """A rendered reader view, or None and the reason the original goes out."""

    html: bytes | None
    style_source: str
    reason: str
    title: str = ""
    diagnostics: Diagnostics | None = None
    # The worker's own time on the job (decode, extract, render), for Server-Timing.
    worker_ms: float = 0.0
    # With PageJob.learn: the page's block fingerprints (none for a page with no article).
    fingerprints: frozenset[int] = frozenset()


# Workers run at a lower priority than the proxy's event loop, so images, CSS and
# other passthrough requests keep flowing while pages are being transformed
# (scripts/bench concurrency: loaded passthrough p95 15-17 ms -> 8-9 ms).
WORKER_NICENESS = 10


def lower_priority(niceness: int = WORKER_NICENESS) -> None:
    """Lower this worker process's CPU priority (where the system has nice)."""
    if hasattr(os, "nice"):
        os.nice(niceness)


def run_job(job: PageJob) -> PageOutcome:
    """Run a job within its deadline and say how long it took the worker."""
    started = time.perf_counter()
    outcome = _run_within_deadline(job)
    return replace(outcome, worker_ms=(time.perf_counter() - started) * 1000)


def _run_within_deadline(job: PageJob) -> PageOutcome:
    """Run a job within its deadline; past it, give up at once (the proxy stopped waiting)."""
    remaining = job.deadline - time.time() if job.deadline else None
    if remaining is not None and remaining <= 0:
        return PageOutcome(None, "", "deadline passed before a worker was free")
    try:
        with time_budget(remaining or 0.0):
            return _extract_and_render(job)
    except OverBudget:
        return PageOutcome(None, "", "deadline passed while the worker was busy with the page")


def _extract_and_render(job: PageJob) -> PageOutcome:
    """Decode and extract the page's article and render it, or say why the original must go out."""
    decoded = decode_body(job.body, job.content_encoding, max_bytes=job.max_bytes)
    if decoded.body is None:
        return PageOutcome(None, "", decoded.problem)
    if job.pipeline is not None:
        pipeline = extract_pipeline(
            decoded.body, job.pipeline, url=job.url, content_type=job.content_type
        )
        # The site memory learns the page as the single algorithm reads it.
        prints = learn_page(decoded.body, content_type=job.content_type) if job.learn else None
        result = pipeline if prints is None or isinstance(pipeline, Skip) else replace(
            pipeline, fingerprints=prints
        )
    else:
        result = extract(
            decoded.body,
            url=job.url,
            content_type=job.content_type,
            params=job.params,
            memory=job.memory,
            learn=job.learn,
        )
    return outcome_for(result, job)


def outcome_for(result: Article | Skip, job: PageJob) -> PageOutcome:
    """Render an extraction result as a reader view, or say why the original must go out."""
    if isinstance(result, Skip):
        return PageOutcome(None, "", f"no article: {result.reason}")
    refusal = reader_refusal(result, job.mode, min_chars=job.min_text_chars)
    if refusal:
        return PageOutcome(
            None, "", refusal, result.title, result.diagnostics, fingerprints=result.fingerprints
        )
    page = render_reader(result, job.url, job.style, job.links)
    return PageOutcome(
        page.body,
        page.style_source,
        "reader view",
        result.title,
        result.diagnostics,
        fingerprints=result.fingerprints,
    )


@dataclass(frozen=True, slots=True)
class LearnJob:
    """A page that went out as it came, for the site memory to learn (picklable)."""

    body: bytes  # as received: still in its Content-Encoding
    content_type: str
    content_encoding: str = ""
    max_bytes: int = 8 * 1024 * 1024


def learn_job(job: LearnJob) -> frozenset[int]:
    """Return the block fingerprints of a page (none when it cannot be read)."""
    decoded = decode_body(job.body, job.content_encoding, max_bytes=job.max_bytes)
    if decoded.body is None:
        return frozenset()
    return learn_page(decoded.body, content_type=job.content_type)


def warm_up() -> bool:
    """Import the extraction and rendering modules in a fresh worker process."""
    return True
