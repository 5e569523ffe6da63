"""Parsing as a browser would.

The page's source into an lxml tree, past the parser's traps (premature end
tags, deep nesting).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise

from lxml import etree

from addon.core import compiled

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


# An attribute as the HTML tokenizer reads it (a value quoted or not; a quoted one
# may hold "<" and ">"), possessive: each part is taken whole, never retried.
_ATTRIBUTE_SOURCE = rb"""[\s/]*+[^\s/>][^\s/>=]*+(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+))?+"""
_ATTRIBUTE = re.compile(_ATTRIBUTE_SOURCE)
# The next markup from a "<" on: a comment's start, an end tag or declaration, or
# a start tag with its attributes (a script's or style's named apart).
_MARKUP = re.compile(
    rb"<(?:(?P<comment>!--)|[/!?][^>]*+>?|(?P<name>[A-Za-z][^\s/>]*+)"
    rb"(?P<attributes>(?:" + _ATTRIBUTE_SOURCE + rb")*+)[\s/]*+>?)"
)  # fmt: skip
# Elements whose text is not markup: a "<" there starts no tag.
_RAW_TEXT_END = {b"script": re.compile(rb"</script", re.I), b"style": re.compile(rb"</style", re.I)}

# libxml2 compares each attribute of an element with every earlier one: its parse
# grows with the square of the count (10,000: 0.09 s; 80,000: 5.6 s), in one C
# call no time budget interrupts. Browsers keep them all; no reader needs more
# than a few, so those past this many are left out before parsing: an 8 MiB page
# of elements with 200 attributes each then parses in about a second.
MAX_ATTRIBUTES = 200


def crowded_attributes(utf8: bytes, max_attributes: int = MAX_ATTRIBUTES) -> list[tuple[int, int]]:
    """Return the spans of the attributes past the first `max_attributes` of each start tag,
    reading the tags as the HTML tokenizer does (comments, end tags, scripts skipped)."""
    spans: list[tuple[int, int]] = []
    place = 0
    while (markup := _MARKUP.search(utf8, place)) is not None:
        place = _past_markup(utf8, markup, max_attributes, spans)
    return spans


def _past_markup(
    utf8: bytes, markup: re.Match[bytes], max_attributes: int, spans: list[tuple[int, int]]
) -> int:
    """Return where a piece of markup ends; note a start tag's crowded span."""
    if markup.group("comment"):
        end = utf8.find(b"-->", markup.end())
        return len(utf8) if end < 0 else end + 3
    name = markup.group("name")
    if name is None:  # an end tag, a declaration
        return markup.end()
    start, end = markup.span("attributes")
    # An attribute takes two bytes at least: only a long run may hold too many.
    if end - start > 2 * max_attributes:
        span = _past_cap(utf8, start, end, max_attributes)
        if span is not None:
            spans.append(span)
    raw_end = _RAW_TEXT_END.get(name.lower())
    if raw_end is None:
        return markup.end()
    found = raw_end.search(utf8, markup.end())
    return len(utf8) if found is None else found.start()


def _past_cap(utf8: bytes, start: int, end: int, max_attributes: int) -> tuple[int, int] | None:
    """Return the span from a tag's attribute past the first `max_attributes` to its ">"."""
    place = start
    for _ in range(max_attributes):
        attribute = _ATTRIBUTE.match(utf8, place, end)
        if attribute is None:  # long values, few attributes
            return None
        place = attribute.end()
    if place >= end:
        return None
    close = utf8.find(b">", end)
    return place, len(utf8) if close < 0 else close


def scan_tags(
    utf8: bytes, max_attributes: int = MAX_ATTRIBUTES
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Return the spans to cut before parsing: the premature end tags, then the attributes
    past the cap."""
    return premature_ends(utf8), crowded_attributes(utf8, max_attributes)


def cap_attributes(utf8: bytes, max_attributes: int = MAX_ATTRIBUTES) -> bytes:
    """Leave out each start tag's attributes past the first `max_attributes` (the bytes
    themselves when no tag has more)."""
    crowded = _scan_tags(utf8, max_attributes)[1]
    if not crowded:
        return utf8
    view = memoryview(utf8)
    return b"".join(_between(view, crowded, 0))


def _between(
    view: memoryview, cuts: list[tuple[int, int]], start: int
) -> list[memoryview]:
    """Return the pieces of `view` from `start` on, around the sorted spans `cuts`."""
    starts = [start, *(end for _, end in cuts)]
    stops = [begin for begin, _ in cuts] + [len(view)]
    return [view[begin:stop] for begin, stop in zip(starts, stops, strict=True)]


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
    source = b"".join(piece.encode("utf-8", "replace") for piece in pieces)
    root = _parse_utf8(cap_attributes(source))
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
    root = _parse_utf8(cap_attributes(folded.encode("utf-8", "replace")))
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
    """Cut UTF-8 bytes as `_source_pieces` cuts the text they encode, into views of them;
    each start tag's attributes past the cap are cut out too."""
    ends, crowded = _scan_tags(utf8, MAX_ATTRIBUTES)
    first_end = ends[0][0] if ends else len(utf8)
    if utf8.find(b">", 0, first_end) < 0:
        stripped = cap_attributes(_PREMATURE_END_BYTES.sub(b"", utf8))
        declaration = _XML_DECLARATION_BYTES.match(stripped)
        return [memoryview(stripped)[declaration.end() if declaration else 0 :]]
    declaration = _XML_DECLARATION_BYTES.match(utf8, 0, first_end)
    cuts = sorted([*ends, *crowded]) if crowded else ends
    return _between(memoryview(utf8), cuts, declaration.end() if declaration else 0)


def premature_ends(utf8: bytes) -> list[tuple[int, int]]:
    """Return the spans of the `</body>` and `</html>` tags in UTF-8 bytes."""
    return [match.span() for match in _PREMATURE_END_BYTES.finditer(utf8)]


_scan_tags = compiled.pick("scan_tags", scan_tags)


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
    if not isinstance(root, etree._Element):
        return None
    mend_heading_paragraphs(root, source)
    return root


def mend_heading_paragraphs(root: etree._Element, source: bytes) -> None:
    """Put back into its heading the paragraph libxml2 moved out of it: `<h1><p>Auth</p></h1>`."""
    # A browser keeps the paragraph in the heading; libxml2 closes the heading at the
    # `<p>`, leaving it empty and its text a paragraph after it (React sites: wcxb-dev
    # 0676's "Auth", its headline, under an h1 of nothing). The empty headings with a
    # paragraph right after them are mended where the source holds as many headings
    # that open with a paragraph: else one of them was empty in the source too.
    emptied = [heading for heading in root.iter(*_HEADINGS) if _emptied(heading)]
    if not emptied or len(_HEADING_PARAGRAPH.findall(source)) != len(emptied):
        return
    for heading in emptied:
        paragraph = heading.getnext()
        tail = None if paragraph is None else paragraph.tail
        if paragraph is None or (tail and tail.strip()):
            continue  # text after the paragraph: where the heading ended is not known
        # Moved in whole and unwrapped by lxml, not copied through its API, which
        # refuses the control characters the parser keeps in a text.
        paragraph.tail = heading.text = None  # both white space only
        heading.append(paragraph)
        etree.strip_tags(heading, "p")
        heading.tail = tail


def mend_markup(root: etree._Element) -> None:
    """Mend what a browser shows otherwise than the tree reads: a named anchor left open, a
    headline's subtitle set as a heading, code shown in a text field. One walk finds all."""
    headings: list[etree._Element] = []
    anchors: list[etree._Element] = []
    fields: list[etree._Element] = []
    for element in root.iter(*_HEADINGS, "a", "textarea"):
        if element.tag == "a":
            if len(element):  # most anchors hold text alone
                anchors.append(element)
        elif element.tag == "textarea":
            fields.append(element)
        else:
            headings.append(element)
    close_named_anchors(anchors)
    lower_subtitles(headings)
    show_code_fields(fields)


def close_named_anchors(anchors: Iterable[etree._Element]) -> None:
    """Move out of a named anchor (`<a id=...>`, no href) the blocks it holds: an anchor left
    open, which a browser shows as no link."""
    # kubernetes.io's "<a id=shortcomings><a id=ips-and-vips><h2 ...>" left open: the
    # rest of the page, 29 blocks, counted as link text and went (wcxb-dev 2866). The
    # anchor stays, empty, where in-page links point.
    named = [
        anchor
        for anchor in anchors
        if len(anchor)
        and set(anchor.attrib) <= _NAMED_ANCHOR_ATTRIBUTES
        and next(anchor.iter(*_ANCHOR_BLOCKS), None) is not None
    ]
    for anchor in named:
        children = list(anchor)
        last = children[-1]
        last.tail = (last.tail or "") + (anchor.tail or "")
        anchor.tail, anchor.text = anchor.text, None
        for child in reversed(children):
            anchor.addnext(child)


# A named anchor's attributes, and the blocks no anchor holds in a browser's page.
_NAMED_ANCHOR_ATTRIBUTES = frozenset({"id", "name"})
_ANCHOR_BLOCKS = ("h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "pre", "ul", "ol", "table")


def lower_subtitles(headings: Sequence[etree._Element]) -> None:
    """Make a heading right after an h1 a paragraph when its class names it the h1's
    subtitle and it stands beside the h1: a standfirst, which titles no section."""
    # Substack's `<h3 class="subtitle">` under each post's h1 (wcxb-dev 0416, 0383, 13
    # pages), Medium's `h2.pw-subtitle-paragraph`: as the view's first heading it made
    # the whole article its one section. Only the heading right after an h1 (the
    # page's headings in document order), within the h1's parent or grandparent (the
    # article's header): a section's own subtitle further down stays a heading.
    for previous, heading in pairwise(headings):
        if (
            previous.tag == "h1"
            and heading.tag != "h1"
            and _names_subtitle(heading.get("class") or "")
            and _beside(heading, previous)
        ):
            heading.tag = "p"


def _names_subtitle(classes: str) -> bool:
    """Tell whether a class list names a subtitle: "subtitle", "post-subtitle", "dek"."""
    return any(_SUBTITLE_CLASS.fullmatch(name) for name in classes.lower().split())


# A headline's subtitle by a class word: whole, after a prefix ("article-subtitle",
# "pw-subtitle-paragraph"); not a size ("text-subtitle-large") or a card's part.
_SUBTITLE_CLASS = re.compile(
    r"(?:[a-z0-9]+[-_])?(?:subtitle|sub-title|subheadline|dek|deck|standfirst|strapline|"
    r"tagline)(?:-paragraph)?"
)


def _beside(heading: etree._Element, h1: etree._Element, *, max_levels: int = 2) -> bool:
    """Tell whether a heading stands within the h1's parent or grandparent."""
    above = h1.getparent()
    for _ in range(max_levels):
        if above is None:
            return False
        if any(up is above for up in heading.iterancestors()):
            return True
        above = above.getparent()
    return False


def show_code_fields(fields: Iterable[etree._Element]) -> None:
    """Make a text field that a page shows code in a block of code: its text is the article's."""
    # MongoDB's documentation sets a snippet in `<textarea aria-label="code-snippet">`,
    # a field read only by its script (wcxb-dev 0444: "<token_count>::<timestamp>::
    # <query>", lost with the form controls).
    for field in fields:
        names = " ".join(field.get(name) or "" for name in ("aria-label", "id", "class", "name"))
        if not (field.text or "").strip() or not _CODE_NAME.search(names):
            continue
        code = field.makeelement("code")
        code.text, field.text = field.text, None
        field.append(code)
        field.tag = "pre"
        for name in list(field.attrib):
            del field.attrib[name]


# A field named for code: "code-snippet", "codesnippet-1766", "code_editor".
_CODE_NAME = re.compile(r"(?:^|[\s_-])code(?:[\s_-]|snippet|block|$)", re.IGNORECASE)


def _emptied(heading: etree._Element) -> bool:
    """Tell whether a heading is empty, a paragraph right after it."""
    # Most headings have text: read first, before the next element's proxy is made.
    if len(heading) or (heading.text or "").strip() or (heading.tail or "").strip():
        return False
    following = heading.getnext()
    return following is not None and following.tag == "p"


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# A heading's start tag, then a paragraph's.
_HEADING_PARAGRAPH = re.compile(rb"<h[1-6](?:\s[^>]*)?>\s*<p[\s>]", re.IGNORECASE)
