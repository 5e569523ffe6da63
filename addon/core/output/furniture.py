"""Furniture in the output.

A late heading or label that ends the content, repeated blocks, stray rules.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from urllib.parse import urlsplit

from addon.core.heuristics.metadata import collapse
from addon.core.output.tags import HEADINGS, tag_set
from addon.core.result import Block

# A heading's words for the furniture test: punctuation, arrows and emoji drop out.
_TOKEN_RE = re.compile(r"\w+")


def furniture_pattern(headings: str) -> re.Pattern[str]:
    """Compile the furniture heading vocabulary, to match a heading's words whole."""
    return re.compile(f"(?:{headings})")


def label_bar_pattern(labels: str) -> re.Pattern[str]:
    """Compile a label vocabulary to match one label or a bar of them, words whole."""
    # A widget's buttons read as one line when their widget is gone: "Sign in Create an
    # Account" (wcxb-dev 4544), "Reject Accept".
    return re.compile(f"(?:{labels})(?: (?:{labels}))*")


def heading_names_furniture(text: str, pattern: re.Pattern[str]) -> bool:
    """Tell whether a heading's words, lowered, are wholly a furniture heading's."""
    # Lowered before the words are cut: lowering may split a word in two.
    return pattern.fullmatch(" ".join(_TOKEN_RE.findall(text.lower()))) is not None


def cut_furniture_tail(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    min_position: float = 0.4,
    max_label_words: int = 0,
    resume_chars: int = 0,
    box: re.Pattern[str] | None = None,
    min_label_repeats: int = 0,
    outranked: bool = False,
    tag_lines: re.Pattern[str] | None = None,
    max_tag_chars: int = 0,
    sources: re.Pattern[str] | None = None,
) -> tuple[Block, ...]:
    """End the content at a furniture heading that stands late in it; a box the article goes
    on after goes alone, and so does what comes before the article's sources."""
    # Related links, comments, share bars and author bios follow the article
    # under headings like these; the same words early on may title a box inside
    # the article, so only a heading with enough text before it ends the content.
    # A paragraph of `resume_chars` or more after a heading that `box` matches
    # ("Related") is the article going on past a box set inside it: the box goes,
    # up to there. Comments and an author's bio, long as they are, end it.
    # A label the article gave `min_label_repeats` of its sections before
    # ("Recommended courses:" over each school's list in a guide to courses) is no
    # furniture's title; a share bar's stands twice, atop the article and below it,
    # and a teaser's ("Related questions", "Subscribe: ...") stands in the teasers
    # after the article, however often. With `outranked`, a furniture heading that a
    # heading of higher rank closes, prose of `resume_chars` right under that one,
    # titled a box inside a section ("More posts related to Tokyo" in a travel
    # guide's day): the box goes, the guide goes on. A paragraph of up to
    # `max_tag_chars` that `tag_lines` opens ("Filed under: Japan, Travel Guides")
    # names furniture too: the tag line under a post, a label too long for one.
    total = sum(len(block.text) for block in blocks)
    before = 0
    labels: Counter[str] = Counter()
    for index, block in enumerate(blocks):
        if (
            before >= min_position * total
            and (
                _names_furniture(block, pattern, max_label_words)
                or _tag_line(block, tag_lines, max_tag_chars)
            )
            and not _own_label(block, labels, min_label_repeats)
        ):
            boxed = box is not None and _names_furniture(block, box, max_label_words)
            resumes = _resumes(blocks, index, resume_chars) if boxed and resume_chars else None
            if resumes is None and outranked and resume_chars:
                resumes = _outranked(blocks, index, resume_chars)
            listed = _sources_after(blocks, index, sources) if resumes is None else None
            if listed is not None:
                return (*blocks[:index], *blocks[listed : _sources_end(blocks, listed)])
            if resumes is None:
                return tuple(blocks[:index])
            rest = cut_furniture_tail(
                blocks[resumes:],
                pattern,
                min_position=0.0,
                max_label_words=max_label_words,
                resume_chars=resume_chars,
                box=box,
                min_label_repeats=min_label_repeats,
                outranked=outranked,
                tag_lines=tag_lines,
                max_tag_chars=max_tag_chars,
                sources=sources,
            )
            return (*blocks[:index], *rest)
        before += len(block.text)
        if min_label_repeats:
            labels[_label_key(block)] += 1
    return tuple(blocks)


def _sources_after(
    blocks: Sequence[Block], heading: int, sources: re.Pattern[str] | None
) -> int | None:
    """Return where a heading naming the article's sources stands after a furniture heading,
    or None: the sources are the article's, the author's bio before them is not."""
    # wcxb-dev 4688: "About the Author" ended the content, and the article's eight
    # "References" (Wine Folly, Decanter, ...) after the bio went with it.
    return next(
        (
            index
            for index in range(heading + 1, len(blocks))
            if blocks[index].kind in HEADINGS
            and heading_names_furniture(blocks[index].text, sources)
        ),
        None,
    ) if sources is not None else None


def _sources_end(blocks: Sequence[Block], heading: int) -> int:
    """Return where the sources under a heading end: after their first list, or at the next
    heading; what follows is the furniture the sources stood in (a bio again)."""
    for index in range(heading + 1, len(blocks)):
        if blocks[index].kind in HEADINGS:
            return index
        if blocks[index].kind in _SOURCE_LISTS:
            return index + 1
    return len(blocks)


_SOURCE_LISTS = frozenset({"ol", "ul", "dl"})


def _own_label(block: Block, labels: Counter[str], min_repeats: int) -> bool:
    """Tell whether a block is a label the content held at least `min_repeats` times before."""
    key = _label_key(block)
    return bool(min_repeats and key) and labels[key] >= min_repeats


def _label_key(block: Block, *, max_chars: int = 80) -> str:
    """Return a heading's or short paragraph's words, lowered, as a label is compared; ""
    for other blocks."""
    if len(block.text) > max_chars or (block.kind not in HEADINGS and block.kind != "p"):
        return ""
    return " ".join(_TOKEN_RE.findall(block.text.lower()))


def _resumes(blocks: Sequence[Block], heading: int, min_chars: int) -> int | None:
    """Return where the article's prose goes on after a furniture heading, or None: at the
    headings right above it, which title its section ("5. Snapchat")."""
    prose = next(
        (
            index
            for index in range(heading + 1, len(blocks))
            if blocks[index].kind == "p"
            and len(blocks[index].text) >= min_chars
            and not _is_excerpt(blocks[index].text)
        ),
        None,
    )
    if prose is None:
        return None
    while prose - 1 > heading and blocks[prose - 1].kind in HEADINGS:
        prose -= 1
    return prose


def _is_excerpt(text: str) -> bool:
    """Tell whether a paragraph is a teaser's excerpt: cut off with an ellipsis."""
    # A related post's excerpt runs to 200 characters and more ("... biased against
    # devs…", readability-even wordpress), but it stops mid-sentence: the article's
    # prose going on past a box ends as a sentence does.
    return text.rstrip().endswith(_ELLIPSES)


_ELLIPSES = ("…", "...", "[…]", "[...]")


def _outranked(blocks: Sequence[Block], heading: int, min_chars: int) -> int | None:
    """Return the heading of higher rank that closes a furniture heading's section, when a
    paragraph of `min_chars` or more stands right under it (past its subheadings), or None."""
    rank = blocks[heading].kind
    if rank not in HEADINGS:
        return None
    closing = next(
        (
            index
            for index in range(heading + 1, len(blocks))
            if blocks[index].kind in HEADINGS and blocks[index].kind < rank  # "h2" < "h3"
        ),
        None,
    )
    if closing is None:
        return None
    after = closing
    while after < len(blocks) and blocks[after].kind in HEADINGS:
        after += 1
    if after < len(blocks) and blocks[after].kind == "p" and len(blocks[after].text) >= min_chars:
        return closing
    return None


def _tag_line(block: Block, tag_lines: re.Pattern[str] | None, max_chars: int) -> bool:
    """Tell whether a paragraph is a post's tag line: a taxonomy label and its values."""
    return (
        tag_lines is not None
        and block.kind == "p"
        and len(block.text) <= max_chars
        and tag_lines.match(block.text.lower()) is not None
    )


def _names_furniture(block: Block, pattern: re.Pattern[str], max_label_words: int) -> bool:
    """Tell whether a heading, or a short label paragraph, names page furniture."""
    if block.kind not in HEADINGS and block.kind != "p":
        return False
    if block.kind != "p":
        return heading_names_furniture(block.text, pattern)
    # Many sites style a furniture title ("Related articles", "Was this page
    # helpful?") as a bold paragraph; a one-word one ("Share", "Tags") is more
    # often a button inside a post, so a label needs two words or more. Lowering
    # never joins two words (true of every character, tests/core/output/test_furniture.py),
    # so a paragraph with more words than a label's is ruled out unlowered, by one
    # match that stops at the word after a label's last.
    if _words_beyond(max_label_words).match(block.text):
        return False
    words = _TOKEN_RE.findall(block.text.lower())[: max_label_words + 1]
    if not 2 <= len(words) <= max_label_words:
        return False
    return pattern.fullmatch(" ".join(words)) is not None


def _words_beyond(count: int) -> re.Pattern[str]:
    """Compile the pattern that matches the start of a text with more than `count` words."""
    # Possessive: each run of word or other characters is taken whole, never retried.
    return re.compile(rf"\W*+(?:\w++\W*+){{{count + 1}}}")


def drop_repeated_blocks(
    blocks: Sequence[Block],
    *,
    min_chars: int = 20,
    min_run: int = 2,
    thread: bool = False,
    within_section: bool = False,
) -> tuple[Block, ...]:
    """Leave out a run of blocks that repeats an earlier run block for block: a section served
    twice; in a `thread`, not a quotation; `within_section`, not an entry's facts under
    another heading."""
    # Pages serve one section twice (a mobile and a desktop copy, a tab and its
    # accordion twin) and clone carousels for their scrolling; a reader reads it
    # once. One block repeated alone is the article's own: a heading over every
    # product ("Specs"), a poem's refrain, a line quoted again. So only a run of
    # `min_run` blocks or more that repeats an earlier run, with `min_chars` of
    # text, goes, less the headings that close it; headings are compared by their
    # words, whatever their level. Code is never part of a run: documentation repeats an example.
    # Nor, in a thread, a quotation or a post's date: two replies of one day quote
    # one post (wcxb-dev 1350, odd 2081); a poster's second post of the day repeats
    # the name and date of the first. A page's carousel of quoted testimonials,
    # cloned for its scrolling, goes (odd 0693). With `within_section`, a run of facts
    # ("label: value") under another heading than its twin's, holding none itself, is
    # an entry's own: a guide's agencies each with "Office Location: Atlanta, Georgia",
    # "Year Founded: 2011", "Team Size: 51 - 200" (wcxb-dev 0166), as another agency
    # had them. Any run under another heading: even F1 0.85880 -> 0.85848 (12 pages up,
    # 38 down: price widgets, "See review", author cards repeated per entry).
    keys = [_repeat_key(block, thread=thread) for block in blocks]
    own = partial(_entry_own, blocks, _sections(blocks)) if within_section else None
    posters = _poster_names(blocks) if thread else set()
    earlier: dict[str, list[int]] = {}
    kept: list[Block] = []
    index = 0
    while index < len(blocks):
        sources = earlier.get(keys[index])
        run = _repeated_run(keys, index, sources, own) if sources else 0
        run = _less_closing_headings(blocks, index, run)
        if (
            run >= min_run
            and sum(len(block.text) for block in blocks[index : index + run]) >= min_chars
        ):
            kept.extend(blocks[one] for one in range(index, index + run) if one in posters)
            index += run
            continue
        if keys[index]:
            earlier.setdefault(keys[index], []).append(index)
        kept.append(blocks[index])
        index += 1
    return tuple(kept)


def _less_closing_headings(blocks: Sequence[Block], start: int, run: int) -> int:
    """Return a repeated run's length without the headings that close it: each heads what
    follows the run, which does not repeat."""
    # A summary box's entry ("Best Overall", "Book of the Month Club") repeated over
    # the section it sums up (wcxb-dev 0199): the section's heading stays with it.
    # A run of headings alone is a twin's (a product page's feature titles, wcxb-dev
    # 0588): it goes whole.
    end = start + run
    closing = end
    while closing > start and blocks[closing - 1].kind in HEADINGS:
        closing -= 1
    return run if closing == start or end == len(blocks) else closing - start


class LabelKeys:
    """A page's short blocks' words as a label is compared, read once for all label steps."""

    __slots__ = ("_keys",)

    def __init__(self) -> None:
        self._keys: dict[Block, str] = {}  # a block hashes by its fields: equal, same words

    def of(self, block: Block) -> str:
        """Return a block's words, lowered, joined by single spaces."""
        key = self._keys.get(block)
        if key is None:
            key = self._keys[block] = " ".join(_TOKEN_RE.findall(block.text.lower()))
        return key


def drop_lone_labels(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    linkless: bool = False,
    headings: bool = True,
    keys: LabelKeys | None = None,
    max_chars: int = 40,
) -> tuple[Block, ...]:
    """Leave out the headings and paragraphs of at most `max_chars` that are a label alone,
    its widget gone: a share bar's ("Share this story"), an advertisement's
    ("Advertisement", "Anzeige"); with `linkless`, only those holding no link off the
    page (such a link still leads somewhere); without `headings`, paragraphs and lists
    only. `keys` shares the blocks' words between the label steps of one page."""
    # Left where they stood, not ending the content: a thread repeats "Share" under
    # every post, a story's bar stands above its first paragraph (readability-even
    # theverge's h2 "Share this story"); an ad slot's label stands between two
    # paragraphs or closes the story (nytimes-3, heise). No wcxb-dev reference holds
    # such a line.
    # Most blocks are longer than a label: their length is read first, inline; 40 is
    # longer than any share, ad or control label.
    words = keys or LabelKeys()
    return tuple(
        [
            block
            for block in blocks
            if len(block.text) > max_chars
            or (not headings and block.kind in HEADINGS)
            or not _is_label(block, pattern, linkless, words)
        ]
    )


def _is_label(block: Block, pattern: re.Pattern[str], linkless: bool, keys: LabelKeys) -> bool:
    """Tell whether a short paragraph, heading or one-item list is a label the pattern names."""
    if linkless and "<a " in block.html and _leads_off(block.html):
        return False
    if not (block.kind == "p" or block.kind in HEADINGS or _one_item(block)):
        return False
    return pattern.fullmatch(keys.of(block)) is not None


def _leads_off(html: str) -> bool:
    """Tell whether a block holds a link that leads off the page, not to a place on it."""
    # A way back to the top ("#wrap", wcxb-dev 0540) or a toggle's "#" leads nowhere
    # in the view: the place it names is no part of it.
    return any(not href.startswith("#") for href in _HREF_RE.findall(html))


# The sanitised HTML quotes every href with double quotes.
_HREF_RE = re.compile(r'<a [^>]*?href="([^"]*)"')


def drop_disclosures(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    max_chars: int = 400,
    lead: int = 10,
    foot: int = 4,
) -> tuple[Block, ...]:
    """Leave out the short paragraphs at the article's head or foot that disclose the site's
    affiliate earnings ("This post contains affiliate links")."""
    # The site's legal notice, set on every post that links to a shop. Among the
    # first `lead` blocks or the last `foot`: further in, the words may be the
    # article's own (a guide to affiliate marketing, wcxb-dev 0099).
    edge = [index < lead or len(blocks) - index <= foot for index in range(len(blocks))]
    return tuple(
        block
        for block, at_edge in zip(blocks, edge, strict=True)
        if not (
            at_edge
            and block.kind == "p"
            and len(block.text) <= max_chars
            and pattern.search(block.text.lower()) is not None
        )
    )


def _one_item(block: Block) -> bool:
    """Tell whether a block is a list of one item: a button bar's one button."""
    # wcxb-dev 0540: "Reply with quote" under every post, a list of one link.
    return block.kind in ("ul", "ol") and block.html.count("<li") == 1


# A lead-in that announces links to other posts, not the article's own list: "If you
# liked this post you might also like:", "Related Articles from the blog:" (wcxb-dev
# 0488, odd 4563).
RELATED_LEAD = re.compile(
    r"^related\b|\brelated (?:articles?|posts?|reading|resources|links|content|stories)\b|"
    r"\balso (?:like|enjoy)\b|\b(?:also|further) read(?:ing)?\b|"
    r"\brecommended (?:reading|articles|posts|stories)\b|"
    r"\bmore (?:posts|articles|stories)\b|\bother (?:people|readers)\b.*\bhelpful\b"
)


def drop_related_leads(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Leave out a paragraph that announces other posts with a colon, no list after it."""
    # "If you liked this post you might also like:" over the links the content choice
    # left out as a link list (wcxb-dev 0488): the sentence announces nothing left.
    return tuple(
        block
        for index, block in enumerate(blocks)
        if not (
            block.kind == "p"
            and block.text.rstrip(" \xa0\n\t").endswith(":")
            and RELATED_LEAD.search(block.text.lower()) is not None
            and (index + 1 == len(blocks) or blocks[index + 1].kind not in _ANNOUNCED_KINDS)
        )
    )


# What a lead-in's colon may announce.
_ANNOUNCED_KINDS = frozenset({"ul", "ol", "dl", "table", "figure", "pre", "blockquote"})


def drop_closing_headings(blocks: Sequence[Block], *, max_words: int = 12) -> Sequence[Block]:
    """Leave out the short headings the article ends with: with nothing under them, they
    title nothing (a teaser strip's "Read More Stories About:", its links gone)."""
    # A longer one is a paragraph set as a heading: wcxb-dev 0344's closing "Sources:
    # Smartphone Basics Explained ..." (an h-element of 30 words) is the article's.
    end = len(blocks)
    while end and _short_heading(blocks[end - 1], max_words):
        end -= 1
    # An article of headings alone keeps them: they are all it has.
    return blocks[:end] if end else blocks


def _short_heading(block: Block, max_words: int) -> bool:
    """Tell whether a block is a heading of `max_words` words or fewer."""
    return block.kind in HEADINGS and len(block.text.split()) <= max_words


def drop_twin_figures(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Leave out a figure that repeats the one right before it: the same image files under
    the same caption, a photo served at two sizes."""
    # Pages serve a lead photo twice, a square crop and a wide one, and let the
    # style sheet show one (readability-even theverge: DSC00889.jpg at 2400x2400
    # and 2400x1600, both captioned "The Apple Vision Pro."). Only a captioned
    # figure: a row of the same icon (rating stars, badges) is the page's own.
    kept: list[Block] = []
    before: tuple[str, tuple[str, ...]] | None = None
    for index, block in enumerate(blocks):
        key = _figure_key(block)
        crop = block.kind == "figure" and index > 0 and _crop_of(block, blocks[index - 1])
        if (key is None or key != before) and not crop:
            kept.append(block)
        before = key
    return tuple(kept)


def _crop_of(block: Block, before: Block) -> bool:
    """Tell whether an uncaptioned figure shows the image of the one right before it at
    another size: its URLs differ from them in sizes alone."""
    # Art direction: one photo in a 16:9 and a 4:3 crop, the style sheet showing one
    # ("/images/106113552/750/422/image.jpg", ".../750/562/image.jpg": wcxb-dev 0030, 33
    # pairs). A row of one icon repeats the same URL: that stays.
    if block.kind != "figure" or before.kind != "figure" or block.text.strip():
        return False
    ours, theirs = _IMAGE_SRC_RE.findall(block.html), _IMAGE_SRC_RE.findall(before.html)
    if not ours or ours == theirs or before.text.strip():
        return False
    return [_SIZES_RE.sub("#", src) for src in ours] == [_SIZES_RE.sub("#", s) for s in theirs]


# A size in an image URL: a path segment of digits ("/750/422/"), "1200x628", "w_600",
# "h=400", "?width=800"; not the digits of a file's name ("IMG_1234.jpg").
_SIZES_RE = re.compile(
    r"(?<=/)\d{2,4}(?=/)|\d{2,4}x\d{2,4}|\b[wh][_=]\d{2,4}\b|(?<=[?&])(?:width|height)=\d+"
)


def drop_logo_links(blocks: Sequence[Block], *, origin: str) -> tuple[Block, ...]:
    """Leave out the site's logo: a textless block that only links images to the home page of
    the site at ORIGIN (scheme://host), before the article's first text or after its last."""
    # A region that starts above the headline brings the header's logo in (wcxb-dev
    # 4034 twice, the desktop and the mobile one), one that ends below the article the
    # footer's. Amid the text the same link is the article's (0305: the author's photo
    # linking to the author's own site).
    texts = [index for index, block in enumerate(blocks) if block.text.strip()]
    if not texts or not origin:
        return tuple(blocks)
    host = _site_host(origin)
    return tuple(
        block
        for index, block in enumerate(blocks)
        if texts[0] <= index <= texts[-1] or not _links_home(block, host)
    )


def drop_author_photos(
    blocks: Sequence[Block],
    *,
    byline: str | None,
    prose_chars: int = 150,
    max_lead: int = 4,
    lead_prose: int = 1,
) -> tuple[Block, ...]:
    """Leave out the author's photo among the article's first blocks: an uncaptioned figure
    whose image the `byline` names, or says it is the author's, or that links to an author
    page."""
    # wcxb-dev 0198's alt "Kristian Larsen" beside a byline of that name, 0480's
    # "Author image", 0032's logo linking to /author/everfit: the byline row names them.
    # The lead is `drop_date_lines`'s.
    kept: list[Block] = []
    prose = 0
    for index, block in enumerate(blocks):
        prose += block.kind == "p" and len(block.text) >= prose_chars
        if index >= max_lead or prose > lead_prose:
            return (*kept, *blocks[index:])
        if not _author_photo(block, byline):
            kept.append(block)
    return tuple(kept)


def _author_photo(block: Block, byline: str | None) -> bool:
    """Tell whether a block is a figure of one image the byline names, an author's photo by
    its alt, or an image linking to an author page, with no caption."""
    if block.kind != "figure" or block.text.strip() or block.html.count("<img") != 1:
        return False
    alt = _ALT_RE.search(block.html)
    said = " ".join(alt.group(1).split()).lower() if alt else ""
    if said and (said == (byline or "").lower() or _AUTHOR_ALT.fullmatch(said)):
        return True
    return any(_AUTHOR_PATH.search(href) for href in _HREF_RE.findall(block.html))


# An image's alt, as the output stage serialises it.
_ALT_RE = re.compile(r' alt="([^"]*)"')
# An alt that says the image is the author's: "Author image", "author photo", "Avatar".
_AUTHOR_ALT = re.compile(r"(?:(?:the )?author(?:'s)? (?:image|photo|picture|avatar)|avatar)")
# An author's page on blog engines: WordPress's /author/, Ghost's /author/, /authors/.
_AUTHOR_PATH = re.compile(r"^https?://[^/]+/(?:[^?#]*/)?authors?/[^/?#]+/?(?:[?#]|$)")


def drop_bare_captions(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Leave out a figure that holds a caption and nothing the caption is of."""
    # Its image the view cannot show: a lazy image the saved page names no source for
    # (Dotdash Meredith's `<img class="lazyload">`, wcxb-dev 4708's "Firn | Getty
    # Images"), a placeholder, a video player removed (4072's captions). A caption
    # of nothing is announced as a figure with no image.
    return tuple(block for block in blocks if not _bare_caption(block))


def _bare_caption(block: Block) -> bool:
    """Tell whether a figure block, or a list (a carousel's items), holds figcaptions and no
    image, media or other content."""
    # A carousel's items each kept their credit alone, "Credit: The Spruce Eats" six
    # times in a list (wcxb-dev 4030, 4160): their lazy images had no source.
    if block.kind not in _CAPTIONED_KINDS or "<figcaption" not in block.html:
        return False
    if _MEDIA_RE.search(block.html):
        return False
    rest = _FIGCAPTION_RE.sub("", block.html)
    return not _TAG_RE.sub("", rest).replace("&nbsp;", "").strip()


# The blocks whose captions may be all they hold: a figure, a carousel's list.
_CAPTIONED_KINDS = frozenset({"figure", "ul", "ol"})
# What a figure shows besides its caption: media, a table, code, a formula.
_MEDIA_RE = re.compile(r"<(?:img|svg|video|audio|picture|iframe|canvas|object|table|pre|math)\b")
_FIGCAPTION_RE = re.compile(r"<figcaption\b.*?</figcaption>", re.S)
_TAG_RE = re.compile(r"<[^>]+>")


def _links_home(block: Block, host: str) -> bool:
    """Tell whether a textless block holds images and only links to HOST's home page."""
    if block.text.strip() or "<img" not in block.html:
        return False
    hrefs = _HREF_RE.findall(block.html)
    return bool(hrefs) and all(_is_home(href, host) for href in hrefs)


def _is_home(href: str, host: str) -> bool:
    """Tell whether HREF is the home page of the site at HOST: its root, with no query."""
    parts = urlsplit(href)
    return _site_host(href) == host and parts.path in {"", "/"} and not parts.query


def _site_host(url: str) -> str:
    """Return a URL's host without its "www." (the site the header's logo names); the URL has
    passed urlsplit once already (`UrlBase.of`, `UrlBase.resolve`)."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def _figure_key(block: Block) -> tuple[str, tuple[str, ...]] | None:
    """Return a captioned figure's caption and image file names; None for other blocks."""
    if block.kind != "figure" or not block.text.strip():
        return None
    names = tuple(
        urlsplit(src).path.rpartition("/")[2] for src in _IMAGE_SRC_RE.findall(block.html)
    )
    return (block.text, names) if names else None


# An image's src in a block's HTML, as the output stage serialises it.
_IMAGE_SRC_RE = re.compile(r'<img src="([^"]*)"')


def _repeat_key(block: Block, *, thread: bool) -> str:
    """Return what a block is compared by: its kind and text, its markup when textless; "" for
    what never repeats as furniture: code; in a `thread`, quotations, post dates, rules."""
    if block.kind == "pre" or (thread and _post_own(block)):
        return ""
    # Compared as one line: a section's mobile twin breaks its lines elsewhere.
    # Built blocks hold lines of single spaces (block_texts): collapsing those
    # again would cost 2% of extraction.
    text = block.text.replace("\n", " ")
    if "  " in text:
        text = collapse(text)
    # A heading by its text alone: the twin's outline may nest it a level deeper
    # (wcxb-dev 4876's mobile copy opens with an h1 of its own).
    kind = "h" if block.kind in HEADINGS else block.kind
    return f"{kind} {text}" if text else block.html


def _poster_names(blocks: Sequence[Block], *, max_chars: int = 40) -> set[int]:
    """Return the blocks of a thread that name a post's poster: a link to a member's page,
    alone on its line."""
    # A poster's name and titles ("FactChecker", "Science Advisor", "Homework Helper")
    # head each of the poster's posts alike, and go as a run repeated; the titles may
    # (furniture of the poster's), the name not: the post would answer no one (wcxb-dev
    # 0516, whose poster's second and third posts showed none).
    return {
        index
        for index, block in enumerate(blocks)
        if 0 < len(block.text.strip()) <= max_chars
        and block.kind != "figure"
        and (hrefs := _HREF_RE.findall(block.html))
        and len(hrefs) == 1
        and _MEMBER_PATH.search(hrefs[0])
        and _link_text_is_all(block)
    }


# A forum member's page: XenForo's /members/, Discourse's /u/, phpBB's memberlist.php
# ?mode=viewprofile, vBulletin's member.php, IPS's /profile/, others' /users/.
_MEMBER_PATH = re.compile(
    r"/(?:members?|users?|u|profiles?)/[^/?#]|member\.php|memberlist\.php\?mode=viewprofile|"
    r"showuser="
)


def _link_text_is_all(block: Block) -> bool:
    """Tell whether a block's one link holds all its text."""
    link = _LINK_RE.search(block.html)
    inner = _MARKUP_RE.sub("", link.group(1)) if link else ""
    return inner.split() == block.text.split()


# A link and what it holds, and a tag, in a block's HTML as the output stage serialises it.
_LINK_RE = re.compile(r"<a [^>]*>(.*?)</a>", re.DOTALL)
_MARKUP_RE = re.compile(r"<[^>]+>")


def _post_own(block: Block, *, max_chars: int = 80) -> bool:
    """Tell whether a thread's block is a post's own though it repeats: a quotation, a date,
    the rule before it (`part_posts`)."""
    return block.kind in ("blockquote", "hr") or _bare_date(block.text, max_chars)


def _repeated_run(
    keys: Sequence[str],
    start: int,
    sources: Sequence[int],
    own: Callable[[int, int, int], bool] | None = None,
) -> int:
    """Return how many blocks from `start` on repeat, key for key, the blocks after one of the
    earlier places `sources`, each earlier run ending before `start`; not a run `own` tells
    is its entry's own (from the source, the start and the length)."""
    longest = 0
    for source in sources:
        length = 0
        while (
            source + length < start
            and start + length < len(keys)
            and keys[start + length]
            and keys[start + length] == keys[source + length]
        ):
            length += 1
        # The entry test only where the run would count: most are one block long, and
        # one block alone is never left out (`min_run` is 2 in every variant).
        if length > longest and (own is None or length < 2 or not own(source, start, length)):
            longest = length
    return longest


def _entry_own(
    blocks: Sequence[Block], sections: Sequence[int], source: int, start: int, length: int
) -> bool:
    """Tell whether a run repeating an earlier one is an entry's facts under another heading."""
    return not _one_section(sections, source, start, length) and _entry_facts(
        blocks, start, length
    )


def _entry_facts(blocks: Sequence[Block], start: int, length: int) -> bool:
    """Tell whether a run of blocks is an entry's facts: each a label of up to four words,
    a colon and its value ("Year Founded: 2011")."""
    return all(_FACT.fullmatch(block.text.strip()) for block in blocks[start : start + length])


# A fact's line: a label of one to four words, a colon, a short value on the same line.
_FACT = re.compile(r"[^\W\d_][\w'’&/.()-]*(?:[ \t]+[\w'’&/.()-]+){0,3}[ \t]*:[ \t]*\S[^\n]{0,60}")


def _sections(blocks: Sequence[Block]) -> list[int]:
    """Return, for each block, the index of the heading it stands under (itself, if one), or
    -1 before the first."""
    sections: list[int] = []
    current = -1
    for index, block in enumerate(blocks):
        if block.kind in HEADINGS:
            current = index
        sections.append(current)
    return sections


def _one_section(sections: Sequence[int], source: int, start: int, length: int) -> bool:
    """Tell whether a run and its earlier twin stand under one heading, or the run holds a
    heading (a section served twice, its title with it)."""
    return sections[source] == sections[start] or sections[start + length - 1] >= start


def drop_date_lines(
    blocks: Sequence[Block],
    *,
    published: str | None,
    byline: str | None = None,
    max_chars: int = 80,
    prose_chars: int = 150,
    max_lead: int = 6,
    lead_prose: int = 1,
) -> tuple[Block, ...]:
    """Leave out the short date, "updated" and reading-time lines that open the article,
    which the reader page's byline row shows."""
    # The byline row shows the reading time always and the date when the page's
    # metadata gives one (`published`, ISO 8601). Among the first `max_lead` blocks kept
    # (4 until a table of contents at the head took three of them, wcxb-dev 0044: 6 moved
    # 15 pages up on each split, none down; docs/evaluation.md),
    # up to the paragraph of `prose_chars` after `lead_prose` such paragraphs, a line
    # of up to `max_chars` that says only that goes; later ones are the content's own
    # (a thread's post dates). One paragraph may come first: a standfirst stands
    # above the row on many pages (wcxb-dev 4668, 4478, 0496: 0 then).
    # The lines that go do not count: a row cut into pieces ("Edited by", "•",
    # "Reviewed by", wcxb-dev 0026) is one line of the lead.
    # A bare date opens each post of a thread: where two lines are bare dates, the
    # first is a post's, not the row's (the forum goldens).
    day = published if published and _bare_dates(blocks, max_chars) < 2 else None
    kept: list[Block] = []
    prose = 0
    for index, block in enumerate(blocks):
        prose += block.kind == "p" and len(block.text) >= prose_chars
        if len(kept) >= max_lead or prose > lead_prose:
            return (*kept, *blocks[index:])
        if len(block.text) > max_chars or not _says_only(
            block, published=published, byline=byline, day=day
        ):
            kept.append(block)
    return tuple(kept)


def lead_date(
    blocks: Sequence[Block],
    *,
    max_chars: int = 80,
    prose_chars: int = 150,
    max_lead: int = 4,
    lead_prose: int = 1,
) -> range:
    """Return the lines of the date that opens the article, its label's with it, for the
    byline row to show where the page's metadata gives no date; empty when there is none."""
    # wcxb-dev 0200's "Aug 15", 0026's "Updated on July 9, 2025", 0158's "January 31,
    # 2024": the page's only date, above its text. The lead is `drop_date_lines`'s. A
    # thread opens each post with a date: where two lines are bare dates, none is lifted.
    if _bare_dates(blocks, max_chars) >= 2:
        return range(0)
    prose = 0
    for index, block in enumerate(blocks[:max_lead]):
        prose += block.kind == "p" and len(block.text) >= prose_chars
        if prose > lead_prose:
            break
        if block.kind == "p" and len(block.text) <= max_chars and _date_only(block.text):
            # Its label on the line before: 0019's "Last updated:" over "Dec 12, 2025".
            return range(index - _labelled(blocks, index), index + 1)
    return range(0)


def _labelled(blocks: Sequence[Block], index: int) -> int:
    """Tell whether the line before INDEX is a date's label that a colon ends (1) or not (0)."""
    if index == 0 or blocks[index - 1].kind != "p":
        return 0
    text = blocks[index - 1].text.rstrip()
    words = _TOKEN_RE.findall(text.lower())
    return int(text.endswith(":") and set(words) <= _LABEL_WORDS and not _STAMPS.isdisjoint(words))


def _date_only(text: str) -> bool:
    """Tell whether a line says only a date, stamped or not: a month's name and a number
    ("Aug 15", "Updated on July 9, 2025"), or a year and two more numbers."""
    words = _TOKEN_RE.findall(text.lower())
    if not words or _rest(words):
        return False
    numbers = [word for word in words if _NUMBER.fullmatch(word)]
    named = any(word in _MONTH_NUMBERS for word in words)
    return bool(numbers) and (named or (len(numbers) >= 3 and _YEAR.search(text) is not None))


def drop_vote_counts(blocks: Sequence[Block], *, max_chars: int = 8) -> tuple[Block, ...]:
    """Leave out a thread's vote counts: a paragraph of a number alone, not linked."""
    # Stack Exchange sets a question's and each answer's score as a paragraph of its
    # own ("300", "-2", "1.2k": wcxb-dev 4310, 0360, 2828); read out of its buttons, it
    # is a number without a meaning. Only where the page holds dated posts (a thread).
    return tuple(
        block
        for block in blocks
        if not (
            block.kind == "p"
            and len(block.text) <= max_chars
            and _VOTE_COUNT.fullmatch(block.text) is not None
            and "<a " not in block.html
        )
    )


# A score as a thread shows it: a sign, digits with their separators, a "k".
_VOTE_COUNT = re.compile(r"[-+−]?\d[\d,.]*[kK]?")


def drop_foot_date_lines(
    blocks: Sequence[Block],
    *,
    published: str | None,
    byline: str | None = None,
    max_chars: int = 80,
    prose_chars: int = 150,
    max_foot: int = 3,
) -> tuple[Block, ...]:
    """Leave out the date, author and reading-time lines that close the article: the byline
    row set at its foot."""
    # Blogger's post footer ("Posted by David at December 16, 2025 11:15 AM", wcxb-dev
    # 0452), an author line after the text (4416): the lines `drop_date_lines` reads
    # at the head, read from the end, up to the last paragraph of `prose_chars`.
    foot = drop_date_lines(
        blocks[::-1],
        published=published,
        byline=byline,
        max_chars=max_chars,
        prose_chars=prose_chars,
        max_lead=max_foot,
        lead_prose=0,
    )
    return foot[::-1]


def drop_lead_tag_lines(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    max_chars: int = 200,
    prose_chars: int = 150,
    max_lead: int = 4,
) -> tuple[Block, ...]:
    """Leave out a post's tag line set above the article: a taxonomy label and its values
    ("Category: Tech matters", "Tags: DNS, outages") among its first blocks."""
    # The tail's tag line ends the content (`cut_furniture_tail`); set at the head
    # (wcxb-dev 0454, 2362, 4091, 4106) it stood before the story. Among the first
    # `max_lead` blocks, before the first paragraph of `prose_chars`.
    lead = 0
    while lead < min(max_lead, len(blocks)) and not (
        blocks[lead].kind == "p" and len(blocks[lead].text) >= prose_chars
    ):
        lead += 1
    kept = [block for block in blocks[:lead] if not _tag_line(block, pattern, max_chars)]
    return (*kept, *blocks[lead:])


def drop_lead_breadcrumbs(
    blocks: Sequence[Block],
    *,
    title: str,
    max_lead: int = 3,
    max_words: int = 10,
    min_link_share: float = 0.3,
) -> tuple[Block, ...]:
    """Leave out a breadcrumb trail among the article's first `max_lead` blocks: a paragraph
    of links joined by ">", "»", "/" ..., each part of at most `max_words` words, that ends
    with the headline or is all links."""
    # "Consulting Articles > Consulting Vs Other Careers > Insurance Consultant vs.
    # MBB Consultant..." opened wcxb-dev 0372's view: the page's place in its site.
    lead = blocks[:max_lead]
    kept = [block for block in lead if not _breadcrumb(block, title, max_words, min_link_share)]
    return (*kept, *blocks[max_lead:])


def _breadcrumb(block: Block, title: str, max_words: int, min_link_share: float) -> bool:
    """Tell whether a block is a breadcrumb trail (see drop_lead_breadcrumbs)."""
    if block.kind != "p" or block.link_chars < min_link_share * block.text_chars:
        return False
    parts = [" ".join(part.split()) for part in _CRUMB_SEPARATOR.split(block.text)]
    if len(parts) < 2 or not all(parts) or any(len(p.split()) > max_words for p in parts):
        return False
    # All links but the separators, or the last part the page itself, unlinked.
    linked = block.link_chars >= _ALL_LINKS * block.text_chars
    return linked or parts[-1].casefold() == " ".join(title.split()).casefold()


# The link share of a trail whose every part links (its separators do not).
_ALL_LINKS = 0.8
# A breadcrumb's separators, with space around or not ("Home > Blog", "Home/Blog").
_CRUMB_SEPARATOR = re.compile(r"\s*[>»›→|/]\s*")


def _bare_dates(blocks: Sequence[Block], max_chars: int, *, enough: int = 2) -> int:
    """Count the lines that are a date alone, a year and a month's name or two more numbers,
    up to ENOUGH."""
    count = 0
    for block in blocks:
        count += _bare_date(block.text, max_chars)
        if count >= enough:
            break
    return count


def _bare_date(text: str, max_chars: int) -> bool:
    """Tell whether a line is a date alone: a year and a month's name or two more numbers."""
    # Only a short line with a year is read word by word.
    if len(text) > max_chars or not _YEAR.search(text):
        return False
    words = _TOKEN_RE.findall(text.lower())
    numbers = [word for word in words if _NUMBER.fullmatch(word)]
    named = any(word in _MONTH_NUMBERS for word in words)
    return (named or len(numbers) >= 3) and not _rest(words)


def drop_teaser_grids(
    blocks: Sequence[Block],
    *,
    headings: re.Pattern[str],
    min_figures: int = 2,
    max_label_chars: int = 40,
) -> tuple[Block, ...]:
    """Leave out a heading that names other posts with the bare figures under it: a teaser
    grid whose titles, links all, were left out."""
    # wcxb-dev 0174's "More Proof Points", 0290's "The Latest From the Blog", 4096's
    # "Recommended" and "Latest": three to six images each, no title, no caption, up to
    # the next heading or label or the end. A gallery of the article's own photos under
    # "More photos" keeps them: "more" names teasers only when each image links to a page.
    gone: set[int] = set()
    for index, block in enumerate(blocks):
        if not _grid_label(block, max_label_chars):
            continue
        end = _bare_figures_end(blocks, index + 1)
        run = blocks[index + 1 : end]
        if sum(one.kind == "figure" for one in run) < min_figures:
            continue
        closed = end == len(blocks) or _grid_label(blocks[end], max_label_chars)
        if closed and _names_teasers(block, run, headings):
            gone.update(range(index, end))
    return tuple(block for index, block in enumerate(blocks) if index not in gone)


def _grid_label(block: Block, max_chars: int) -> bool:
    """Tell whether a block is a heading, or a short line ending in a word: a grid's title."""
    if block.kind in HEADINGS:
        return True
    text = block.text.strip()
    return block.kind == "p" and 0 < len(text) <= max_chars and text[-1].isalnum()


def _bare_figures_end(blocks: Sequence[Block], start: int, *, max_chars: int = 80) -> int:
    """Return where a run of captionless figures and bare dates from `start` ends."""
    end = start
    while end < len(blocks) and (
        (blocks[end].kind == "figure" and not blocks[end].text.strip())
        or (blocks[end].kind == "p" and _bare_date(blocks[end].text, max_chars))
    ):
        end += 1
    return end


def _names_teasers(label: Block, run: Sequence[Block], headings: re.Pattern[str]) -> bool:
    """Tell whether a grid's title names other posts: as furniture does, or "More ..." over
    images that each link to a page."""
    if heading_names_furniture(label.text, headings):
        return True
    if not label.text.strip().lower().startswith("more "):
        return False
    figures = [block for block in run if block.kind == "figure"]
    return all(_links_to_page(block.html) for block in figures)


def _links_to_page(html: str) -> bool:
    """Tell whether a block's HTML holds a link to a page, not to an image file or a place."""
    return any(
        href.startswith(("http://", "https://", "/")) and not _IMAGE_FILE.search(href)
        for href in _HREF_RE.findall(html)
    )


# A link to an image file: a gallery's link to the full-size photo.
_IMAGE_FILE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg)(?:[?#].*)?$", re.IGNORECASE)


def cut_teaser_dates(
    blocks: Sequence[Block], *, max_chars: int = 80, excerpt_chars: int = 150, min_dates: int = 3
) -> tuple[Block, ...]:
    """End the content at a run of bare dates after its last prose: a teaser list whose
    titles, links all, were left out."""
    # wcxb-dev 0335, 0345, 0413, 1222: "April 21, 2025", "Looking to choose a tutor
    # but feeling overwhelmed? Learn essential", "April 14, 2025", ... The run, read
    # from the end, holds dates, bylines ("by Ken Scar") and excerpts cut short (no
    # closing punctuation, under `excerpt_chars`) and images; it goes from its first
    # date or image.
    start, dates = len(blocks), 0
    while start and _teaser_remnant(blocks[start - 1], max_chars, excerpt_chars):
        start -= 1
        dates += _bare_date(blocks[start].text, max_chars)
    if dates < min_dates:
        return tuple(blocks)
    while blocks[start].kind != "figure" and not _bare_date(blocks[start].text, max_chars):
        start += 1
    return tuple(blocks[:start])


def _teaser_remnant(block: Block, max_chars: int, excerpt_chars: int) -> bool:
    """Tell whether a block is what a teaser leaves without its title: its image, date,
    byline, or its excerpt cut off mid-sentence."""
    text = block.text.strip()
    if block.kind == "figure":  # its image
        return len(text) < excerpt_chars
    if block.kind != "p" or not text:
        return False
    if _bare_date(text, max_chars):
        return True
    if len(text) <= max_chars and text.lower().startswith("by "):
        return True
    return len(text) < excerpt_chars and text[-1].isalnum()


def _says_only(
    block: Block, *, published: str | None, byline: str | None = None, day: str | None = None
) -> bool:
    """Tell whether a line says only when (stamped, or the `day` alone), by whom (the `byline`)
    or how long to read, in English, or nothing at all."""
    words = _TOKEN_RE.findall(block.text.lower())
    if not words:
        return _separator(block)
    # A byline's lead word with its name left out as a link line (readability-even
    # cnet-svg-classes' "por", wcxb-dev's "By", "Written by", 0026's "Edited by").
    if set(words) <= _BY_WORDS:
        return True
    # A date's label with its date left out, or drawn by a script: "Updated",
    # "Published" (wcxb-dev 4014, 4603, 4606). Without a date it says nothing; with a
    # colon, its date is the next line's (0019's "Last updated:" over "Dec 12, 2025").
    if _date_label(words, block.text):
        return True
    # The author's name alone ("Mark Di Stefano", "By Ann Lee", "por César Salza"), as the
    # row names them, after the byline's lead words ("di" may be a name's own).
    if byline and _names_only(_after_lead(words, _BY_WORDS), byline):
        return True
    named = bool(byline) and str(byline).lower() in block.text.lower()
    if not (_reading_time(words) or _stamped(words, published=published, named=named)):
        # A bare date may open a post (a thread's first one): the day the row shows
        # goes alone (wcxb-dev 0002's "August 25, 2025" under a row dated 2025-08-25).
        return _names_day(words, day) and not _rest(words)
    # Besides those words, a name at most ("by Ann Lee | May 2, 2025"); with a byline's
    # lead word, of up to four words ("By Angela Kaye Carpenter Updated on February 16";
    # "Posted in News Release" names no one: its rest is a category).
    named_by = not _NAMING_WORDS.isdisjoint(words)
    return len(_rest(words)) <= (4 if named_by else 2)


def _names_only(words: Sequence[str], byline: str) -> bool:
    """Tell whether words are the byline's names, joined by "and" as a sentence joins them."""
    # The row joins names with commas, a line with "and" too (wcxb-dev 0010: "Written by
    # Danielle DeSiato, Donna Enzmann, and Natalie Nguyen").
    named = [word for word in words if word not in _AND_WORDS]
    return named == [word for word in _TOKEN_RE.findall(byline.lower()) if word not in _AND_WORDS]


# The words that join names in a byline, in the languages of `_BY_WORDS`.
_AND_WORDS = tag_set("and und et y e en och")


def _after_lead(words: Sequence[str], lead: frozenset[str]) -> Sequence[str]:
    """Return the words after those of LEAD that open them."""
    start = 0
    while start < len(words) and words[start] in lead:
        start += 1
    return words[start:]


def _date_label(words: Sequence[str], text: str) -> bool:
    """Tell whether a line is a date's label alone ("Updated", "Published on"), not one
    whose colon introduces a date on the next line."""
    return (
        set(words) <= _LABEL_WORDS
        and not _STAMPS.isdisjoint(words)
        and not text.rstrip().endswith(":")
    )


def _separator(block: Block, *, max_chars: int = 3) -> bool:
    """Tell whether a paragraph without a word is a separator of the byline row ("•", "|")."""
    # Text alone: a paragraph of a formula and its full stop shows "." as its text.
    inner = block.html.removeprefix("<p>").removesuffix("</p>")
    return (
        block.kind == "p" and "<" not in inner and 0 < len("".join(block.text.split())) <= max_chars
    )


def _reading_time(words: Sequence[str]) -> bool:
    """Tell whether words say how long to read: "9 min read", "Reading Time: 11 minutes",
    or a number of minutes alone ("15 min")."""
    if len(words) == 2 and _NUMBER.fullmatch(words[0]) and words[1] in _MINUTES:
        return True
    return not _READ_WORDS.isdisjoint(words) and any(word.startswith("min") for word in words)


def _stamped(words: Sequence[str], *, published: str | None, named: bool) -> bool:
    """Tell whether words hold a stamped date ("Updated ...") or, beside the byline's name, a
    date, where the row shows a date."""
    return published is not None and any(
        word in _STAMPS or (named and (word in _DATE_WORDS or _NUMBER.fullmatch(word)))
        for word in words
    )


def _names_day(words: Sequence[str], published: str | None) -> bool:
    """Tell whether words name the day of an ISO date: its year (unless they name none), its
    month (by name or number) and its day, in any order."""
    match = _ISO_DAY.match(published or "")
    if match is None:
        return False
    year, month, day = (int(part) for part in match.groups())
    numbers = {int(match[1]) for word in words if (match := _NUMBER.fullmatch(word))}
    months = {_MONTH_NUMBERS[word] for word in words if word in _MONTH_NUMBERS}
    # A month's name and day without a year (Wix's "Aug 15", wcxb-dev 0200, 0230) name
    # the row's day too; a line with another year names another day.
    yearless = months and max(numbers, default=0) <= _MAX_DAY
    dated = year in numbers or bool(yearless)
    return dated and day in numbers and (month in months or month in numbers)


def _rest(words: Sequence[str]) -> list[str]:
    """Return the words that are not dates, numbers or a date line's own words."""
    return [word for word in words if word not in _LINE_WORDS and not _NUMBER.fullmatch(word)]


# The months, in English and the languages of its neighbours on the reference pages:
# Spanish, French, German, Italian, Portuguese, Dutch (readability-even
# cnet-svg-classes' "1 de diciembre de 2017 3:00 AM PST" under a row of that day).
_MONTH_NAMES = (
    "january february march april may june july august september october november december",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "januar februar märz april mai juni juli august september oktober november dezember",
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "januari februari maart april mei juni juli augustus september oktober november december",
)
_MONTH_NUMBERS = (
    {name: number for names in _MONTH_NAMES for number, name in enumerate(names.split(), start=1)}
    | {name[:3]: number for number, name in enumerate(_MONTH_NAMES[0].split(), start=1)}
    | {"sept": 9, "setiembre": 9, "jänner": 1}
)
_STAMPS = tag_set(
    "updated published posted "
    "publicado actualizado publié aktualisiert veröffentlicht aggiornato pubblicato "
    "atualizado gepubliceerd bijgewerkt"
)
_DATE_WORDS = frozenset(_MONTH_NUMBERS) | _STAMPS
_MINUTES = tag_set("min mins minute minutes")
_READ_WORDS = tag_set("read reading")
# The words that lead a byline, in the languages of the reference pages and their
# neighbours: "by", "written by", "edited by", "por", "von", "par", "di", "door", "av",
# "af", "przez".
_BY_WORDS = tag_set(
    "by written posted author authors edited reviewed por von par di door av af przez "
    # a fact-checker's credit ("Fact checked by", its name in a hover card, wcxb-dev 0044)
    "fact checked"
)
# A date's label: its stamp word, with "last" and "on" ("Last updated on").
_LABEL_WORDS = _STAMPS | tag_set("last on")
# The byline's lead words that name a person after them ("posted" may lead a category).
_NAMING_WORDS = _BY_WORDS - {"posted"}
# A date line's own words; a byline's lead words among them ("2025-11-03 14 min read
# Written by Christian Eilers", wcxb-dev 4034: its name is the line's only rest).
_LINE_WORDS = (
    _DATE_WORDS
    | _MINUTES
    | _READ_WORDS
    | _BY_WORDS
    | tag_set(
        "last on at and time am pm monday tuesday wednesday thursday friday saturday sunday "
        # a weekday's short name ("Fri, 19th Dec 2025", wcxb-dev 0480)
        "mon tue tues wed thu thur thurs fri sat sun "
        # a relative date ("Published a day ago ~ 6 minutes read", wcxb-dev 0466)
        "ago a an today yesterday hour hours day days week weeks month months year years "
        # a time zone ("November 3, 2025 (8:42 AM ET)", wcxb-dev 0078)
        "et est edt pt pst pdt ct cst cdt mt mst mdt utc gmt bst cet cest "
        # a date's own words in the other languages ("1 de diciembre", "am 1. Dezember um 3
        # Uhr", "mis à jour le 1er décembre")
        "de del el le à am um uhr il mis jour"
    )
)
# A number, an ordinal ("26th", French "1er"), or an hour's minutes ("10:19am" reads "10 19am").
_NUMBER = re.compile(r"(\d+)(?:st|nd|rd|th|er|e|am|pm)?")
# A year, as a date line writes it.
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
# The highest day of a month.
_MAX_DAY = 31
# The day of an ISO 8601 date or date and time.
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def trim_rules(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Drop rules at the ends and repeated rules: they separate nothing."""
    if all(block.kind != "hr" for block in blocks):
        return tuple(blocks)
    kept: list[Block] = []
    for block in blocks:
        if block.kind == "hr" and (not kept or kept[-1].kind == "hr"):
            continue
        kept.append(block)
    while kept and kept[-1].kind == "hr":
        kept.pop()
    return tuple(kept)
