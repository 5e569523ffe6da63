"""Line normalisation: one line per block-level element (thesis §4.3.1, §4.6.1)."""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement


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
