"""Tests for addon.core.output.furniture."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.output.furniture import (
    _TOKEN_RE,
    LabelKeys,
    _names_furniture,
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
)
from addon.core.params import (
    ACTION_LABELS,
    AD_LABELS,
    CONTROL_LABELS,
    DISCLOSURE_WORDS,
    FOLLOW_LABELS,
    FURNITURE_BOX_HEADINGS,
    FURNITURE_HEADINGS,
    SHARE_LABELS,
    TAG_LINE_LABELS,
    TAXONOMY_LABELS,
    TEASER_GRID_HEADINGS,
)
from addon.core.result import Block

FURNITURE = furniture_pattern(FURNITURE_HEADINGS)


def _text_blocks(*items: tuple[str, str]) -> tuple[Block, ...]:
    return tuple(Block(kind, f"<{kind}>{text}</{kind}>", text) for kind, text in items)


_ARTICLE_THEN_FURNITURE = (
    ("p", "The article's first paragraph, long enough to carry the page."),
    ("h3", "Why it matters"),
    ("p", "The article's second paragraph, also long enough to count."),
    ("h4", "Related posts"),
    ("ul", "Another story\nA third story"),
    ("h2", "Leave a reply"),
    ("p", "Your email address will not be published."),
)


_BOX_IN_ARTICLE = (
    ("p", "A short lead."),
    ("h3", "Related stories"),
    ("p", "The article goes on after the box with most of its text, " * 3),
    ("p", "Share"),
)


_LABEL_AFTER_ARTICLE = (
    ("p", "The article's only paragraph, long enough to carry the page. " * 2),
    ("p", "Was this page helpful?"),
    ("p", "Yes No"),
)


_THREAD_WITH_SHORT_POSTS = (
    ("p", "The first post of the thread, long enough to carry the page. " * 2),
    ("p", "Share"),
    ("p", "More from the author of this thread and many other people here"),
    ("p", "The second post of the thread."),
)


def _label_by_lowered_words(text: str, pattern: re.Pattern[str], max_label_words: int) -> bool:
    """Read a paragraph as a label as the furniture cut did before its early way out."""
    words = _TOKEN_RE.findall(text.lower())[: max_label_words + 1]
    return 2 <= len(words) <= max_label_words and pattern.fullmatch(" ".join(words)) is not None


_LABEL_WORDS = st.sampled_from(
    ["Related", "articles", "ART\u0130CLES", "\u0130", "_", "x1", "Was", "this", "page", "helpful"]
)


_LABEL_GAPS = st.sampled_from([" ", "", "? ", ", ", "-", "\u0307", "  "])


@pytest.mark.parametrize(
    ("heading", "furniture"),
    [
        ("Related Articles", True),
        ("You may also like…", True),
        ("Other Posts You May Enjoy", True),  # wcxb-dev 4659
        ("Articles you might enjoy", True),
        ("Ideas you will enjoy in the garden", False),
        ("More from Jane Doe", True),
        ("Recent Posts", True),
        ("More Related Stories", True),
        ("More related work", False),
        ("Leave a Reply", True),
        ("Share this article:", True),
        ("Tags", True),
        ("Subscribe to our newsletter", True),
        ("About the Author", True),
        ("Related work", False),
        ("Sharing the load", False),
        ("Share the load", False),
        ("Share the story", True),
        ("More on the budget", False),
        ("How to write a newsletter that people read", False),
        ("Comments on the draft law", False),
        ("Up Next", True),
        ("More You Might Like", True),  # wcxb-dev 0100
        ("Watch Next", True),  # wcxb-dev 0050
        ("Watch next year's budget", False),
        ("Create an account or sign in to comment", True),
        ("Did you find what you were looking for today?", True),
        ("Explore related questions", True),
        ("Up next week: the budget", False),
        ("Was this helpful?", True),  # a docs page's feedback prompt (wcxb-dev 0498)
        ("Was this worth the wait?", False),
        ("Your Answer", True),  # a Q&A site's answer form (wcxb-dev 0172, 0360, 4309)
        ("Your answer to the question of the week", False),
    ],
)
def test_furniture_headings_are_named_by_their_whole_text(heading: str, furniture: bool) -> None:
    blocks = _text_blocks(("p", "x" * 100), ("h2", heading), ("ul", "Another story"))
    kept = cut_furniture_tail(blocks, FURNITURE, min_position=0.4)
    assert (kept == blocks[:1]) is furniture
    assert (kept == blocks) is not furniture


@pytest.mark.parametrize(
    ("items", "min_position", "max_label_words", "kept"),
    [
        # a late furniture heading ends the content with all that follows it
        pytest.param(_ARTICLE_THEN_FURNITURE, 0.4, 0, 3, id="late-heading"),
        # early on, the same words title a box inside the article
        pytest.param(_BOX_IN_ARTICLE, 0.4, 0, 4, id="early-heading-kept"),
        pytest.param(_BOX_IN_ARTICLE, 0.0, 0, 1, id="early-heading-no-position-guard"),
        # a short paragraph naming furniture counts only when labels are on
        pytest.param(_LABEL_AFTER_ARTICLE, 0.4, 6, 1, id="late-label"),
        pytest.param(_LABEL_AFTER_ARTICLE, 0.4, 0, 3, id="headings-only"),
        # one-word labels are buttons inside posts; long paragraphs are prose
        pytest.param(_THREAD_WITH_SHORT_POSTS, 0.4, 6, 4, id="one-word-and-long-kept"),
    ],
)
def test_the_furniture_cut_keeps_what_stands_before_it(
    items: tuple[tuple[str, str], ...], min_position: float, max_label_words: int, kept: int
) -> None:
    blocks = _text_blocks(*items)
    cut = cut_furniture_tail(
        blocks, FURNITURE, min_position=min_position, max_label_words=max_label_words
    )
    assert cut == blocks[:kept]


@pytest.mark.parametrize(
    ("label", "max_label_words", "cut"),
    [
        ("Was this page helpful?", 4, True),  # exactly as many words as a label may have
        ("Was this page helpful?", 3, False),  # one word more
        ("Was this page helpful? " + "More words after it " * 50, 6, False),
        ("Related articles", 2, True),
        # Lowering "İ" gives "i" and a combining dot, which splits the word: the
        # words are counted in the lowered text (three here), not the page's.
        ("Related ART\u0130CLES", 2, False),
    ],
)
def test_a_label_paragraph_is_read_as_far_as_a_label_may_run(
    label: str, max_label_words: int, cut: bool
) -> None:
    blocks = _text_blocks(_LABEL_AFTER_ARTICLE[0], ("p", label), ("p", "More"))
    kept = cut_furniture_tail(blocks, FURNITURE, min_position=0.4, max_label_words=max_label_words)
    assert kept == (blocks[:1] if cut else blocks)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_LABEL_WORDS, _LABEL_GAPS), max_size=9),
    st.integers(min_value=0, max_value=7),
)
def test_a_label_paragraph_is_read_as_the_lowered_words_read_it(
    pieces: list[tuple[str, str]], max_label_words: int
) -> None:
    text = "".join(word + gap for word, gap in pieces)
    block = Block("p", f"<p>{text}</p>", text)
    for pattern in (FURNITURE, re.compile("related articles|was this page helpful|(?:\\w+ ?)+")):
        assert _names_furniture(block, pattern, max_label_words) is _label_by_lowered_words(
            text, pattern, max_label_words
        )


def test_cutting_the_tail_of_no_blocks_gives_no_blocks() -> None:
    assert cut_furniture_tail((), FURNITURE, min_position=0.4) == ()


def test_a_run_of_blocks_repeating_an_earlier_run_word_for_word_is_left_out() -> None:
    blocks = _text_blocks(
        ("p", "A wheel thrown mug in a matte white glaze."),
        ("p", "Handmade stoneware."),
        ("p", "A wheel thrown  mug in a matte\nwhite glaze."),
        ("p", "Handmade stoneware."),
        ("p", "A wheel thrown mug in a glossy white glaze."),
    )
    assert drop_repeated_blocks(blocks, min_chars=20) == (blocks[0], blocks[1], blocks[4])


def test_one_block_repeated_alone_is_the_articles_own() -> None:
    # A refrain, a heading over every product: a run of one is never furniture.
    refrain = ("p", "So keep the lamp and trim the wick, and never let it fail.")
    blocks = _text_blocks(
        ("p", "The tide comes in across the stones."),
        refrain,
        ("p", "The winter nights are long and cold."),
        refrain,
        ("h4", "What we liked about this lantern"),
        ("p", "It never went out."),
        ("h4", "What we liked about this lantern"),
        ("p", "The battery lasted."),
    )
    assert drop_repeated_blocks(blocks, min_chars=20) == blocks


def test_a_repeated_run_must_hold_enough_text() -> None:
    blocks = _text_blocks(("p", "Yes"), ("p", "No"), ("p", "Yes"), ("p", "No"))
    assert drop_repeated_blocks(blocks, min_chars=20) == blocks
    assert drop_repeated_blocks(blocks, min_chars=5) == blocks[:2]


def test_short_repeated_blocks_and_repeated_code_are_kept() -> None:
    blocks = _text_blocks(
        ("p", "Team size: 11-50"),
        ("pre", 'curl -X POST "https://api.example.com/v1/charges"'),
        ("p", "Team size: 11-50"),
        ("pre", 'curl -X POST "https://api.example.com/v1/charges"'),
        ("p", "Team size: 11-50"),
        ("p", "Team size: 11-50"),
    )
    assert drop_repeated_blocks(blocks, min_chars=20) == blocks
    assert drop_repeated_blocks((), min_chars=20) == ()


def test_a_twins_headings_repeat_at_any_level() -> None:
    # wcxb-dev 4876: a page's mobile copy opens with an h1 of its own, so its h2
    # sections come out a level deeper than the desktop copy's; the copy goes still.
    section = ("p", "Learn about our software packages to find what your business needs.")
    blocks = _text_blocks(
        ("h2", "Choosing the right software"), section, ("h2", "Compare your options"),
        ("h3", "Choosing the right software"), section, ("h3", "Compare your options"),
    )  # fmt: skip
    assert drop_repeated_blocks(blocks, min_chars=20) == blocks[:3]


def test_a_summary_entry_repeated_over_its_section_keeps_the_sections_heading() -> None:
    # wcxb-dev 0199: a summary box names each pick with its label; the picks'
    # sections open with the same label and name, then text of their own: the
    # heading heads what follows, and the label alone is no run.
    label, name = ("p", "Best Overall"), ("h2", "Book of the Month Club")
    blocks = _text_blocks(
        label, name, ("p", "$17.99 at Book of the Month"),
        label, name, ("h3", "Pros:"), ("ul", "High-quality books you can trust"),
    )  # fmt: skip
    assert drop_repeated_blocks(blocks, min_chars=20) == blocks
    # A twin made of headings alone goes whole (wcxb-dev 0588's feature titles).
    titles = (("h2", "Made for MagSafe"), ("h3", "Built with magnets inside."))
    page = _text_blocks(*titles, ("p", "Price"), *titles, ("p", "Reviews"))
    assert drop_repeated_blocks(page, min_chars=20) == (*page[:3], page[5])


def test_a_breadcrumb_trail_at_the_articles_start_goes() -> None:
    # wcxb-dev 0372: "Consulting Articles > Consulting Vs Other Careers > <headline>".
    title = "Insurance Consultant vs. MBB Consultant"
    crumb = Block("p", "<p>...</p>", f"Consulting Articles > Careers > {title}", 60, 32)
    links = Block("p", "<p>...</p>", "Home / Blog / Guides", 20, 18)
    prose = Block("p", "<p>...</p>", "Deciding between the two is a choice > once.", 45, 0)
    url = Block("p", "<p>...</p>", "https://example.org/a/b", 23, 23)
    blocks = (crumb, links, url, prose)
    assert drop_lead_breadcrumbs(blocks, title=title) == (url, prose)
    # Unlinked, or after the article's first blocks, a trail is the article's words.
    plain = Block("p", "<p>...</p>", f"Consulting Articles > {title}", 40, 0)
    assert drop_lead_breadcrumbs((plain,), title=title) == (plain,)
    assert drop_lead_breadcrumbs((prose, prose, prose, crumb), title=title)[-1] is crumb


def test_a_threads_replies_quoting_one_post_keep_their_quotations() -> None:
    # wcxb-dev 1350: two replies of one day quote the same post; the second reply's
    # date and quotation read as a run repeating the first's, and went.
    quote = "solaeros said: I don't think you'd have any trouble finding a troubleshooter."
    blocks = _text_blocks(
        ("ul", "Jul 9, 2007"), ("blockquote", quote), ("p", "Factories are where they learn."),
        ("ul", "Jul 9, 2007"), ("blockquote", quote), ("p", "No doubt. I used to do E&I."),
    )  # fmt: skip
    assert drop_repeated_blocks(blocks, min_chars=20, thread=True) == blocks
    # A poster's second post of the day repeats the name and date over the first's.
    posts = _text_blocks(
        ("h2", "sparky_jo"), ("ul", "Mar 4, 2024"), ("p", "What should I learn?"),
        ("h2", "sparky_jo"), ("ul", "Mar 4, 2024"), ("p", "Thank you all."),
    )  # fmt: skip
    assert drop_repeated_blocks(posts, min_chars=20, thread=True) == posts
    # A poster's details repeated under each post go (odd 0527).
    details = _text_blocks(("p", "Join Date: Aug 2008"), ("p", "Posts: 1,077"))
    kept = drop_repeated_blocks((*details, posts[2], *details), min_chars=20, thread=True)
    assert kept == (*details, posts[2])
    # Outside a thread, a carousel of quoted testimonials cloned for its scrolling
    # goes (odd 0693).
    carousel = _text_blocks(("blockquote", quote), ("blockquote", "It is so easy to use."))
    assert drop_repeated_blocks((*carousel, *carousel), min_chars=20) == carousel


def test_an_entrys_facts_repeating_another_entrys_stay_under_their_heading() -> None:
    # wcxb-dev 0166: two agencies founded the same year in the same city, each with
    # the same facts under its own heading.
    facts = (("p", "Office Location: Atlanta, Georgia"), ("p", "Year Founded: 2011"))
    prose = ("p", "An agency that plans campaigns around one idea and tests it first.")
    other_prose = ("p", "An agency that posts for its clients and answers within the hour.")
    blocks = _text_blocks(
        ("h3", "4. North"), *facts, prose, ("h3", "9. South"), *facts, other_prose
    )
    assert drop_repeated_blocks(blocks, min_chars=20, within_section=True) == blocks
    assert drop_repeated_blocks(blocks, min_chars=20) == (*blocks[:5], blocks[7])
    # Served twice under one heading, or with its heading, the run goes still; so does
    # a run of other lines under another heading (a price widget, "See review").
    twice = _text_blocks(("h3", "Specs"), *facts, *facts)
    assert drop_repeated_blocks(twice, min_chars=20, within_section=True) == twice[:3]
    titled = _text_blocks(("h3", "Specs"), *facts, ("h3", "Specs"), *facts)
    assert drop_repeated_blocks(titled, min_chars=20, within_section=True) == titled[:3]
    widget = (("p", "Best Prices Today"), ("p", "See the review in full"))
    other = _text_blocks(("h3", "A"), *widget, ("h3", "B"), *widget)
    assert drop_repeated_blocks(other, min_chars=20, within_section=True) == other[:4]


def test_a_related_box_inside_the_article_goes_alone() -> None:
    long = "The article goes on after the box, sentence after sentence, at length. " * 8
    blocks = _text_blocks(
        ("p", long),
        ("h2", "Related"),
        ("ul", "Another story"),
        ("p", long),
        ("h2", "Leave a reply"),
        ("p", long),
    )
    cut = cut_furniture_tail(
        blocks, FURNITURE, min_position=0.1, resume_chars=400, box=furniture_pattern("related")
    )
    assert cut == (blocks[0], blocks[3])  # the box went, the article went on, comments ended it
    assert cut_furniture_tail(blocks, FURNITURE, min_position=0.1) == (blocks[0],)


@pytest.mark.parametrize("title", ["Recommended Reading", "Recommended", "Related", "Like this:"])
def test_a_recommended_box_inside_the_article_goes_alone_too(title: str) -> None:
    # Issue 28 (5): wcxb-dev 0160 (The Atlantic) sets a "Recommended Reading"
    # box inside its essay: the essay's last third went with it (F1 0.77).
    long = "The essay goes on after the box, sentence after sentence, at length. " * 8
    blocks = _text_blocks(("p", long), ("h2", title), ("ul", "Another essay"), ("p", long))
    box = furniture_pattern(FURNITURE_BOX_HEADINGS)
    cut = cut_furniture_tail(blocks, FURNITURE, min_position=0.1, resume_chars=200, box=box)
    assert cut == (blocks[0], blocks[3])


@pytest.mark.parametrize("end", ["…", "...", " […]"])
def test_a_related_posts_excerpt_is_no_article_going_on_past_the_box(end: str) -> None:
    # readability-even wordpress: a "Related" box of three posts, each with an
    # excerpt of 300 characters cut off with an ellipsis, a date and a category,
    # was read as the article going on past a box inside it.
    long = "The article's prose, sentence after sentence, at length. " * 8
    excerpt = "A related post's excerpt runs on for a while, sentence after sentence " * 4
    blocks = _text_blocks(
        ("p", long), ("h3", "Related"), ("p", excerpt + end), ("p", "March 17, 2016")
    )
    box = furniture_pattern(FURNITURE_BOX_HEADINGS)
    cut = cut_furniture_tail(blocks, FURNITURE, min_position=0.1, resume_chars=200, box=box)
    assert cut == (blocks[0],)


def test_a_related_content_box_goes_alone_and_the_next_sections_heading_stays() -> None:
    # wcxb-dev 0261 (HubSpot): a "Related Content:" box inside a guide ended it,
    # and once a box, the heading of the section after it ("5. Snapchat") went too.
    long = "The guide goes on after the box, sentence after sentence, at length. " * 8
    blocks = _text_blocks(
        ("p", long), ("h3", "Related Content:"), ("ul", "Another guide"), ("h2", "5. Snapchat"),
        ("p", long),
    )  # fmt: skip
    box = furniture_pattern(FURNITURE_BOX_HEADINGS)
    cut = cut_furniture_tail(blocks, FURNITURE, min_position=0.4, resume_chars=200, box=box)
    assert cut == (blocks[0], blocks[3], blocks[4])


def test_a_like_this_widget_ends_the_post_or_goes_alone_inside_it() -> None:
    # WordPress's "Like this:" box (Jetpack) closes a post with its "Like" button
    # and "Loading..." placeholder: kept as text until it named furniture.
    long = "The post goes on, sentence after sentence, at length and in detail. " * 8
    blocks = _text_blocks(("p", long), ("h3", "Like this:"), ("p", "Like Loading..."))
    box = furniture_pattern(FURNITURE_BOX_HEADINGS)
    cut = cut_furniture_tail(blocks, FURNITURE, min_position=0.4, resume_chars=200, box=box)
    assert cut == (blocks[0],)


def test_a_label_the_article_used_twice_before_is_its_own_and_ends_nothing() -> None:
    # wcxb-dev 0375: a guide to courses heads each school's list "Recommended
    # courses:"; the one that stood late in the guide cut its last 40% away.
    school = "A school's courses, described at length for the beginner who reads on. " * 4
    sections = [("p", school), ("h3", "Recommended courses:"), ("ul", "One\nTwo")] * 4
    blocks = _text_blocks(*sections, ("h2", "Related posts"), ("ul", "Another story"))
    cut = cut_furniture_tail(blocks, FURNITURE, min_position=0.5, min_label_repeats=2)
    assert cut == blocks[:12]  # every school kept; the real furniture still ends it
    assert cut_furniture_tail(blocks, FURNITURE, min_position=0.5) == blocks[:7]


def test_a_share_bar_above_and_below_the_article_still_ends_it() -> None:
    long = "The post goes on, sentence after sentence, at length and in detail. " * 8
    blocks = _text_blocks(("h3", "Share this"), ("p", long), ("h3", "Share this"), ("p", "By"))
    assert (
        cut_furniture_tail(blocks, FURNITURE, min_position=0.4, min_label_repeats=2) == (blocks[:2])
    )


def test_date_and_reading_time_lines_before_the_prose_go() -> None:
    prose = "The article's prose starts here and runs on for a good while longer. " * 3
    blocks = _text_blocks(
        ("p", "Last updated on September 16th, 2023 at 09:27 am"),
        ("p", "by Ann Lee | Apr 21, 2025"),  # a bare date may open a post: it stays
        ("p", "9 min read"),
        ("p", "Fitness trends in 2025: a brief look"),
        ("p", prose),
        ("p", prose),
        ("p", "Updated May 2, 2025"),  # after the lead's prose: the content's own
    )
    assert drop_date_lines(blocks, published="2023-09-16") == (blocks[1], *blocks[3:])
    # Without a date in the metadata the byline row shows none: the dates stay.
    assert drop_date_lines(blocks, published=None) == (blocks[0], blocks[1], *blocks[3:])


def test_a_relative_date_with_a_reading_time_goes() -> None:
    # wcxb-dev 0466: "Published a day ago ~ 6 minutes read" above the story.
    prose = "Have you ever joined a large organisation? Its processes are fascinating. " * 3
    blocks = _text_blocks(("p", "Published a day ago ~ 6 minutes read"), ("p", prose))
    assert drop_date_lines(blocks, published="2021-02-01") == blocks[1:]
    # A name of up to four words after a byline's lead word; a category is no name.
    named = _text_blocks(("p", "By Angela Kaye Carpenter Updated on February 16, 2026"))
    assert drop_date_lines((*named, blocks[1]), published="2026-02-16") == blocks[1:]
    category = _text_blocks(("p", "Posted in News Release"))
    assert drop_date_lines((*category, blocks[1]), published="2026-02-16") == (
        *category, blocks[1],
    )  # fmt: skip
    zoned = _text_blocks(("p", "| November 3, 2025 (8:42 AM ET)"), ("p", prose))
    assert drop_date_lines(zoned, published="2025-11-03T13:42:00Z") == zoned[1:]
    said = _text_blocks(("p", "A day ago the river rose by six feet"), ("p", prose))
    assert drop_date_lines(said, published="2021-02-01") == said


def test_a_standfirst_above_the_row_does_not_end_the_lead() -> None:
    # wcxb-dev 4668: a standfirst of 168 characters, then "published on: April 16,
    # 2024" and "Reading Time: 8 minutes", then the story.
    standfirst = "Starting a podcast does not have to be expensive, and the tech is simple. " * 3
    blocks = _text_blocks(
        ("p", standfirst), ("p", "published on: April 16, 2024"),
        ("p", "Reading Time: 8 minutes"), ("p", standfirst), ("p", "Updated May 2, 2025"),
    )  # fmt: skip
    kept = (blocks[0], *blocks[3:])
    assert drop_date_lines(blocks, published="2024-04-16T06:00:40+00:00") == kept
    assert drop_date_lines(blocks, published="2024-04-16", lead_prose=0) == blocks


def test_the_day_the_byline_row_shows_goes_alone_and_other_days_stay() -> None:
    # wcxb-dev 0002: "August 25, 2025" and "15 min" under a row dated 2025-08-25.
    prose = "Health and nutrition trends are no longer siloed categories, not at all. " * 3
    lines = ("August 25, 2025", "15 min", "Reading Time: 11 minutes", "Aug 24th")
    blocks = _text_blocks(*(("p", line) for line in lines), ("p", prose))
    published = "2025-08-25T13:59:22+00:00"
    expected = (blocks[3], blocks[4])  # another day
    assert drop_date_lines(blocks, published=published) == expected
    # The day without a year (Wix's "Aug 15", wcxb-dev 0200) is the row's day; with
    # another year, another day.
    yearless = _text_blocks(("p", "Aug 25th"), ("p", "Aug 25, 2024"), ("p", prose))
    assert drop_date_lines(yearless, published=published) == yearless[1:]
    numeric = _text_blocks(("p", "25/08/2025"), ("p", prose))
    assert drop_date_lines(numeric, published=published) == numeric[1:]
    # Another day, or the day beside other words, is the content's own.
    kept = _text_blocks(("p", "August 24, 2025"), ("p", "Doors open August 25, 2025"))
    assert drop_date_lines((*kept, blocks[-1]), published=published) == (*kept, blocks[-1])
    assert drop_date_lines(blocks[:1], published="not a date") == blocks[:1]


def test_the_date_line_that_opens_the_article_is_found_for_the_byline_row() -> None:
    # wcxb-dev 0158's "January 31, 2024", 0026's "Updated on July 9, 2025", 0200's "Aug
    # 15": the page's only date, its metadata naming none.
    prose = "Considering hiring a cleaner for your business but not sure what to pay? " * 3
    for line in ("January 31, 2024", "Updated on July 9, 2025", "Aug 15", "31/01/2024"):
        blocks = _text_blocks(("p", "Resources"), ("p", line), ("p", prose))
        assert lead_date(blocks) == range(1, 2), line
    # Its label on the line before, a colon ending it, comes with it (0019).
    labelled = _text_blocks(("p", "Last updated:"), ("p", "Dec 12, 2025"), ("p", prose))
    assert lead_date(labelled) == range(0, 2)
    # Not a date alone, a year alone, a reading time, a date inside the prose or
    # after the lead's prose, a thread's post dates.
    for line in ("Doors open August 25, 2025", "2024", "15 min", "by Ann Lee | Apr 21, 2025"):
        assert not lead_date(_text_blocks(("p", line), ("p", prose))), line
    late = _text_blocks(("p", prose), ("p", prose), ("p", "Aug 15"))
    assert not lead_date(late)
    thread = _text_blocks(("p", "Jan 11, 2026"), ("p", prose), ("p", "Jan 12, 2026"))
    assert not lead_date(thread)


def test_a_weekdays_short_name_is_a_date_lines_own_word() -> None:
    # wcxb-dev 0480: "Fri, 19th Dec 2025" under a row dated that day.
    prose = "Enterprise buyers are set to pull back from large deployments of AI next year. " * 2
    blocks = _text_blocks(("p", "Fri, 19th Dec 2025"), ("p", prose))
    assert drop_date_lines(blocks, published="2025-12-19T09:04:00+13:00") == blocks[1:]


def _photo(img: str, caption: str = "") -> Block:
    figcaption = f"<figcaption>{caption}</figcaption>" if caption else ""
    return Block("figure", f"<figure>{img}{figcaption}</figure>", caption)


def test_the_authors_photo_at_the_start_goes() -> None:
    # wcxb-dev 0198 (alt the byline's name), 0480 ("Author image"), 0032 (a link to
    # the author's page); a photo the article shows, a captioned one and a later one stay.
    prose = "Choosing between audiobook subscriptions should not be complicated at all. " * 3
    named = _photo('<img src="https://x.example/k.jpg" alt="Kristian Larsen">')
    said = _photo('<img src="https://x.example/s.webp" alt="Author image">')
    linked = _photo(
        '<a href="https://blog.example/author/everfit"><img src="https://x.example/e.png" '
        'alt="Everfit Team"></a>'
    )
    photo = _photo('<img src="https://x.example/books.jpg" alt="A stack of books">')
    captioned = _photo('<img src="https://x.example/k2.jpg" alt="Kristian Larsen">', "Me, 2024")
    (text,) = _text_blocks(("p", prose))
    blocks = (named, said, linked, text)
    assert drop_author_photos(blocks, byline="Kristian Larsen") == (text,)
    kept = (photo, captioned, text, text, named)
    assert drop_author_photos(kept, byline="Kristian Larsen") == kept
    # Without a byline, a name is no evidence.
    assert drop_author_photos((named, text), byline=None) == (named, text)


def test_a_caption_of_nothing_goes() -> None:
    # wcxb-dev 4708: the lazy image had no source in the saved page, its credit stayed.
    bare = Block(
        "figure",
        "<figure> <figcaption><p>Firn | Getty Images</p></figcaption></figure>",
        "Firn | Getty Images",
    )
    shown = Block(
        "figure",
        '<figure><img src="https://x.example/a.jpg" alt=""><figcaption>A</figcaption></figure>',
        "A",
    )
    table = Block(
        "figure",
        "<figure><table><tr><td>1</td></tr></table><figcaption>T</figcaption></figure>",
        "1 T",
    )
    quote = Block(
        "figure",
        "<figure><blockquote><p>Q</p></blockquote><figcaption>Ann</figcaption></figure>",
        "Q Ann",
    )
    assert drop_bare_captions((bare, shown, table, quote)) == (shown, table, quote)
    # A carousel's items, each its credit alone (wcxb-dev 4030), and a list of words.
    credits = Block(
        "ul",
        "<ul><li><figcaption>Credit: Eats</figcaption></li><li><figcaption>Credit: Eats"
        "</figcaption></li></ul>",
        "Credit: Eats Credit: Eats",
    )
    words = Block("ul", "<ul><li>One</li><li><figcaption>Two</figcaption></li></ul>", "One Two")
    assert drop_bare_captions((credits, words)) == (words,)


def test_a_bare_date_stays_where_another_bare_date_follows_as_in_a_thread() -> None:
    # The forum goldens: each post opens with its date; the first post's is the row's day.
    post = "My starter is ten days old and this morning it smelled sharply of nail varnish. " * 2
    blocks = _text_blocks(
        ("p", "Jan 11, 2026"), ("p", post), ("p", "2026-01-12 09:30"), ("p", post),
    )  # fmt: skip
    assert drop_date_lines(blocks, published="2026-01-11") == blocks


def test_the_authors_name_alone_before_the_prose_goes_as_the_byline_row_shows_it() -> None:
    # readability-even buzzfeed-1: "Mark Di Stefano" on a line of its own above the
    # story, under the byline row that names him.
    prose = "The mother of a woman who took suspected diet pills bought online spoke. " * 3
    blocks = _text_blocks(
        ("p", "Mark Di Stefano"), ("p", "By Mark Di Stefano"), ("p", "Mark Di Stefano says"),
        ("p", prose), ("p", prose), ("p", "Mark Di Stefano"),
    )  # fmt: skip
    assert drop_date_lines(blocks, published=None, byline="Mark Di Stefano") == blocks[2:]
    assert drop_date_lines(blocks, published=None) == blocks


def test_a_bylines_lead_word_alone_before_the_prose_goes() -> None:
    # readability-even cnet-svg-classes: "por", its author's link left out as a link line.
    prose = "La aplicación de Twitter que minimiza el uso de datos llega a México. " * 3
    blocks = _text_blocks(
        ("p", "por"), ("p", "Written by"), ("p", "By the river"), ("p", prose), ("p", prose),
        ("p", "By"),
    )  # fmt: skip
    assert drop_date_lines(blocks, published=None) == blocks[2:]
    # A fact-checker's credit whose name was a hover card's link (wcxb-dev 0020, 0116).
    checked = _text_blocks(("p", "Fact checked by"), ("p", prose))
    assert drop_date_lines(checked, published=None) == checked[1:]


def test_a_posts_vote_count_alone_goes() -> None:
    # Stack Exchange: "300" before the question, a count before each answer (wcxb-dev
    # 4310, 0360); a number inside a sentence, a linked one and a longer one stay.
    blocks = _text_blocks(
        ("p", "300"), ("p", "I've read many examples of asyncio."), ("p", "-2"), ("p", "1.2k"),
        ("p", "It took 42 seconds."), ("p", "123456789"),
    )  # fmt: skip
    linked = Block("p", '<p><a href="#comments">12</a></p>', "12")
    assert drop_vote_counts((*blocks, linked)) == (blocks[1], blocks[4], blocks[5], linked)


def test_a_dates_label_without_its_date_goes_where_the_row_shows_no_date() -> None:
    # wcxb-dev 4014's "Updated" and 4606's "Published": the date a script drew is gone.
    prose = "We review a lot of laptops, and only the most exceptional earn a spot here. " * 3
    blocks = _text_blocks(
        ("p", "Updated"), ("p", "Last updated"), ("p", "Published on"), ("p", "Updates"),
        ("p", prose), ("p", prose), ("p", "Updated"),
    )  # fmt: skip
    assert drop_date_lines(blocks, published=None) == blocks[3:]
    assert drop_foot_date_lines(blocks, published=None) == blocks[:-1]
    # A colon's date is on the next line (0019); "On" and "Last" alone are no labels
    # (4684's switches "On", "Off").
    lines = _text_blocks(("p", "Last updated:"), ("p", "Dec 12, 2025"), ("p", "On"), ("p", "Last"))
    assert drop_date_lines((*lines, *blocks[4:]), published=None) == (*lines, *blocks[4:])


@pytest.mark.parametrize(
    "line",
    [
        "1 de diciembre de 2017 3:00 AM PST",  # readability-even cnet-svg-classes
        "Publicado el 1 de diciembre de 2017",
        "1er décembre 2017",
        "Mis à jour le 1 décembre 2017",
        "Aktualisiert am 1. Dezember 2017 um 03:00 Uhr",
        "1 dicembre 2017",
        "1 de dezembro de 2017",
        "1 december 2017",
    ],
)
def test_the_rows_day_in_another_language_goes_as_in_english(line: str) -> None:
    prose = "Twitter ha dado a conocer que Twitter Lite llegará a un total de once países. " * 3
    blocks = _text_blocks(("p", line), ("p", prose), ("p", prose))
    assert drop_date_lines(blocks, published="2017-12-01T03:00:00-08:00") == blocks[1:]
    # ... and so does the author's name with the byline's word of that language.
    named = (*_text_blocks(("p", "por César Salza"), ("p", "Written by César Salza")), *blocks)
    assert drop_date_lines(named, published=None, byline="César Salza") == blocks
    # Another day is the content's own, in any language, unless stamped ("Publicado",
    # "Aktualisiert", as "Updated": the row shows the page's date).
    stamped = line.split(maxsplit=1)[0] in {"Publicado", "Aktualisiert"}
    other_day = drop_date_lines(blocks, published="2017-11-30")
    assert other_day == (blocks[1:] if stamped else blocks)


def test_edited_and_reviewed_by_and_their_separator_before_the_prose_go() -> None:
    # wcxb-dev 0026: "Edited by", "•", "Reviewed by", their names left out as links.
    prose = "With so many options on the market, it can be difficult to choose one. " * 3
    lead = _text_blocks(("p", "Edited by"), ("p", "•"), ("p", "Reviewed by"))
    scene_break = _text_blocks(("p", "* * *"))
    blocks = (*lead, *_text_blocks(("p", prose), ("p", prose)), *scene_break)
    assert drop_date_lines(blocks, published=None) == blocks[3:]
    # The lines that go do not count toward the lead: the row's pieces are one line.
    figure = Block("figure", '<figure><img src="a.png" alt=""></figure>', "")
    pieces = (*lead, figure, *lead, *_text_blocks(("p", "Edited by")))
    assert drop_date_lines(pieces, published=None, max_lead=1) == (figure, *lead, pieces[-1])
    # A formula's paragraph shows only its full stop as text: no separator.
    formula = Block("p", "<p><math><mi>x</mi></math>.</p>", ".")
    assert drop_date_lines((formula, *blocks[3:]), published=None) == (formula, *blocks[3:])
    # An empty figure is no separator: it has no text at all.
    figure = Block("figure", '<figure><img src="a.png" alt=""></figure>', "")
    assert drop_date_lines((figure, *blocks[3:]), published=None) == (figure, *blocks[3:])


def test_a_date_line_with_a_written_by_and_the_authors_name_goes() -> None:
    # wcxb-dev 4034: the byline row's pieces on one line above the story.
    prose = "Learning a language at home takes a plan, a habit and a little patience. " * 3
    blocks = _text_blocks(
        ("p", "2025-11-03 14 min read Written by Christian Eilers"), ("p", prose),
    )  # fmt: skip
    assert drop_date_lines(blocks, published="2025-11-03") == blocks[1:]
    # More than a name beside the date words is a sentence of the content.
    said = _text_blocks(("p", "14 min read Written by Christian Eilers of the Harbour Review"))
    assert drop_date_lines((*said, blocks[1]), published="2025-11-03") == (*said, blocks[1])


def test_the_byline_row_at_the_articles_foot_goes() -> None:
    # wcxb-dev 0452: Blogger's post footer under the post; 4416: the author's name.
    prose = "We walked the old drove road from the ford to the hill fort and back. " * 3
    blocks = _text_blocks(
        ("p", "Posted by David at December 16, 2025 11:15 AM"), ("p", prose), ("p", prose),
        ("p", "Posted by David at December 16, 2025 11:15 AM"), ("p", "Paulinho Giovannini"),
    )  # fmt: skip
    published = "2025-12-16T11:15:00Z"
    expected = blocks[:3]
    assert drop_foot_date_lines(blocks, published=published, byline="Paulinho Giovannini") == (
        expected
    )
    # Without a date in the metadata the row shows none: the footer's date stays.
    assert (
        drop_foot_date_lines(blocks, published=None, byline="Paulinho Giovannini") == (blocks[:4])
    )
    # Before the last prose paragraph, or past `max_foot` lines from the end, it stays.
    late = (*blocks, *_text_blocks(("p", prose)))
    assert drop_foot_date_lines(late, published=published) == late
    assert drop_foot_date_lines(blocks, published=published, max_foot=0) == blocks


_TEASER_IMAGE = Block("figure", '<figure><img src="t.jpg" alt="a tutor"></figure>', "")


def test_a_run_of_teaser_dates_after_the_text_ends_the_content() -> None:
    # wcxb-dev 0335: teaser cards whose titles, links, were left out as link lines.
    prose = "Practising with a native speaker before your trip will build your confidence. " * 2
    article = _text_blocks(("p", prose), ("p", prose), ("p", "Good luck and enjoy the road"))
    cards = (
        _TEASER_IMAGE, *_text_blocks(("p", "April 21, 2025"), ("p", "Looking for a tutor? Learn")),
        _TEASER_IMAGE, *_text_blocks(("p", "April 14, 2025"), ("p", "by Ann Lee")),
        *_text_blocks(("p", "14/04/2025"), ("p", "Prepare for your lesson with")),
    )  # fmt: skip
    # The run goes from its first image or date; a short last line before it stays.
    assert cut_teaser_dates((*article, *cards)) == article
    # Two dates are no teaser strip: a letter's date, a post's footer.
    assert cut_teaser_dates((*article, *cards[:5])) == (*article, *cards[:5])
    # A line that ends a sentence ends the run: a thread's last posts stay.
    posts = _text_blocks(
        ("p", "May 2, 2025"), ("p", "Thanks, that worked."), ("p", "May 3, 2025"),
        ("p", "Same here"), ("p", "May 4, 2025"), ("p", "Mine too."),
    )  # fmt: skip
    assert cut_teaser_dates((*article, *posts)) == (*article, *posts)
    unpunctuated = (*posts[2:5], *_text_blocks(("p", "June 1, 2025")))
    assert cut_teaser_dates((*article, *unpunctuated)) == article
    assert cut_teaser_dates(cards, min_dates=4) == cards


TAGS = furniture_pattern(TAG_LINE_LABELS)


def test_a_tag_line_above_the_article_goes() -> None:
    # wcxb-dev 0454: "Category: Tech matters" and "Tags: DNS, outages" above the
    # story, a post's tag line set at its head.
    prose = "The outage began when a change to the name servers went out to every region. " * 2
    blocks = _text_blocks(
        ("p", "Category: Tech matters"), ("p", "Tags: DNS, outages"), ("p", prose),
        ("p", "Tags: the word a reader types to find a post."), ("p", prose),
    )  # fmt: skip
    assert drop_lead_tag_lines(blocks, TAGS) == blocks[2:]


def test_a_line_that_only_starts_like_a_label_stays() -> None:
    prose = "The outage began when a change to the name servers went out to every region. " * 2
    blocks = _text_blocks(("p", "Categories of outage, from worst to mildest"), ("p", prose))
    assert drop_lead_tag_lines(blocks, TAGS) == blocks


def _figure(src: str, caption: str) -> Block:
    figcaption = f"<figcaption>{caption}</figcaption>" if caption else ""
    return Block("figure", f'<figure><img src="{src}" alt="">{figcaption}</figure>', caption)


def test_a_captioned_figure_repeating_the_one_before_it_goes() -> None:
    # readability-even theverge: the lead photo as a square and a wide crop.
    square = _figure("https://cdn.example/2400x2400/uploads/DSC00889.jpg", "The headset.")
    wide = _figure("https://cdn.example/2400x1600/uploads/DSC00889.jpg", "The headset.")
    text = Block("p", "<p>The review.</p>", "The review.")
    assert drop_twin_figures((square, wide, text)) == (square, text)


def test_figures_of_other_images_or_captions_or_none_all_stay() -> None:
    star = _figure("https://cdn.example/icons/star.png", "")
    other = _figure("https://cdn.example/uploads/b.jpg", "The headset.")
    same_file = _figure("https://cdn.example/uploads/DSC00889.jpg", "The headset.")
    recaptioned = _figure("https://cdn.example/uploads/DSC00889.jpg", "The box.")
    blocks = (star, star, other, same_file, recaptioned)
    assert drop_twin_figures(blocks) == blocks


def test_an_uncaptioned_figure_that_crops_the_one_before_it_goes() -> None:
    # wcxb-dev 0030: each course's photo in a 16:9 and a 4:3 crop, 33 pairs.
    wide = _figure("https://media.example/images/106113552/750/422/image.jpg", "")
    tall = _figure("https://media.example/images/106113552/750/562/image.jpg", "")
    text = Block("p", "<p>Photo courtesy of the school.</p>", "Photo courtesy of the school.")
    assert drop_twin_figures((wide, tall, text)) == (wide, text)
    # A gallery's next photo, its number in the file's name, stays; so does a row of
    # one icon, the same URL each time.
    first = _figure("https://cdn.example/uploads/IMG_1234.jpg", "")
    second = _figure("https://cdn.example/uploads/IMG_1235.jpg", "")
    star = _figure("https://cdn.example/icons/star.png", "")
    assert drop_twin_figures((first, second, star, star)) == (first, second, star, star)


def test_a_lead_in_to_other_posts_without_its_list_goes() -> None:
    # wcxb-dev 0488: "If you liked this post you might also like:", its links left out
    # as a link list; the sentence announced nothing left in the view.
    lead = Block(
        "p",
        "<p>If you liked this post you might also like:</p>",
        "If you liked this post you might also like:",
    )
    heading = Block("h2", "<h2>Want more?</h2>", "Want more?")
    links = Block("ul", "<ul><li><a href='/a'>A post</a></li></ul>", "A post")
    own = Block("p", "<p>Popular tools include:</p>", "Popular tools include:")
    assert drop_related_leads((lead, heading)) == (heading,)
    assert drop_related_leads((heading, lead)) == (heading,)
    # Its list still there, or the article's own lead-in: both stay.
    assert drop_related_leads((lead, links)) == (lead, links)
    assert drop_related_leads((own, heading)) == (own, heading)


def _logo(href: str, alt: str = "Example Blog") -> Block:
    image = f'<img src="https://cdn.example/logo.png" alt="{alt}">'
    html = f'<figure><a href="{href}" rel="noopener noreferrer">{image}</a></figure>'
    return Block("figure", html, "")


_SITE = "https://www.example.com"


def test_the_sites_logo_before_and_after_the_article_goes() -> None:
    # wcxb-dev 4034: the header's logo, twice (desktop and mobile), opened the view.
    text = _text_blocks(("p", "The article's first paragraph."), ("p", "Its last."))
    blocks = (_logo("https://example.com"), _logo("https://www.example.com/"), *text)
    blocks += (_logo("https://www.example.com/"),)
    assert drop_logo_links(blocks, origin=_SITE) == text


def test_a_logo_between_paragraphs_or_linking_elsewhere_stays() -> None:
    # A photo of the author linking to the author's own site, amid the text (0305),
    # and images linking to pages of the site or to another site are the article's.
    first, last = _text_blocks(("p", "First."), ("p", "Last."))
    inside = _logo("https://www.example.com/")
    elsewhere = (
        _logo("https://www.example.com/blog/"),
        _logo("https://www.example.com/?ref=logo"),
        _logo("https://other.example/"),
    )
    blocks = (*elsewhere, first, inside, last)
    assert drop_logo_links(blocks, origin=_SITE) == blocks


def test_without_a_known_site_every_block_stays() -> None:
    blocks = (_logo("/"), *_text_blocks(("p", "The article.")))
    assert drop_logo_links(blocks, origin="") == blocks


def test_a_captioned_figure_or_one_with_text_stays() -> None:
    captioned = Block(
        "figure",
        '<figure><a href="https://www.example.com/"><img src="a.png" alt=""></a>'
        "<figcaption>Our new office.</figcaption></figure>",
        "Our new office.",
    )
    text = _text_blocks(("p", "The article."))
    assert drop_logo_links((captioned, *text), origin=_SITE) == (captioned, *text)


def test_a_furniture_heading_a_higher_heading_closes_goes_alone() -> None:
    # wcxb-dev 4085: "More posts related to Tokyo" (an h3 inside the Tokyo section
    # of a travel guide) ended the guide; its next day's h2 and half the guide went.
    long = "The guide goes on with the next day, sentence after sentence, at length. " * 8
    blocks = _text_blocks(
        ("h2", "Day 1: Tokyo"),
        ("p", long),
        ("h3", "More posts related to Tokyo"),
        ("p", "Please read the following posts:"),
        ("h2", "Day 2: Hakone"),
        ("p", long),
        ("h2", "Leave a reply"),
        ("p", long),
    )

    def cut(blocks: tuple[Block, ...], *, outranked: bool = True) -> tuple[Block, ...]:
        return cut_furniture_tail(
            blocks, FURNITURE, min_position=0.1, resume_chars=200, outranked=outranked
        )

    assert cut(blocks) == (*blocks[:2], *blocks[4:6])  # the box went, comments ended it
    assert cut(blocks, outranked=False) == blocks[:2]
    # A heading of the same rank, or a higher one without prose after it: the end.
    same = (*blocks[:4], Block("h3", "<h3>Day 2</h3>", "Day 2"), *blocks[5:])
    assert cut(same) == blocks[:2]
    assert cut((*blocks[:5], Block("p", "<p>Short.</p>", "Short."))) == blocks[:2]


@pytest.mark.parametrize(
    ("text", "furniture"),
    [
        ("Filed under: Best Of, Japan, Travel Guides", True),
        ("Tags: Employment, Health & Fitness, Mid-sized Businesses, Paul Fenaroli", True),
        ("Category: Gardening, Raising Your Own Food", True),
        ("Tags help readers find posts on the same subject, as this one explains.", False),
        ("Categories of tipping: restaurants, bars and delivery each differ.", False),
        ("Next article: Go Wins 2010 Bossie Award\nPrevious article: Share Memory", True),
        ("Siguiente artículo: Si quieres un iPhone X, ya no tendrás que esperar", True),
        ("The next article in this series looks at the harbour.", False),
    ],
)
def test_a_late_tag_line_ends_the_content(text: str, furniture: bool) -> None:
    # wcxb-dev 4085, 0297, 4659: a tag line ("Filed under: ...") closed the kept
    # article; as a label of more than six words it was no furniture.
    long = "The article's only paragraph, long enough to carry the page. " * 4
    blocks = _text_blocks(("p", long), ("p", text), ("p", "Your email will not be published."))
    cut = cut_furniture_tail(
        blocks, FURNITURE, min_position=0.4, max_label_words=6, tag_lines=TAGS, max_tag_chars=200
    )
    assert cut == (blocks[:1] if furniture else blocks)


SHARE = furniture_pattern(SHARE_LABELS)


@pytest.mark.parametrize(
    ("kind", "text", "label"),
    [
        ("h2", "Share this story", True),
        ("p", "Share:", True),
        ("p", "SHARE", True),
        ("p", "Share this post", True),
        ("p", "Share on Facebook", True),
        ("p", "Email this story", True),
        ("p", "copied!", True),
        ("p", "Copy link", True),
        ("p", "Link copied", True),
        ("h3", "Pin this for later!", True),
        ("p", "Add SoundGuys on Google", True),
        ("p", "Add as a preferred source on Google", True),
        ("p", "Add Us On Google Add SciAm", True),
        ("p", "Shares", True),
        ("p", "139 shares", True),  # a share count (wcxb-dev 4083, 4673)
        ("p", "Add the flour on top", False),
        ("p", "PIN FOR LATER", True),
        ("p", "Pin it for later", True),
        ("p", "Pin the tail for later games.", False),
        ("p", "Copied by hand from the parish register.", False),
        ("h2", "Share the load", False),
        ("p", "Share your thoughts on the draft below.", False),
        ("h3", "Shares and dividends", False),
    ],
)
def test_a_share_bars_label_alone_goes_wherever_it_stands(
    kind: str, text: str, label: bool
) -> None:
    # readability-even theverge: an h2 "Share this story" above the lead photo.
    blocks = _text_blocks(("p", "The story's first paragraph."), (kind, text), ("p", "Its second."))
    kept = drop_lone_labels(blocks, SHARE)
    assert kept == ((blocks[0], blocks[2]) if label else blocks)


CONTROLS = furniture_pattern(CONTROL_LABELS)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("READ MORE ↓", True),
        ("Learn more", True),
        ("Show more", True),
        ("< back to top", True),
        ("Previous article", True),
        ("Keep Reading", True),
        ("View all", True),
        ("toggle caption", True),
        ("Loading paragraph...", True),
        ("Loading…", True),
        ("Like Loading…", True),
        ("Loading the boat took all morning.", False),
        ("Close", True),
        ("Accept", True),
        ("Reject all", True),
        ("Got it", True),
        ("Search this site", True),
        ("(Visited 1,902 times, 364 visits today)", True),
        ("Visited twice by the inspector", False),
        ("Viewed 434k times", True),  # a Q&A site's view counter (wcxb-dev 4310)
        ("Viewed 1,204 times", True),
        ("Viewed from the bridge", False),
        ("Play video", True),  # a video's play button, its player gone (wcxb-dev 4302)
        ("play", True),
        ("Watch video", True),
        ("Play the long game", False),
        ("Expand description", True),  # rustdoc's toggle (wcxb-dev 2861)
        ("1 / of 5", True),  # a slide show's counter (2990)
        ("1 of 40", True),
        ("1 of the best", False),
        ("Loaded 24 results", True),  # a shop listing's controls (wcxb-dev 2951, 3000)
        ("(37 products)", True),
        ("Sort: Best Match", True),
        ("Sort by:", True),
        ("Sort", False),  # a section of documentation, as "View"
        ("View", False),
        ("Accept the offer before Friday.", False),
        ("Decline", False),
        ("Profile Follow Unfollow", True),
        ("Follow", True),
        ("Follow the river to the sea.", False),
        ("Close to the shore.", False),
        ("Read more about the harbour's history in the council's archive.", False),
        ("Learn more languages", False),
        ("Followed", True),  # a follow button's state (wcxb-dev 0264, 0382)
        ("1 Like", True),  # a post's like button and its count (0503, 1976)
        ("12 likes", True),
        ("Likes and dislikes of a picky eater", False),
        ("Top", True),  # a way back to the top (0540 under each post)
        ("Back to top ↑", True),
        ("Top of the morning to you", False),
    ],
)
def test_a_controls_label_without_its_control_goes(text: str, label: bool) -> None:
    # wcxb-dev: 123 such lines in the views of 1,497 pages ("READ MORE ↓" opens a
    # section the view shows whole; "Learn More" was a button).
    blocks = _text_blocks(("p", "The story's first paragraph."), ("p", text), ("p", "Its second."))
    kept = drop_lone_labels(blocks, CONTROLS, linkless=True)
    assert kept == ((blocks[0], blocks[2]) if label else blocks)


DISCLOSURES = re.compile(DISCLOSURE_WORDS)


@pytest.mark.parametrize(
    ("text", "disclosure"),
    [
        ("This post may contain affiliate links. Read my full disclosure.", True),
        ("We may earn commission from links on this page.", True),
        ("If you click on links we provide, we may receive compensation.", True),
        ("We are a reader-supported website.", True),
        ("As an Amazon Associate I earn from qualifying purchases.", True),
        ("This site uses cookies to deliver its services.", True),
        ("We independently test everything. Buying through links on our site supports us.", True),
        ("Cookies are baked at 180 degrees for twelve minutes.", False),
        ("No affiliate links. No paid promotion.", False),
        ("Travel agents get a commission when you buy insurance.", False),
    ],
)
def test_an_affiliate_disclosure_at_the_head_goes(text: str, disclosure: bool) -> None:
    prose = "The best trail shoes grip on wet rock and drain fast after a river crossing. " * 2
    blocks = _text_blocks(("p", text), ("p", prose))
    assert drop_disclosures(blocks, DISCLOSURES) == (blocks[1:] if disclosure else blocks)


def test_an_affiliate_disclosure_goes_at_the_edges_only() -> None:
    # Further in, the words may be the article's own: a guide to affiliate marketing.
    note = _text_blocks(("p", "This post contains affiliate links."))
    prose = _text_blocks(*(("p", f"Paragraph {n} of the guide, on its own.") for n in range(12)))
    middle = (*prose[:11], *note, *prose[11:])
    assert drop_disclosures(middle, DISCLOSURES, lead=10, foot=1) == middle
    assert drop_disclosures((*prose, *note), DISCLOSURES) == prose
    long = _text_blocks(("p", "This post contains affiliate links. " + "More words. " * 40))
    assert drop_disclosures(long, DISCLOSURES) == long


ACTIONS = furniture_pattern(ACTION_LABELS)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Reply with quote", True),
        ("36 146 Reply", True),
        ("Register a new account", True),
        ("Subscribe", True),
        ("Add to Collection", True),
        ("New Collection", True),
        ("Is this page useful?Edit this page", True),
        ("Edit this page on GitHub", True),
        ("Subscribe to the idea that less is more.", False),
        ("Already have an account? Sign in here.", True),
        ("Sign In Now", True),
        ("Sign in to the library's catalogue with your card number", False),
        ("Reply to this topic", True),
        ("Ask question", True),
        ("Sign up or log in", True),
        ("You must log in to answer this question.", True),
        ("You must be logged in to post a comment.", True),
        ("Start asking to get answers", True),
        ("Reply from the council", False),
        ("Ask questions in meetings.", False),
        ("Open in Desktop App", True),  # a shop's app prompt (wcxb-dev 3043, 3071)
        ("Edit links", True),  # a wiki's language links' edit link (2904)
        ("Open in a new window", False),
    ],
)
def test_an_actions_label_goes_link_or_not(text: str, label: bool) -> None:
    # wcxb-dev 0540: "Reply with quote" under every post, a list of one link.
    link = f'<ul><li><a href="/reply?p=1">{text}</a></li></ul>'
    blocks = (*_text_blocks(("p", "A post of the thread.")), Block("ul", link, text))
    kept = drop_lone_labels(blocks, ACTIONS)
    assert kept == (blocks[:1] if label else blocks)


def test_a_bar_of_labels_reads_as_one_label() -> None:
    # wcxb-dev 4544: "Sign in Create an Account", two buttons read as one line.
    bar = label_bar_pattern(ACTION_LABELS)
    blocks = _text_blocks(
        ("p", "Sign in Create an Account"), ("p", "Subscribe Subscribe"), ("p", "Sign in to Mars"),
    )  # fmt: skip
    assert drop_lone_labels(blocks, bar) == blocks[2:]
    assert drop_lone_labels(blocks, ACTIONS) == blocks  # one label a line


def test_label_steps_sharing_their_keys_decide_as_each_alone() -> None:
    blocks = _text_blocks(("p", "Share"), ("p", "Reply with quote"), ("p", "Advertisement"))
    keys = LabelKeys()
    patterns = (SHARE, ACTIONS, furniture_pattern(AD_LABELS))
    shared = [drop_lone_labels(blocks, pattern, keys=keys) for pattern in patterns]
    assert shared == [drop_lone_labels(blocks, pattern) for pattern in patterns]
    assert keys.of(blocks[1]) == "reply with quote"


def test_a_list_of_more_than_one_item_is_no_label() -> None:
    two = Block("ul", "<ul><li>Reply</li><li>Quote</li></ul>", "Reply\nQuote")
    one = Block("ul", "<ul><li>Reply</li></ul>", "Reply")
    assert drop_lone_labels((two, one), ACTIONS) == (two,)


@pytest.mark.parametrize(
    "text", ["Sponsored", "SPONSORED BY", "Sponsored content", "From our sponsor", "Promoted"]
)
def test_a_sponsored_label_alone_goes_as_an_advertisements(text: str) -> None:
    blocks = _text_blocks(("p", "The list's first entry."), ("p", text))
    assert drop_lone_labels(blocks, furniture_pattern(AD_LABELS)) == blocks[:1]


def test_a_controls_label_that_is_still_a_link_stays_when_asked() -> None:
    # A link-only block inside the content is the article's: it still leads somewhere.
    link = Block("p", '<p><a href="https://example.com/plans">Learn more</a></p>', "Learn more")
    blocks = (*_text_blocks(("p", "The plans, in short.")), link)
    assert drop_lone_labels(blocks, CONTROLS, linkless=True) == blocks
    assert drop_lone_labels(blocks, CONTROLS) == blocks[:1]


@pytest.mark.parametrize(
    ("text", "label"),
    [("Tags", True), ("Categories", True), ("Category", True), ("Categories of tipping", False)],
)
def test_a_tag_lists_label_alone_goes_as_a_paragraph_not_as_a_heading(
    text: str, label: bool
) -> None:
    # Steam's "Tags" over its screenshots, its tags (links all) left out (wcxb-dev 3043);
    # as a heading, the words title a section of git's or Docker's documentation.
    blocks = _text_blocks(("p", "The story's first paragraph."), ("p", text), ("h2", text))
    kept = drop_lone_labels(blocks, TAXONOMY, linkless=True, headings=False)
    assert kept == ((blocks[0], blocks[2]) if label else blocks)


TAXONOMY = label_bar_pattern(TAXONOMY_LABELS)


def test_a_controls_label_linked_within_the_page_goes_as_one_without_a_link() -> None:
    # wcxb-dev 0540: phpBB's "Top" under each of 30 posts, a link to "#wrap", which is
    # the page's wrapper and no part of the view; a toggle's "#" leads nowhere either.
    top = Block("p", '<p><a href="#wrap">Top</a></p>', "Top")
    toggle = Block("p", '<p><a href="#" rel="noopener">Show more</a></p>', "Show more")
    away = Block("p", '<p><a href="#wrap">Top</a> <a href="/top">Top</a></p>', "Top Top")
    blocks = (*_text_blocks(("p", "A post of the thread.")), top, toggle, away)
    assert drop_lone_labels(blocks, label_bar_pattern(CONTROL_LABELS), linkless=True) == (
        blocks[0],
        away,
    )


ADS = furniture_pattern(AD_LABELS)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Advertisement", True),
        ("ADVERTISEMENT", True),
        ("Anzeige", True),
        ("Publicité", True),
        ("Story continues below advertisement", True),
        ("Advertisement: the new rules for billboards", False),
        ("Ads that follow you around the web are on their way out.", False),
    ],
)
def test_an_advertisements_label_alone_goes_wherever_it_stands(text: str, label: bool) -> None:
    # readability-even nytimes-3: a paragraph "Advertisement" between paragraphs and
    # closing the story; heise: "Anzeige".
    blocks = _text_blocks(("p", "The story's first paragraph."), ("p", text), ("p", "Its second."))
    kept = drop_lone_labels(blocks, ADS)
    assert kept == ((blocks[0], blocks[2]) if label else blocks)


def test_the_short_headings_an_article_ends_with_go() -> None:
    # readability-even breitbart: "Read More Stories About:" closes the story, its tag
    # links gone; a long heading is a paragraph set as one (wcxb-dev 0344).
    sources = "Sources: " + "a guide to the basics of the phone and its gestures, " * 4
    blocks = _text_blocks(
        ("p", "The story."), ("h2", sources), ("h3", "Read More Stories About:"), ("h4", "Tags")
    )
    assert drop_closing_headings(blocks) == blocks[:2]
    assert drop_closing_headings(blocks[:1]) == blocks[:1]
    headings = _text_blocks(("h2", "Only a heading"), ("h3", "And another"))
    assert drop_closing_headings(headings) == headings  # all it has


@given(st.lists(st.sampled_from(["p", "h2", "h3", "ul"]), max_size=8))
@settings(max_examples=100, deadline=None)
def test_closing_headings_leave_the_rest_in_order(kinds: list[str]) -> None:
    blocks = _text_blocks(*((kind, f"Block {n} of the story.") for n, kind in enumerate(kinds)))
    kept = drop_closing_headings(blocks)
    assert tuple(kept) == tuple(blocks[: len(kept)])
    if kept and len(kept) < len(blocks):
        assert kept[-1].kind not in ("h2", "h3")
        assert all(block.kind in ("h2", "h3") for block in blocks[len(kept) :])


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Follow AP on Facebook, X, Instagram, YouTube and TikTok", True),
        ("Follow us on LinkedIn", True),
        ("Follow the river on foot to the old mill", False),
        ("Follow us on Facebook for the results of the vote on the new bridge", False),
    ],
)
def test_a_prompt_to_follow_the_site_on_networks_goes(text: str, label: bool) -> None:
    # wcxb-dev 0270: the magazine's prompt closed the article, its links the networks.
    blocks = (*_text_blocks(("p", "The story."), ("p", text)),)
    kept = drop_lone_labels(blocks, label_bar_pattern(FOLLOW_LABELS), max_chars=120)
    assert kept == (blocks[:1] if label else blocks)


def test_a_label_longer_than_max_chars_stays() -> None:
    # wcxb-dev 0400: a guest's notice is a sentence, longer than any button's label.
    notice = "You need to login or register to view and manage your bookmarks."
    blocks = _text_blocks(("p", notice))
    assert drop_lone_labels(blocks, label_bar_pattern(ACTION_LABELS)) == blocks
    assert drop_lone_labels(blocks, label_bar_pattern(ACTION_LABELS), max_chars=120) == ()


_GRID = furniture_pattern(f"{FURNITURE_HEADINGS}|{TEASER_GRID_HEADINGS}")


def _teaser_figure(href: str | None) -> Block:
    image = '<img src="https://example.com/a.jpg" alt="A teaser">'
    inner = f'<a href="{href}">{image}</a>' if href else image
    return Block("figure", f"<figure>{inner}</figure>", "")


def test_a_teaser_grid_goes_with_its_heading() -> None:
    # wcxb-dev 4096: "Recommended" and "Latest" over bare images, their titles gone.
    story = _text_blocks(("p", "The article's paragraph, long enough to carry the page."))
    latest = _text_blocks(("p", "Latest"))
    dated = _text_blocks(("p", "August 10, 2021"))
    blocks = (*story, *latest, _teaser_figure(None), *dated, _teaser_figure(None))
    assert drop_teaser_grids(blocks, headings=_GRID) == story


def test_more_names_teasers_only_over_images_that_link_to_pages() -> None:
    # wcxb-dev 0174's "More Proof Points" links each image to a post; a gallery's
    # "More photos" is the article's own, its images linking nowhere or to the file.
    story = _text_blocks(("p", "The article's paragraph, long enough to carry the page."))
    more = _text_blocks(("h2", "More photos"))
    posts = (_teaser_figure("https://example.com/post-1/"), _teaser_figure("/post-2/"))
    linked = (*story, *more, *posts)
    assert drop_teaser_grids(linked, headings=_GRID) == story
    gallery = (*story, *more, _teaser_figure(None), _teaser_figure("https://example.com/big.jpg"))
    assert drop_teaser_grids(gallery, headings=_GRID) == gallery


def test_a_run_of_figures_that_text_follows_stays() -> None:
    # The run must end at a heading, a label or the end: prose after it is the article's.
    grid = (*_text_blocks(("h2", "Related posts")), _teaser_figure(None), _teaser_figure(None))
    prose = _text_blocks(("p", "The article goes on here, with a sentence that ends."))
    assert drop_teaser_grids((*grid, *prose), headings=_GRID) == (*grid, *prose)
    assert drop_teaser_grids(grid[:2], headings=_GRID) == grid[:2]  # one figure


def test_a_thread_keeps_a_repeat_posters_name_not_the_titles_under_it() -> None:
    # wcxb-dev 0516: the poster's second post lost "FactChecker" with the titles.
    link = '<a href="https://f.example/members/fc.5/">FactChecker</a>'
    name = Block("p", f"<p>{link}</p>", "FactChecker")
    titles = _text_blocks(("p", "Science Advisor"), ("p", "Homework Helper"))
    first = _text_blocks(("p", "The first post's own words, long enough to stand alone."))
    second = _text_blocks(("p", "The second post's own words, different from the first's."))
    rule = Block("hr", "<hr>", "")
    blocks = (name, *titles, *first, rule, name, *titles, *second)
    kept = drop_repeated_blocks(blocks, min_chars=20, thread=True)
    assert kept == (name, *titles, *first, rule, name, *second)
    assert drop_repeated_blocks(blocks, min_chars=20) == (name, *titles, *first, rule, *second)
