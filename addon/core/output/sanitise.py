"""The sanitiser.

Each cleaned block's attributes checked and the block serialised through nh3,
with the fast paths that skip it.
"""

from __future__ import annotations

import re

import nh3

from addon.core import compiled
from addon.core.output.images import srcset_value
from addon.core.output.tags import (
    ALLOWED_ATTRS,
    ALLOWED_TAGS,
    GLOBAL_ATTRS,
    HEADINGS,
    NO_ATTRS,
    UNWRAP,
    Element,
    filter_attrs,
    has_text,
    safe_text,
    text_of,
)
from addon.core.output.urls import LINK_SCHEMES, NO_BASE, UrlBase, is_data_image


def _cleaner(*, attribute_filter: bool = True) -> nh3.Cleaner:
    """Build the nh3 sanitiser: the second lock behind the allow-list build."""
    attributes = {tag: set(names) for tag, names in ALLOWED_ATTRS.items()}
    # The ids the rebuild set again (output/anchors.py): the rebuild strips all others.
    attributes["*"] = {*GLOBAL_ATTRS, "id"}
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style"},
        attributes=attributes,
        attribute_filter=_nh3_attribute_filter if attribute_filter else None,
        link_rel="noopener noreferrer",
        url_schemes=set(LINK_SCHEMES | {"data"}),
    )


def _nh3_attribute_filter(tag: str, attr: str, value: str) -> str | None:
    """Allow data: URLs only as an image's src, and only safe srcset candidates."""
    if attr == "srcset":
        return srcset_value(value, NO_BASE)
    if attr in ("href", "src") and value.lstrip()[:5].lower() == "data:":
        return value if (tag, attr) == ("img", "src") and is_data_image(value) else None
    return value


class Sanitiser:
    """Sanitise serialised blocks with nh3, calling its attribute filter only when needed."""

    __slots__ = ("all_close", "data_urls", "srcsets_stable")

    def __init__(self, holder: Element, sources: list[str], srcsets_stable: bool) -> None:
        # The filter changes only srcset values and data: URLs. nh3 sees the values
        # lxml wrote: srcset is not URL-escaped, and its escapes decode back.
        self.srcsets_stable = srcsets_stable
        markup = "".join(sources)
        self.data_urls = _holds_data_url(markup)
        # Each block has at most as many end tags as it starts elements with one, so
        # when all of them together have as many, so does each block.
        self.all_close = _closes_alike(markup)

    def clean(self, sources: list[str]) -> list[str]:
        """Return the blocks' sanitised HTML, most of them from one nh3 call."""
        # A call costs nh3 a few microseconds besides the markup; one call over the
        # blocks joined by a separator gives each block's output between separators
        # when the parser's state after each block is its state at the start. For a
        # serialised tree that holds, as every end tag then closes its element, unless
        # a table, cell or caption scopes it off or lxml left an end tag out (it does
        # for an empty li): such blocks go alone.
        htmls: list[str | None] = [source if is_plain_block(source) else None for source in sources]
        joint = [
            index
            for index, source in enumerate(sources)
            if htmls[index] is None
            and not self._filtered(source)
            and (self.all_close or _closes_alike(source))
        ]
        if len(joint) > 1:
            markup = _BLOCK_SEPARATOR.join(sources[index] for index in joint)
            pieces = _PLAIN_CLEANER.clean(markup).split(_BLOCK_SEPARATOR)
            if len(pieces) == len(joint):  # else page text held the separator
                for index, piece in zip(joint, pieces, strict=True):
                    htmls[index] = piece
        return [
            self._clean_one(source) if html is None else html
            for source, html in zip(sources, htmls, strict=True)
        ]

    def _clean_one(self, source: str) -> str:
        """Return one block's sanitised HTML."""
        cleaner = _FILTERING_CLEANER if self._filtered(source) else _PLAIN_CLEANER
        return cleaner.clean(source)

    def _filtered(self, source: str) -> bool:
        """Tell whether nh3's attribute filter may change a value in this block."""
        # The filter's Python calls, one per attribute, cost more than nh3's own
        # work on a block; without it nh3 keeps every value as it is.
        return (self.data_urls and _holds_data_url(source)) or (
            not self.srcsets_stable and "srcset" in source
        )


def is_plain_block(source: str) -> bool:
    """Tell a serialised block nh3 gives back unchanged: a paragraph or heading of text alone."""
    # Nearly half the blocks, a fifth of the markup. Its only tags are its own two
    # (lxml escapes "<" in text). nh3 writes such text back as it was, but for a
    # no-break space (as &nbsp;) and a carriage return (lxml writes &#13;, nh3 the
    # character): checked for every character lxml stores, docs/performance.md.
    if source.count("<") != 2 or "&#" in source or "\xa0" in source:
        return False
    end = _PLAIN_ENDS.get(source[: source.find(">") + 1])
    return end is not None and source.endswith(end)


def holds_data_url(markup: str) -> bool:
    """Tell whether markup holds "data:" in any case."""
    return _may_hold_data_url(markup) and "data:" in markup.lower()


def _may_hold_data_url(markup: str) -> bool:
    """Tell whether markup may hold "data:" in some case, without lowercasing it (slow)."""
    # Two scans for the last letter and colon: fewer than for the last two in all cases.
    return "a:" in markup or "A:" in markup


def _closes_alike(source: str) -> bool:
    """Tell whether a serialised block has no table part and ends every element it starts."""
    if _TABLE_PART_RE.search(source) is not None:
        return False
    # "<" starts a tag and nothing else: lxml escapes it in text and values. No
    # tag the rebuild keeps but br, hr and img starts with their names.
    ends = source.count("</")
    voids = source.count("<br") + source.count("<img") + source.count("<hr")
    return source.count("<") - ends - voids == ends


_holds_data_url = compiled.pick("holds_data_url", holds_data_url)


def name_or_unwrap(holder: Element) -> None:
    """Name images without alt by their figure's caption, else as an image; unwrap unnamed
    links and headings in cells."""
    # WCAG 1.1.1 / 2.4.4 (axe image-alt, link-name): a missing alt makes screen
    # readers spell out the file name, an empty one hides an image that may say
    # something (a status table of icons read "blank, blank"); a link of no text
    # reads as "link". An alt="" the page wrote says the image is decoration.
    unnamed = [img for img in holder.iter("img") if img.get("alt") is None]
    for img in unnamed:
        img.set("alt", _caption_of(img))
    for link in holder.iter("a"):
        if not _has_name(link):
            link.tag = UNWRAP
    # Named last: "Image" names no link (an unnamed image link is unwrapped above).
    for img in unnamed:
        if not img.get("alt"):
            img.set("alt", "Image")
    # A heading inside a table cell breaks the outline (axe heading-order); the
    # table's own header cells carry that meaning.
    if next(holder.iter("td", "th"), None) is None:
        return
    for heading in list(holder.iter(*HEADINGS)):
        if next(heading.iterancestors("td", "th"), None) is not None:
            heading.tag = UNWRAP


def _caption_of(img: Element, *, max_chars: int = 250) -> str:
    """Return the caption of the figure an image stands alone in, or ""."""
    figure = next(img.iterancestors("figure"), None)
    if figure is None or sum(1 for _ in figure.iter("img")) != 1:
        return ""
    caption = next(figure.iter("figcaption"), None)
    # Without the control characters lxml refuses in a value (the parser keeps them).
    text = "" if caption is None else " ".join(safe_text(text_of(caption)).split())
    return text if len(text) <= max_chars else text[:max_chars].rsplit(" ", 1)[0] + "…"


def _has_name(link: Element) -> bool:
    """Tell whether a link has text or an image with a non-empty alt."""
    if has_text(link):
        return True
    return any((img.get("alt") or "").strip() for img in link.iter("img"))


def scrub_link(el: Element, base: UrlBase) -> None:
    """Keep a link's href, absolute and with a safe scheme; unwrap one without, or to "#"."""
    raw = el.get("href")
    href = None if raw is None else base.resolve(raw, schemes=LINK_SCHEMES)
    filter_attrs(el, NO_ATTRS)
    if href is None:
        el.tag = UNWRAP
        return
    # A link into the page itself stays a fragment: the reader page is the page.
    document = base.document
    in_page = (
        bool(document)
        and href.startswith(document)
        and href[len(document) : len(document) + 1] == "#"
    )
    fragment = href[len(document) :] if in_page else href
    if fragment == "#":  # a script's toggle ("<a href='#' role='button'>"): it leads nowhere
        el.tag = UNWRAP
        return
    el.set("href", fragment)  # rel: nh3 adds its own


_FILTERING_CLEANER = _cleaner()


# Between blocks cleaned in one nh3 call: text between two elements, which nh3
# writes out as it is. A marked <br> took nh3 1.5 us more a block (0.05 ms a page).
_BLOCK_SEPARATOR = "\ufdd4"


_TABLE_PART_RE = re.compile(r"<(?:table|caption|t[dhr])[\s/>]")


# The start tags of the blocks is_plain_block() passes, each with its end tag.
_PLAIN_ENDS = {f"<{tag}>": f"</{tag}>" for tag in ("p", *HEADINGS) if tag in ALLOWED_TAGS}


_PLAIN_CLEANER = _cleaner(attribute_filter=False)
