"""Furniture named by class and id words: how words name values, and what goes."""

from __future__ import annotations

import re
from dataclasses import replace

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from addon.core.heuristics.names import (
    Lines,
    _sort_marked,
    drop_named_furniture,
    in_running_text,
    is_sentence,
    named_by_own_text,
    names_any,
    opens_discussion,
    page_names,
    review_sections,
    words_held,
)
from addon.core.params import (
    BOILERPLATE_WORDS,
    COMMENT_WORDS,
    CONSENT_WORDS,
    REVIEW_WORDS,
    Words,
)

NONE: Words = frozenset()


def reading(words: Words) -> re.Pattern[str]:
    """Return the regular expression that states how words name a class or id value."""
    # The word fills a token, or opens one before a - or _ (not one a flag's state
    # follows: "sidebar-enabled"), or closes one after a - or _.
    alternatives = "|".join(re.escape(word) for word in sorted(words))
    opens = rf"(?:^|\s)(?:{alternatives})(?:$|\s|[_-](?!(?:en|dis)abled(?:$|[\s_-])))"
    return re.compile(rf"{opens}|[_-](?:{alternatives})(?:$|\s)", re.IGNORECASE)


def _drop_named(
    page: lxml.html.HtmlElement,
    words: Words,
    footer: Words,
    *,
    max_share: float,
    footer_max_share: float,
) -> None:
    """Drop the furniture and footer a page's class and id values name (no review words)."""
    drop_named_furniture(
        page,
        words,
        footer,
        NONE,
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
        ("blog-article__main sidebar-enabled--false container", False),
        ("comments-disabled", False),
        ("sidebar-enabledness", True),
        ("enabled-sidebar", True),
        ("sidebar_disabled_x", False),
    ],
)
def test_boilerplate_words_open_or_close_a_class_token(names: str, furniture: bool) -> None:
    assert names_any(names, BOILERPLATE_WORDS | COMMENT_WORDS) is furniture
    assert (reading(BOILERPLATE_WORDS | COMMENT_WORDS).search(names) is not None) is furniture


def test_boilerplate_elements_are_dropped_unless_they_hold_the_page() -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><div class='with-sidebar-layout'><p>{story}</p>"
        "<div class='comment-list'><p>First!</p></div></div>"
        f"<div class='related'><p>{story}{story}{story}</p></div></body>"
    )
    _drop_named(root, BOILERPLATE_WORDS | COMMENT_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert "First!" not in root.text_content()
    # The related block holds most of the page's text: libxml2 nesting, kept.
    assert root.xpath("//div[@class='related']")


def test_furniture_holding_every_article_and_h1_is_the_article_in_a_dialog() -> None:
    # Issue 28 (5): readability-even yahoo-2 opens its story in a dialog over a
    # stream of teasers, `<div id="render-target-modal">`: "modal" names a
    # pop-up, so the page's only <article> and both its h1s went with it, and
    # the reader view was the stream (word F1 against Firefox 0.32).
    story = "Words of the story. " * 30
    teasers = "".join(f"<li><p>Teaser {i}: {story}</p></li>" for i in range(4))
    page = (
        f"<body><ul class='stream'>{teasers}</ul>"
        "<div id='render-target-modal'><article><h1>The story</h1>"
        f"<p>{story}</p></article><div class='related'><p>More</p></div></div>"
        "<div class='popup'><h2>Sign up</h2></div></body>"
    )
    root = lxml.html.document_fromstring(page)
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert root.xpath("//article/h1")
    # Furniture inside it, or beside it, still goes.
    assert not root.xpath("//div[@class='related'] | //div[@class='popup']")
    # Where some <article> or h1 stands outside it, the named element is furniture.
    second = page.replace("<ul class='stream'>", "<article><h1>Elsewhere</h1></article><ul>")
    root = lxml.html.document_fromstring(second)
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert not root.xpath("//div[@id='render-target-modal']")
    # And without any <article>, an h1 alone does not save it.
    root = lxml.html.document_fromstring(page.replace("article>", "section>"))
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert not root.xpath("//div[@id='render-target-modal']")


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
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    text = " ".join(root.text_content().split())
    assert "I am a rather elderly man. Of my work." in text
    assert "Before the list a note" in text  # text before it is enough
    assert "Share this story" not in text  # a block named as furniture still goes
    assert "A menu entry alone" not in text  # a link with no words beside it goes too
    assert "Home" not in text and "Guides" not in text  # separators are no words


def test_a_note_link_that_opens_ends_or_is_its_paragraph_is_kept() -> None:
    # readability-even clean-links: "Ah Bartleby! Ah humanity</a>!", a note after a
    # quote mark inside an <i>, a note that is its paragraph's whole sentence.
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><p>{story}</p>"
        "<p><i>\"<a class='popup'>Prefer</a></i> not, eh?\" gritted Nippers.</p>"
        "<p><a class='popup'>\"Mr. Nippers,\" said I, \"withdraw for the present.\"</a></p>"
        "<p> <a class='popup'>Ah Bartleby! Ah humanity</a>!</p>"
        "<p>The <span style='color: red'><a class='external-popup'>Revenue Service</a></span>,"
        " provide the rates.</p>"
        "<p><a class='popup'>Open the glossary</a></p>"
        "</body>"
    )
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    text = " ".join(root.text_content().split())
    assert '"Prefer not, eh?" gritted Nippers.' in text
    assert '"Mr. Nippers," said I, "withdraw for the present."' in text
    assert "Ah Bartleby! Ah humanity!" in text
    assert "The Revenue Service, provide the rates." in text  # through the span around it
    assert "Open the glossary" not in text  # alone in its paragraph, and no sentence


def test_a_line_keeps_its_named_elements_together_or_loses_them_together() -> None:
    # Two note links in a row, "." after the second: judged one by one, the first
    # (nothing but a space beside it) went, the second stayed.
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><p>{story}</p>"
        "<p><a class='popup'>Quay lamps</a> <a class='popup'>burning low</a>.</p>"
        "<p><span class='breadcrumb'>Home</span> / <span class='breadcrumb'>Poems</span></p>"
        "</body>"
    )
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    text = " ".join(root.text_content().split())
    assert "Quay lamps burning low." in text
    assert "Home" not in text and "Poems" not in text


def test_a_line_is_judged_once_for_all_its_named_elements() -> None:
    # 20,000 share links in one line, each judged by reading the whole line, took more
    # than five minutes; the line's answer is read once and shared (0.18 s).
    spans = " ".join(f"<span class='share'>s{n}</span>" for n in range(2000))
    page = f"<div><p>{spans}</p><p>Story, <b class='x'>b</b>.</p></div>"
    root = lxml.html.fragment_fromstring(page)
    named = set(root.iter("span", "b"))
    lines = Lines(named)
    assert not any(in_running_text(span, lines) for span in root.iter("span"))
    assert in_running_text(next(root.iter("b")), lines)
    assert len(lines.judged) == 2


@pytest.mark.parametrize(
    ("code", "kept"),
    [
        # wcxb-dev 4398: a highlighter's `<span class="comment">` at a line's start,
        # after nothing but "{" and spaces, before the next token's span.
        (
            "<code><span class='kw'>match </span>{\n    <span class='comment'>// socket closed"
            "\n    </span><span class='v'>Ok</span>(0)\n}</code>",
            ("// socket closed",),
        ),
        # wcxb-dev 0674, 2873 (react.dev): `<div class="cm-line"><span
        # class="sp-syntax-comment">`, the comment's span not straight under the pre,
        # and a whole line named so.
        (
            "<code><div class='cm-line'><span class='sp-syntax-comment'>/* In your CSS */"
            "</span></div><div class='comment'>// a whole line named so</div></code>",
            ("/* In your CSS */", "// a whole line named so"),
        ),
    ],
)
def test_code_named_as_comments_is_kept(code: str, kept: tuple[str, ...]) -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><p>{story}</p><pre>{code}</pre>"
        "<div class='comments'><p>Nice post</p></div></body>"
    )
    _drop_named(root, COMMENT_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    text = root.text_content()
    assert all(comment in text for comment in kept)
    assert "Nice post" not in text


def test_a_heading_named_only_by_the_slug_of_its_words_is_kept() -> None:
    # wcxb-dev 0166: `<h3 id="20-we-are-social">20. We Are Social</h3>` in a list of
    # agencies; "social" names share bars.
    story = "Words of the story. " * 30
    page = (
        f"<body><p>{story}</p><h3 id='20-we-are-social'>20. We Are Social</h3><p>{story}</p>"
        "<h3 id='share-this'>Tweet it</h3><h3 class='social' id='social'>Social</h3>"
        f"<h3 id='related-products'>Related Products</h3><p>{story}</p></body>"
    )
    root = lxml.html.document_fromstring(page)
    drop_named_furniture(
        root, BOILERPLATE_WORDS, NONE, NONE, max_share=0.5, footer_max_share=0.2,
        review_max_sections=0, headings=re.compile("related products"),
    )  # fmt: skip
    headings = [heading.text_content() for heading in root.iter("h3")]
    # Not an id of other words, nor a class, nor words that name furniture themselves.
    assert headings == ["20. We Are Social"]


def test_is_sentence_reads_the_end_of_a_text() -> None:
    assert is_sentence('"I\'d prefer that you would withdraw for the present."')
    assert is_sentence("Ah Bartleby! Ah humanity!")
    assert is_sentence("Why not? ")
    assert not is_sentence("Open the glossary")
    assert not is_sentence("Share:")


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
    _drop_named(root, BOILERPLATE_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert " ".join(root.text_content().split()) == kept.strip()


def _drop_reviews(root: lxml.html.HtmlElement, words: Words = NONE) -> None:
    """Drop the review sections (and the furniture `words` name) as the default does."""
    drop_named_furniture(
        root, words, NONE, REVIEW_WORDS, max_share=0.5, footer_max_share=0.2, review_max_sections=4
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
    _drop_reviews(root, frozenset({"related"}))
    assert "Great kettle" not in root.text_content()


def test_review_sections_keep_only_the_outermost() -> None:
    inner = lxml.html.fragment_fromstring("<p class='reviews-list'>x</p>")
    root = lxml.html.document_fromstring("<body><div class='reviews'></div></body>")
    outer = root.find(".//div")
    assert outer is not None
    outer.append(inner)
    assert review_sections([outer, inner], root, max_sections=1) == [outer]
    assert review_sections([outer, inner], root, max_sections=0) == []


def test_boilerplate_names_are_read_as_the_reading_states() -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><div><p>{story}</p></div>"
        "<div class='Share-Bar'>Share!</div><div id='comments'>Talk</div>"
        "<div class='post' id='x-related'>More</div><div class='sidebar-é'>Side</div>"
        "<div class='shared-content'>Kept</div><ul class='a\tad'><li>Ad</li></ul></body>"
    )
    _drop_named(root, BOILERPLATE_WORDS | COMMENT_WORDS, NONE, max_share=0.5, footer_max_share=0.2)
    assert " ".join(root.text_content().split()) == f"{story.strip()} Kept"


_NAME_CHARACTERS = "adsharecomntlibpuvgRSHADE-_ \t\n\x0b\x1c\x1fé"
# lxml refuses control characters in the values it sets (the parser keeps them).
_SETTABLE_NAME_CHARACTERS = _NAME_CHARACTERS.replace("\x1c", "").replace("\x1f", "")
_SETTABLE_NAME_CHARACTERS = _SETTABLE_NAME_CHARACTERS.replace("\x0b", "")
# A class or id: absent, one that some test words name, or any.
_CLASS_OR_ID = (
    st.none()
    | st.sampled_from(["ads", "share-bar", "x y-ads", "comment-list", "reviews", "tags", "Q-", ""])
    | st.text(alphabet=_SETTABLE_NAME_CHARACTERS, max_size=20)
)
_NAME_WORDS = st.sampled_from(
    [
        BOILERPLATE_WORDS,
        frozenset({"ad", "ads", "share", "comment-list"}),
        frozenset({"a_b", "-x", "y-", "tag", "tags", "e"}),
        frozenset({"xyz", "yz", "z", "Q-".lower()}),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(
        st.sampled_from(["ads", "share-bar", "x y-ads", "e-", "Tags_e", "-x y-", "a_b ad"])
        | st.text(alphabet=_NAME_CHARACTERS, max_size=30),
        max_size=25,
        unique=True,
    ),
    words=_NAME_WORDS,
)
def test_words_name_values_as_the_reading_states(names: list[str], words: Words) -> None:
    pattern = reading(words)
    named = {name for name in names if pattern.search(name)}
    assert set(words_held(set(names), words)) == named
    assert {name for name in names if names_any(name, words)} == named


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.text(alphabet=_SETTABLE_NAME_CHARACTERS, max_size=20), max_size=15),
    searched=_NAME_WORDS,
    asked=_NAME_WORDS,
)
def test_page_names_name_what_the_reading_states(
    names: list[str], searched: Words, asked: Words
) -> None:
    # Whether the words asked about were looked for when the names were read or not.
    root = etree.Element("div")
    for name in names:
        etree.SubElement(root, "p", {"class": name})
    page = page_names(root, searched)
    assert page.values == set(names)
    assert page.named(asked) == {name for name in names if reading(asked).search(name)}


def test_a_value_holds_the_words_it_names_and_no_others() -> None:
    held = words_held({"share-bar ads", "post", "ad-slot"}, frozenset({"ad", "ads", "share"}))
    assert held == {"share-bar ads": frozenset({"share", "ads"}), "ad-slot": frozenset({"ad"})}


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.tuples(_CLASS_OR_ID, _CLASS_OR_ID), max_size=12),
    words=_NAME_WORDS,
    review_words=st.sampled_from(
        [REVIEW_WORDS, frozenset({"share", "tag", "tags"}), frozenset({"c"})]
    ),
)
def test_named_elements_are_sorted_as_their_words_say(
    names: list[tuple[str | None, str | None]], words: Words, review_words: Words
) -> None:
    elements = []
    for class_, ident in names:
        attributes = {"class": class_, "id": ident}
        elements.append(
            etree.Element("div", {k: v for k, v in attributes.items() if v is not None})
        )
    values = {value for pair in names for value in pair if value is not None}
    furniture, footers, reviews = _sort_marked(
        elements,
        {value for value in values if names_any(value, words)},
        {value for value in values if names_any(value, review_words)},
    )

    def named(element: etree._Element, by: Words) -> bool:
        return reading(by).search(f"{element.get('class', '')} {element.get('id', '')}") is not None

    assert furniture == [element for element in elements if named(element, words)]
    assert reviews == [
        element
        for element in elements
        if not named(element, words) and named(element, review_words)
    ]
    assert footers == [element for element in elements if element not in furniture + reviews]


_POST = "<p>" + "A post long enough to be a post, not an icon. " * 3 + "</p>"


@pytest.mark.parametrize(
    ("body", "discussion"),
    [
        # a thread: the first post follows the headline, marked as a comment
        (f"<h1>Topic</h1><p>By someone</p><div id='comments'>{_POST}</div>", True),
        # an article: its text stands between the headline and the comments
        (f"<h1>Title</h1>{_POST * 3}<div id='comments'>{_POST}</div>", False),
        # a comment-count icon beside the headline is no post
        (
            f"<h1>Title</h1><i class='fa-comments'></i>{_POST * 3}<ol class='comment-list'>"
            f"{_POST}</ol>",
            False,
        ),
        # nested: the headline inside a header, the posts in a later column
        (
            f"<div><header><h1>Topic</h1></header></div><div><div class='comment'>{_POST}"
            "</div></div>",
            True,
        ),
        # no headline, or no comments
        (f"<p>Intro</p><div id='comments'>{_POST}</div>", False),
        (f"<h1>Title</h1>{_POST}", False),
    ],
)
def test_a_discussion_opens_with_comments_right_after_the_headline(
    body: str, discussion: bool
) -> None:
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
    assert opens_discussion(root, COMMENT_WORDS, max_lead=300) is discussion
    # With the page's class and id values the walk reads them, not each element,
    # and a page none of whose values names a comment is no discussion at once.
    names = page_names(root, COMMENT_WORDS)
    assert opens_discussion(root, COMMENT_WORDS, max_lead=300, names=names) is discussion
    # Words not looked for when the names were read are looked for when asked about.
    later = page_names(root, frozenset({"nav"}))
    assert opens_discussion(root, COMMENT_WORDS, max_lead=300, names=later) is discussion
    unnamed = replace(names, values=names.values - {"comments"}, held={})
    assert opens_discussion(root, COMMENT_WORDS, max_lead=300, names=unnamed) is False


def test_values_that_do_not_cover_the_walk_are_not_trusted() -> None:
    # From a subtree the walk goes on through the rest of the document, which the
    # subtree's values know nothing of.
    page = lxml.html.document_fromstring(
        f"<html><body><main><h1>Topic</h1></main><div id='comments'>{_POST}</div></body></html>"
    )
    main = page.find(".//main")
    assert main is not None
    names = page_names(main, COMMENT_WORDS)
    assert opens_discussion(main, COMMENT_WORDS, max_lead=300, names=names)


def test_a_footer_div_is_dropped_unless_it_holds_the_page() -> None:
    story = "<p>" + "A paragraph of the story itself, told at some length. " * 8 + "</p>"
    fine_print = "<p>Copyright 2026 The Site. Privacy policy.</p>"
    page = lxml.html.document_fromstring(
        f"<html><body><div>{story}</div><div class='site-footer'>{fine_print}</div>"
        f"<div id='footer-links'>{fine_print}</div></body></html>"
    )
    _drop_named(page, NONE, frozenset({"footer"}), max_share=0.5, footer_max_share=0.2)
    assert "Copyright" not in page.text_content()
    assert "story itself" in page.text_content()
    # A layout wrapper named after the footer below it holds the page: it stays.
    wrapper = lxml.html.document_fromstring(
        f"<html><body><div class='page-footer'>{story}</div>{fine_print}</body></html>"
    )
    _drop_named(wrapper, NONE, frozenset({"footer"}), max_share=0.5, footer_max_share=0.2)
    assert "story itself" in wrapper.text_content()
    # Words that merely contain the word are no footer ("footerless" layouts).
    other = lxml.html.document_fromstring(
        f"<html><body>{story}<div class='footerless'>{fine_print}</div></body></html>"
    )
    _drop_named(other, NONE, frozenset({"footer"}), max_share=0.5, footer_max_share=0.2)
    assert "Copyright" in other.text_content()


def test_furniture_named_beside_the_footer_keeps_the_furniture_share() -> None:
    story = "<p>" + "A paragraph of the story itself, told at some length. " * 8 + "</p>"
    share = "<div class='share'><p>" + "Share this story with a friend. " * 8 + "</p></div>"
    # The share bar holds about a third of the page: over the footer's share,
    # under the furniture's, so only the furniture rule can drop it.
    page = lxml.html.document_fromstring(
        f"<html><body><div>{story}</div>{share}<div class='footer'>{story}</div></body></html>"
    )
    _drop_named(
        page, frozenset({"share"}), frozenset({"footer"}), max_share=0.5, footer_max_share=0.2
    )
    assert "Share this story" not in page.text_content()
    assert page.text_content().count("story itself") == 16  # both stories stay
    # Neither vocabulary: nothing is named, nothing goes.
    _drop_named(page, NONE, NONE, max_share=0.5, footer_max_share=0.2)
    assert page.text_content().count("story itself") == 16  # both stories stay


def _drop_furniture_and_banners(root: lxml.html.HtmlElement) -> int:
    """Drop the furniture and consent banners as the default does; return the banners' text."""
    return drop_named_furniture(
        root,
        BOILERPLATE_WORDS,
        NONE,
        NONE,
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


def test_a_section_whose_id_is_its_whole_title_is_not_named_furniture() -> None:
    # wcxb-dev 2874: `<section id="respond-to-review-comments"><h2>Respond to review
    # comments`; a widget's "reviews" over its "Customer Reviews" stays furniture.
    root = lxml.html.fromstring(
        "<div><section id='respond-to-review-comments'><h2>Respond to review comments</h2>"
        "<p>Text.</p></section><section id='reviews'><h2>Customer Reviews</h2></section></div>"
    )
    values = {"respond-to-review-comments", "reviews"}
    sections = list(root.iter("section"))
    assert named_by_own_text(sections[0], values)
    assert not named_by_own_text(sections[1], values)
