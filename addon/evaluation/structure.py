"""What an extraction's HTML keeps of a reference's structure: code, headings, images, links.

Each measure is a recall over the reference's items, block by block or
element by element, never character by character: a code block counts once,
however long. Texts are compared after normalising: code by its whitespace
only (case matters in code), headings and link texts also by NFKC and case.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from lxml import etree

from addon.evaluation.metrics import normalise_headline
from addon.evaluation.run import element_text, parse_html

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# A srcset's candidates are separated by a comma and whitespace; a comma alone
# may sit inside a URL (image CDNs write "w_100,h_80").
_SRCSET_SEPARATOR = re.compile(r",\s+")


@dataclass(frozen=True, slots=True)
class Recall:
    """How many of the reference's items the prediction has."""

    found: int
    total: int

    @property
    def rate(self) -> float | None:
        """Return the share found, or None when the reference has no such item."""
        return self.found / self.total if self.total else None


@dataclass(frozen=True, slots=True)
class StructureScores:
    """The five structure measures of one prediction against its reference."""

    code: Recall
    headings: Recall
    images: Recall
    link_texts: Recall
    in_page_links: Recall


def structure_scores(reference: str, prediction: str, *, title: str, url: str) -> StructureScores:
    """Score a predicted article's HTML and headline against a reference's HTML."""
    expected, predicted = document(reference), document(prediction)
    return StructureScores(
        code=code_recall(expected, predicted),
        headings=heading_recall(expected, predicted, title),
        images=image_recall(expected, predicted),
        link_texts=link_text_recall(expected, predicted),
        in_page_links=in_page_link_resolution(expected, predicted, url),
    )


def document(html: str) -> etree._Element:
    """Parse HTML, reading an empty document as an empty `<html>` element."""
    root = parse_html(html)
    return etree.Element("html") if root is None else root


def code_recall(expected: etree._Element, predicted: etree._Element) -> Recall:
    """Count the reference's `<pre>` blocks whose text stands in the prediction's code.

    The prediction's code is the text of its `<pre>` and `<code>` elements
    together, so a block kept as code but split in two or marked up as
    `<code>` alone still counts.
    """
    blocks = [_code_text(pre) for pre in expected.iter("pre") if not _inside_pre(pre)]
    wanted = [block for block in blocks if block]
    code = (element for element in predicted.iter("pre", "code") if not _inside_pre(element))
    haystack = " ".join(_code_text(element) for element in code)
    return Recall(sum(block in haystack for block in wanted), len(wanted))


def _code_text(element: etree._Element) -> str:
    """Return an element's text with its whitespace collapsed (case kept)."""
    return " ".join(element_text(element).split())


def _inside_pre(element: etree._Element) -> bool:
    """Tell whether an element stands inside a `<pre>`."""
    return any(ancestor.tag == "pre" for ancestor in element.iterancestors())


def heading_recall(expected: etree._Element, predicted: etree._Element, title: str) -> Recall:
    """Count the reference's headings that the prediction has as a heading or as its headline."""
    # Filtered after the edit link is cut: a heading of it alone holds no words.
    cut = [_without_edit_link(text) for text in _texts(expected.iter(*HEADINGS))]
    wanted = [text for text in cut if text]
    present = {_without_edit_link(text) for text in _texts(predicted.iter(*HEADINGS))}
    present.add(normalise_headline(title))
    return Recall(sum(text in present for text in wanted), len(wanted))


def _heading_edit_link(link: etree._Element) -> bool:
    """Tell whether a link is a wiki's "edit" link inside a heading: furniture that
    Plainview leaves out on purpose (issue 28: edit links in headings go)."""
    text = normalise_headline(element_text(link))
    return text == "edit" and any(up.tag in HEADINGS for up in link.iterancestors())


def _without_edit_link(heading: str) -> str:
    """Drop a wiki's "[edit]" from a heading's end: Firefox keeps it, Plainview leaves it out."""
    return _EDIT_LINK.sub("", heading)


# MediaWiki's edit link after a section title, normalised ("history [edit]").
_EDIT_LINK = re.compile(r"\s*\[\s*edit\s*\]\s*$")


def _texts(elements: Iterable[etree._Element]) -> list[str]:
    """Return the normalised text of each element, in order."""
    return [normalise_headline(element_text(element)) for element in elements]


def image_recall(expected: etree._Element, predicted: etree._Element) -> Recall:
    """Count the reference's images whose file name is among the prediction's images."""
    wanted = [name for name in map(_reference_image, expected.iter("img")) if name]
    present = {
        file_name(url)
        for element in predicted.iter("img", "source")
        for url in [element.get("src") or "", *srcset_urls(element.get("srcset") or "")]
    }
    return Recall(sum(name in present for name in wanted), len(wanted))


def _reference_image(image: etree._Element) -> str:
    """Name a reference image by its src, or by its srcset's first URL without one."""
    src = (image.get("src") or "").strip()
    urls = [src] if src else srcset_urls(image.get("srcset") or "")
    return file_name(urls[0]) if urls else ""


def srcset_urls(srcset: str) -> list[str]:
    """Return the URLs of a srcset's candidates, without their width or density."""
    candidates = (candidate.split() for candidate in _SRCSET_SEPARATOR.split(srcset.strip()))
    return [words[0].rstrip(",") for words in candidates if words]


def file_name(url: str) -> str:
    """Return a URL's last path segment, decoded, without query; a data URL whole."""
    url = url.strip()
    if url.lower().startswith("data:"):
        # A data URL has no path to name it by: the data is its identity.
        return url
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def link_text_recall(expected: etree._Element, predicted: etree._Element) -> Recall:
    """Count the reference's link texts found among the prediction's, as multisets; a
    wiki's edit link in a heading is not asked for (as in `heading_recall`)."""
    asked = [link for link in expected.iter("a") if not _heading_edit_link(link)]
    wanted = Counter(text for text in _texts(asked) if text)
    present = Counter(text for text in _texts(predicted.iter("a")) if text)
    return Recall(sum((wanted & present).values()), sum(wanted.values()))


def in_page_link_resolution(
    expected: etree._Element, predicted: etree._Element, url: str
) -> Recall:
    """Count the reference's working in-page links whose twin in the prediction works too.

    A link's twin is the prediction's link of the same text, paired in order
    (the second "[1]" with the second "[1]"). A link works when it points into
    the page (`#x`, or the page's own URL with `#x`) at an id or `<a name>`
    that the document holds, as written or percent-decoded (as browsers look).
    A link without text is not asked for: no reader can follow it by its name,
    and Plainview unwraps it (a heading's icon permalink).
    """
    expected_targets, predicted_targets = targets(expected), targets(predicted)
    twins: defaultdict[str, deque[str]] = defaultdict(deque)
    for text, anchor in _links(predicted, url):
        twins[text].append(anchor)
    working = [
        text
        for text, anchor in _links(expected, url)
        if text and finds(anchor, expected_targets)
    ]
    resolved = 0
    for text in working:
        anchor = twins[text].popleft() if twins[text] else ""
        resolved += finds(anchor, predicted_targets)
    return Recall(resolved, len(working))


def _links(root: etree._Element, url: str) -> list[tuple[str, str]]:
    """Return each link's normalised text and in-page fragment ("" when it leads elsewhere)."""
    return [
        (normalise_headline(element_text(link)), fragment(link.get("href") or "", url))
        for link in root.iter("a")
    ]


def fragment(href: str, url: str) -> str:
    """Return the fragment an href points at within the page at `url`, else ""."""
    target, anchor = urldefrag(urljoin(url, href.strip()))
    return anchor if target == urldefrag(url).url else ""


def finds(anchor: str, ids: set[str]) -> bool:
    """Tell whether a fragment names one of the ids, as written or percent-decoded."""
    return bool(anchor) and (anchor in ids or unquote(anchor) in ids)


def targets(root: etree._Element) -> set[str]:
    """Return the fragments a document can scroll to: its ids and its anchors' names."""
    ids = {element.get("id") or "" for element in root.iter() if isinstance(element.tag, str)}
    names = {anchor.get("name") or "" for anchor in root.iter("a")}
    return (ids | names) - {""}
