"""What extraction returns: an `Article` or a `Skip` with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Block:
    """One cleaned block of the main content, in document order.

    `kind` is the block's element name (p, h2, ul, ol, table, pre, blockquote,
    figure, img, hr, dl); `html` is its sanitised HTML with absolute URLs;
    `text` is its plain text.
    """

    kind: str
    html: str
    text: str
    # Characters of the block's text, and of the text inside its links (text in
    # nested links once for each): what the reader check's link density weighs.
    text_chars: int = 0
    link_chars: int = 0


@dataclass(frozen=True, slots=True)
class Region:
    """A maximal run of lines whose smoothed diff is positive (thesis §4.3.4)."""

    start: int
    end: int  # inclusive
    content: int  # sum of t1 over the region's lines


@dataclass(frozen=True, slots=True)
class LeftOut:
    """Text the output stage left out of the kept content, whole, and the rule that did."""

    reason: str
    text: str


# Characters of each line's text the diagnostics keep (the why page's list of blocks).
LINE_TEXT_CHARS = 120


@dataclass(frozen=True, slots=True)
class Diagnostics:
    """Per-line measurements behind the choice, so the proxy can draw them."""

    t1: tuple[int, ...]
    t2: tuple[int, ...]
    diff: tuple[int, ...]
    regions: tuple[Region, ...]
    selected: tuple[int, ...]  # indices of the selected lines, ascending
    headline_line: int | None
    line_tags: tuple[str, ...]  # the element name each line maps back to
    params: dict[str, str]
    timings_ms: dict[str, float] = field(default_factory=dict)
    # What the output stage left out of the kept content, and why (output/furniture.py).
    left_out: tuple[LeftOut, ...] = ()
    # With extract(audit=True): the visible text of the kept source elements, which
    # the article must hold but for `left_out` (the fidelity check, docs/evaluation.md).
    source_text: str | None = None
    # Each line's text, cut at LINE_TEXT_CHARS, and the lines left out as link-dense:
    # the why page lists the page's blocks, each kept or left out and why.
    line_texts: tuple[str, ...] = ()
    link_dense: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Article:
    """A page's main content and headline, ready to render."""

    title: str
    blocks: tuple[Block, ...]
    text: str
    lang: str | None
    dir: str  # "ltr" or "rtl"
    readerable: bool
    url: str | None = None
    byline: str | None = None
    published: str | None = None
    site_name: str | None = None
    page_title: str = ""
    # Where the headline led, when the page's headline was one link off the page
    # (output/headings.py): the reader page's h1 keeps it.
    title_href: str | None = None
    word_count: int = 0
    diagnostics: Diagnostics | None = None
    # With extract(learn=True): the page's block fingerprints, for the site memory of
    # later pages (addon/core/heuristics/site_memory.py); hashes, never the words.
    fingerprints: frozenset[int] = frozenset()

    @property
    def html(self) -> str:
        """Return the content blocks as one HTML fragment."""
        return "\n".join(block.html for block in self.blocks)


@dataclass(frozen=True, slots=True)
class Skip:
    """Why a page has no article: too large, not HTML, empty, no content."""

    reason: str
    # The headline TitleFinder found when it ran ("" before it ran or when nothing names
    # the page): an app shell's page states its headline, but holds no article.
    title: str = ""
