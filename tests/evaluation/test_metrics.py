"""Word, LCS, snippet and headline scores, checked against hand-computed values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addon.evaluation.metrics import (
    Score,
    headline_match,
    lcs_length,
    lcs_scores,
    lost_words,
    normalise_headline,
    score_counts,
    snippet_rate,
    tokens,
    word_scores,
)


def naive_lcs(first: list[str], second: list[str]) -> int:
    """The textbook O(n·m) dynamic programme."""
    table = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i, a in enumerate(first, 1):
        for j, b in enumerate(second, 1):
            table[i][j] = (
                table[i - 1][j - 1] + 1 if a == b else max(table[i - 1][j], table[i][j - 1])
            )
    return table[-1][-1]


def assert_score(score: Score, precision: float, recall: float, f1: float) -> None:
    assert score.precision == pytest.approx(precision)
    assert score.recall == pytest.approx(recall)
    assert score.f1 == pytest.approx(f1)


def test_tokens_are_lowercase_unicode_word_runs() -> None:
    text = "Hello, World! It's 2024 — naïve CAFÉ_bar Ελληνικά"
    assert tokens(text) == ["hello", "world", "it", "s", "2024", "naïve", "café_bar", "ελληνικά"]
    assert tokens(" \n—!") == []


def test_word_scores_count_the_multiset_overlap() -> None:
    # prediction: the cat sat on the mat (6); reference: the cat on the hat (5);
    # common: the, the, cat, on = 4, so P = 4/6, R = 4/5, F1 = 2PR/(P+R) = 8/11.
    assert_score(word_scores("The cat sat on the mat.", "the cat on the HAT"), 4 / 6, 4 / 5, 8 / 11)
    # "a" three times against once: only one counts. P = 1/3, R = 1/2, F1 = 2/5.
    assert_score(word_scores("a a a", "a b"), 1 / 3, 1 / 2, 2 / 5)
    assert word_scores("b a", "a b") == Score(1.0, 1.0, 1.0)


def test_empty_cases() -> None:
    assert word_scores("", "some reference") == Score(0.0, 0.0, 0.0)
    assert word_scores("no overlap", "some reference") == Score(0.0, 0.0, 0.0)
    assert word_scores("", "") == Score(1.0, 1.0, 1.0)
    assert word_scores("— …", "  ") == Score(1.0, 1.0, 1.0)
    assert word_scores("anything", "") == Score(0.0, 0.0, 0.0)
    assert lcs_scores("", "") == Score(1.0, 1.0, 1.0)
    assert lcs_scores("x", "") == Score(0.0, 0.0, 0.0)
    assert lcs_scores("", "x") == Score(0.0, 0.0, 0.0)
    assert score_counts(0, 0, 0) == Score(1.0, 1.0, 1.0)


def test_lcs_scores_respect_order() -> None:
    # prediction a b c d, reference b d a: LCS = b d = 2, so P = 2/4, R = 2/3, F1 = 4/7;
    # the bag of words finds all three reference words instead.
    assert_score(lcs_scores("a b c d", "b d a"), 1 / 2, 2 / 3, 4 / 7)
    assert word_scores("a b c d", "b d a").recall == 1.0


def test_lcs_length_known_values() -> None:
    assert lcs_length("ABCBDAB", "BDCABA") == 4
    assert lcs_length("AGGTAB", "GXTXAYB") == 4
    assert lcs_length("", "abc") == 0
    assert lcs_length("abc", "") == 0
    assert lcs_length("abc", "abc") == 3
    assert lcs_length(["the", "cat"], ["cat", "the"]) == 1


@given(
    st.lists(st.sampled_from("abcd"), max_size=40),
    st.lists(st.sampled_from("abcde"), max_size=40),
)
def test_lcs_length_matches_the_dynamic_programme(first: list[str], second: list[str]) -> None:
    assert lcs_length(first, second) == naive_lcs(first, second)
    assert lcs_length(second, first) == naive_lcs(first, second)


def test_lcs_length_on_longer_random_sequences() -> None:
    # Several machine words wide, so carries cross word boundaries.
    generator = random.Random(7)
    for _ in range(5):
        first = [generator.choice("abcdefgh") for _ in range(300)]
        second = [generator.choice("abcdefgh") for _ in range(250)]
        assert lcs_length(first, second) == naive_lcs(first, second)


def test_snippet_rate_ignores_case_and_layout() -> None:
    prediction = "The quick\n  brown FOX jumps over\tthe fence."
    assert snippet_rate(prediction, ["quick brown fox", "lazy dog"]) == 0.5
    assert snippet_rate(prediction, ["QUICK   brown\nfox", "over the", "fence."]) == 1.0
    assert snippet_rate("", ["quick"]) == 0.0
    # Blank snippets are not snippets.
    assert snippet_rate(prediction, ["  ", "zebra"]) == 0.0
    assert snippet_rate(prediction, []) is None
    assert snippet_rate(prediction, ["", " \n"]) is None


def test_headline_match_normalises() -> None:
    assert normalise_headline("  Ｆｕｌｌ\u00a0Width\n Title ") == "full width title"
    assert headline_match("The   Title\n", "the title")
    assert headline_match("Straße", "STRASSE")
    assert headline_match("ﬁnal", "final")  # NFKC splits the ligature
    assert headline_match("The Title", "The Title!") is False
    assert headline_match("", "Title") is False
    assert headline_match("Title", None) is None
    assert headline_match("Title", " \n") is None


def test_a_word_the_view_shows_split_in_two_is_not_lost() -> None:
    # wcxb-dev 0655: the page runs "Price, product page" into "EUR 17.07"; the view
    # shows them as two paragraphs. Every letter is there, in order.
    assert lost_words("Price, product pageEUR 17.07", "Price, product page\nEUR 17.07") == 0
    assert lost_words("pageEUR", "page") == 1  # half of it is still missing


def test_a_word_the_view_shows_in_three_pieces_is_not_lost() -> None:
    # wcxb-dev 0613's "EUR15.32EUR15.32", two prices set apart by the style sheet,
    # shown "EUR15.32 EUR 15.32": its word "32eur15" stands as "32", "EUR", "15".
    source = "Price EUR15.32EUR15.32 total"
    assert lost_words(source, "Price EUR15.32 EUR 15.32 total") == 0
    assert lost_words(source, "Price EUR15.32 USD 15.32 total") == 1


def test_a_share_bars_nine_words_run_together_shown_apart_are_not_lost() -> None:
    # wcxb-dev odd 0163: nine share links with nothing between them read as one word
    # in the page's text; the view parts them.
    source = "Share facebookxredditlinkedinwhatsapptumblrpinterestvkemail"
    shown = "Share facebook x reddit linkedin whatsapp tumblr pinterest vk email"
    assert lost_words(source, shown) == 0
    assert lost_words(source, shown.replace(" vk", "")) == 1


def test_a_word_split_between_a_left_out_line_and_a_kept_one_is_not_lost() -> None:
    # wcxb-dev 0655: the line "Price, product page" is left out (a repeated run),
    # the price after it kept; the page ran the two into "pageEUR".
    source = "Price, product pageEUR 17.07 more"
    assert lost_words(source, "EUR 17.07 more", "Price, product page") == 0
    assert lost_words(source, "EUR 17.07 more", "Price, product") == 1
    # Each split stands for as many joined words as its halves stand at edges.
    assert lost_words("pageEUR pageEUR", "EUR", "page") == 1


def test_lost_words_counts_each_missing_word_as_often_as_it_is_missing() -> None:
    assert lost_words("I am a rather elderly man", "am a man") == 3
    assert lost_words("the cat and the hat", "The cat and hat") == 1  # one "the" of two
    assert lost_words("words", "words and more") == 0
    assert lost_words("", "") == 0
