"""Preprocessing: parsing traps and what is dropped before line building."""

import lxml.html
import pytest

from addon.core.params import BOILERPLATE_WORDS
from addon.core.preprocess import (
    boilerplate_pattern,
    drop_boilerplate,
    drop_chrome,
    drop_non_content,
    parse,
    strip_premature_end_tags,
)


def _text(html: str) -> str:
    root = parse(html)
    assert root is not None
    drop_non_content(root)
    return " ".join(" ".join(root.itertext()).split())


def test_premature_end_tags_do_not_cut_the_page() -> None:
    page = "<html><body><p>first</p></body></html><p>second, after the trap</p></body></html>"
    assert strip_premature_end_tags(page).count("</body>") == 0
    assert _text(page) == "first second, after the trap"


def test_scripts_styles_templates_and_comments_are_dropped() -> None:
    page = (
        "<body><script>var x = 'script text';</script><style>p{}</style>"
        "<template><p>template text</p></template><!-- comment --><p>kept</p></body>"
    )
    assert _text(page) == "kept"


def test_noscript_with_real_posts_is_kept_and_a_pixel_noscript_dropped() -> None:
    post = "A forum post written by a person, long enough to be real content. " * 4
    page = (
        f"<body><noscript><img src='/pixel.gif'></noscript>"
        f"<noscript><div class='post'>{post}</div></noscript></body>"
    )
    root = parse(page)
    assert root is not None
    drop_non_content(root)
    assert not root.xpath("//noscript")
    assert not root.xpath("//img")
    assert root.xpath("//div[@class='post']")


def test_hidden_elements_are_dropped() -> None:
    page = (
        "<body><div hidden>a</div><div style='display: none'>b</div>"
        "<div aria-hidden='true'>c</div><p>d</p></body>"
    )
    assert _text(page) == "d"


def test_empty_and_blank_input_parse_to_nothing() -> None:
    assert parse("") is None
    assert parse(" \n\t ") is None


def test_xml_declaration_with_another_encoding_still_parses() -> None:
    root = parse('<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>é</p></body></html>')
    assert root is not None
    assert root.text_content() == "é"


def test_chrome_outside_the_article_is_dropped_inside_kept() -> None:
    page = (
        "<body><nav>menu</nav><header>site</header><article><header>byline</header>"
        "<p>story</p><footer>tags</footer></article><aside>ads</aside>"
        "<form><input value='q'><button>Go</button></form><footer>legal</footer></body>"
    )
    root = lxml.html.document_fromstring(page)
    drop_chrome(root)
    assert " ".join(" ".join(root.itertext()).split()) == "byline story tags"


def test_a_form_wrapping_the_page_keeps_its_content_but_not_its_controls() -> None:
    page = (
        "<body><form action='/x'><input name='__VIEWSTATE' value='abc'>"
        "<p>The whole page lives in one form.</p><label>Zip</label><button>Go</button>"
        "</form></body>"
    )
    root = lxml.html.document_fromstring(page)
    drop_chrome(root)
    assert not root.xpath("//form | //input | //label | //button")
    assert " ".join(root.text_content().split()) == "The whole page lives in one form."


def test_chrome_wrapping_the_headline_is_kept() -> None:
    root = lxml.html.document_fromstring("<body><header><h1>Headline</h1></header><p>x</p></body>")
    drop_chrome(root)
    assert root.xpath("//h1")


def test_a_button_left_open_around_the_page_is_unwrapped_small_ones_dropped() -> None:
    story = "The story goes on. " * 20
    root = lxml.html.document_fromstring(
        f"<body><button>Menu</button><label>Search</label><button><div><p>{story}</p></div>"
        "</button></body>"
    )
    drop_chrome(root)
    assert not root.xpath("//button | //label")
    assert root.text_content() == story


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
    ],
)
def test_boilerplate_words_open_or_close_a_class_token(names: str, furniture: bool) -> None:
    pattern = boilerplate_pattern(BOILERPLATE_WORDS)
    assert (pattern.search(names) is not None) is furniture


def test_boilerplate_elements_are_dropped_unless_they_hold_the_page() -> None:
    story = "Words of the story. " * 30
    root = lxml.html.document_fromstring(
        f"<body><div class='with-sidebar-layout'><p>{story}</p>"
        "<div class='comment-list'><p>First!</p></div></div>"
        f"<div class='related'><p>{story}{story}{story}</p></div></body>"
    )
    drop_boilerplate(root, boilerplate_pattern(BOILERPLATE_WORDS), max_share=0.5)
    assert "First!" not in root.text_content()
    # The related block holds most of the page's text: libxml2 nesting, kept.
    assert root.xpath("//div[@class='related']")


def test_dialogs_are_dropped_unless_they_hold_the_page() -> None:
    story = "The story itself. " * 20
    root = lxml.html.document_fromstring(
        f"<body><div role='dialog'><p>We use cookies.</p></div><p>{story}</p>"
        "<div aria-modal='true'>Subscribe!</div><dialog>Sign in</dialog></body>"
    )
    drop_chrome(root, max_share=0.5)
    assert " ".join(root.text_content().split()) == story.strip()
