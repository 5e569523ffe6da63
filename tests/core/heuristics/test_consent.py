"""Tests for addon.core.heuristics.consent."""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.heuristics.consent import consent_name, consent_values, holds_any, literal_heads
from addon.core.params import (
    CONSENT_WORDS,
)

PATTERN_PIECES = ["a", "b", "ab", "-", "_", "|", "?", "*", "+", "{1,2}", "(", ")", "(?:", "[", "]",
                  "[|]", "[a(]", "^", "$", ".", "\\w", " ", "C"]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "banner"),
    [
        ("onetrust-consent-sdk", True),
        ("CybotCookiebotDialog", True),
        ("qc-cmp2-container", True),
        ("sp_message_container_123", True),
        ("site-cookie-notice", True),
        ("chocolate-chip-cookies", False),
        ("trusted-by", False),
        ("recipe", False),
        # a post's taxonomy terms name its subject: an article about consent stays
        ("post type-post category-gdpr tag-consent", False),
        ("tags-consent", False),
        ("post category-news cookie-notice", True),
    ],
)
def test_consent_values_name_a_banner_anywhere_in_a_token(value: str, banner: bool) -> None:
    assert (consent_values({value, "story", "x"}, CONSENT_WORDS) == {value}) is banner


def test_consent_values_returns_each_matching_value_once() -> None:
    # Values may hold the joining newline and change length when lowered.
    values = {"didomi-host", "a\n\nb\n", "\u0130\u0130 x", "GDPR-box", "main\nconsent"}
    assert consent_values(values, CONSENT_WORDS) == {"didomi-host", "GDPR-box", "main\nconsent"}


@pytest.mark.parametrize(
    ("pattern", "heads"),
    [
        (CONSENT_WORDS, (
            "consent", "onetrust", "didomi", "usercentrics", "qc-cmp", "trustarc", "truste-",
            "sp_message", "cookie", "gdpr",
        )),  # "cookiebot" holds "cookie"
        ("ab?c|d", ("a", "d")),  # an optional letter ends the word
        ("ab+|x{2}y", None),
        ("a[|(]b|c", ("a", "c")),  # a class is read whole
        ("q|r(?:s|t)u", ("q", "r")),
        ("(?:a|b)c", None),
        ("x|", None),  # an empty alternative matches anywhere
        (r"a\|b", None),
        ("a[]|x]b|c", None),
        ("Ab|c", None),  # the text searched is lowercase
    ],
)  # fmt: skip
def test_literal_heads_on_examples(pattern: str, heads: tuple[str, ...] | None) -> None:
    assert literal_heads(pattern) == heads


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(PATTERN_PIECES), max_size=10).map("".join),
    st.lists(st.sampled_from(["a", "b", "-", "_", " ", "|", "(", "c", "\n"]), max_size=12).map(
        "".join
    ),
)
def test_every_match_holds_one_of_the_literal_heads(pattern: str, text: str) -> None:
    try:
        with warnings.catch_warnings():  # sets such as "[[" warn of future syntax
            warnings.simplefilter("ignore", FutureWarning)
            compiled = re.compile(pattern)
    except re.error:
        return  # not a pattern: nothing to compare with
    heads = literal_heads(pattern)
    if heads is not None and compiled.search(text) is not None:
        assert any(head in text for head in heads)


@given(st.sets(st.text(alphabet=st.sampled_from("aco\nnsetİ\u0130-_ CG"), max_size=12), max_size=8))
@settings(max_examples=200, deadline=None)
def test_consent_values_match_value_by_value(values: set[str]) -> None:
    pattern = re.compile(CONSENT_WORDS)
    expected = {value for value in values if pattern.search(consent_name(value))}
    assert consent_values(values | {"consent"}, CONSENT_WORDS) == expected | {"consent"}


@pytest.mark.parametrize(
    ("text", "words", "held"),
    [
        ("a cookie-notice b", ("consent", "cookie"), True),
        ("a cookie-notice b", ("cookie", "c_", "cx"), True),
        ("a cooki", ("cookie",), False),  # cut off by the text's end
        ("\u201ccookie\u201d", ("gdpr", "cookie"), True),
        ("Cookie", ("cookie",), False),  # no case folding
        ("x", (), False),
    ],
)
def test_holds_any_finds_any_of_the_words(text: str, words: tuple[str, ...], held: bool) -> None:
    assert holds_any(text, words) is held
