"""Tests for the compiled word functions (addon/core/_words.pyx) against their Python twins."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core import _words
from addon.core.heuristics.direction import _RTL_CHAR
from addon.core.heuristics.preprocess import _word_hits, boilerplate_pattern, spell_out

# What text.word_count counts in Python: a CJK character alone, or a run of letters and digits.
PLAIN_WORDS = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+"
# The ends of the right-to-left ranges, and their neighbours outside them.
RTL_EDGES = "".join(
    chr(code)
    for edge in (0x0590, 0x08FF, 0xFB1D, 0xFDFF, 0xFE70, 0xFEFE, 0x10800, 0x10FFF, 0x1E800, 0x1EFFF)
    for code in (edge - 1, edge, edge + 1)
)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_word_count_is_the_patterns(text: str) -> None:
    assert _words.word_count(text) == len(re.findall(PLAIN_WORDS, text))


def test_word_count_by_hand() -> None:
    assert _words.word_count("Hello, world: 3 words") == 4
    assert _words.word_count("東京 is 2 words and two kanji") == 8  # each kanji a word
    assert _words.word_count("snake_case") == 2
    assert _words.word_count("") == 0


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(RTL_EDGES) | st.characters(), max_size=12))
def test_has_rtl_is_the_patterns(text: str) -> None:
    for each in (text, "é" + text, "𝒳" + text):
        assert _words.has_rtl(each) is (_RTL_CHAR.search(each) is not None)


def test_has_rtl_knows_each_range_edge() -> None:
    for ch in RTL_EDGES:
        assert _words.has_rtl("a" + ch) is (_RTL_CHAR.search(ch) is not None), hex(ord(ch))


def test_word_hits_are_the_python_ones() -> None:
    plain = spell_out(boilerplate_pattern("ads?|share|related"))
    assert plain is not None
    names = ["share-bar", "x ads", "sharing", "relatedposts", "post related", "ad"]
    assert _words.word_hits(names, plain) == _word_hits(names, plain)
    assert _words.word_hits(names, plain) != {}


def test_word_hits_refuse_names_that_are_not_ascii() -> None:
    with pytest.raises(ValueError, match="ASCII"):
        _words.word_hits(["menu-é"], {"menu": ("menu",)})
