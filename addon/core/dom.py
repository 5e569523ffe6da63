"""Element helpers that work on any lxml element."""

from __future__ import annotations

from typing import TypeGuard

from lxml import etree

_STRING_VALUE = etree.XPath("string()", smart_strings=False)


def is_element(node: object) -> TypeGuard[etree._Element]:
    """Return whether an XPath result is an element (not a comment, text or attribute)."""
    return isinstance(node, etree._Element) and isinstance(node.tag, str)


def text_content(element: etree._Element) -> str:
    """Return the element's text with its descendants' (its XPath string-value)."""
    value = _STRING_VALUE(element)
    return value if isinstance(value, str) else ""
