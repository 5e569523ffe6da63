"""Mend the structure that cleaning leaves invalid: lists, term lists, empty headings and
header cells; make what scrolls focusable.

A list item or a link taken out can leave a list holding bare text ("by" before
a dropped author link), a list nested straight in a list (as some pages write
it), a term list with no terms (a wiki's indentation), or a heading with no
words (an icon without a name). Screen readers announce such markup wrongly,
and axe-core flags it (`list`, `definition-list`, `empty-heading`).
"""

from __future__ import annotations

from addon.core.output.tags import BLOCKISH, HEADINGS, Element, has_text, safe_text

LISTS = ("ul", "ol")


# What scrolls sideways in the reader page (plainview.css: code, wide tables).
SCROLLERS = ("pre", "table")


def mend_structure(holder: Element) -> None:
    """Make every list hold items only, unfold term lists without terms, list the terms of
    those without descriptions, unwrap headings and make data cells of header cells that
    say nothing, and let the keyboard reach what scrolls."""
    # WCAG 2.1.1: a region that scrolls must be reachable by keyboard to be
    # scrolled (axe-core: scrollable-region-focusable); the page's own value goes.
    for scroller in holder.iter(*SCROLLERS):
        scroller.set("tabindex", "0")
    for term_list in list(holder.iter("dl")):
        if term_list.find("dt") is None:
            unfold_term_list(term_list)
        elif term_list.find("dd") is None:
            _list_terms(term_list)
    for items in list(holder.iter(*LISTS)):
        mend_list(items)
    for heading in list(holder.iter(*HEADINGS)):
        if not _names_anything(heading):
            unwrap(heading)
    # A comparison table's empty corner heads nothing (axe-core: empty-table-header).
    for cell in holder.iter("th"):
        if not _names_anything(cell):
            cell.tag = "td"


def _names_anything(element: Element) -> bool:
    """Tell whether an element has words, or an image with a name, to say."""
    return has_text(element) or bool(element.xpath(".//img[normalize-space(@alt)]"))


def mend_list(items: Element) -> None:
    """Put what a list holds outside its items into items: after an item, into it."""
    children = list(items)
    first = next((i for i, child in enumerate(children) if child.tag == "li"), None)
    if first is None and not children:
        items.tag = "p"  # bare words ("by", its author link gone): a paragraph
        return
    # Wrapped, not unwrapped: a list is a block of its own, which a repeated run
    # or a reader's eye takes whole ("REQUIRED", "LINUX", the requirements).
    first = len(children) if first is None else first
    if (items.text or "").strip() or first:
        item = items.makeelement("li")
        item.text, items.text = safe_text(items.text), None
        item.extend(children[:first])
        items.insert(0, item)
    for child in list(items):
        if child.tag != "li" and isinstance(child.tag, str):
            previous = child.getprevious()
            assert previous is not None  # the first child is an item now
            # The space between them goes in too: "2015</a> <a>2" must not run together.
            gap, previous.tail = previous.tail, None
            _end_with(previous, gap)
            previous.append(child)
    for child in items:
        _take_tail(child)


def _holds_blocks(element: Element) -> bool:
    """Tell whether an element holds a block-like element."""
    return next(element.iterdescendants(*BLOCKISH), None) is not None


def _take_tail(item: Element) -> None:
    """Move the text after an item into it, at its end."""
    tail = item.tail
    if not tail or not tail.strip():
        return
    item.tail = None
    _end_with(item, tail)


def _end_with(element: Element, text: str | None) -> None:
    """Add text at the end of an element's content."""
    if not text:
        return
    if len(element):
        element[-1].tail = safe_text((element[-1].tail or "") + text)
    else:
        element.text = safe_text((element.text or "") + text)


def _list_terms(term_list: Element) -> None:
    """Make a term list without descriptions a list of its terms."""
    # wcxb-dev 4498's "Details", its values (links) left out; 0661's class signatures
    # with empty descriptions. Paragraphs would read as labels to the furniture steps:
    # 4043's "Related Topics:" would end the article there.
    term_list.tag = "ul"
    for term in term_list.iterchildren("dt"):
        term.tag = "li"


def unfold_term_list(term_list: Element) -> None:
    """Turn a term list without terms (a wiki's indented lines) into its descriptions:
    each a paragraph, or its blocks when it holds some."""
    for description in list(term_list.iterchildren("dd")):
        if _holds_blocks(description):
            _paragraphs_around(description)
            unwrap(description)
        else:
            description.tag = "p"
    _paragraphs_around(term_list)
    unwrap(term_list)


def _paragraphs_around(element: Element) -> None:
    """Put the words an element holds beside its children into paragraphs: unwrapped
    among blocks, they would stand in none."""
    if (element.text or "").strip():
        paragraph = element.makeelement("p")
        paragraph.text, element.text = safe_text(element.text), None
        element.insert(0, paragraph)
    for child in list(element):
        if (child.tail or "").strip():
            paragraph = element.makeelement("p")
            paragraph.text, child.tail = safe_text(child.tail), None
            child.addnext(paragraph)


def unwrap(element: Element) -> None:
    """Replace an element by its content, in place; its id goes to its first child."""
    parent = element.getparent()
    if parent is None:
        return
    ident = element.get("id")
    if ident and len(element) and element[0].get("id") is None:
        element[0].set("id", ident)
    previous = element.getprevious()
    _append_text(parent, previous, element.text)
    children = list(element)
    index = parent.index(element)
    tail = element.tail
    parent.remove(element)  # its tail goes with it: put back below
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    _append_text(parent, children[-1] if children else previous, tail)


def _append_text(parent: Element, before: Element | None, text: str | None) -> None:
    """Add text after `before` (a child of parent), or at the start of parent."""
    if not text:
        return
    if before is not None:
        before.tail = safe_text((before.tail or "") + text)
    else:
        parent.text = safe_text((parent.text or "") + text)
