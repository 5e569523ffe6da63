"""The output's vocabulary.

Which tags and attributes a reader block may hold, how the walk treats each
tag, and the checks of attribute values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

Element = etree._Element


# Sentinel tags: elements renamed to these are unwrapped / removed in one C call.
UNWRAP = "x-plainview-unwrap"


REMOVE = "x-plainview-remove"


def tag_set(names: str) -> frozenset[str]:
    """Return a set of tag names written as one space-separated string."""
    return frozenset(names.split())


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


# Blocks the reader shows, emitted one `Block` each when met in a container.
BLOCK_TAGS = frozenset(
    {*HEADINGS, "p", "ul", "ol", "menu", "dl", "table", "pre", "blockquote", "figure", "hr"}
)


# Layout containers: flattened in the walk; inside a block, unwrapped or made a p.
_DIVLIKE = tag_set(
    "html body div section article main header footer aside nav form fieldset legend"
    " address center hgroup details summary search"
)


# Met outside their table or figure, these are flattened like layout containers.
CONTAINER_TAGS = _DIVLIKE | tag_set("figcaption caption thead tbody tfoot tr td th")


# Removed with their content: scripts, styles, embeds, media players, form controls.
# Not embed, source, track, wbr, keygen: libxml2 does not know they are void and
# puts what follows them inside them, so they are unwrapped like unknown tags.
REMOVE_TAGS = tag_set(
    "script style template svg iframe frame frameset object applet param canvas"
    " audio video map area input button select textarea option optgroup datalist output"
    " progress meter head title meta link base dialog colgroup col noembed noframes portal"
    " annotation annotation-xml"  # a formula's source (TeX) or markup, shown by no browser
)


INLINE_TAGS = tag_set(
    "a em strong b i code kbd samp var sub sup small mark abbr q cite time br s del ins u img"
)


# HTML's phrasing elements: a browser runs their text on with the text around them.
RUN_IN_TAGS = INLINE_TAGS | tag_set("span font label bdi bdo dfn data wbr")


_STRUCTURE_TAGS = tag_set(
    "p h2 h3 h4 h5 h6 ul ol li dl dt dd table caption thead tbody tfoot tr th td pre"
    " blockquote figure figcaption hr"
)


# MathML Core's elements (and menclose), for the formulas preprocessing set aside
# (heuristics/hiding.py, `restore_formulas`); not its annotations, which may hold markup.
MATH_TAGS = tag_set(
    "math semantics mrow mi mo mn ms mtext mspace msqrt mroot mfrac msup msub msubsup"
    " munder mover munderover mmultiscripts mprescripts none mtable mtr mtd mstyle mpadded"
    " mphantom merror menclose"
)


# The output allow-list; h1 is absent because the reader page owns the only h1.
ALLOWED_TAGS = INLINE_TAGS | _STRUCTURE_TAGS | MATH_TAGS


# Kept elements inside which a p may not stand (a layout div there is unwrapped).
PHRASING = INLINE_TAGS | frozenset({*HEADINGS, "p", "pre", "dt", "caption"})


# Anything of these inside an inline element makes it a container, not inline text.
BLOCKISH = tuple(BLOCK_TAGS | CONTAINER_TAGS | {"li", "dt", "dd"})


BLOCKISH_TAGS = frozenset(BLOCKISH)


SCAN_LIMIT = 32  # elements looked at in Python before a block-like search moves to lxml


_ITEM_TAGS = frozenset({"li", "dt", "dd"})


# Tags the allow-list rebuild keeps (some renamed): what a layout container's
# ancestors are once settled; any other tag is unwrapped or removed.
KEPT_TAGS = ALLOWED_TAGS | frozenset({*HEADINGS, "menu"})


GLOBAL_ATTRS = frozenset({"dir", "lang"})


ALLOWED_ATTRS: dict[str, frozenset[str]] = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "alt", "width", "height", "srcset"}),
    "abbr": frozenset({"title"}),
    "time": frozenset({"datetime"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan", "scope"}),
    "ol": frozenset({"start"}),
    # Set to 0 on every one by output/structure.py: they scroll sideways (plainview.css).
    "pre": frozenset({"tabindex"}),
    "table": frozenset({"tabindex"}),
    # A formula's layout: shown as a block or in the line, its letters' style, its
    # operators' and accents' forms, a binomial's fraction bar of no thickness.
    "math": frozenset({"display", "alttext"}),
    **dict.fromkeys(("mi", "mn", "ms", "mtext"), frozenset({"mathvariant"})),
    "mo": tag_set(
        "mathvariant form stretchy fence separator accent largeop movablelimits symmetric"
    ),
    "mstyle": frozenset({"mathvariant", "displaystyle", "scriptlevel"}),
    **dict.fromkeys(("mover", "munder", "munderover"), frozenset({"accent", "accentunder"})),
    "mfrac": frozenset({"linethickness"}),
}


NO_ATTRS: frozenset[str] = frozenset()


# What lxml refuses in text and attributes, though libxml2 may have parsed it.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


INT_RE = re.compile(r"\s*(-?\d{1,7})")


_LANG_RE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


# How the walk treats each tag it knows: later entries win, as in their order of tests.
WALK_KINDS = {
    **dict.fromkeys(_ITEM_TAGS, "item"),
    **dict.fromkeys(CONTAINER_TAGS, "container"),
    **dict.fromkeys(BLOCK_TAGS, "block"),
    "table": "table",
    "noscript": "noscript",
    **dict.fromkeys(REMOVE_TAGS, "skip"),
    **dict.fromkeys((etree.Comment, etree.ProcessingInstruction, etree.Entity), "skip"),
}


# How the allow-list rebuild treats each tag it knows; any other tag is unwrapped.
ROLES = {
    **dict.fromkeys(ALLOWED_TAGS, "kept"),
    **dict.fromkeys(HEADINGS, "heading"),
    **dict.fromkeys(_DIVLIKE, "layout"),
    "menu": "menu",
    "a": "link",
    "img": "image",
    UNWRAP: "skip",
    REMOVE: "skip",
}


# Tag names lxml takes as arguments, to unwrap all elements of one unknown tag at once.
PLAIN_NAME_RE = re.compile(r"[a-z][a-z0-9-]*")


def text_of(el: Element) -> str:
    """Return the text inside an element, without its tail."""
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def has_text(el: Element) -> bool:
    """Tell whether an element holds text other than whitespace."""
    # Most elements that have text start with it: then no serialisation is needed.
    text = el.text
    if text and not text.isspace():
        return True
    if not len(el):
        return False
    text = text_of(el)
    return bool(text) and not text.isspace()


def shows_text(el: Element) -> bool:
    """Tell whether an element holds text a reader sees or hears: not whitespace, nor the
    invisible characters pages space their paragraphs with (zero-width joiner and kin)."""
    text = el.text
    if text and _VISIBLE_RE.search(text):
        return True
    if not len(el):
        return False
    return _VISIBLE_RE.search(text_of(el)) is not None


def visible(text: str) -> bool:
    """Tell whether a text shows anything: more than whitespace and invisible characters."""
    return _VISIBLE_RE.search(text) is not None


# A character other than whitespace and the invisible format characters: soft hyphen,
# zero-width space, non-joiner and joiner, the left-to-right and right-to-left marks,
# word joiner, byte order mark. Inside text they still join or hyphenate (an emoji
# family is three emoji joined by U+200D); alone they show nothing.
_VISIBLE_RE = re.compile(r"[^\s\u00ad\u200b-\u200f\u2060\ufeff]")


def safe_text(text: str | None) -> str:
    """Return text without the control characters lxml refuses to store ("" for None)."""
    if not text:
        return ""
    return CONTROL_RE.sub("", text) if CONTROL_RE.search(text) else text


def tag_of(el: Element | None) -> str:
    """Return an element's tag name, or "" for none, comments and the like."""
    if el is None or not isinstance(el.tag, str):
        return ""
    return el.tag


def filter_attrs(
    el: Element, allowed: frozenset[str], names: Sequence[str | bytes] | None = None
) -> None:
    """Keep only allowed attributes with valid values (`names`: the element's, if known)."""
    names = el.keys() if names is None else names
    if not names:
        return
    if allowed.isdisjoint(names) and GLOBAL_ATTRS.isdisjoint(names):
        el.attrib.clear()  # the common case: class, id, style and the like only
        return
    kept: list[tuple[str, str]] = []
    for name in names:
        if name in allowed or name in GLOBAL_ATTRS:
            value = valid_attr(name, el.get(name, ""))
            if value is not None:
                kept.append((name, value))
    el.attrib.clear()
    for name, value in kept:
        el.set(name, value)


def valid_attr(name: str, value: str) -> str | None:
    """Return an attribute's value if it is well formed, else None."""
    value = safe_text(value)
    if name in ("colspan", "rowspan", "start", "width", "height"):
        match = INT_RE.match(value)
        return match.group(1) if match else None
    if name == "dir":
        value = value.strip().lower()
        return value if value in ("ltr", "rtl", "auto") else None
    if name == "lang":
        value = value.strip()
        return value if _LANG_RE.fullmatch(value) else None
    if name == "scope":
        value = value.strip().lower()
        return value if value in ("row", "col", "rowgroup", "colgroup") else None
    form = _MATH_VALUES.get(name)
    if form is not None:
        value = value.strip().lower()
        return value if form.fullmatch(value) else None
    return value


# The values a formula's attributes may take (MathML Core), by attribute.
_MATH_FLAG_RE = re.compile("true|false")
_MATH_VALUES = {
    **dict.fromkeys(
        tag_set(
            "stretchy fence separator accent largeop movablelimits symmetric accentunder"
            " displaystyle"
        ),
        _MATH_FLAG_RE,
    ),
    "display": re.compile("block|inline"),
    "form": re.compile("prefix|infix|postfix"),
    "mathvariant": re.compile("[a-z-]{1,32}"),
    "scriptlevel": re.compile(r"[+-]?\d{1,2}"),
    "linethickness": re.compile(r"\d{0,4}(?:\.\d{1,4})?(?:[a-z]{1,4}|%)?|thin|medium|thick"),
}
