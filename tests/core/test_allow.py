"""Tests for addon/core/_allow.pyx: the compiled part of the allow-list rebuild."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest
from fragments import holder_of
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.output.blocks import _SETTLE_PLAIN, _Found
from addon.core.output.tags import UNWRAP

COMPILED = importlib.util.find_spec("addon.core._allow") is not None
GOLDEN_SOURCES = sorted((Path(__file__).parents[1] / "golden").glob("*/source.html"))

Sorted = tuple[str, list[str], set[str], list[str], list[str], list[str], list[str]]


def _sorted(holder: etree._Element, *, compiled: bool, shift_headings: bool) -> Sorted:
    """Sort a copy of the holder; return the tree after it and what was gathered, by path."""
    holder = copy.deepcopy(holder)
    found = _Found()
    found.sort(holder, shift_headings=shift_headings, compiled=compiled)
    path = holder.getroottree().getpath
    return (
        etree.tostring(holder, encoding="unicode"),
        [path(el) for el in found.blockish],
        found.unwrap,
        [path(el) for el in found.hidden],
        [path(el) for el in found.links],
        [path(el) for el in found.images],
        [path(el) for el in found.layout],
    )


def _assert_alike(holder: etree._Element) -> None:
    for shift_headings in (False, True):
        compiled = _sorted(holder, compiled=True, shift_headings=shift_headings)
        assert compiled == _sorted(holder, compiled=False, shift_headings=shift_headings)


def test_the_compiled_walk_is_built_and_used() -> None:
    # content falls back to the Python loop without it: slower, so the install
    # must have built it (pip install -e . with a C compiler and Python's headers).
    assert COMPILED
    assert _SETTLE_PLAIN is not None


def test_plain_elements_lose_their_attributes_and_unknown_tags_go_to_unwrap() -> None:
    holder = holder_of(
        "<p class=lead id=x data-a=1 lang=en>One <span class=s>two</span>"
        "<b style='display:none'>gone</b><a href=/x class=l>link</a></p><h2 class=h>Head</h2>"
    )
    found = _Found()
    found.sort(holder, shift_headings=False)
    paragraph, heading = holder
    assert dict(paragraph.attrib) == {"lang": "en"}
    assert dict(heading.attrib) == {}
    assert found.unwrap == {"span"}
    assert [el.tag for el in found.hidden] == ["b"]
    assert [el.tag for el in found.links] == ["a"]
    assert [el.tag for el in found.blockish] == ["p", "h2"]
    assert holder.find(".//span").get("class") == "s"  # unwrapped later, attributes and all


FRAGMENTS = [
    "<p class=a>", "</p>", "<div id=d>", "</div>", "<span class=s>", "</span>", "<h1 class=t>",
    "</h1>", "<h2>", "</h2>", "<menu class=m><li>", "</li></menu>", "<a href=/x class=l>", "</a>",
    "<img src=x.png class=i>", "<b style='display:none'>", "</b>", "<i hidden>", "</i>",
    "<em lang=en dir=rtl title=t>", "</em>", "<td colspan=2 class=c>", "<table><tr><th scope=col>",
    "</th></tr></table>", "<section style='color:red'>", "</section>", "<x-widget data-a=1>",
    "</x-widget>", "<font face=x>", "</font>", "<abbr title=t class=a>", "</abbr>", "text ",
    "<ol start=3 class=o><li>", "</li></ol>", "<!-- c -->", "<nav class=n>", "</nav>",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_the_compiled_walk_settles_as_the_python_loop(fragments: list[str]) -> None:
    _assert_alike(holder_of("".join(fragments)))


def test_an_element_with_an_odd_tag_name_is_left_to_python() -> None:
    holder = etree.Element("div")
    odd = etree.SubElement(holder, "p")
    etree.SubElement(odd, "Widget").text = "x"  # a capital: not a plain name to unwrap by
    _assert_alike(holder)
    found = _Found()
    found.sort(holder, shift_headings=False)
    assert found.unwrap == set()
    assert holder[0][0].tag == UNWRAP


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_the_compiled_walk_settles_the_golden_pages_as_the_python_loop(source: Path) -> None:
    _assert_alike(holder_of(source.read_text(encoding="utf-8")))
