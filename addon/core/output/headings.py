"""The article's outline: heading levels decided once, in the output stage.

The reader page's h1 is the headline; sites often start their text at h3,
repeat an h1 or skip levels, which breaks the outline screen readers navigate
by (axe heading-order). While the blocks are built, every heading (inside a
block too) is renumbered one level below the nearest heading before it of a
higher level, the first at h2, so none skips a level and headings of one level
stay siblings; the heading blocks left after the furniture cut are renumbered
alike.

The headline leaves the blocks for the reader page's h1; when the page's
headline was one link (a blog's front page titles its newest post by a link to
the post's own page), the h1 keeps that link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from addon.core.dom import elements_with, text_content
from addon.core.output.tags import BLOCKISH, HEADINGS, Element
from addon.core.output.urls import UrlBase
from addon.core.result import Block

_HEADING_OPEN = re.compile(r"^(\s*<)h([1-6])(?=[\s>/])", re.IGNORECASE)
# A heading's level inside a block's serialised HTML.
_NESTED_LEVEL = re.compile(r"<h([1-6])(?=[\s>/])")


def promote_aria_headings(roots: Sequence[Element], *, default_level: int = 2) -> None:
    """Make each element marked `role="heading"` the heading it announces (its aria-level,
    else `default_level`, ARIA's default), where it stands as a line of its own."""
    # Screen readers list it among the page's headings ("1. Understand your
    # electric bill", an accordion's title); as a paragraph it would leave the
    # reader page's outline. One holding blocks, or set inside a line of text,
    # is no heading of the reader page's.
    for root in roots:
        for element in elements_with(root, _HEADING_ROLE):
            if element.tag in _PROMOTED and _stands_alone(element):
                element.tag = f"h{_aria_level(element.get('aria-level'), default_level)}"
                element.attrib.pop("role", "")
                element.attrib.pop("aria-level", "")


_HEADING_ROLE = {"role": ("heading",)}


# The elements that become the heading they announce: a list item or a cell stays one.
_PROMOTED = frozenset({"div", "p", "span"})


def _stands_alone(element: Element) -> bool:
    """Tell whether an element holds no block and, unless a block itself, shares its
    parent with no text."""
    if next(element.iterdescendants(*BLOCKISH), None) is not None:
        return False
    if element.tag != "span":
        return True
    parent = element.getparent()
    return (
        parent is not None
        and not (parent.text or "").strip()
        and not (element.tail or "").strip()
        and len(parent) == 1
    )


def _aria_level(value: str | None, default: int) -> int:
    """Return an aria-level value as a heading level from 1 to 6."""
    level = int(value) if value is not None and value.strip().isdigit() else default
    return min(max(level, 1), 6)


def step_headings(holder: Element, *, top_level: int = 2) -> None:
    """Renumber the headings under holder as `outline` does the heading blocks: each one level
    below the nearest heading before it of a higher source level, the first at h2."""
    open_levels: list[int] = []
    for heading in holder.iter(*HEADINGS):
        level = nest(open_levels, int(heading.tag[1]), top_level=top_level)
        if level != int(heading.tag[1]):  # renaming an lxml element is slow
            heading.tag = f"h{level}"


def outline(blocks: Sequence[Block], *, top_level: int = 2) -> tuple[Block, ...]:
    """Renumber the heading blocks to start at h2 below the headline and never skip a level."""
    out: list[Block] = []
    open_levels: list[int] = []
    for block in blocks:
        level = heading_level(block)
        if not level:
            # A heading inside a block (a product's title in its list item) opens its
            # section for the heading blocks after it (wcxb-dev 4064).
            for nested in _NESTED_LEVEL.findall(block.html) if "<h" in block.html else ():
                nest(open_levels, int(nested), top_level=top_level)
            out.append(block)
            continue
        stepped = nest(open_levels, level, top_level=top_level)
        if stepped == level and block.kind == f"h{level}":
            out.append(block)
            continue
        out.append(replace(block, kind=f"h{stepped}", html=retag(block.html, stepped)))
    return tuple(out)


def nest(open_levels: list[int], level: int, *, top_level: int = 2) -> int:
    """Return a heading's level in the outline and open it: one below the nearest open
    heading of a higher source level, `top_level` under none (axe heading-order)."""
    # By order, not from the page's highest level: names of a thread's posts at h4
    # before a box at h3 stay siblings (the highest would pull the first to h2 and
    # leave the rest under it), and sections that came in at h3 stay siblings too.
    while open_levels and open_levels[-1] >= level:
        open_levels.pop()
    open_levels.append(level)
    return min(top_level - 1 + len(open_levels), 6)


def heading_level(block: Block) -> int:
    """Return 1-6 for a heading block, 0 for any other."""
    kind = block.kind.lower()
    return int(kind[1]) if len(kind) == 2 and kind[0] == "h" and kind[1] in "123456" else 0


def retag(html: str, level: int) -> str:
    """Change a heading block's element to h<level>, keeping its attributes and content."""
    opened = _HEADING_OPEN.match(html)
    if opened is None:
        return html
    # The first close of the level it opened at is its own (lxml wrote it): a
    # heading holds no heading, and a block may hold the next one beside it.
    close_tag = f"</h{opened.group(2)}>"
    close = html.find(close_tag, opened.end())
    if close < 0:
        return f"{opened.group(1)}h{level}{html[opened.end() :]}"
    end = close + len(close_tag)
    return f"{opened.group(1)}h{level}{html[opened.end() : close]}</h{level}>{html[end:]}"


# Where a headline may lead: a page of the web (a mail or phone link titles no post).
HEADLINE_SCHEMES = frozenset({"http", "https"})


def headline_link(headline: Element, base: UrlBase, *, own_url: str | None = None) -> str | None:
    """Return where the headline leads when one link is its whole text and it leads off the
    page (its URL, or the address it states, `own_url`); else None: the h1 is plain text."""
    words = " ".join(text_content(headline).split())
    inner = [link for link in headline.iter("a") if link.get("href") is not None]
    around = next(headline.iterancestors("a"), None)
    link = (inner[0] if len(inner) == 1 else None) if inner else around
    if link is None or not words or " ".join(text_content(link).split()) != words:
        return None
    href = base.resolve(link.get("href") or "", schemes=HEADLINE_SCHEMES)
    # A link to the page itself leads nowhere new: the reader page is the page. A
    # post's title links to its own address; a forum's topic title to its own path
    # with a session id in the query.
    own = {base.path, _path(base.resolve(own_url or "", schemes=HEADLINE_SCHEMES) or "")}
    if href is None or _path(href) in own:
        return None
    return href


def _path(url: str) -> str:
    """Return a URL without its query and fragment."""
    return url.split("#", 1)[0].split("?", 1)[0]
