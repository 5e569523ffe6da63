"""Tests for the compiled word functions (addon/core/_words.pyx) against their Python twins."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core import _words
from addon.core.heuristics.names import _word_hits, boilerplate_pattern, spell_out

# What text.word_count counts in Python: a CJK character alone, or a run of letters and digits.
PLAIN_WORDS = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+"



@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_word_count_is_the_patterns(text: str) -> None:
    assert _words.word_count(text) == len(re.findall(PLAIN_WORDS, text))


def test_word_count_by_hand() -> None:
    assert _words.word_count("Hello, world: 3 words") == 4
    assert _words.word_count("東京 is 2 words and two kanji") == 8  # each kanji a word
    assert _words.word_count("snake_case") == 2
    assert _words.word_count("") == 0


def test_word_hits_are_the_python_ones() -> None:
    plain = spell_out(boilerplate_pattern("ads?|share|related"))
    assert plain is not None
    names = ["share-bar", "x ads", "sharing", "relatedposts", "post related", "ad"]
    assert _words.word_hits(names, plain) == _word_hits(names, plain)
    assert _words.word_hits(names, plain) != {}


def test_word_hits_refuse_names_that_are_not_ascii() -> None:
    with pytest.raises(ValueError, match="ASCII"):
        _words.word_hits(["menu-é"], {"menu": ("menu",)})
