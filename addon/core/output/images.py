"""Images in reader blocks.

Lazy sources and srcset candidates repaired, placeholders and tracking pixels
dropped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator

from addon.core.output.tags import (
    BLOCKISH_TAGS,
    CONTROL_RE,
    INT_RE,
    REMOVE,
    Element,
    has_text,
    safe_text,
    tag_of,
    tag_set,
    valid_attr,
)
from addon.core.output.urls import IMAGE_SCHEMES, SRCSET_URL_RE, UrlBase, is_data_image, simple_url

_LAZY_SRC_ATTRS = (
    "data-src", "data-original", "data-lazy-src", "nitro-lazy-src", "lazy-src",
    "data-wpfc-original-src",
    # the full image a page offers Pinterest, beside a blurred preview (Wix, wcxb-dev 0108)
    "data-pin-media",
)  # fmt: skip


_LAZY_SRCSET_ATTRS = ("data-lazy-srcset", "data-srcset", "nitro-lazy-srcset", "srcset")


_PLACEHOLDER_RE = re.compile(
    r"placeholder|lazy[-_]?load|(?:^|/)(?:blank|spacer|pixel|transparent|clear|empty|grey"
    r"|gray|loading|loader|1x1|dot)\.(?:gif|png|svg)$",
    re.I,
)


# The file names _PLACEHOLDER_RE matches as a path's last segment.
_PLACEHOLDER_FILES = frozenset(
    f"{name}.{extension}"
    for name in tag_set(
        "blank spacer pixel transparent clear empty grey gray loading loader 1x1 dot"
    )
    for extension in ("gif", "png", "svg")
)


def has_image(el: Element) -> bool:
    """Tell whether an element is or holds an img."""
    return el.tag == "img" or (len(el) > 0 and next(el.iter("img"), None) is not None)


def holds_only_images(noscript: Element) -> bool:
    """Tell whether a noscript is a lazy image's fallback: a real image and no text."""
    if has_text(noscript):
        return False
    return any(not _is_pixel(img) for img in noscript.iter("img"))


def is_lazy_twin(el: Element) -> bool:
    """Tell whether an image is the script-loaded twin of the noscript image after it."""
    if not has_image(el):
        return False
    after = el.getnext()
    return tag_of(after) == "noscript" and after is not None and holds_only_images(after)


def picture_fallback(picture: Element) -> None:
    """Give a picture's img the first source's srcset when it has none of its own."""
    img = next(picture.iter("img"), None)
    if img is None or any(img.get(name) for name in (*_LAZY_SRC_ATTRS, *_LAZY_SRCSET_ATTRS)):
        return
    for source in picture.iter("source"):
        srcset = source.get("srcset") or source.get("data-srcset")
        if srcset:
            img.set("data-srcset", safe_text(srcset))
            return


def drop_previews(noscript: Element) -> None:
    """Mark for removal the images before a noscript that preview its own: the same file, or
    none yet."""
    # Medium draws a 60-pixel blurred copy of each photo and an empty image that
    # its script fills, and puts the full one in a noscript after them.
    files = {file_name(img.get("src") or "") for img in noscript.iter("img")} - {""}
    for sibling in noscript.itersiblings(preceding=True):
        for img in sibling.iter("img"):
            src = (img.get("src") or "").strip()
            if not src or file_name(src) in files:
                img.tag = REMOVE


def bind_captions(roots: Iterable[Element], drop: Collection[Element], base: UrlBase) -> None:
    """Make a box holding one image and its caption a figure, the caption its figcaption."""
    # WordPress's classic caption (`div.wp-caption` around the image and a
    # `p.wp-caption-text`, wcxb-dev 0408) and its kind: shown as a figure and a loose
    # paragraph, the caption was not bound to its image, whose alt="" hid it. The
    # caption is named so, by a class or by the image's aria-describedby. Found from
    # the images, which are few: a search of every div, p and span of the content
    # cost 4% of the extraction.
    roots = list(roots)
    found = [
        caption
        for root in roots
        for img in root.iter("img")
        if (caption := _caption_beside(img)) is not None
        and caption not in drop
        and _captions_its_box(caption, base)
    ]
    for caption in found:
        for inner in caption.iterdescendants("figcaption"):
            inner.tag = "span"  # its wrapper is the caption now: no caption in a caption
        caption.tag = "figcaption"
        box = caption.getparent()
        if box is not None:
            box.tag = "figure"
    for root in roots:
        adopt_captions(root)


def adopt_captions(root: Element) -> None:
    """Move a figcaption that follows a figure without one into it."""
    # A theme that closes the figure before its caption (talkandroid's
    # `figure.post-media` then `figcaption.wp-caption-text`, wcxb-dev 0500): the
    # caption stood alone, a caption of nothing.
    for caption in list(root.iter("figcaption")):
        figure = caption.getprevious()
        if (
            figure is None
            or figure.tag != "figure"
            or (figure.tail or "").strip()
            or next(caption.iterancestors("figure"), None) is not None
            or next(figure.iter("figcaption"), None) is not None
        ):
            continue
        tail, caption.tail = caption.tail, None
        figure.append(caption)
        # Without the control characters lxml refuses from its API (the parser keeps them).
        figure.tail = safe_text(figure.tail) + safe_text(tail)


def _caption_beside(img: Element, *, max_depth: int = 5) -> Element | None:
    """Return the other child of the first div above an image, through its wrappers, that
    holds two, or None."""
    part = img
    for _ in range(max_depth):
        box = part.getparent()
        if box is None or box.tag in _CAPTION_STOPS:
            return None
        # The parser drops comments and processing instructions: the children are
        # elements (`_captions_its_box` checks again). An image's noscript twin beside
        # it is the image (Next.js, wcxb-dev 0432).
        children = [child for child in box if child.tag != "noscript"]
        if len(children) == 2 and box.tag == "div":
            other = children[1] if children[0] is part else children[0]
            return other if other.tag in _CAPTION_TAGS else None
        if len(children) != 1:  # a wrapper holds the image alone
            return None
        part = box
    return None


def _captions_its_box(caption: Element, base: UrlBase) -> bool:
    """Tell whether an element is the named caption of a box holding one image besides, one
    the view shows."""
    box = caption.getparent()
    if box is None or box.tag != "div" or not has_text(caption):
        return False
    if (box.text or "").strip() or _holds_blocks(caption):
        return False
    # A box inside a figure is its image: the figure has its own caption.
    if next(box.iterancestors("figure"), None) is not None:
        return False
    others = [child for child in box if child is not caption and isinstance(child.tag, str)]
    if len(others) != 1 or (others[0].tail or "").strip():
        return False
    if _image_alone(others[0]) is None or not any(
        image_source(image, base, _lazy_srcset(image, base)) is not None
        for image in others[0].iter("img")  # the image, or its noscript twin
    ):
        return False
    described = {word for img in box.iter("img", "picture") for word in _described(img)}
    return (
        caption.get("id") in described
        or _CAPTION_CLASS.search(caption.get("class") or "") is not None
        or _holds_figcaption(caption)
    )


def _holds_blocks(caption: Element) -> bool:
    """Tell whether a caption holds an image or a block, but for one paragraph alone (a
    caption's own: `<div class="caption"><p>...</p></div>`, wcxb-dev 0432)."""
    inner = list(caption.iterdescendants(*_NOT_IN_CAPTIONS))
    if len(inner) == 1 and inner[0].tag == "p" and inner[0].getparent() is caption:
        return len(caption) > 1 or bool((caption.text or "").strip())
    return bool(inner)


def _holds_figcaption(caption: Element) -> bool:
    """Tell whether an element is a figcaption or wraps one alone (Hearst's `<div
    class="css-swqnqv"><figcaption>` beside the image, wcxb-dev 0050)."""
    if caption.tag == "figcaption":
        return True
    children = list(caption)
    return (
        len(children) == 1
        and children[0].tag == "figcaption"
        and not (caption.text or "").strip()
        and not (children[0].tail or "").strip()
    )


def _image_alone(el: Element) -> Element | None:
    """Return the image an element is, or wraps alone without text (a link, a picture)."""
    if el.tag == "img":
        return el
    # The image's noscript twin is the same image (Next.js, wcxb-dev 0432).
    images = [img for img in el.iter("img") if next(img.iterancestors("noscript"), None) is None]
    return images[0] if len(images) == 1 and not has_text(el) else None


def _described(el: Element) -> list[str]:
    """Return the ids an element's aria-describedby names."""
    return (el.get("aria-describedby") or "").split()


# The captions that become a figcaption; their box, a div, becomes the figure.
_CAPTION_TAGS = frozenset({"div", "p", "span", "figcaption"})
# Where the climb from an image to its box stops: a figure has its caption; a list
# item, a cell or a paragraph is no figure's box.
_CAPTION_STOPS = frozenset({"figure", "li", "td", "th", "p"})
# What a caption does not hold: an image, or a block (a testimonial's card of a heading
# and a paragraph; NPR's caption box of its caption, credit and show/hide switches).
_NOT_IN_CAPTIONS = ("img", *sorted(BLOCKISH_TAGS - {"figcaption"}))
# A caption's class: "wp-caption-text", "caption", "image-caption".
_CAPTION_CLASS = re.compile(r"caption", re.I)


def file_name(url: str) -> str:
    """Return the last segment of a URL's path: the image file, whatever its size or query."""
    return url.split("#", 1)[0].split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def image_from_itemid(figure: Element) -> None:
    """Give a figure whose image only its microdata names (a script draws it) that image."""
    # News sites render the photo by script into an empty container and name it in
    # the figure's schema.org ImageObject; Firefox Reader View shows it the same way.
    if "ImageObject" not in (figure.get("itemtype") or ""):
        return
    if next(figure.iter("img"), None) is not None:
        return
    # A URL holding a control character is broken, and lxml refuses it from its API.
    url = (figure.get("itemid") or "").strip()
    if url.startswith(("https://", "http://")) and url.isprintable():
        figure.insert(0, figure.makeelement("img", {"src": url}))


def scrub_image(el: Element, base: UrlBase) -> bool:
    """Repair a lazy image, make its URLs absolute, drop pixels; tell if its srcset is stable."""
    if _is_pixel(el):
        el.tag = REMOVE
        return True
    srcset = _lazy_srcset(el, base)
    src = image_source(el, base, srcset)
    # An image the page left unnamed is named by its title, if it has one. An alt
    # of spaces only (no-break spaces too) is the page's empty one: decorative.
    alt = el.get("alt", el.get("title"))
    alt = "" if alt is not None and not alt.strip() else alt
    # A dimension of 0 or 1 on an image that is no pixel is the style sheet's to set:
    # kept, it would draw the image as a line (cnet's `height="0"`).
    width, height = (_dimension(el.get(name)) for name in ("width", "height"))
    el.attrib.clear()
    if src is None:
        el.tag = REMOVE
        return True
    el.set("src", src)
    stable = True
    for name, value in (("srcset", srcset), ("alt", alt), ("width", width), ("height", height)):
        valid = None if value is None else valid_attr(name, value)
        if valid is not None:
            el.set(name, valid)
            # A value safe_text changed may hold a URL no longer what was resolved.
            stable = stable and (name != "srcset" or (valid == value and _stable_srcset(valid)))
    return stable


def _dimension(value: str | None) -> str | None:
    """Return an image's declared width or height, or None for none, 0 or 1."""
    match = INT_RE.match(value or "")
    return None if value is None or (match is not None and int(match.group(1)) <= 1) else value


def _stable_srcset(srcset: str) -> bool:
    """Tell whether a srcset built by `srcset_value` reads back as itself through it."""
    # Its URLs were resolved and are no placeholders; read back, a simple absolute
    # URL resolves to itself and splits off from its descriptor as it was joined.
    if "\r" in srcset:
        return False
    for candidate in srcset.split(", "):
        url, space, descriptor = candidate.partition(" ")
        if not simple_url(url) or descriptor != descriptor.strip():
            return False
        if (space and not descriptor) or "," in descriptor:
            return False
    return True


def _is_pixel(el: Element) -> bool:
    """Tell a tracking pixel: an image 1 (or 0) pixels wide or high, and no wider or higher
    in its other dimension, with no responsive sources."""
    # readability-even cnet-svg-classes' lead photo is `width="570" height="0"` (its
    # height left to the style sheet); a Next.js image declares 0 by 0 and sizes
    # itself from its srcset ("width:100%;height:auto").
    if el.get("srcset") or el.get("sizes"):
        return False
    declared = (INT_RE.match(el.get(name) or "") for name in ("width", "height"))
    sizes = [int(match.group(1)) for match in declared if match]
    return bool(sizes) and max(sizes) <= 1


def _lazy_srcset(el: Element, base: UrlBase) -> str | None:
    """Return the image's real srcset, absolute, preferring the lazy-load attributes."""
    for name in _LAZY_SRCSET_ATTRS:
        value = el.get(name)
        if value:
            cleaned = srcset_value(value, base)
            if cleaned:
                return cleaned
    return None


def image_source(el: Element, base: UrlBase, srcset: str | None) -> str | None:
    """Pick an image's real src: src unless a placeholder, then lazy attributes, then srcset."""
    lazy = [el.get(name) or "" for name in _LAZY_SRC_ATTRS]
    has_alternative = any(value.strip() for value in lazy) or srcset is not None
    src = el.get("src") or ""
    if not (has_alternative and _loads_lazily(el)) and not is_placeholder(
        src, has_alternative=has_alternative
    ):
        resolved = _image_url(src, base)
        if resolved is not None:
            return resolved
    for value in lazy:
        resolved = None if is_placeholder(value) else _image_url(value, base)
        if resolved is not None:
            return resolved
    picked = pick_from_srcset(srcset) if srcset else None
    return picked or _linked_image(el, base)


def _loads_lazily(el: Element) -> bool:
    """Tell whether an image declares a lazy loader's swap: its src a stand-in."""
    # lazysizes' class "lazyload" says the script sets src from data-src; the src
    # served is a preview (wcxb-dev 0010: Cloudinary at "q_1", quality 1 in 100).
    return "lazyload" in (el.get("class") or "").split()


def _linked_image(el: Element, base: UrlBase) -> str | None:
    """Return the image file a placeholder's link opens, the full-size photo, or None."""
    # A lazy-load plugin that draws its placeholder and names the photo nowhere but
    # in the lightbox link around it (a3 Lazy Load, wcxb-dev 4068's 14 photos).
    parent = el.getparent()
    href = "" if parent is None or parent.tag != "a" else (parent.get("href") or "")
    path = href.partition("?")[0].partition("#")[0].lower()
    return _image_url(href, base) if path.endswith(_IMAGE_FILES) else None


# The file name endings of the photos a link may open.
_IMAGE_FILES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif")


def _image_url(url: str, base: UrlBase) -> str | None:
    """Resolve an image URL; data: is allowed for images only."""
    url = url.strip()
    if url[:5].lower() == "data:":
        return url if is_data_image(url) and not CONTROL_RE.search(url) else None
    return base.resolve(url, schemes=IMAGE_SCHEMES)


def is_placeholder(src: str, *, has_alternative: bool = False, min_data_chars: int = 400) -> bool:
    """Tell a placeholder image src: empty, a tiny or superseded data: URL, a blank gif, a
    blurred preview with an alternative."""
    src = src.strip()
    if not src:
        return True
    if src[:5].lower() == "data:":
        # A 1x1 gif or blank svg is short; a real inline image is longer.
        return has_alternative or len(src) < min_data_chars
    if has_alternative and _BLURRED_RE.search(src):
        return True
    path = src.partition("?")[0].partition("#")[0]
    if path.isascii():  # the case-insensitive regex is slow on every image URL
        return _ascii_placeholder(path.lower())
    return _PLACEHOLDER_RE.search(path) is not None


# An image CDN's blurred preview: Wix's "/v1/fill/w_49,h_32,...,blur_2,.../" (wcxb-dev
# 0108, 0024, 0491: 49 pixels wide, its full image in data-pin-media), a "?blur=70" query.
# Not "fill=blur", which blurs the margins of a whole image.
_BLURRED_RE = re.compile(r"[/,]blur_\d+[,/]|[?&]blur=\d")


def _ascii_placeholder(low: str) -> bool:
    """Tell what `_PLACEHOLDER_RE` tells of a lowercased ASCII path, by plain string tests."""
    if "placeholder" in low or "lazyload" in low or "lazy-load" in low or "lazy_load" in low:
        return True
    if low.endswith("\n"):  # the pattern's "$" also matches before a final newline
        low = low[:-1]
    return low.rpartition("/")[2] in _PLACEHOLDER_FILES


def _srcset_candidates(value: str) -> Iterator[tuple[str, str]]:
    """Split a srcset into (url, descriptor) pairs as the HTML standard does."""
    position = 0
    while (match := SRCSET_URL_RE.match(value, position)) is not None:
        url, position = match.group(1), match.end()
        if url.endswith(","):  # a comma right after the URL ends a candidate with no descriptor
            yield url.rstrip(","), ""
            continue
        comma = value.find(",", position)
        comma = len(value) if comma < 0 else comma
        yield url, value[position:comma].strip()
        position = comma + 1


def srcset_value(value: str, base: UrlBase) -> str | None:
    """Rebuild a srcset with absolute http(s) URLs; None if a candidate is unsafe or none remain."""
    parts: list[str] = []
    for url, descriptor in _srcset_candidates(value):
        resolved = base.resolve(url, schemes=IMAGE_SCHEMES)
        if resolved is None:
            return None
        if not is_placeholder(resolved):
            parts.append(f"{resolved} {descriptor}".strip())
    return ", ".join(parts) or None


def pick_from_srcset(srcset: str, *, max_width: int = 1600) -> str | None:
    """Pick one URL from a srcset: the widest up to `max_width`, else the narrowest."""
    widths: list[tuple[int, str]] = []
    first: str | None = None
    for url, descriptor in _srcset_candidates(srcset):
        first = first or url
        if descriptor.endswith("w") and descriptor[:-1].isdigit():
            widths.append((int(descriptor[:-1]), url))
    if not widths:
        return first
    fitting = [item for item in widths if item[0] <= max_width]
    return max(fitting)[1] if fitting else min(widths)[1]
