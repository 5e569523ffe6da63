"""Cookie-consent banners: found by their class and id words, always dropped."""

from __future__ import annotations

import re

from lxml import etree

from addon.core.dom import (
    text_length,
)
from addon.core.heuristics.hiding import drop_all, owners_of
from addon.core.params import Words


def drop_consent(root: etree._Element, values: set[str], words: Words) -> int:
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


def consent_values(values: set[str], words: Words) -> set[str]:
    """Return the values that name a consent banner: a word anywhere, in any case."""
    # Consent managers name their containers inside a token
    # ("onetrust-consent-sdk", "CybotCookiebotDialog"). One search over all the
    # values lowered and joined rules out most pages and most words.
    joined = "\n".join(values).lower()
    present = [word for word in words if word in joined]
    if not present:
        return set()
    return {value for value in values if any(word in consent_name(value) for word in present)}


# A taxonomy term a blog engine writes into a post's class ("category-gdpr",
# "tag-consent") names what the post is about, not a banner.
_TAXONOMY_TERM = re.compile(r"(?<!\S)(?:category|tag|tags|topic)-\S*")


def consent_name(value: str) -> str:
    """Lowercase a class or id value for the consent words, without its taxonomy terms."""
    return _TAXONOMY_TERM.sub(" ", value.lower())
