"""The page's chrome: navigation, asides, headers and footers, dialogs and form controls."""

from __future__ import annotations

import re
from itertools import islice
from types import MappingProxyType

from lxml import etree

from addon.core.dom import (
    attribute_values,
    elements_with,
    is_element,
    text_content,
    text_length,
)
from addon.core.heuristics.hiding import (
    drop_all,
    heading_around,
    holding_little,
    holds_article,
    unwrap_all,
)
from addon.core.output.tags import INT_RE

# Page furniture that Plainview's extended variant removes outside <article>.
CHROME = ("nav", "aside", "footer", "header")


# Interactive and embedded elements that a reader view never shows.
CONTROLS = ("input", "select", "textarea", "svg", "iframe", "canvas")


# Controls that label themselves with text; libxml2 nests whole pages inside a
# <button> left open, so one holding more text than a label is unwrapped.
LABELLED_CONTROLS = ("button", "label")


# The roles and flags an overlay announces itself by. A `popover` element (any of
# its states) the browser shows only when a button or script opens it: menus,
# sign-in boxes, an app's install card (wcxb-dev 0546: 47 such elements of 20
# characters or more in the 1,497 pages, one piece of a reference among them, a
# store's trailer viewer).
_OVERLAY_VALUES = MappingProxyType(
    {
        "role": ("dialog", "alertdialog"),
        "aria-modal": ("true",),
        "popover": ("", "auto", "manual", "hint"),
    }
)
# ARIA's landmark roles for the regions CHROME names by element (and the search
# element): a screen reader lists a div that says it is the site's navigation,
# footer, aside or search among the page's landmarks as it lists those. Not
# "banner": pages give it to promotional panels inside the content (wcxb-dev
# 0588's product features: 0.9005 -> 0.8489 with it; even F1 0.85681 -> 0.85705
# with it, 0.85711 without).
_LANDMARK_ROLES = ("navigation", "contentinfo", "complementary", "search")
# Both, found in one walk over the page.
_MARKED_VALUES = MappingProxyType(
    {**_OVERLAY_VALUES, "role": (*_OVERLAY_VALUES["role"], *_LANDMARK_ROLES)}
)


def _is_overlay(element: etree._Element) -> bool:
    """Tell whether a marked element announces itself as an overlay, not a landmark."""
    return element.get("role") in _OVERLAY_VALUES["role"] or any(
        element.get(name) in values for name, values in _OVERLAY_VALUES.items() if name != "role"
    )


def drop_chrome(
    root: etree._Element,
    *,
    max_share: float = 0.3,
    max_label_chars: int = 200,
    signup_max_chars: int = 0,
) -> None:
    """Remove nav/aside/footer/header outside any <article> and all form controls; unwrap forms."""
    if signup_max_chars:
        drop_all(root, signup_boxes(root, max_chars=signup_max_chars))
    # Furniture outside the article, and overlays (cookie banners, newsletter
    # pop-ups), which announce themselves as dialogs.
    marked = elements_with(root, _MARKED_VALUES)
    overlays = [element for element in marked if _is_overlay(element)]
    landmarks = [element for element in marked if not _is_overlay(element)]
    regions = [*root.iter(*CHROME, "dialog", "search"), *landmarks]
    chrome = [
        element
        for element in regions
        if element.tag == "dialog"
        or not (_in_article(element) or holds_article(element) or _heads_section(element))
    ]
    chrome.extend(overlays)
    # The controls go in the same pass: they never count towards the main share.
    drop_all(root, holding_little(chrome, root, max_share=max_share), *CONTROLS)
    drop_all(root, control_glyphs(root))  # before the buttons around them are unwrapped
    drop_labelled_controls(root, max_label_chars=max_label_chars)
    drop_skip_links(root)


def _in_article(element: etree._Element) -> bool:
    """Tell whether a chrome element stands inside an article: the article's own."""
    return next(element.iterancestors("article"), None) is not None


def _heads_section(element: etree._Element, *, max_link_share: float = 0.5) -> bool:
    """Tell whether an element is a section's or the main content's header, not the site's."""
    # A section's own header row: readability-even nytimes-5's band titles
    # ("Opinión", "Especial") over their teasers. A header inside main is no banner
    # (HTML-AAM) unless it is mostly links: sites put their banner and menu there
    # (wcxb-dev 0207), and their article's intro (0126: F1 0.951 -> 0.987). A
    # related box's header elsewhere (ehow-1's "Other People Are Reading") stays chrome.
    # Measured: wcxb-dev F1 even 0.85574 -> 0.85601, odd 0.85463 -> 0.85568
    # (docs/evaluation.md, "A section's header row").
    parent = element.getparent()
    if element.tag != "header" or parent is None:
        return False
    if parent.tag == "section":
        return True
    if next(element.iterancestors("main"), None) is None:
        return False
    text = text_length(element)
    links = sum(text_length(link) for link in element.iter("a"))
    return text > 0 and links <= max_link_share * text


def signup_boxes(root: etree._Element, *, max_chars: int) -> list[etree._Element]:
    """Return the boxes around the forms that ask for an email address or a phone number:
    a newsletter's or an offer's sign-up, its pitch and its small print with it."""
    # A form asking for an address is no part of an article; the words around it
    # ("Be the first to know!", "By signing up, you agree ...") are its box's, up
    # to the widest ancestor of at most `max_chars` of text.
    boxes: list[etree._Element] = []
    # Each ancestor is measured once: the forms of a page share their ancestors.
    too_big: set[etree._Element] = set()
    fits: set[etree._Element] = set()
    for form in root.iter("form"):
        if not any(_asks_address(field) for field in form.iter("input")):
            continue
        box = form
        for up in form.iterancestors():
            if up in too_big or up.tag in _BOX_LIMITS:
                break
            if up not in fits and (_holds_more(up, max_chars) or _holds_h1(up)):
                too_big.add(up)
                break
            fits.add(up)
            box = up
        boxes.append(box)
        boxes.extend(small_print(box, max_chars=max_chars))
    return boxes


# How a sign-up's small print opens: "By entering your email address you agree to ...",
# "By clicking Sign Me Up, you confirm ...", "By submitting my email address. I certify ...".
_SMALL_PRINT = re.compile(
    r"\s*by\s+(?:submitting|signing|subscribing|clicking|entering|providing|registering)\b",
    re.IGNORECASE,
)


def small_print(box: etree._Element, *, max_chars: int) -> list[etree._Element]:
    """Return the sign-up box's siblings that are its small print: the terms its form agrees to."""
    # The box stops below the ancestor of more than `max_chars` of text; its small
    # print may sit beside it there (wcxb-dev 4620's "$25 Off" box, its h6 in the next row).
    parent = box.getparent()
    siblings = [] if parent is None else [one for one in parent if one is not box]
    return [
        one
        for one in siblings
        if is_element(one)
        and text_length(one) <= max_chars
        and _SMALL_PRINT.match(text_content(one))
    ]


def _holds_more(element: etree._Element, max_chars: int) -> bool:
    """Tell whether an element holds more than `max_chars` of text, its white space collapsed."""
    # A template's indentation is no text: wcxb-dev 4640's Elementor box counted 518
    # characters, 180 of them words. The raw length is read first: it is never less.
    if text_length(element) <= max_chars:
        return False
    return len(" ".join(text_content(element).split())) > max_chars


def _holds_h1(element: etree._Element) -> bool:
    """Tell whether an element holds an h1: the page's headline is no sign-up's."""
    return next(element.iter("h1"), None) is not None


def _asks_address(field: etree._Element) -> bool:
    """Tell whether a form field asks for an email address or a phone number."""
    # A shop's quantity field is a "tel" too, for the phone's number pad: a phone
    # field names itself so ("phone", "mobile", "sms") in its name, label or model.
    kind = (field.get("type") or "").strip().lower()
    if kind != "tel":
        return kind == "email"
    said = " ".join(str(value) for name, value in field.items() if name != "type").lower()
    return any(word in said for word in _PHONE_WORDS)


_PHONE_WORDS = ("phone", "mobile", "sms")


# A sign-up box never reaches past these.
_BOX_LIMITS = frozenset({"article", "main", "body", "html"})


# Links into the page itself, and the words a skip link starts with.
_IN_PAGE_LINKS = etree.XPath("//a[starts-with(normalize-space(@href), '#')]")
# Only skips to the page's landmarks: "Jump to Review" in a shopping guide's list
# leads to its own section, and stays (wcxb-dev 4160's reference keeps those). A
# shop's "Skip to product information", "Skip to product list", "Skip to search
# results" (wcxb-dev 0591, 0647, 2925, 2951) name its parts: "skip" is the
# accessibility link's own word.
_SKIP_WORDS = re.compile(
    r"\s*(?:(?:skip|jump)\s+to\s+(?:the\s+)?(?:main\s+|primary\s+)?"
    r"(?:content|navigation|nav|search|menu|footer|sidebar|main|top)|"
    r"skip\s+to\s+(?:product|search|results|reviews?)(?:\s+\w+)?)\s*$",
    re.IGNORECASE,
)


def drop_skip_links(root: etree._Element) -> None:
    """Remove the links that skip to a part of the page ("Jump to navigation"), and the bars
    that hold only such links ("Jump to: navigation, search"): they move the focus within
    the page they serve, and the reader page has its own."""
    found = _IN_PAGE_LINKS(root)
    links = [link for link in found if is_element(link)] if isinstance(found, list) else []
    skips = [link for link in links if _SKIP_WORDS.match(text_content(link))]
    # A wiki's bar names the landmarks in its links, after a "Jump to:" of its own
    # (readability-even wikipedia); its parent holds that text, and the links alone.
    bars = {parent for link in links if (parent := link.getparent()) is not None}
    skips += [bar for bar in bars if _SKIP_BAR.fullmatch(text_content(bar))]
    drop_all(root, skips)


# The whole text of a bar of skip links: "Jump to: navigation, search".
_LANDMARK = r"(?:the\s+)?(?:main\s+)?(?:content|navigation|nav|search|menu|footer|sidebar|top)"
_SKIP_BAR = re.compile(
    rf"\s*(?:skip|jump)\s+to\s*:?\s*{_LANDMARK}(?:\s*(?:,|or|and|\|)\s*{_LANDMARK})*\s*",
    re.IGNORECASE,
)


def control_glyphs(
    root: etree._Element, *, max_size: int = 32, max_depth: int = 3
) -> list[etree._Element]:
    """Return the images of controls: at most `max_size` pixels each way they declare, within
    `max_depth` levels of a button, a summary or an element of role "button"."""
    # An accordion's chevron, alt "Open", once after each question of an FAQ (wcxb-dev
    # 4912, 8 times): the control opens the answer, which the view shows open.
    controls = [*root.iter(*_CONTROL_TAGS), *elements_with(root, _BUTTON_ROLE)]
    images = dict.fromkeys(img for control in controls for img in control.iter("img"))
    return [img for img in images if _small(img, max_size) and _in_control(img, max_depth)]


def _small(img: etree._Element, max_size: int) -> bool:
    """Tell whether an image declares a size, and no dimension over `max_size` pixels."""
    declared = [INT_RE.match(img.get(name) or "") for name in ("width", "height")]
    sizes = [int(match.group(1)) for match in declared if match]
    return bool(sizes) and max(sizes) <= max_size


def _in_control(element: etree._Element, max_depth: int) -> bool:
    """Tell whether one of an element's `max_depth` nearest ancestors is a control."""
    for up in islice(element.iterancestors(), max_depth):
        if up.tag in _CONTROL_TAGS or up.get("role") == "button":
            return True
    return False


# The elements that open or act: a glyph inside one is the control's.
_CONTROL_TAGS = ("button", "summary")
_BUTTON_ROLE = MappingProxyType({"role": ("button",)})


def drop_labelled_controls(root: etree._Element, *, max_label_chars: int = 200) -> None:
    """Remove buttons and labels, unwrapping those that hold more text than a label and
    those that are a heading's text.

    ASP.NET and shop pages wrap the whole page in one <form>: it is unwrapped too.
    """
    labelled = list(root.iter(*LABELLED_CONTROLS))
    wrappers = [element for element in labelled if text_length(element) > max_label_chars]
    wrappers += opening_text(root, [element for element in labelled if names_its_heading(element)])
    unwrap_all(root, wrappers, "form")
    if labelled:
        etree.strip_elements(root, *LABELLED_CONTROLS, with_tail=False)


def names_its_heading(control: etree._Element) -> bool:
    """Tell whether a button is the whole text of the heading around it: an accordion's
    header (WAI-ARIA's pattern, `<h3><button aria-expanded>Question</button></h3>`)."""
    # Its label is the section's title ("1. Who is this program for?"); dropped with
    # the page's other buttons, it left the answers under an empty heading.
    heading = heading_around(control)
    if heading is None:
        return False
    label = " ".join(text_content(control).split())
    return bool(label) and label == " ".join(text_content(heading).split())


def opening_text(root: etree._Element, controls: list[etree._Element]) -> list[etree._Element]:
    """Return the controls whose panels, named in aria-controls, hold text, and those that
    name none."""
    # A question whose answer the page's script loads (an empty panel, gone with the
    # hidden elements by now) would stand alone under its heading. The page's ids are
    # read once, in one compiled walk: a long FAQ names hundreds of panels.
    if not any(control.get("aria-controls") for control in controls):
        return controls
    panels: dict[str, list[etree._Element]] = {}
    for element, ident in attribute_values(root, "id").items():
        panels.setdefault(ident, []).append(element)
    return [
        control
        for control in controls
        if not (named := control.get("aria-controls", "").split())
        or any(text_length(panel) for ident in named for panel in panels.get(ident, ()))
    ]
