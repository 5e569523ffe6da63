"""Tests for addon.core.heuristics.consent."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.heuristics.consent import consent_name, consent_values
from addon.core.params import (
    CONSENT_WORDS,
)

# How the consent words read as one pattern: lowercase text anywhere in a value.
CONSENT_PATTERN = re.compile(
    "consent|onetrust|cookiebot|didomi|usercentrics|qc-cmp|trustarc|truste-|sp_message|"
    "cookie[ _-]?(?:banner|notice|bar|law|wall|popup)|gdpr"
)


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


@given(
    st.sets(
        st.text(alphabet=st.sampled_from("aco\nnsetİ\u0130-_ CGkiebr"), max_size=12), max_size=8
    )
)
@settings(max_examples=200, deadline=None)
def test_consent_values_match_value_by_value(values: set[str]) -> None:
    expected = {value for value in values if CONSENT_PATTERN.search(consent_name(value))}
    assert consent_values(values | {"consent"}, CONSENT_WORDS) == expected | {"consent"}


def test_the_consent_words_are_the_patterns_every_spelling() -> None:
    assert all(CONSENT_PATTERN.fullmatch(word) for word in CONSENT_WORDS)
    assert len(CONSENT_WORDS) == 10 + 4 * 6  # ten words, "cookie" four ways before six
