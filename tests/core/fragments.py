"""Trees the content-stage tests build from HTML fragments."""

from __future__ import annotations

import copy

from lxml import etree

from addon.core.heuristics.parse import parse


def body_of(markup: str) -> etree._Element:
    """Parse a page, or a fragment of one, as extract does; return its body."""
    root = parse(f"<html><body>{markup}</body></html>")
    assert root is not None
    body = root.find("body")
    assert body is not None
    return body


def holder_of(markup: str) -> etree._Element:
    """Hold copies of a fragment's blocks in a fresh tree, as the content stage does."""
    holder = etree.Element("div")
    holder.extend(copy.deepcopy(block) for block in body_of(markup))
    return holder
