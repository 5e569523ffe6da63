"""Preprocessing: parsing traps and what is dropped before line building."""

from __future__ import annotations

import re
from dataclasses import replace

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.heuristics.names import (
    _VARIANTS_SPELLED,
    _matching_values,
    _named,
    _plain_words,
    _sort_marked,
    _spelled_out,
    _word_hits,
    boilerplate_pattern,
    drop_named_furniture,
    furniture_word_lists,
    join_words,
    opens_discussion,
    page_names,
    review_sections,
    spell_out,
)
from addon.core.params import (
    ALGORITHMS,
    BOILERPLATE_WORDS,
    COMMENT_WORDS,
    CONSENT_WORDS,
    REVIEW_WORDS,
)


def _drop_named(
    page: lxml.html.HtmlElement,
    words: str,
    footer: str,
    *,
    max_share: float,
    footer_max_share: float,
) -> None:
    """Drop the furniture and footer a page's class and id values name (no review words)."""
    drop_named_furniture(
        page,
        words,
        footer,
        "",
        max_share=max_share,
        footer_max_share=footer_max_share,
        review_max_sections=0,
    )


@pytest.mark.parametrize(
    ("names", "furniture"),
    [
        ("comment-list", True),
        ("block block--author-bio", True),
        ("ads", True),
        ("share_bar", True),
        ("with-sidebar-layout", False),
        ("body-ad-wrapper", False),
        ("headline", False),
        ("shared-content", False),
        ("signature", True),
        ("postprofile", True),
        ("user-signature", True),
        ("signature-pad-demo", True),
        ("usertitle", True),
        ("message-userTitle", True),
        ("reactionsBar js-reactionsList", True),
        ("signatures-required", True),
        ("message-userExtras", True),
        ("message-userBanner userBanner", True),
        ("userextras-and-more", True),
        ("username", False),
        ("superuserextras", False),
        ("extraUserInfo", True),
        ("MessageCard__user-details", True),
        ("ipsPadding ipsHide cPostShareMenu", True),
        ("user-detailsbox", False),
        ("ipsHidePhone", False),
        ("postbody", False),
        ("user-content", False),
        ("about-author__text", True),
        ("post-author-box", True),
        ("disclaimer", True),
        ("affiliate-disclaimer", True),
        ("newsletter-optin", True),
        ("opt-in-form", True),
        ("prev-next", True),
        ("post-navigation", True),
        ("author-name", False),
        ("disclaimers-page", False),
        ("disclosure", False),
        ("navigation-main", False),
        ("up-sells upsells products", True),
        ("cross-sells", True),
        ("product-upsell", True),
        ("upsell-price", True),
        ("sells-out", False),
    ],
)
def test_boilerplate_words_open_or_close_a_class_token(names: str, furniture: bool) -> None:
    pattern = boilerplate_pattern(f"{BOILERPLATE_WORDS}|{COMMENT_WORDS}")
    assert (pattern.search(names) is not None) is furniture


def test_boilerplate_elements_are_dropped_unless_they_hold_the_page() -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><div class='with-sidebar-layout'><p>{story}</p>"
        "<div class='comment-list'><p>First!</p></div></div>"
        f"<div class='related'><p>{story}{story}{story}</p></div></body>"
    )
    words = f"{BOILERPLATE_WORDS}|{COMMENT_WORDS}"
    _drop_named(root, words, "", max_share=0.5, footer_max_share=0.2)
    assert "First!" not in root.text_content()
    # The related block holds most of the page's text: libxml2 nesting, kept.
    assert root.xpath("//div[@class='related']")


def test_a_phrasing_element_inside_a_sentence_is_kept_whatever_its_class() -> None:
    # A study text's note links are <a class="popup">: dropping them cut words out
    # of the sentence ("I am a rather elderly man" read "am a man").
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><p><a class='popup' href='#'>I</a> am a <a class='popup'>rather elderly</a> man."
        f" Of <span class='share'>my</span> work.</p><p>{story}</p>"
        "<div class='share-popup'><a href='/share'>Share this story</a></div>"
        "<p>Before the list <a class='popup'>a note</a></p>"
        "<ul><li><a class='popup' href='/x'>A menu entry alone</a></li></ul>"
        "<p><span class='breadcrumb'>Home</span> » <span class='breadcrumb'>Guides</span></p>"
        "</body>"
    )
    _drop_named(root, BOILERPLATE_WORDS, "", max_share=0.5, footer_max_share=0.2)
    text = " ".join(root.text_content().split())
    assert "I am a rather elderly man. Of my work." in text
    assert "Before the list a note" in text  # text before it is enough
    assert "Share this story" not in text  # a block named as furniture still goes
    assert "A menu entry alone" not in text  # a link with no words beside it goes too
    assert "Home" not in text and "Guides" not in text  # separators are no words


_STORY = "Words of the story. " * 30
_DESCRIPTION = "A linen dress cut loose, with two pockets and a side zip. " * 8


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        # the boxes a blog engine puts around a post
        (
            "<article><p class='affiliate-disclaimer'>We may earn a commission.</p>"
            f"<p>{_STORY}</p><div class='about-author'><p>Ann writes about tea.</p></div>"
            "<div class='optin-box'><form><p>Get our posts by e-mail</p></form></div>"
            "<nav class='post-navigation'><a href='/old'>Previous post</a></nav></article>",
            _STORY,
        ),
        # a shop's offers of other products beside the one on the page
        (
            f"<div class='product'><h1>Linen dress</h1> <p>{_DESCRIPTION}</p></div>"
            "<section class='up-sells upsells products'><h2>You may also like</h2>"
            "<p>Hemp skirt</p><p>$95.00</p></section>"
            "<div class='cross-sells'><p>Cotton scarf</p><p>$20.00</p></div>",
            f"Linen dress {_DESCRIPTION}",
        ),
    ],
)
def test_boxes_around_the_content_are_dropped(body: str, kept: str) -> None:
    root = lxml.html.document_fromstring(f"<body>{body}</body>")
    _drop_named(root, BOILERPLATE_WORDS, "", max_share=0.5, footer_max_share=0.2)
    assert " ".join(root.text_content().split()) == kept.strip()


def _drop_reviews(root: lxml.html.HtmlElement, words: str = "") -> None:
    """Drop the review sections (and the furniture `words` name) as the default does."""
    drop_named_furniture(
        root, words, "", REVIEW_WORDS, max_share=0.5, footer_max_share=0.2, review_max_sections=4
    )


def test_review_sections_are_dropped() -> None:
    story = "What the product is and does. " * 20
    root = lxml.html.document_fromstring(
        f"<body><div class='product'><p>{story}</p></div>"
        "<section class='product-reviews'><div class='reviews-summary'><p>4.7 stars</p></div>"
        "<p>Great kettle, boils fast.</p></section></body>"
    )
    _drop_reviews(root)
    assert "Great kettle" not in root.text_content()
    assert "4.7 stars" not in root.text_content()
    assert "What the product is" in root.text_content()


def test_review_words_on_every_card_of_a_grid_are_kept() -> None:
    cards = "".join(
        f"<div class='card'><h3>Kettle {n}</h3><p class='reviews-blurb'>Blurb {n}.</p></div>"
        for n in range(5)
    )
    root = lxml.html.document_fromstring(f"<body>{cards}</body>")
    _drop_reviews(root)
    assert "Blurb 4." in root.text_content()


def test_a_review_section_holding_the_page_is_kept() -> None:
    root = lxml.html.document_fromstring(
        f"<body><p>Intro.</p><div class='reviews'><p>{'A long review. ' * 40}</p></div></body>"
    )
    _drop_reviews(root)
    assert "A long review." in root.text_content()


def test_drop_reviews_without_a_match_leaves_the_page() -> None:
    root = lxml.html.document_fromstring("<body><p class='review'>One review article.</p></body>")
    _drop_reviews(root)
    assert "One review article." in root.text_content()


def test_reviews_inside_dropped_furniture_do_not_count_as_sections() -> None:
    story = "What the product is and does. " * 20
    tiles = "".join(
        f"<div class='tile'><p class='reviews-count'>{n} reviews</p></div>" for n in range(5)
    )
    root = lxml.html.document_fromstring(
        f"<body><p>{story}</p><div class='related'>{tiles}</div>"
        "<div class='reviews'><p>Great kettle, boils fast.</p></div></body>"
    )
    _drop_reviews(root, "related")
    assert "Great kettle" not in root.text_content()


def test_review_sections_keep_only_the_outermost() -> None:
    inner = lxml.html.fragment_fromstring("<p class='reviews-list'>x</p>")
    root = lxml.html.document_fromstring("<body><div class='reviews'></div></body>")
    outer = root.find(".//div")
    assert outer is not None
    outer.append(inner)
    assert review_sections([outer, inner], root, max_sections=1) == [outer]
    assert review_sections([outer, inner], root, max_sections=0) == []


def test_boilerplate_names_match_as_the_pattern_reads_them() -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><div><p>{story}</p></div>"
        "<div class='Share-Bar'>Share!</div><div id='comments'>Talk</div>"
        "<div class='post' id='x-related'>More</div><div class='sidebar-é'>Side</div>"
        "<div class='shared-content'>Kept</div><ul class='a\tad'><li>Ad</li></ul></body>"
    )
    words = f"{BOILERPLATE_WORDS}|{COMMENT_WORDS}"
    _drop_named(root, words, "", max_share=0.5, footer_max_share=0.2)
    assert " ".join(root.text_content().split()) == f"{story.strip()} Kept"


def test_words_that_are_not_plain_are_searched_as_their_pattern_reads_them() -> None:
    root = lxml.html.document_fromstring(
        "<body><p>Story text that stays.</p><div class='side-promo'>Promo</div>"
        "<div id='foot'>Foot</div><div class='xpromoy'>Free</div><div id='footer'>Kept</div></body>"
    )
    _drop_named(root, "pro.o|foo[t]", "", max_share=0.5, footer_max_share=0.2)
    assert root.text_content() == "Story text that stays.FreeKept"


def test_a_pattern_matching_a_blank_name_tests_every_element() -> None:
    root = lxml.html.document_fromstring("<body><div><p>a</p></div><p>b</p></body>")
    _drop_named(root, "x|", "", max_share=0.9, footer_max_share=0.2)
    assert root.xpath("//body") and not root.xpath("//p")


_NAME_CHARACTERS = "adsharecomntlibpuvgRSHADE-_ \t\n\x1cé"
# lxml refuses control characters in the values it sets (the parser keeps them).
_SETTABLE_NAME_CHARACTERS = _NAME_CHARACTERS.replace("\x1c", "")
# A class or id: absent, one that some test words name, or any.
_CLASS_OR_ID = (
    st.none()
    | st.sampled_from(["ads", "share-bar", "x y-ads", "comment-list", "reviews", "tags", "Q-", ""])
    | st.text(alphabet=_SETTABLE_NAME_CHARACTERS, max_size=20)
)
_NAME_WORDS = st.sampled_from(
    [BOILERPLATE_WORDS, "ad|ads?|share|comment-list", "a_b|-x|y-|tags?|e", "x?y?z|Q-"]
)


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.text(alphabet=_NAME_CHARACTERS, max_size=30), max_size=25, unique=True),
    words=_NAME_WORDS,
)
def test_plain_words_match_names_as_the_pattern_does(names: list[str], words: str) -> None:
    pattern = boilerplate_pattern(words)
    plain = spell_out(pattern)
    assert plain is not None
    assert _matching_values(set(names), pattern, plain) == {n for n in names if pattern.search(n)}


# The compiled hits take ASCII names: _matching_values searches the others itself.
_ASCII_NAME_CHARACTERS = _NAME_CHARACTERS.replace("é", "") + "\x0b\x1f"


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(
        st.sampled_from(["ads", "share-bar", "x y-ads", "e-", "Tags_e", "-x y-", "a_b ad"])
        | st.text(alphabet=_ASCII_NAME_CHARACTERS, max_size=30),
        max_size=25,
    ),
    words=_NAME_WORDS,
)
def test_the_compiled_word_hits_are_the_python_ones(names: list[str], words: str) -> None:
    from addon.core import _words

    plain = spell_out(boilerplate_pattern(words))
    assert plain is not None
    assert _words.word_hits(names, plain) == _word_hits(names, plain)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.text(alphabet=_SETTABLE_NAME_CHARACTERS, max_size=20), max_size=15),
    searched=_NAME_WORDS,
    asked=_NAME_WORDS,
)
def test_page_names_name_what_the_pattern_matches(
    names: list[str], searched: str, asked: str
) -> None:
    # Whether the words asked about were searched when the names were read or not.
    root = etree.Element("div")
    for name in names:
        etree.SubElement(root, "p", {"class": name})
    pattern = boilerplate_pattern(asked)
    page = page_names(root, searched)
    assert page.values == set(names)
    assert page.named(pattern) == {name for name in names if pattern.search(name)}


def test_the_compiled_word_hits_refuse_names_that_are_not_ascii() -> None:
    from addon.core import _words

    with pytest.raises(ValueError, match="ASCII"):
        _words.word_hits(["menu-é"], {"menu": ("menu",)})


@settings(max_examples=300, deadline=None)
@given(
    names=st.tuples(
        st.text(alphabet=_NAME_CHARACTERS, max_size=20),
        st.text(alphabet=_NAME_CHARACTERS, max_size=20),
    ),
    words=_NAME_WORDS,
)
def test_plain_words_match_class_and_id_one_at_a_time(names: tuple[str, str], words: str) -> None:
    pattern = boilerplate_pattern(words)
    class_, ident = names
    both = pattern.search(f"{class_} {ident}") is not None
    assert both == (pattern.search(class_) is not None or pattern.search(ident) is not None)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(
        st.tuples(
            _CLASS_OR_ID,
            _CLASS_OR_ID,
        ),
        max_size=12,
    ),
    words=_NAME_WORDS,
    review_words=st.sampled_from(["reviews", "share|tags?", "a.b|c"]),
)
def test_named_elements_are_sorted_as_their_patterns_say(
    names: list[tuple[str | None, str | None]], words: str, review_words: str
) -> None:
    elements = []
    for class_, ident in names:
        attributes = {"class": class_, "id": ident}
        elements.append(
            etree.Element("div", {k: v for k, v in attributes.items() if v is not None})
        )
    furniture, footers, reviews = _sort_marked(elements, words, review_words)
    furniture_pattern, review_pattern = (
        boilerplate_pattern(words),
        boilerplate_pattern(review_words),
    )
    assert furniture == [element for element in elements if _named(element, furniture_pattern)]
    assert reviews == [
        element
        for element in elements
        if not _named(element, furniture_pattern) and _named(element, review_pattern)
    ]
    assert footers == [element for element in elements if element not in furniture + reviews]


def test_only_plain_word_patterns_are_spelled_out() -> None:
    assert _plain_words(boilerplate_pattern("ads?|share")) == {"ad", "ads", "share"}
    assert _plain_words(boilerplate_pattern("a.b|c")) is None
    assert _plain_words(boilerplate_pattern("x|")) is None
    assert _plain_words(re.compile("share")) is None
    assert _plain_words(re.compile(boilerplate_pattern("share").pattern)) is None


def test_the_named_variants_words_are_spelled_out_as_for_any_pattern() -> None:
    for params in ALGORITHMS.values():
        lists = list(furniture_word_lists(params.extend))
        for words in lists:  # found, then sorted
            pattern = boilerplate_pattern(words)
            assert _spelled_out(pattern) == spell_out(pattern)
            assert pattern.pattern in _VARIANTS_SPELLED
        if params.extend.comment_words:  # opens_discussion asks about these alone
            assert boilerplate_pattern(params.extend.comment_words).pattern in _VARIANTS_SPELLED
        if lists:
            spelled = _spelled_out(boilerplate_pattern(lists[0]))
            assert spelled is not None
            assert spelled["ads"] == ("ads",) and spelled["author-bio"] == ("author", "bio")
    # Other patterns are spelled out when asked, and their words found alike.
    assert _spelled_out(boilerplate_pattern("ads?|tag_list")) == {
        "ad": ("ad",),
        "ads": ("ads",),
        "tag_list": ("tag", "list"),
    }
    # A variant's pattern compiled otherwise is no plain-words pattern.
    variant = boilerplate_pattern(join_words(BOILERPLATE_WORDS, "footer"))
    assert _spelled_out(variant) is not None
    assert _spelled_out(re.compile(variant.pattern)) is None


_POST = "<p>" + "A post long enough to be a post, not an icon. " * 3 + "</p>"


@pytest.mark.parametrize(
    ("body", "discussion"),
    [
        # a thread: the first post follows the headline, marked as a comment
        (f"<h1>Topic</h1><p>By someone</p><div id='comments'>{_POST}</div>", True),
        # an article: its text stands between the headline and the comments
        (f"<h1>Title</h1>{_POST * 3}<div id='comments'>{_POST}</div>", False),
        # a comment-count icon beside the headline is no post
        (f"<h1>Title</h1><i class='fa-comments'></i>{_POST * 3}<ol class='comment-list'>"
         f"{_POST}</ol>", False),
        # nested: the headline inside a header, the posts in a later column
        (f"<div><header><h1>Topic</h1></header></div><div><div class='comment'>{_POST}"
         "</div></div>", True),
        # no headline, or no comments
        (f"<p>Intro</p><div id='comments'>{_POST}</div>", False),
        (f"<h1>Title</h1>{_POST}", False),
    ],
)
def test_a_discussion_opens_with_comments_right_after_the_headline(
    body: str, discussion: bool
) -> None:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    pattern = boilerplate_pattern(COMMENT_WORDS)
    assert opens_discussion(root, pattern, max_lead=300) is discussion
    # With the page's class and id values the walk matches them, not the pattern,
    # and a page none of whose values names a comment is no discussion at once.
    names = page_names(root, COMMENT_WORDS)
    assert opens_discussion(root, pattern, max_lead=300, names=names) is discussion
    # Words not searched when the names were read are searched when asked for.
    later = page_names(root, "nav")
    assert opens_discussion(root, pattern, max_lead=300, names=later) is discussion
    unnamed = replace(names, values=names.values - {"comments"}, hits={})
    assert opens_discussion(root, pattern, max_lead=300, names=unnamed) is False


def test_values_that_do_not_cover_the_walk_are_not_trusted() -> None:
    # From a subtree the walk goes on through the rest of the document, which the
    # subtree's values know nothing of.
    page = lxml.html.document_fromstring(
        f"<html><body><main><h1>Topic</h1></main><div id='comments'>{_POST}</div></body></html>"
    )
    main = page.find(".//main")
    assert main is not None
    pattern = boilerplate_pattern(COMMENT_WORDS)
    assert opens_discussion(main, pattern, max_lead=300, names=page_names(main, COMMENT_WORDS))


def test_a_pattern_not_of_plain_words_is_searched_with_values_too() -> None:
    page = lxml.html.document_fromstring(
        f"<html><body><h1>Topic</h1><div class='talk-back'>{_POST}</div></body></html>"
    )
    pattern = boilerplate_pattern("talk.back")
    assert opens_discussion(page, pattern, max_lead=300, names=page_names(page, "talk.back"))


def test_a_footer_div_is_dropped_unless_it_holds_the_page() -> None:
    story = "<p>" + "A paragraph of the story itself, told at some length. " * 8 + "</p>"
    fine_print = "<p>Copyright 2026 The Site. Privacy policy.</p>"
    page = lxml.html.document_fromstring(
        f"<html><body><div>{story}</div><div class='site-footer'>{fine_print}</div>"
        f"<div id='footer-links'>{fine_print}</div></body></html>"
    )
    _drop_named(page, "", "footer", max_share=0.5, footer_max_share=0.2)
    assert "Copyright" not in page.text_content()
    assert "story itself" in page.text_content()
    # A layout wrapper named after the footer below it holds the page: it stays.
    wrapper = lxml.html.document_fromstring(
        f"<html><body><div class='page-footer'>{story}</div>{fine_print}</body></html>"
    )
    _drop_named(wrapper, "", "footer", max_share=0.5, footer_max_share=0.2)
    assert "story itself" in wrapper.text_content()
    # Words that merely contain the word are no footer ("footerless" layouts).
    other = lxml.html.document_fromstring(
        f"<html><body>{story}<div class='footerless'>{fine_print}</div></body></html>"
    )
    _drop_named(other, "", "footer", max_share=0.5, footer_max_share=0.2)
    assert "Copyright" in other.text_content()


def test_furniture_named_beside_the_footer_keeps_the_furniture_share() -> None:
    story = "<p>" + "A paragraph of the story itself, told at some length. " * 8 + "</p>"
    share = "<div class='share'><p>" + "Share this story with a friend. " * 8 + "</p></div>"
    # The share bar holds about a third of the page: over the footer's share,
    # under the furniture's, so only the furniture rule can drop it.
    page = lxml.html.document_fromstring(
        f"<html><body><div>{story}</div>{share}<div class='footer'>{story}</div></body></html>"
    )
    _drop_named(page, "share", "footer", max_share=0.5, footer_max_share=0.2)
    assert "Share this story" not in page.text_content()
    assert page.text_content().count("story itself") == 16  # both stories stay
    # Neither vocabulary: nothing is named, nothing goes.
    _drop_named(page, "", "", max_share=0.5, footer_max_share=0.2)
    assert page.text_content().count("story itself") == 16  # both stories stay


def _drop_furniture_and_banners(root: lxml.html.HtmlElement) -> int:
    """Drop the furniture and consent banners as the default does; return the banners' text."""
    return drop_named_furniture(
        root,
        BOILERPLATE_WORDS,
        "",
        "",
        max_share=0.5,
        footer_max_share=0.2,
        review_max_sections=0,
        consent_words=CONSENT_WORDS,
    )


def test_a_consent_banner_is_dropped_whatever_its_share() -> None:
    purposes = "These cookies measure the site. " * 40
    root = lxml.html.document_fromstring(
        "<body class='cookie-banner-visible'><main><p>The story.</p></main>"
        f"<div id='onetrust-consent-sdk'><div id='onetrust-pc-sdk'><p>{purposes}</p></div>"
        "</div></body>"
    )
    assert _drop_furniture_and_banners(root) == len(purposes)
    assert " ".join(root.text_content().split()) == "The story."


def test_a_post_about_consent_is_no_banner() -> None:
    story = "What informed consent means in a clinical trial. " * 20
    root = lxml.html.document_fromstring(
        f"<body><div class='post-7 post category-gdpr tag-consent'><p>{story}</p></div></body>"
    )
    assert _drop_furniture_and_banners(root) == 0
    assert root.text_content() == story


def test_without_a_banner_nothing_is_counted_and_furniture_still_goes() -> None:
    root = lxml.html.document_fromstring(
        "<body><p>The story.</p><div class='related'>More</div></body>"
    )
    assert _drop_furniture_and_banners(root) == 0
    assert root.text_content() == "The story."


