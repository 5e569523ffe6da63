"""The extraction pipeline: bytes in, `Article | Skip` out."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from types import MappingProxyType
from urllib.parse import urljoin

from lxml import etree

from addon.core.decode import Decoded, decode
from addon.core.dom import text_content
from addon.core.heuristics.chrome import drop_chrome
from addon.core.heuristics.direction import declared_direction, page_direction
from addon.core.heuristics.hiding import (
    Formula,
    drop_classed_hidden,
    drop_non_content,
    restore_formulas,
)
from addon.core.heuristics.language import detect_language
from addon.core.heuristics.metadata import (
    NOTHING_DECLARED,
    Declared,
    PageMeta,
    declared_lang,
    declares_article,
    declares_discussion,
    read_metadata,
)
from addon.core.heuristics.mojibake import may_hold_mojibake, repair_mojibake
from addon.core.heuristics.names import (
    PageNames,
    all_furniture_words,
    drop_named_furniture,
    opens_discussion,
    page_names,
)
from addon.core.heuristics.parse import mend_markup, parse
from addon.core.heuristics.readerable import (
    DATE_LINE_REASON,
    FOOT_DATE_LINE_REASON,
    content_share,
    dated_lines,
    is_readerable,
)
from addon.core.heuristics.site_memory import (
    SiteMemory,
    fingerprint,
    forget_template,
    page_fingerprints,
)
from addon.core.heuristics.tree import Chosen, choose_content, line_of
from addon.core.output.blocks import build_blocks, kept_text
from addon.core.output.furniture import (
    LabelKeys,
    cut_furniture_tail,
    cut_teaser_dates,
    drop_author_photos,
    drop_bare_captions,
    drop_closing_headings,
    drop_date_lines,
    drop_disclosures,
    drop_foot_date_lines,
    drop_lead_breadcrumbs,
    drop_lead_tag_lines,
    drop_logo_links,
    drop_lone_labels,
    drop_related_leads,
    drop_repeated_blocks,
    drop_teaser_grids,
    drop_twin_figures,
    drop_vote_counts,
    furniture_pattern,
    label_bar_pattern,
    lead_date,
    trim_rules,
)
from addon.core.output.headings import headline_link, outline
from addon.core.output.images import bind_captions
from addon.core.output.posts import part_posts
from addon.core.output.text import plain_text, word_count
from addon.core.output.urls import UrlBase, link_host
from addon.core.paper.blockextractor import (
    BleIeBlock,
    choose_blocks,
    find_content,
    remove_scripts_and_comments,
    site_blocks,
)
from addon.core.paper.danag import Selection, select_lines, select_lines_r2l
from addon.core.paper.lines import Line, build_lines
from addon.core.paper.titlefinder import Headline, find_headline
from addon.core.params import (
    ALGORITHMS,
    MAX_PAGE_BYTES,
    BlockExtractorParams,
    DanagParams,
    ExtendParams,
    ExtractParams,
    Words,
    params_for,
)
from addon.core.result import LINE_TEXT_CHARS, Article, Block, Diagnostics, LeftOut, Skip

_BINARY_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(slots=True)
class _Clock:
    """Milliseconds spent per stage, for the diagnostics and the profile."""

    laps: dict[str, float] = field(default_factory=dict)
    last: float = field(default_factory=time.perf_counter)

    def lap(self, stage: str) -> None:
        """Record the time since the previous lap under `stage`."""
        now = time.perf_counter()
        self.laps[stage] = round((now - self.last) * 1000, 3)
        self.last = now


@dataclass(frozen=True, slots=True)
class SitePage:
    """Another page of the same site as the one extracted: its body, URL and content type."""

    body: bytes
    url: str | None = None
    content_type: str | None = None


def extract(
    body: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    params: ExtractParams | None = None,
    audit: bool = False,
    memory: SiteMemory | None = None,
    learn: bool = False,
    site: Sequence[SitePage] = (),
) -> Article | Skip:
    """Extract the main content and headline of one page (thesis ch. 4-5).

    With `audit`, the diagnostics also hold the kept source elements' text. With
    `memory`, the blocks the site's other pages hold are left out (site memory); with
    `learn`, the article carries the page's fingerprints, for the memory of later pages.
    `site` holds other pages of the same site, for the algorithms that compare pages
    (BlockExtractor's Step 3); the others leave them unread.
    """
    params = params or params_for()
    clock = _Clock()
    root = parse_page(body, content_type=content_type, max_bytes=params.max_bytes, clock=clock)
    if isinstance(root, Skip):
        return root
    memo = _SiteMemo(memory, learn)
    # Looked for in the page's own text, in C: a walk of the tree for them cost 1.4 ms.
    templates = "{{" in body if isinstance(body, str) else b"{{" in body
    return _extract_tree(
        root,
        url=url,
        params=params,
        clock=clock,
        audit=audit,
        site=site,
        memo=memo,
        templates=templates,
    )


def parse_page(
    body: bytes | str,
    *,
    content_type: str | None = None,
    max_bytes: int = MAX_PAGE_BYTES,
    clock: _Clock | None = None,
) -> etree._Element | Skip:
    """Decode and parse a page as a browser would, or say why it is no HTML page."""
    clock = clock or _Clock()
    if len(body) > max_bytes:
        return Skip(f"too large: {len(body)} bytes (limit {max_bytes})")
    decoded = (
        Decoded(body, "utf-8", "default") if isinstance(body, str) else decode(body, content_type)
    )
    clock.lap("decode")
    head = decoded.head(_SNIFFED_CHARS)
    if not_html := why_not_html(head, sample=_SNIFFED_CHARS, has_markup=decoded.holds_ascii("<")):
        return Skip(not_html)
    # The parser reads a valid UTF-8 page's bytes: its text is not decoded.
    root = parse(None if decoded.utf8 is not None else decoded.text, utf8=decoded.utf8)
    if root is None:
        return Skip("empty page: nothing to parse")
    if may_hold_mojibake(decoded):
        repair_mojibake(root)
    clock.lap("parse")
    return root


def learn_page(body: bytes | str, *, content_type: str | None = None) -> frozenset[int]:
    """Return a page's block fingerprints for the site memory (none without an article)."""
    result = extract(body, content_type=content_type, learn=True)
    return frozenset() if isinstance(result, Skip) else result.fingerprints


def why_not_html(
    text: str,
    *,
    sample: int = 4096,
    max_control_share: float = 0.05,
    has_markup: bool | None = None,
) -> str:
    """Return why a decoded body is not an HTML page, or "" when it may be one.

    `text` may be the page's first `sample` characters only, if `has_markup` tells
    whether the whole page holds a "<".
    """
    head = text[:sample]
    if not head.strip():
        return "empty page: no text"
    controls = _BINARY_CONTROL.subn("", head)[1]  # counted in C, not char by char
    # Binary data decodes to a mix of control and replacement characters.
    if (controls + head.count("\ufffd")) > max_control_share * len(head):
        return "not HTML: binary data"
    if not ("<" in text if has_markup is None else has_markup):
        return "not HTML: no markup"
    return ""


# The characters why_not_html() looks at.
_SNIFFED_CHARS = 4096


def _extract_tree(
    root: etree._Element,
    *,
    url: str | None,
    params: ExtractParams,
    clock: _Clock,
    audit: bool = False,
    site: Sequence[SitePage] = (),
    memo: _SiteMemo | None = None,
    templates: bool = True,
) -> Article | Skip:
    """Read the page (preprocessing and DANAg, or BlockExtractor; TitleFinder), then write
    its article (output); `templates` tells whether the page may hold unfilled template
    expressions."""
    if params.blockextractor is not None:
        found = _read_blocks(
            root, params.blockextractor, url=url, params=params, clock=clock, site=site
        )
    else:
        found = _read_page(root, url=url, params=params, clock=clock, templates=templates)
    if isinstance(found, Skip):
        return found
    return _write_article(found, url=url, params=params, clock=clock, audit=audit, memo=memo)


@dataclass(frozen=True, slots=True)
class _SiteMemo:
    """What the site memory asks of one page: its other pages' memory, and learning it."""

    memory: SiteMemory | None = None
    learn: bool = False


def _read_page(
    root: etree._Element,
    *,
    url: str | None,
    params: ExtractParams,
    clock: _Clock,
    templates: bool = True,
) -> _Found | Skip:
    """Read all the article needs from the page: preprocessing, DANAg (ch. 4), TitleFinder."""
    meta = read_metadata(root)
    done = preprocess(root, params.extend, templates=templates)
    if done.skip:
        return Skip(done.skip)
    clock.lap("preprocess")
    lines = build_lines(root, params.danag)
    clock.lap("lines")
    selection = run_danag(lines, params.danag)
    clock.lap("core")
    headline = find_headline(
        root, meta.title, params.title, og_title=meta.og_title, ld_headline=meta.ld_headline
    )
    clock.lap("title")
    discussion = bool(params.extend.discussion_post_chars) and declares_discussion(root, meta)
    # A thread's posts open with their poster's name and date: content, not a byline.
    dated_posts = done.thread or discussion
    base_url = base_of(url, meta.base_href)
    chosen = choose_content(
        lines,
        selection,
        headline,
        params.extend,
        thread=dated_posts,
        host=link_host(base_url or ""),
    )
    if not chosen.top:
        return Skip("no main content found", title=_headline_text(headline, meta))
    # Read here: the output stage takes the content out of the page, away from its ancestors.
    lang, direction = declared_lang(chosen.top) or meta.lang, declared_direction(chosen.top)
    said = declares_article(root, meta)  # what the page calls itself, for the reader check
    return _Found(
        lines, selection, headline, chosen, meta, discussion, base_url, lang, direction,
        dated_posts, said, done.formulas,
    )  # fmt: skip


def _read_blocks(
    root: etree._Element,
    be: BlockExtractorParams,
    *,
    url: str | None,
    params: ExtractParams,
    clock: _Clock,
    site: Sequence[SitePage],
) -> _Found | Skip:
    """Read all the article needs from the page with BlockExtractor, and TitleFinder."""
    meta = read_metadata(root)
    # BlockExtractor's own first step; the lines (for the diagnostics and the reader
    # check) and TitleFinder read the page it reads.
    remove_scripts_and_comments(root)
    lines = build_lines(root, params.danag)
    clock.lap("lines")
    others = _site_blocks(site) if be.remove_redundant else []
    found = find_content(root, threshold=be.threshold, others=others, max_share=be.same_block_share)
    clock.lap("core")
    headline = find_headline(
        root, meta.title, params.title, og_title=meta.og_title, ld_headline=meta.ld_headline
    )
    clock.lap("title")
    chosen = choose_blocks(found, lines, headline.element if headline else None)
    if not chosen.top:
        return Skip("no main content found", title=_headline_text(headline, meta))
    lang, direction = declared_lang(chosen.top) or meta.lang, declared_direction(chosen.top)
    selection = Selection([], [], chosen.lines)
    base_url = base_of(url, meta.base_href)
    said = declares_article(root, meta)
    return _Found(
        lines, selection, headline, chosen, meta, False, base_url, lang, direction, declared=said
    )


def _headline_text(headline: Headline | None, meta: PageMeta) -> str:
    """Return the headline TitleFinder found, or the title the page states (ch. 5)."""
    return headline.text if headline else (meta.og_title or meta.title)


def _site_blocks(site: Sequence[SitePage]) -> list[BleIeBlock]:
    """Return the blocks of the site's other pages (BlockExtractor's Step 1 on each)."""
    blocks: list[BleIeBlock] = []
    for page in site:
        decoded = decode(page.body, page.content_type)
        root = parse(None if decoded.utf8 is not None else decoded.text, utf8=decoded.utf8)
        if root is not None:  # a page that does not parse holds no block
            blocks += site_blocks(root)
    return blocks


@dataclass(frozen=True, slots=True)
class Preprocessed:
    """What preprocessing found: why to skip the page ("" for none), and whether its posts
    marked as comments are its content (a thread)."""

    skip: str
    thread: bool
    formulas: tuple[Formula, ...] = ()


def preprocess(
    root: etree._Element, extend: ExtendParams, *, templates: bool = True
) -> Preprocessed:
    """Drop what is never content: hidden parts, chrome, named furniture; say why to skip.
    Without `templates`, the page holds no unfilled template expression to look for."""
    mend_markup(root)
    formulas = drop_non_content(
        root,
        unvoiced_max_link_share=extend.unvoiced_max_link_share if extend.keep_unvoiced else None,
        disclosed_max_link_share=extend.unvoiced_max_link_share if extend.keep_disclosed else None,
        place_streamed=extend.place_streamed,
        tooltips=extend.drop_tooltips,
        templates=templates,
    )
    if extend.drop_chrome:
        drop_chrome(
            root, max_share=extend.chrome_max_share, signup_max_chars=extend.signup_max_chars
        )
    # Read once for both steps (the tree does not change between them), with every
    # class/id word either may ask about.
    names = page_names(root, all_furniture_words(extend))
    if extend.hiding_classes:
        # Found among the values read once: most pages hold none of the words.
        drop_classed_hidden(root, names.named(extend.hiding_classes))
    words = furniture_words(root, extend, names)
    banners = drop_named_furniture(
        root,
        words,
        extend.footer_words,
        extend.review_words,
        max_share=extend.chrome_max_share,
        footer_max_share=extend.footer_max_share,
        review_max_sections=extend.review_max_sections,
        consent_words=extend.consent_words,
        names=names,
        headings=_furniture_headings(extend),
    )
    thread = bool(extend.comment_words) and not extend.comment_words <= words
    skip = banner_only(root, banners, min_rest=extend.consent_min_rest)
    return Preprocessed(skip, thread, formulas)


def _furniture_headings(extend: ExtendParams) -> re.Pattern[str] | None:
    """Compile the furniture headings' words, when the parameters name any."""
    return furniture_pattern(extend.furniture_headings) if extend.furniture_headings else None


def _write_article(
    found: _Found,
    *,
    url: str | None,
    params: ExtractParams,
    clock: _Clock,
    audit: bool = False,
    memo: _SiteMemo | None = None,
) -> Article | Skip:
    """Turn the chosen subtrees into the article's blocks, and assemble the Article.

    It gets what was read from the page, never the page itself: building the
    blocks takes the chosen subtrees out of it (copying them cost 9% of the
    extraction time, docs/performance.md), so nothing may read the page after.
    With `audit`, the kept source elements' text is read first, for the fidelity check.
    """
    source_text = kept_text(found.chosen.top, found.chosen.drop) if audit else None
    # Read before the blocks are built, which take the content out of the page.
    title_href = _headline_href(found)
    memo = memo or _SiteMemo()
    memory = memo.memory if memo.memory is not None and memo.memory.pages else None
    prints: frozenset[int] = frozenset()
    if memo.learn or memory is not None:
        prints = page_fingerprints((line.tag, line.text) for line in found.lines)
    output = _output(found, params.extend)
    # A page holding none of the memory's fingerprints has no block to leave out.
    if memory is not None and not prints.isdisjoint(memory.counts):
        output = _forget_template(output, found, memory, params.extend)
    clock.lap("output")
    article = _article(output, found, url=url, params=params, clock=clock, source_text=source_text)
    if title_href is not None and isinstance(article, Article):
        article = replace(article, title_href=title_href)
    if memo.learn and isinstance(article, Article):
        return replace(article, fingerprints=prints)
    return article


def _headline_href(found: _Found) -> str | None:
    """Return where the page's headline led, when it was one link off the page."""
    headline = found.headline
    if headline is None or headline.element is None:
        return None
    base = UrlBase.of(found.base_url)
    return headline_link(headline.element, base, own_url=found.meta.og_url)


@dataclass(frozen=True, slots=True)
class _Output:
    """The article's blocks, and what the output stage left out of the kept content."""

    blocks: tuple[Block, ...]
    left_out: tuple[LeftOut, ...]
    # The date line that opened the article, shown in the byline row instead.
    published: str | None = None


def _output(found: _Found, extend: ExtendParams) -> _Output:
    """Build the blocks, end them at a late furniture heading, drop a repeated run, outline."""
    chosen = found.chosen
    restore_formulas(found.formulas, chosen.drop)
    bind_captions(chosen.top, chosen.drop, UrlBase.of(found.base_url))
    if found.dated_posts and extend.part_posts:
        part_posts(chosen.top, chosen.drop)
    blocks: Sequence[Block] = build_blocks(chosen.top, base_url=found.base_url, drop=chosen.drop)
    left_out: list[LeftOut] = []
    for step, reason in _furniture_steps(found, extend):
        kept = step(blocks)
        left_out += _left_out(blocks, kept, reason)
        blocks = kept
    lines = _lead_date(blocks, found, extend)
    published = " ".join(blocks[index].text.strip() for index in lines) or None
    if lines:
        left_out += [LeftOut("a date line, shown in the byline row", published or "")]
        blocks = (*blocks[: lines.start], *blocks[lines.stop :])
    # Last: the furniture cut may take headings away, and a post's blocks from between
    # the rules that part it from the posts around it.
    return _Output(outline(trim_rules(blocks)), tuple(left_out), published)


def _lead_date(blocks: Sequence[Block], found: _Found, extend: ExtendParams) -> range:
    """Return the lines of the date that opens the article when the byline row shows none."""
    if not extend.lift_lead_date or found.dated_posts or found.meta.published:
        return range(0)
    return lead_date(blocks)


# One step of the output stage's furniture: the blocks in, the blocks it keeps out.
_Step = Callable[[Sequence[Block]], Sequence[Block]]


def _furniture_steps(found: _Found, extend: ExtendParams) -> list[tuple[_Step, str]]:
    """List the output stage's furniture steps the parameters turn on, in order, each with
    the reason it gives for what it leaves out."""
    steps: list[tuple[_Step, str]] = []
    if extend.furniture_headings:
        cut = partial(_cut_tail, extend=extend)
        steps.append((cut, "after a heading that names page furniture"))
    if extend.min_repeat_chars:
        repeated = partial(
            drop_repeated_blocks,
            min_chars=extend.min_repeat_chars,
            thread=found.dated_posts,
            within_section=extend.repeat_within_section,
        )
        steps.append((repeated, "a run of blocks repeating an earlier run"))
    steps += _label_steps(extend)
    steps += _figure_steps(found, extend)
    if extend.disclosure_words:
        disclosures = partial(drop_disclosures, pattern=re.compile(extend.disclosure_words))
        steps.append((disclosures, "the site's notice on every page: affiliate links, cookies"))
    if extend.furniture_tag_lines:
        tags = partial(drop_lead_tag_lines, pattern=furniture_pattern(extend.furniture_tag_lines))
        steps.append((tags, "a post's tag line above the article"))
    if not found.dated_posts:
        steps += _date_line_steps(found, extend)
    if extend.drop_related_leads:
        steps.append((drop_related_leads, "a lead-in to other posts, its links gone"))
    if extend.drop_closing_headings:
        steps.append((drop_closing_headings, "a heading the article ends with: it titles nothing"))
    return steps + _post_steps(found, extend)


def _figure_steps(found: _Found, extend: ExtendParams) -> list[tuple[_Step, str]]:
    """List the steps that leave out figures: a twin, a caption of nothing, the site's logo,
    a teaser grid."""
    steps: list[tuple[_Step, str]] = []
    if extend.drop_twin_figures:
        steps.append((drop_twin_figures, "a figure repeating the one before it"))
    if extend.drop_bare_captions:
        steps.append((drop_bare_captions, "a caption whose image the view cannot show"))
    if extend.drop_logo_links:
        logos = partial(drop_logo_links, origin=UrlBase.of(found.base_url).origin)
        steps.append((logos, "an image linking home, outside the text: the site's logo"))
    if extend.teaser_grid_headings:
        grids = partial(drop_teaser_grids, headings=furniture_pattern(extend.teaser_grid_headings))
        steps.append((grids, "a grid of teasers whose titles went: its heading and images"))
    return steps


def _post_steps(found: _Found, extend: ExtendParams) -> list[tuple[_Step, str]]:
    """List the last steps: a thread's vote counts, or a page's teaser dates."""
    if found.dated_posts:
        votes = (drop_vote_counts, "a post's vote count: a number alone in a thread")
        return [votes] if extend.drop_vote_counts else []
    teasers = (cut_teaser_dates, "a run of dates after the text: teasers without their titles")
    return [teasers] if extend.cut_teaser_dates else []


def _date_line_steps(found: _Found, extend: ExtendParams) -> list[tuple[_Step, str]]:
    """List the steps that leave out the lines the byline row shows, at the head and foot,
    and the author's photo."""
    meta = found.meta
    steps: list[tuple[_Step, str]] = []
    if extend.drop_date_lines:
        dated = partial(drop_date_lines, published=meta.published, byline=meta.byline)
        foot = partial(drop_foot_date_lines, published=meta.published, byline=meta.byline)
        steps.append((dated, DATE_LINE_REASON))
        steps.append((foot, FOOT_DATE_LINE_REASON))
    if extend.drop_author_photos:
        photos = partial(drop_author_photos, byline=meta.byline)
        steps.append((photos, "the author's photo at the article's start: the byline row"))
    if extend.drop_lead_breadcrumbs:
        crumbs = partial(drop_lead_breadcrumbs, title=_headline_text(found.headline, meta))
        steps.append((crumbs, "a trail of links at the article's start: the site's navigation"))
    return steps


def _label_steps(extend: ExtendParams) -> list[tuple[_Step, str]]:
    """List the steps that leave out a widget's label alone, its widget gone."""
    steps: list[tuple[_Step, str]] = []
    lone = partial(drop_lone_labels, keys=LabelKeys())  # each short block's words read once
    if extend.share_labels:
        shares = partial(lone, pattern=label_bar_pattern(extend.share_labels))
        steps.append((shares, "a share bar's label, its buttons gone"))
    if extend.ad_labels:
        ads = partial(lone, pattern=label_bar_pattern(extend.ad_labels))
        steps.append((ads, "an advertisement's label, its advertisement gone"))
    if extend.control_labels:
        controls = partial(lone, pattern=label_bar_pattern(extend.control_labels), linkless=True)
        steps.append((controls, "a control's label, the control gone: Read more, Show more"))
    if extend.action_labels:
        pattern = label_bar_pattern(extend.action_labels)
        actions = partial(lone, pattern=pattern, max_chars=extend.prompt_max_chars)
        steps.append((actions, "an action's label that needs an account: Reply, Sign up"))
    if extend.follow_labels:
        pattern = label_bar_pattern(extend.follow_labels)
        follows = partial(lone, pattern=pattern, max_chars=extend.prompt_max_chars)
        steps.append((follows, "a prompt to follow the site on social networks"))
    if extend.taxonomy_labels:
        pattern = label_bar_pattern(extend.taxonomy_labels)
        tags = partial(lone, pattern=pattern, linkless=True, headings=False)
        steps.append((tags, "a tag list's label, its tags gone: Tags, Categories"))
    return steps


def _cut_tail(blocks: Sequence[Block], *, extend: ExtendParams) -> Sequence[Block]:
    """End the blocks at a late heading that names page furniture (`cut_furniture_tail`)."""
    return cut_furniture_tail(
        blocks,
        furniture_pattern(extend.furniture_headings),
        min_position=extend.furniture_min_position,
        max_label_words=extend.furniture_label_words,
        resume_chars=extend.furniture_resume_chars,
        box=furniture_pattern(extend.furniture_box_headings)
        if extend.furniture_box_headings
        else None,
        min_label_repeats=extend.furniture_label_repeats,
        outranked=extend.furniture_outranked,
        tag_lines=furniture_pattern(extend.furniture_tag_lines)
        if extend.furniture_tag_lines
        else None,
        max_tag_chars=extend.furniture_tag_chars,
        sources=furniture_pattern(extend.source_headings) if extend.source_headings else None,
    )


def _forget_template(
    output: _Output, found: _Found, memory: SiteMemory, extend: ExtendParams
) -> _Output:
    """Leave out the blocks the site's other pages hold (site memory); spare the headline."""
    headline = found.headline
    keep = fingerprint("h1", headline.text) if headline is not None else None
    forgotten = forget_template(
        output.blocks,
        memory,
        min_pages=extend.memory_min_pages,
        article_min_pages=extend.memory_article_min_pages,
        article_min_share=extend.memory_article_min_share,
        prose_min_words=extend.memory_prose_min_words,
        max_seen_share=extend.memory_max_seen_share,
        min_paragraphs=extend.memory_min_paragraphs,
        keep=frozenset() if keep is None else {keep},
    )
    if not forgotten.left_out:
        return output
    return _Output(outline(forgotten.blocks), output.left_out + forgotten.left_out)


def _left_out(before: Sequence[Block], after: Sequence[Block], reason: str) -> list[LeftOut]:
    """Return the blocks of `before` that are not in `after` (a subsequence of it) as LeftOut."""
    if len(after) == len(before):  # a subsequence as long as the whole is the whole
        return []
    kept = {id(block) for block in after}
    return [LeftOut(reason, block.text) for block in before if id(block) not in kept]


def banner_only(root: etree._Element, banner_chars: int, *, min_rest: int) -> str:
    """Return why to skip a page its consent banner held nearly all of, or ""."""
    # Its content is rendered by script: the original page serves the reader
    # better than a reader view of what little markup is left.
    if not banner_chars or len(text_content(root).strip()) >= min_rest:
        return ""
    return (
        f"no main content found: the page holds a cookie-consent banner ({banner_chars}"
        " characters) and little else; its content is rendered by script"
    )


def furniture_words(
    root: etree._Element, params: ExtendParams, names: PageNames | None = None
) -> Words:
    """Return the class/id words of the page's furniture: with its comments unless a discussion."""
    words, comments = params.boilerplate_words, params.comment_words
    if not comments or opens_discussion(
        root,
        comments,
        max_lead=params.discussion_max_lead,
        min_post_chars=params.discussion_min_post_chars,
        names=names,
    ):
        return words
    return words | comments


def base_of(url: str | None, base_href: str | None) -> str | None:
    """Return the base URL of the page: its `<base href>` against its URL, or its URL."""
    # A <base> with control characters cannot be a URL (browsers would not fetch
    # with it either): the page's own URL is the better base.
    if not base_href or _CONTROL.search(base_href):
        return url
    return urljoin(url or "", base_href)


def run_danag(lines: Sequence[Line], params: DanagParams) -> Selection:
    """Select the main-content lines with DANAg, DANA or R2L (§4.3-§4.5)."""
    t1 = [line.t1 for line in lines]
    t2 = [line.t2 for line in lines]
    if not params.use_regions:
        return Selection([a - b for a, b in zip(t1, t2, strict=True)], [], select_lines_r2l(t1, t2))
    return select_lines(
        t1,
        t2,
        smoothing=params.smoothing,
        gap=params.gap,
        gap_in_text_lines=params.gap_in_text_lines,
    )


@dataclass(frozen=True, slots=True)
class _Found:
    """All that was read from one page: what the output stage works from."""

    lines: Sequence[Line]
    selection: Selection
    headline: Headline | None
    chosen: Chosen
    meta: PageMeta
    discussion: bool  # the page declares itself a discussion thread (and such are read)
    base_url: str | None  # what the content's relative links resolve against
    lang: str | None  # declared for the content: its nearest lang, else <html>'s or a meta's
    dir: str | None  # declared nearest the content: "rtl"/"ltr"; None if none or "auto"
    dated_posts: bool = False  # a thread: its posts open with a name and a date
    declared: Declared = NOTHING_DECLARED  # what the page calls itself, for the reader check
    formulas: tuple[Formula, ...] = ()  # flattened for reading the page, MathML in the view


def _article(
    output: _Output,
    found: _Found,
    *,
    url: str | None,
    params: ExtractParams,
    clock: _Clock,
    source_text: str | None = None,
) -> Article | Skip:
    """Assemble the Article from the chosen blocks and the page's metadata."""
    lines, selection, headline, meta = found.lines, found.selection, found.headline, found.meta
    blocks = output.blocks
    text = plain_text(blocks)
    # Whether there is enough text for a reader view is decided once, by reader_refusal.
    title = _headline_text(headline, meta)
    if not text:
        return Skip("no main content found: the chosen region has no text", title=title)
    headline_line = None
    if headline is not None and headline.element is not None:
        headline_line = line_of(lines, headline.element)
    # A list comprehension runs inline, a generator in tuple() resumes a frame per line.
    t1 = tuple([line.t1 for line in lines])
    diagnostics = Diagnostics(
        t1=t1,
        t2=tuple([line.t2 for line in lines]),
        diff=tuple(selection.diff),
        regions=tuple(selection.regions),
        selected=tuple(found.chosen.lines),
        headline_line=headline_line,
        line_tags=tuple([line.tag for line in lines]),
        params=_flat_params(params),
        timings_ms=dict(clock.laps),
        left_out=output.left_out,
        source_text=source_text,
        line_texts=tuple([line.text[:LINE_TEXT_CHARS] for line in lines]),
        link_dense=tuple(sorted(found.chosen.dense)),
    )
    words = word_count(text)  # counted once: the reader check needs it too
    # A declared language wins; only a page that declares none has its text read.
    lang = found.lang or detect_language(text)
    return Article(
        title=title,
        blocks=blocks,
        text=text,
        lang=lang,
        dir=page_direction(found.dir, lang, text),
        readerable=_readerable(
            blocks,
            text,
            found,
            t1=t1,
            words=words,
            params=params.extend,
            dated=dated_lines(output.left_out),
        ),
        url=url,
        byline=meta.byline,
        published=meta.published or output.published,
        site_name=meta.site_name,
        page_title=meta.title,
        word_count=words,
        diagnostics=diagnostics,
    )


def _readerable(
    blocks: Sequence[Block],
    text: str,
    found: _Found,
    *,
    t1: Sequence[int],
    words: int,
    params: ExtendParams,
    dated: int = 0,
) -> bool:
    """Tell whether the content reads like an article, or like a declared discussion thread;
    `dated` date lines left out still count as the page's fragments."""
    share = content_share(t1, _evidence(found.chosen))
    has_headline = found.headline is not None
    said = found.declared
    check = partial(
        is_readerable,
        blocks,
        text,
        has_headline,
        content_share=share,
        declared=said,
        words=words,
        left_out_fragments=dated,
    )
    if check():
        return True
    return found.discussion and check(min_block_chars=params.discussion_post_chars)



def _flat_params(params: ExtractParams) -> dict[str, str]:
    """Return the parameters flattened into strings, for the diagnostics page."""
    # A named variant's are flattened once, at import: flattening took 0.04 ms
    # of every page, comparing takes 0.003.
    named = _FLAT_VARIANTS.get(params.algorithm)
    if named is not None and ALGORITHMS[params.algorithm] == params:
        return dict(named)
    return flatten_params(params)


def flatten_params(params: ExtractParams) -> dict[str, str]:
    """Flatten the parameters into strings, each named by its group and field."""
    flat = {"algorithm": params.algorithm}
    # The groups hold scalars and word sets only: their fields read directly give
    # what asdict() gives, without its recursive copy. BlockExtractor's is listed
    # where it is set.
    groups = ("danag", "title", "extend", "blockextractor")
    for group in groups if params.blockextractor is not None else groups[:3]:
        values = getattr(params, group)
        for item in fields(values):
            flat[f"{group}.{item.name}"] = _flat_value(getattr(values, item.name))
    return flat


def _flat_value(value: object) -> str:
    """Write a parameter's value as a string; a set of words sorted, joined by "|"."""
    if isinstance(value, frozenset):
        return "|".join(sorted(value))
    return str(value)


# Immutable once built: read by every page.
_FLAT_VARIANTS = MappingProxyType(
    {name: MappingProxyType(flatten_params(params)) for name, params in ALGORITHMS.items()}
)


def _evidence(chosen: Chosen) -> Sequence[int]:
    """Return the kept lines the reader check counts as the article's."""
    return chosen.lines if chosen.evidence is None else chosen.evidence
