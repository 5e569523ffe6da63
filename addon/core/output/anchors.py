"""In-page targets: the ids the article's own links and headings need, kept through the rebuild.

The allow-list rebuild strips every attribute it does not know, ids among
them, and unwraps wrappers (a Wikipedia heading's id sits on a span inside it,
a footnote's on an empty anchor): tables of contents, footnote references and
heading anchors then went nowhere. The ids that in-content links point at, and
the headings' ids (a link from another page may end in one), are noted before
the rebuild and set again after it, on the element itself or, when it was
unwrapped, on the nearest place that still stands.

The ids keep their value, so links into the page from elsewhere still land;
the reader page's own ids all start with `RESERVED_PREFIX`, and an article id
that starts with it is left out, so the two never clash.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from lxml import etree

from addon.core.dom import is_element
from addon.core.output.tags import HEADINGS, Element
from addon.core.output.urls import LINK_SCHEMES, UrlBase

# The start of every id of the reader page around the article (templates/).
RESERVED_PREFIX = "pv-"


@dataclass(frozen=True, slots=True)
class Target:
    """An id to keep, and where it may stand, best first."""

    ident: str
    # The element itself, its first descendant (where a wrapper's content starts),
    # then its ancestors up to the blocks' holder.
    places: tuple[Element, ...]


def find_targets(holder: Element, base: UrlBase) -> list[Target]:
    """Note the ids the links under holder point at, and the headings' ids, each once."""
    wanted = linked_fragments(holder, base)
    targets: list[Target] = []
    seen: set[str] = set()
    headed = _heading_parts(holder)
    for element in _identified(holder):
        ident = _target_id(element, wanted, headed)
        if ident is None or ident in seen or not usable_id(ident):
            continue
        seen.add(ident)
        targets.append(Target(ident, tuple(_places(element, holder))))
    return targets


def linked_fragments(holder: Element, base: UrlBase) -> set[str]:
    """Return the fragments of the links under holder that point into the page itself."""
    fragments: set[str] = set()
    for href in _hrefs(holder):
        fragment = page_fragment(href, base)
        if fragment:
            fragments.add(fragment)
    return fragments


def page_fragment(href: str, base: UrlBase) -> str:
    """Return the fragment a link into the page itself points at ("#note-1", or the page's
    own URL with one), unescaped; "" for any other link."""
    href = href.strip()
    if href.startswith("#"):
        return unquote(href[1:])
    if "#" not in href or base.document == "":
        return ""
    resolved = base.resolve(href, schemes=LINK_SCHEMES)
    if resolved is None:
        return ""
    document, _, fragment = resolved.partition("#")
    return unquote(fragment) if document == base.document else ""


def usable_id(ident: str) -> bool:
    """Tell whether an id may stand in the reader page: not empty, no space, not reserved."""
    return (
        bool(ident)
        and ident.isprintable()
        and ident.split() == [ident]  # no white space (str.isspace's), in one C call
        and (not ident.startswith(RESERVED_PREFIX))
    )


def place_targets(holder: Element, targets: list[Target]) -> None:
    """Set each noted id on the first of its places still in the blocks and free of an id."""
    for target in targets:
        for place in target.places:
            if place is not holder and place.get("id") is None and _attached(place, holder):
                place.set("id", target.ident)
                break


def _target_id(element: Element, wanted: set[str], headed: set[Element]) -> str | None:
    """Return the id (or an anchor's name) of an element that links or a heading (`headed`:
    the headings and all within them) need."""
    ident = element.get("id")
    if ident is not None and (ident in wanted or element in headed):
        return ident
    name = element.get("name") if element.tag == "a" else None
    return name if name is not None and name in wanted else None


def _heading_parts(holder: Element) -> set[Element]:
    """Return the headings under holder and every element within them."""
    return {part for heading in holder.iter(*HEADINGS) for part in heading.iter(etree.Element)}


def _places(element: Element, holder: Element) -> Iterator[Element]:
    """Yield where an element's id may stand: itself, its first descendant, its ancestors."""
    yield element
    first = next(element.iterdescendants(etree.Element), None)
    if first is not None:
        yield first
    for up in element.iterancestors():
        if up is holder:
            return
        yield up


def _attached(element: Element, holder: Element) -> bool:
    """Tell whether an element still stands under holder (not unwrapped, not removed)."""
    node = element.getparent()
    while node is not None and node is not holder:
        node = node.getparent()
    return node is holder


def _identified(holder: Element) -> list[Element]:
    """Return the elements under holder with an id, and the anchors with a name, in order."""
    return [node for node in _IDENTIFIED(holder) if is_element(node)]  # type: ignore[union-attr]


def _hrefs(holder: Element) -> list[str]:
    """Return the href values of the links under holder."""
    return [str(value) for value in _HREFS(holder)]  # type: ignore[union-attr]


# Elements with an id, and anchors with a name (the older way to mark a target).
_IDENTIFIED = etree.XPath("descendant::*[@id] | descendant::a[@name]")


_HREFS = etree.XPath("descendant::a/@href", smart_strings=False)
