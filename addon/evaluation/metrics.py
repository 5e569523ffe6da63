"""Scores for extracted text and headlines against a reference (WCXB, thesis §4.2).

Conventions shared by the word and LCS scores: an empty prediction for a
non-empty reference scores 0; an empty reference scores 1.0 when the
prediction is empty too (nothing to find, nothing wrongly found) and 0.0
otherwise (everything found is wrong). "Empty" means "has no tokens".
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass

# WCXB's tokens: runs of word characters, after lowercasing.
_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and their harmonic mean for one page."""

    precision: float
    recall: float
    f1: float


def tokens(text: str) -> list[str]:
    """Split text into WCXB word tokens: lowercase runs of `\\w` characters."""
    return _TOKEN.findall(text.lower())


def score_counts(common: int, predicted: int, reference: int) -> Score:
    """Turn a match count into P/R/F1, with the empty cases of the module docstring."""
    if reference == 0:
        value = 1.0 if predicted == 0 else 0.0
        return Score(value, value, value)
    if predicted == 0 or common == 0:
        return Score(0.0, 0.0, 0.0)
    precision = common / predicted
    recall = common / reference
    return Score(precision, recall, 2 * precision * recall / (precision + recall))


def word_scores(prediction: str, reference: str) -> Score:
    """Score a prediction by multiset word overlap with the reference (WCXB)."""
    predicted = tokens(prediction)
    expected = tokens(reference)
    common = sum((Counter(predicted) & Counter(expected)).values())
    return score_counts(common, len(predicted), len(expected))


def lcs_length(first: Sequence[Hashable], second: Sequence[Hashable]) -> int:
    """Return the length of the longest common subsequence, exactly, in bit-parallel.

    Crochemore et al. (2001) / Hyyrö (2004): one machine-word-wide update per
    item of the shorter sequence, with the longer one held as Python int bits.
    """
    longer, shorter = (first, second) if len(first) >= len(second) else (second, first)
    masks: dict[Hashable, int] = {}
    for position, item in enumerate(longer):
        masks[item] = masks.get(item, 0) | (1 << position)
    full = (1 << len(longer)) - 1
    row = full  # a 0 bit marks a position where the LCS grew
    for item in shorter:
        matches = row & masks.get(item, 0)
        if matches:
            row = ((row + matches) | (row - matches)) & full
    return len(longer) - row.bit_count()


def lcs_scores(prediction: str, reference: str) -> Score:
    """Score a prediction by the LCS of its tokens with the reference's (thesis §4.2)."""
    predicted = tokens(prediction)
    expected = tokens(reference)
    return score_counts(lcs_length(predicted, expected), len(predicted), len(expected))


def normalise_snippet(text: str) -> str:
    """Collapse whitespace and fold case, so containment ignores layout."""
    return " ".join(text.split()).casefold()


def snippet_rate(prediction: str, snippets: Iterable[str]) -> float | None:
    """Return the share of snippets found in the prediction; None when there are none."""
    wanted = [normalised for normalised in map(normalise_snippet, snippets) if normalised]
    if not wanted:
        return None
    haystack = normalise_snippet(prediction)
    return sum(snippet in haystack for snippet in wanted) / len(wanted)


def normalise_headline(text: str) -> str:
    """Apply NFKC, collapse whitespace and casefold a headline."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def headline_match(prediction: str, reference: str | None) -> bool | None:
    """Tell whether two headlines match exactly after normalising; None without a reference."""
    if reference is None or not normalise_headline(reference):
        return None
    return normalise_headline(prediction) == normalise_headline(reference)


def lost_words(source: str, shown: str, *apart: str) -> int:
    """Count the words of the source text that the shown text and the parts shown `apart`
    lack (each as often as it is missing): the fidelity check's measure."""
    # A word the page ran into the next ("pageEUR") and the view shows as two
    # adjacent words is not lost: each of its letters stands there, in order.
    # So is one in more pieces: two prices the page set apart by style alone,
    # "EUR15.32EUR15.32", shown apart hold "32eur15" as "32", "EUR", "15". So is one
    # whose two halves end one shown part and start another: the view kept
    # "EUR 17.07" and left out the line before it, "Price, product page". Up to 12
    # pieces: a share bar's nine links the page ran together ("facebookxreddit...email",
    # wcxb-dev odd 0163) shown apart.
    parts = [tokens(text) for text in (shown, *apart)]
    missing = Counter(tokens(source))
    for part in parts:
        missing.subtract(part)
    split = Counter(joined for part in parts for joined in _joined_runs(part))
    lasts = Counter(part[-1] for part in parts if part)
    firsts = Counter(part[0] for part in parts if part)
    return sum(
        max(count - split[word] - _split_at_edges(word, lasts, firsts), 0)
        for word, count in missing.items()
        if count > 0
    )


def _joined_runs(part: Sequence[str], *, max_pieces: int = 12) -> Iterator[str]:
    """Yield each run of 2 to `max_pieces` adjacent words of a part, written as one word."""
    for start, first in enumerate(part):
        joined = first
        for word in part[start + 1 : start + max_pieces]:
            joined += word
            yield joined


def _split_at_edges(word: str, lasts: Counter[str], firsts: Counter[str]) -> int:
    """Return how often a word stands as the last word of one part and the first of another."""
    return sum(min(lasts[word[:cut]], firsts[word[cut:]]) for cut in range(1, len(word)))
