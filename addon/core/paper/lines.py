"""Line normalisation: one line per block-level element (thesis §4.3.1, §4.6.1).

The thesis normalises the page's lines so the method does not depend on how
the source is formatted. Raw source lines fail on minified pages (a handful of
lines), so a line here is the inline content of one block-level element, and
every line keeps a reference to that element.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice

from lxml import etree

from addon.core import compiled
from addon.core.dom import text_content
from addon.core.heuristics.direction import count_rtl
from addon.core.params import DanagParams

BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
        "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "li", "main",
        "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "ul", "center", "legend", "option", "noscript",
    }
)  # fmt: skip

VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip



@dataclass(slots=True)
class Line:
    """One normalised line: the inline content of one block element.

    `element` is the block element the line maps back to; `t1` counts its
    content characters and `t2` its code characters (thesis §4.3.2), after
    the hyperlink filter; `link_chars` counts the text inside anchors.
    """

    element: etree._Element
    tag: str
    text: str
    t1: int
    t2: int
    link_chars: int


def anchor_code_chars(link_text: int, *, filter: int, placeholder_offset: int = 7) -> int:
    """Return the code characters of one anchor's tags after Filter 0-3 (§4.6.1).

    Filter 0 is handled by the caller (the real tag is counted); Filter 1
    removes the anchor, so its tags count nothing; Filter 2 leaves `<a>` and
    `</a>`; Filter 3 leaves `<a ___>` with LT-offset underscores and `</a>`.
    """
    if filter == 1:
        return 0
    if filter == 2:
        return len("<a>") + len("</a>")
    width = link_text - placeholder_offset
    start = len("<a >") + width if width > 0 else len("<a>")
    return start + len("</a>")


def tag_code_chars(element: etree._Element, *, max_attribute_chars: int | None = None) -> int:
    """Return the length of an element's start and end tag as HTML source."""
    size = _bare_tag_chars(element.tag)
    # items() is one C call; the attrib proxy costs more on every element.
    attributes = element.items()
    if attributes:
        size += _attribute_chars(attributes, max_attribute_chars)
    return size


def _bare_tag_chars(tag: str) -> int:
    """Return the length of `<tag>` plus `</tag>` (none for a void element)."""
    return len(tag) + 2 if tag in VOID_TAGS else 2 * len(tag) + 5


def _attribute_chars(
    attributes: Sequence[tuple[str | bytes, str | bytes]], cap: int | None
) -> int:
    """Return the source length of ` name="value"` for each attribute, each capped at `cap`."""
    sizes = [len(name) + len(value) + 4 for name, value in attributes]
    if cap is None:
        return sum(sizes)
    return sum([size if size < cap else cap for size in sizes])


class _TagSizes(dict[str, int]):
    """The length of each tag name's bare start and end tag, computed on first use."""

    def __missing__(self, tag: str) -> int:
        size = self[tag] = _bare_tag_chars(tag)
        return size


class _Lines:
    """The lines cut so far, and the anchors of the pending line (§4.6.1).

    The pending line's text is a list of pieces kept by the walk; its anchor
    text is kept as ranges of those pieces, from before an outermost anchor's
    text to before its tail, so the walk appends each piece to one list only.
    """

    __slots__ = ("danag", "depth", "lines", "opened", "params", "ranges")

    def __init__(self, params: DanagParams) -> None:
        self.params = params
        self.danag = params.counting == "danag"
        self.lines: list[Line] = []
        self.depth = 0  # anchors open at the end of the pending line
        self.opened = 0  # the first piece of the outermost open anchor
        self.ranges: list[tuple[int, int]] = []  # the closed anchors' pieces

    def emit(self, owner: tuple[etree._Element, str], texts: list[str], code: int) -> int:
        """Append the pending line if it holds content or code, clear it, return the next's code."""
        if not texts:  # most lines are a wrapper's tags, with no text to collapse
            if code:
                self.lines.append(Line(owner[0], owner[1], "", 0, code, 0))
        else:
            text = " ".join("".join(texts).split())
            if text or code:
                link_chars = self.link_chars(texts) if self.ranges or self.depth else 0
                if self.danag:  # the usual counts, without a call per line
                    self.lines.append(Line(owner[0], owner[1], text, len(text), code, link_chars))
                else:
                    t1, t2 = count_line(text, code, counting=self.params.counting)
                    self.lines.append(Line(owner[0], owner[1], text, t1, t2, link_chars))
            texts.clear()
        self.ranges.clear()
        self.opened = 0
        return 0

    def link_chars(self, texts: list[str]) -> int:
        """Return the length of the anchor text among the pending pieces, spaces collapsed."""
        ranges = self.ranges
        if self.depth:  # an anchor that holds a block goes on in the next line
            ranges.append((self.opened, len(texts)))
        linked = "".join(["".join(texts[start:end]) for start, end in ranges])
        return len(" ".join(linked.split()))

    def open_anchor(
        self, anchor: etree._Element, pieces: int, elements: Iterator[etree._Element]
    ) -> tuple[int, str | None]:
        """Return an anchor's code and text under Filter 0, 1, 2 or 3 (§4.6.1)."""
        params = self.params
        if params.filter == 1:
            # The anchor is removed: walk past its descendants (its tail stays).
            skipped = sum(1 for _ in anchor.iterdescendants(etree.Element))
            deque(islice(elements, skipped), maxlen=0)
            return 0, None
        if params.filter == 0:
            code = tag_code_chars(anchor, max_attribute_chars=params.max_attribute_chars)
        else:
            code = anchor_code_chars(
                len(text_content(anchor)),
                filter=params.filter,
                placeholder_offset=params.placeholder_offset,
            )
        if not self.depth:
            self.opened = pieces
        self.depth += 1
        return code, anchor.text

    def close_anchor(self, pieces: int) -> None:
        """Close an anchor before its tail, which is the next piece."""
        if self.params.filter != 1:
            self.depth -= 1
            if not self.depth:
                self.ranges.append((self.opened, pieces))


def count_line(text: str, code: int, *, counting: str) -> tuple[int, int]:
    """Return (T1, T2) of one line: DANAg counts text vs tags, R2L/DANA RTL vs ASCII (§4.3-4.4)."""
    if counting == "r2l":
        ascii_chars = len(text.encode("ascii", "ignore")) - text.count(" ")
        return count_rtl(text), code + ascii_chars
    return len(text), code


def build_lines(root: etree._Element, params: DanagParams) -> list[Line]:
    """Cut a preprocessed tree into block lines with their T1/T2 counts (§4.3.1-4.3.2)."""
    # Looked up on each call: the compiled walk reads this module's tag sets when it loads.
    compiled_walk: Callable[..., list[Line]] | None = compiled.pick_or_none("build_lines")
    if compiled_walk is None:
        return walk_lines(root, params)
    cap = sys.maxsize if params.max_attribute_chars is None else params.max_attribute_chars
    counting = params.counting
    counter = None if counting == "danag" else partial(count_line, counting=counting)
    return compiled_walk(root, Line, counter, params.filter, params.placeholder_offset, cap)


def walk_lines(root: etree._Element, params: DanagParams) -> list[Line]:
    """Cut a preprocessed tree into block lines in Python; `build_lines` says what it does."""
    # One loop with local state: the walk meets every element, so each call and
    # attribute lookup per element shows in the time of the whole pipeline.
    out = _Lines(params)
    emit = out.emit
    texts: list[str] = []  # the text pieces of the pending line
    append = texts.append
    owner = (root, root.tag)  # the block the pending line belongs to
    owners: list[tuple[etree._Element, str]] = []
    sizes = _TagSizes()
    cap = sys.maxsize if params.max_attribute_chars is None else params.max_attribute_chars
    code = 0  # the code characters of the pending line
    # iter() and getparent() cost less than the start and end events of an iterwalk:
    # an element ends when the next one is not its child. tag=etree.Element leaves
    # out comments and processing instructions, and their tails with them. A detached
    # block after the last element closes every open element and ends the last line.
    open_elements: list[etree._Element] = []
    open_tags: list[str] = []  # their tags, kept so that no tag is read twice
    elements = root.iter(etree.Element)
    for element in chain(elements, [etree.Element("div")]):
        parent = element.getparent()
        while open_elements and open_elements[-1] is not parent:
            closed = open_elements.pop()
            tag = open_tags.pop()
            if tag in BLOCK_TAGS:
                code = emit(owner, texts, code) if texts or code else 0
                owner = owners.pop()
            elif tag == "a":
                out.close_anchor(len(texts))
            tail = closed.tail
            # White space that opens a line is dropped, as the line is collapsed anyway.
            if tail and (texts or not tail.isspace()):
                append(tail)
        tag = element.tag
        open_elements.append(element)
        open_tags.append(tag)
        if tag in BLOCK_TAGS:
            code = emit(owner, texts, code) if texts or code else 0
            owners.append(owner)
            owner = (element, tag)
        if tag == "a":
            size, text = out.open_anchor(element, len(texts), elements)
        else:
            size = sizes[tag]
            for name, value in element.items():
                chars = len(name) + len(value) + 4
                size += chars if chars < cap else cap
            text = element.text
        code += size
        if text and (texts or not text.isspace()):
            append(text)
    return out.lines
