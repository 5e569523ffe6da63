"""The pipeline's own steps: the base URL, the not-HTML checks, the skips."""

from __future__ import annotations

from dataclasses import fields, replace

import lxml.html

from addon.core import Article, Skip, extract, params_for
from addon.core.extract import base_of, flatten_params, furniture_words, why_not_html
from addon.core.output.content import word_count

PAGE = (
    "<html><head>{head}</head>"
    "<body><article><h1>Title</h1><p>{text}</p>{more}</article></body></html>"
)


def test_base_href_resolves_against_the_page_url() -> None:
    assert base_of("http://ex.com/a/b.html", "/c/") == "http://ex.com/c/"
    assert base_of("http://ex.com/a/b.html", None) == "http://ex.com/a/b.html"


def test_a_base_href_with_control_characters_is_ignored() -> None:
    assert base_of("http://ex.com/a/b.html", "http://x\x01y/") == "http://ex.com/a/b.html"


def test_images_resolve_against_the_page_when_the_base_is_broken() -> None:
    page = PAGE.format(
        head='<base href="http://x\x01y/">', text="word " * 100, more='<img src="i.png">'
    )
    result = extract(page, url="http://ex.com/a/b.html")
    assert isinstance(result, Article)
    assert 'src="http://ex.com/a/i.png"' in result.html


def test_binary_and_markupless_bodies_are_not_html() -> None:
    assert why_not_html("\x00\x01\x02" * 100) == "not HTML: binary data"
    assert why_not_html("just words") == "not HTML: no markup"
    # Given the page's head only, whether the page holds markup is told.
    assert why_not_html("just words", has_markup=True) == ""
    assert why_not_html("<p>words", has_markup=False) == "not HTML: no markup"
    assert isinstance(extract(b"words " * 1000 + b"<p>markup at the end</p>"), Article)
    assert extract(b"words " * 1000 + b"and no markup") == Skip("not HTML: no markup")
    assert why_not_html("  ") == "empty page: no text"
    assert why_not_html("<p>hi</p>") == ""


def test_too_large_pages_are_skipped() -> None:
    small = replace(params_for(), max_bytes=100)
    big = extract(b"<p>" + b"x" * 200 + b"</p>", params=small)
    assert isinstance(big, Skip) and big.reason == "too large: 207 bytes (limit 100)"
    assert isinstance(extract(b"<p>" + b"x" * 200 + b"</p>"), Article)


def test_the_diagnostics_list_every_parameter_as_a_string() -> None:
    result = extract(PAGE.format(head="", text="word " * 100, more=""))
    assert isinstance(result, Article)
    flat = result.diagnostics.params
    assert flat["algorithm"] == "addanag-plus"
    assert flat["danag.filter"] == "3"
    assert flat["danag.max_attribute_chars"] == "20"
    assert flat["title.prefer_headings"] == "True"
    assert flat["extend.min_main_share"] == str(params_for().extend.min_main_share)
    assert len(flat) == 1 + sum(
        len(fields(group))
        for group in (params_for().danag, params_for().title, params_for().extend)
    )
    # Counted once for the article and the reader check: the headline is not in the text.
    assert result.word_count == word_count(result.text) == 100


def test_the_diagnostics_show_parameters_changed_from_their_named_variant() -> None:
    named = params_for()
    changed = replace(named, danag=replace(named.danag, gap=7))
    page = PAGE.format(head="", text="word " * 100, more="")
    results = [
        extract(page, params=params) for params in (named, changed, params_for("addanag-paper"))
    ]
    assert all(isinstance(result, Article) for result in results)
    flats = [result.diagnostics.params for result in results if isinstance(result, Article)]
    assert flats[0] == flatten_params(named) and flats[0]["danag.gap"] == str(named.danag.gap)
    assert flats[1] == flatten_params(changed) and flats[1]["danag.gap"] == "7"
    assert flats[2] == flatten_params(params_for("addanag-paper"))
    assert flats[2]["algorithm"] == "addanag-paper"
    # Each article has its own copy: changing one changes no other.
    flats[0]["danag.gap"] = "changed"
    assert extract(page).diagnostics.params["danag.gap"] == str(named.danag.gap)  # type: ignore[union-attr]


def test_comments_are_furniture_unless_the_page_is_a_discussion() -> None:
    extend = params_for().extend
    post = "<p>" + "One reply in a long discussion about the topic. " * 4 + "</p>"
    thread = lxml.html.document_fromstring(
        f"<html><body><h1>Topic</h1><div id='comments'>{post * 3}</div></body></html>"
    )
    article = lxml.html.document_fromstring(
        f"<html><body><h1>Title</h1>{post * 5}<div id='comments'>{post}</div></body></html>"
    )
    assert furniture_words(thread, extend) == extend.boilerplate_words
    assert furniture_words(article, extend).endswith(f"|{extend.comment_words}")
    paper = params_for("addanag-paper").extend
    assert furniture_words(article, paper) == ""
    thread_text = extract(lxml.html.tostring(thread, encoding="unicode"))
    assert isinstance(thread_text, Article)
    assert "One reply" in thread_text.text


def test_the_default_variant_drops_footer_divs_and_the_paper_variant_keeps_them() -> None:
    story = "<p>" + "A paragraph of the story itself, told at some length. " * 8 + "</p>"
    html = (
        f"<html><body><article><h1>Title</h1>{story}{story}</article>"
        "<div class='footer'><p>Copyright 2026 The Site. All rights reserved.</p></div>"
        "</body></html>"
    )
    plus = extract(html)
    assert isinstance(plus, Article)
    assert "Copyright" not in plus.text
    assert params_for("addanag-paper").extend.footer_words == ""


def test_a_page_holding_only_a_consent_banner_is_skipped() -> None:
    banner = "<p>We and our partners use cookies to measure and personalise. </p>" * 10
    page = f"<body><div id='app'></div><div id='onetrust-consent-sdk'>{banner}</div></body>"
    result = extract(page)
    assert isinstance(result, Skip) and "cookie-consent banner" in result.reason
    # The paper variant knows no banners: it outputs the banner as the article.
    assert isinstance(extract(page, params=params_for("addanag-paper")), Article)


def test_a_consent_banner_beside_the_story_is_left_out() -> None:
    story = "<p>The fern needs repotting every two years, in spring.</p>" * 5
    banner = "<p>We and our partners use cookies to measure and personalise.</p>" * 20
    result = extract(
        f"<html><body><main><h1>Ferns</h1>{story}</main>"
        f"<div class='cookie-notice'>{banner}</div></body></html>"
    )
    assert isinstance(result, Article)
    assert "repotting" in result.text and "cookies" not in result.text


def _thread(ld_type: str) -> str:
    """Return a forum thread of sixteen short posts whose JSON-LD names it `ld_type`."""
    posts = "".join(
        f"<article class='post'><div class='post-meta'><span>Poster {n}</span> "
        f"<time>March {n + 1}, 2025</time></div><p>Reply number {n} says that the hanger "
        f"was bent and that a new one fixed the clicking noise in gear {n}.</p></article>"
        for n in range(16)
    )
    ld = f'{{"@context": "https://schema.org", "@type": "{ld_type}", "headline": "Noise"}}'
    return (
        f"<html><head><title>Noise</title><script type='application/ld+json'>{ld}</script>"
        f"</head><body><main><h1>Clicking noise in the lower gears</h1>{posts}</main></body></html>"
    )


def test_a_thread_declared_by_microdata_inside_its_content_is_readerable() -> None:
    # The blocks are taken out of the page when built: the declaration on the
    # first post, one of them, must be read before.
    posts = "".join(
        f"<p{' itemscope itemtype=https://schema.org/DiscussionForumPosting' * (n == 0)}>"
        f"Reply number {n} says that the hanger was bent and that a new one fixed the"
        f" clicking noise in gear {n}.</p>"
        for n in range(16)
    )
    page = (
        "<html><head><title>Noise</title></head><body><main>"
        f"<h1>Clicking noise in the lower gears</h1>{posts}</main></body></html>"
    )
    for itemtype, expected in (("DiscussionForumPosting", True), ("ItemList", False)):
        article = extract(page.replace("DiscussionForumPosting", itemtype))
        assert isinstance(article, Article)
        assert "gear 15" in article.text
        assert article.readerable is expected


def test_a_declared_thread_of_short_posts_is_readerable() -> None:
    # Each post is under 140 characters: no paragraph of an article's check.
    declared, plain = _thread("DiscussionForumPosting"), _thread("WebPage")
    for page, expected in ((declared, True), (plain, False)):
        article = extract(page)
        assert isinstance(article, Article)
        assert all(len(b.text) < 140 for b in article.blocks)
        assert article.readerable is expected
    paper = extract(declared, params=params_for("addanag-paper"))
    assert isinstance(paper, Article)
    assert not paper.readerable
