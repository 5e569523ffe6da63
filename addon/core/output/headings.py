"""The article's outline: heading levels decided once, in the output stage.

The reader page's h1 is the headline; sites often start their text at h3,
repeat an h1 or skip levels, which breaks the outline screen readers navigate
by (axe heading-order). While the blocks are built, every heading (inside a
block too) is renumbered from the highest at h2, never skipping a level; the
heading blocks left after the furniture cut are renumbered alike.

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
    """Renumber the headings under holder as `outline` does the heading blocks: the highest at
    h2, none deeper than one below the one before (axe heading-order)."""
    # Relative to the highest: two sections that came in at h3 stay siblings; an
    # absolute start would pull the first up to h2 and leave the next under it.
    headings = list(holder.iter(*HEADINGS))
    top = min((int(heading.tag[1]) for heading in headings), default=top_level)
    previous = top_level - 1
    for heading in headings:
        level = min(int(heading.tag[1]) - top + top_level, previous + 1, 6)
        if level != int(heading.tag[1]):  # renaming an lxml element is slow
            heading.tag = f"h{level}"
        previous = level


def outline(blocks: Sequence[Block], *, top_level: int = 2) -> tuple[Block, ...]:
    """Renumber the heading blocks to start at h2 below the headline and never skip a level."""
    levels = [heading_level(block) for block in blocks]
    top = min((level for level in levels if level), default=top_level)
    out: list[Block] = []
    previous = top_level - 1
    for block, level in zip(blocks, levels, strict=True):
        if not level:
            out.append(block)
            continue
        # The outline's top moves to h2; a deeper jump is capped at one level.
        previous = min(level - top + top_level, previous + 1, 6)
        if previous == level and block.kind == f"h{level}":
            out.append(block)
            continue
        out.append(replace(block, kind=f"h{previous}", html=retag(block.html, previous)))
    return tuple(out)


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
