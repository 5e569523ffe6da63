"""Text encoded twice, repaired: UTF-8 once read as windows-1252 or Latin-1 and stored so.

A page whose database or template once decoded UTF-8 with the wrong charset and kept the
result spells "Investor’s" as "Investorâ\x80\x99s" and "Español" as "EspaÃ±ol" in its
own, valid, bytes: every browser, Firefox Reader View included, shows the damage. The
repair is ftfy's (Speer, "ftfy", Zenodo 2019), which undoes the wrong decoding only where
the result is text it judges likelier than the input, one string at a time. A page is
repaired only when a string of its text outside code re-decodes whole: code may show
mojibake on purpose, and prose may quote it beside its own letters, which only a
piecewise repair would undo.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from addon.core.decode import Decoded
from addon.core.output.tags import safe_text

if TYPE_CHECKING:
    from ftfy import ExplainedText

# A UTF-8 lead byte read as one character (Â..ô), then a continuation byte read as one:
# U+0080-U+00BF under Latin-1, or the letters windows-1252 gives 0x80-0x9F.
MOJIBAKE = re.compile(
    "[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
)
# The same pair's lead, encoded as UTF-8 (0xC3 0x82-0xB4), and the first byte of a
# continuation character's encoding: enough to pass over the pages that cannot hold one.
_MOJIBAKE_UTF8 = re.compile(rb"\xc3[\x82-\xb4][\xc2\xc5\xc6\xcb\xe2]")
# Elements whose text is code: repaired only on a page whose other text needs it.
CODE_TAGS = ("pre", "code", "kbd", "samp", "textarea")
# Elements whose text no reader sees; metadata in JSON-LD is read from them but not
# repaired (a script's strings may be bytes on purpose).
UNSEEN_TAGS = frozenset({"script", "style", "template"})
# Attributes a reader view or its headline shows: image names, tooltips, meta values.
SHOWN_ATTRS = ("alt", "title", "content", "aria-label")


def may_hold_mojibake(decoded: Decoded) -> bool:
    """Tell, cheaply, whether a page can hold text encoded twice."""
    # A byte search for 0xC3 runs at memory speed and most pages lack one; the pattern
    # then runs only on pages with Latin letters (0.02 ms a page on wcxb-dev).
    if decoded.utf8 is not None:
        return b"\xc3" in decoded.utf8 and _MOJIBAKE_UTF8.search(decoded.utf8) is not None
    return MOJIBAKE.search(decoded.text) is not None


def repair_mojibake(root: etree._Element, *, max_chars: int = 200_000) -> int:
    """Repair the twice-encoded text of a page whose text outside code proves the damage;
    return how many strings changed."""
    # ftfy reads about 1.7 million characters a second: a page whose strings to look at
    # hold more than `max_chars` (8 times wcxb-dev's most, 3020's 25,000) is left as it
    # is, within the proxy's time for a page.
    code = {node for element in root.iter(*CODE_TAGS) for node in element.iter()}
    slots = [slot for slot in _slots(root) if MOJIBAKE.search(slot[2]) is not None]
    if sum(len(text) for _, _, text in slots) > max_chars:
        return 0
    repairs = _repairs([text for _, _, text in slots])
    if not any(
        repair.whole and not _in_code(element, name, code)
        for (element, name, _), repair in zip(slots, repairs, strict=True)
    ):
        return 0
    changed = 0
    for (element, name, text), repair in zip(slots, repairs, strict=True):
        if repair.text != text:
            _set(element, name, repair.text)
            changed += 1
    return changed


@dataclass(frozen=True, slots=True)
class Repair:
    """A string as ftfy decodes it again, and whether it re-decoded the whole string."""

    text: str
    whole: bool


def _repairs(texts: list[str]) -> list[Repair]:
    """Return ftfy's repair of each text."""
    import ftfy  # 0.1 s to import: only pages that may need it pay, once per process

    return [_repair(text, ftfy.fix_encoding_and_explain(text)) for text in texts]


def _repair(text: str, explained: ExplainedText) -> Repair:
    """Tell a repair that re-decoded the whole string from one that mended parts of it."""
    # ftfy also mends a string piece by piece ("apply" decode_inconsistent_utf8), which a
    # sentence quoting mojibake beside its own letters would need too (wcxb-dev 2498: 'I
    # saw "Ã¤" instead of "ä"'). On a page with no string damaged whole, that is a quote.
    # On a damaged one, the other letters came from entities the parser decoded (4526:
    # "&nbsp;can improve ... strain â\x80\x93 and"), and the piecewise repairs hold too.
    steps = explained.explanation or []
    whole = explained.text != text and all(step.action != "apply" for step in steps)
    return Repair(explained.text, whole)


def _slots(root: etree._Element) -> Iterator[tuple[etree._Element, str, str]]:
    """Yield (element, slot, text) for each text, tail and shown attribute of the page."""
    for element in root.iter():
        if element.tail:  # a comment's too: a tail is its parent's text
            yield element, "tail", element.tail
        if not isinstance(element.tag, str):
            continue
        if element.text and element.tag not in UNSEEN_TAGS:
            yield element, "text", element.text
        for name in SHOWN_ATTRS:
            value = element.get(name)
            if value:
                yield element, name, value


def _in_code(element: etree._Element, name: str, code: set[etree._Element]) -> bool:
    """Tell whether a slot's text is code: an element's own text inside code, or a tail
    whose parent is."""
    return element.getparent() in code if name == "tail" else element in code


def _set(element: etree._Element, name: str, value: str) -> None:
    """Write a slot's repaired text, without the control characters lxml refuses."""
    # lxml's parser keeps a U+0001 it read; its API refuses one (a mutated page's title).
    value = safe_text(value)
    if name == "text":
        element.text = value
    elif name == "tail":
        element.tail = value
    else:
        element.set(name, value)
