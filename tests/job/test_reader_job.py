"""Tests for the worker's job: the floor, the modes, and rendering."""

from __future__ import annotations

import gzip
import pickle
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import lxml.html
import pytest

from addon.core.heuristics.readerable import MIN_READER_CHARS
from addon.core.paper.pipelines import SpecError, parse_pipeline
from addon.core.result import Article, Block, Skip
from addon.job import reader_job as transform
from addon.job.reader_job import (
    LearnJob,
    PageJob,
    PageOutcome,
    learn_job,
    outcome_for,
    run_job,
)
from addon.render.pages import PageStyle, ReaderLinks

TEXT = "Water finds its way to the sea, one valley at a time. " * 6
LINKS = ReaderLinks("https://a.example/p?plainview=original", "https://plainview.proxy/toggle",
                    "https://plainview.proxy/", "token")  # fmt: skip


PAGE = f"<html><body><article><h1>Water</h1><p>{TEXT}</p></article></body></html>".encode()


def job(mode: str = "auto", body: bytes = b"<p>x</p>", floor: int = MIN_READER_CHARS) -> PageJob:
    """Return a job for one page."""
    return PageJob(body, "https://a.example/p", "text/html", mode, PageStyle(), LINKS,
                   min_text_chars=floor)  # fmt: skip


def article(text: str = TEXT, readerable: bool = True) -> Article:
    """Return an article with one paragraph."""
    return Article("Water", (Block("p", f"<p>{text}</p>", text),), text, "en", "ltr", readerable)


def test_a_readerable_article_is_rendered() -> None:
    outcome = outcome_for(article(), job())
    assert outcome.html is not None and outcome.reason == "reader view"
    assert outcome.style_source.startswith("'sha256-")
    assert lxml.html.document_fromstring(outcome.html).xpath("//h1")[0].text == "Water"


def test_auto_mode_keeps_the_original_of_a_page_that_is_not_an_article() -> None:
    outcome = outcome_for(article(readerable=False), job("auto"))
    assert outcome.html is None and outcome.reason == "auto mode: the page is not an article"
    assert outcome.title == "Water"


def test_reader_mode_renders_even_a_page_that_is_not_an_article() -> None:
    assert outcome_for(article(readerable=False), job("reader")).html is not None


@pytest.mark.parametrize("mode", ["auto", "reader"])
def test_the_floor_applies_in_every_mode(mode: str) -> None:
    outcome = outcome_for(article("  Short.  "), job(mode))
    assert outcome.html is None
    assert outcome.reason == f"too little text (6 < {MIN_READER_CHARS} characters)"
    assert outcome_for(article("  Short.  "), job(mode, floor=6)).html is not None


def test_a_skip_keeps_the_original_and_says_why() -> None:
    outcome = outcome_for(Skip("not HTML"), job())
    assert (outcome.html, outcome.reason) == (None, "no article: not HTML")


def test_run_job_extracts_for_real() -> None:
    outcome = run_job(job(body=b""))
    assert outcome.html is None and outcome.reason.startswith("no article: ")


def test_run_job_says_how_long_the_worker_took(monkeypatch: pytest.MonkeyPatch) -> None:
    real_extract = transform.extract

    def slow_extract(*args: Any, **kwargs: Any) -> Article | Skip:
        # At least 20 ms of work, spun rather than slept: the lower bound is certain.
        until = time.perf_counter() + 0.02
        while time.perf_counter() < until:
            pass
        return real_extract(*args, **kwargs)

    monkeypatch.setattr(transform, "extract", slow_extract)
    started = time.perf_counter()
    outcome = run_job(job("reader", body=PAGE))
    elapsed_ms = (time.perf_counter() - started) * 1000
    assert outcome.reason == "reader view"
    assert 20 <= outcome.worker_ms <= elapsed_ms


def test_a_job_whose_deadline_passed_in_the_queue_is_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(transform, "extract", never_called)
    late = replace(job("reader", body=PAGE), deadline=time.time() - 1)
    outcome = replace(run_job(late), worker_ms=0.0)
    assert outcome == PageOutcome(None, "", "deadline passed before a worker was free")


def test_a_job_running_past_its_deadline_is_stopped_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # Work that never ends on its own: only the deadline can stop it.
    monkeypatch.setattr(transform, "extract", lambda *args, **kwargs: threading.Event().wait())
    before = signal.getsignal(signal.SIGALRM)
    outcome = replace(run_job(replace(job(body=PAGE), deadline=time.time() + 0.2)), worker_ms=0.0)
    assert outcome == PageOutcome(
        None, "", "deadline passed while the worker was busy with the page"
    )
    # The alarm is off and the old handler back, so nothing fires in a later job.
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == before


def test_a_job_within_its_deadline_runs_as_ever() -> None:
    outcome = run_job(replace(job("reader", body=PAGE), deadline=time.time() + 600))
    assert outcome.html is not None and outcome.reason == "reader view"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_off_the_main_thread_only_the_queue_deadline_applies() -> None:
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(
            run_job, replace(job("reader", body=PAGE), deadline=time.time() + 600)
        )
        late = pool.submit(run_job, replace(job("reader", body=PAGE), deadline=time.time() - 1))
        assert running.result().reason == "reader view"
        assert late.result().reason == "deadline passed before a worker was free"


def never_called(*args: object, **kwargs: object) -> None:
    """Fail: the job must not have been extracted."""
    raise AssertionError("extract() ran for a job past its deadline")


def test_a_job_pickles_its_body_out_of_band_when_the_protocol_can() -> None:
    sent = replace(job("reader", PAGE), deadline=12.5, content_encoding="gzip")
    buffers: list[pickle.PickleBuffer] = []
    payload = pickle.dumps(sent, 5, buffer_callback=buffers.append)
    assert [buffer.raw().obj for buffer in buffers] == [PAGE]  # the body itself, not a copy
    assert PAGE not in payload
    received = pickle.loads(payload, buffers=[bytes(buffer.raw()) for buffer in buffers])
    assert received == sent and type(received.body) is bytes


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_a_job_pickled_in_band_round_trips(protocol: int) -> None:
    sent = job("auto", PAGE, floor=7)
    payload = pickle.dumps(sent, protocol)
    assert PAGE in payload
    received = pickle.loads(payload)
    assert received == sent and type(received.body) is bytes


def piped(mode: str, spec: str) -> PageJob:
    """Return a job for the page that extracts with the pipeline a spec names."""
    pipeline = parse_pipeline(spec)
    assert not isinstance(pipeline, SpecError)
    return replace(job(mode, PAGE), pipeline=pipeline)


def test_a_job_with_a_pipeline_extracts_with_it_and_renders_the_reader_view() -> None:
    outcome = run_job(piped("reader", "serial(addanag-plus,danag)"))
    assert outcome.html is not None and outcome.reason == "reader view"
    page = lxml.html.document_fromstring(outcome.html)
    assert page.xpath("//h1")[0].text == "Water"
    assert " ".join(TEXT.split()) in " ".join(page.text_content().split())
    assert outcome.diagnostics is not None
    assert outcome.diagnostics.params["pipeline"] == "serial(addanag-plus,danag)"


def test_a_job_with_a_pipeline_that_keeps_nothing_keeps_the_original() -> None:
    # R2L keeps lines of right-to-left script: the English page has none.
    outcome = run_job(piped("reader", "parallel-and(addanag-plus,r2l)"))
    assert outcome.html is None
    assert outcome.reason.startswith("no article: parallel-and(addanag-plus,r2l): ")


def test_a_job_learns_the_page_for_the_site_memory_with_or_without_a_pipeline() -> None:
    learned = run_job(replace(job("reader", PAGE), learn=True)).fingerprints
    assert learned
    assert run_job(replace(job("reader", PAGE))).fingerprints == frozenset()
    spec = "serial(addanag-plus,danag)"
    assert run_job(replace(piped("reader", spec), learn=True)).fingerprints == learned


def test_a_learn_job_reads_an_encoded_page_and_a_broken_one_learns_nothing() -> None:
    plain = learn_job(LearnJob(PAGE, "text/html; charset=utf-8"))
    assert plain
    assert learn_job(LearnJob(gzip.compress(PAGE), "text/html", "gzip")) == plain
    assert learn_job(LearnJob(b"\x1f\x8b not gzip", "text/html", "gzip")) == frozenset()


def test_the_worker_module_holds_ftfy_and_the_core_does_not_load_it() -> None:
    # The proxy's workers preload this module: a page encoded twice does not pay
    # ftfy's import (0.1 s) in its budget, and `import addon.core` stays light.
    loaded = "import sys, {0}; print('ftfy' in sys.modules)"
    for module, expected in (("addon.job.reader_job", "True"), ("addon.core", "False")):
        done = subprocess.run(
            [sys.executable, "-c", loaded.format(module)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert done.stdout.strip() == expected
