"""Parsing as a browser would.

The page's source into an lxml tree, past the parser's traps (premature end
tags, deep nesting).
"""

from __future__ import annotations

import re

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
