"""Tests for the worker's job: the floor, the modes, and rendering."""

from __future__ import annotations

import lxml.html
import pytest

from addon.core.result import Article, Block, Skip
from addon.render import PageStyle, ReaderLinks
from addon.transform import MIN_TEXT_CHARS, PageJob, outcome_for, run_job

TEXT = "Water finds its way to the sea, one valley at a time. " * 6
LINKS = ReaderLinks("https://a.example/p?plainview=original", "https://plainview.proxy/toggle",
                    "https://plainview.proxy/", "token")  # fmt: skip


def job(mode: str = "auto", body: bytes = b"<p>x</p>", floor: int = MIN_TEXT_CHARS) -> PageJob:
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
    assert outcome.reason == f"too little text (6 < {MIN_TEXT_CHARS} characters)"
    assert outcome_for(article("  Short.  "), job(mode, floor=6)).html is not None


def test_a_skip_keeps_the_original_and_says_why() -> None:
    outcome = outcome_for(Skip("not HTML"), job())
    assert (outcome.html, outcome.reason) == (None, "no article: not HTML")


def test_run_job_extracts_for_real() -> None:
    outcome = run_job(job(body=b""))
    assert outcome.html is None and outcome.reason.startswith("no article: ")
