"""What a page never shows.

Scripts and styles, hidden elements, noscript fallbacks, React's streamed
parts; and the helpers that drop elements.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

import lxml.html
from lxml import etree

from addon.core.dom import (
    attribute_values,
    elements_valued,
    hidden_elements,
    is_element,
    text_content,
    text_length,
    unlink_all,
)
from addon.core.output.images import holds_only_images
from addon.core.output.tags import BLOCKISH, HEADINGS, PLAIN_NAME_RE, safe_text
from addon.core.output.text import space_icons

# Elements that never hold reader content (thesis §4.3.1: scripts, styles,
# comments; plus their modern relatives).
NEVER_CONTENT = (
    "script",
    "style",
    "template",
    "link",
    "meta",
    "base",
    "head",
    "object",
    "applet",
    "frameset",
    "frame",
    "noembed",
    "title",
)


# Sentinel tag: elements renamed to it are unwrapped in one C call.
_UNWRAP = "x-plainview-unwrap"


UNKNOWN_VOIDS = ("embed", "param", "source", "track", "wbr", "keygen")


def drop_non_content(
    root: etree._Element,
    *,
    noscript_min_chars: int = 200,
    max_drop_share: float = 0.5,
    unvoiced_max_link_share: float | None = None,
    disclosed_max_link_share: float | None = None,
    place_streamed: bool = False,
    tooltips: bool = False,
    templates: bool = True,
) -> tuple[Formula, ...]:
    """Remove scripts, styles, templates, hidden elements (with `tooltips`, a tooltip's box
    too) and empty noscripts in place; flatten formulas, returning their MathML
    (`flatten_math`). Without `templates` (the page holds no "{{"), unfilled template
    expressions are not looked for."""
    # Streamed parts find their slots among the hidden elements: the templates
    # go with those, in the same pass over the tree.
    never = _NEVER_CONTENT_BUT_SLOTS if place_streamed else NEVER_CONTENT
    etree.strip_elements(root, *never, with_tail=False)
    # libxml2 does not know <embed>, <param> and <source> as empty elements and
    # nests the following text inside them: keep the text, drop the tags.
    etree.strip_tags(root, *UNKNOWN_VOIDS)
    formulas = flatten_math(root)
    unwrap_noscript(root, min_chars=noscript_min_chars)
    if templates:
        drop_all(root, unrendered_templates(root))
    drop_hidden(
        root,
        max_share=max_drop_share,
        unvoiced_max_link_share=unvoiced_max_link_share,
        disclosed_max_link_share=disclosed_max_link_share,
        place_streamed=place_streamed,
        tooltips=tooltips,
    )
    return formulas


def unrendered_templates(root: etree._Element) -> list[etree._Element]:
    """Return the elements whose whole text is a template's expression, left for a script
    to fill: "{{ DiscussionBoard.errors[11803168].message }}"."""
    # AngularJS hides such elements (`ng-cloak`) until it has filled them; the page as
    # served shows the raw expression (wcxb-dev 0526: under each of 21 replies; 4219's
    # "{{priceAnchor.priceWrapper.info.totalPrice}}"). Code quoting a template stays.
    found = _TEMPLATE_TEXT(root)
    holders = [one for one in found if is_element(one)] if isinstance(found, list) else []
    return [
        element
        for element in holders
        if element.tag not in _CODE_TAGS
        and _TEMPLATE_ONLY.fullmatch(text_content(element))
        and next(element.iterancestors(*_CODE_TAGS), None) is None
    ]


# The elements whose own text opens a template's expression, and a text that is nothing else.
_TEMPLATE_TEXT = etree.XPath("//*[text()[contains(., '{{')]]")
_TEMPLATE_ONLY = re.compile(r"\s*(?:\{\{[^{}]*\}\}\s*)+")
# Where a template's expression is quoted, not left unfilled.
_CODE_TAGS = ("pre", "code", "kbd", "samp")


def drop_classed_hidden(
    root: etree._Element, values: set[str], *, max_share: float = 0.5
) -> None:
    """Remove the elements of these class or id values, which a platform's style sheet always
    hides (`HIDING_CLASSES`), unless one holds more than `max_share` of the page's text."""
    # Webflow's `w-condition-invisible` (wcxb-dev 4606's unused audio player).
    drop_all(root, holding_little(owners_of(root, values), root, max_share=max_share))


# The role of a box shown on hover or focus only.
_TOOLTIP = frozenset({"tooltip"})


# React's streaming renderer sends a page's late parts as `<div hidden id="S:n">`
# at the end of the body, and a script moves each into its slot of the same
# number, a `<template id="B:n">` (a suspended boundary) or `<template id="P:n">`.
_SEGMENT_PREFIX = "S:"


_SLOT_PREFIXES = ("B:", "P:")


# What drop_non_content() strips first while streamed parts still need their slots.
_NEVER_CONTENT_BUT_SLOTS = tuple(tag for tag in NEVER_CONTENT if tag != "template")


def place_streamed_segments(hidden: list[etree._Element]) -> set[etree._Element]:
    """Move the streamed `<div hidden id="S:n">` among `hidden` into their slots; return those."""
    # The browser shows these parts where their slot stands, often the article
    # itself; left at the end of the body they are dropped as hidden, or read
    # out of order when they hold most of the page.
    segments = [
        element
        for element in hidden
        if element.tag == "div" and element.get("id", "").startswith(_SEGMENT_PREFIX)
    ]
    if not segments:
        return set()
    root = segments[0].getroottree().getroot()
    slots = {
        ident: template
        for template in root.iter("template")
        if (ident := template.get("id", ""))[:2] in _SLOT_PREFIXES
    }
    placed = set()
    for segment in segments:
        slot = _slot(slots, segment.get("id", "")[2:])
        if slot is None or slot.getparent() is None or segment in slot.iterancestors():
            continue
        _move_before(segment, slot)
        segment.attrib.pop("hidden", "")
        placed.add(segment)
    return placed


def _slot(slots: dict[str, etree._Element], number: str) -> etree._Element | None:
    """Return the boundary or placeholder slot of a segment's number."""
    # The page's script pairs each segment with the slot of its number (all 174
    # `$RC`/`$RS` calls on the even pages do); the scripts are gone by now.
    for ident in (f"B:{number}", f"P:{number}"):
        if (slot := slots.get(ident)) is not None:
            return slot
    return None


def _move_before(element: etree._Element, anchor: etree._Element) -> None:
    """Move an element before `anchor`, leaving its tail text where it stood."""
    tail, element.tail = safe_text(element.tail), None
    if tail:
        before, parent = element.getprevious(), element.getparent()
        if before is not None:
            before.tail = safe_text(before.tail) + tail
        elif parent is not None:
            parent.text = safe_text(parent.text) + tail
    anchor.addprevious(element)


def drop_unless_main(
    elements: list[etree._Element], root: etree._Element, *, max_share: float
) -> None:
    """Drop each element unless it holds more than `max_share` of the page's text.

    Pages that reveal their content with script hide it in the markup, and
    libxml2 (an HTML4 parser) sometimes nests a whole page inside a <header>
    left open; dropping such an element would empty the page.
    """
    drop_all(root, holding_little(elements, root, max_share=max_share))


def holding_little(
    elements: list[etree._Element], root: etree._Element, *, max_share: float
) -> list[etree._Element]:
    """Return the elements that hold at most `max_share` of the page's text."""
    if not elements:
        return []
    limit = max_share * text_length(root)
    return [
        element
        for element in elements
        if element.getparent() is not None and text_length(element) <= limit
    ]


def drop_all(root: etree._Element, elements: Iterable[etree._Element], *also: str) -> None:
    """Remove the elements (and those tagged `also`) with their content, keeping tails."""
    # Unlinked in C: renamed and stripped, they cost a walk over the whole page
    # and one over each of their subtrees (docs/performance.md, "Eleventh round").
    unlink_all(root, list(elements))
    if also:
        etree.strip_elements(root, *also, with_tail=False)


def unwrap_all(root: etree._Element, elements: Iterable[etree._Element], *also: str) -> None:
    """Remove the elements' tags (and tags named `also`), keeping their content."""
    names = _renamed(elements, _UNWRAP, also)
    if names:
        etree.strip_tags(root, *names)


def _renamed(elements: Iterable[etree._Element], sentinel: str, also: Iterable[str]) -> set[str]:
    """Rename the elements to a sentinel tag; return the tag names one lxml call then strips."""
    names = set(also)
    for element in elements:
        element.tag = sentinel
        names.add(sentinel)
    return names


@dataclass(frozen=True, slots=True)
class Formula:
    """A MathML formula twice: as the page's tree now holds it, flat, and as the page wrote it."""

    flat: etree._Element
    mathml: etree._Element


def flatten_math(root: etree._Element) -> tuple[Formula, ...]:
    """Keep a MathML formula's text, its powers and indices as sup and sub, and drop its
    other tags (mi, mo, mrow, ...); return each formula's MathML, for the output stage."""
    # A tag per symbol: DANAg reads a formula as code and leaves the page's
    # equations out (readability-even mathjax: no article at all). Annotations
    # repeat the formula as TeX (or as markup: annotation-xml), shown by no browser.
    formulas: list[Formula] = []
    for math in list(root.iter("math")):
        etree.strip_elements(math, "annotation", "annotation-xml", with_tail=False)
        mathml = copy.deepcopy(math)
        for script in list(math.iter(*_SCRIPTS)):
            for child, tag in zip(list(script)[1:], _SCRIPTS[script.tag], strict=False):
                _wrap(child, tag)
        etree.strip_tags(math, *_unwrapped_tags(math))
        formulas.append(Formula(math, mathml))
    return tuple(formulas)


def restore_formulas(formulas: Iterable[Formula], drop: Container[etree._Element]) -> None:
    """Put each formula's MathML back where its flat text stands, unless a part is dropped."""
    # Flat, "x = (-b ± sqrt(b²-4ac)) / 2a" reads "x=−b±b2−4ac2a"; as MathML the
    # browser lays out its fraction and root, and a screen reader reads it as math.
    for formula in formulas:
        flat = formula.flat
        parent = flat.getparent()
        if parent is None or any(element in drop for element in flat.iter()):
            continue
        formula.mathml.tail = safe_text(flat.tail)  # lxml refuses a control character
        parent.replace(flat, formula.mathml)


def _unwrapped_tags(math: etree._Element) -> set[object]:
    """Return the tags of a formula's elements other than sup and sub, for one strip_tags;
    an element of a name lxml refuses as an argument is renamed to the sentinel."""
    # The parser lets in names with control characters ("<b\x03"), which lxml takes
    # as an element's tag but not as a name to strip by.
    tags: set[object] = {_UNWRAP}
    for element in math.iterdescendants():
        tag = element.tag
        if tag in ("sup", "sub"):
            continue
        if isinstance(tag, str) and not PLAIN_NAME_RE.fullmatch(tag):
            element.tag = _UNWRAP
        else:
            tags.add(tag)
    return tags


# MathML's scripts, and the HTML elements their scripts become, in child order.
_SCRIPTS = {"msup": ("sup",), "msub": ("sub",), "msubsup": ("sub", "sup")}


def _wrap(element: etree._Element, tag: str) -> None:
    """Put an element inside a new element `tag`, where it stood (its tail outside)."""
    wrapper = etree.Element(tag)
    wrapper.tail, element.tail = safe_text(element.tail), None
    element.addprevious(wrapper)
    wrapper.append(element)


def unwrap_noscript(root: etree._Element, *, min_chars: int = 200) -> None:
    """Keep a `<noscript>` that holds real text (some forums put posts there), drop the rest."""
    noscripts = list(root.iter("noscript"))
    if not noscripts:
        return
    for noscript in noscripts:
        parse_escaped_markup(noscript)
    unwrap_all(
        root,
        [element for element in noscripts if len(text_content(element).strip()) >= min_chars],
    )
    # A lazy image's full-size fallback (after the preview its script replaces)
    # stays for the output stage, which shows it instead (output/images.py); a
    # tracking pixel alone in a noscript goes.
    for noscript in root.iter("noscript"):
        if not (holds_only_images(noscript) and _after_an_image(noscript)):
            noscript.tag = _DROPPED_NOSCRIPT
    etree.strip_elements(root, _DROPPED_NOSCRIPT, with_tail=False)


def parse_escaped_markup(noscript: etree._Element) -> None:
    """Turn a noscript's markup stored as text into elements: its tags are no words."""
    # A page saved from a browser running scripts holds each noscript's content
    # as text ("<div class=...>" escaped); shown, it reads as markup.
    text = noscript.text
    if len(noscript) or not text or _ESCAPED_TAG.search(text) is None:
        return
    # lxml's fragment parser refuses the control characters the page's parser kept.
    parsed = lxml.html.fragment_fromstring(safe_text(text), create_parent="div")
    noscript.text = parsed.text
    noscript.extend(list(parsed))


def _after_an_image(noscript: etree._Element) -> bool:
    """Tell whether the element right before a noscript is an image or holds one."""
    before = noscript.getprevious()
    return before is not None and next(before.iter("img"), None) is not None


# A noscript left out: renamed, then removed with the others in one pass.
_DROPPED_NOSCRIPT = "x-plainview-noscript"


# A start or end tag written out as text.
_ESCAPED_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")


def drop_hidden(
    root: etree._Element,
    *,
    max_share: float = 0.5,
    unvoiced_max_link_share: float | None = None,
    disclosed_max_link_share: float | None = None,
    place_streamed: bool = False,
    tooltips: bool = False,
) -> None:
    """Remove elements the page hides from every reader (`hidden`, `display:none`; with
    `tooltips`, `role="tooltip"`, shown on hover or focus only)."""
    # With `place_streamed`, React's streamed parts first move into their slots
    # (see place_streamed_segments) and the slots, templates, go with the hidden.
    # Elements marked only aria-hidden go too, unless `unvoiced_max_link_share`
    # is given: then only those whose text is more than that share link text.
    found = hidden_elements(root)
    # `hidden="until-found"` folds what find-in-page opens (MediaWiki's mobile
    # sections after the lead): content, shown whole as a closed panel is.
    hidden = [element for element in found.flagged if not _until_found(element)]
    for element in found.flagged:
        if _until_found(element):
            del element.attrib["hidden"]  # the output stage leaves hidden elements out
    shown = place_streamed_segments(hidden) if place_streamed else set()
    if shown:
        hidden = [element for element in hidden if element not in shown]
    hidden.extend(found.styled)
    if tooltips:
        # An author's or editor's card, a term's definition (wcxb-dev 0334: "Countries
        # Visited: 63", "Edited by"), shown while the pointer rests on a name. By the
        # role, not the class word "tooltip", which names the badge that opens one too
        # (a shop's "B Corp", "Budget friendly": even .85889 -> .85909 but odd .85754
        # -> .85738, 2947 0.74 -> 0.56).
        hidden.extend(elements_valued(root, ("role",), _TOOLTIP))
    if disclosed_max_link_share is not None:
        hidden = closed_panels_dropped(root, hidden, max_link_share=disclosed_max_link_share)
    unvoiced = found.unvoiced
    if unvoiced_max_link_share is not None:
        seen = set(hidden)
        twins = spoken_twins(unvoiced)
        unvoiced = [
            element
            for element in unvoiced
            if element not in seen
            and (element in twins or not keeps_unvoiced(element, unvoiced_max_link_share))
        ]
    hidden.extend(unvoiced)
    minor = holding_little(
        [element for element in hidden if element.tag not in ("html", "body")],
        root,
        max_share=max_share,
    )
    # Icons are aria-hidden: those kept lose their class and go later, empty.
    space_icons([*minor, *found.unvoiced])  # their glyphs stood between words
    drop_all(root, minor, *(("template",) if place_streamed else ()))
    if disclosed_max_link_share is not None:
        label_tab_panels(root)
        embolden_summaries(root)


def embolden_summaries(root: etree._Element) -> None:
    """Set the text of each `<summary>` that holds no block in bold: the title of the
    details the reader view shows open, as an accordion's button is."""
    # Renamed and wrapped, not rebuilt: lxml refuses to store text holding control
    # characters that its parser let in, and moving an element moves its text too.
    for summary in list(root.iter("summary")):
        if (
            (len(summary) or (summary.text or "").strip())
            and not (summary.tail or "").strip()
            and next(summary.iterdescendants(*BLOCKISH), None) is None
        ):
            holder = summary.makeelement("summary")
            summary.addprevious(holder)
            summary.tag = "strong"
            summary.attrib.clear()
            holder.append(summary)


def label_tab_panels(root: etree._Element) -> None:
    """Move each tab's label to the head of the panel it shows, as a bold line."""
    # A row of tabs ("Windows", "macOS", "Linux") names panels the reader view shows
    # one after another: left in its row, the names read as a run of words and the
    # panels as three sets of steps for no one knows which system.
    tabs = {
        ident: found
        for ident, controls in _controllers(root).items()
        if (found := [control for control in controls if control.get("role") == "tab"])
    }
    if not tabs:
        return
    panels: dict[str, list[etree._Element]] = {}
    for element, ident in attribute_values(root, "id").items():
        if ident in tabs:
            panels.setdefault(ident, []).append(element)
    moved = []
    for ident, named in panels.items():
        label = " ".join(text_content(tabs[ident][0]).split())
        if label and len(named) == 1 and text_length(named[0]) and _has_parent(named[0]):
            _head_with(named[0], label)
            moved.extend(tabs[ident])
    if moved:  # the unlinking walks the whole page
        drop_all(root, moved)


def _has_parent(element: etree._Element) -> bool:
    """Tell whether an element stands under another (not the page's root)."""
    return element.getparent() is not None


def _head_with(panel: etree._Element, label: str) -> None:
    """Put a bold line of text right before an element."""
    line = etree.Element("p")
    etree.SubElement(line, "strong").text = safe_text(label)
    panel.addprevious(line)


def closed_panels_dropped(
    root: etree._Element, hidden: list[etree._Element], *, max_link_share: float
) -> list[etree._Element]:
    """Return the hidden elements less the closed panels of the page's disclosure widgets,
    which it reveals, their buttons' labels kept as text."""
    # An accordion's answer or a closed tab is hidden until its button, which names
    # it in aria-controls, is pressed; a reader view, having nothing to press,
    # shows it. A menu opened the same way is all links, and goes.
    controllers = _controllers(root)
    if not controllers:
        return hidden
    dropped = []
    for element in hidden:
        buttons = controllers.get(element.get("id", ""))
        if buttons and _holds_answer(element, max_link_share):
            reveal(element, buttons)
        else:
            dropped.append(element)
    return dropped


def _holds_answer(panel: etree._Element, max_link_share: float) -> bool:
    """Tell whether a closed panel holds prose: not a menu, nor empty or "Loading..."
    until the page's script fills it."""
    return (
        text_length(panel) > 0
        and keeps_unvoiced(panel, max_link_share)
        and not is_loading_placeholder(panel)
    )


def _controllers(root: etree._Element) -> dict[str, list[etree._Element]]:
    """Map each id that an aria-controls names to the elements naming it."""
    found: dict[str, list[etree._Element]] = {}
    for element, value in attribute_values(root, "aria-controls").items():
        for ident in value.split():
            found.setdefault(ident, []).append(element)
    return found


def is_loading_placeholder(element: etree._Element) -> bool:
    """Tell whether an element's text only says it is loading ("Loading prices...")."""
    # The page's script fills such a panel when it opens; its words are no content.
    return _LOADING.fullmatch(text_content(element).strip()) is not None


_LOADING = re.compile(r"loading\b[^.\u2026]{0,60}(?:\u2026|\.\.\.)", re.IGNORECASE)


def reveal(panel: etree._Element, buttons: list[etree._Element]) -> None:
    """Take off what hides a panel (its `hidden` attribute, its style) and keep the label
    of each button that opens it as text, bold unless a heading holds it."""
    # The output stage leaves hidden elements out again; no style reaches the reader.
    panel.attrib.pop("hidden", "")
    panel.attrib.pop("style", "")
    # An accordion's button names its answer ("What is injury protection?"); left a
    # button, it would go with the page's controls. Outside a heading it stays the
    # title it looked like, in bold. Tabs are moved to their panels (label_tab_panels).
    for button in buttons:
        if button.get("role") != "tab" and button.tag in _OPENERS:
            button.tag = "span" if heading_around(button) is not None else "strong"
            for name in _OPENER_ATTRIBUTES:
                button.attrib.pop(name, "")


def heading_around(element: etree._Element, *, max_depth: int = 2) -> etree._Element | None:
    """Return the heading (h1-h6, or one by its role) that holds an element within
    `max_depth` levels, or None."""
    for up in islice(element.iterancestors(), max_depth):
        if up.tag in HEADINGS or up.get("role") == "heading":
            return up
    return None


# The elements a disclosure's opener is (a link without a page to lead to, or a
# button), and the attributes that make it one.
_OPENERS = ("button", "a")


_OPENER_ATTRIBUTES = ("role", "href", "aria-controls", "aria-expanded", "tabindex")


def keeps_unvoiced(element: etree._Element, max_link_share: float) -> bool:
    """Tell whether an `aria-hidden` element holds prose rather than links."""
    # aria-hidden hides from screen readers, not from the eye: closed tabs,
    # accordion answers and carousel slides carry it, and a reader view, having
    # nothing to click, shows them all. Mobile menus carry it too: all links.
    text = text_length(element)
    if not text:
        return not is_second_link(element)
    if text_content(element).isspace():
        return not is_rendering_twin(element)
    links = sum(text_length(anchor) for anchor in element.iter("a"))
    return links <= max_link_share * text


def _until_found(element: etree._Element) -> bool:
    """Tell whether an element is hidden only until the browser's find-in-page finds it."""
    return (element.get("hidden") or "").strip().lower() == "until-found"


def spoken_twins(
    unvoiced: Iterable[etree._Element], *, max_chars: int = 2000
) -> set[etree._Element]:
    """Return the aria-hidden elements that show the eye, once or more, the very words a
    sibling gives screen readers: copies drawn for the eye."""
    # wcxb-dev 2834: an h1 animated word by word, for mobile and for desktop, beside
    # a visually hidden span with the sentence; the view read the sentence three
    # times, the copies' words glued. A ticker's copies after its first run (0589)
    # and a price drawn beside its spoken twin (Amazon's, 0655) are alike. Without
    # such a sibling the element stays (a carousel's slide). Copies and twins are
    # short (up to `max_chars`); each parent's short voiced texts are read once.
    hidden = set(unvoiced)
    voiced: dict[etree._Element, frozenset[str]] = {}
    twins: set[etree._Element] = set()
    for element in hidden:
        parent = element.getparent()
        if parent is None or not 0 < text_length(element) <= max_chars:
            continue
        if parent not in voiced:
            voiced[parent] = _short_voiced_texts(parent, hidden, max_chars)
        shown = _squeezed(element)
        if shown and any(unit in voiced[parent] for unit in _repeated_units(shown)):
            twins.add(element)
    return twins


def _short_voiced_texts(
    parent: etree._Element, hidden: Container[etree._Element], max_chars: int
) -> frozenset[str]:
    """Return the texts, spaces aside, of a parent's voiced children of up to MAX_CHARS."""
    return frozenset(
        _squeezed(child)
        for child in parent.iterchildren(etree.Element)
        if 0 < text_length(child) <= max_chars and child not in hidden and _voices(child)
    )


def _squeezed(element: etree._Element) -> str:
    """Return an element's text without white space: copies are spaced as they are drawn."""
    return "".join(text_content(element).split())


def _repeated_units(text: str) -> Iterator[str]:
    """Yield every string that, repeated a whole number of times, is TEXT (TEXT itself last)."""
    # The shortest is the text's smallest period where the text is a repetition, found
    # where the text first recurs in itself doubled; the others are its multiples.
    period = (text + text).find(text, 1)
    repeats = len(text) // period
    for times in range(1, repeats + 1):
        if repeats % times == 0:
            yield text[: period * times]


def is_second_link(element: etree._Element) -> bool:
    """Tell a link the page takes out of the keyboard's way as well as the screen reader's,
    holding only decorative images: a second way to where a link beside it leads."""
    # readability-even nytimes-5: each teaser's thumbnail, `<a aria-hidden="true"
    # tabindex="-1"><img alt=""></a>`, the small copy of the photo its figure shows.
    return (
        element.tag == "a"
        and (element.get("tabindex") or "").strip() == "-1"
        and all(not (image.get("alt") or "").strip() for image in element.iter("img"))
    )


def _voices(sibling: etree._Element) -> bool:
    """Tell whether a sibling of an aria-hidden element is one the view keeps with its words:
    not a link and holding none (a link line may be left out)."""
    # wcxb-dev 0695: a button's label drawn aria-hidden, its voiced twin a visually
    # hidden span in a link beside it; both went, the label lost.
    return next(sibling.iter("a"), None) is None


# What an aria-hidden element without text may still show the eye.
MEDIA_TAGS = ("img", "picture", "video", "audio", "canvas", "iframe", "object", "embed")


def is_rendering_twin(element: etree._Element, *, min_elements: int = 10) -> bool:
    """Tell whether a textless aria-hidden element is markup drawing what screen readers
    read elsewhere: many elements, no text, no image."""
    # MathJax's CHTML beside its MathML: a tag per glyph, whose code drowns the
    # equations for DANAg (readability-even mathjax: no article, word F1 0 -> 0.95).
    # An icon is a few elements (odd wcxb 0029 lost FAQ questions when they went:
    # 0.8496 -> 0.8496 but that page 0.015 lower); an image is what the eye sees.
    if next(element.iter(*MEDIA_TAGS), None) is not None:
        return False
    return sum(1 for _ in islice(element.iterdescendants(), min_elements)) >= min_elements


# Elements never dropped for their class or id: the page and its main content.
NOT_FURNITURE = ("html", "body", "article", "main")


# The attributes whose values name furniture, in the order their elements are listed.
NAMING = ("class", "id")


def owners_of(root: etree._Element, values: set[str]) -> list[etree._Element]:
    """Return the elements a class, then an id, of the values names: each once, never the page."""
    owners = elements_valued(root, NAMING, values) if values else []
    return [element for element in owners if element.tag not in NOT_FURNITURE]


def holds_article(element: etree._Element) -> bool:
    """Tell whether a chrome element wraps the article itself (some sites do)."""
    return next(element.iterdescendants("article", "main", "h1"), None) is not None
