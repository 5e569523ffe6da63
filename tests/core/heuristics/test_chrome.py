"""Tests for addon.core.heuristics.chrome."""

from __future__ import annotations

import lxml.html

from addon.core.heuristics.chrome import drop_chrome, signup_boxes


def _without_chrome(body: str) -> lxml.html.HtmlElement:
    """Parse a page body and drop its chrome as the default share allows."""
    root = lxml.html.document_fromstring(f"<body>{body}</body>")
    drop_chrome(root, max_share=0.5)
    return root


def test_chrome_outside_the_article_is_dropped_inside_kept() -> None:
    page = (
        "<body><nav>menu</nav><header>site</header><article><header>byline</header>"
        "<p>story</p><footer>tags</footer></article><aside>ads</aside>"
        "<form><input value='q'><button>Go</button></form><footer>legal</footer></body>"
    )
    root = lxml.html.document_fromstring(page)
    drop_chrome(root)
    assert " ".join(" ".join(root.itertext()).split()) == "byline story tags"


def test_a_sections_header_row_and_mains_header_of_text_are_kept() -> None:
    # readability-even nytimes-5: each band of a section front titled in its header.
    page = (
        "<header><a href='/'>Site</a> <a href='/news'>News</a></header>"
        "<main><header><a href='/'>Home</a> <a href='/shop'>Shop</a> | </header>"
        "<header>What is the difference, and which is right for you?</header>"
        "<section><header><h2><a href='/opinion'>Opinion</a></h2></header><p>Teaser.</p>"
        "</section></main><section><p>More.</p>"
        "<div class='related'><header><h3>Others read</h3></header><a href='/x'>X</a></div>"
        "</section>"
    )
    assert _text_after_chrome(page) == (
        "What is the difference, and which is right for you? Opinion Teaser. More. X"
    )


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


def test_a_controls_small_glyph_is_dropped_its_label_kept() -> None:
    # wcxb-dev 4912: an FAQ's chevron, alt "Open", after each question.
    root = _without_chrome(
        "<div role='button'><p>What does it cost?</p>"
        "<img alt='Open' src='/chevron-down.svg' width='24' height='24'></div>"
        "<details><summary>Why? <img src='/plus.svg' width='16'></summary>Because.</details>"
        "<h3><button>When? <img src='/caret.svg' height='12'></button></h3>"
        "<div role='button'><img alt='The map' src='/map.png' width='640' height='400'></div>"
        "<p><img alt='A star' src='/star.svg' width='16' height='16'> rated</p>"
    )
    assert [img.get("src") for img in root.iter("img")] == ["/map.png", "/star.svg"]
    assert "What does it cost?" in root.text_content() and "When?" in root.text_content()


def test_dialogs_are_dropped_unless_they_hold_the_page() -> None:
    story = "The story itself. " * 20
    root = _without_chrome(
        f"<div role='dialog'><p>We use cookies.</p></div><p>{story}</p>"
        "<div aria-modal='true'>Subscribe!</div><dialog>Sign in</dialog>"
    )
    assert " ".join(root.text_content().split()) == story.strip()


def test_landmark_roles_are_chrome_as_their_elements_are() -> None:
    # ARIA's landmarks are the same regions as nav, footer, aside and the search
    # element: a screen reader lists them alike. A "banner" stays: pages give the
    # role to promotional panels inside the content (wcxb-dev 0588's features).
    story = "The story itself, long enough to be the page's main text. " * 10
    root = _without_chrome(
        "<div role='navigation'><a href='/news'>News</a> <a href='/sport'>Sport</a></div>"
        "<search><label>Search the site</label></search>"
        f"<div role='main'><p>{story}</p></div>"
        "<div role='complementary'><p>Most read this week.</p></div>"
        "<div role='contentinfo'><p>Harbour Times Ltd, all rights reserved.</p></div>"
        "<div role='banner'><p>Made for MagSafe.</p></div>"
    )
    assert " ".join(root.text_content().split()) == f"{story.strip()} Made for MagSafe."


def test_a_landmark_role_inside_the_article_or_holding_it_stays() -> None:
    story = "The story itself, long enough to be the page's main text. " * 10
    root = _without_chrome(
        f"<article><h1>A title</h1><div role='complementary'><p>A side note.</p></div>"
        f"<p>{story}</p></article>"
    )
    assert "A side note." in root.text_content()
    root = _without_chrome(f"<div role='navigation'><main><p>{story}</p></main></div>")
    assert " ".join(root.text_content().split()) == story.strip()


def test_popovers_are_overlays_hidden_until_opened() -> None:
    # wcxb-dev 0546: Invision's forums keep their menus, sign-in box, push-notice
    # card and app-install card as `popover` elements, which the browser shows only
    # when a button or script opens them; the view opened with "A full-screen app on
    # your home screen with push notifications".
    story = "The thread's first post, long enough to be the page. " * 10
    root = _without_chrome(
        "<i-card popover id='learn'><p>A full-screen app on your home screen.</p></i-card>"
        f"<p>{story}</p><ul popover='manual'><li>Forums</li><li>Staff</li></ul>"
        "<div popover='auto'>Sign in</div><div data-popover='x'>Kept.</div>"
    )
    assert " ".join(root.text_content().split()) == f"{story.strip()} Kept."


def test_controls_and_labelled_controls_go_together_with_the_chrome() -> None:
    story = "A story long enough to be the page. " * 10
    root = _without_chrome(
        f"<nav>menu <button>Open</button></nav><form><label><p>{story}</p></label>"
        "<select><option>Choose one</option></select><svg><text>icon</text></svg></form>"
    )
    assert not root.xpath("//nav | //form | //label | //select | //svg | //button")
    assert root.text_content() == story


def test_skip_links_to_the_page_landmarks_go_links_to_sections_stay() -> None:
    # Wikipedia's "Jump to navigation / Jump to search" led the reader view; a
    # shopping guide's "Jump to Review" leads to a section of its own and stays.
    root = _without_chrome(
        '<a href="#content">Skip to main content</a><div id="siteSub">'
        '<a class="mw-jump-link" href="#mw-head">Jump to navigation</a> '
        '<a href=" #p-search">Jump to search</a> tail</div>'
        '<p>Story <a href="#review-1">Jump to Review</a> and '
        '<a href="/skip">Skip to content</a> end.</p>'
    )
    assert " ".join(" ".join(root.itertext()).split()) == (
        "tail Story Jump to Review and Skip to content end."
    )


def test_a_shops_skip_links_to_its_parts_go() -> None:
    # wcxb-dev 0591, 0647, 2951: Shopify's skip links name the product's parts.
    root = _without_chrome(
        '<a href="#ProductInfo-1">Skip to product information</a>'
        '<a href="#product-grid">Skip to product list</a>'
        '<a href="#results">Skip to search results</a>'
        '<p>Story <a href="#chunk-4">Skip to Chunk 4 without Chunk 2</a> end.</p>'
    )
    assert " ".join(" ".join(root.itertext()).split()) == (
        "Story Skip to Chunk 4 without Chunk 2 end."
    )


def test_a_bar_of_skip_links_goes_whole_a_table_of_contents_stays() -> None:
    # readability-even wikipedia: "Jump to: navigation, search" opened the reader view,
    # its links naming the landmarks after a "Jump to:" of the bar's own.
    root = _without_chrome(
        '<div id="jump-to-nav">Jump to: <a href="#mw-head">navigation</a>, '
        '<a href="#p-search">search</a></div>'
        '<div class="toc">Jump to: <a href="#history">History</a>, '
        '<a href="#reception">Reception</a></div><p>Story.</p>'
    )
    assert " ".join(" ".join(root.itertext()).split()) == (
        "Jump to: History , Reception Story."
    )


def _text_after_chrome(body: str) -> str:
    """Return a page body's text, spaces collapsed, once its chrome is dropped."""
    return " ".join(" ".join(_without_chrome(body).itertext()).split())


def test_a_button_that_is_its_headings_whole_text_stays_as_text() -> None:
    # WAI-ARIA's accordion: the question is the button inside the heading.
    page = (
        '<h3><button aria-expanded="false">Who is it for?</button></h3><div>Editors.</div>'
        '<p role="heading" aria-level="3"><button><span>How long?</span>'
        '<span aria-hidden="true"></span></button></p><div>Twelve weeks.</div>'
    )
    assert _text_after_chrome(page) == "Who is it for? Editors. How long? Twelve weeks."


def test_a_button_beside_a_headings_text_or_opening_an_empty_panel_goes() -> None:
    page = (
        "<h2>Outcomes <button>Copy link</button></h2><p>Jobs.</p>"
        '<h3><button aria-controls="a3">Is there a scholarship?</button></h3><div id="a3"></div>'
        '<h3><button aria-controls="a4">Where?</button></h3><div id="a4">Online.</div>'
    )
    assert _text_after_chrome(page) == "Outcomes Jobs. Where? Online."


_STORY = "<p>" + "The story's own paragraph, long enough to be the article. " * 12 + "</p>"


def _text_after(body: str, *, signup_max_chars: int = 400) -> str:
    root = lxml.html.document_fromstring(f"<body>{body}</body>")
    drop_chrome(root, max_share=0.5, signup_max_chars=signup_max_chars)
    return " ".join(" ".join(root.itertext()).split())


def test_a_sign_up_box_inside_the_article_goes_whole() -> None:
    # wcxb-dev 0477: an SMS deals box between a story's paragraphs kept its pitch,
    # its line twice and its small print.
    box = (
        "<div class='deals'><div>Be the first to know!</div><p>Get deals texted to you!</p>"
        "<form><input type='tel' x-model='phone'><button>Sign Me Up</button></form>"
        "<div>By signing up, you agree to receive recurring messages.</div></div>"
    )
    text = _text_after(f"<article><h1>Title</h1>{_STORY}{box}{_STORY}</article>")
    assert "first to know" not in text and "By signing up" not in text
    assert text.count("The story's own paragraph") == 24
    assert "Be the first to know!" in _text_after(
        f"<article><h1>Title</h1>{_STORY}{box}{_STORY}</article>", signup_max_chars=0
    )


def test_a_quantity_field_or_a_search_is_no_sign_up() -> None:
    # wcxb-dev 0605: a shop's order form has a "tel" field for the quantity.
    order = "<div><p>Colour: Cocoa, Indigo</p><form><input type='tel' name='qty[]'></form></div>"
    search = "<div><p>Find a recipe</p><form><input type='search' name='q'></form></div>"
    text = _text_after(f"<article><h1>Title</h1>{_STORY}{order}{search}</article>")
    assert "Colour: Cocoa, Indigo" in text and "Find a recipe" in text


def test_a_sign_up_box_stops_short_of_the_headline_and_of_long_text() -> None:
    form = "<form><input type='email'></form>"
    small_page = f"<section><h1>Packaging design</h1><p>Get a free audit</p>{form}</section>"
    assert "Packaging design" in _text_after(small_page)
    beside = f"<div>{_STORY}<div><p>Subscribe to the newsletter</p>{form}</div></div>"
    text = _text_after(f"<article><h1>Title</h1>{beside}</article>")
    assert "The story's own paragraph" in text and "Subscribe" not in text


def test_many_forms_under_one_container_each_get_their_own_box() -> None:
    # The forms share their ancestors, each measured once; none of them is a box.
    form = "<div class='box'><p>Sign up</p><form><input type='email'></form></div>"
    root = lxml.html.document_fromstring(
        f"<body><div id='page'><h2>Posts</h2>{(_STORY + form) * 50}</div></body>"
    )
    boxes = signup_boxes(root, max_chars=400)
    assert len(boxes) == 50 and {box.get("class") for box in boxes} == {"box"}


def test_a_sign_ups_small_print_beside_its_box_goes_with_it() -> None:
    # wcxb-dev 4620: the box stops below a container of too much text, and its small
    # print ("By submitting my email address ...") sits beside it in the next row.
    pitch = "<div><h3>Enter your email to unlock $25 off</h3><form><input type='email'></form>"
    pitch += "</div>"
    terms = "<div><h6>By submitting my email address I agree to the Terms of Use.</h6></div>"
    other = "<div><p>Offers can be withdrawn at any time.</p></div>"
    root = lxml.html.document_fromstring(
        f"<body><article><h1>Title</h1><div>{pitch}{terms}{other}{_STORY}</div></article></body>"
    )
    boxes = signup_boxes(root, max_chars=400)
    assert [box.findtext("h3") or box.findtext("h6") for box in boxes] == [
        "Enter your email to unlock $25 off",
        "By submitting my email address I agree to the Terms of Use.",
    ]
