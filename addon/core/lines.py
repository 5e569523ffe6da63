"""Line normalisation: one line per block-level element (thesis §4.3.1, §4.6.1).

The thesis normalises the page's lines so the method does not depend on how
the source is formatted. Raw source lines fail on minified pages (a handful of
lines), so a line here is the inline content of one block-level element, and
every line keeps a reference to that element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree
from lxml.html import HtmlElement

from addon.core.direction import count_rtl
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

_ANCHOR_START = re.compile(r"<a\b[^>]*>(.*?)</a>", re.IGNORECASE | re.DOTALL)


@dataclass(slots=True)
class Line:
    """One normalised line: the inline content of one block element.

    `element` is the block element the line maps back to; `t1` counts its
    content characters and `t2` its code characters (thesis §4.3.2), after
    the hyperlink filter; `link_chars` counts the text inside anchors.
    """

    element: HtmlElement
    tag: str
    text: str
    t1: int
    t2: int
    link_chars: int


def filter3(html: str, *, placeholder_offset: int = 7) -> str:
    """Replace each anchor's attributes with a placeholder of length LT-offset (§4.6.1)."""

    def replace(match: re.Match[str]) -> str:
        text = match.group(1)
        width = len(text) - placeholder_offset
        start = f"<a {'_' * width}>" if width > 0 else "<a>"
        return f"{start}{text}</a>"

    return _ANCHOR_START.sub(replace, html)


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


def tag_code_chars(element: HtmlElement, *, max_attribute_chars: int | None = None) -> int:
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


def _attribute_chars(attributes: list[tuple[str, str]], cap: int | None) -> int:
    """Return the source length of ` name="value"` for each attribute, each capped at `cap`."""
    sizes = [len(name) + len(value) + 4 for name, value in attributes]
    if cap is None:
        return sum(sizes)
    return sum([size if size < cap else cap for size in sizes])


class _LineBuilder:
    """Walk a tree once and cut it into lines at block boundaries.

    The line being built lives in the builder's own fields (owner, texts,
    links, code): a walk meets every element, so no per-line object is made.
    """

    __slots__ = (
        "anchor_depth", "attribute_cap", "code", "counting", "filter", "lines", "links",
        "offset", "owner", "owners", "tag_chars", "texts",
    )  # fmt: skip

    def __init__(self, root: HtmlElement, params: DanagParams) -> None:
        self.filter = params.filter
        self.offset = params.placeholder_offset
        self.counting = params.counting
        self.attribute_cap = params.max_attribute_chars
        self.lines: list[Line] = []
        self.owners: list[HtmlElement] = [root]
        self.owner = root
        self.texts: list[str] = []
        self.links: list[str] = []
        self.code = 0
        self.anchor_depth = 0
        self.tag_chars: dict[str, int] = {}  # per tag name: its tags without attributes

    def start(self, element: HtmlElement, walker: etree.iterwalk) -> None:
        """Count an element's start tag and its leading text."""
        tag = element.tag
        if tag in BLOCK_TAGS:
            self.flush()
            self.owners.append(element)
            self.owner = element
        if tag == "a":
            self.start_anchor(element, walker)
            return
        size = self.tag_chars.get(tag)
        if size is None:
            size = self.tag_chars[tag] = _bare_tag_chars(tag)
        attributes = element.items()
        if attributes:
            size += _attribute_chars(attributes, self.attribute_cap)
        self.code += size
        text = element.text
        if text:
            self.texts.append(text)
            if self.anchor_depth:
                self.links.append(text)

    def start_anchor(self, element: HtmlElement, walker: etree.iterwalk) -> None:
        """Count an anchor as it is (Filter 0) or under Filter 1, 2 or 3 (§4.6.1)."""
        if self.filter == 1:
            walker.skip_subtree()
            return
        if self.filter == 0:
            self.code += tag_code_chars(element, max_attribute_chars=self.attribute_cap)
        else:
            self.code += anchor_code_chars(
                len(element.text_content()),
                filter=self.filter,
                placeholder_offset=self.offset,
            )
        self.anchor_depth += 1
        self.add_text(element.text)

    def end(self, element: HtmlElement) -> None:
        """Close an element: end its line if it is a block, then take its tail."""
        tag = element.tag
        if tag == "a" and self.filter != 1:
            self.anchor_depth -= 1
        if tag in BLOCK_TAGS:
            self.flush()
            owners = self.owners
            owners.pop()
            self.owner = owners[-1]
        tail = element.tail
        if tail:
            self.texts.append(tail)
            if self.anchor_depth:
                self.links.append(tail)

    def add_text(self, text: str | None) -> None:
        """Append a text node to the pending line."""
        if text:
            self.texts.append(text)
            if self.anchor_depth:
                self.links.append(text)

    def flush(self) -> None:
        """Emit the pending line if it holds any content or code, and start a new one."""
        texts, code = self.texts, self.code
        if not texts and not code:  # most block boundaries: nothing since the last one
            return
        text = " ".join("".join(texts).split()) if texts else ""
        if text or code:
            links = self.links
            link_chars = len(" ".join("".join(links).split())) if links else 0
            t1, t2 = count_line(text, code, counting=self.counting)
            owner = self.owner
            self.lines.append(Line(owner, owner.tag, text, t1, t2, link_chars))
        if texts:
            self.texts = []
        if self.links:
            self.links = []
        self.code = 0


def count_line(text: str, code: int, *, counting: str) -> tuple[int, int]:
    """Return (T1, T2) of one line: DANAg counts text vs tags, R2L/DANA RTL vs ASCII (§4.3-4.4)."""
    if counting == "r2l":
        ascii_chars = len(text.encode("ascii", "ignore")) - text.count(" ")
        return count_rtl(text), code + ascii_chars
    return len(text), code


def build_lines(root: HtmlElement, params: DanagParams) -> list[Line]:
    """Cut a preprocessed tree into block lines with their T1/T2 counts (§4.3.1-4.3.2)."""
    builder = _LineBuilder(root, params)
    # tag=etree.Element: the walk meets elements only, not comments or PIs.
    walker = etree.iterwalk(root, events=("start", "end"), tag=etree.Element)
    start, end = builder.start, builder.end
    for event, element in walker:
        if event == "start":
            start(element, walker)
        else:
            end(element)
    builder.flush()
    return builder.lines
