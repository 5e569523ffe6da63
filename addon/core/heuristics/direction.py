"""Text direction: right-to-left script shares, and a page's direction from its signals."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from addon.core.heuristics.metadata import content_ancestry

# Right-to-left scripts (thesis §4.4: R2L counts these as content characters): Hebrew,
# Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and Arabic Extended (U+0590-08FF), the
# Hebrew and Arabic presentation forms (U+FB1D-FDFF, U+FE70-FEFF), and the historic and
# newer RTL scripts of the supplementary planes (U+10800-10FFF, U+1E800-1EFFF: Adlam...).
# U+FEFF (the byte order mark) ends the Arabic block but is no letter: left out.
_RTL_RANGES = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff"
_RTL_CHAR = re.compile(f"[{_RTL_RANGES}]")
# A letter: a word character that is neither a digit nor "_" (what str.isalpha() accepts,
# plus a few letter-like numerals), matched by the regex engine rather than a Python loop.
_LETTER = re.compile(r"[^\W\d_]")
_RTL_LETTER = re.compile(rf"(?=[{_RTL_RANGES}])[^\W\d_]")

# Languages written right to left (CLDR character order), by primary language subtag.
RTL_LANGUAGES = frozenset(
    {
        "ar", "arc", "azb", "ckb", "dv", "fa", "glk", "he", "iw", "ji", "ks", "lrc",
        "mzn", "nqo", "pnb", "ps", "sd", "syr", "ug", "ur", "yi",
    }
)  # fmt: skip
# Script subtags that settle the direction whatever the language ("ku-Arab", "uz-Latn").
RTL_SCRIPTS = frozenset({"arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand", "samr"})
# The dir values that set a direction ("auto" leaves it to the text).
_RTL_OR_LTR = frozenset({"rtl", "ltr"})


def has_rtl(text: str) -> bool:
    """Tell whether the text holds a character of a right-to-left script block."""
    return _RTL_CHAR.search(text) is not None


def count_rtl(text: str) -> int:
    """Return how many characters of the text are in right-to-left script blocks."""
    # subn counts the matches in C without building a list of them.
    return _RTL_CHAR.subn("", text)[1]


def rtl_share(text: str) -> float:
    """Return the share of the text's letters that are in right-to-left scripts."""
    if not has_rtl(text):  # most pages: one scan instead of counting letters
        return 0.0
    letters = _LETTER.subn("", text)[1]
    if letters == 0:
        return 0.0
    return _RTL_LETTER.subn("", text)[1] / letters


def text_direction(text: str, *, min_share: float = 0.3) -> str:
    """Return "rtl" when enough of the text's letters are right-to-left, else "ltr"."""
    # min_share: RTL pages carry Latin menus, URLs and code; a third of the letters
    # in an RTL script already makes the page read right to left.
    return "rtl" if rtl_share(text) >= min_share else "ltr"


def language_direction(lang: str | None) -> str | None:
    """Return "rtl"/"ltr" when a language tag settles the direction, else None."""
    if not lang:
        return None
    subtags = lang.replace("_", "-").lower().split("-")
    script = next((tag for tag in subtags[1:] if len(tag) == 4 and tag.isalpha()), None)
    if script is not None:
        return "rtl" if script in RTL_SCRIPTS else "ltr"
    return "rtl" if subtags[0] in RTL_LANGUAGES else None


def page_direction(
    meta_dir: str | None, lang: str | None, text: str, *, min_share: float = 0.3
) -> str:
    """Return a page's direction: its explicit dir, else its language's, else its text's."""
    explicit = (meta_dir or "").strip().lower()
    if explicit in {"rtl", "ltr"}:
        return explicit
    # A language tag only settles RTL: "en" pages may still quote long Arabic text,
    # while an "ar" page is right to left even when its menus are Latin.
    if language_direction(lang) == "rtl":
        return "rtl"
    return text_direction(text, min_share=min_share)


def declared_direction(top: Sequence[etree._Element]) -> str | None:
    """Return the dir declared nearest the chosen content ("rtl"/"ltr"), or None."""
    # HTML's rule: the nearest ancestor's dir applies, so a <body dir="rtl"> or a
    # <main dir="rtl"> wrapper counts as much as <html dir="rtl">, and an inner
    # dir="ltr" overrides an outer "rtl". An invalid value is no declaration (the
    # walk goes on up); "auto" asks for the direction of the text: None, so that
    # page_direction() falls back on the language and the text.
    for element in content_ancestry(top):
        value = (element.get("dir") or "").strip().lower()
        if value in _RTL_OR_LTR:
            return value
        if value == "auto":
            return None
    return None
