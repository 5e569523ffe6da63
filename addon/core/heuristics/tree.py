"""From selected lines back to DOM subtrees: what the reader view shows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from addon.core.paper.danag import Selection
from addon.core.paper.lines import BLOCK_TAGS, Line
from addon.core.paper.titlefinder import HEADING_TAGS, Headline
from addon.core.params import ExtendParams

# A subtree this high in the page is a layout wrapper, not an article.
LAYOUT_TAGS = frozenset({"html", "body"})


@dataclass(frozen=True, slots=True)
class Chosen:
    """The subtrees to show, the elements inside them to leave out, and the kept lines."""

    top: list[etree._Element]
    drop: set[etree._Element] = field(default_factory=set)
    lines: list[int] = field(default_factory=list)
    # The kept lines the reader check counts as the article's (None: all of `lines`).
    # Without a headline element, lines kept only for standing inside the subtree
    # are not evidence of an article: listings and shop grids fill their subtree.
    evidence: list[int] | None = None


def choose_content(
    lines: Sequence[Line], selection: Selection, headline: Headline | None, extend: ExtendParams
) -> Chosen:
    """Turn DANAg's selected lines (and, extended, the headline) into subtrees to show."""
    selected = selection.selected
    if not selected and extend.fallback_all_text:
        selected = [i for i, line in enumerate(lines) if line.t1 > 0]
    max_link_share = extend.max_link_share
    if link_share(lines, selected) > extend.listing_min_link_share:
        max_link_share = 1.0  # a listing: its links are the content
    spare = extend.spare_permalink_headings
    kept = [i for i in selected if not _link_dense(lines[i], max_link_share, spare=spare)]
    if not kept:
        return Chosen([])
    top = lowest_common_ancestor([lines[i].element for i in kept])
    inside: set[etree._Element] | None = None  # the line elements `top` holds, once known
    if extend.enclose_headline and headline is not None and headline.element is not None:
        top, inside = _headline_subtree(
            lines, selection, headline.element, top, kept=kept, extend=extend
        )
        inside = inside if inside is not None else _line_owners_within(top)
        kept = _lines_within(lines, inside, max_link_share, spare=spare)
        if extend.drop_before_headline:
            kept = _after(lines, kept, headline.element)
    evidence: list[int] | None = None
    if inside is None:
        inside = _line_owners_within(top)
        if extend.keep_unselected_within:
            evidence, kept = kept, _lines_within(lines, inside, max_link_share, spare=spare)
    drop = _unkept_elements(lines, kept, top, inside)
    if headline is not None and headline.element is not None:
        drop.add(headline.element)
    return Chosen([top], drop, kept, evidence)


def _headline_subtree(
    lines: Sequence[Line],
    selection: Selection,
    headline: etree._Element,
    top: etree._Element,
    *,
    kept: Sequence[int],
    extend: ExtendParams,
) -> tuple[etree._Element, set[etree._Element] | None]:
    """Enclose the headline with the main region, or with all kept lines when that is too little.

    Return the subtree, with its line elements when they were gathered on the way.
    """
    wide = _enclose_headline(top, headline, lines, selection)
    if not (extend.enclose_main_region_only and selection.regions):
        return wide, None
    main = max(selection.regions, key=lambda region: region.content)
    region_top = lowest_common_ancestor([lines[i].element for i in range(main.start, main.end + 1)])
    narrow = _enclose_headline(region_top, headline, lines, selection)
    inside = _line_owners_within(narrow)
    held = sum(lines[i].t1 for i in kept if lines[i].element in inside)
    if held < extend.min_main_share * sum(lines[i].t1 for i in kept):
        return wide, None
    return narrow, inside


def link_share(lines: Sequence[Line], selected: Sequence[int]) -> float:
    """Return the share of the selected lines' text that is link text."""
    chars = sum(len(lines[i].text) for i in selected)
    return sum(lines[i].link_chars for i in selected) / chars if chars else 0.0


def _link_dense(line: Line, max_share: float, *, spare: bool = False) -> bool:
    """Tell whether a line's text is mostly link text (share above `max_share`)."""
    if max_share >= 1.0 or line.t1 <= 0 or line.link_chars <= max_share * len(line.text):
        return False
    return not (spare and is_permalink_heading(line))


def is_permalink_heading(line: Line) -> bool:
    """Tell whether a line is a heading whose every link points at the heading itself."""
    # Documentation and blogs link each section heading to its own anchor (a
    # permalink to share): the link leads nowhere else, the heading is content.
    # Headings linking to other sections are a table of contents, not content.
    if line.tag not in HEADING_TAGS:
        return False
    heading = line.element
    hrefs = [(anchor.get("href") or "").strip() for anchor in heading.iter("a")]
    if not hrefs or not all(href.startswith("#") and len(href) > 1 for href in hrefs):
        return False
    own = _own_anchors(heading)
    return all(href[1:] in own for href in hrefs)


def _own_anchors(heading: etree._Element) -> set[str]:
    """Return the ids and anchor names a heading carries, itself, inside, or on its parent."""
    parent = heading.getparent()
    marked = [*heading.iter(), *([parent] if parent is not None else [])]
    return {value for el in marked for value in (el.get("id"), el.get("name")) if value}


def _enclose_headline(
    top: etree._Element, headline: etree._Element, lines: Sequence[Line], selection: Selection
) -> etree._Element:
    """Widen the subtree to hold the headline too, unless that means a layout wrapper."""
    enclosing = lowest_common_ancestor([top, headline])
    if enclosing.tag in LAYOUT_TAGS:
        return top
    return enclosing


def _after(lines: Sequence[Line], kept: list[int], headline: etree._Element) -> list[int]:
    """Keep only the lines from the headline's line on."""
    first = line_of(lines, headline)
    return kept if first is None else [index for index in kept if index > first]


def _lines_within(
    lines: Sequence[Line], inside: set[etree._Element], max_share: float, *, spare: bool = False
) -> list[int]:
    """Return the indices of the non-link-dense lines whose elements are in `inside`."""
    within = [index for index, line in enumerate(lines) if line.element in inside]
    if max_share >= 1.0:  # no line is link-dense: no test per line
        return within
    return [index for index in within if not _link_dense(lines[index], max_share, spare=spare)]


def _unkept_elements(
    lines: Sequence[Line], kept: Iterable[int], top: etree._Element, inside: set[etree._Element]
) -> set[etree._Element]:
    """Return the line elements in `inside` (those of `top`) that hold no kept line at all."""
    holding: set[etree._Element] = set()
    for index in kept:
        element: etree._Element | None = lines[index].element
        while element is not None and element not in holding:
            holding.add(element)
            element = element.getparent()
    return {
        line.element
        for line in lines
        if line.element in inside and line.element not in holding and line.element is not top
    }


def _line_owners_within(top: etree._Element) -> set[etree._Element]:
    """Return `top` and the block elements inside it: every line element `top` holds."""
    # A line belongs to a block element or to the walk's root, which is `top`
    # itself when it is inside `top`; skipping inline elements saves most proxies.
    inside = set(top.iter(*BLOCK_TAGS))
    inside.add(top)
    return inside


def lowest_common_ancestor(elements: Sequence[etree._Element]) -> etree._Element:
    """Return the deepest element that contains all of `elements` (or is one of them)."""
    chain = list(_ancestors(elements[0]))[::-1]  # root first
    depth = {element: index for index, element in enumerate(chain)}
    deepest = len(chain) - 1
    # Elements share most of their ancestors: a walk up stops at a node an earlier
    # walk passed, as that walk already counted where its path meets the chain.
    passed: set[etree._Element] = set()
    for element in elements[1:]:
        node: etree._Element | None = element
        while node is not None and node not in depth and node not in passed:
            passed.add(node)
            node = node.getparent()
        if node is not None and node in depth:
            deepest = min(deepest, depth[node])
            if not deepest:  # the root: no element can lift it higher
                break
    return chain[deepest]


def line_of(lines: Sequence[Line], element: etree._Element) -> int | None:
    """Return the index of the first line that maps to `element` or lies inside it."""
    inside = set(element.iter())
    for index, line in enumerate(lines):
        if line.element in inside:
            return index
    return None


def _ancestors(element: etree._Element) -> Iterable[etree._Element]:
    """Yield the element and its ancestors, innermost first."""
    node: etree._Element | None = element
    while node is not None:
        yield node
        node = node.getparent()

