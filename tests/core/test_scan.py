"""Tests for addon/core/_scan.pyx: the end-tag scan, the UTF-8 check, the link-text bounds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.heuristics.parse import _scan_tags, crowded_attributes, premature_ends, scan_tags
from addon.core.output.sanitise import (
    _closes_alike,
    _holds_data_url,
    holds_data_url,
)

COMPILED = importlib.util.find_spec("addon.core._scan") is not None
GOLDEN_SOURCES = sorted((Path(__file__).parents[1] / "golden").glob("*/source.html"))


def _compiled(source: bytes) -> list[tuple[int, int]]:
    from addon.core import _scan

    return _scan.scan_tags(source, 1000)[0]


def _compiled_crowded(source: bytes, cap: int) -> list[tuple[int, int]]:
    from addon.core import _scan

    return _scan.scan_tags(source, cap)[1]


def test_the_compiled_scan_is_built_and_used() -> None:
    # preprocess falls back to the pattern without it: slower, so the install
    # must have built it (pip install -e . with a C compiler and Python's headers).
    assert COMPILED
    assert _scan_tags is not scan_tags


@pytest.mark.parametrize(
    ("source", "spans"),
    [
        (b"<p>a</p></body></html>", [(8, 15), (15, 22)]),
        (b"</BODY >x</HtMl\xe3\x80\x80\t>", [(0, 8), (9, 20)]),  # any case, Unicode spaces
        (b"</body x></bodyy></body", []),  # not an end tag of its own, or never closed
        (b"<</body>", [(1, 8)]),
        (b"</body\xc2\x85\xc2\xa0\xe2\x80\xaf\xe1\x9a\x80\xe2\x81\x9f\x1c>", [(0, 21)]),
        (b"</body\xc2>", []),  # a lone lead byte is no space
    ],
)
def test_spans_of_premature_end_tags(source: bytes, spans: list[tuple[int, int]]) -> None:
    assert premature_ends(source) == spans
    assert _compiled(source) == spans


PIECES = [
    b"<", b"/", b"</", b"body", b"BoDy", b"html", b"HTML", b"bod", b">", b" ", b"\t", b"\x0b",
    b"\xc2\x85", b"\xc2\xa0", b"\xc2", b"\xe2\x80\x8a", b"\xe2\x80\x8b", b"\xe2\x81\x9f",
    b"\xe3\x80\x80", b"\xe3\x80", b"\xe1\x9a\x80", b"x", b"\x00", b"\x1f", b"!",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.binary(max_size=3), max_size=40))
def test_the_scan_finds_what_the_pattern_finds(pieces: list[bytes]) -> None:
    source = b"".join(pieces)
    assert _compiled(source) == premature_ends(source)


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_the_scan_reads_the_golden_pages_as_the_pattern_does(source: Path) -> None:
    data = source.read_bytes()
    assert _compiled(data) == premature_ends(data)


@pytest.mark.parametrize(
    ("source", "spans"),
    [
        (b"<p a b c d>x", [(6, 10)]),  # " c d": past the first two, up to the ">"
        (b"<p a b>x<p a b c", [(14, 16)]),  # " c": an unclosed tag runs to the end
        (b'<p a="1 2" b=\'3\' c="x>y" d>', [(16, 26)]),  # values quoted either way
        (b'<p a="1 b c d>', [(9, 13)]),  # " c d": an unclosed quote is a value unquoted
        (b"</p a b c d>", []),  # an end tag
        (b"<script>x<p a b c d>y</SCRIPT><p a b c>", [(36, 38)]),  # a script holds no tag
        (b"<!-- <p a b c d> --><p a b c>", [(26, 28)]),  # nor does a comment
        (b'<img src="data:,<g a b c d>" alt x y>', [(32, 36)]),  # nor a quoted value
    ],
)
def test_spans_of_attributes_past_the_cap(source: bytes, spans: list[tuple[int, int]]) -> None:
    assert crowded_attributes(source, 2) == spans
    assert _compiled_crowded(source, 2) == spans


TAG_PIECES = [
    b"<", b"<p", b"<A", b"</", b">", b" ", b"\t", b"\n", b"/", b"=", b'"', b"'", b"a", b"bc",
    b"\xc2\xa0", b"\x00", b"1", b"<!--", b"-->", b"--", b"<!", b"<?", b"<script", b"</ScRiPt",
    b"<style", b"</style", b"<scrip",
]  # fmt: skip


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(TAG_PIECES), max_size=60), st.integers(1, 4))
def test_the_scan_finds_the_crowded_tags_the_patterns_find(pieces: list[bytes], cap: int) -> None:
    source = b"".join(pieces)
    assert _compiled_crowded(source, cap) == crowded_attributes(source, cap)


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_the_scan_reads_the_golden_pages_crowded_tags_as_the_patterns_do(source: Path) -> None:
    data = source.read_bytes()
    assert _compiled_crowded(data, 3) == crowded_attributes(data, 3)


# Pieces of serialised markup: tags the sanitiser's scans count, names that start
# alike, the spaces of the table-part pattern, and text of all three string widths.
MARKUP_PIECES = [
    "<", "</", "<br", "<hr", "<img", "<b", "<h2", "<i", "<table", "<caption", "<capt",
    "<td", "<th", "<tr", "<t", "<tab", "/", ">", " ", "\t", "\x0b", "\x1c", "\x85", "\xa0",
    "\u2003", "\u3000", "x", "é", "\u201c", "\U0001f600", "data:", "DaTa:", "ata:", "dat",
    "a:", "A:", "d", "\u0130", "\u212a",
]  # fmt: skip
MARKUP = st.lists(st.sampled_from(MARKUP_PIECES), max_size=30).map("".join)


@settings(max_examples=1000, deadline=None)
@given(MARKUP)
def test_the_compiled_data_url_scan_is_the_twin_of_the_string_scan(markup: str) -> None:
    from addon.core import _scan

    assert _scan.holds_data_url(markup) == holds_data_url(markup)


@pytest.mark.parametrize(
    ("markup", "closes", "data"),
    [
        ("<p>a<br>b<img src=x><hr></p>", True, False),
        ("<p><b>a</b>", False, False),
        ("<table><tr><td>x</td></tr></table>", False, False),
        ("<p><td\u3000>x</td></p>", False, False),  # a Unicode space ends the name
        ("<p><tdx>x</tdx></p>", True, False),
        ("<p>\U0001f600 DATA: x</p>", True, True),
        ("<p>\u201cdaTa:\u201d</p>", True, True),
        ("<p>dat a: \u0130</p>", True, False),
    ],
)
def test_markup_scans_on_examples(markup: str, closes: bool, data: bool) -> None:
    from addon.core import _scan

    assert _closes_alike(markup) == closes  # the plain scan; it buys too little compiled
    assert (_scan.holds_data_url(markup), holds_data_url(markup)) == (data, data)


def test_lowering_makes_no_other_character_one_of_data_colon() -> None:
    # What lets the compiled scan fold ASCII letters only.
    assert not [cp for cp in range(128, 0x110000) if set(chr(cp).lower()) & set("dat:")]


def test_the_sanitiser_uses_the_compiled_data_url_scan() -> None:
    from addon.core import _scan

    assert _holds_data_url is _scan.holds_data_url
