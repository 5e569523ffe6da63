"""Line normalisation: one line per block-level element (thesis §4.3.1, §4.6.1).

The thesis normalises the page's lines so the method does not depend on how
the source is formatted. Raw source lines fail on minified pages (a handful of
lines), so a line here is the inline content of one block-level element, and
every line keeps a reference to that element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
    tag = element.tag
    size = len(tag) + 2  # <tag>
    for name, value in element.attrib.items():
        attribute = len(name) + len(value) + 4  # ` name="value"`
        size += attribute if max_attribute_chars is None else min(attribute, max_attribute_chars)
    if tag not in VOID_TAGS:
        size += len(tag) + 3  # </tag>
    return size


@dataclass(slots=True)
class _Pending:
    """The line being built: its owner element and what has been counted so far."""

    owner: HtmlElement
    texts: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    code: int = 0


class _LineBuilder:
    """Walk a tree once and cut it into lines at block boundaries."""

    def __init__(self, root: HtmlElement, params: DanagParams) -> None:
        self.params = params
        self.attribute_cap = params.max_attribute_chars
        self.lines: list[Line] = []
        self.owners: list[HtmlElement] = [root]
        self.pending = _Pending(root)
        self.anchor_depth = 0

    def start(self, element: HtmlElement, walker: etree.iterwalk) -> None:
        """Count an element's start tag and its leading text."""
        tag = element.tag
        if tag in BLOCK_TAGS:
            self.flush()
            self.owners.append(element)
            self.pending = _Pending(element)
        if tag == "a":
            self.start_anchor(element, walker)
            return
        self.pending.code += tag_code_chars(element, max_attribute_chars=self.attribute_cap)
        self.add_text(element.text)

    def start_anchor(self, element: HtmlElement, walker: etree.iterwalk) -> None:
        """Count an anchor as it is (Filter 0) or under Filter 1, 2 or 3 (§4.6.1)."""
        if self.params.filter == 1:
            walker.skip_subtree()
            return
        if self.params.filter == 0:
            self.pending.code += tag_code_chars(element, max_attribute_chars=self.attribute_cap)
        else:
            self.pending.code += anchor_code_chars(
                len(element.text_content()),
                filter=self.params.filter,
                placeholder_offset=self.params.placeholder_offset,
            )
        self.anchor_depth += 1
        self.add_text(element.text)

    def end(self, element: HtmlElement) -> None:
        """Close an element: end its line if it is a block, then take its tail."""
        tag = element.tag
        if tag == "a" and self.params.filter != 1:
            self.anchor_depth -= 1
        if tag in BLOCK_TAGS:
            self.flush()
            self.owners.pop()
            self.pending = _Pending(self.owners[-1])
        self.add_text(element.tail)

    def add_text(self, text: str | None) -> None:
        """Append a text node to the pending line."""
        if text:
            self.pending.texts.append(text)
            if self.anchor_depth:
                self.pending.links.append(text)

    def flush(self) -> None:
        """Emit the pending line if it holds any content or code."""
        pending = self.pending
        text = " ".join("".join(pending.texts).split()) if pending.texts else ""
        if not text and not pending.code:
            return
        link_chars = len(" ".join("".join(pending.links).split())) if pending.links else 0
        t1, t2 = count_line(text, pending.code, counting=self.params.counting)
        owner = pending.owner
        self.lines.append(Line(owner, owner.tag, text, t1, t2, link_chars))
        pending.texts = []
        pending.links = []
        pending.code = 0


def count_line(text: str, code: int, *, counting: str) -> tuple[int, int]:
    """Return (T1, T2) of one line: DANAg counts text vs tags, R2L/DANA RTL vs ASCII (§4.3-4.4)."""
    if counting == "r2l":
        ascii_chars = len(text.encode("ascii", "ignore")) - text.count(" ")
        return count_rtl(text), code + ascii_chars
    return len(text), code


def build_lines(root: HtmlElement, params: DanagParams) -> list[Line]:
    """Cut a preprocessed tree into block lines with their T1/T2 counts (§4.3.1-4.3.2)."""
    builder = _LineBuilder(root, params)
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        if not isinstance(element.tag, str):
            continue
        if event == "start":
            builder.start(element, walker)
        else:
            builder.end(element)
    builder.flush()
    return builder.lines
