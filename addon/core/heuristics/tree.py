"""From selected lines back to DOM subtrees: what the reader view shows."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from lxml import etree

from addon.core.dom import text_content
from addon.core.heuristics.names import is_sentence, names_any
from addon.core.output.furniture import RELATED_LEAD, furniture_pattern, heading_names_furniture
from addon.core.output.urls import link_host, same_site
from addon.core.paper.danag import Selection
from addon.core.paper.lines import BLOCK_TAGS, Line
from addon.core.paper.titlefinder import HEADING_TAGS, Headline
from addon.core.params import ExtendParams, Words

# A subtree this high in the page is a layout wrapper, not an article.
LAYOUT_TAGS = frozenset({"html", "body"})


@dataclass(frozen=True, slots=True)
class Chosen:
    """The subtrees to show, the elements inside them to leave out, and the kept lines."""

    top: list[etree._Element]
    drop: set[etree._Element] = field(default_factory=set)
    lines: list[int] = field(default_factory=list)
    # The kept lines the reader check counts as the article's (None: all of `lines`).
    # Without a headline element, lines kept only for standing inside the subtree
    # are not evidence of an article: listings and shop grids fill their subtree.
    evidence: list[int] | None = None
    # The lines left out as link-dense (link lists beside the content), for the why page.
    dense: set[int] = field(default_factory=set)


def choose_content(
    lines: Sequence[Line],
    selection: Selection,
    headline: Headline | None,
    extend: ExtendParams,
    *,
    thread: bool = False,
    host: str | None = None,
) -> Chosen:
    """Turn DANAg's selected lines (and, extended, the headline) into subtrees to show;
    `thread`: the page holds dated posts; `host`: the page's site."""
    selected = selection.selected
    if not selected and extend.fallback_all_text:
        selected = [i for i, line in enumerate(lines) if line.t1 > 0]
    max_link_share = extend.max_link_share
    if link_share(lines, selected) > extend.listing_min_link_share:
        max_link_share = 1.0  # a listing: its links are the content
    # Which lines are mostly link text does not change with the content: found once.
    linked = linked_lines(lines, max_link_share, spare=extend.spare_permalink_headings)
    runs = link_runs(lines, linked) if linked else None
    dense = _dense(lines, linked, set(selected), extend, runs=runs)
    kept = [i for i in selected if i not in dense]
    if not kept:
        return Chosen([])
    top = lowest_common_ancestor([lines[i].element for i in kept])
    inside: set[etree._Element] | None = None  # the line elements `top` holds, once known
    if extend.enclose_headline and headline is not None and headline.element is not None:
        top, inside = _headline_subtree(
            lines, selection, headline.element, top, kept=kept, extend=extend
        )
        inside = inside if inside is not None else _line_owners_within(top)
        dense = _dense_within(
            lines, dense, inside, linked, extend, runs=runs, thread=thread, host=host
        )
        kept = _lines_within(lines, inside, dense)
        if extend.drop_before_headline:
            kept = _after(lines, kept, headline.element)
    evidence: list[int] | None = None
    if inside is None:
        inside = _line_owners_within(top)
        if extend.keep_unselected_within:
            dense = _dense_within(
                lines, dense, inside, linked, extend, runs=runs, thread=thread, host=host
            )
            evidence, kept = kept, _lines_within(lines, inside, dense)
    if extend.drop_orphaned_headings:
        # A furniture heading stays for the output stage, which ends the article there.
        tail = furniture_pattern(extend.furniture_headings) if extend.furniture_headings else None
        kept = _without_orphaned_headings(lines, kept, inside, top, spare=tail)
    drop = _unkept_elements(lines, kept, top, inside)
    if headline is not None and headline.element is not None:
        drop.add(headline.element)
    chosen = Chosen([top], drop, kept, evidence, dense)
    return _with_twins(lines, selected, chosen, headline, extend)


# Class words of a grid's columns: laid side by side, one of them is a sidebar, not
# the rest of the article.
COLUMN_WORDS = frozenset({"col", "column", "columns"})


def _twins(
    lines: Sequence[Line],
    selected: Sequence[int],
    top: etree._Element,
    dense: set[int],
    *,
    min_chars: int,
    series: int = 0,
) -> list[etree._Element]:
    """Return the siblings of `top` of its tag and class that hold `min_chars` or more of
    DANAg's selected text: an article body a box between splits in two; all of them
    when `series` or more do."""
    # wcxb-dev 4252: a blog post's rich-text body, cut in two by a featured-article
    # box; the main region lay in the second half, and the first went.
    parent, names = top.getparent(), top.get("class")
    if not min_chars or parent is None or not names or names_any(names, COLUMN_WORDS):
        return []
    held: dict[etree._Element, int] = {}
    for index in selected:
        if index not in dense:
            element = lines[index].element
            held[element] = held.get(element, 0) + lines[index].t1
    alike = [
        sibling
        for sibling in parent
        if sibling is not top and sibling.tag == top.tag and sibling.get("class") == names
    ]
    twins = [
        sibling
        for sibling in alike
        if sum(held.get(owner, 0) for owner in _line_owners_within(sibling)) >= min_chars
    ]
    # Three or more of them a series: a thread's posts, short replies among them
    # (wcxb-dev 0560 kept 4 of its 15 posts, those of 500 characters).
    return alike if series and len(twins) >= series else twins


def _with_twins(
    lines: Sequence[Line],
    selected: Sequence[int],
    chosen: Chosen,
    headline: Headline | None,
    extend: ExtendParams,
) -> Chosen:
    """Add the chosen subtree's twins (`_twins`), their lines and their unkept elements."""
    (top,) = chosen.top
    twins = _twins(
        lines,
        selected,
        top,
        chosen.dense,
        min_chars=extend.twin_min_chars,
        series=extend.twin_series,
    )
    parent = top.getparent()
    if not twins or parent is None:
        return chosen
    added: list[int] = []
    for twin in twins:
        inside = _line_owners_within(twin)
        own = _lines_within(lines, inside, chosen.dense)
        chosen.drop.update(_unkept_elements(lines, own, twin, inside))
        added += own
    if extend.drop_before_headline and headline is not None and headline.element is not None:
        added = _after(lines, added, headline.element)
    evidence = chosen.evidence
    return Chosen(
        sorted([top, *twins], key=parent.index),
        chosen.drop,
        sorted({*chosen.lines, *added}),
        None if evidence is None else sorted({*evidence, *added}),
        chosen.dense,
    )


def _dense(
    lines: Sequence[Line],
    linked: set[int],
    content: set[int],
    extend: ExtendParams,
    *,
    runs: LinkRuns | None = None,
) -> set[int]:
    """Return the `linked` lines to leave out around the `content` lines."""
    return link_dense_lines(
        lines,
        linked,
        min_run=extend.link_dense_min_run,
        button_words=extend.button_words,
        content=content,
        runs=runs,
    )


def _dense_within(
    lines: Sequence[Line],
    dense: set[int],
    inside: set[etree._Element],
    linked: set[int],
    extend: ExtendParams,
    *,
    runs: LinkRuns | None = None,
    thread: bool = False,
    host: str | None = None,
) -> set[int]:
    """Return the link-dense lines still left out once the content's subtree is known."""
    # DANAg selects the dense lines of the subtree; the lines between them come
    # back as the subtree's. A link line set among those as one of their kind is
    # the article's: a list item between items of prose, a credit or an address
    # between paragraphs of one container; a linked cell of a data table's row
    # (`_row_value`: even F1 .85149 -> .85152, odd .84962 -> .84964, must-not
    # snippets unchanged; readability-even link texts 90.7% -> 92.0%). Not
    # shipped, lowering wcxb: every link list inside a list of prose items (even
    # F1 .85148 -> .85141, forum posts' link lists; `_article_lists` keeps those
    # of lists mostly of prose), and any linked cell beside a
    # row's data, header row or not (odd .84961 -> .84960: "recent topics"
    # sidebars).
    if not extend.spare_within_subtree or not dense:
        return dense
    content = set(_lines_within(lines, inside, dense))
    lone = dense - _dense(lines, linked, content, extend, runs=runs)
    sourced = furniture_pattern(extend.source_headings) if extend.source_headings else None
    lists = (
        _article_lists(
            lines,
            dense,
            content,
            linked,
            sourced=sourced,
            announced=extend.spare_announced_lists,
            sectioned=furniture_pattern(extend.furniture_headings)
            if extend.spare_sectioned_lists and extend.furniture_headings
            else None,
        )
        if extend.spare_list_links
        else set()
    )
    styled = (
        _styled_as_prose(lines, dense, content, runs)
        if extend.spare_styled_links and runs is not None
        else set()
    )
    sentences = extend.spare_link_sentences
    labelled = extend.spare_labelled_values
    headings = extend.spare_section_links
    titled = extend.section_link_min_chars
    dated = extend.spare_post_attribution and thread
    return {
        i
        for i in dense
        if not (
            i in styled
            or (sentences and _link_sentence(lines[i]))
            or (headings and _linked_section_title(lines, i, content))
            or (
                titled
                and lines[i].tag in HEADING_TAGS  # before the threshold: it reads the links
                and _titles_kept_text(
                    lines, i, content, min_chars=_title_chars(lines[i].element, extend, host)
                )
            )
            or _item_list(lines[i].element) in lists
            or _described_term(lines, i, content)
            or (i in lone and (_among_siblings(lines, i) or _row_value(lines[i])))
            or (labelled and _infobox_value(lines[i]))
            or (dated and _post_attribution(lines[i].element))
        )
    }


def _described_term(lines: Sequence[Line], index: int, content: set[int]) -> bool:
    """Tell whether a linked term of a definition list has its description kept after it."""
    # MDN's reference pages (wcxb-dev 2992): `<dt><a><code>Promise.all()</code></a></dt>`
    # over what it does; the terms went as link lines, their descriptions stayed,
    # nameless.
    line = lines[index]
    description = line.element.getnext() if line.tag == "dt" else None
    if description is None or description.tag != "dd":
        return False
    after = next((i for i in range(index + 1, len(lines)) if lines[i].t1 > 0), None)
    if after is None or after not in content:
        return False
    element = lines[after].element
    return element is description or any(up is description for up in element.iterancestors())


def _linked_section_title(lines: Sequence[Line], index: int, content: set[int]) -> bool:
    """Tell whether a linked heading titles a section of the content: kept text before it,
    and a kept heading of its rank, its sibling, right after it."""
    # readability-even firefox-nightly-blog: "Resolved bugs (excluding employees)", an
    # h4 that links to the bug list, between "Introductions" and "Fixed more than one
    # bug". A teaser's linked title has its teaser after it; a list of linked
    # headings has more of them, no kept heading.
    line = lines[index]
    if line.tag not in HEADING_TAGS:
        return False
    before = next((i for i in range(index - 1, -1, -1) if lines[i].t1 > 0), None)
    after = next((i for i in range(index + 1, len(lines)) if lines[i].t1 > 0), None)
    if before not in content or after not in content or after is None:
        return False
    following = lines[after]
    return following.tag == line.tag and following.element.getparent() is line.element.getparent()


def _title_chars(element: etree._Element, extend: ExtendParams, host: str | None) -> int:
    """Return how much kept text a linked heading must title to be its section's title."""
    # A heading whose link leads nowhere is the section's own toggle or anchor (a FAQ's
    # accordion: "<h3><a href='#' role='button'>Question</a></h3>"; "<h2><a name=...>"):
    # any kept text of its own after it is its section. One that links to another
    # site names what its section is about (a brand, a product, a venue: wcxb-dev
    # 4106's 60 brands, 46 of them left nameless); a teaser's title links to the
    # site's own pages.
    if _links_nowhere(element):
        return 1
    if host and extend.item_link_min_chars and _links_elsewhere(element, host):
        return extend.item_link_min_chars
    return extend.section_link_min_chars


def _links_elsewhere(element: etree._Element, host: str) -> bool:
    """Tell whether every link of an element leads to a site other than `host`."""
    anchors = list(element.iter("a"))
    return bool(anchors) and all(
        (other := link_host(anchor.get("href") or "")) is not None and not same_site(other, host)
        for anchor in anchors
    )


def _titles_kept_text(
    lines: Sequence[Line], index: int, content: set[int], *, min_chars: int
) -> bool:
    """Tell whether a linked heading titles `min_chars` of kept text of its own, which
    runs on after it to the next heading of its rank."""
    # A listicle's items ("Heavy Duty 4411 Singer Sewing Machine", linked to the shop,
    # over its review: wcxb-dev 4150, 4452, 0428): the title goes with its section,
    # which is the article's, under the heading's parent. A teaser's linked title has a
    # line or two after it; a related story's box set in the text has the text after
    # it outside the box.
    line = lines[index]
    if line.tag not in HEADING_TAGS:
        return False
    own = 0
    parent = _section_around(line.element)
    for following in range(index + 1, len(lines)):
        after = lines[following]
        if after.t1 <= 0:
            continue
        if after.tag in HEADING_TAGS and after.tag <= line.tag:
            return False
        if not any(up is parent for up in after.element.iterancestors()):
            return False
        own_chars = len(after.text.strip()) - after.link_chars
        if following not in content and own_chars > 0:
            return False  # a link line between (the item's "map", "Buy") is passed over
        own += own_chars
        if own >= min_chars:
            return True
    return False


def _section_around(heading: etree._Element) -> etree._Element | None:
    """Return the element a heading's section runs on in: its parent, or past a <header>."""
    # A card's header holds its title and a label ("Best Overall Under $500"); the
    # review runs on after the header, in the card (wcxb-dev 4674's scooters).
    parent = heading.getparent()
    while parent is not None and parent.tag in _HEADING_WRAPPERS:
        parent = parent.getparent()
    return parent


# The elements that wrap a heading with its label or subtitle, not its section.
_HEADING_WRAPPERS = frozenset({"header", "hgroup"})


def _links_nowhere(element: etree._Element) -> bool:
    """Tell whether every anchor of an element leads nowhere: a named anchor without an
    href, a toggle's "#", a button."""
    # Not a "#p2173335": a forum's permalink on each post's subject ("Re: ...").
    anchors = list(element.iter("a"))
    return bool(anchors) and all(
        (anchor.get("href") or "#").strip() == "#" or anchor.get("role") == "button"
        for anchor in anchors
    )


def _post_attribution(element: etree._Element) -> bool:
    """Tell whether a thread's link line says who wrote, when, or whom a quotation is of."""
    return _dated_link(element) or _poster_link(element) or _quote_source(element)


def _quote_source(element: etree._Element) -> bool:
    """Tell whether a line inside a quotation names whom it quotes: "Poltergust said:"."""
    # XenForo links a quotation's title to the post it quotes (`a.bbCodeBlock-sourceJump`
    # to "#post-137554719", wcxb-dev 0514); as plain text it stays (0516): either way the
    # reply answers someone the reader must see.
    if next(element.iterancestors("blockquote"), None) is None:
        return False
    return _QUOTE_SOURCE.search(text_content(element)) is not None


# The end of a quotation's title: "Poltergust said:", "Saikyo wrote:".
_QUOTE_SOURCE = re.compile(r"\b(?:said|wrote|writes|says)\s*:\s*$", re.IGNORECASE)


def _dated_link(element: etree._Element) -> bool:
    """Tell whether every link of a line's element holds a <time> and no other text."""
    # XenForo's "<a itemprop=url><time datetime=...>Jan 11, 2024</time></a>" under each
    # post's author, SMF's and phpBB's alike (wcxb-dev 0522, 0532, 0556): the post's
    # date, its link a permalink.
    anchors = list(element.iter("a"))
    return bool(anchors) and all(_holds_only_time(anchor) for anchor in anchors)


def _poster_link(element: etree._Element) -> bool:
    """Tell whether every link of a line's element names a post's author."""
    # XenForo's "<h4 class=message-name><a class=username>oldtools</a></h4>" over each
    # post, vBulletin's and Discourse's alike: who wrote it, which a thread needs.
    anchors = list(element.iter("a"))
    return bool(anchors) and all(
        not _POSTER_WORDS.isdisjoint((anchor.get("class") or "").lower().split())
        or "author" in (anchor.get("rel") or "").lower().split()
        or anchor.get("itemprop") == "author"
        for anchor in anchors
    )


# The class words of a link to a post's author.
_POSTER_WORDS = frozenset({"username", "author", "poster", "user-name"})


def _holds_only_time(anchor: etree._Element) -> bool:
    """Tell whether a link's text is wholly that of the <time> elements inside it."""
    times = "".join(text_content(time) for time in anchor.iter("time"))
    return bool(times.strip()) and "".join(times.split()) == "".join(text_content(anchor).split())


def _link_sentence(line: Line, *, min_own_chars: int = 3) -> bool:
    """Tell whether a link-dense paragraph is a sentence the author wrote around a link:
    `min_own_chars` or more outside its links, and an end as a sentence ends."""
    # "Read more about ad blocking here." closes readability-even iab-1's article;
    # "Image: Courtesy Houston Parks Board.", "Learn how to find the best home
    # charger." A link list's lines ("Back to blog", "Read more »", a menu's
    # items) end in no full stop. Only inside the content's subtree does it count.
    text = line.text.strip()
    return (
        line.tag == "p"
        and text.endswith(_SENTENCE_ENDS)
        and len(" ".join(text.split())) - line.link_chars >= min_own_chars
    )


# How a sentence ends, in the scripts the pages use most.
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")

_LISTS = ("ul", "ol")


def _item_list(element: etree._Element) -> etree._Element | None:
    """Return the list a line's element is an item of, or None."""
    parent = element.getparent()
    if element.tag != "li" or parent is None or parent.tag not in _LISTS:
        return None
    return parent


def _article_lists(
    lines: Sequence[Line],
    dense: set[int],
    content: set[int],
    linked: set[int],
    *,
    min_chars: int = 20,
    max_link_share: float = 0.5,
    sourced: re.Pattern[str] | None = None,
    announced: bool = False,
    sectioned: re.Pattern[str] | None = None,
) -> set[etree._Element]:
    """Return the lists of the content whose link items are the article's: one of their
    items is kept prose, or they hang under a kept item that is not link text (a
    sub-list: "In progress:" and the bugs it lists)."""
    # A list is the content's whole or not at all. Prose as in `_among_siblings`.
    # readability-even firefox-nightly-blog lost two one-link items heading its
    # "Highlights" and a sub-list of five bugs under "In progress:"; wikipedia-3
    # kept one item of its "See also" list, the one with words beside its link.
    # Half the items prose, not one: wcxb even .8545073 / odd .8525838 (articles
    # .9532153 / .9465885); one: .8545398 / .8526072 (.9532925 / .9466441),
    # readability-even link texts 93.7% -> 93.9%. A list of links only stays out.
    if not any(lines[i].tag == "li" for i in dense):
        return set()  # no link item to spare: most pages
    items: dict[etree._Element, list[int]] = {}
    for index in content | dense:
        holder = _item_list(lines[index].element)
        if holder is not None:
            items.setdefault(holder, []).append(index)
    owners = {
        lines[i].element
        for i in content
        if lines[i].tag == "li" and lines[i].t1 > 0 and i not in linked
    }
    listed = _listed_sections(lines, items, content)
    sources = _source_lists(lines, items, content, sourced) if sourced is not None else set()
    if announced:
        sources |= _announced_lists(lines, items, content)
    if sectioned is not None:
        sources |= _sectioned_lists(lines, items, content, sectioned)
    return {
        holder
        for holder, indices in items.items()
        if holder.getparent() in owners
        or holder in listed
        or holder in sources
        or any(i in content and _prose(lines[i], min_chars, max_link_share) for i in indices)
    }


def _listed_sections(
    lines: Sequence[Line], items: dict[etree._Element, list[int]], content: set[int]
) -> set[etree._Element]:
    """Return the lists right under a kept heading that the page's own links lead to: a
    section its table of contents lists ("See also"), the article's whole."""
    # readability-even wikipedia: "See also" and its five links went as a link list
    # and left the heading alone, which the contents box leads to. A teaser box's
    # heading is no section of the page's contents.
    targets: frozenset[str] | None = None
    listed: set[etree._Element] = set()
    for holder, indices in items.items():
        heading = _heading_before(lines, min(indices), content)
        if heading is None:
            continue
        if targets is None:  # read once, and only on a page with such a list
            targets = _fragment_targets(heading)
        if any(element.get("id") in targets for element in heading.iter()):
            listed.add(holder)
    return listed


def _source_lists(
    lines: Sequence[Line],
    items: dict[etree._Element, list[int]],
    content: set[int],
    pattern: re.Pattern[str],
) -> set[etree._Element]:
    """Return the lists right under a kept heading that names the article's sources."""
    # A list of links under "References" is what the article cites, and readers check
    # it; as a link list it went whole (wcxb-dev 2722's 39 sources, 4582's).
    sources: set[etree._Element] = set()
    for holder, indices in items.items():
        heading = _heading_before(lines, min(indices), content)
        if heading is not None and heading_names_furniture(text_content(heading), pattern):
            sources.add(holder)
    return sources


def _announced_lists(
    lines: Sequence[Line], items: dict[etree._Element, list[int]], content: set[int]
) -> set[etree._Element]:
    """Return the lists right after a kept paragraph that ends with a colon: it announces them."""
    # "...explore our blog posts about dress codes for valuable insights and tips:"
    # over four links (wcxb-dev 4110): the sentence ends on the list the author wrote.
    announced: set[etree._Element] = set()
    for holder, indices in items.items():
        before = next((i for i in range(min(indices) - 1, -1, -1) if lines[i].t1 > 0), None)
        if before is None or before not in content or lines[before].tag != "p":
            continue
        text = lines[before].text.rstrip(" \xa0\n\t")
        if text.endswith(":") and RELATED_LEAD.search(text.lower()) is None:
            announced.add(holder)
    return announced


def _sectioned_lists(
    lines: Sequence[Line],
    items: dict[etree._Element, list[int]],
    content: set[int],
    furniture: re.Pattern[str],
) -> set[etree._Element]:
    """Return the lists right under a kept heading that names no furniture, with kept text
    right after them: sections of the article made of links."""
    # wcxb-dev 4020: a tutorial's "1. Data Preprocessing", "2. Exploratory Data
    # Analysis" each over the lessons they link to, between its kept sections; the
    # lists went as link lists, their headings after them as orphans.
    sectioned: set[etree._Element] = set()
    for holder, indices in items.items():
        heading = _heading_before(lines, min(indices), content)
        # A section's heading: its anchor's id, not the page's h1 (a wiki's language
        # list follows its title, wcxb-dev 0682).
        if heading is None or heading.tag == "h1" or heading.get("id") is None:
            continue
        words = text_content(heading).lower()
        if heading_names_furniture(words, furniture) or _POINTS_AWAY.search(words):
            continue
        after = next((i for i in range(max(indices) + 1, len(lines)) if lines[i].t1 > 0), None)
        if after is not None and after in content:
            sectioned.add(holder)
    return sectioned


# A heading's words that send the reader to other pages, not into a section: a
# post's own "Read more:" and "More great bread recipes" lists (odd 4095, 4159).
_POINTS_AWAY = re.compile(
    r"\b(?:more|read|reading|related|recommended|popular|latest|similar|also|other|next)\b"
)


def _heading_before(lines: Sequence[Line], index: int, content: set[int]) -> etree._Element | None:
    """Return the kept heading that is the last line with text before line INDEX, or None."""
    before = next((i for i in range(index - 1, -1, -1) if lines[i].t1 > 0), None)
    if before is None or before not in content or lines[before].tag not in HEADING_TAGS:
        return None
    return lines[before].element


def _fragment_targets(element: etree._Element) -> frozenset[str]:
    """Return the ids the links of an element's page lead to within the page ("#See_also")."""
    links = element.getroottree().getroot().iter("a")
    return frozenset(
        href[1:] for href in (link.get("href") or "" for link in links) if href.startswith("#")
    )


def _prose(line: Line, min_chars: int, max_link_share: float) -> bool:
    """Tell whether a line is prose: `min_chars` or more, at most `max_link_share` link text."""
    return line.t1 >= min_chars and line.link_chars <= max_link_share * line.t1


def _styled_as_prose(
    lines: Sequence[Line],
    dense: set[int],
    content: set[int],
    runs: LinkRuns,
    *,
    max_run: int = 2,
    min_chars: int = 20,
    max_link_share: float = 0.5,
) -> set[int]:
    """Return the link paragraphs the story wrote: a run of at most `max_run` paragraphs
    of links, right after a prose paragraph of their container (or a heading, with
    prose after the run), whose every link wears a class that the links inside the
    content's prose wear."""
    # A newsroom styles the links it writes into a story alike, in a sentence or
    # alone on a line ("Five things we learned from Obama interview" between the
    # paragraphs of readability-even bbc-1); a widget's links (related stories, a
    # share bar) wear their own. Prose as in `_among_siblings`. Unstyled links
    # tell nothing and stay with the other rules.
    candidates = _runs_after_prose(
        lines,
        dense,
        content,
        runs,
        max_run=max_run,
        min_chars=min_chars,
        max_link_share=max_link_share,
    )
    if not candidates:  # most pages: no paragraph of links after prose
        return set()
    styles = {
        name
        for i in content
        if _prose(lines[i], min_chars, max_link_share)
        for link in lines[i].element.iter("a")
        if (name := link.get("class"))
    }
    spared: set[int] = set()
    for before, *run in candidates:
        parent = lines[before].element.getparent()
        if all(_styled_paragraph(lines[i], parent, styles) for i in run):
            spared.update(run)
    return spared


def _runs_after_prose(
    lines: Sequence[Line],
    dense: set[int],
    content: set[int],
    runs: LinkRuns,
    *,
    max_run: int,
    min_chars: int,
    max_link_share: float,
) -> list[list[int]]:
    """Return each short run of link paragraphs inside the content that follows a prose
    paragraph, or a heading when a prose paragraph of its container follows the run;
    that line's index first."""
    # A credit under a section's heading and picture (lazy-image-2's "(Artist: ...)")
    # opens the section's prose as a credit after a paragraph closes it.
    found: list[list[int]] = []
    for run, (before, after) in zip(runs.runs, runs.neighbours, strict=False):
        if not (0 < len(run) <= max_run and before in content and after in content):
            continue
        opening, closing = lines[before], lines[after]
        headed = (
            opening.tag in HEADING_TAGS
            and closing.tag == "p"
            and closing.element.getparent() is opening.element.getparent()
            and _prose(closing, min_chars, max_link_share)
        )
        if (headed or (opening.tag == "p" and _prose(opening, min_chars, max_link_share))) and all(
            i in dense and lines[i].tag == "p" for i in run
        ):
            found.append([before, *run])
    return found


def _styled_paragraph(line: Line, parent: etree._Element | None, styles: set[str]) -> bool:
    """Tell whether a line is a paragraph of `parent` whose every link wears one of `styles`."""
    links = list(line.element.iter("a"))
    return (
        line.tag == "p"
        and line.element.getparent() is parent
        and bool(links)
        and all(link.get("class") in styles for link in links)
    )


_CELLS = ("td", "th")


def _row_value(line: Line) -> bool:
    """Tell whether a line is a value of a data table's row: its cell stands next to a row
    label (a th) of plain text, or next to a cell of plain text under a header row of plain
    text."""
    # A table of apps and their sizes, whose first column links each app's page
    # (readability-even links-in-tables), kept its sizes under empty names; an
    # infobox kept its labels ("Industry", "Founder") without their linked values.
    element = line.element
    cell = element if element.tag in _CELLS else next(element.iterancestors(*_CELLS), None)
    row = cell.getparent() if cell is not None else None
    table = next(row.iterancestors("table"), None) if row is not None else None
    if cell is None or table is None or row is None or row.tag != "tr":
        return False
    # The cells next to it only: a row of thousands of cells is read once, not once a cell.
    beside = [c for c in (cell.getprevious(), cell.getnext()) if c is not None and c.tag in _CELLS]
    if any(other.tag == "th" and _plain(other) for other in beside):
        return True
    # A one-column table's cell under its header of plain text is the table's data too
    # (MDN's "Specification" over a link to the standard, wcxb-dev 2992: the header
    # stood over an empty body).
    header = next(table.iter("tr"))
    alone = not beside and len(row) == 1
    return (
        header is not row and _plain(header) and (alone or any(_plain(o) for o in beside))
    )


def _infobox_value(line: Line) -> bool:
    """Tell whether a line is the value cell of a two-cell row whose first cell labels it
    in plain text (an infobox's "Products | Mozilla Application Suite")."""
    # readability-even wikipedia: the linked values of an infobox stand one under the
    # other, a run of link lines, and went with it; a site's navigation table has
    # more cells a row ("Up | Part II | Home", wcxb-dev 2864).
    cell = line.element
    row = cell.getparent()
    if cell.tag != "td" or row is None or row.tag != "tr" or len(row) != 2:
        return False
    label = row[0]
    return label.tag == "th" and label is not cell and _plain(label)


def _plain(element: etree._Element) -> bool:
    """Tell whether an element holds text and no link."""
    return next(element.iter("a"), None) is None and bool(text_content(element).strip())


def _among_siblings(
    lines: Sequence[Line], index: int, *, min_chars: int = 20, max_link_share: float = 0.5
) -> bool:
    """Tell whether the text lines before and after a line are prose siblings of its kind."""
    # Prose: at least `min_chars` characters, at most `max_link_share` link text. A
    # shop card's short items ("Save: 5%") beside its "Free shipping" link, or a
    # "recent topics" list whose items are half links, are no list of the article's.
    # min_chars 0 -> 20: wcxb odd F1 .84958 -> .84961 (a shop grid's cards);
    # max_link_share 1.0 -> 0.5: odd .849610 -> .849623 (a forum's recent topics);
    # readability-even unchanged by either.
    element = lines[index].element
    parent = element.getparent()
    before = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].t1 > 0), None)
    after = next((lines[i] for i in range(index + 1, len(lines)) if lines[i].t1 > 0), None)
    return all(
        line is not None
        and line.tag == element.tag
        and line.element.getparent() is parent
        and line.t1 >= min_chars
        and line.link_chars <= max_link_share * line.t1
        for line in (before, after)
    )


def _headline_subtree(
    lines: Sequence[Line],
    selection: Selection,
    headline: etree._Element,
    top: etree._Element,
    *,
    kept: Sequence[int],
    extend: ExtendParams,
) -> tuple[etree._Element, set[etree._Element] | None]:
    """Enclose the headline with the main region, or with all kept lines (too little, or apart).

    Return the subtree, with its line elements when they were gathered on the way.
    """
    wide = _enclose_headline(top, headline, lines, selection)
    if not (extend.enclose_main_region_only and selection.regions):
        return wide, None
    main = max(selection.regions, key=lambda region: region.content)
    region_top = lowest_common_ancestor([lines[i].element for i in range(main.start, main.end + 1)])
    narrow = _enclose_headline(region_top, headline, lines, selection)
    if extend.widen_region_apart and wide.tag not in LAYOUT_TAGS and not _holds(narrow, headline):
        return wide, None
    inside = _line_owners_within(narrow)
    held = sum(lines[i].t1 for i in kept if lines[i].element in inside)
    if held < extend.min_main_share * sum(lines[i].t1 for i in kept):
        return wide, None
    return narrow, inside


def _holds(top: etree._Element, element: etree._Element) -> bool:
    """Tell whether `top` is `element` or one of its ancestors."""
    return top is element or any(node is top for node in element.iterancestors())


def link_share(lines: Sequence[Line], selected: Sequence[int]) -> float:
    """Return the share of the selected lines' text that is link text."""
    chars = sum(len(lines[i].text) for i in selected)
    return sum(lines[i].link_chars for i in selected) / chars if chars else 0.0


def linked_lines(lines: Sequence[Line], max_share: float, *, spare: bool = False) -> set[int]:
    """Return the text lines whose text is mostly link text leading away (`_link_dense`)."""
    if max_share >= 1.0:
        return set()
    return {
        index
        for index, line in enumerate(lines)
        if line.t1 > 0 and _link_dense(line, max_share, spare=spare)
    }


def link_dense_lines(
    lines: Sequence[Line],
    linked: set[int],
    *,
    min_run: int = 1,
    button_words: Words = frozenset(),
    content: set[int] | None = None,
    runs: LinkRuns | None = None,
) -> set[int]:
    """Return the `linked` lines to leave out as mostly link text: those in a run of
    `min_run` or more, at the edge of the `content` lines, or buttons."""
    # A link list (related stories, tags, a menu) is a run of link lines; one
    # link line between lines of the content is the article's own ("continued
    # here", a credit, an infobox's value) unless its links are styled as
    # buttons ("Get started", "Add to cart"). At the content's edge it is the
    # page's ("Back to blog", "Skip to content"). Lines without text neither
    # make nor break a run.
    if not linked:
        return set()
    found = link_runs(lines, linked) if runs is None else runs
    inside = content if content is not None else set(range(len(lines)))
    dense: set[int] = set()
    for run, (before, after) in zip(found.runs, found.neighbours, strict=False):
        lone = len(run) < min_run and before in inside and after in inside
        dense.update(i for i in run if not lone or _buttons_only(lines[i], button_words))
    return dense


@dataclass(frozen=True, slots=True)
class LinkRuns:
    """The runs of link-dense text lines, and the text lines just before and after each
    (-1 at the page's ends): they depend on the lines alone, so they are found once."""

    runs: list[list[int]]
    neighbours: list[tuple[int, int]]


def link_runs(lines: Sequence[Line], linked: set[int]) -> LinkRuns:
    """Return the runs of `linked` text lines and the text lines before and after each."""
    runs: list[list[int]] = [[]]
    neighbours: list[tuple[int, int]] = []  # the text lines before and after each run
    previous = -1
    for index, line in enumerate(lines):
        if line.t1 <= 0:
            continue
        if index in linked:
            runs[-1].append(index)
            continue
        if runs[-1]:
            neighbours.append((previous, index))
            runs.append([])
        previous = index
    neighbours.append((previous, -1))
    return LinkRuns(runs, neighbours)


def _buttons_only(line: Line, words: Words) -> bool:
    """Tell whether every link of a line is styled as a button, by role or class words."""
    links = list(line.element.iter("a"))
    return bool(words) and bool(links) and all(_is_button(link, words) for link in links)


def _is_button(link: etree._Element, words: Words) -> bool:
    """Tell whether a link, or the element around it, is named a button."""
    if link.get("role") == "button":
        return True
    parent = link.getparent()
    return any(
        names_any(value, words)
        for element in (link, parent)
        if element is not None
        for value in (element.get("class"),)
        if value
    )


def _link_dense(line: Line, max_share: float, *, spare: bool = False) -> bool:
    """Tell whether a line's text is mostly link text (share above `max_share`) leading away."""
    if line.link_chars <= max_share * len(line.text):
        return False
    if not spare:
        return True
    # A heading is spared only as its own permalink (is_permalink_heading): one
    # that links to another section is a table of contents' heading, not content.
    if line.tag in HEADING_TAGS:
        return not (is_permalink_heading(line) or _cites(line))
    return not _own_links(line)


def _cites(line: Line) -> bool:
    """Tell whether a line is a source the article cites: a reference list's entry."""
    # A citation is mostly links (author, title, publisher, ISBN) and still the
    # article's own: its notes point at it.
    if next(line.element.iter("cite"), None) is not None:
        return True
    first = next(line.element.iter("a"), None)
    return first is not None and (first.get("href") or "").strip().startswith("#cite")


def _own_links(line: Line) -> bool:
    """Tell whether a line's links are the article's own: a cited source (_cites), every link
    into the page (a table of contents' entry, a footnote's way back), or a sentence whose
    links only run the page's scripts (a note)."""
    # One walk for both tests: a line's subtree holds its nested lines' too, and
    # walking it three times cost 1.5% of the extraction (docs/performance.md).
    hrefs: list[str] = []
    for node in line.element.iter("a", "cite"):
        if node.tag == "cite":
            return True
        hrefs.append((node.get("href") or "").strip())
    if not hrefs:
        return False
    if hrefs[0].startswith("#cite"):
        return True
    if all(len(href) > 1 and href.startswith("#") for href in hrefs):
        return True
    # A study text's note links run a script (`javascript:void(0)`, a pop-up note):
    # the reader view keeps their words as plain text. A sentence so linked is the
    # story's (readability-even clean-links' last line, "Ah Bartleby! Ah humanity!");
    # a label so linked is a control ("Autoplay", qq), and goes.
    scripted = all(href[:11].lower() == "javascript:" for href in hrefs)
    return scripted and is_sentence(line.text)


def is_permalink_heading(line: Line) -> bool:
    """Tell whether a line is a heading whose every link points at the heading itself."""
    # Documentation and blogs link each section heading to its own anchor (a
    # permalink to share): the link leads nowhere else, the heading is content.
    # Headings linking to other sections are a table of contents, not content.
    if line.tag not in HEADING_TAGS:
        return False
    heading = line.element
    hrefs = [(anchor.get("href") or "").strip() for anchor in heading.iter("a")]
    if not hrefs or not all(href.startswith("#") and len(href) > 1 for href in hrefs):
        return False
    own = _own_anchors(heading)
    return all(href[1:] in own for href in hrefs)


def _own_anchors(heading: etree._Element) -> set[str]:
    """Return the ids and anchor names a heading carries, itself, inside, or on its parent."""
    parent = heading.getparent()
    marked = [*heading.iter(), *([parent] if parent is not None else [])]
    return {value for el in marked for value in (el.get("id"), el.get("name")) if value}


def _enclose_headline(
    top: etree._Element, headline: etree._Element, lines: Sequence[Line], selection: Selection
) -> etree._Element:
    """Widen the subtree to hold the headline too, unless that means a layout wrapper."""
    enclosing = lowest_common_ancestor([top, headline])
    if enclosing.tag in LAYOUT_TAGS:
        return top
    return enclosing


def _after(lines: Sequence[Line], kept: list[int], headline: etree._Element) -> list[int]:
    """Keep only the lines from the headline's line on."""
    first = line_of(lines, headline)
    return kept if first is None else [index for index in kept if index > first]


def _lines_within(lines: Sequence[Line], inside: set[etree._Element], dense: set[int]) -> list[int]:
    """Return the indices of the lines, not `dense` ones, whose elements are in `inside`."""
    return [
        index for index, line in enumerate(lines) if line.element in inside and index not in dense
    ]


def _without_orphaned_headings(
    lines: Sequence[Line],
    kept: list[int],
    inside: set[etree._Element],
    top: etree._Element,
    *,
    spare: re.Pattern[str] | None = None,
    max_words: int = 12,
) -> list[int]:
    """Leave out each kept heading whose lines under it were all left out, up to the next
    kept heading of its rank or higher: it titled what is gone."""
    # wcxb-dev 0022's "More on HBS:" over a list of links left out as link-dense, then
    # "2. Stanford GSB": a reader met the title of nothing. What is left out goes
    # whole, its heading with it. A heading with no line at all under it (a title
    # over a subtitle's heading) is the author's, and stays; so is one the page's own
    # links lead to (wikipedia's "See also", in its table of contents), and a
    # furniture heading, where the output stage ends the article.
    # Lines without text of their own (a list's, a wrapper's) title nothing and are no text.
    texts = sorted(index for index in kept if lines[index].t1 > 0)
    orphans = [
        this
        for this, following in pairwise(texts)
        if _orphaned(lines[this], lines[following], max_words=max_words, spare=spare)
        and _left_out_between(lines, this, following, inside)
    ]
    if orphans:
        targets = {
            href[1:] for link in top.iter("a") if (href := link.get("href") or "")[:1] == "#"
        }
        left_out = {i for i in orphans if _own_anchors(lines[i].element).isdisjoint(targets)}
        kept = [index for index in kept if index not in left_out]
    return kept


def _orphaned(heading: Line, after: Line, *, max_words: int, spare: re.Pattern[str] | None) -> bool:
    """Tell whether a kept heading may title nothing: a short one, not furniture, with a
    kept heading of its rank or higher the next kept text."""
    return (
        heading.tag in HEADING_TAGS
        and len(heading.text.split()) <= max_words  # longer: a paragraph set as one
        and after.tag in HEADING_TAGS
        and after.tag <= heading.tag
        and not (spare and heading_names_furniture(heading.text, spare))
    )


def _left_out_between(
    lines: Sequence[Line], start: int, stop: int, inside: set[etree._Element]
) -> bool:
    """Tell whether the lines strictly between two kept ones hold text, all of it left out
    of the content's subtree."""
    between = [line for line in lines[start + 1 : stop] if line.t1 > 0]
    return bool(between) and all(line.element in inside for line in between)


def _unkept_elements(
    lines: Sequence[Line], kept: Iterable[int], top: etree._Element, inside: set[etree._Element]
) -> set[etree._Element]:
    """Return the line elements in `inside` (those of `top`) that hold no kept line at all."""
    holding: set[etree._Element] = set()
    for index in kept:
        element: etree._Element | None = lines[index].element
        while element is not None and element not in holding:
            holding.add(element)
            element = element.getparent()
    return {
        line.element
        for line in lines
        if line.element in inside and line.element not in holding and line.element is not top
    }


def _line_owners_within(top: etree._Element) -> set[etree._Element]:
    """Return `top` and the block elements inside it: every line element `top` holds."""
    # A line belongs to a block element or to the walk's root, which is `top`
    # itself when it is inside `top`; skipping inline elements saves most proxies.
    inside = set(top.iter(*BLOCK_TAGS))
    inside.add(top)
    return inside


def lowest_common_ancestor(elements: Sequence[etree._Element]) -> etree._Element:
    """Return the deepest element that contains all of `elements` (or is one of them)."""
    chain = list(_ancestors(elements[0]))[::-1]  # root first
    depth = {element: index for index, element in enumerate(chain)}
    deepest = len(chain) - 1
    # Elements share most of their ancestors: a walk up stops at a node an earlier
    # walk passed, as that walk already counted where its path meets the chain.
    passed: set[etree._Element] = set()
    for element in elements[1:]:
        node: etree._Element | None = element
        while node is not None and node not in depth and node not in passed:
            passed.add(node)
            node = node.getparent()
        if node is not None and node in depth:
            deepest = min(deepest, depth[node])
            if not deepest:  # the root: no element can lift it higher
                break
    return chain[deepest]


def line_of(lines: Sequence[Line], element: etree._Element) -> int | None:
    """Return the index of the first line that maps to `element` or lies inside it."""
    inside = set(element.iter())
    for index, line in enumerate(lines):
        if line.element in inside:
            return index
    return None


def _ancestors(element: etree._Element) -> Iterable[etree._Element]:
    """Yield the element and its ancestors, innermost first."""
    node: etree._Element | None = element
    while node is not None:
        yield node
        node = node.getparent()
