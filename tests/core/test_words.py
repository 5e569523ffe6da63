"""Tests for the compiled word functions (addon/core/_words.pyx) against their Python twins."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core import _words

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
