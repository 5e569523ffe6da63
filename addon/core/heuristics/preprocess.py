"""Preprocessing: parse with lxml and drop what is never content (thesis §4.3.1, §4.6)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from types import MappingProxyType

from lxml import etree

from addon.core import compiled
from addon.core.dom import (
    attribute_value_set,
    attribute_values,
    elements_valued,
    elements_with,
    hidden_elements,
    text_content,
    text_length,
    unlink_all,
)
from addon.core.params import ALGORITHMS, ExtendParams

# libxml2 stops reading at a premature `</body>` or `</html>` mid-page and
# silently drops the rest; the end tags carry no information, so drop them all.
_PREMATURE_END = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)

# libxml2 refuses to nest deeper than 2048 elements and drops what lies
# deeper; browsers stop nesting at 512. Long runs of bare opening tags (the
# shape of such pages) are folded into one so the text inside survives.
_OPEN_TAG_RUN = re.compile(
    r"(?:<(div|span|section|article|font|b|i|table|tr|td|ul|li)\b[^<>]{0,200}>\s*){256,}",
    re.IGNORECASE,
)

# An XML declaration in a str makes lxml refuse to parse; we hand lxml UTF-8
# bytes instead, so the declaration must not claim another encoding.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)

# The same two patterns over UTF-8 bytes. A str pattern's \s is every character
# str.isspace() accepts; over bytes \s is ASCII only, so the others are spelled
# out as their UTF-8 sequences: both then match the same text.
_BYTES_SPACE = (
    rb"(?:[\t-\r\x1c- ]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]"
    rb"|\xe2\x81\x9f|\xe3\x80\x80)"
)
_BYTES_SPACE_RUN = re.compile(_BYTES_SPACE + rb"*")
_PREMATURE_END_BYTES = re.compile(rb"</(?:body|html)" + _BYTES_SPACE + rb"*>", re.IGNORECASE)
_XML_DECLARATION_BYTES = re.compile(_BYTES_SPACE + rb"*<\?xml[^>]*>", re.IGNORECASE)

# Elements that never hold reader content (thesis §4.3.1: scripts, styles,
# comments; plus their modern relatives).
NEVER_CONTENT = (
    "script",
    "style",
    "template",
    "link",
    "meta",
    "base",
    "head",
    "object",
    "applet",
    "frameset",
    "frame",
    "noembed",
    "title",
)

# Sentinel tag: elements renamed to it are unwrapped in one C call.
_UNWRAP = "x-plainview-unwrap"

UNKNOWN_VOIDS = ("embed", "param", "source", "track", "wbr", "keygen")

# Page furniture that Plainview's extended variant removes outside <article>.
CHROME = ("nav", "aside", "footer", "header")
# Interactive and embedded elements that a reader view never shows.
CONTROLS = ("input", "select", "textarea", "svg", "iframe", "canvas")
# Controls that label themselves with text; libxml2 nests whole pages inside a
# <button> left open, so one holding more text than a label is unwrapped.
LABELLED_CONTROLS = ("button", "label")


def strip_premature_end_tags(text: str) -> str:
    """Remove `</body>` and `</html>` so libxml2 reads the whole page."""
    return _PREMATURE_END.sub("", text)


def parse(text: str | None, *, utf8: bytes | None = None) -> etree._Element | None:
    """Parse a decoded page into an lxml HTML tree; None when nothing parses.

    `utf8` is the text's own UTF-8 encoding when the caller has it (a page sent
    as valid UTF-8): parsing those bytes spares encoding the text again, and the
    text may then be left out (None).
    """
    if utf8 is not None:
        return _parse_bytes(text, utf8)
    if text is None:
        raise ValueError("parse() needs the page's text or its UTF-8 bytes")
    pieces = _source_pieces(text)
    # isspace() stops at the first visible character; strip() would copy the page.
    if all(not piece or piece.isspace() for piece in pieces):
        return None
    # huge_tree lifts libxml2's depth limit, so deeply nested pages keep their text.
    root = _parse_utf8(b"".join(piece.encode("utf-8", "replace") for piece in pieces))
    return _refolded(text) if root is _TOO_DEEP else root


def _parse_bytes(text: str | None, utf8: bytes) -> etree._Element | None:
    """Parse a page from its UTF-8 bytes, cut as `_source_pieces` cuts its text."""
    pieces = _source_byte_pieces(utf8)
    if all(_only_space(piece) for piece in pieces):
        return None
    # The pieces are views of the page: joining them is its one copy, and a page
    # left whole is parsed from its own bytes (53 -> 45 us a page, docs/performance.md).
    whole = len(pieces) == 1 and len(pieces[0]) == len(utf8)
    root = _parse_utf8(utf8 if whole else b"".join(pieces))
    if root is not _TOO_DEEP:
        return root
    return _refolded(utf8.decode("utf-8", "replace") if text is None else text)


def _only_space(piece: bytes | memoryview) -> bool:
    """Tell whether UTF-8 bytes spell only what str.isspace() calls space (or nothing)."""
    # The run stops at the first visible character, as isspace() does.
    run = _BYTES_SPACE_RUN.match(piece)
    return run is not None and run.end() == len(piece)


def _refolded(text: str) -> etree._Element | None:
    """Parse a page too deep for libxml2 again, its long runs of opening tags folded."""
    folded = _OPEN_TAG_RUN.sub(r"<\1>", "".join(_source_pieces(text)))
    root = _parse_utf8(folded.encode("utf-8", "replace"))
    return None if root is _TOO_DEEP else root


def _source_pieces(text: str) -> list[str]:
    """Split the page around its `</body>`/`</html>` tags, dropping an XML declaration.

    The pieces join to `_XML_DECLARATION.sub("", strip_premature_end_tags(text), count=1)`;
    encoding them one by one spares re.sub() building that copy of the page.
    """
    ends = [match.span() for match in _PREMATURE_END.finditer(text)]
    first_end = ends[0][0] if ends else len(text)
    if text.find(">", 0, first_end) < 0:
        # Without a ">" before the first end tag, a declaration could run on past it.
        return [_XML_DECLARATION.sub("", strip_premature_end_tags(text), count=1)]
    # A declaration ends at the first ">", before the first end tag: look there only.
    declaration = _XML_DECLARATION.match(text, 0, first_end)
    starts = [declaration.end() if declaration else 0, *(end for _, end in ends)]
    stops = [start for start, _ in ends] + [len(text)]
    return [text[start:stop] for start, stop in zip(starts, stops, strict=True)]


def _source_byte_pieces(utf8: bytes) -> list[memoryview]:
    """Cut UTF-8 bytes as `_source_pieces` cuts the text they encode, into views of them."""
    ends = _premature_ends(utf8)
    first_end = ends[0][0] if ends else len(utf8)
    if utf8.find(b">", 0, first_end) < 0:
        stripped = _PREMATURE_END_BYTES.sub(b"", utf8)
        declaration = _XML_DECLARATION_BYTES.match(stripped)
        return [memoryview(stripped)[declaration.end() if declaration else 0 :]]
    declaration = _XML_DECLARATION_BYTES.match(utf8, 0, first_end)
    starts = [declaration.end() if declaration else 0, *(end for _, end in ends)]
    stops = [start for start, _ in ends] + [len(utf8)]
    view = memoryview(utf8)
    return [view[start:stop] for start, stop in zip(starts, stops, strict=True)]


def premature_ends(utf8: bytes) -> list[tuple[int, int]]:
    """Return the spans of the `</body>` and `</html>` tags in UTF-8 bytes."""
    return [match.span() for match in _PREMATURE_END_BYTES.finditer(utf8)]


_premature_ends = compiled.pick("premature_ends", premature_ends)

_TOO_DEEP = etree.Element("too-deep")

# Every element is an etree._Element: lxml.html's default lookup picks a class per
# tag name in Python for each element proxy, a cost on every walk over the tree.
_ELEMENT_CLASSES = etree.ElementDefaultClassLookup()


def _parse_utf8(source: bytes) -> etree._Element | None:
    """Parse UTF-8 bytes; `_TOO_DEEP` when libxml2 hit its nesting limit."""
    # huge_tree lifts libxml2's default depth limit (256) to its hard one (2048).
    # etree's parser, not lxml.html's: its elements are plain C proxies, where
    # lxml.html's are Python subclasses that cost about 40% more to create on every
    # walk over the tree (0.47 against 0.65 us an element; the whole pipeline runs
    # 1.2% fewer instructions, docs/performance.md).
    # collect_ids=False: libxml2 builds no table of the id values, which only
    # XPath's id() reads and nothing here asks (parse 2.28 -> 2.16 ms a page,
    # docs/performance.md).
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True, collect_ids=False
    )
    try:
        root = etree.fromstring(source, parser=parser)
    except etree.LxmlError:
        # libxml2 gives up on some inputs ("Document is empty"): no page to read.
        return None
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        return _TOO_DEEP
    return root if isinstance(root, etree._Element) else None


def drop_non_content(
    root: etree._Element,
    *,
    noscript_min_chars: int = 200,
    max_drop_share: float = 0.5,
    unvoiced_max_link_share: float | None = None,
    place_streamed: bool = False,
) -> None:
    """Remove scripts, styles, templates, hidden elements and empty noscripts in place."""
    # Streamed parts find their slots among the hidden elements: the templates
    # go with those, in the same pass over the tree.
    never = _NEVER_CONTENT_BUT_SLOTS if place_streamed else NEVER_CONTENT
    etree.strip_elements(root, *never, with_tail=False)
    # libxml2 does not know <embed>, <param> and <source> as empty elements and
    # nests the following text inside them: keep the text, drop the tags.
    etree.strip_tags(root, *UNKNOWN_VOIDS)
    unwrap_noscript(root, min_chars=noscript_min_chars)
    drop_hidden(
        root,
        max_share=max_drop_share,
        unvoiced_max_link_share=unvoiced_max_link_share,
        place_streamed=place_streamed,
    )


# React's streaming renderer sends a page's late parts as `<div hidden id="S:n">`
# at the end of the body, and a script moves each into its slot of the same
# number, a `<template id="B:n">` (a suspended boundary) or `<template id="P:n">`.
_SEGMENT_PREFIX = "S:"
_SLOT_PREFIXES = ("B:", "P:")
# What drop_non_content() strips first while streamed parts still need their slots.
_NEVER_CONTENT_BUT_SLOTS = tuple(tag for tag in NEVER_CONTENT if tag != "template")


def place_streamed_segments(hidden: list[etree._Element]) -> set[etree._Element]:
    """Move the streamed `<div hidden id="S:n">` among `hidden` into their slots; return those."""
    # The browser shows these parts where their slot stands, often the article
    # itself; left at the end of the body they are dropped as hidden, or read
    # out of order when they hold most of the page.
    segments = [
        element
        for element in hidden
        if element.tag == "div" and element.get("id", "").startswith(_SEGMENT_PREFIX)
    ]
    if not segments:
        return set()
    root = segments[0].getroottree().getroot()
    slots = {
        ident: template
        for template in root.iter("template")
        if (ident := template.get("id", ""))[:2] in _SLOT_PREFIXES
    }
    placed = set()
    for segment in segments:
        slot = _slot(slots, segment.get("id", "")[2:])
        if slot is None or slot.getparent() is None or segment in slot.iterancestors():
            continue
        _move_before(segment, slot)
        segment.attrib.pop("hidden", "")
        placed.add(segment)
    return placed


def _slot(slots: dict[str, etree._Element], number: str) -> etree._Element | None:
    """Return the boundary or placeholder slot of a segment's number."""
    # The page's script pairs each segment with the slot of its number (all 174
    # `$RC`/`$RS` calls on the even pages do); the scripts are gone by now.
    for ident in (f"B:{number}", f"P:{number}"):
        if (slot := slots.get(ident)) is not None:
            return slot
    return None


def _move_before(element: etree._Element, anchor: etree._Element) -> None:
    """Move an element before `anchor`, leaving its tail text where it stood."""
    tail, element.tail = element.tail, None
    if tail:
        before, parent = element.getprevious(), element.getparent()
        if before is not None:
            before.tail = (before.tail or "") + tail
        elif parent is not None:
            parent.text = (parent.text or "") + tail
    anchor.addprevious(element)


def drop_unless_main(
    elements: list[etree._Element], root: etree._Element, *, max_share: float
) -> None:
    """Drop each element unless it holds more than `max_share` of the page's text.

    Pages that reveal their content with script hide it in the markup, and
    libxml2 (an HTML4 parser) sometimes nests a whole page inside a <header>
    left open; dropping such an element would empty the page.
    """
    drop_all(root, _minor(elements, root, max_share=max_share))


def _minor(
    elements: list[etree._Element], root: etree._Element, *, max_share: float
) -> list[etree._Element]:
    """Return the elements that hold at most `max_share` of the page's text."""
    if not elements:
        return []
    limit = max_share * text_length(root)
    return [
        element
        for element in elements
        if element.getparent() is not None and text_length(element) <= limit
    ]


def drop_all(root: etree._Element, elements: Iterable[etree._Element], *also: str) -> None:
    """Remove the elements (and those tagged `also`) with their content, keeping tails."""
    # Unlinked in C: renamed and stripped, they cost a walk over the whole page
    # and one over each of their subtrees (docs/performance.md, "Eleventh round").
    unlink_all(root, list(elements))
    if also:
        etree.strip_elements(root, *also, with_tail=False)


def unwrap_all(root: etree._Element, elements: Iterable[etree._Element], *also: str) -> None:
    """Remove the elements' tags (and tags named `also`), keeping their content."""
    names = _renamed(elements, _UNWRAP, also)
    if names:
        etree.strip_tags(root, *names)


def _renamed(elements: Iterable[etree._Element], sentinel: str, also: Iterable[str]) -> set[str]:
    """Rename the elements to a sentinel tag; return the tag names one lxml call then strips."""
    names = set(also)
    for element in elements:
        element.tag = sentinel
        names.add(sentinel)
    return names


def unwrap_noscript(root: etree._Element, *, min_chars: int = 200) -> None:
    """Keep a `<noscript>` that holds real text (some forums put posts there), drop the rest."""
    noscripts = list(root.iter("noscript"))
    if not noscripts:
        return
    unwrap_all(
        root,
        [element for element in noscripts if len(text_content(element).strip()) >= min_chars],
    )
    etree.strip_elements(root, "noscript", with_tail=False)


def drop_hidden(
    root: etree._Element,
    *,
    max_share: float = 0.5,
    unvoiced_max_link_share: float | None = None,
    place_streamed: bool = False,
) -> None:
    """Remove elements the page hides from every reader (`hidden`, `display:none`)."""
    # With `place_streamed`, React's streamed parts first move into their slots
    # (see place_streamed_segments) and the slots, templates, go with the hidden.
    # Elements marked only aria-hidden go too, unless `unvoiced_max_link_share`
    # is given: then only those whose text is more than that share link text.
    found = hidden_elements(root)
    hidden = found.flagged
    shown = place_streamed_segments(hidden) if place_streamed else set()
    if shown:
        hidden = [element for element in hidden if element not in shown]
    hidden.extend(found.styled)
    unvoiced = found.unvoiced
    if unvoiced_max_link_share is not None:
        seen = set(hidden)
        unvoiced = [
            element
            for element in unvoiced
            if element not in seen and not keeps_unvoiced(element, unvoiced_max_link_share)
        ]
    hidden.extend(unvoiced)
    minor = _minor(
        [element for element in hidden if element.tag not in ("html", "body")],
        root,
        max_share=max_share,
    )
    drop_all(root, minor, *(("template",) if place_streamed else ()))


def keeps_unvoiced(element: etree._Element, max_link_share: float) -> bool:
    """Tell whether an `aria-hidden` element holds prose rather than links."""
    # aria-hidden hides from screen readers, not from the eye: closed tabs,
    # accordion answers and carousel slides carry it, and a reader view, having
    # nothing to click, shows them all. Mobile menus carry it too: all links.
    text = text_length(element)
    if not text:
        return True
    links = sum(text_length(anchor) for anchor in element.iter("a"))
    return links <= max_link_share * text


# The roles and flags an overlay announces itself by.
_OVERLAY_VALUES = MappingProxyType({"role": ("dialog", "alertdialog"), "aria-modal": ("true",)})


def drop_chrome(
    root: etree._Element, *, max_share: float = 0.3, max_label_chars: int = 200
) -> None:
    """Remove nav/aside/footer/header outside any <article> and all form controls; unwrap forms."""
    # Furniture outside the article, and overlays (cookie banners, newsletter
    # pop-ups), which announce themselves as dialogs.
    chrome = [
        element
        for element in root.iter(*CHROME, "dialog")
        if element.tag == "dialog"
        or (next(element.iterancestors("article"), None) is None and not _holds_article(element))
    ]
    chrome.extend(elements_with(root, _OVERLAY_VALUES))
    # The controls go in the same pass: they never count towards the main share.
    drop_all(root, _minor(chrome, root, max_share=max_share), *CONTROLS)
    drop_labelled_controls(root, max_label_chars=max_label_chars)


def drop_labelled_controls(root: etree._Element, *, max_label_chars: int = 200) -> None:
    """Remove buttons and labels, unwrapping those that hold more text than a label.

    ASP.NET and shop pages wrap the whole page in one <form>: it is unwrapped too.
    """
    labelled = list(root.iter(*LABELLED_CONTROLS))
    wrappers = [element for element in labelled if text_length(element) > max_label_chars]
    unwrap_all(root, wrappers, "form")
    if labelled:
        etree.strip_elements(root, *LABELLED_CONTROLS, with_tail=False)


def join_words(*words: str) -> str:
    """Join lists of class/id words ("a|b") into one, leaving out the empty ones."""
    return "|".join(word for word in words if word)


def boilerplate_pattern(words: str) -> re.Pattern[str]:
    """Compile the class/id word pattern: a word that opens or closes a class token."""
    # The word must open or close a class token: "comment-list" and
    # "block--author-bio" are furniture, "with-sidebar-layout" wraps the page.
    return re.compile(rf"(?:^|\s)(?:{words})(?:$|[\s_-])|[_-](?:{words})(?:$|\s)", re.IGNORECASE)


# Elements never dropped for their class or id: the page and its main content.
_NOT_FURNITURE = ("html", "body", "article", "main")
# The attributes whose values name furniture, in the order their elements are listed.
_NAMING = ("class", "id")


def drop_named_furniture(
    root: etree._Element,
    words: str,
    footer_words: str,
    review_words: str,
    *,
    max_share: float,
    footer_max_share: float,
    review_max_sections: int,
    consent_words: str = "",
    names: PageNames | None = None,
) -> int:
    """Remove elements named as furniture, footer, reviews or consent; return the consent's text.

    `names` are the page's class and id values (`page_names`), when the caller has them.
    """
    # One pass over the class and id values finds all four; an element named only
    # after the footer gets the smaller share, as a wrapper named after the
    # footer below it ("page1-footer") may hold the whole page.
    # The distinct values only: their elements are looked up once a value matches.
    names = page_names(root) if names is None else names
    held = drop_consent(root, names.values, consent_words) if consent_words else 0
    marking = join_words(words, footer_words, review_words)
    if not marking:
        return held
    furniture, footers, reviews = _sort_marked(
        _marked(root, boilerplate_pattern(marking), names), words, review_words, names
    )
    drop_unless_main(furniture, root, max_share=max_share)
    drop_unless_main(footers, root, max_share=footer_max_share)
    sections = review_sections(reviews, root, max_sections=review_max_sections)
    drop_unless_main(sections, root, max_share=max_share)
    return held


@dataclass(frozen=True, slots=True)
class PageNames:
    """A page's distinct class and id values, and the values each of some plain words names.

    Read once for the furniture steps (`page_names`): one pass over the values finds
    every word's hits, whichever step's pattern asks for them.
    """

    values: set[str]
    plain: list[str]  # the ASCII values, which `hits` numbers
    others: list[str]  # the rest, which a pattern searches one by one
    words: SpelledWords  # the words searched
    hits: dict[str, set[int]]  # each searched word that names some values -> their numbers

    def named(self, pattern: re.Pattern[str]) -> set[str] | None:
        """Return the values a pattern of plain words matches; None for any other pattern."""
        spelled = _spelled_out(pattern)
        if spelled is None:
            return None
        if not self.words.keys() >= spelled.keys():  # words not searched: search them now
            return _matching_values(self.values, pattern, spelled)
        found = {value for value in self.others if pattern.search(value)}
        plain, hits = self.plain, self.hits
        for word in spelled.keys() & hits.keys():
            found.update([plain[index] for index in hits[word]])
        return found


def page_names(root: etree._Element, words: str = "") -> PageNames:
    """Read the distinct class and id values under root (root too); find where `words` name them.

    `words` are class/id words for `boilerplate_pattern`, all the furniture steps may ask about.
    """
    values = attribute_value_set(root, _NAMING)
    plain = [value for value in values if value.isascii()]
    others = [value for value in values if not value.isascii()] if len(plain) < len(values) else []
    spelled = _spelled_out(boilerplate_pattern(words)) if words else None
    if spelled is None:
        return PageNames(values, plain, others, {}, {})
    return PageNames(values, plain, others, spelled, _WORD_HITS(plain, spelled))


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
    banners = _owners_of(root, found)
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


def _sort_marked(
    marked: list[etree._Element], words: str, review_words: str, page: PageNames | None = None
) -> tuple[list[etree._Element], list[etree._Element], list[etree._Element]]:
    """Split the named elements into furniture, footers and reviews, in that precedence.

    `page` holds the page's class and id values (those of `marked` among them).
    """
    names = [(element.get("class"), element.get("id")) for element in marked]
    values = {value for pair in names for value in pair if value}
    furniture_names = _Naming.of(words, values, page) if words else None
    review_names = _Naming.of(review_words, values, page) if review_words else None
    furniture: list[etree._Element] = []
    footers: list[etree._Element] = []
    reviews: list[etree._Element] = []
    for element, pair in zip(marked, names, strict=True):
        if furniture_names is not None and furniture_names.names(element, pair):
            furniture.append(element)
        elif review_names is not None and review_names.names(element, pair):
            reviews.append(element)
        else:
            footers.append(element)
    return furniture, footers, reviews


@dataclass(frozen=True, slots=True)
class _Naming:
    """A pattern of class/id words, with the values it matches when its words are plain."""

    pattern: re.Pattern[str]
    matched: set[str] | None  # among the values asked about; None: search each element

    @classmethod
    def of(cls, words: str, values: set[str], page: PageNames | None = None) -> _Naming:
        """Compile the words' pattern and match the values once, if it is one of plain words.

        `page`, when given, holds the page's values, `values` among them.
        """
        pattern = boilerplate_pattern(words)
        if page is not None:
            named = page.named(pattern)
            return cls(pattern, None if named is None else named & values)
        spelled = _spelled_out(pattern)
        matched = None if spelled is None else _matching_values(values, pattern, spelled)
        return cls(pattern, matched)

    def names(self, element: etree._Element, pair: tuple[str | None, str | None]) -> bool:
        """Tell whether an element (whose class and id are `pair`) is named by the words."""
        # Plain words hold no space: the pattern matches "class id" exactly when it
        # matches the class or the id alone.
        if self.matched is None:
            return _named(element, self.pattern)
        return element.tag not in _NOT_FURNITURE and (
            pair[0] in self.matched or pair[1] in self.matched
        )


def review_sections(
    elements: list[etree._Element], root: etree._Element, *, max_sections: int
) -> list[etree._Element]:
    """Return the outermost of the elements still in the page; none when more than max_sections."""
    # A shop page gathers its buyers' reviews in one section or two (a summary,
    # the list); a word naming many separate elements names a part of every card
    # in a grid (each tile's rating or blurb), which is the page's content.
    # Elements inside furniture dropped before are out of the page already.
    inside = set(elements)
    sections = []
    for element in elements:
        above = list(element.iterancestors())
        if above and above[-1] is root and not any(up in inside for up in above):
            sections.append(element)
    return sections if len(sections) <= max_sections else []


def _marked(
    root: etree._Element, pattern: re.Pattern[str], names: PageNames
) -> list[etree._Element]:
    """Return the elements whose class or id (of the page's `names`) matches the pattern."""
    if pattern.search(" "):
        # Even an element with neither attribute would match: test them all.
        return [element for element in root.iter(etree.Element) if _named(element, pattern)]
    named = names.named(pattern)
    if named is not None:
        # The words hold no space, so the pattern matches "class id" exactly when it
        # matches the class or the id alone: each distinct value is matched once
        # (class lists repeat across a page), and only the matching values' elements
        # are fetched.
        return _owners_of(root, named)
    classes, ids = attribute_values(root, "class"), attribute_values(root, "id")
    return _named_furniture(classes, ids, pattern)


def _named(element: etree._Element, pattern: re.Pattern[str]) -> bool:
    """Tell whether an element's "class id" names match the pattern."""
    names = f"{element.get('class', '')} {element.get('id', '')}"
    return element.tag not in _NOT_FURNITURE and pattern.search(names) is not None


def _owners_of(root: etree._Element, values: set[str]) -> list[etree._Element]:
    """Return the elements a class, then an id, of the values names: each once, never the page."""
    owners = elements_valued(root, _NAMING, values) if values else []
    return [element for element in owners if element.tag not in _NOT_FURNITURE]


def _named_furniture(
    classes: dict[etree._Element, str],
    ids: dict[etree._Element, str],
    pattern: re.Pattern[str],
) -> list[etree._Element]:
    """Return the elements whose "class id" names match a pattern that " " does not match."""
    # Only elements with a class or an id can match: read the few with an id
    # whole, the others as "class ", each distinct class once.
    identified = {element: f"{classes.get(element, '')} {ident}" for element, ident in ids.items()}
    furniture = {value for value in set(classes.values()) if pattern.search(f"{value} ")}
    marked = [
        element
        for element, names in identified.items()
        if element.tag not in _NOT_FURNITURE and pattern.search(names)
    ]
    marked.extend(
        element
        for element, value in classes.items()
        if value in furniture and element not in identified and element.tag not in _NOT_FURNITURE
    )
    return marked


def _matching_values(values: set[str], pattern: re.Pattern[str], words: SpelledWords) -> set[str]:
    """Return the values that a pattern of the plain `words` matches."""
    plain = [value for value in values if value.isascii()]
    found = {value for value in values if not value.isascii() and pattern.search(value)}
    hits = _WORD_HITS(plain, words)
    return found | {plain[index] for indexes in hits.values() for index in indexes}


# How boilerplate_pattern() wraps its words.
_OWN_PATTERN = (r"(?:^|\s)(?:", r")(?:$|[\s_-])|[_-](?:", r")(?:$|\s)")
# Words of letters, digits, - and _, each letter optional with a ?; possessive,
# so a string that is not such a list fails without backtracking.
_PLAIN_WORDS = re.compile(r"(?:[A-Za-z0-9_-]++\??)++(?:\|(?:[A-Za-z0-9_-]++\??)++)*+")
_LETTER = re.compile(r"([a-z0-9_-])(\??)")
# What both str.split() and the pattern's \s take for space in ASCII text.
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _plain_words(pattern: re.Pattern[str], *, max_optional: int = 4) -> set[str] | None:
    """Spell out the words of a pattern from boilerplate_pattern(); None for any other."""
    opening, middle, closing = _OWN_PATTERN
    source = pattern.pattern
    size = (len(source) - len(opening) - len(middle) - len(closing)) // 2
    alternatives = source[len(opening) : len(opening) + size]
    if (
        source != f"{opening}{alternatives}{middle}{alternatives}{closing}"
        or pattern.flags != re.IGNORECASE | re.UNICODE
        or not _PLAIN_WORDS.fullmatch(alternatives)
    ):
        return None
    words: set[str] = set()
    for word in alternatives.lower().split("|"):
        if "?" not in word:
            words.add(word)
        elif word.count("?") <= max_optional:
            words.update(_spellings(word))
        else:
            return None
    # An empty spelling matches around any space: the pattern then matches " ".
    return None if "" in words else words


# Each word of a name pattern, spelled out, with its pieces cut at every - and _.
SpelledWords = dict[str, tuple[str, ...]]


def spell_out(pattern: re.Pattern[str]) -> SpelledWords | None:
    """Spell out the words of a pattern from boilerplate_pattern(), cut into their pieces."""
    words = _plain_words(pattern)
    return None if words is None else {word: tuple(_pieces(word)) for word in words}


def _spelled_out(pattern: re.Pattern[str]) -> SpelledWords | None:
    """Return `spell_out(pattern)`, worked out at import for the named variants' patterns."""
    # Spelling out the ~60 default words took 0.07 ms of every page.
    known = _VARIANTS_SPELLED.get(pattern.pattern)
    if known is not None and pattern.flags == _PATTERN_FLAGS:
        return known
    return spell_out(pattern)


def _spell_out_variants() -> dict[str, SpelledWords]:
    """Spell out the furniture patterns of every named variant."""
    found: dict[str, SpelledWords] = {}
    for params in ALGORITHMS.values():
        for words in furniture_word_lists(params.extend):
            pattern = boilerplate_pattern(words)
            spelled = spell_out(pattern)
            if spelled is not None:
                found[pattern.pattern] = spelled
    return found


def all_furniture_words(extend: ExtendParams) -> str:
    """Return every class/id word the furniture steps may ask about, for `page_names`."""
    return join_words(
        extend.boilerplate_words, extend.comment_words, extend.footer_words, extend.review_words
    )


def furniture_word_lists(extend: ExtendParams) -> Iterator[str]:
    """Yield the class/id word lists the furniture steps compile: all (for `page_names`),
    the comment words (for `opens_discussion`), to find, then to sort."""
    if every := all_furniture_words(extend):
        yield every
    if extend.comment_words:
        yield extend.comment_words
    # With and without the comment words (furniture_words in extract.py).
    for words in (
        extend.boilerplate_words,
        join_words(extend.boilerplate_words, extend.comment_words),
    ):
        for each in (
            join_words(words, extend.footer_words, extend.review_words),
            words,
            extend.review_words,
        ):
            if each:
                yield each


def _spellings(word: str) -> list[str]:
    """Spell out a word's optional letters ("ads?" -> "ad", "ads")."""
    spellings = [""]
    for letter, optional in _LETTER.findall(word):
        spellings = [spelling + letter for spelling in spellings] + (spellings * bool(optional))
    return spellings


def _word_hits(names: list[str], words: SpelledWords) -> dict[str, set[int]]:
    """Map each word that matches some of the ASCII names, as its pattern would, to their
    indexes."""
    # The pattern tries its many case-insensitive words at every space, - and _
    # of every name. Substring searches over all names at once are far faster;
    # the names cut at every - and _ show which words need searching at all.
    text = " ".join(names).lower()
    pieces = set(text.replace("-", " ").replace("_", " ").split())
    present = [word for word, parts in words.items() if pieces.issuperset(parts)]
    starts = [*accumulate((len(named) + 1 for named in names), initial=0)]
    hits: dict[str, set[int]] = {}
    for word in present:
        found = {bisect_right(starts, start) - 1 for start in _bounded(text, word)}
        if found:
            hits[word] = found
    return hits


def _pieces(word: str) -> list[str]:
    """Cut a word at every - and _."""
    return word.replace("-", " ").replace("_", " ").split() if not word.isalnum() else [word]


def _bounded(text: str, word: str) -> Iterator[int]:
    """Yield where a word occurs as the pattern wants it, in lowercase ASCII text."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if _word_bounds(before, after):
            yield start
        start = text.find(word, start + 1)


def _word_bounds(before: str, after: str) -> bool:
    """Tell whether a word between these characters opens or closes a name token.

    It opens one after a space (or the start) and ends at a space, - or _ (or
    the end); it closes one after a - or _ and ends at a space (or the end).
    """
    if before in _ASCII_SPACE:
        return after in _ASCII_SPACE or after in "-_"
    return before in "-_" and after in _ASCII_SPACE


def _holds_article(element: etree._Element) -> bool:
    """Tell whether a chrome element wraps the article itself (some sites do)."""
    return next(element.iterdescendants("article", "main", "h1"), None) is not None


def opens_discussion(
    root: etree._Element,
    pattern: re.Pattern[str],
    *,
    max_lead: int,
    min_post_chars: int = 100,
    names: PageNames | None = None,
) -> bool:
    """Tell whether comment-marked posts follow the page's first <h1> with little text between.

    `names` are the page's class and id values (`page_names`), when the caller has them.
    """
    # A forum thread marks its first post as a comment too: the posts are the
    # page. Under an article the article's text stands between headline and comments.
    headline = next(root.iter("h1"), None)
    if headline is None:
        return False
    # The walk may leave root's subtree for the rest of its document, which the
    # values would not cover.
    matched = names.named(pattern) if names is not None and root.getparent() is None else None
    if matched is not None and not matched:
        return False  # no class or id on the page names a comment (most pages)
    lead = 0
    for element in _following(headline):
        pair = element.get("class"), element.get("id")
        if (
            (pair[0] or pair[1])
            and _comment_named(pair, pattern, matched)
            and _holds_text(element, min_post_chars)
        ):
            return True
        lead += len((element.text or "").strip()) + len((element.tail or "").strip())
        if lead > max_lead:
            return False
    return False


def _comment_named(
    pair: tuple[str | None, str | None], pattern: re.Pattern[str], matched: set[str] | None
) -> bool:
    """Tell whether an element's class and id (`pair`) match the comment pattern."""
    if matched is None:
        return pattern.search(f"{pair[0] or ''} {pair[1] or ''}") is not None
    # Plain words hold no space: "class id" matches when the class or the id does.
    return pair[0] in matched or pair[1] in matched


def _holds_text(element: etree._Element, chars: int) -> bool:
    """Tell whether an element holds at least `chars` characters of text."""
    # Read piece by piece: a comment section may hold most of a long page.
    total = 0
    for piece in element.itertext():
        total += len(piece.strip())
        if total >= chars:
            return True
    return False


def _following(element: etree._Element) -> Iterator[etree._Element]:
    """Yield the elements after `element` in document order, outside its subtree."""
    node: etree._Element | None = element
    while node is not None:
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()


_WORD_HITS = compiled.pick("word_hits", _word_hits)
_PATTERN_FLAGS = boilerplate_pattern("x").flags
# Immutable once built: the patterns' words, read by every page.
_VARIANTS_SPELLED = MappingProxyType(_spell_out_variants())
