"""Element helpers that work on any lxml element."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TypeGuard

from lxml import etree

from addon.core import compiled

_STRING_VALUE = etree.XPath("string()", smart_strings=False)


def is_element(node: object) -> TypeGuard[etree._Element]:
    """Return whether an XPath result is an element (not a comment, text or attribute)."""
    return isinstance(node, etree._Element) and isinstance(node.tag, str)


def text_content(element: etree._Element) -> str:
    """Return the element's text with its descendants' (its XPath string-value)."""
    value = _STRING_VALUE(element)
    return value if isinstance(value, str) else ""


def is_permalink(anchor: etree._Element) -> bool:
    """Tell whether an anchor is a heading's permalink marker ("¶", "§", "#")."""
    href = anchor.get("href") or ""
    return href.startswith("#") and text_content(anchor).strip() in PERMALINK_TEXTS


# The text of a permalink marker: a symbol, or none (an icon font's glyph).
PERMALINK_TEXTS = frozenset({"", "¶", "#", "§", "🔗", "⚓"})


def text_length(element: etree._Element) -> int:
    """Return len(text_content(element)), counted without building the text when compiled."""
    if _TEXT_LENGTH is not None:
        return _TEXT_LENGTH(element)
    return len(text_content(element))


def attribute_values(root: etree._Element, name: str) -> dict[etree._Element, str]:
    """Map each element under root (root too) that has attribute `name` to its value.

    In document order: what `//*/@name` finds from the page's root, each value
    with its element.
    """
    if _ATTRIBUTE_VALUES is not None:
        return _ATTRIBUTE_VALUES(root, name)
    return walk_attribute_values(root, name)


def attribute_value_set(root: etree._Element, names: tuple[str, ...]) -> set[str]:
    """Return the distinct values of the attributes `names` under root (root too)."""
    if _ATTRIBUTE_VALUE_SET is not None:
        return _ATTRIBUTE_VALUE_SET(root, names)
    return {value for name in names for value in walk_attribute_values(root, name).values()}


def elements_holding(root: etree._Element, tag: str, name: str, word: str) -> list[etree._Element]:
    """Return the `tag` elements under root (root too) whose attribute `name` holds `word`.

    `word` is lowercase ASCII letters, found in any case; in document order.
    """
    if _ELEMENTS_HOLDING is not None:
        return _ELEMENTS_HOLDING(root, tag, name, word)
    return walk_elements_holding(root, tag, name, word)


def unlink_all(root: etree._Element, elements: list[etree._Element]) -> None:
    """Remove the elements under root with their content, each tail left where it stood."""
    if _UNLINK_ALL is not None:
        _UNLINK_ALL(root, elements)
    else:
        walk_unlink_all(root, elements)


def elements_valued(
    root: etree._Element, names: tuple[str, ...], values: Collection[str]
) -> list[etree._Element]:
    """Return the elements whose attribute names[0] has one of the values, in document
    order, then those of names[1] not listed yet, and so on: each element once."""
    if _ELEMENTS_VALUED is not None:
        return _ELEMENTS_VALUED(root, names, values)
    named = (walk_attribute_values(root, name).items() for name in names)
    return list(
        dict.fromkeys(element for each in named for element, value in each if value in values)
    )


def elements_with(
    root: etree._Element, wanted: Mapping[str, Collection[str]]
) -> list[etree._Element]:
    """Return the elements under root (root too) whose attribute, of those `wanted` names,
    has one of its values there: in document order, each element once."""
    if _ELEMENTS_WITH is not None:
        return _ELEMENTS_WITH(root, dict(wanted))
    return walk_elements_with(root, wanted)


def walk_elements_with(
    root: etree._Element, wanted: Mapping[str, Collection[str]]
) -> list[etree._Element]:
    """Find what `elements_with` finds, walking lxml's elements (the reference)."""
    return [
        element
        for element in root.iter(etree.Element)
        if any(element.get(name) in values for name, values in wanted.items())
    ]


@dataclass(frozen=True, slots=True)
class Hidden:
    """The elements a page hides by their attributes, each list in document order."""

    flagged: list[etree._Element]  # a `hidden` attribute
    styled: list[etree._Element]  # a style that sets display:none
    unvoiced: list[etree._Element]  # aria-hidden="true"


def hidden_elements(root: etree._Element) -> Hidden:
    """Find the elements under root (root too) hidden by `hidden`, display:none or aria-hidden."""
    if _HIDDEN_ELEMENTS is not None:
        return Hidden(*_HIDDEN_ELEMENTS(root))
    return walk_hidden_elements(root)


def walk_hidden_elements(root: etree._Element) -> Hidden:
    """Find what `hidden_elements` finds, walking lxml's elements (the reference)."""
    styles = walk_attribute_values(root, "style")
    unvoiced = walk_attribute_values(root, "aria-hidden")
    return Hidden(
        list(walk_attribute_values(root, "hidden")),
        [element for element, style in styles.items() if hides(style)],
        [element for element, value in unvoiced.items() if value == "true"],
    )


# translate(@style, 'DISPLAYNOE ', 'displaynoe') in XPath: those capitals lowered, spaces gone.
_DISPLAY_FOLD = str.maketrans("DISPLAYNOE", "displaynoe", " ")


def hides(style: str) -> bool:
    """Tell whether a style attribute sets display:none (spaces and those capitals aside)."""
    # str.translate() maps in Python, character by character: first rule out,
    # with C-speed calls, the styles whose lowercase holds no display:none.
    return "display:none" in style.replace(" ", "").lower() and (
        "display:none" in style.translate(_DISPLAY_FOLD)
    )


def walk_attribute_values(root: etree._Element, name: str) -> dict[etree._Element, str]:
    """Find the attribute as `attribute_values` does, walking lxml's elements (the reference)."""
    return {
        element: value
        for element in root.iter(etree.Element)
        if (value := element.get(name)) is not None
    }


def walk_elements_holding(
    root: etree._Element, tag: str, name: str, word: str
) -> list[etree._Element]:
    """Find the elements as `elements_holding` does, walking lxml's elements (the reference)."""
    # Only the word's own capitals are lowered: other characters never match it.
    fold = str.maketrans(word.upper(), word)
    return [
        element
        for element, value in walk_attribute_values(root, name).items()
        if element.tag == tag and word in value.translate(fold)
    ]


def walk_unlink_all(root: etree._Element, elements: list[etree._Element]) -> None:
    """Remove the elements as `unlink_all` does, by lxml's strip (the reference)."""
    # lxml's drop_tree() joins text in Python and raises on the control
    # characters libxml2 accepted; strip_elements joins them inside libxml2.
    if not elements:
        return
    for element in elements:
        if element is not root:
            element.tag = _UNLINKED
    etree.strip_elements(root, _UNLINKED, with_tail=False)


_UNLINKED = "x-plainview-unlinked"  # a name no page uses: only the renamed elements have it


# The compiled twins of the queries above (addon/core/_dom.pyx), where they were built.
_E = etree._Element
_Elements = list[etree._Element]
_TEXT_LENGTH: Callable[[_E], int] | None = compiled.pick_or_none("text_length")
_ATTRIBUTE_VALUES: Callable[[_E, str], dict[_E, str]] | None = compiled.pick_or_none(
    "attribute_values"
)
_ATTRIBUTE_VALUE_SET: Callable[[_E, tuple[str, ...]], set[str]] | None = compiled.pick_or_none(
    "attribute_value_set"
)
_ELEMENTS_VALUED: Callable[[_E, tuple[str, ...], Collection[str]], _Elements] | None = (
    compiled.pick_or_none("elements_valued")
)
_ELEMENTS_WITH: Callable[[_E, dict[str, Collection[str]]], _Elements] | None = (
    compiled.pick_or_none("elements_with")
)
_HIDDEN_ELEMENTS: Callable[[_E], tuple[_Elements, _Elements, _Elements]] | None = (
    compiled.pick_or_none("hidden_elements")
)
_ELEMENTS_HOLDING: Callable[[_E, str, str, str], _Elements] | None = compiled.pick_or_none(
    "elements_holding"
)
_UNLINK_ALL: Callable[[_E, _Elements], None] | None = compiled.pick_or_none("unlink_all")
