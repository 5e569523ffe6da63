"""TitleFinder: similarity measures, sentences, tokens and the headline choice (thesis §5.3)."""

import math
from dataclasses import replace

import lxml.html
import pytest
from lxml.html import HtmlElement

from addon.core.paper.titlefinder import (
    Headline,
    _best_element,
    _headline_elements,
    _links_home,
    _marked_elements,
    _queries,
    aggregate,
    cut_pipe_tail,
    element_text,
    find_headline,
    heading_labels,
    inverse_document_frequencies,
    opens_with_separator,
    osm,
    site_part,
    split_sentences,
    split_title,
    stated_part,
    terms,
    text_fragments,
    tf_cosine,
    tfidf_cosine,
    tokenize,
    trim_to_stated,
    without_invisible,
    without_site_name,
)
from addon.core.params import TitleMethod, TitleParams

METHODS: tuple[TitleMethod, ...] = ("tf", "tfidf", "osm", "aggregate")
IMPROVED = TitleParams(prefer_headings=True)

SITE = "A Very Long Site Name With Many Words"
SECTIONS = [
    *("World", "Business", "Markets", "Technology", "Science", "Health", "Opinion"),
    *("Sport", "Culture", "Travel", "Food", "Style", "Books", "Music", "Film"),
    *("Television", "Podcasts", "Puzzles", "Weather", "Obituaries"),
]
RARE_EARTH = (
    "<html><head><title>Rare Earth Exports Slump | " + SITE + "</title></head><body>"
    "<nav><a href='/'>"
    + SITE
    + "</a> "
    + " ".join(f"<a href='/{word.lower()}'>{word}</a>" for word in SECTIONS)
    + "</nav><article><h1>Rare Earth Exports Slump</h1>"
    "<p>Shipments of rare earth metals fell for a third month as buyers waited for new quotas.</p>"
    "<h2>Why exports fell</h2>"
    "<p>Traders blamed weaker demand from magnet makers and a stronger currency.</p>"
    "<h2>What comes next</h2>"
    "<p>Analysts expect exports to recover once new licences are issued.</p>"
    "</article></body></html>"
)


def _page(html: str) -> HtmlElement:
    return lxml.html.document_fromstring(html)


def _title(root: HtmlElement) -> str:
    title = root.find(".//title")
    assert title is not None
    return str(title.text_content())


# --- the page: every measure, both procedures, picks the h1 ---------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("prefer_headings", [False, True])
def test_rare_earth_page_headline_is_the_h1(method: TitleMethod, prefer_headings: bool) -> None:
    root = _page(RARE_EARTH)
    params = TitleParams(method=method, prefer_headings=prefer_headings)
    headline = find_headline(root, _title(root), params)
    assert headline is not None
    assert headline.text == "Rare Earth Exports Slump"
    assert headline.element is not None and headline.element.tag == "h1"
    assert headline.score > 0


def test_rare_earth_paper_tf_scores_by_hand() -> None:
    root = _page(RARE_EARTH)
    headline = find_headline(root, _title(root), TitleParams(method="tf"))
    assert headline is not None
    # Query: 12 distinct words; the h1 shares 4 of its 4: 4 / sqrt(12 * 4).
    assert headline.score == pytest.approx(4 / math.sqrt(48))
    # The nav shares the 8 site-name words among its 8 + 20 words: 8 / sqrt(12 * 28).
    nav = terms(tokenize(SITE + " " + " ".join(SECTIONS)))
    nav_score = tf_cosine(terms(tokenize(_title(root))), nav)
    assert nav_score == pytest.approx(8 / math.sqrt(12 * 28))
    assert nav_score < headline.score


# --- tokenisation ----------------------------------------------------------------------


def test_tokenize_drops_quotes_commas_colons_and_lowercases() -> None:
    text = 'Rare-Earth "Exports", Slump: Don\'t ‘panic’ U.S.'
    assert tokenize(text) == ["rare", "earth", "exports", "slump", "dont", "panic", "u", "s"]


def test_tokenize_keeps_non_latin_words() -> None:
    assert tokenize("Привет, мир: 東京") == ["привет", "мир", "東京"]
    assert tokenize(" ,:'\" ") == []


# --- similarity measures, hand-computed ---------------------------------------------------


def test_tf_cosine_by_hand() -> None:
    assert tf_cosine(terms(["a", "b"]), terms(["a", "c"])) == pytest.approx(0.5)  # 1 / (√2 √2)
    # 4 / (√5 √5)
    assert tf_cosine(terms(["a", "a", "b"]), terms(["a", "b", "b"])) == pytest.approx(0.8)
    assert tf_cosine(terms(["a"]), terms(["a"])) == pytest.approx(1.0)
    assert tf_cosine(terms(["a"]), terms(["b"])) == 0.0
    assert tf_cosine(terms([]), terms(["a"])) == 0.0


def test_smoothed_idf_by_hand() -> None:
    idf = inverse_document_frequencies([["a", "b"], ["a"], ["c"]])
    # N = 3: idf = ln((1 + N) / (1 + df)) + 1.
    assert idf["a"] == pytest.approx(math.log(4 / 3) + 1)  # 1.2877
    assert idf["b"] == pytest.approx(math.log(4 / 2) + 1)  # 1.6931
    assert idf["c"] == pytest.approx(math.log(4 / 2) + 1)
    assert set(idf) == {"a", "b", "c"}


def test_tfidf_cosine_by_hand() -> None:
    idf = inverse_document_frequencies([["a", "b"], ["a"], ["c"]])
    ia, ib = math.log(4 / 3) + 1, math.log(2) + 1
    # q = (a: ia, b: ib), s = (a: ia): cos = ia² / (|q| ia) = ia / |q|.
    expected = ia / math.hypot(ia, ib)
    assert expected == pytest.approx(0.60535, abs=1e-5)
    assert tfidf_cosine(terms(["a", "b"], idf, 3), terms(["a"], idf, 3)) == pytest.approx(expected)
    # A query word on no candidate weighs ln(4 / 1) + 1, and only lengthens the query.
    unseen = math.log(4) + 1
    score = tfidf_cosine(terms(["a", "z"], idf, 3), terms(["a"], idf, 3))
    assert score == pytest.approx(ia / math.hypot(ia, unseen))


def test_osm_by_hand() -> None:
    idf = inverse_document_frequencies([["a", "b"], ["a"], ["c"]])
    ia = math.log(4 / 3) + 1
    # Query weights tf-idf, candidate unit tf: (ia * 2 + ib * 0) / |(2, 1)|.
    score = osm(terms(["a", "b"], idf, 3), terms(["a", "a", "c"], idf, 3))
    assert score == pytest.approx(2 * ia / math.sqrt(5))
    assert score == pytest.approx(1.15174, abs=1e-5)
    assert osm(terms(["a"], idf, 3), terms([], idf, 3)) == 0.0


def test_aggregate_is_the_sum_of_the_three() -> None:
    idf = inverse_document_frequencies([["a", "b"], ["a"], ["c"]])
    query, candidate = ["a", "b"], ["a", "a", "c"]
    ia, ib, ic = math.log(4 / 3) + 1, math.log(2) + 1, math.log(2) + 1
    tf = 2 / (math.sqrt(2) * math.sqrt(5))
    tfidf = (2 * ia * ia) / (math.hypot(ia, ib) * math.hypot(2 * ia, ic))
    overlap = 2 * ia / math.sqrt(5)
    score = aggregate(terms(query, idf, 3), terms(candidate, idf, 3))
    assert score == pytest.approx(tf + tfidf + overlap)


# --- sentences -----------------------------------------------------------------------------


def test_paper_sentence_split_cuts_at_every_full_stop_and_question_mark() -> None:
    text = "Jobs return to the U.S. as plants reopen? Yes! Wages rise."
    assert split_sentences(text) == [
        "Jobs return to the U.S.",
        "as plants reopen?",
        "Yes!",
        "Wages rise.",
    ]


def test_improved_sentence_split_keeps_abbreviations_whole() -> None:
    text = "Jobs return to the U.S. as plants reopen. Dr. Smith and J. Doe agree (No. 5 vs. No. 6)."
    assert split_sentences(text, keep_abbreviations=True) == [
        "Jobs return to the U.S. as plants reopen.",
        "Dr. Smith and J. Doe agree (No. 5 vs. No. 6).",
    ]


def test_sentence_split_edge_cases() -> None:
    assert split_sentences("") == []
    assert split_sentences("No full stop") == ["No full stop"]
    assert split_sentences('He said "stop." Then left.') == ['He said "stop."', "Then left."]
    long_word = "x" * 100 + ". next"
    assert split_sentences(long_word, keep_abbreviations=True) == ["x" * 100 + ".", "next"]


def test_abbreviation_split_is_linear_on_hostile_text() -> None:
    text = "A. " * 200_000
    assert split_sentences(text, keep_abbreviations=True) == [text.strip()]


# --- fragments, element text, title parts ------------------------------------------------


def test_text_fragments_give_each_block_its_own_inline_text() -> None:
    root = _page("<body>lead<div>Intro <b>bold</b><p>Para <i>x</i></p> tail</div><br>end</body>")
    fragments = [(element.tag, text) for element, text in text_fragments(root)]
    assert fragments == [("body", "lead end"), ("div", "Intro bold tail"), ("p", "Para x")]


def test_element_text_spaces_breaks_and_drops_permalinks() -> None:
    heading = lxml.html.fragment_fromstring(
        "<h2>Quick<b>start</b><a class='headerlink' href='#quickstart'>¶</a></h2>"
    )
    assert element_text(heading) == "Quickstart"
    broken = lxml.html.fragment_fromstring("<h1>Weekend<br>coding <div>agent</div>now</h1>")
    assert element_text(broken) == "Weekend coding agent now"
    csharp = lxml.html.fragment_fromstring("<h1>Learn <a href='/c'>C#</a></h1>")
    assert element_text(csharp) == "Learn C#"
    assert element_text(broken, max_nodes=2) is None


def test_element_text_parts_a_subtitle_only_a_style_sheet_sets_apart() -> None:
    # wcxb-dev 0589: "Black Edition<span class=tagline>Complete ...</span>" read
    # "Black EditionComplete" in the reader page's h1.
    glued = lxml.html.fragment_fromstring(
        "<h1>Black Edition<span class='tagline'>Complete protein meal</span></h1>"
    )
    assert element_text(glued) == "Black Edition Complete protein meal"
    tail = lxml.html.fragment_fromstring("<h1><span>The Best Tools</span>Top Picks</h1>")
    assert element_text(tail) == "The Best Tools Top Picks"
    # One word across elements stays one: a small letter then a small letter, a drop cap.
    one_word = [("<h1>Quick<b>start</b></h1>", "Quickstart"), ("<h1><b>T</b>He</h1>", "THe")]
    for html, text in one_word:
        assert element_text(lxml.html.fragment_fromstring(html)) == text


def test_split_title_keeps_the_longest_part_as_core() -> None:
    parts = split_title("Rare Earth Exports Slump | " + SITE)
    assert parts.whole == "Rare Earth Exports Slump | " + SITE
    assert parts.core == SITE
    assert parts.others == ("Rare Earth Exports Slump",)
    assert split_title("Buy MacBook Air - Apple").core == "Buy MacBook Air"
    assert split_title("Docs :: Install  —  Guide").others == ("Docs", "Guide")
    assert split_title("Rust-lang: the book").core == "Rust-lang: the book"
    assert split_title("  ").core == ""


# --- the improved procedure ----------------------------------------------------------------


def _improved(
    html: str,
    params: TitleParams = IMPROVED,
    *,
    og_title: str | None = None,
    ld_headline: str | None = None,
) -> Headline | None:
    root = _page(html)
    title = root.find(".//title")
    page_title = title.text_content() if title is not None else ""
    return find_headline(root, page_title, params, og_title=og_title, ld_headline=ld_headline)


def test_logo_linking_home_loses_to_the_headline() -> None:
    html = (
        "<title>Foo Bar Baz Qux | Site Name</title>"
        "<h1><a href='https://example.org/'>Site Name</a></h1><h2>Foo Bar Baz Qux</h2><p>Body.</p>"
    )
    headline = _improved(html)
    assert headline is not None and headline.text == "Foo Bar Baz Qux"
    assert headline.element is not None and headline.element.tag == "h2"
    no_penalty = _improved(html, replace(IMPROVED, home_link_penalty=0.0))
    assert no_penalty is not None and no_penalty.text == "Site Name"


def test_a_heading_og_title_and_the_json_ld_headline_both_name_is_the_headline() -> None:
    # Issue 28: readability-even tumblr, whose h1 "Minecraft News" (the blog's name)
    # won by the h1 bonus over the post's h3, the headline og:title and the JSON-LD
    # headline both give word for word.
    post = "Minecraft 1.8 - The Bountiful Update"
    html = (
        f"<title>{post} - {post} - Minecraft Update News</title>"
        f"<h1>Minecraft News</h1><h3>{post}</h3><p>The update is out today.</p>"
    )
    stated = replace(IMPROVED, stated_heading=True)
    headline = _improved(html, stated, og_title=post, ld_headline=post)
    assert headline is not None and headline.text == post
    assert headline.element is not None and headline.element.tag == "h3"
    assert headline.method == "stated-heading"
    # Off, or with one statement alone or the two apart, the scores decide.
    for params, og, ld in [
        (IMPROVED, post, post),
        (stated, post, None),
        (stated, post, "Minecraft News"),
    ]:
        found = _improved(html, params, og_title=og, ld_headline=ld)
        assert found is not None and found.text == "Minecraft News"
    # A heading in the page's navigation is no headline, whatever it says.
    in_nav = html.replace(f"<h3>{post}</h3>", f"<nav><h3>{post}</h3></nav>")
    found = _improved(in_nav, stated, og_title=post, ld_headline=post)
    assert found is not None and found.text == "Minecraft News"


def test_logo_linking_up_to_the_index_loses_to_the_headline() -> None:
    # A documentation set's name links to its root by a relative path from every page.
    html = (
        "<title>Quick Start — Widget Toolkit Reference Manual</title>"
        "<h1><a href='../index.html'>Widget Toolkit Reference Manual</a></h1>"
        "<h1>Quick Start<a class='headerlink' href='#quick-start'>¶</a></h1><p>Body.</p>"
    )
    headline = _improved(html)
    assert headline is not None and headline.text == "Quick Start"
    for href in ("../", "../../index.html", "../index.php"):
        logo = _page(f"<h1><a href='{href}'>Manual</a></h1>").find(".//h1")
        assert logo is not None and _links_home(logo)
    for href in ("../guide.html", "..", "../index.html#top"):
        other = _page(f"<h1><a href='{href}'>Manual</a></h1>").find(".//h1")
        assert other is not None and not _links_home(other)


def test_verbatim_title_copy_loses_to_the_shorter_heading() -> None:
    html = (
        "<title>Foo Bar Baz | Site</title>"
        "<h2>Foo Bar Baz | Site</h2><h2>Foo Bar Baz</h2><p>Body.</p>"
    )
    headline = _improved(html)
    assert headline is not None and headline.text == "Foo Bar Baz"
    no_penalty = _improved(html, replace(IMPROVED, whole_title_penalty=0.0))
    assert no_penalty is not None and no_penalty.text == "Foo Bar Baz | Site"


def test_site_part_is_the_last_part_unless_it_is_the_longest() -> None:
    assert site_part(split_title("Defining Shared Behavior - The Book")) == "The Book"
    assert site_part(split_title("Docs | A Much Longer Site Name Here")) is None
    assert site_part(split_title("Site | Headline | Rust")) == "Rust"
    assert site_part(split_title("No separator here")) is None
    assert site_part(split_title("")) is None


def test_heading_naming_the_site_loses_to_the_headline() -> None:
    html = (
        "<title>Defining Shared Behavior - The Book Of Rust</title>"
        "<h1 class='menu-title'>The Book Of Rust</h1><h2>Defining Shared Behavior</h2><p>Body.</p>"
    )
    headline = _improved(html, replace(IMPROVED, site_part_penalty=0.4))
    assert headline is not None and headline.text == "Defining Shared Behavior"
    assert headline.element is not None and headline.element.tag == "h2"
    no_penalty = _improved(html)
    assert no_penalty is not None and no_penalty.text == "The Book Of Rust"


def test_heading_in_navigation_is_penalised() -> None:
    html = (
        "<title>Garden Tools</title><body><nav><h3 class='menu-title'>Garden Tools</h3></nav>"
        "<div class='page-title'>Garden Tools</div>"
    )
    headline = _improved(html)
    assert headline is not None and headline.element is not None
    assert headline.element.tag == "div"
    assert headline.score == pytest.approx(1.0 + IMPROVED.marked_bonus)
    no_penalty = _improved(html, replace(IMPROVED, chrome_penalty=0.0))
    assert no_penalty is not None and no_penalty.element is not None
    assert no_penalty.element.tag == "h3"


def test_first_sentence_of_a_headline_with_strapline() -> None:
    html = (
        "<title>Jobs Return to the U.S. as Plants Reopen | Daily</title>"
        "<h1>Jobs Return to the U.S. as Plants Reopen. Wages rise in three states</h1>"
    )
    headline = _improved(html)
    assert headline is not None
    assert headline.text == "Jobs Return to the U.S. as Plants Reopen"
    assert headline.element is not None and headline.element.tag == "h1"


def test_no_matching_element_falls_back_to_the_title_part() -> None:
    html = "<title>Stripe Payments | Global Payment Processing Platform</title><h1>Grow faster</h1>"
    headline = _improved(html)
    assert headline == Headline("Global Payment Processing Platform", None, 0.0, "title-part")


def test_og_title_guides_the_choice() -> None:
    html = "<title>Shop | Brand</title><h1>Spring sale</h1><h2>Local Trails</h2>"
    headline = _improved(html, og_title="Local Trails")
    assert headline is not None and headline.text == "Local Trails"
    assert headline.method == "headings-tf"


def test_no_title_at_all_takes_the_first_h1() -> None:
    html = "<h2>Section</h2><h1>The Headline</h1><h1>Another</h1>"
    headline = _improved(html)
    assert headline is not None and headline.text == "The Headline"
    assert headline.method == "first-heading"
    assert _improved("<p>Just text.</p>") is None


def test_ld_headline_stands_in_for_a_missing_title() -> None:
    html = "<h1>Menu</h1><p>Text</p>"
    headline = _improved(html, ld_headline="Quiet Storm Hits Coast")
    assert headline == Headline("Quiet Storm Hits Coast", None, 0.0, "title-part")


def test_paper_procedure_without_title_finds_nothing() -> None:
    assert find_headline(_page("<h1>Headline</h1>"), "", TitleParams()) is None
    assert find_headline(_page("<p>x</p>"), "Unrelated words", TitleParams()) is None


def test_candidates_are_capped() -> None:
    headings = "".join(f"<h2>Item {i}</h2>" for i in range(50))
    html = "<title>Target Story</title>" + headings + "<h2>Target Story</h2>"
    capped = _improved(html, replace(IMPROVED, max_candidates=50))
    assert capped == Headline("Target Story", None, 0.0, "title-part")
    found = _improved(html)
    assert found is not None and found.element is not None


def test_huge_title_container_is_not_a_candidate() -> None:
    body = "<div class='title-wrapper'>" + "<span>word</span>" * 500 + "</div>"
    headline = _improved("<title>Word</title>" + body + "<h1>Word</h1>")
    assert headline is not None and headline.element is not None
    assert headline.element.tag == "h1"


def test_split_title_caps_the_parts() -> None:
    parts = split_title(" | ".join(f"part{i}" for i in range(20)))
    assert len(parts.others) + 1 == 8
    assert parts.core == " | ".join(f"part{i}" for i in range(7, 20))


@pytest.mark.parametrize("prefer_headings", [False, True])
def test_megabyte_title_is_clipped_and_still_matches(prefer_headings: bool) -> None:
    root = _page("<body><h1>Target Story</h1><p>Some text about it.</p></body>")
    title = "Target Story | " + "filler " * 200_000
    params = TitleParams(prefer_headings=prefer_headings)
    headline = find_headline(root, title, params, og_title="x " * 500_000)
    assert headline is not None and headline.text == "Target Story"


# --- the TF shortcut: same choice as scoring every candidate -----------------------------


def _every_candidate(html: str, params: TitleParams = IMPROVED) -> tuple[object, float]:
    """Score the full candidate list (headings, then marked elements) in one go."""
    root = _page(html)
    title = split_title(_title(root))
    queries = _queries(title, None, None, params)
    best, score = _best_element(_headline_elements(root, params), queries, title, params)
    return (best.candidate.text if best else None), score


SHORTCUT_PAGES = [
    # A strong h1: the marked elements cannot win and are not looked at.
    "<title>Flood Plan Agreed | Town News</title><h1>Flood Plan Agreed</h1>"
    + "<div class='post-title'>Flood plan agreed by the board</div>" * 3,
    # Weak headings: a marked element wins.
    "<title>Flood Plan Agreed | Town News</title><h2>Menu</h2><h3>Flood news</h3>"
    "<div class='entry-title'>Flood Plan Agreed</div>",
    # Marked by id and itemprop, in document order, with case and spacing variants.
    "<title>Quiet Storm Hits Coast</title><h4>Quiet</h4><span itemprop='headline'>Quiet Storm "
    "Hits</span><p id='Page-TITLE'>Quiet Storm Hits Coast</p><p class='x\nheadline'>Storm</p>",
    # A tie: the first of the equal scores stays.
    "<title>Same Words</title><div class='title'>Same Words</div><div id='title'>Same Words</div>",
    # Penalties and bonuses on both sides.
    "<title>Garden Tools | Shop</title><nav><h1><a href='/'>Garden Tools</a></h1></nav>"
    "<div class='page-title'>Garden Tools</div><h2>Garden Tools | Shop</h2>",
]


@pytest.mark.parametrize("html", SHORTCUT_PAGES)
@pytest.mark.parametrize("max_candidates", [1, 2, 3, 2000])
def test_tf_shortcut_picks_what_scoring_every_candidate_picks(
    html: str, max_candidates: int
) -> None:
    params = replace(IMPROVED, max_candidates=max_candidates)
    headline = _improved(html, params)
    text, score = _every_candidate(html, params)
    assert headline is not None
    if headline.method == "title-part":
        assert headline.score == score
    else:
        assert (headline.text, headline.score) == (text, score)


def test_marked_elements_in_document_order_with_any_case() -> None:
    root = _page(
        "<body class='x'><div id='A'><p class='SubHeading'>1</p><i itemprop='HEADLINE'>2</i>"
        "<b class='t&#304;tle'>3</b><u class='tıtle'>4</u><s class='tit le'>no</s>"
        "<em id='headings' class='headline'>5</em></div></body>"
    )
    body = root.find("body")
    assert body is not None
    found = [element.text for element in _marked_elements(body)]
    assert found == ["1", "2", "3", "4", "5"]


def test_element_text_edge_cases() -> None:
    permalink = lxml.html.fragment_fromstring("<a href='#here'>¶</a>")
    assert element_text(permalink) == ""
    commented = lxml.html.fragment_fromstring("<h2>Big <!-- x -->lost<b>News</b></h2>")
    assert element_text(commented) == "Big News"
    assert element_text(lxml.html.fragment_fromstring("<h1>  Spaced \n out </h1>")) == "Spaced out"
    assert element_text(lxml.html.fragment_fromstring("<h1>x</h1>"), max_nodes=0) is None


# --- a chosen heading cut to the stated title it holds -----------------------------------


def test_trim_cuts_a_site_name_tail_and_keeps_the_page_typography() -> None:
    text = "Critics’ Choice: Best Shows of 2025 – Artlyst"
    stated = ["Critics' Choice: Best Shows of 2025", "Artlyst"]
    assert trim_to_stated(text, stated, min_share=0.5) == "Critics’ Choice: Best Shows of 2025"
    cut = trim_to_stated("Storm Hits Coast (example.com)", ["storm hits coast"], min_share=0.5)
    assert cut == "Storm Hits Coast"


def test_trim_keeps_a_subtitle_a_further_word_and_a_short_part() -> None:
    # A subtitle after a colon or a comma and a word that follows continue the headline.
    assert trim_to_stated("Baking Bread: A Guide", ["Baking Bread"], min_share=0.5) == (
        "Baking Bread: A Guide"
    )
    assert trim_to_stated("Landscape photography", ["Landscape"], min_share=0.3) == (
        "Landscape photography"
    )
    # A stated part under the share is more likely a site name inside a longer headline.
    text = "Acme Widgets - the best widgets for home and office"
    assert trim_to_stated(text, ["Acme Widgets"], min_share=0.5) == text
    assert trim_to_stated(text, [text, ""], min_share=0.5) == text


def test_trim_drops_a_leading_label_only_when_it_is_an_element_of_its_own() -> None:
    text = "Dec 18 2025 Preparing a transition"
    stated = ["Preparing a transition"]
    assert trim_to_stated(text, stated, min_share=0.5) == text
    labels = frozenset({"Dec 18 2025"})
    assert trim_to_stated(text, stated, min_share=0.5, labels=labels) == "Preparing a transition"
    assert trim_to_stated(text, stated, min_share=0.5, labels=labels, max_label_words=2) == text


def test_trim_drops_a_trailing_element_of_its_own_but_not_a_glued_word() -> None:
    text = "Top Strategies for Speed Posted on July 1 by Ann"
    stated = ["Top Strategies for Speed"]
    assert trim_to_stated(text, stated, min_share=0.5) == text
    labels = frozenset({"Posted on July 1 by Ann", "Ann"})
    assert trim_to_stated(text, stated, min_share=0.5, labels=labels) == stated[0]
    # The label must stand apart: text glued to the title is part of a longer word.
    glued = "Top Strategies for Speedway"
    assert trim_to_stated(glued, stated, min_share=0.5, labels={"way"}) == glued


def test_heading_labels_are_the_texts_of_its_elements() -> None:
    heading = lxml.html.fragment_fromstring(
        "<h1><time>Dec <b>18</b>  2025</time> Preparing a transition</h1>"
    )
    assert heading_labels(heading) == {"Dec 18 2025", "18"}
    assert heading_labels(heading, max_nodes=0) == frozenset()


def test_chosen_heading_is_cut_to_the_title_without_its_kicker_and_source() -> None:
    html = (
        "<title>Quiet Storm Hits Coast | Daily</title><body><h1><span class='label'>News</span>"
        " Quiet Storm Hits Coast (example.com)</h1><p>Body.</p></body>"
    )
    trimming = replace(IMPROVED, trim_min_share=0.5)
    headline = _improved(html, trimming)
    assert headline is not None and headline.text == "Quiet Storm Hits Coast"
    assert headline.element is not None and headline.element.tag == "h1"
    untrimmed = _improved(html)
    assert untrimmed is not None and untrimmed.text == "News Quiet Storm Hits Coast (example.com)"


# --- invisible characters, a bar's short tail, og:title as a <title> part ----------------


def test_without_invisible_joins_a_word_split_by_a_soft_hyphen() -> None:
    assert without_invisible("Home Repair Assis\xadtance\u200b Program") == (
        "Home Repair Assistance Program"
    )
    assert without_invisible("\ufeff\u2060") == ""
    # Joiners shape Persian words and emoji: they stay.
    persian = "\u0645\u06cc\u200c\u0631\u0648\u0645"
    assert without_invisible(persian) == persian
    assert without_invisible("\U0001f469\u200d\U0001f4bb") == "\U0001f469\u200d\U0001f4bb"


def test_soft_hyphen_in_a_heading_neither_splits_its_words_nor_shows() -> None:
    html = (
        "<title>City Department: Home Repair Assistance Program</title><body>"
        "<h1>Home Repair Assis\xadtance Program</h1><p>Body.</p></body>"
    )
    headline = _improved(html, replace(IMPROVED, drop_invisible=True))
    assert headline is not None and headline.text == "Home Repair Assistance Program"
    assert headline.element is not None and headline.element.tag == "h1"
    kept = _improved(html)
    assert kept is not None and kept.text == "Home Repair Assis\xadtance Program"


def test_cut_pipe_tail_drops_a_short_label_only() -> None:
    assert cut_pipe_tail("Meditation and the brain | Opinion", max_words=2) == (
        "Meditation and the brain"
    )
    assert cut_pipe_tail("Sundara Headphones | 2020 Edition", max_words=2) == ("Sundara Headphones")
    # A longer part after the bar is a subtitle; a bar alone or at the start is kept.
    text = "Trekking Backpack 40L | Lightweight & Adventure-Ready"
    assert cut_pipe_tail(text, max_words=2) == text
    assert cut_pipe_tail("A|B", max_words=2) == "A|B"
    assert cut_pipe_tail(" | Opinion", max_words=2) == " | Opinion"
    assert cut_pipe_tail("— | x", max_words=2) == "— | x"


def test_stated_part_is_og_title_when_it_is_a_shorter_title_part() -> None:
    title = split_title("What's your range? - Forum: DIY Electric Skateboards")
    assert stated_part(title, "What's  your range?", min_words=2) == "What's your range?"
    assert stated_part(title, "What's your range?", min_words=0) is None
    assert stated_part(title, "What's your range?", min_words=5) is None
    # og:title that is the longest part, no part at all, or missing is not offered.
    assert stated_part(title, "Forum: DIY Electric Skateboards", min_words=2) is None
    assert stated_part(title, "Something else entirely", min_words=2) is None
    assert stated_part(title, None, min_words=2) is None


def test_stated_part_is_og_title_after_a_site_name_and_colon() -> None:
    title = split_title("Jane's Notebook: Notes on Growing Tomatoes")
    assert title.others == ()
    og = "Notes on Growing Tomatoes"
    assert stated_part(title, og, min_words=2) == og
    # Before the colon, the whole title, or too short: not offered.
    assert stated_part(title, "Jane's Notebook", min_words=2) is None
    assert stated_part(title, title.whole, min_words=2) is None
    assert stated_part(title, og, min_words=5) is None


def test_stated_part_is_og_title_when_the_title_opens_with_it() -> None:
    title = split_title("New to Astronomy – Best First Telescope? - Site Feedback - Astronomy")
    og = "New to Astronomy – Best First Telescope?"
    assert title.core == "Best First Telescope?"  # the longest part cuts the headline in two
    assert stated_part(title, og, min_words=2) == og
    # Not without a separator after it, nor when og:title sets off a site name itself.
    assert stated_part(split_title(og + "s and more"), og, min_words=2) is None
    piped = split_title("Down Jackets | Brand - Used Gear")
    assert stated_part(piped, "Down Jackets | Brand", min_words=2) is None


def test_without_a_matching_element_og_title_part_beats_the_site_tagline() -> None:
    html = (
        "<title>Range question - Forum for Electric Skateboard Builders</title>"
        "<meta property='og:title' content='Range question'><body><p>Posts.</p></body>"
    )
    root = lxml.html.document_fromstring(html)
    params = replace(IMPROVED, og_part_min_words=2)
    title = "Range question - Forum for Electric Skateboard Builders"
    headline = find_headline(root, title, params, og_title="Range question")
    assert headline is not None and headline.text == "Range question"
    assert headline.method == "title-part"
    plain = find_headline(root, title, IMPROVED, og_title="Range question")
    assert plain is not None and plain.text == "Forum for Electric Skateboard Builders"


def test_trim_drops_a_loose_label_before_a_title_that_is_an_element_of_its_own() -> None:
    # "<h1>Thread: <span>What do you pay for hosting?</span></h1>": the title stands
    # in an element of its own, the label before it is the heading's loose text.
    text = "Thread: What do you pay for hosting?"
    stated = ["What do you pay for hosting?"]
    assert trim_to_stated(text, stated, min_share=0.5) == text
    labels = frozenset(stated)
    assert trim_to_stated(text, stated, min_share=0.5, labels=labels) == stated[0]
    assert trim_to_stated(text, stated, min_share=0.5, labels=labels, max_label_words=0) == text


def test_pipe_tail_is_cut_before_the_heading_is_trimmed_to_og_title() -> None:
    html = (
        "<title>Classic by Maker, Clean Watches in Moon Silver | Maker</title><body><h1>"
        "<span>Classic</span> <span>Moon Silver | <span>44MM</span></span></h1></body>"
    )
    params = replace(IMPROVED, trim_min_share=0.5, pipe_tail_max_words=2)
    headline = _improved(html, params, og_title="Moon Silver")
    assert headline is not None and headline.text == "Moon Silver"


def test_without_invisible_drops_an_embedding_around_a_text_of_its_own_direction() -> None:
    assert without_invisible("\u202aGeoffrey Hinton\u202c") == "Geoffrey Hinton"
    assert without_invisible("\u2067\u05e9\u05dc\u05d5\u05dd\u2069") == "\u05e9\u05dc\u05d5\u05dd"
    # An embedding against the text's own direction, or one inside it, shapes the display.
    rtl_in_ltr = "\u202a\u05e9\u05dc\u05d5\u05dd!\u202c"
    assert without_invisible(rtl_in_ltr) == rtl_in_ltr
    inner = "Go \u202bto\u202c now"
    assert without_invisible(inner) == inner


def test_title_part_fallback_drops_the_embeddings_around_each_part() -> None:
    title = "\u202aGeoffrey Hinton\u202c - \u202aGoogle Scholar\u202c"
    html = f"<title>{title}</title><body><p>x</p></body>"
    headline = _improved(html, replace(IMPROVED, drop_invisible=True))
    assert headline is not None and headline.text == "Geoffrey Hinton"
    assert headline.method == "title-part"


BRANDED = (
    "<title>Chatter - The heart of the web</title><body><header><a href='/'>Chatter</a>"
    "</header><main><h1>Best laptop for college?</h1><p>Battery life matters most.</p>"
    "</main></body>"
)


def test_lone_h1_beats_a_title_that_names_the_site_alone() -> None:
    params = replace(IMPROVED, branded_title_max_match=0.15)
    headline = _improved(BRANDED, params)
    assert headline is not None and headline.text == "Best laptop for college?"
    # Its text only: the content is chosen as without a headline element.
    assert headline.element is None and headline.method == "lone-h1"
    off = _improved(BRANDED)
    assert off is not None and off.text == "The heart of the web"


def test_lone_h1_needs_a_title_without_metadata_absent_from_the_page() -> None:
    params = replace(IMPROVED, branded_title_max_match=0.15)
    for og, ld in (("Chatter Posts", None), (None, "Chatter Posts")):
        stated = _improved(BRANDED, params, og_title=og, ld_headline=ld)
        assert stated is not None and stated.method == "title-part"
    shown = BRANDED.replace("Battery life", "The heart of the web: battery life")
    kept = _improved(shown, params)
    assert kept is not None and kept.text == "The heart of the web"
    two = BRANDED.replace("<p>Battery", "<h1>Reviews</h1><p>Battery")
    kept = _improved(two, params)
    assert kept is not None and kept.text == "The heart of the web"
    # A one-part <title> is the page's own more often ("Base URL test" over "Lorem").
    alone = BRANDED.replace("Chatter - ", "")
    kept = _improved(alone, params)
    assert kept is not None and kept.text == "The heart of the web"


def test_title_part_fallback_takes_a_heading_that_states_one_side_of_a_colon() -> None:
    html = (
        "<title>Browse subject: Hardware -- Catalogs | Online Books</title><body>"
        "<nav><a href='/'>Online Books</a></nav><h2>Hardware -- Catalogs</h2><p>Books.</p></body>"
    )
    params = replace(IMPROVED, colon_part_heading=True)
    headline = _improved(html, params)
    assert headline is not None and headline.text == "Hardware -- Catalogs"
    assert headline.element is None and headline.method == "colon-part"
    off = _improved(html)
    assert off is not None and off.text == "Browse subject: Hardware -- Catalogs"


def test_colon_part_heading_leaves_a_title_whose_headings_show_both_sides() -> None:
    # "<h2>Open Journalism Project:</h2><h4>Better Student Journalism</h4>": one headline.
    html = (
        "<title>The Open Journalism Project: Better Student Journalism</title><body>"
        "<h2>Open Journalism Project:</h2><h4>Better Student Journalism</h4><p>x</p></body>"
    )
    headline = _improved(html, replace(IMPROVED, colon_part_heading=True))
    assert headline is not None and headline.method == "title-part"


EMPTY_SLOT = (
    "<title>| Circuit Monthly</title><body><header><a href='/'>Circuit Monthly</a></header>"
    "<main><h1>Bench Power Supplies</h1><p>Ripple matters for audio work.</p></main>"
    "<footer>Circuit Monthly</footer></body>"
)


def test_opens_with_separator_tells_an_empty_headline_place() -> None:
    assert opens_with_separator("| Circuit Monthly")
    assert opens_with_separator("  – Circuit Monthly")
    assert not opens_with_separator("Bench Power Supplies | Circuit Monthly")
    assert not opens_with_separator("|Circuit Monthly")
    assert not opens_with_separator("-20 degrees in Oslo")


def test_one_h1_beats_a_title_that_opens_with_a_separator() -> None:
    params = replace(IMPROVED, empty_slot_h1=True)
    headline = _improved(EMPTY_SLOT, params)
    assert headline is not None and headline.text == "Bench Power Supplies"
    # Its text only: the content is chosen as without a headline element.
    assert headline.element is None and headline.method == "lone-h1"
    off = _improved(EMPTY_SLOT)
    assert off is not None and off.text == "Circuit Monthly"
    two = EMPTY_SLOT.replace("<p>Ripple", "<h1>Reviews</h1><p>Ripple")
    kept = _improved(two, params)
    assert kept is not None and kept.method == "title-part"


SITE_PREFIX = (
    "<title>tinkerlog.net Desoldering Braid</title><body><div id='banner'><h1>"
    "<a href='https://tinkerlog.net/'>tinkerlog.net</a></h1></div><h3 class='title'>"
    "Desoldering Braid</h3><p>Fresh braid for every joint.</p></body>"
)


def test_without_site_name_cuts_a_name_a_heading_linking_home_shows() -> None:
    top = _page(SITE_PREFIX).find("body")
    assert top is not None
    assert without_site_name("tinkerlog.net Desoldering Braid", top) == "Desoldering Braid"
    assert without_site_name("TINKERLOG.NET  Desoldering Braid", top) == "Desoldering Braid"
    # Glued to a word, or the name alone: no name to cut.
    assert without_site_name("tinkerlog.network news", top) == "tinkerlog.network news"
    assert without_site_name("tinkerlog.net", top) == "tinkerlog.net"
    assert without_site_name("tinkerlog.net —", top) == "tinkerlog.net —"
    unlinked = _page(SITE_PREFIX.replace("https://tinkerlog.net/", "/about")).find("body")
    assert unlinked is not None
    kept = "tinkerlog.net Desoldering Braid"
    assert without_site_name(kept, unlinked) == kept


def test_title_part_fallback_drops_a_site_name_before_the_post_title() -> None:
    headline = _improved(SITE_PREFIX, replace(IMPROVED, site_name_prefix=True))
    assert headline is not None and headline.text == "Desoldering Braid"
    assert headline.element is None and headline.method == "title-part"
    off = _improved(SITE_PREFIX)
    assert off is not None and off.text == "tinkerlog.net Desoldering Braid"


TOGGLE = (
    "<title>Mortgage Calculator: What Will My Monthly Payment Be?</title><body><p>Enter the"
    " price and the rate.</p><h3><a href='#' aria-controls='answer-1' aria-expanded='false'>"
    "What will my monthly payment be?</a></h3><div id='answer-1'><p>It depends.</p></div></body>"
)


def test_an_accordion_question_is_no_headline() -> None:
    params = replace(IMPROVED, skip_toggles=True, colon_part_heading=True)
    headline = _improved(TOGGLE, params)
    assert headline is not None and headline.method == "title-part"
    assert headline.text == "Mortgage Calculator: What Will My Monthly Payment Be?"
    # Without the rule the question wins, as the heading or as the colon's side shown.
    off = _improved(TOGGLE, replace(params, skip_toggles=False))
    assert off is not None and off.text == "What will my monthly payment be?"
    plain = _improved(TOGGLE.replace(" aria-expanded='false'", ""), params)
    assert plain is not None and plain.method == "title-part"
    heading = _improved(TOGGLE.replace("aria-controls='answer-1' aria-expanded='false'", ""))
    assert heading is not None and heading.text == "What will my monthly payment be?"


# --- The compiled heading text and its Python twin -----------------------------
