"""BlockExtractor: BLE&IE blocks, their text densities, and the site's redundant blocks.

Lin, Chen and Niu, "Combining a Segmentation-Like Approach and a Density-Based Approach
in Content Extraction", Tsinghua Science and Technology 17(3):256-264, 2012. Step 1
cuts the page into BLE&IE blocks (Definition 1, Algorithm 1 DOM2Blocks); Step 2 keeps
the nodes of a block whose text density, and their ancestors' within the block, exceed
a threshold (Formulas 1-3, Algorithm 2); Step 3 removes the blocks that also occur on
other pages of the same site, compared by tree edit distance.

Where the paper leaves a choice open, the reading taken is stated where it is made.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lxml import etree

from addon.core.heuristics.tree import Chosen, lowest_common_ancestor
from addon.core.paper.lines import Line
from addon.core.paper.tree_edit import PostOrder, label_bound, postorder_of, tree_edit_distance

# Algorithm 2: the paper's threshold, with its results balanced between 1.3 and 1.7.
DENSITY_THRESHOLD = 1.5
# Step 3: two blocks are the same block when their tree edit distance is at most this
# share of the larger block's nodes. The share is ours (tuned on wcxb-dev even ids,
# docs/evaluation.md); below one whole edit only identical blocks are the same.
SAME_BLOCK_SHARE = 0.1

# Block-level elements (BLE): HTML 4.01's block-level elements and those that display
# as blocks beside them (lists' items, tables' parts), with HTML5's sectioning and
# grouping elements. Any other element is an inline element (IE), as browsers show
# an unknown element inline.
BLOCK_LEVEL_TAGS = frozenset(
    {
        "html", "body", "address", "article", "aside", "blockquote", "caption", "center",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
        "figure", "footer", "form", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "legend", "li", "main", "menu", "nav", "noframes", "noscript", "ol",
        "p", "pre", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "ul",
    }
)  # fmt: skip
# Definition 1's l: list elements, the lists and their items.
LIST_TAGS = frozenset({"ul", "ol", "dl", "menu", "dir"})
ITEM_TAGS = frozenset({"li", "dt", "dd"})
# Definition 1's t: basic text elements, read as the headings and the text blocks.
BASIC_TEXT_TAGS = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "blockquote", "address"}
)
# Algorithm 1 removes scripts: read as the elements that hold code, not text.
SCRIPT_TAGS = ("script", "style")

Symbol = Literal["IE", "text", "p", "q", "l", "t"]


@dataclass(frozen=True, slots=True)
class TextNode:
    """A text node: an element's text, or (tail) the text after it; whitespace runs as one."""

    element: etree._Element
    tail: bool
    text: str

    @property
    def parent(self) -> etree._Element:
        """Return the element the text node is a child of."""
        parent = self.element.getparent() if self.tail else None
        return self.element if parent is None else parent

    def blank(self) -> None:
        """Remove the text from the page."""
        if self.tail:
            self.element.tail = None
        else:
            self.element.text = None


Node = etree._Element | TextNode


@dataclass(frozen=True, slots=True)
class Shape:
    """The elements of one page that are block-level: by their tag, or inline holding a block."""

    blocks: frozenset[etree._Element]

    def is_ble(self, node: Node) -> bool:
        """Tell whether a node is a block-level element."""
        return not isinstance(node, TextNode) and node in self.blocks


@dataclass(frozen=True, slots=True)
class BleIeBlock:
    """A BLE&IE block (Definition 1): a copy of the BLE `root` holding the children `items`.

    The copy is not made: the block names the parent element and its children it holds.
    """

    root: etree._Element
    items: tuple[Node, ...]


# -- Definition 1 ----------------------------------------------------------------------


def page_shape(root: etree._Element) -> Shape:
    """Find the page's block-level elements: by tag, and inline elements that hold one."""
    # An inline element holding a block displays as a block around it (an <a> around
    # a card): it is read as a BLE, so that an IE is always inline content.
    blocks: set[etree._Element] = set()
    for element in root.iter(etree.Element):
        if element.tag in BLOCK_LEVEL_TAGS:
            blocks.add(element)
            up = element.getparent()
            while up is not None and up not in blocks and up.tag not in BLOCK_LEVEL_TAGS:
                blocks.add(up)
                up = up.getparent()
    return Shape(frozenset(blocks))


def children_of(element: etree._Element) -> list[Node]:
    """Return an element's child nodes: elements, and text that is not only whitespace."""
    nodes: list[Node] = []
    if text := _visible(element.text):
        nodes.append(TextNode(element, False, text))
    for child in element:
        if isinstance(child.tag, str):  # no comment is left after Algorithm 1's first step
            nodes.append(child)
        if tail := _visible(child.tail):
            nodes.append(TextNode(child, True, tail))
    return nodes


def _visible(text: str | None) -> str:
    """Return text with its whitespace runs collapsed to one space and its ends trimmed."""
    return " ".join(text.split()) if text else ""


def symbols_of(node: Node, shape: Shape) -> frozenset[Symbol]:
    """Return the symbols of Definition 1 a child node may stand for (none: it breaks any block).

    p is a BLE whose children are inline elements and text, q one with text only (or
    none), l a list or list item of inline content, t a basic text element of inline
    content; so one BLE may stand for several, and the matcher tries them all.
    """
    if isinstance(node, TextNode):
        return _TEXT
    if node not in shape.blocks:
        return _IE
    children = children_of(node)
    if any(shape.is_ble(child) for child in children):
        return _L if _is_list_of_items(node, children, shape) else _NONE
    symbols: set[Symbol] = {"p"}
    if all(isinstance(child, TextNode) for child in children):
        symbols.add("q")
    if node.tag in LIST_TAGS or node.tag in ITEM_TAGS:
        symbols.add("l")
    if node.tag in BASIC_TEXT_TAGS:
        symbols.add("t")
    return frozenset(symbols)


_TEXT: frozenset[Symbol] = frozenset({"text"})
_IE: frozenset[Symbol] = frozenset({"IE"})
_L: frozenset[Symbol] = frozenset({"l"})
_NONE: frozenset[Symbol] = frozenset()


def _is_list_of_items(element: etree._Element, children: Sequence[Node], shape: Shape) -> bool:
    """Tell whether a list's children are all items of inline content."""
    return element.tag in LIST_TAGS and all(
        not isinstance(child, TextNode)
        and child.tag in ITEM_TAGS
        and not any(shape.is_ble(grandchild) for grandchild in children_of(child))
        for child in children
    )


# Definition 1's pattern (IE|text)* p? q* l* t* as a state machine: state k has read up
# to part k (0: (IE|text)*, 1: p?, 2: q*, 3: l*, 4: t*). A symbol moves to its part's
# state from any state not past it; p, at most once, only from state 0.
_PART: dict[Symbol, int] = {"IE": 0, "text": 0, "p": 1, "q": 2, "l": 3, "t": 4}
_LAST_STATE: dict[Symbol, int] = {"IE": 0, "text": 0, "p": 0, "q": 2, "l": 3, "t": 4}


def matching_prefix(children: Sequence[frozenset[Symbol]]) -> int:
    """Return how many of the first children match Definition 1's pattern (IE|text)* p? q* l* t*."""
    state = 0
    for index, symbols in enumerate(children):
        moves = [_PART[symbol] for symbol in symbols if state <= _LAST_STATE[symbol]]
        if not moves:
            return index
        # The lowest state leaves the most open: every symbol a higher state accepts
        # a lower one accepts too, and a symbol's next state does not depend on the
        # state it leaves. So following the lowest decides as trying every choice.
        state = min(moves)
    return len(children)


# -- Algorithm 1 (DOM2Blocks) ----------------------------------------------------------


def remove_scripts_and_comments(root: etree._Element) -> None:
    """Remove the page's scripts and comments, their tails kept (Algorithm 1, first step)."""
    etree.strip_elements(root, *SCRIPT_TAGS, etree.Comment, etree.ProcessingInstruction,
                         with_tail=False)  # fmt: skip


def indent_attributes(element: etree._Element) -> int:
    """Return an element's tag length with its attributes indented into it (Algorithm 1).

    The tag's length is its name's; each attribute adds its name's and its value's.
    """
    return len(element.tag) + sum(len(name) + len(value) for name, value in element.items())


# A child with its symbols, read once per parent.
_Child = tuple[Node, frozenset[Symbol]]


def dom2blocks(root: etree._Element, shape: Shape) -> list[BleIeBlock]:
    """Cut a page's tree into BLE&IE blocks, in document order (Algorithm 1, DOM2Blocks)."""
    blocks: list[BleIeBlock] = []
    # (parent, its children still to place); last in, first out keeps document order.
    # A loop, not recursion: pages nest deeper than Python's recursion limit.
    work: list[tuple[etree._Element, list[_Child]]] = [(root, _read_children(root, shape))]
    while work:
        parent, children = work.pop()
        kept, cut = cut_right_most_subtrees(children)
        if kept:
            blocks.append(reconstruct_under_parent_copy(parent, kept))
        work.extend(reversed(recurse_on_cut_subtrees(parent, cut, shape)))
    return blocks


def _read_children(element: etree._Element, shape: Shape) -> list[_Child]:
    """Return an element's child nodes with their symbols."""
    return [(child, symbols_of(child, shape)) for child in children_of(element)]


def cut_right_most_subtrees(children: list[_Child]) -> tuple[list[_Child], list[_Child]]:
    """Cut the right-most children that break the pattern: return the rest and the cut.

    The pattern's every part is optional, so whatever a child breaks, the children
    after it cannot mend: the cut runs from the first child that breaks it to the end.
    """
    matched = matching_prefix([symbols for _, symbols in children])
    return children[:matched], children[matched:]


def reconstruct_under_parent_copy(parent: etree._Element, kept: list[_Child]) -> BleIeBlock:
    """Reconstruct the children that match under a copy of their parent: one block."""
    return BleIeBlock(parent, tuple(node for node, _ in kept))


def recurse_on_cut_subtrees(
    parent: etree._Element, cut: list[_Child], shape: Shape
) -> list[tuple[etree._Element, list[_Child]]]:
    """Return the work the cut subtrees give, in document order (Algorithm 1's recursion).

    The first cut child broke the pattern. A BLE that can stand for no symbol (it holds
    blocks) is a tree of its own, cut into blocks in turn; one that broke only the order
    opens the next block. The children after it stay under a copy of their parent.
    """
    if not cut:
        return []
    (first, symbols), rest = cut[0], cut[1:]
    if symbols:  # it broke the order only
        return [(parent, cut)]
    element = first
    if isinstance(element, TextNode):  # text always stands for a symbol
        return [(parent, rest)] if rest else []
    work = [(element, _read_children(element, shape))]
    return [*work, (parent, rest)] if rest else work


# -- Formulas 1-3 ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lengths:
    """A node's tag length TgL (Formula 1) and text length TtL (Formula 2)."""

    tags: int
    text: int


def measure_page(root: etree._Element) -> dict[etree._Element, Lengths]:
    """Return TgL and TtL of every element of the page, over it and its descendants."""
    lengths: dict[etree._Element, Lengths] = {}
    # An element ends after its children: their lengths are known by then.
    for _, element in etree.iterwalk(root, events=("end",), tag=etree.Element):
        tags, text = indent_attributes(element), len(_visible(element.text))
        for child in element:
            if isinstance(child.tag, str):
                below = lengths[child]
                tags, text = tags + below.tags, text + below.text
            text += len(_visible(child.tail))
        lengths[element] = Lengths(tags, text)
    return lengths


def block_lengths(block: BleIeBlock, lengths: dict[etree._Element, Lengths]) -> Lengths:
    """Return TgL and TtL of a block: its root's copy with the children it holds."""
    tags, text = indent_attributes(block.root), 0
    for node in block.items:
        if isinstance(node, TextNode):
            text += len(node.text)
        else:
            tags, text = tags + lengths[node].tags, text + lengths[node].text
    return Lengths(tags, text)


def density(lengths: Lengths) -> float:
    """Return a node's text density rho = TtL / TgL (Formula 3)."""
    # Every element has a tag name, so TgL is never 0 for one.
    return lengths.text / lengths.tags


# -- Algorithm 2 -----------------------------------------------------------------------


def exceeds(value: float, *, threshold: float = DENSITY_THRESHOLD) -> bool:
    """Tell whether a density exceeds the threshold, strictly (Algorithm 2)."""
    return value > threshold


@dataclass(frozen=True, slots=True)
class Candidates:
    """A block's content candidates: the children kept whole, and the BLEs inside them left out."""

    block: BleIeBlock
    kept: tuple[Node, ...]
    dropped: tuple[etree._Element, ...]


def content_candidates(
    block: BleIeBlock,
    lengths: dict[etree._Element, Lengths],
    shape: Shape,
    *,
    threshold: float = DENSITY_THRESHOLD,
) -> Candidates:
    """Find a block's content candidates: nodes whose density and their ancestors' within
    the block exceed the threshold (Algorithm 2).

    Inline elements and text carry no density of their own: they go with their parent.
    """
    if not exceeds(density(block_lengths(block, lengths)), threshold=threshold):
        return Candidates(block, (), ())
    kept: list[Node] = []
    dropped: list[etree._Element] = []
    for node in block.items:
        if isinstance(node, TextNode) or node not in shape.blocks:
            kept.append(node)
        elif exceeds(density(lengths[node]), threshold=threshold):
            kept.append(node)
            dropped += _failing_blocks(node, lengths, shape, threshold=threshold)
    return Candidates(block, tuple(kept), tuple(dropped))


def _failing_blocks(
    element: etree._Element,
    lengths: dict[etree._Element, Lengths],
    shape: Shape,
    *,
    threshold: float,
) -> list[etree._Element]:
    """Return the highest BLEs below a candidate whose density does not exceed the threshold."""
    failing: list[etree._Element] = []
    walker = etree.iterwalk(element, events=("start",), tag=etree.Element)
    for _, node in walker:
        failed = node in shape.blocks and not exceeds(density(lengths[node]), threshold=threshold)
        if failed and node is not element:
            failing.append(node)
            walker.skip_subtree()
    return failing


# -- Step 3: redundancy removal --------------------------------------------------------


def block_tree(block: BleIeBlock) -> PostOrder:
    """Return a block as an ordered labelled tree, numbered in postorder.

    An element's label is its tag with its attributes indented into it (as Algorithm 1
    counts them), a text node's its text: blocks of one template with other text differ.
    """
    root: _TreeNode = block
    return postorder_of(root, _tree_children, _tree_label)


_TreeNode = BleIeBlock | etree._Element | TextNode


def _tree_children(node: _TreeNode) -> Sequence[_TreeNode]:
    """Return a block tree node's children: a block's items, an element's child nodes."""
    if isinstance(node, BleIeBlock):
        return node.items
    return () if isinstance(node, TextNode) else children_of(node)


def _tree_label(node: _TreeNode) -> str:
    """Return a block tree node's label: tag and attributes, or the text."""
    if isinstance(node, TextNode):
        return f"#text {node.text}"
    element = node.root if isinstance(node, BleIeBlock) else node
    attributes = (f"{_str(name)}={_str(value)}" for name, value in element.items())
    return " ".join([element.tag, *attributes])


def _str(value: str | bytes) -> str:
    """Return an attribute's name or value as text (lxml gives HTML's as str already)."""
    return value if isinstance(value, str) else value.decode("utf-8", "replace")


@dataclass(frozen=True, slots=True)
class _Seen:
    """One block of the site's other pages, with what the comparisons ask of it."""

    tree: PostOrder
    bag: Counter[str]


def remove_redundant_blocks(
    blocks: Sequence[BleIeBlock],
    others: Sequence[BleIeBlock],
    *,
    max_share: float = SAME_BLOCK_SHARE,
) -> list[BleIeBlock]:
    """Keep the blocks that occur on no other page of the site (Step 3).

    A block occurs on another page when one of that page's blocks (`others`) is within
    `max_share` of the larger one's nodes in tree edit distance.
    """
    seen = [_Seen(tree, tree.bag()) for tree in map(block_tree, others)]
    keys = {entry.tree.key() for entry in seen}
    seen.sort(key=lambda entry: entry.tree.size)
    sizes = [entry.tree.size for entry in seen]
    return [
        block
        for block in blocks
        if not _occurs(block_tree(block), keys, seen, sizes, max_share=max_share)
    ]


def _occurs(
    tree: PostOrder,
    keys: set[tuple[tuple[str, ...], tuple[int, ...]]],
    seen: Sequence[_Seen],
    sizes: Sequence[int],
    *,
    max_share: float,
) -> bool:
    """Tell whether a block tree is the same block as one seen on the site's other pages."""
    if tree.key() in keys:  # the same block, unchanged: most repeated blocks are
        return True
    # The distance is at least the difference of the sizes: only trees near this size
    # may be within the share, and only when it allows one whole edit.
    low = bisect_left(sizes, tree.size * (1 - max_share))
    high = bisect_right(sizes, tree.size / (1 - max_share)) if max_share < 1 else len(sizes)
    bag = tree.bag()
    for entry in seen[low:high]:
        allowed = max_share * max(tree.size, entry.tree.size)
        if allowed < 1 or label_bound(tree, entry.tree, bag, entry.bag) > allowed:
            continue
        if tree_edit_distance(tree, entry.tree) <= allowed:
            return True
    return False


# -- The three steps -------------------------------------------------------------------


def page_body(root: etree._Element) -> etree._Element:
    """Return the page's body, where its blocks are (the root when it has none)."""
    body = root.find("body")
    return root if body is None else body


def site_blocks(root: etree._Element) -> list[BleIeBlock]:
    """Cut another page of the site into its blocks (Step 1), for Step 3 to compare against."""
    remove_scripts_and_comments(root)
    body = page_body(root)
    return dom2blocks(body, page_shape(body))


def find_content(
    root: etree._Element,
    *,
    threshold: float = DENSITY_THRESHOLD,
    others: Sequence[BleIeBlock] = (),
    max_share: float = SAME_BLOCK_SHARE,
) -> list[Candidates]:
    """Run BlockExtractor on a page: its blocks (Step 1), their content candidates (Step 2),
    without the blocks other pages of the site hold too (Step 3, when `others` are given).

    The page's scripts and comments must be removed already (remove_scripts_and_comments).
    """
    body = page_body(root)
    shape = page_shape(body)
    lengths = measure_page(body)
    found = [
        candidates
        for block in dom2blocks(body, shape)
        if (candidates := content_candidates(block, lengths, shape, threshold=threshold)).kept
    ]
    if not others:
        return found
    unique = remove_redundant_blocks([c.block for c in found], others, max_share=max_share)
    kept = {id(block) for block in unique}
    return [candidates for candidates in found if id(candidates.block) in kept]


# -- What the reader view shows --------------------------------------------------------


def choose_blocks(
    found: Sequence[Candidates], lines: Sequence[Line], headline: etree._Element | None
) -> Chosen:
    """Turn the content candidates into the subtree to show and the elements to leave out.

    The subtree is the candidates' lowest common ancestor; inside it, every element that
    neither is a candidate nor holds one is left out, and every such text is removed from
    the page (the output stage leaves out elements, not text). `lines` are the page's
    block lines: those shown are the reader check's evidence.
    """
    kept = [node for candidates in found for node in candidates.kept]
    if not kept:
        return Chosen([])
    top = lowest_common_ancestor([_element_of(node) for node in kept])
    holders = _holders(kept, top)
    drop = {element for candidates in found for element in candidates.dropped}
    drop |= _leave_out_around(holders, set(kept))
    if headline is not None:
        drop.add(headline)  # the reader view shows it as the title
    shown = _shown(kept, drop)
    return Chosen([top], drop, [index for index, line in enumerate(lines) if line.element in shown])


def _element_of(node: Node) -> etree._Element:
    """Return an element node itself, or a text node's parent."""
    return node.parent if isinstance(node, TextNode) else node


def _holders(kept: Sequence[Node], top: etree._Element) -> set[etree._Element]:
    """Return the elements from `top` down that hold a candidate without being one."""
    holders: set[etree._Element] = set()
    for node in kept:
        if node is top:  # a lone candidate element is its own top: nothing holds it
            continue
        up = node.parent if isinstance(node, TextNode) else node.getparent()
        while up is not None and up not in holders:
            holders.add(up)
            up = None if up is top else up.getparent()
    return holders


def _leave_out_around(holders: set[etree._Element], kept: set[Node]) -> set[etree._Element]:
    """Return the holders' children that neither are candidates nor hold one; remove such
    text from the page."""
    left_out: set[etree._Element] = set()
    for holder in holders:
        for node in children_of(holder):
            if node in kept:
                continue
            if isinstance(node, TextNode):
                node.blank()
            elif node not in holders:
                left_out.add(node)
    return left_out


def _shown(kept: Sequence[Node], drop: set[etree._Element]) -> set[etree._Element]:
    """Return the elements whose text the reader view shows: inside a kept element but not
    a dropped one, or holding kept text."""
    shown: set[etree._Element] = set()
    for node in kept:
        if isinstance(node, TextNode):
            shown.add(node.parent)
            continue
        walker = etree.iterwalk(node, events=("start",), tag=etree.Element)
        for _, element in walker:
            if element in drop:
                walker.skip_subtree()
            else:
                shown.add(element)
    return shown
