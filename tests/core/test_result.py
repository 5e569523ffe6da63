"""Tests for addon.core.result: what extraction returns."""

from __future__ import annotations

import dataclasses

import pytest

from addon.core.result import Article, Block, Skip


def _article(*blocks: Block) -> Article:
    """Return an article of BLOCKS with the other fields filled in."""
    text = "\n\n".join(block.text for block in blocks)
    return Article("Title", blocks, text, "en", "ltr", readerable=True)


def test_the_html_of_an_article_is_its_blocks_in_order_one_per_line() -> None:
    article = _article(Block("h2", "<h2>Two</h2>", "Two"), Block("p", "<p>Text.</p>", "Text."))
    assert article.html == "<h2>Two</h2>\n<p>Text.</p>"
    assert _article().html == ""


def test_results_are_frozen_values() -> None:
    article = _article(Block("p", "<p>a</p>", "a"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        article.title = "Other"  # type: ignore[misc]
    assert Skip("not HTML") == Skip("not HTML") and Skip("a") != Skip("b")
    assert article.diagnostics is None and article.word_count == 0
