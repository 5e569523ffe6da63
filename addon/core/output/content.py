"""Content building: the extractor's selected subtrees in, clean reader blocks out.

The selected subtrees are walked with an explicit stack: layout containers are
flattened, reader-relevant blocks are copied, loose inline text becomes a
paragraph. Each copied block is rebuilt from an allow-list of tags and
attributes with absolute URLs and repaired lazy images, then sanitised again
by nh3 before it becomes a `Block`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import methodcaller
from urllib.parse import urljoin, urlsplit

import nh3
from lxml import etree

from addon.core import compiled
from addon.core.dom import text_length
from addon.core.heuristics.metadata import collapse
from addon.core.result import Block

Element = etree._Element

# Sentinel tags: elements renamed to these are unwrapped / removed in one C call.
_UNWRAP = "x-plainview-unwrap"
_REMOVE = "x-plainview-remove"


def _tags(names: str) -> frozenset[str]:
    """Return a set of tag names written as one space-separated string."""
    return frozenset(names.split())


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Blocks the reader shows, emitted one `Block` each when met in a container.
BLOCK_TAGS = frozenset(
    {*HEADINGS, "p", "ul", "ol", "menu", "dl", "table", "pre", "blockquote", "figure", "hr"}
)
# Layout containers: flattened in the walk; inside a block, unwrapped or made a p.
_DIVLIKE = _tags(
    "html body div section article main header footer aside nav form fieldset legend"
    " address center hgroup details summary search"
)
# Met outside their table or figure, these are flattened like layout containers.
CONTAINER_TAGS = _DIVLIKE | _tags("figcaption caption thead tbody tfoot tr td th")
# Removed with their content: scripts, styles, embeds, media players, form controls.
# Not embed, source, track, wbr, keygen: libxml2 does not know they are void and
# puts what follows them inside them, so they are unwrapped like unknown tags.
REMOVE_TAGS = _tags(
    "script style template svg math iframe frame frameset object applet param canvas"
    " audio video map area input button select textarea option optgroup datalist output"
    " progress meter head title meta link base dialog colgroup col noembed noframes portal"
)
INLINE_TAGS = _tags(
    "a em strong b i code kbd samp var sub sup small mark abbr q cite time br s del ins u img"
)
_STRUCTURE_TAGS = _tags(
    "p h2 h3 h4 h5 h6 ul ol li dl dt dd table caption thead tbody tfoot tr th td pre"
    " blockquote figure figcaption hr"
)
# The output allow-list; h1 is absent because the reader page owns the only h1.
ALLOWED_TAGS = INLINE_TAGS | _STRUCTURE_TAGS
# Kept elements inside which a p may not stand (a layout div there is unwrapped).
_PHRASING = INLINE_TAGS | frozenset({*HEADINGS, "p", "pre", "dt", "caption"})
# Anything of these inside an inline element makes it a container, not inline text.
_BLOCKISH = tuple(BLOCK_TAGS | CONTAINER_TAGS | {"li", "dt", "dd"})
_BLOCKISH_TAGS = frozenset(_BLOCKISH)
_SCAN_LIMIT = 32  # elements looked at in Python before a block-like search moves to lxml
_ITEM_TAGS = frozenset({"li", "dt", "dd"})
# Tags the allow-list rebuild keeps (some renamed): what a layout container's
# ancestors are once settled; any other tag is unwrapped or removed.
_KEPT_TAGS = ALLOWED_TAGS | frozenset({*HEADINGS, "menu"})
_GLOBAL_ATTRS = frozenset({"dir", "lang"})
ALLOWED_ATTRS: dict[str, frozenset[str]] = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt", "width", "height", "srcset"}),
    "abbr": frozenset({"title"}),
    "time": frozenset({"datetime"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan", "scope"}),
    "ol": frozenset({"start"}),
}
_NO_ATTRS: frozenset[str] = frozenset()
LINK_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
IMAGE_SCHEMES = frozenset({"http", "https"})
_LAZY_SRC_ATTRS = ("data-src", "data-original", "data-lazy-src")
_LAZY_SRCSET_ATTRS = ("data-lazy-srcset", "data-srcset", "srcset")

_SRCSET_URL_RE = re.compile(r"[\s,]*([^\s,]\S*)")
_URL_BREAKS_RE = re.compile(r"[\t\n\r\\[]")  # URLs browsers rewrite: leave them to urljoin
_SCHEME_RE = re.compile(r"[^/?#]*:")
_DOT_SEGMENT_RE = re.compile(r"(?:^|/)\.\.?(?:[/?#]|$)")
# What lxml refuses in text and attributes, though libxml2 may have parsed it.
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_INT_RE = re.compile(r"\s*(-?\d{1,7})")
_LANG_RE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_PLACEHOLDER_RE = re.compile(
    r"placeholder|lazy[-_]?load|(?:^|/)(?:blank|spacer|pixel|transparent|clear|empty|grey"
    r"|gray|loading|loader|1x1|dot)\.(?:gif|png|svg)$",
    re.I,
)
# The file names _PLACEHOLDER_RE matches as a path's last segment.
_PLACEHOLDER_FILES = frozenset(
    f"{name}.{extension}"
    for name in _tags("blank spacer pixel transparent clear empty grey gray loading loader 1x1 dot")
    for extension in ("gif", "png", "svg")
)
# A CJK character, or a run of letters and digits; the group makes findall keep a
# word's first character (most are shared one-character strings), not the word.
_WORD_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|([^\W_])[^\W_]*")

# A heading's words for the furniture test: punctuation, arrows and emoji drop out.
_TOKEN_RE = re.compile(r"\w+")

# Markers for plain text: Unicode noncharacters, which do not occur in real text.
_LINE = "\ufdd0"
_CELL = "\ufdd1"
_KEEP_SPACE = "\ufdd2"
_KEEP_TAB = "\ufdd3"
_BLOCK_END = "\ufdd5"  # after each block in the one serialisation, and text, of them all
_LINE_TAGS = tuple(
    _tags(
        "p h1 h2 h3 h4 h5 h6 li dt dd tr caption figcaption blockquote pre ul ol dl table figure hr"
    )
)
# The marks _marked_text puts in a block's tree, written by libxslt for all blocks
# at once: text as lxml's text method writes it, a line mark around each line tag's
# content and after a br, a cell mark before a cell's, a nested pre's whitespace
# swapped for marks, a block end after each block.
_TEXT_MARKS = etree.XSLT(
    etree.XML(
        f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/*"><xsl:for-each select="*"><xsl:apply-templates select="."/>\
&#{ord(_BLOCK_END)};</xsl:for-each></xsl:template>
<xsl:template match="{"|".join(_LINE_TAGS)}">&#{ord(_LINE)};<xsl:apply-templates/>\
&#{ord(_LINE)};</xsl:template>
<xsl:template match="br"><xsl:apply-templates/>&#{ord(_LINE)};</xsl:template>
<xsl:template match="td|th">&#{ord(_CELL)};<xsl:apply-templates/></xsl:template>
<xsl:template match="pre//text()"><xsl:value-of select="translate(., '&#10; &#9;',\
 '&#{ord(_LINE)};&#{ord(_KEEP_SPACE)};&#{ord(_KEEP_TAB)};')"/></xsl:template>
</xsl:stylesheet>"""
    )
)

# How the walk treats each tag it knows: later entries win, as in their order of tests.
_WALK_KINDS = {
    **dict.fromkeys(_ITEM_TAGS, "item"),
    **dict.fromkeys(CONTAINER_TAGS, "container"),
    **dict.fromkeys(BLOCK_TAGS, "block"),
    "table": "table",
    "noscript": "noscript",
    **dict.fromkeys(REMOVE_TAGS, "skip"),
    **dict.fromkeys((etree.Comment, etree.ProcessingInstruction, etree.Entity), "skip"),
}
# How the allow-list rebuild treats each tag it knows; any other tag is unwrapped.
_ROLES = {
    **dict.fromkeys(ALLOWED_TAGS, "kept"),
    **dict.fromkeys(HEADINGS, "heading"),
    **dict.fromkeys(_DIVLIKE, "layout"),
    "menu": "menu",
    "a": "link",
    "img": "image",
    _UNWRAP: "skip",
    _REMOVE: "skip",
}
# Tag names lxml takes as arguments, to unwrap all elements of one unknown tag at once.
_PLAIN_NAME_RE = re.compile(r"[a-z][a-z0-9-]*")
# What copy.copy calls, without its dispatch: one call per block copy.
_copy_element = methodcaller("__copy__")
# Whether a subtree holds an h1: libxml2 stops at the first, faster than lxml's iter.
_FIRST_H1 = etree.XPath("count(descendant-or-self::h1[1])")
_SHIFTED = {"h1": "h2", "h2": "h3", "h3": "h4", "h4": "h5", "h5": "h6", "h6": "h6"}


@dataclass(frozen=True, slots=True)
class _Context:
    """What every step of one `build_blocks` call needs to know."""

    base: UrlBase
    drop: frozenset[Element]
    marked: frozenset[Element]  # elements holding a dropped element
    shift_headings: bool  # the content has an h1: every heading moves one level down
    holder: Element  # the tree the blocks are built in, in a document of its own
    take: bool  # the subtrees are apart: their blocks are taken out of the page, not copied


def build_blocks(
    elements: Sequence[etree._Element],
    *,
    base_url: str | None,
    drop: Collection[etree._Element] = (),
) -> tuple[Block, ...]:
    """Turn the selected subtrees into clean reader blocks, in document order.

    Subtrees that do not hold one another are taken out of the page (which
    keeps the rest): build the blocks after reading all else from it.
    """
    ctx = _context(elements, base_url, drop)
    flow = _Flow(ctx)
    for root in elements:
        flow.feed(root)
    flow.close()
    return _trim_rules(_finish(flow.out, ctx))


def furniture_pattern(headings: str) -> re.Pattern[str]:
    """Compile the furniture heading vocabulary, to match a heading's words whole."""
    return re.compile(f"(?:{headings})")


def cut_furniture_tail(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    min_position: float = 0.4,
    max_label_words: int = 0,
) -> tuple[Block, ...]:
    """End the content at a furniture heading that stands late in it."""
    # Related links, comments, share bars and author bios follow the article
    # under headings like these; the same words early on may title a box inside
    # the article, so only a heading with enough text before it ends the content.
    total = sum(len(block.text) for block in blocks)
    before = 0
    for index, block in enumerate(blocks):
        if before >= min_position * total and _names_furniture(block, pattern, max_label_words):
            return tuple(blocks[:index])
        before += len(block.text)
    return tuple(blocks)


def _names_furniture(block: Block, pattern: re.Pattern[str], max_label_words: int) -> bool:
    """Tell whether a heading, or a short label paragraph, names page furniture."""
    if block.kind not in HEADINGS and block.kind != "p":
        return False
    if block.kind != "p":
        # Lowered before the words are cut: lowering may split a word in two.
        return pattern.fullmatch(" ".join(_TOKEN_RE.findall(block.text.lower()))) is not None
    # Many sites style a furniture title ("Related articles", "Was this page
    # helpful?") as a bold paragraph; a one-word one ("Share", "Tags") is more
    # often a button inside a post, so a label needs two words or more. Lowering
    # never joins two words (true of every character, tests/core/output/test_content.py),
    # so a paragraph with more words than a label's is ruled out unlowered, by one
    # match that stops at the word after a label's last.
    if _words_beyond(max_label_words).match(block.text):
        return False
    words = _TOKEN_RE.findall(block.text.lower())[: max_label_words + 1]
    if not 2 <= len(words) <= max_label_words:
        return False
    return pattern.fullmatch(" ".join(words)) is not None


def _words_beyond(count: int) -> re.Pattern[str]:
    """Compile the pattern that matches the start of a text with more than `count` words."""
    # Possessive: each run of word or other characters is taken whole, never retried.
    return re.compile(rf"\W*+(?:\w++\W*+){{{count + 1}}}")


def drop_repeated_blocks(blocks: Sequence[Block], *, min_chars: int = 20) -> tuple[Block, ...]:
    """Leave out a block whose text repeats an earlier block's text word for word."""
    # Pages serve one description twice (a mobile and a desktop copy, a tab and
    # its accordion twin) and clone carousels for their scrolling; a reader reads
    # it once. Code is exempt: documentation repeats an example on purpose.
    seen: set[str] = set()
    kept: list[Block] = []
    for block in blocks:
        key = _collapse(block.text)
        if len(key) >= min_chars and block.kind != "pre":
            if key in seen:
                continue
            seen.add(key)
        kept.append(block)
    return tuple(kept)


def plain_text(blocks: Sequence[Block]) -> str:
    """Join the blocks' text, one blank line between blocks."""
    return "\n\n".join(block.text for block in blocks if block.text)


def word_count(text: str) -> int:
    """Count words; each CJK character counts as one word."""
    if _COMPILED_WORD_COUNT is not None:
        return _COMPILED_WORD_COUNT(text)
    return len(_WORD_RE.findall(text))


_COMPILED_WORD_COUNT: Callable[[str], int] | None = compiled.pick_or_none("word_count")


_collapse = compiled.pick("collapse_space", collapse)


def reading_minutes(words: int, *, wpm: int = 230) -> int:
    """Return the reading time in whole minutes at `wpm` words a minute, >= 1 for any words."""
    if words <= 0:
        return 0
    return max(1, math.ceil(words / wpm))


def _context(
    elements: Sequence[etree._Element], base_url: str | None, drop: Collection[etree._Element]
) -> _Context:
    """Collect the per-call facts: dropped elements, their ancestors, heading shift."""
    dropped: frozenset[Element] = frozenset(drop)
    marked: set[Element] = set()
    for element in dropped:
        for ancestor in element.iterancestors():
            if ancestor in marked:
                break
            marked.add(ancestor)
    has_h1 = any(_FIRST_H1(root) for root in elements)
    roots = set(elements)
    apart = len(roots) == len(elements) and not any(
        up in roots for root in elements for up in root.iterancestors()
    )
    # A fresh XML document: its serialiser leaves out the characters XML forbids
    # (U+000B, say), which the page's HTML document would write out.
    holder = etree.Element("div")
    return _Context(UrlBase.of(base_url), dropped, frozenset(marked), has_h1, holder, apart)


def _cleaner(*, attribute_filter: bool = True) -> nh3.Cleaner:
    """Build the nh3 sanitiser: the second lock behind the allow-list build."""
    attributes = {tag: set(names) for tag, names in ALLOWED_ATTRS.items()}
    attributes["*"] = set(_GLOBAL_ATTRS)
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style"},
        attributes=attributes,
        attribute_filter=_nh3_attribute_filter if attribute_filter else None,
        link_rel="noopener noreferrer",
        url_schemes=set(LINK_SCHEMES | {"data"}),
    )


def _nh3_attribute_filter(tag: str, attr: str, value: str) -> str | None:
    """Allow data: URLs only as an image's src, and only safe srcset candidates."""
    if attr == "srcset":
        return _srcset_value(value, _NO_BASE)
    if attr in ("href", "src") and value.lstrip()[:5].lower() == "data:":
        return value if (tag, attr) == ("img", "src") and _is_data_image(value) else None
    return value


# --- The walk over containers ------------------------------------------------


class _Flow:
    """Flatten containers into a list of block copies, gathering loose inline text."""

    __slots__ = ("brs", "ctx", "drop", "has_text", "items", "orphans", "out", "with_blocks")

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx
        self.drop = ctx.drop
        self.out: list[Element] = []
        self.items: list[str | Element] = []  # the open loose-text paragraph
        self.has_text = False
        self.brs = 0  # consecutive <br> at the end of the open paragraph
        self.orphans: tuple[Element | None, Element] | None = None  # (source parent, list)
        self.with_blocks: set[Element] = set()  # inline elements known to hold a block

    def feed(self, root: Element) -> None:
        """Walk one selected subtree iteratively; its tail is not part of it."""
        stack: list[tuple[Element, Iterator[Element]]] = []
        self._enter(root, stack)
        while stack:
            parent, children = stack[-1]
            for child in children:  # resumes where it left off when a container ends
                tail = child.tail  # read first: a block taken out of the page leaves it
                if self._enter(child, stack):
                    break
                if tail and (self.items or not tail.isspace()):  # else _loose skips it
                    self._loose(tail)
            else:
                stack.pop()
                if self.items:
                    self._break()
                tail = parent.tail
                if stack and tail and not tail.isspace():  # else _loose skips it
                    self._loose(tail)

    def close(self) -> None:
        """End the open paragraph."""
        self._break()

    def _enter(self, el: Element, stack: list[tuple[Element, Iterator[Element]]]) -> bool:
        """Handle one element met in a container; push it and say so if it is one."""
        kind = self._kind(el)
        if kind == "block":
            if self.items:
                self._break()
            self.out.append(_copy(el, self.ctx))
            self.orphans = None
        elif kind == "container":
            if self.items:
                self._break()
            text = el.text
            if text and not text.isspace():  # else _loose skips it: no paragraph is open
                self._loose(text)
            stack.append((el, iter(el)))
            return True
        elif kind == "inline":
            self._inline(el)
        elif kind == "item":
            self._item(el)
        return False

    def _kind(self, el: Element) -> str:
        """Classify an element for the walk: container, block, item, inline or skip."""
        tag = el.tag
        kind = _WALK_KINDS.get(tag)
        if kind == "skip" or el in self.drop:
            return "skip"
        names = el.keys()  # one lxml call; most elements have neither attribute
        if names and ("style" in names or "hidden" in names) and _is_hidden(el):
            return "skip"
        if kind is None:
            if not isinstance(tag, str):
                return "skip"
            if self._holds_block(el):
                return "container"
            return "skip" if _is_lazy_twin(el) else "inline"
        if kind == "table":
            return "container" if is_layout_table(el) else "block"
        if kind == "noscript":
            return "container" if _holds_only_images(el) else "skip"
        return kind

    def _holds_block(self, el: Element) -> bool:
        """Tell whether an inline element holds a block; remember the path to it."""
        if el in self.with_blocks:
            return True
        if not len(el):
            return False
        found = _first_blockish(el)
        if found is None:
            return False
        for ancestor in found.iterancestors():
            if ancestor is el or ancestor in self.with_blocks:
                break
            self.with_blocks.add(ancestor)
        self.with_blocks.add(el)
        return True

    def _emit(self, block: Element) -> None:
        """Append a finished block copy; it ends any run of orphan list items."""
        self.out.append(block)
        self.orphans = None

    def _item(self, el: Element) -> None:
        """Gather list items met outside their list into one list per source parent."""
        self._break()
        parent = el.getparent()
        tag = "dl" if el.tag in ("dt", "dd") else "ol" if _tag(parent) == "ol" else "ul"
        run = self.orphans
        if run is None or parent is None or run[0] is not parent or run[1].tag != tag:
            self._emit(self.ctx.holder.makeelement(tag))
            run = (parent, self.out[-1])
            self.orphans = run
        run[1].append(_copy(el, self.ctx))

    def _inline(self, el: Element) -> None:
        """Add an inline element to the open paragraph; a lone image becomes a figure."""
        if el.tag == "br":
            self._br(el)
            return
        visible = _has_text(el)
        if not self.has_text and not visible and _has_image(el):
            self._break()
            figure = self.ctx.holder.makeelement("figure")
            figure.append(_copy(el, self.ctx))
            self._emit(figure)
            return
        self.items.append(_copy(el, self.ctx))
        if visible:
            self.has_text = True
            self.brs = 0

    def _br(self, el: Element) -> None:
        """Keep a line break; two in a row end the paragraph."""
        if not self.items:
            return
        self.items.append(_copy(el, self.ctx))
        self.brs += 1
        if self.brs >= 2:  # a blank line: the next paragraph
            self._break()

    def _loose(self, text: str | None) -> None:
        """Add text found directly inside a container to the open paragraph."""
        if not text or (not self.items and not text.strip()):
            return
        self.items.append(text)
        if text.strip():
            self.has_text = True
            self.brs = 0

    def _break(self) -> None:
        """Close the open paragraph as a p block."""
        items = self.items
        if not items:  # then no text and no line break is pending either
            return
        while items and not isinstance(items[-1], str) and items[-1].tag == "br":
            items.pop()
        if items and self.has_text:
            self._emit(_paragraph(items, self.ctx.holder))
        self.items = []
        self.has_text = False
        self.brs = 0


def _paragraph(items: list[str | Element], holder: Element) -> Element:
    """Build a p, in the holder's document, from loose text and inline elements."""
    p = holder.makeelement("p")
    last: Element | None = None
    for item in items:
        if isinstance(item, str):
            if last is None:
                p.text = _safe((p.text or "") + item)
            else:
                last.tail = _safe((last.tail or "") + item)
        else:
            p.append(item)
            last = item
    return p


def _copy(el: Element, ctx: _Context) -> Element:
    """Take a source element, or a deep copy of it, without its tail and the dropped parts."""
    # Copying cost 3% of a page's instructions; extract reads nothing of the
    # page's content after building the blocks, and an element leaves the page
    # once placed among them.
    copy: Element = el if ctx.take else _copy_element(el)
    copy.tail = None
    if el in ctx.marked:
        sources = list(el.iter())
        copies = sources if copy is el else list(copy.iter())
        for source, twin in zip(sources, copies, strict=True):
            if source in ctx.drop and isinstance(twin.tag, str):
                twin.tag = _REMOVE
        etree.strip_elements(copy, _REMOVE, with_tail=False)
    return copy


def _text_of(el: Element) -> str:
    """Return the text inside an element, without its tail."""
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def _has_text(el: Element) -> bool:
    """Tell whether an element holds text other than whitespace."""
    # Most elements that have text start with it: then no serialisation is needed.
    text = el.text
    if text and not text.isspace():
        return True
    if not len(el):
        return False
    text = _text_of(el)
    return bool(text) and not text.isspace()


def _safe(text: str | None) -> str:
    """Return text without the control characters lxml refuses to store ("" for None)."""
    if not text:
        return ""
    return _CONTROL_RE.sub("", text) if _CONTROL_RE.search(text) else text


def _tag(el: Element | None) -> str:
    """Return an element's tag name, or "" for none, comments and the like."""
    if el is None or not isinstance(el.tag, str):
        return ""
    return el.tag


# --- Predicates on source elements -------------------------------------------


def is_layout_table(table: Element) -> bool:
    """Tell a layout table (flattened) from a data table (kept)."""
    if table.get("role", "").strip().lower() in ("presentation", "none"):
        return True
    if table.find("caption") is not None or table.find("thead") is not None:
        return False
    rows = _table_rows(table)
    if any(_tag(cell) == "th" for row in rows for cell in row):
        return False
    cells = [cell for row in rows for cell in row if _tag(cell) == "td"]
    if all(sum(1 for cell in row if _tag(cell) == "td") <= 1 for row in rows):
        return any(_first_blockish(cell) is not None for cell in cells)
    # Several columns: a table nested in a cell means the grid is page layout.
    return any(next(cell.iterdescendants("table"), None) is not None for cell in cells)


def _table_rows(table: Element) -> list[Element]:
    """Return a table's own rows, directly or in thead/tbody/tfoot."""
    rows = [child for child in table if _tag(child) == "tr"]
    for section in table:
        if _tag(section) in ("thead", "tbody", "tfoot"):
            rows.extend(row for row in section if _tag(row) == "tr")
    return rows


def _is_hidden(el: Element) -> bool:
    """Tell whether the page hides an element (hidden attribute, display:none)."""
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return style is not None and _HIDDEN_STYLE_RE.search(style) is not None


def _has_image(el: Element) -> bool:
    """Tell whether an element is or holds an img."""
    return el.tag == "img" or (len(el) > 0 and next(el.iter("img"), None) is not None)


def _first_blockish(el: Element) -> Element | None:
    """Return the first block-like element inside `el`, in document order."""
    # lxml takes ~10 us to set up a filter on this many tags: more than it takes
    # Python to look at the few elements inside a typical inline element or cell.
    for count, node in enumerate(el.iterdescendants()):
        if node.tag in _BLOCKISH_TAGS:
            return node
        if count == _SCAN_LIMIT:
            return next(el.iterdescendants(*_BLOCKISH), None)
    return None


def _holds_only_images(noscript: Element) -> bool:
    """Tell whether a noscript is a lazy image's fallback: a real image and no text."""
    if _has_text(noscript):
        return False
    return any(not _is_pixel(img) for img in noscript.iter("img"))


def _is_lazy_twin(el: Element) -> bool:
    """Tell whether an image is the script-loaded twin of the noscript image after it."""
    if not _has_image(el):
        return False
    after = el.getnext()
    return _tag(after) == "noscript" and after is not None and _holds_only_images(after)


# --- Cleaning one block copy -------------------------------------------------


def _finish(raws: list[Element], ctx: _Context) -> list[Block]:
    """Clean all block copies together, then cut them into `Block`s; drop empty ones."""
    holder = ctx.holder  # one tree: each lxml pass runs once per call
    holder.extend(raws)
    _prepare(holder)
    unwrap, srcsets_stable = _scrub(holder, ctx)
    etree.strip_elements(holder, _REMOVE, with_tail=False)
    name_or_unwrap(holder)
    etree.strip_tags(holder, _UNWRAP, *unwrap)
    step_headings(holder)
    _cap_depth(holder)
    roots = list(holder)
    kinds = [_tag(block) for block in roots]
    verbatim = [
        _pre_text(block) if kind == "pre" else None
        for block, kind in zip(roots, kinds, strict=True)
    ]
    _keep_pre_newline(holder)
    # The reader check weighs link text against all text: counted here, once, on the
    # cleaned tree, instead of parsing the blocks' HTML again.
    chars = [text_length(block) for block in roots]
    linked = [sum(text_length(link) for link in block.iter("a")) for block in roots]
    sources = _serialise_all(holder, roots)
    flowing = _block_texts(holder, roots)
    texts = [text if pre is None else pre for text, pre in zip(flowing, verbatim, strict=True)]
    # The serialisation holds "<img" only as an img tag: text and values escape "<".
    kept = [
        index
        for index, (kind, source, text) in enumerate(zip(kinds, sources, texts, strict=True))
        if text or kind == "hr" or "<img" in source
    ]
    htmls = _Sanitiser(holder, sources, srcsets_stable).clean([sources[index] for index in kept])
    return [
        # positional: keywords cost more
        Block(kinds[index], html, texts[index], chars[index], linked[index])
        for index, html in zip(kept, htmls, strict=True)
    ]


class _Sanitiser:
    """Sanitise serialised blocks with nh3, calling its attribute filter only when needed."""

    __slots__ = ("all_close", "data_urls", "srcsets_stable")

    def __init__(self, holder: Element, sources: list[str], srcsets_stable: bool) -> None:
        # The filter changes only srcset values and data: URLs. nh3 sees the values
        # lxml wrote: srcset is not URL-escaped, and its escapes decode back.
        self.srcsets_stable = srcsets_stable
        markup = "".join(sources)
        self.data_urls = _holds_data_url(markup)
        # Each block has at most as many end tags as it starts elements with one, so
        # when all of them together have as many, so does each block.
        self.all_close = _blocks_close_alike(markup)

    def clean(self, sources: list[str]) -> list[str]:
        """Return the blocks' sanitised HTML, most of them from one nh3 call."""
        # A call costs nh3 a few microseconds besides the markup; one call over the
        # blocks joined by a separator gives each block's output between separators
        # when the parser's state after each block is its state at the start. For a
        # serialised tree that holds, as every end tag then closes its element, unless
        # a table, cell or caption scopes it off or lxml left an end tag out (it does
        # for an empty li): such blocks go alone.
        htmls: list[str | None] = [source if is_plain_block(source) else None for source in sources]
        joint = [
            index
            for index, source in enumerate(sources)
            if htmls[index] is None
            and not self._filtered(source)
            and (self.all_close or _blocks_close_alike(source))
        ]
        if len(joint) > 1:
            markup = _BLOCK_SEPARATOR.join(sources[index] for index in joint)
            pieces = _PLAIN_CLEANER.clean(markup).split(_BLOCK_SEPARATOR)
            if len(pieces) == len(joint):  # else page text held the separator
                for index, piece in zip(joint, pieces, strict=True):
                    htmls[index] = piece
        return [
            self._clean_one(source) if html is None else html
            for source, html in zip(sources, htmls, strict=True)
        ]

    def _clean_one(self, source: str) -> str:
        """Return one block's sanitised HTML."""
        cleaner = _FILTERING_CLEANER if self._filtered(source) else _PLAIN_CLEANER
        return cleaner.clean(source)

    def _filtered(self, source: str) -> bool:
        """Tell whether nh3's attribute filter may change a value in this block."""
        # The filter's Python calls, one per attribute, cost more than nh3's own
        # work on a block; without it nh3 keeps every value as it is.
        return (self.data_urls and _holds_data_url(source)) or (
            not self.srcsets_stable and "srcset" in source
        )


def is_plain_block(source: str) -> bool:
    """Tell a serialised block nh3 gives back unchanged: a paragraph or heading of text alone."""
    # Nearly half the blocks, a fifth of the markup. Its only tags are its own two
    # (lxml escapes "<" in text). nh3 writes such text back as it was, but for a
    # no-break space (as &nbsp;) and a carriage return (lxml writes &#13;, nh3 the
    # character): checked for every character lxml stores, docs/performance.md.
    if source.count("<") != 2 or "&#" in source or "\xa0" in source:
        return False
    end = _PLAIN_ENDS.get(source[: source.find(">") + 1])
    return end is not None and source.endswith(end)


def holds_data_url(markup: str) -> bool:
    """Tell whether markup holds "data:" in any case."""
    return _may_hold_data_url(markup) and "data:" in markup.lower()


def _may_hold_data_url(markup: str) -> bool:
    """Tell whether markup may hold "data:" in some case, without lowercasing it (slow)."""
    # Two scans for the last letter and colon: fewer than for the last two in all cases.
    return "a:" in markup or "A:" in markup


def _closes_alike(source: str) -> bool:
    """Tell whether a serialised block has no table part and ends every element it starts."""
    if _TABLE_PART_RE.search(source) is not None:
        return False
    # "<" starts a tag and nothing else: lxml escapes it in text and values. No
    # tag the rebuild keeps but br, hr and img starts with their names.
    ends = source.count("</")
    voids = source.count("<br") + source.count("<img") + source.count("<hr")
    return source.count("<") - ends - voids == ends


_blocks_close_alike = compiled.pick("closes_alike", _closes_alike)
_holds_data_url = compiled.pick("holds_data_url", holds_data_url)


def name_or_unwrap(holder: Element) -> None:
    """Give images without alt an empty one; unwrap unnamed links and headings in cells."""
    # WCAG 1.1.1 / 2.4.4 (axe image-alt, link-name): a missing alt makes screen
    # readers spell out the file name; a link of no text reads as "link".
    for img in holder.iter("img"):
        if img.get("alt") is None:
            img.set("alt", "")
    for link in holder.iter("a"):
        if not _has_name(link):
            link.tag = _UNWRAP
    # A heading inside a table cell breaks the outline (axe heading-order); the
    # table's own header cells carry that meaning.
    if next(holder.iter("td", "th"), None) is None:
        return
    for heading in list(holder.iter(*HEADINGS)):
        if next(heading.iterancestors("td", "th"), None) is not None:
            heading.tag = _UNWRAP


def _has_name(link: Element) -> bool:
    """Tell whether a link has text or an image with a non-empty alt."""
    if _has_text(link):
        return True
    return any((img.get("alt") or "").strip() for img in link.iter("img"))


def step_headings(holder: Element, *, top: int = 1) -> None:
    """Let headings go down one level at a time below the page's h1 (axe heading-order)."""
    previous = top
    for heading in holder.iter(*HEADINGS):
        level = min(int(heading.tag[1]), previous + 1)
        if level != int(heading.tag[1]):  # renaming an lxml element is slow
            heading.tag = f"h{level}"
        previous = level


def _prepare(holder: Element) -> None:
    """Remove comments, scripts and media; resolve picture sources and noscript images."""
    for picture in holder.iter("picture"):
        _picture_fallback(picture)
    for noscript in list(holder.iter("noscript")):
        noscript.tag = _UNWRAP if _holds_only_images(noscript) else _REMOVE
        twin = noscript.getprevious()
        if noscript.tag == _UNWRAP and twin is not None and _has_image(twin):
            twin.tag = _REMOVE
    etree.strip_elements(
        holder, etree.Comment, etree.ProcessingInstruction, *REMOVE_TAGS, with_tail=False
    )


def _picture_fallback(picture: Element) -> None:
    """Give a picture's img the first source's srcset when it has none of its own."""
    img = next(picture.iter("img"), None)
    if img is None or any(img.get(name) for name in (*_LAZY_SRC_ATTRS, *_LAZY_SRCSET_ATTRS)):
        return
    for source in picture.iter("source"):
        srcset = source.get("srcset") or source.get("data-srcset")
        if srcset:
            img.set("data-srcset", _safe(srcset))
            return


def _scrub(holder: Element, ctx: _Context) -> tuple[set[str], bool]:
    """Rebuild the blocks from the allow-list; return the tags left to unwrap, srcset state."""
    # Renaming an lxml element is slow: an element to unwrap mostly keeps its tag,
    # and all of them go in one call by name, with the _UNWRAP ones.
    found = _Found()
    found.sort(holder, shift_headings=ctx.shift_headings)
    for link in found.links:
        _scrub_link(link, ctx.base)
    stable = [_scrub_image(img, ctx.base) for img in found.images]  # every image, in order
    holders: dict[Element, bool] = {}
    below = _with_blocks_below(holder, found.blockish) if found.layout else set()
    for el in found.layout:  # in document order: the ancestors are settled first
        _scrub_divlike(el, el in below, holders)
    for el in found.hidden:
        el.tag = _REMOVE
    return found.unwrap, all(stable)


class _Found:
    """The elements under a holder that the allow-list rebuild handles one by one."""

    __slots__ = ("blockish", "hidden", "images", "layout", "links", "unwrap")

    def __init__(self) -> None:
        self.unwrap: set[str] = set()  # tags no kept element has
        self.blockish: list[Element] = []  # by the tag each had before the rebuild
        self.hidden: list[Element] = []
        self.links: list[Element] = []
        self.images: list[Element] = []
        self.layout: list[Element] = []

    def sort(self, holder: Element, *, shift_headings: bool, compiled: bool = True) -> None:
        """Settle the plain elements in one pass; gather the rest by what they need."""
        # Renames made here keep a tag block-like or not, kept or not, as it was:
        # what a layout container's test looks at. Hidden elements keep their tag
        # until then, for the same reason. The compiled walk settles the plain
        # elements itself and leaves the others, in document order, to the loop.
        left: Iterable[Element]
        if compiled and _SETTLE_PLAIN is not None:
            left = _SETTLE_PLAIN(holder, self.blockish, self.unwrap, shift_headings)
        else:
            self.blockish = list(holder.iterdescendants(*_BLOCKISH))
            left = holder.iterdescendants()
        unwrap = self.unwrap  # the loop runs once per element
        for el in left:
            tag = el.tag
            names = el.keys()  # one lxml call; most elements have neither attribute
            if names and ("style" in names or "hidden" in names) and _is_hidden(el):
                self.hidden.append(el)
                continue
            role = _ROLES.get(tag)
            if role == "kept":
                if names:
                    _filter_attrs(el, ALLOWED_ATTRS.get(tag, _NO_ATTRS), names)
            elif role is None:
                if tag not in unwrap and isinstance(tag, str):
                    self._unknown(el, tag)
            elif role != "skip":
                self._sort_special(el, role, names, shift_headings=shift_headings)

    def _unknown(self, el: Element, tag: str) -> None:
        """Leave an unknown element to unwrap by its tag, or rename it when the tag is odd."""
        # lxml refuses some names the parser lets through (control characters) as
        # arguments: such an element is renamed instead.
        if _PLAIN_NAME_RE.fullmatch(tag):
            self.unwrap.add(tag)
        else:
            el.tag = _UNWRAP

    def _sort_special(
        self, el: Element, role: str, names: Sequence[str | bytes], *, shift_headings: bool
    ) -> None:
        """Settle a heading or menu; gather a link, image or layout container."""
        if role == "heading":
            if shift_headings:
                el.tag = _SHIFTED[el.tag]
        elif role == "menu":
            el.tag = "ul"
        elif role == "layout":  # unwrapped by its tag unless it becomes a p
            self.unwrap.add(el.tag)
            self.layout.append(el)
            return
        else:
            (self.links if role == "link" else self.images).append(el)
            return
        if names:
            _filter_attrs(el, _NO_ATTRS, names)


def _with_blocks_below(holder: Element, blockish: list[Element]) -> set[Element]:
    """Return the elements under `holder` that hold one of the block-like elements."""
    marked: set[Element] = set()
    for block in blockish:
        node = block.getparent()
        while node is not None and node is not holder and node not in marked:
            marked.add(node)
            node = node.getparent()
    return marked


def _scrub_divlike(el: Element, holds_blocks: bool, holders: dict[Element, bool]) -> None:
    """Make a layout container inside a block a p, or leave it to unwrap by its tag."""
    if holds_blocks or not _has_text(el):
        return
    if _allows_paragraph(el, holders):
        el.tag = "p"
        _filter_attrs(el, _NO_ATTRS)
    else:
        el.tail = " " + _safe(el.tail)  # keeps the words apart once unwrapped


def _allows_paragraph(el: Element, holders: dict[Element, bool]) -> bool:
    """Tell whether the nearest kept ancestor may hold a p; memoise along the way."""
    path: list[Element] = []
    node = el.getparent()
    allowed = True
    while node is not None:
        if node in holders:
            allowed = holders[node]
            break
        tag = _tag(node)
        if tag in _KEPT_TAGS:
            allowed = tag not in _PHRASING
            break
        path.append(node)
        node = node.getparent()
    for passed in path:
        holders[passed] = allowed
    return allowed


def _filter_attrs(
    el: Element, allowed: frozenset[str], names: Sequence[str | bytes] | None = None
) -> None:
    """Keep only allowed attributes with valid values (`names`: the element's, if known)."""
    names = el.keys() if names is None else names
    if not names:
        return
    if allowed.isdisjoint(names) and _GLOBAL_ATTRS.isdisjoint(names):
        el.attrib.clear()  # the common case: class, id, style and the like only
        return
    kept: list[tuple[str, str]] = []
    for name in names:
        if name in allowed or name in _GLOBAL_ATTRS:
            value = _valid_attr(name, el.get(name, ""))
            if value is not None:
                kept.append((name, value))
    el.attrib.clear()
    for name, value in kept:
        el.set(name, value)


def _valid_attr(name: str, value: str) -> str | None:
    """Return an attribute's value if it is well formed, else None."""
    value = _safe(value)
    if name in ("colspan", "rowspan", "start", "width", "height"):
        match = _INT_RE.match(value)
        return match.group(1) if match else None
    if name == "dir":
        value = value.strip().lower()
        return value if value in ("ltr", "rtl", "auto") else None
    if name == "lang":
        value = value.strip()
        return value if _LANG_RE.fullmatch(value) else None
    if name == "scope":
        value = value.strip().lower()
        return value if value in ("row", "col", "rowgroup", "colgroup") else None
    return value


def _scrub_link(el: Element, base: UrlBase) -> None:
    """Keep a link's href, absolute and with a safe scheme; unwrap a link without one."""
    raw = el.get("href")
    href = None if raw is None else base.resolve(raw, schemes=LINK_SCHEMES)
    _filter_attrs(el, _NO_ATTRS)
    if href is None:
        el.tag = _UNWRAP
        return
    el.set("href", href)  # rel: nh3 gives every link its own (link_rel)


def _scrub_image(el: Element, base: UrlBase) -> bool:
    """Repair a lazy image, make its URLs absolute, drop pixels; tell if its srcset is stable."""
    if _is_pixel(el):
        el.tag = _REMOVE
        return True
    srcset = _lazy_srcset(el, base)
    src = image_source(el, base, srcset)
    alt = el.get("alt")
    width, height = el.get("width"), el.get("height")
    el.attrib.clear()
    if src is None:
        el.tag = _REMOVE
        return True
    el.set("src", src)
    stable = True
    for name, value in (("srcset", srcset), ("alt", alt), ("width", width), ("height", height)):
        valid = None if value is None else _valid_attr(name, value)
        if valid is not None:
            el.set(name, valid)
            # A value _safe changed may hold a URL no longer what was resolved.
            stable = stable and (name != "srcset" or (valid == value and _stable_srcset(valid)))
    return stable


def _stable_srcset(srcset: str) -> bool:
    """Tell whether a srcset built by `_srcset_value` reads back as itself through it."""
    # Its URLs were resolved and are no placeholders; read back, a simple absolute
    # URL resolves to itself and splits off from its descriptor as it was joined.
    if "\r" in srcset:
        return False
    for candidate in srcset.split(", "):
        url, space, descriptor = candidate.partition(" ")
        if not _simple_url(url) or descriptor != descriptor.strip():
            return False
        if (space and not descriptor) or "," in descriptor:
            return False
    return True


def _simple_url(url: str) -> bool:
    """Tell an absolute http(s) URL that resolves to itself and ends no srcset candidate."""
    return (
        url.startswith(("http://", "https://"))
        and url.isprintable()
        and " " not in url
        and "\\" not in url
        and "[" not in url
        and not url.endswith(",")
    )


def _is_pixel(el: Element) -> bool:
    """Tell a tracking pixel: an image 1 (or 0) pixels wide or high."""
    for name in ("width", "height"):
        match = _INT_RE.match(el.get(name) or "")
        if match and int(match.group(1)) <= 1:
            return True
    return False


def _lazy_srcset(el: Element, base: UrlBase) -> str | None:
    """Return the image's real srcset, absolute, preferring the lazy-load attributes."""
    for name in _LAZY_SRCSET_ATTRS:
        value = el.get(name)
        if value:
            cleaned = _srcset_value(value, base)
            if cleaned:
                return cleaned
    return None


def image_source(el: Element, base: UrlBase, srcset: str | None) -> str | None:
    """Pick an image's real src: src unless a placeholder, then lazy attributes, then srcset."""
    lazy = [el.get(name) or "" for name in _LAZY_SRC_ATTRS]
    has_alternative = any(value.strip() for value in lazy) or srcset is not None
    src = el.get("src") or ""
    if not is_placeholder(src, has_alternative=has_alternative):
        resolved = _image_url(src, base)
        if resolved is not None:
            return resolved
    for value in lazy:
        resolved = None if is_placeholder(value) else _image_url(value, base)
        if resolved is not None:
            return resolved
    return pick_from_srcset(srcset) if srcset else None


def _image_url(url: str, base: UrlBase) -> str | None:
    """Resolve an image URL; data: is allowed for images only."""
    url = url.strip()
    if url[:5].lower() == "data:":
        return url if _is_data_image(url) and not _CONTROL_RE.search(url) else None
    return base.resolve(url, schemes=IMAGE_SCHEMES)


def _is_data_image(url: str) -> bool:
    """Tell whether a data: URL holds an image."""
    return url.lstrip()[:11].lower() == "data:image/"


def is_placeholder(src: str, *, has_alternative: bool = False, min_data_chars: int = 400) -> bool:
    """Tell a placeholder image src: empty, a tiny or superseded data: URL, a blank gif."""
    src = src.strip()
    if not src:
        return True
    if src[:5].lower() == "data:":
        # A 1x1 gif or blank svg is short; a real inline image is longer.
        return has_alternative or len(src) < min_data_chars
    path = src.partition("?")[0].partition("#")[0]
    if path.isascii():  # the case-insensitive regex is slow on every image URL
        return _ascii_placeholder(path.lower())
    return _PLACEHOLDER_RE.search(path) is not None


def _ascii_placeholder(low: str) -> bool:
    """Tell what `_PLACEHOLDER_RE` tells of a lowercased ASCII path, by plain string tests."""
    if "placeholder" in low or "lazyload" in low or "lazy-load" in low or "lazy_load" in low:
        return True
    if low.endswith("\n"):  # the pattern's "$" also matches before a final newline
        low = low[:-1]
    return low.rpartition("/")[2] in _PLACEHOLDER_FILES


def absolute_url(url: str, base_url: str | None, *, schemes: Collection[str]) -> str | None:
    """Resolve a URL against the base; None when it is empty or its scheme is not allowed."""
    return UrlBase.of(base_url).resolve(url, schemes=schemes)


@dataclass(frozen=True, slots=True)
class UrlBase:
    """A base URL split once, so that the common relative URLs resolve without urljoin."""

    url: str | None
    scheme: str = ""  # http or https; empty when only urljoin may resolve against it
    origin: str = ""  # scheme://host[:port]
    directory: str = ""  # the base up to the last "/" of its path
    path: str = ""  # the base without query and fragment
    document: str = ""  # the base without fragment

    @classmethod
    def of(cls, url: str | None) -> UrlBase:
        """Split a base URL (already resolved from the page URL and <base>)."""
        # A control character makes the base unusable: lxml refuses it in any URL made from it.
        if not url or _CONTROL_RE.search(url):
            return cls(None)
        try:
            parts = urlsplit(url)
        except ValueError:  # a malformed base cannot resolve anything
            return cls(None)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return cls(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        path = parts.path or "/"
        directory = origin + path[: path.rfind("/") + 1]
        return cls(url, parts.scheme, origin, directory, origin + path, url.split("#", 1)[0])

    def resolve(self, url: str, *, schemes: Collection[str]) -> str | None:
        """Resolve a URL; None when it is empty, malformed or its scheme is not allowed."""
        url = url.strip()
        if not url:
            return None
        # A printable URL holds no control character, tab or line break; the test
        # is much faster than the regexes, which run only on the rest.
        printable = url.isprintable()
        if not printable and _CONTROL_RE.search(url):
            return None
        resolved = self._join_simple(url, printable=printable)
        if resolved is not None:
            return resolved if resolved.split(":", 1)[0].lower() in schemes else None
        try:
            resolved = urljoin(self.url, url) if self.url else url
            scheme = urlsplit(resolved).scheme.lower()
        except ValueError:  # e.g. an unclosed IPv6 host: the URL is unusable
            return None
        if scheme:
            return resolved if scheme in schemes else None
        # Without a scheme it must read as a path, not as a scheme urlsplit rejected.
        return None if _SCHEME_RE.match(resolved) else resolved

    def _join_simple(self, url: str, *, printable: bool) -> str | None:
        """Join the common URL shapes by concatenation; None for the rest."""
        if ("\\" in url or "[" in url) if printable else _URL_BREAKS_RE.search(url):
            return None
        if url[:8].lower().startswith(("http://", "https://")):
            return url
        if not self.scheme or _SCHEME_RE.match(url) or _has_dot_segment(url):
            return None
        if url[0] == "#":
            return self.document + url
        if url[0] == "?":
            return self.path + url
        if url.startswith("//"):
            return f"{self.scheme}:{url}"
        return (self.origin if url[0] == "/" else self.directory) + url


def _has_dot_segment(url: str) -> bool:
    """Tell whether a URL path holds a "." or ".." segment."""
    return (url[0] == "." or "/." in url) and _DOT_SEGMENT_RE.search(url) is not None


_NO_BASE = UrlBase(None)
_FILTERING_CLEANER = _cleaner()
# Between blocks cleaned in one nh3 call: text between two elements, which nh3
# writes out as it is. A marked <br> took nh3 1.5 us more a block (0.05 ms a page).
_BLOCK_SEPARATOR = "\ufdd4"
_TABLE_PART_RE = re.compile(r"<(?:table|caption|t[dhr])[\s/>]")
# The start tags of the blocks is_plain_block() passes, each with its end tag.
_PLAIN_ENDS = {f"<{tag}>": f"</{tag}>" for tag in ("p", *HEADINGS) if tag in ALLOWED_TAGS}
_PLAIN_CLEANER = _cleaner(attribute_filter=False)


def _srcset_candidates(value: str) -> Iterator[tuple[str, str]]:
    """Split a srcset into (url, descriptor) pairs as the HTML standard does."""
    position = 0
    while (match := _SRCSET_URL_RE.match(value, position)) is not None:
        url, position = match.group(1), match.end()
        if url.endswith(","):  # a comma right after the URL ends a candidate with no descriptor
            yield url.rstrip(","), ""
            continue
        comma = value.find(",", position)
        comma = len(value) if comma < 0 else comma
        yield url, value[position:comma].strip()
        position = comma + 1


def _srcset_value(value: str, base: UrlBase) -> str | None:
    """Rebuild a srcset with absolute http(s) URLs; None if a candidate is unsafe or none remain."""
    parts: list[str] = []
    for url, descriptor in _srcset_candidates(value):
        resolved = base.resolve(url, schemes=IMAGE_SCHEMES)
        if resolved is None:
            return None
        if not is_placeholder(resolved):
            parts.append(f"{resolved} {descriptor}".strip())
    return ", ".join(parts) or None


def pick_from_srcset(srcset: str, *, max_width: int = 1600) -> str | None:
    """Pick one URL from a srcset: the widest up to `max_width`, else the narrowest."""
    widths: list[tuple[int, str]] = []
    first: str | None = None
    for url, descriptor in _srcset_candidates(srcset):
        first = first or url
        if descriptor.endswith("w") and descriptor[:-1].isdigit():
            widths.append((int(descriptor[:-1]), url))
    if not widths:
        return first
    fitting = [item for item in widths if item[0] <= max_width]
    return max(fitting)[1] if fitting else min(widths)[1]


def _cap_depth(holder: Element, *, max_depth: int = 32) -> None:
    """Flatten markup nested deeper than `max_depth`: no reader needs it, parsers choke on it."""
    # + 1: the blocks' holder. The usual depth's XPath is compiled once.
    deep_path = _DEEP_PATH if max_depth == _MAX_DEPTH else _deep_path(max_depth + 1)
    found = deep_path(holder)
    for deep in found if isinstance(found, list) else ():
        if isinstance(deep, etree._Element):
            etree.strip_tags(deep, "*")


def _deep_path(depth: int) -> etree.XPath:
    """Compile the XPath to the elements `depth` levels below a node."""
    return etree.XPath("/".join(["*"] * depth))


_MAX_DEPTH = 32
_DEEP_PATH = _deep_path(_MAX_DEPTH + 1)


def _keep_pre_newline(holder: Element) -> None:
    """Double a pre's leading newline: parsers drop one after <pre>, nh3 does not add it."""
    for pre in holder.iter("pre"):
        if pre.text and pre.text.startswith("\n\n"):
            pre.text = "\n" + _safe(pre.text)


def _serialise(block: Element) -> str:
    """Serialise a cleaned block as HTML."""
    return etree.tostring(block, encoding="unicode", method="html", with_tail=False)


def _serialise_all(holder: Element, roots: list[Element]) -> list[str]:
    """Serialise each cleaned block as HTML, all in one lxml call when that is exact."""
    # A block serialises alike alone or among its siblings; each one's tail marks
    # where it ends. Should page text hold the mark, the count shows it.
    for block in roots:
        block.tail = _BLOCK_END
    parts = etree.tostring(holder, encoding="unicode", method="html")[5:-6].split(_BLOCK_END)
    if len(parts) != len(roots) + 1:
        return [_serialise(block) for block in roots]
    return parts[:-1]


# --- Plain text --------------------------------------------------------------


def _block_texts(holder: Element, roots: list[Element]) -> list[str]:
    """Return each cleaned block's plain text, for a pre too (though it keeps its own)."""
    # One libxslt pass writes all the text with the marks _marked_text puts in the
    # tree, a block's end after each block; then the lines are made in a few string
    # passes over the whole. Should page text hold the block end, the count shows it.
    marked = _block_marks(holder)
    if marked.count(_BLOCK_END) != len(roots):
        return [_marked_text(block) for block in roots]
    # Lines made once for all blocks: then only a block's ends may hold a space
    # or a line break.
    texts = [piece.strip(" \n") for piece in _marked_lines(marked).split(_BLOCK_END)[:-1]]
    if _CELL in marked:
        if _CONTROL_RE.search(marked):
            marked = _CONTROL_RE.sub("", marked)
        for index, raw in enumerate(marked.split(_BLOCK_END)[:-1]):
            if _CELL in raw:
                texts[index] = _table_text(raw)
    if _KEEP_SPACE in marked or _KEEP_TAB in marked:
        texts = [text.replace(_KEEP_SPACE, " ").replace(_KEEP_TAB, "\t") for text in texts]
    return texts


def lines_of_marks(marked: str) -> str:
    """Turn marked text into plain lines: whitespace collapsed, line marks made line breaks."""
    # The control characters lxml refuses go first. str.split() beats a regex here
    # by far; a line has at most one space at each end, which strip takes off
    # faster than replacing the spaces next to line marks in the whole text.
    if _CONTROL_RE.search(marked):
        marked = _CONTROL_RE.sub("", marked)
    flat = " ".join(marked.split())
    return "\n".join(filter(None, [line.strip(" ") for line in flat.split(_LINE)]))


def stylesheet_marks(holder: Element) -> str:
    """Write the blocks' text with the marks by the stylesheet ("" if libxslt gives up)."""
    try:
        return str(_TEXT_MARKS(holder))
    except etree.XSLTError:  # libxslt gave up (resources): the caller marks each tree
        return ""


_block_marks = compiled.pick("block_marks", stylesheet_marks)
_MARKS = compiled.compiled_module("block_marks")
if _MARKS is not None:
    _MARKS.set_line_tags(_LINE_TAGS)


_marked_lines = compiled.pick("marked_lines", lines_of_marks)


_SETTLE_PLAIN = compiled.pick_or_none("settle_plain")
_ALLOW = compiled.compiled_module("settle_plain")
if _ALLOW is not None:
    _ALLOW.set_tables(_ROLES, _BLOCKISH_TAGS, _GLOBAL_ATTRS.union(*ALLOWED_ATTRS.values()))


def _table_text(raw: str) -> str:
    """Return the text of a block whose lines may hold table cells."""
    lines = (_text_line(line) for line in raw.split(_LINE))
    return "\n".join(line for line in lines if line)


def _marked_text(block: Element) -> str:
    """Return a block's plain text by marking up its tree; this changes the block."""
    for pre in block.iter("pre"):
        _protect_whitespace(pre)
    for el in block.iter(*_LINE_TAGS):
        el.text = _LINE + _safe(el.text)
        el.tail = _LINE + _safe(el.tail)
    for br in block.iter("br"):
        br.tail = _LINE + _safe(br.tail)
    for cell in block.iter("td", "th"):
        cell.text = _CELL + _safe(cell.text)
    text = _table_text(_safe(_text_of(block)))
    if _KEEP_SPACE in text or _KEEP_TAB in text:
        text = text.replace(_KEEP_SPACE, " ").replace(_KEEP_TAB, "\t")
    return text


def _pre_text(pre: Element) -> str:
    """Return a pre's text verbatim, less its leading and trailing blank lines."""
    return _safe(_text_of(pre)).lstrip("\n").rstrip()


def _protect_whitespace(pre: Element) -> None:
    """Swap a nested pre's whitespace for markers that survive collapsing."""
    table = str.maketrans({"\n": _LINE, " ": _KEEP_SPACE, "\t": _KEEP_TAB})
    pre.text = _safe(pre.text).translate(table)
    for el in pre.iterdescendants():
        el.text = _safe(el.text).translate(table)
        el.tail = _safe(el.tail).translate(table)


def _text_line(raw: str) -> str:
    """Collapse one line's whitespace; a table row's cells are joined by tabs."""
    if _CELL in raw:
        return "\t".join(" ".join(cell.split()) for cell in raw.split(_CELL)[1:]).rstrip("\t")
    return " ".join(raw.split())


def _trim_rules(blocks: list[Block]) -> tuple[Block, ...]:
    """Drop rules at the ends and repeated rules: they separate nothing."""
    kept: list[Block] = []
    for block in blocks:
        if block.kind == "hr" and (not kept or kept[-1].kind == "hr"):
            continue
        kept.append(block)
    while kept and kept[-1].kind == "hr":
        kept.pop()
    return tuple(kept)
