"""Content building: the extractor's selected subtrees in, clean reader blocks out.

The selected subtrees are walked with an explicit stack: layout containers are
flattened, reader-relevant blocks are copied, loose inline text becomes a
paragraph. Each copied block is rebuilt from an allow-list of tags and
attributes (`tags`) with absolute URLs (`urls`) and repaired lazy images
(`images`), then sanitised again by nh3 (`sanitise`) before it becomes a
`Block` with its plain text (`text`); `furniture` trims what ends the content.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import methodcaller

from lxml import etree

from addon.core import compiled
from addon.core.dom import is_permalink, text_content, text_length
from addon.core.heuristics.names import names_any
from addon.core.output.anchors import find_targets, linked_fragments, place_targets, usable_id
from addon.core.output.furniture import trim_rules
from addon.core.output.headings import promote_aria_headings, step_headings
from addon.core.output.images import (
    drop_previews,
    has_image,
    holds_only_images,
    image_from_itemid,
    is_lazy_twin,
    picture_fallback,
    scrub_image,
)
from addon.core.output.sanitise import Sanitiser, name_or_unwrap, scrub_link
from addon.core.output.structure import mend_structure
from addon.core.output.tags import (
    ALLOWED_ATTRS,
    BLOCKISH,
    BLOCKISH_TAGS,
    GLOBAL_ATTRS,
    HEADINGS,
    KEPT_TAGS,
    NO_ATTRS,
    PHRASING,
    PLAIN_NAME_RE,
    REMOVE,
    REMOVE_TAGS,
    ROLES,
    RUN_IN_TAGS,
    SCAN_LIMIT,
    UNWRAP,
    WALK_KINDS,
    Element,
    filter_attrs,
    has_text,
    safe_text,
    shows_text,
    tag_of,
    visible,
)
from addon.core.output.text import (
    block_texts,
    break_code_lines,
    keep_pre_newline,
    part_glued_words,
    pre_text,
    raise_note_links,
    serialise_all,
)
from addon.core.output.urls import UrlBase
from addon.core.result import Block

_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


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
    # The fragments the content's own links point at: a block carries these ids first.
    linked: frozenset[str]
    # Line breaks put where a block box left no trace; settled once the rebuild
    # knows which boxes are blocks (_settle_breaks).
    breaks: list[Element] = field(default_factory=list)


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
    promote_aria_headings(elements)
    ctx = _context(elements, base_url, drop)
    flow = _Flow(ctx)
    for root in elements:
        flow.feed(root)
    flow.close()
    return trim_rules(_finish(flow.out, ctx))


def kept_text(
    elements: Sequence[etree._Element], drop: Collection[etree._Element] = ()
) -> str:
    """Return the text a reader sees in the subtrees, without the dropped parts: what the
    blocks built from them must hold."""
    # As the blocks leave them out: the dropped elements, what never shows (scripts,
    # media, form controls), what the page hides, a heading's edit links (left out
    # as furniture, drop_edit_links); the text after them is kept.
    dropped = set(drop)
    parts: list[str] = []
    for root in elements:
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, node in walker:
            # A block's edges part words; a phrasing element's do not ("a<b>b</b>"),
            # nor an unknown one's (a custom element), which browsers and the
            # blocks alike run on with the text around it.
            runs_in = node.tag in RUN_IN_TAGS or node.tag not in WALK_KINDS
            edge = "" if runs_in and node.tag != "br" else " "
            if event == "end":
                parts.append(edge if node is root else f"{edge}{node.tail or ''}")
            elif not isinstance(node.tag, str) or node in dropped or _never_shown(node, root):
                walker.skip_subtree()
            else:
                parts.append(f"{edge}{node.text or ''}")
    return "".join(parts)


def _never_shown(element: etree._Element, root: etree._Element) -> bool:
    """Tell whether the blocks never show an element's text: script, media, a control,
    hidden, a heading's edit link or link back to the top."""
    if element.tag in REMOVE_TAGS:
        return True
    if not element.keys():
        return False
    return _is_hidden(element) or (
        heading_control(element) and any(up.tag in HEADINGS for up in _up_to(element, root))
    )


def _up_to(element: etree._Element, root: etree._Element) -> Iterator[etree._Element]:
    """Yield an element's ancestors up to root, root included."""
    for up in element.iterancestors():
        yield up
        if up is root:
            return


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
    base = UrlBase.of(base_url)
    linked = frozenset(chain.from_iterable(linked_fragments(root, base) for root in elements))
    return _Context(base, dropped, frozenset(marked), has_h1, holder, apart, linked)


class _Flow:
    """Flatten containers into a list of block copies, gathering loose inline text."""

    __slots__ = (
        "brs", "ctx", "drop", "has_text", "ids", "items", "orphans", "out", "with_blocks",
    )  # fmt: skip

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx
        self.drop = ctx.drop
        self.out: list[Element] = []
        self.items: list[str | Element] = []  # the open loose-text paragraph
        self.has_text = False
        self.brs = 0  # consecutive <br> at the end of the open paragraph
        self.orphans: tuple[Element | None, Element] | None = None  # (source parent, list)
        self.with_blocks: set[Element] = set()  # inline elements known to hold a block
        self.ids: list[str] = []  # ids of containers entered since the last block

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
                if self.ids:
                    self._forget_id(parent)
                tail = parent.tail
                if stack and tail and not tail.isspace():  # else _loose skips it
                    self._loose(tail)

    def close(self) -> None:
        """End the open paragraph."""
        self._break()

    def _forget_id(self, container: Element) -> None:
        """Leave out the id of a container that ended holding no block, unless a link of the
        content points at it: the next block stands outside it."""
        # An ad's empty box, `div#article-adsense`, gave its id to the heading of
        # the box after it (readability-even aktualne).
        ident = container.get("id")
        if ident in self.ids and ident not in self.ctx.linked:
            self.ids.remove(ident)

    def _enter(self, el: Element, stack: list[tuple[Element, Iterator[Element]]]) -> bool:
        """Handle one element met in a container; push it and say so if it is one."""
        kind = self._kind(el)
        if kind == "block":
            if self.items:
                self._break()
            self._emit(_copy(el, self.ctx))
        elif kind == "container":
            if self.items:
                self._break()
            ident = el.get("id")
            # A section's id: its first block carries it (output/anchors.py); one lxml
            # refuses (a control character) or no page may use is left behind.
            if ident and usable_id(ident):
                self.ids.append(ident)
            text = el.text
            if text and not text.isspace():  # else _loose skips it: no paragraph is open
                self._loose(text)
            stack.append((el, iter(el)))
            return True
        elif kind == "inline":
            self._inline(el)
        elif kind == "item":
            self._item(el)
        elif self.items and el in self.drop and el.tag in BLOCKISH_TAGS:
            # A block left out still broke the line in the page: the text before
            # it and after it stay apart ("written by", a dropped author link,
            # "Chief Editor").
            self._break()
        return False

    def _kind(self, el: Element) -> str:
        """Classify an element for the walk: container, block, item, inline or skip."""
        tag = el.tag
        kind = WALK_KINDS.get(tag)
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
            return "skip" if is_lazy_twin(el) else "inline"
        if kind == "table":
            return "container" if is_layout_table(el) else "block"
        if kind == "noscript":
            return "container" if holds_only_images(el) else "skip"
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
        if self.ids:
            _carry_ids(block, self.ids, self.ctx.linked)
            self.ids = []

    def _item(self, el: Element) -> None:
        """Gather list items met outside their list into one list per source parent."""
        self._break()
        parent = el.getparent()
        tag = "dl" if el.tag in ("dt", "dd") else "ol" if tag_of(parent) == "ol" else "ul"
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
        visible = has_text(el)
        if not self.has_text and not visible and has_image(el):
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


def _carry_ids(block: Element, ids: list[str], linked: frozenset[str]) -> None:
    """Give the ids of the containers around a block to it and its first elements without one,
    those the content's links point at first."""
    # A block has fewer places than the wrappers around it may have ids: a tab
    # panel's `section#themes` in a `div#customizers-wrapper`, whose heading took
    # the wrapper's id, left the "Next" link to #themes going nowhere (mozilla-1).
    free = (el for el in block.iter(etree.Element) if el.get("id") is None)
    ordered = sorted(ids, key=lambda ident: ident not in linked)
    for ident, element in zip(ordered, free, strict=False):
        element.set("id", ident)


def _paragraph(items: list[str | Element], holder: Element) -> Element:
    """Build a p, in the holder's document, from loose text and inline elements."""
    p = holder.makeelement("p")
    last: Element | None = None
    for item in items:
        if isinstance(item, str):
            if last is None:
                p.text = safe_text((p.text or "") + item)
            else:
                last.tail = safe_text((last.tail or "") + item)
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
        dropped = [
            twin
            for source, twin in zip(sources, copies, strict=True)
            if source in ctx.drop and isinstance(twin.tag, str)
        ]
        boxes = [twin for twin in dropped if next(twin.iter(*BLOCKISH), None) is not None]
        for twin in dropped:
            twin.tag = REMOVE
        follows: dict[Element, bool] = {}
        for twin in boxes:
            _keep_line_break(twin, ctx.breaks, follows)
        etree.strip_elements(copy, REMOVE, with_tail=False)
    return copy


def _keep_line_break(
    box: Element, breaks: list[Element], memo: dict[Element, bool] | None = None
) -> None:
    """Put a line break before a block box (left out, or empty) where it stands between
    two texts: they showed on two lines ("#Tag", a dropped heading, "5 min read")."""
    follows = _follows_text(box, set(), memo)
    if memo is not None:
        memo[box] = follows
    if follows and _leads_to_text(box, set()):
        br = box.makeelement("br")
        box.addprevious(br)
        breaks.append(br)
        if memo is not None:
            memo[box] = False  # the br before it now ends the text before it


def _settle_breaks(breaks: list[Element], hidden: set[Element]) -> None:
    """Keep a line break put by `_keep_line_break` only where text still runs on both
    sides of it once rebuilt (a layout div beside it may have become a p)."""
    for br in breaks:
        if not (_follows_text(br, hidden) and _leads_to_text(br, hidden)):
            br.tag = REMOVE  # at once: the next one is judged without it


def is_layout_table(table: Element) -> bool:
    """Tell a layout table (flattened) from a data table (kept)."""
    if table.get("role", "").strip().lower() in ("presentation", "none"):
        return True
    if table.find("caption") is not None or table.find("thead") is not None:
        return False
    rows = _table_rows(table)
    if any(tag_of(cell) == "th" for row in rows for cell in row):
        return False
    cells = [cell for row in rows for cell in row if tag_of(cell) == "td"]
    if all(sum(1 for cell in row if tag_of(cell) == "td") <= 1 for row in rows):
        return any(_first_blockish(cell) is not None for cell in cells)
    # Several columns: a table nested in a cell means the grid is page layout.
    return any(next(cell.iterdescendants("table"), None) is not None for cell in cells)


def _table_rows(table: Element) -> list[Element]:
    """Return a table's own rows, directly or in thead/tbody/tfoot."""
    rows = [child for child in table if tag_of(child) == "tr"]
    for section in table:
        if tag_of(section) in ("thead", "tbody", "tfoot"):
            rows.extend(row for row in section if tag_of(row) == "tr")
    return rows


def _is_hidden(el: Element) -> bool:
    """Tell whether the page hides an element (hidden attribute, display:none)."""
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return style is not None and _HIDDEN_STYLE_RE.search(style) is not None


def _first_blockish(el: Element) -> Element | None:
    """Return the first block-like element inside `el`, in document order."""
    # lxml takes ~10 us to set up a filter on this many tags: more than it takes
    # Python to look at the few elements inside a typical inline element or cell.
    for count, node in enumerate(el.iterdescendants()):
        if node.tag in BLOCKISH_TAGS:
            return node
        if count == SCAN_LIMIT:
            return next(el.iterdescendants(*BLOCKISH), None)
    return None


def _finish(raws: list[Element], ctx: _Context) -> list[Block]:
    """Clean all block copies together, then cut them into `Block`s; drop empty ones."""
    holder = ctx.holder  # one tree: each lxml pass runs once per call
    holder.extend(raws)
    _prepare(holder)
    targets = find_targets(holder, ctx.base)  # before the rebuild strips the ids
    unwrap, srcsets_stable = _scrub(holder, ctx)
    etree.strip_elements(holder, REMOVE, with_tail=False)
    part_glued_words(holder)  # before the wrappers that part them are unwrapped
    name_or_unwrap(holder)
    etree.strip_tags(holder, UNWRAP, *unwrap)
    place_targets(holder, targets)
    drop_empty_items(holder)
    mend_structure(holder)
    step_headings(holder)
    _cap_depth(holder)
    roots = list(holder)
    kinds = [tag_of(block) for block in roots]
    verbatim = [
        pre_text(block) if kind == "pre" else None
        for block, kind in zip(roots, kinds, strict=True)
    ]
    keep_pre_newline(holder)
    # The reader check weighs link text against all text: counted here, once, on the
    # cleaned tree, instead of parsing the blocks' HTML again.
    chars = [text_length(block) for block in roots]
    sources = serialise_all(holder, roots)
    linked = [
        sum(text_length(link) for link in block.iter("a")) if "<a" in source else 0
        for block, source in zip(roots, sources, strict=True)
    ]
    flowing = block_texts(holder, roots)
    texts = [text if pre is None else pre for text, pre in zip(flowing, verbatim, strict=True)]
    # The serialisation holds "<img" only as an img tag: text and values escape "<".
    # A heading of zero-width spaces alone reads as a blank one (wcxb-dev 4002).
    kept = [
        index
        for index, (kind, source, text) in enumerate(zip(kinds, sources, texts, strict=True))
        if (text and visible(text)) or kind == "hr" or "<img" in source
    ]
    htmls = Sanitiser(holder, sources, srcsets_stable).clean([sources[index] for index in kept])
    return [
        # positional: keywords cost more
        Block(kinds[index], html, texts[index], chars[index], linked[index])
        for index, html in zip(kept, htmls, strict=True)
    ]


def _prepare(holder: Element) -> None:
    """Remove comments, scripts, media and headings' edit links; resolve picture sources and
    noscript images; part a code block's lines."""
    for heading in holder.iter(*HEADINGS):
        drop_edit_links(heading)
    for figure in holder.iter("figure"):
        image_from_itemid(figure)
    for picture in holder.iter("picture"):
        picture_fallback(picture)
    for pre in holder.iter("pre"):
        break_code_lines(pre)
    raise_note_links(holder)
    for noscript in list(holder.iter("noscript")):
        noscript.tag = UNWRAP if holds_only_images(noscript) else REMOVE
        twin = noscript.getprevious()
        if noscript.tag == UNWRAP and twin is not None and has_image(twin):
            twin.tag = REMOVE
        if noscript.tag == UNWRAP:
            drop_previews(noscript)
    etree.strip_elements(
        holder, etree.Comment, etree.ProcessingInstruction, *REMOVE_TAGS, with_tail=False
    )


def drop_empty_items(holder: Element) -> None:
    """Remove list items, rows, paragraphs and lists that hold nothing to read or see:
    empty bullets, and the spacer a left-out box leaves inside a kept one."""
    # A link or image the rebuild removed leaves its item or row behind; a list
    # or table left empty goes with its block (a block of no text is dropped).
    # readability-even firefox-nightly-blog: a sub-list of links left out of a
    # kept item became a paragraph of blank lines. An empty paragraph between two
    # texts is a line break, which it keeps.
    empty = [
        el
        for el in holder.iter(*EMPTIED_TAGS, *EMPTIED_INLINE_TAGS)
        if not shows_text(el)
        and next(el.iter("img", "hr"), None) is None
        and (el.tag in EMPTIED_TAGS or el.get("id") is None)
    ]
    inline = [el for el in empty if el.tag in EMPTIED_INLINE_TAGS]
    if inline:
        # Unwrapped, not removed: a space inside one still parts the words beside it.
        for el in inline:
            el.tag = UNWRAP
        etree.strip_tags(holder, UNWRAP)
        empty = [el for el in empty if el.tag != UNWRAP]
    for el in empty:
        if el.tag == "p" and _follows_text(el, set()) and _leads_to_text(el, set()):
            el.text = None  # it holds blank text and empty elements only
            for child in list(el):
                el.remove(child)
            el.tag = "br"
        else:
            el.tag = REMOVE
    if empty:
        etree.strip_elements(holder, REMOVE, with_tail=False)  # text after one stays


# What `drop_empty_items` removes when it holds no text and no image; a table's
# cell stays, to keep its columns.
EMPTIED_TAGS = (
    "li", "dt", "dd", "tr", "p", "ul", "ol", "dl", "blockquote", "figcaption", "caption"
)
# ... and the phrasing elements, unless an in-page link's target: an icon font's
# `<i class="fa ...">` left as `<i></i>`, an empty `<strong>`, and a link with no
# text, which a screen reader announces as "link" and nothing more (axe: link-name).
EMPTIED_INLINE_TAGS = (
    "a", "em", "strong", "b", "i", "u", "s", "small", "sub", "sup", "mark", "code", "q",
    "cite", "abbr", "kbd", "samp", "var", "del", "ins", "time",
)


def drop_edit_links(heading: Element) -> None:
    """Mark a heading's edit links and permalink markers for removal: a wiki's "[edit]"
    beside every section title, Sphinx's "¶", rustdoc's "§"."""
    # A permalink shows on hover on the page; in the view it would stand after every
    # title, read aloud as "link, pilcrow". The heading keeps its id for other links.
    for element in heading.iterdescendants(etree.Element):
        if heading_control(element):
            element.tag = REMOVE


def heading_control(element: etree._Element) -> bool:
    """Tell whether an element inside a heading is a control: its edit link, permalink
    marker or link back to the top."""
    return is_edit_link(element) or (
        element.tag == "a" and (is_permalink(element) or _is_top_link(element))
    )


def _is_top_link(anchor: etree._Element) -> bool:
    """Tell whether a link that ends a heading leads back to the page's top."""
    # man7.org's "NAME <a href='#top_of_page'>top</a>" in every heading (wcxb-dev
    # 0688): read aloud "NAME top", and its target is not in the view. A heading that
    # goes on after such a word ("Top ten flags") keeps it.
    label = " ".join(text_content(anchor).lower().split()).strip("[]() ↑^▲")
    return (
        (anchor.get("href") or "").startswith("#")
        and label in _TOP_LABELS
        and anchor.getnext() is None
        and not (anchor.tail or "").strip()
    )


# What a back-to-top link says, its arrow and brackets aside.
_TOP_LABELS = frozenset({"top", "to top", "back to top", "return to top", "go to top", ""})


def is_edit_link(element: etree._Element) -> bool:
    """Tell whether an element inside a heading is its edit link."""
    # Named so by the wiki (MediaWiki's span.mw-editsection holds the link and its
    # brackets), or a link to the wiki's editor ("action=edit") alone.
    names = element.get("class")
    href = element.get("href") if element.tag == "a" else None
    return bool(names and names_any(names, EDIT_LINK_WORDS)) or bool(href and "action=edit" in href)


# Class words of a heading's edit link.
EDIT_LINK_WORDS = frozenset({"editsection", "edit-section", "section-edit", "edit-link"})


def _scrub(holder: Element, ctx: _Context) -> tuple[set[str], bool]:
    """Rebuild the blocks from the allow-list; return the tags left to unwrap, srcset state."""
    # Renaming an lxml element is slow: an element to unwrap mostly keeps its tag,
    # and all of them go in one call by name, with the UNWRAP ones.
    found = _Found()
    found.sort(holder, shift_headings=ctx.shift_headings)
    for link in found.links:
        scrub_link(link, ctx.base)
    stable = [scrub_image(img, ctx.base) for img in found.images]  # every image, in order
    holders: dict[Element, bool] = {}
    below = _with_blocks_below(holder, found.blockish) if found.layout else set()
    hidden = set(found.hidden)
    for el in found.layout:  # in document order: the ancestors are settled first
        _scrub_divlike(el, el in below, holders, hidden, ctx.breaks)
    for el in found.hidden:
        el.tag = REMOVE
    _settle_breaks(ctx.breaks, hidden)
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
            self.blockish = list(holder.iterdescendants(*BLOCKISH))
            left = holder.iterdescendants()
        unwrap = self.unwrap  # the loop runs once per element
        for el in left:
            tag = el.tag
            names = el.keys()  # one lxml call; most elements have neither attribute
            if names and ("style" in names or "hidden" in names) and _is_hidden(el):
                self.hidden.append(el)
                continue
            role = ROLES.get(tag)
            if role == "kept":
                if names:
                    filter_attrs(el, ALLOWED_ATTRS.get(tag, NO_ATTRS), names)
            elif role is None:
                if tag not in unwrap and isinstance(tag, str):
                    self._unknown(el, tag)
            elif role != "skip":
                self._sort_special(el, role, names, shift_headings=shift_headings)

    def _unknown(self, el: Element, tag: str) -> None:
        """Leave an unknown element to unwrap by its tag, or rename it when the tag is odd."""
        # lxml refuses some names the parser lets through (control characters) as
        # arguments: such an element is renamed instead.
        if PLAIN_NAME_RE.fullmatch(tag):
            self.unwrap.add(tag)
        else:
            el.tag = UNWRAP

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
            filter_attrs(el, NO_ATTRS, names)


def _with_blocks_below(holder: Element, blockish: list[Element]) -> set[Element]:
    """Return the elements under `holder` that hold one of the block-like elements."""
    marked: set[Element] = set()
    for block in blockish:
        node = block.getparent()
        while node is not None and node is not holder and node not in marked:
            marked.add(node)
            node = node.getparent()
    return marked


def _scrub_divlike(
    el: Element,
    holds_blocks: bool,
    holders: dict[Element, bool],
    hidden: set[Element],
    breaks: list[Element],
) -> None:
    """Make a layout container inside a block a p, or leave it to unwrap by its tag."""
    if holds_blocks:
        if has_text(el):
            _break_around(el, hidden)
        return
    if not has_text(el):
        # Empty, it is still a block box: the text before it and the text after it
        # show on two lines ("Upcoming Events", an emptied list, "View All").
        _keep_line_break(el, breaks)
        return
    if _allows_paragraph(el, holders):
        el.tag = "p"
        filter_attrs(el, NO_ATTRS)
    elif next(el.iterancestors("pre"), None) is None:
        # Spaces keep its words apart from those beside it once unwrapped; in code,
        # whose every character counts, a line box already ends its line
        # (`break_code_lines`).
        el.text = " " + safe_text(el.text)
        el.tail = " " + safe_text(el.tail)


def _break_around(el: Element, hidden: set[Element]) -> None:
    """Start and end an unwrapped container's line where text runs up to it."""
    # A div is a block box: unwrapped, its words would run into those beside it
    # ("5 stars" + "Trip length" read "starsTrip").
    if _starts_in_text(el, hidden) and _follows_text(el, hidden):
        el.addprevious(el.makeelement("br"))
    if (el.tail or "").strip() and _ends_in_text(el, hidden):
        el.append(el.makeelement("br"))


def _follows_text(
    el: Element, hidden: set[Element], memo: dict[Element, bool] | None = None
) -> bool:
    """Tell whether text runs up to an element: its line does not start with it."""
    # Up through the inline elements it starts ("Written By" in one span, the
    # author's name in a div inside the next span), to the block that holds them.
    node: Element | None = el
    while node is not None:
        previous = node.getprevious()
        while previous is not None:
            if (previous.tail or "").strip():
                return True
            ends = _ends_in_text(previous, hidden)
            if ends is not None:
                return ends
            if memo is not None and previous in memo:
                return memo[previous]
            previous = previous.getprevious()
        parent = node.getparent()
        if parent is None or (parent.text or "").strip():
            return parent is not None
        node = parent if _box(parent, hidden) == "inline" else None
    return False


def _leads_to_text(el: Element, hidden: set[Element]) -> bool:
    """Tell whether text runs on after an element: its line does not end with it."""
    node: Element | None = el
    while node is not None:
        if (node.tail or "").strip():
            return True
        following = node.getnext()
        while following is not None:
            starts = _starts_in_text(following, hidden)
            if starts is not None:
                return starts
            if (following.tail or "").strip():
                return True
            following = following.getnext()
        parent = node.getparent()
        node = parent if parent is not None and _box(parent, hidden) == "inline" else None
    return False


def _ends_in_text(
    el: Element, hidden: set[Element], depth: int = 0, *, max_depth: int = 8
) -> bool | None:
    """Tell whether text ends an element as the rebuild leaves it (False: a block ends it;
    None: it shows no text)."""
    box = _box(el, hidden)
    if box != "inline":
        return None if box == "none" else False
    if depth >= max_depth:  # deeper: whether it has text at all
        return True if has_text(el) else None
    for child in reversed(el):
        if (child.tail or "").strip():
            return True
        ends = _ends_in_text(child, hidden, depth + 1)
        if ends is not None:
            return ends
    return True if (el.text or "").strip() else None


def _starts_in_text(
    el: Element, hidden: set[Element], depth: int = 0, *, max_depth: int = 8
) -> bool | None:
    """Tell whether text starts an element as the rebuild leaves it (False: a block starts
    it; None: it shows no text)."""
    box = _box(el, hidden)
    if box != "inline":
        return None if box == "none" else False
    if (el.text or "").strip():
        return True
    if depth >= max_depth:  # deeper: whether it has text at all
        return True if has_text(el) else None
    for child in el:
        starts = _starts_in_text(child, hidden, depth + 1)
        if starts is not None:
            return starts
        if (child.tail or "").strip():
            return True
    return None


def _box(el: Element, hidden: set[Element]) -> str:
    """Tell how an element shows once rebuilt: "none", a "block", or "inline" (a layout
    container unwrapped shows its content inline too)."""
    tag = el.tag
    if not isinstance(tag, str) or tag in REMOVE_TAGS or tag == REMOVE or el in hidden:
        return "none"
    # A br ends its line as a block does: no second break is needed beside it.
    if tag in ("p", "br") or (tag in BLOCKISH_TAGS and ROLES.get(tag) != "layout"):
        return "block"
    return "inline"


def _allows_paragraph(el: Element, holders: dict[Element, bool]) -> bool:
    """Tell whether the nearest kept ancestor may hold a p; memoise along the way."""
    path: list[Element] = []
    node = el.getparent()
    allowed = True
    while node is not None:
        if node in holders:
            allowed = holders[node]
            break
        tag = tag_of(node)
        if tag in KEPT_TAGS:
            allowed = tag not in PHRASING
            break
        path.append(node)
        node = node.getparent()
    for passed in path:
        holders[passed] = allowed
    return allowed


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


_SETTLE_PLAIN = compiled.pick_or_none("settle_plain")


_ALLOW = compiled.compiled_module("settle_plain")


if _ALLOW is not None:
    _ALLOW.set_tables(ROLES, BLOCKISH_TAGS, GLOBAL_ATTRS.union(*ALLOWED_ATTRS.values()))
