"""Tests for addon/core/_marks.pyx: the compiled twins of the text-marks stylesheet and lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from fragments import holder_of
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.output.text import _block_marks, stylesheet_marks

COMPILED = importlib.util.find_spec("addon.core._marks") is not None
GOLDEN_SOURCES = sorted((Path(__file__).parents[1] / "golden").glob("*/source.html"))


def _marks(holder: etree._Element) -> str:
    from addon.core import _marks

    return _marks.block_marks(holder)


def test_the_compiled_marks_are_built_and_used() -> None:
    # content falls back to the stylesheet without them: slower, so the install
    # must have built them (pip install -e . with a C compiler and Python's headers).
    assert COMPILED
    assert _block_marks is not stylesheet_marks


def test_marks_lines_cells_pre_whitespace_and_block_ends() -> None:
    holder = holder_of(
        "<p>One <b>two</b><br>three</p><table><tr><td>a</td><th>b</th></tr></table>"
        "<pre>x y\n\tz</pre><div>loose</div>"
    )
    line, cell, space, tab, end = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3", "\ufdd5"
    expected = (
        f"{line}One two{line}three{line}{end}"
        f"{line}{line}{cell}a{cell}b{line}{line}{end}"
        f"{line}x{space}y{line}{tab}z{line}{end}"
        f"loose{end}"
    )
    assert stylesheet_marks(holder) == expected
    assert _marks(holder) == expected


def test_text_directly_in_the_holder_and_comments_are_not_written() -> None:
    holder = etree.Element("div")
    holder.text = "outside"
    block = etree.SubElement(holder, "p")
    block.text = "inside"
    block.append(etree.Comment("note"))
    block.tail = "tail"
    assert _marks(holder) == stylesheet_marks(holder) == "\ufdd0inside\ufdd0\ufdd5"


def test_namespaced_elements_get_no_marks() -> None:
    holder = etree.fromstring("<div xmlns:x='urn:x'><x:p>a</x:p><p>b<x:br/>c</p></div>")
    assert _marks(holder) == stylesheet_marks(holder) == "a\ufdd5\ufdd0bc\ufdd0\ufdd5"


FRAGMENTS = [
    "<p>", "</p>", "<pre>", "</pre>", "<br>", "<table><tr><td>", "</td></tr></table>", "<th>",
    "<ul><li>", "</li></ul>", "<b>", "</b>", "<div>", "</div>", "<hr>", "<figure>", "</figure>",
    "<figcaption>", "text ", "é 日本語", "\n", "\t", "  ", "&amp;<", "<!-- c -->", "<h2>", "</h2>",
    "<code>", "</code>", "<img src=x.png alt=y>",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_the_twin_writes_what_the_stylesheet_writes(fragments: list[str]) -> None:
    holder = holder_of("".join(fragments))
    assert _marks(holder) == stylesheet_marks(holder)


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_the_twin_writes_the_golden_pages_as_the_stylesheet_does(source: Path) -> None:
    holder = holder_of(source.read_text(encoding="utf-8"))
    assert _marks(holder) == stylesheet_marks(holder)
