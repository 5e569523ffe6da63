"""Cookie-consent banners: found by their class and id words, always dropped."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from lxml import etree

from addon.core.dom import (
    text_length,
)
from addon.core.heuristics.hiding import drop_all, owners_of
from addon.core.params import ALGORITHMS


def drop_consent(root: etree._Element, values: set[str], words: str) -> int:
    """Remove the elements a class or id value (of `values`) names as consent banners.

    Return the banners' text length.
    """
    # A banner is never the article, though a preference centre listing every
    # purpose may outweigh a page whose own content its script renders: the
    # share that spares other furniture holding most of the page does not apply.
    found = consent_values(values, words)
    if not found:
        return 0
    banners = owners_of(root, found)
    inside = set(banners)
    held = sum(
        text_length(banner)
        for banner in banners
        if not any(up in inside for up in banner.iterancestors())
    )
    drop_all(root, banners)
    return held


def consent_values(values: set[str], words: str) -> set[str]:
    """Return the values that name a consent banner: a word anywhere, in any case."""
    # Consent managers name their containers inside a token
    # ("onetrust-consent-sdk", "CybotCookiebotDialog"). One search over all the
    # values lowered and joined rules out most pages: a case-blind pattern of
    # many words costs several times more, value by value. Values may hold any
    # character: a hit is traced back to its value by offset, not by separator.
    joined = "\n".join(values).lower()
    # Each alternative of the default words opens with a word of its own: one pass
    # looking for those rules out most pages, where the regex engine tries every
    # alternative at each letter one opens with (0.07 ms a page, docs/performance.md).
    heads = _VARIANT_HEADS[words] if words in _VARIANT_HEADS else literal_heads(words)
    if heads is not None and not holds_any(joined, heads):
        return set()
    pattern = re.compile(words)
    if pattern.search(joined) is None:
        return set()
    ordered = list(values)
    lowered = [consent_name(value) for value in ordered]
    ends = list(accumulate(len(value) + 1 for value in lowered))
    return {
        ordered[bisect_right(ends, hit.start())] for hit in pattern.finditer("\n".join(lowered))
    }


def literal_heads(pattern: str) -> tuple[str, ...] | None:
    """Return words one of which every match of the pattern holds: the text each top-level
    alternative opens with; None if one opens otherwise, or with escapes or "[]" about."""
    if "\\" in pattern or "[]" in pattern or "[^]" in pattern:
        return None
    heads: list[str] = []
    depth = start = 0
    for token in _STRUCTURE.finditer(f"{pattern}|"):  # a class is one token
        char = token.group()
        if char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            head = _literal_head(pattern[start : token.start()])
            if not head:
                return None
            heads.append(head)
            start = token.end()
    # A text holding "cookiebot" holds "cookie": the longer word need not be sought.
    return tuple(head for head in heads if not any(other in head != other for other in heads))


def _literal_head(branch: str) -> str:
    """Return the plain text (lowercase letters, digits, - and _) an alternative opens with."""
    run = _LITERAL_RUN.match(branch)
    head = run.group() if run else ""
    # A quantifier after the run makes its last character optional.
    return head[:-1] if branch[len(head) : len(head) + 1] in ("?", "*", "{") else head


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    """Tell whether the text holds any of the words."""
    return any(word in text for word in words)


_LITERAL_RUN = re.compile(r"[a-z0-9_-]+")


# What nests or separates the alternatives of a pattern: a class (whole), a parenthesis, a bar.
_STRUCTURE = re.compile(r"\[[^\]]*\]|[()|]")


# Worked out at import for the named variants' consent words (0.01 ms a page).
_VARIANT_HEADS = {
    params.extend.consent_words: literal_heads(params.extend.consent_words)
    for params in ALGORITHMS.values()
}


# A taxonomy term a blog engine writes into a post's class ("category-gdpr",
# "tag-consent") names what the post is about, not a banner.
_TAXONOMY_TERM = re.compile(r"(?<!\S)(?:category|tag|tags|topic)-\S*")


def consent_name(value: str) -> str:
    """Lowercase a class or id value for the consent words, without its taxonomy terms."""
    return _TAXONOMY_TERM.sub(" ", value.lower())
