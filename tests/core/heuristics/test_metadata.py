"""Tests for addon.core.heuristics.metadata on hand-written pages and real wcxb-dev pages."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import lxml.html
import pytest

from addon.core.heuristics.metadata import (
    Declared,
    PageMeta,
    collapse,
    content_ancestry,
    declared_lang,
    declares_article,
    declares_discussion,
    iso_date,
    normalise_lang,
    read_metadata,
)

SHARED = Path(__file__).resolve().parents[4] / "shared"
WCXB = SHARED / "datasets" / "wcxb-dev"


def _meta(html: str, **limits: int) -> PageMeta:
    return read_metadata(lxml.html.document_fromstring(html), **limits)


def _ld(*objects: object) -> str:
    return "".join(
        f'<script type="application/ld+json">{json.dumps(obj)}</script>' for obj in objects
    )


# --- title, og:title, description, base ---


def test_empty_page() -> None:
    assert _meta("<p>text</p>") == PageMeta(
        title="",
        og_title=None,
        ld_headline=None,
        og_url=None,
        byline=None,
        published=None,
        site_name=None,
        description=None,
        lang=None,
        dir=None,
        base_href=None,
    )


def test_title_collapses_whitespace_and_skips_svg_titles() -> None:
    html = (
        "<html><head><title>\n  Rain   due\ttoday | Gazette </title></head>"
        "<body><svg><title>icon</title></svg></body></html>"
    )
    assert _meta(html).title == "Rain due today | Gazette"
    assert _meta("<body><svg><title>icon</title></svg><p>x</p></body>").title == ""


def test_open_graph_and_description() -> None:
    meta = _meta(
        '<head><meta property="og:title" content=" Rain due  today ">'
        '<meta property="og:description" content="OG text">'
        '<meta name="description" content="Plain text">'
        '<meta property="og:url" content=" https://example.org/rain "></head>'
    )
    assert meta.og_title == "Rain due today"
    assert meta.og_url == "https://example.org/rain"
    assert meta.description == "Plain text"
    assert _meta('<meta name="twitter:description" content="T">').description == "T"


def test_base_href() -> None:
    html = '<head><base target="_top"><base href=" https://example.org/a/ "></head>'
    assert _meta(html).base_href == "https://example.org/a/"
    assert _meta('<base href="">').base_href is None


# --- JSON-LD ---


def test_ld_headline_prefers_article_over_webpage() -> None:
    html = _ld(
        {
            "@context": "https://schema.org",
            "@graph": [
                {"@type": "WebPage", "name": "Rain due today - Gazette"},
                {"@type": ["NewsArticle"], "headline": "Rain due today"},
            ],
        }
    )
    assert _meta(html).ld_headline == "Rain due today"


def test_ld_headline_falls_back_to_webpage_name() -> None:
    html = _ld({"@type": "http://schema.org/WebPage", "name": "About us"})
    assert _meta(html).ld_headline == "About us"


def test_ld_author_list_and_html_escapes() -> None:
    html = _ld(
        {
            "@type": "BlogPosting",
            "author": [
                {"@type": "Person", "name": "Maria &amp; Katerina"},
                "Sam Patel",
                {"@type": "Person", "name": "Sam Patel"},
            ],
        }
    )
    assert _meta(html).byline == "Maria & Katerina, Sam Patel"


def test_ld_author_reference_into_graph() -> None:
    html = _ld(
        {
            "@graph": [
                {"@type": "Article", "author": {"@id": "#kim"}, "headline": "H"},
                {"@type": "Person", "@id": "#kim", "name": "Jo Kim"},
            ]
        }
    )
    assert _meta(html).byline == "Jo Kim"


def test_ld_reference_cycle_ends() -> None:
    html = _ld({"@type": "Article", "@id": "#a", "author": {"@id": "#a"}})
    assert _meta(html).byline is None


def test_invalid_json_ld_is_ignored() -> None:
    html = (
        '<script type="application/ld+json">{"@type": "Article", "headline": </script>'
        '<script type="application/ld+json">'
        + "[" * 100_000
        + "]" * 100_000
        + "</script>"
        + _ld({"@type": "Article", "headline": "Valid one"})
    )
    assert _meta(html).ld_headline == "Valid one"


def test_json_ld_in_comment_with_control_characters() -> None:
    html = (
        '<script type="application/ld+json">\n<!--\n'
        '{"@type": "Article", "headline": "Line\none"};\n-->\n</script>'
    )
    assert _meta(html).ld_headline == "Line one"


def test_oversized_json_ld_is_skipped() -> None:
    html = _ld({"@type": "Article", "headline": "Big", "pad": "x" * 500})
    assert _meta(html).ld_headline == "Big"
    assert _meta(html, max_ld_json_chars=100).ld_headline is None


def test_other_script_types_are_not_json_ld() -> None:
    html = '<script type="application/json">{"@type": "Article", "headline": "No"}</script>'
    assert _meta(html).ld_headline is None


# --- byline ---


def test_byline_from_meta_author_strips_by() -> None:
    assert _meta('<meta name="author" content="By Jane Doe">').byline == "Jane Doe"


def test_article_author_url_is_not_a_byline() -> None:
    html = (
        '<meta property="article:author" content="https://www.facebook.com/Gazette/">'
        '<meta name="sailthru.author" content="The Gazette Team">'
    )
    assert _meta(html).byline == "The Gazette Team"


def test_article_author_numeric_id_is_not_a_byline() -> None:
    # wcxb-dev 0404: Facebook's profile id in article:author, shown as the byline.
    html = '<meta property="article:author" content="262588213843476">'
    assert _meta(html).byline is None
    assert _meta('<meta name="author" content="Agent 47">').byline == "Agent 47"


def test_byline_from_rel_author() -> None:
    html = '<p>Posted by <a rel="nofollow author" href="/u/1">Ann Lee</a></p>'
    assert _meta(html).byline == "Ann Lee"


def test_byline_from_itemprop_author_name() -> None:
    html = (
        '<div itemprop="author" itemscope><img src="a.png">'
        '<span itemprop="name"> Bo  Chen </span><span>Staff writer</span></div>'
        '<div itemprop="author"><span itemprop="name">Second Poster</span></div>'
    )
    assert _meta(html).byline == "Bo Chen"


def test_too_long_byline_is_rejected() -> None:
    html = f'<meta name="author" content="{"word " * 60}">'
    assert _meta(html).byline is None


# --- published ---


def test_published_prefers_article_published_time() -> None:
    html = '<meta property="article:published_time" content="2024-03-01T09:30:00+0100">' + _ld(
        {"@type": "Article", "datePublished": "2020-01-01"}
    )
    assert _meta(html).published == "2024-03-01T09:30:00+01:00"


def test_published_from_json_ld() -> None:
    html = _ld({"@type": "NewsArticle", "datePublished": "2023-11-05T07:00Z"})
    assert _meta(html).published == "2023-11-05T07:00:00Z"


def test_published_from_header_time() -> None:
    html = (
        '<header><h1>H</h1><time datetime="2022-02-28">28 Feb</time></header>'
        '<p>Event on <time datetime="2030-01-01">New Year</time></p>'
    )
    assert _meta(html).published == "2022-02-28"


def test_published_from_itemprop() -> None:
    html = '<p>Posted <span itemprop="datePublished" content="2021/04/21">21 April</span></p>'
    assert _meta(html).published == "2021-04-21"


def test_unparseable_dates_are_skipped() -> None:
    html = (
        '<meta property="article:published_time" content="yesterday">'
        '<meta name="date" content="2019-02-30">'
        '<meta name="dc.date" content="2019-02-28">'
    )
    assert _meta(html).published == "2019-02-28"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-09-04", "2025-09-04"),
        (" 2025-09-04T12:50:36+00:00 ", "2025-09-04T12:50:36+00:00"),
        ("2025-09-04 12:50", "2025-09-04T12:50:00"),
        ("2025-09-04T12:50:36.123Z", "2025-09-04T12:50:36Z"),
        ("2025/09/04", "2025-09-04"),
        ("2025-09-04T25:00:00", "2025-09-04"),
        ("2024-02-29", "2024-02-29"),
        ("2023-02-29", None),
        ("2025-13-01", None),
        ("0000-00-00", None),
        ("0001-01-01T00:00:00", None),
        ("September 4, 2025", None),
        ("", None),
    ],
)
def test_iso_date(value: str, expected: str | None) -> None:
    assert iso_date(value) == expected


# --- site name, language, direction ---


def test_site_name_sources_in_order() -> None:
    publisher = _ld({"@type": "Article", "publisher": {"@type": "Organization", "name": "Pub"}})
    app = '<meta name="application-name" content="App">'
    assert _meta('<meta property="og:site_name" content="OG">' + publisher).site_name == "OG"
    assert _meta(publisher + app).site_name == "Pub"
    assert _meta(_ld({"@type": "WebSite", "name": "Site"}) + app).site_name == "Site"
    assert _meta(app).site_name == "App"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("en", "en"),
        ("EN-us", "en-US"),
        ("pt_br", "pt-BR"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("es-419", "es-419"),
        ("de-CH-1996", "de-CH-1996"),
        ("en-US, fr", "en-US"),
        ("{{lang}}", None),
        ("English", None),
        ("", None),
        (None, None),
    ],
)
def test_normalise_lang(value: str | None, expected: str | None) -> None:
    assert normalise_lang(value) == expected


def test_lang_sources() -> None:
    assert _meta('<html lang="PT-br"><p>x</p></html>').lang == "pt-BR"
    assert _meta('<html xml:lang="fr-ca"><p>x</p></html>').lang == "fr-CA"
    html = '<html lang=""><head><meta http-equiv="Content-Language" content="de-AT"></head></html>'
    assert _meta(html).lang == "de-AT"
    assert _meta('<meta property="og:locale" content="en_GB">').lang == "en-GB"


def test_dir_from_html_or_body() -> None:
    assert _meta('<html dir="RTL"><body><p>x</p></body></html>').dir == "rtl"
    assert _meta('<html><body dir="rtl"><p>x</p></body></html>').dir == "rtl"
    assert _meta('<html dir="auto"><body dir="ltr"><p>x</p></body></html>').dir == "ltr"
    assert _meta('<html dir="auto"><body><p dir="rtl">x</p></body></html>').dir is None


def _content(html: str) -> list[lxml.html.HtmlElement]:
    """Return the elements marked id=content in a parsed page: the chosen content."""
    return lxml.html.document_fromstring(html).xpath("//*[@id='content']")


def test_content_ancestry_is_nearest_first_and_shared_by_all_subtrees() -> None:
    one = _content('<html><body><main><div id="content">x</div></main></body></html>')
    assert [element.tag for element in content_ancestry(one)] == ["div", "main", "body", "html"]
    two = _content(
        '<html><body><main><h1 id="content">t</h1><div><p id="content">x</p></div></main></body>'
        "</html>"
    )
    assert [element.tag for element in content_ancestry(two)] == ["main", "body", "html"]
    assert content_ancestry([]) == []


def test_declared_lang_of_the_content_or_its_ancestors() -> None:
    html = '<html lang="en"><body><div lang="es-MX"><p id="content">x</p></div></body></html>'
    assert declared_lang(_content(html)) == "es-MX"
    html = '<html lang="en"><body lang="de"><p id="content" lang="fr">x</p></body></html>'
    assert declared_lang(_content(html)) == "fr"
    assert declared_lang(_content('<html xml:lang="pt-br"><p id="content">x</p></html>')) == "pt-BR"


def test_empty_or_invalid_lang_is_no_declaration() -> None:
    html = '<html lang="en-GB"><body lang=""><div lang="{{lang}}"><p id="content">x</p></div>'
    assert declared_lang(_content(html)) == "en-GB"
    assert declared_lang(_content('<html lang=""><p id="content">x</p></html>')) is None
    html = '<html><p id="content" lang="en">x</p><p lang="de">y</p></html>'
    assert declared_lang(_content(html)) == "en"
    assert declared_lang([]) is None


def test_persian_page_states_lang_but_no_dir() -> None:
    path = SHARED / "corpora" / "encodings" / "persian_utf-8_no-dir.html"
    root = lxml.html.document_fromstring(path.read_bytes().decode("utf-8"))
    meta = read_metadata(root)
    assert (meta.lang, meta.dir) == ("fa", None)
    assert meta.title.startswith("بازگشایی پل تاریخی اصفهان")


# --- real pages (wcxb-dev), compared with their ground truth ---


def _wcxb(file_id: str) -> tuple[PageMeta, dict[str, str]]:
    raw = gzip.decompress((WCXB / "html" / f"{file_id}.html.gz").read_bytes())
    root = lxml.html.document_fromstring(raw, parser=lxml.html.HTMLParser(encoding="utf-8"))
    truth = json.loads((WCXB / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
    return read_metadata(root), truth["ground_truth"]


@pytest.mark.parametrize(
    ("file_id", "site_name"),
    [
        ("0035", "Camels & Chocolate"),  # JSON-LD @graph, author by @id reference
        ("0003", None),  # JSON-LD author with degrees, JSON-LD datePublished
        ("0046", "The Motley Fool"),  # <meta name=author>, article:published_time
        ("0566", "Server Fault"),  # microdata itemprop=author, itemprop=datePublished
    ],
)
def test_wcxb_pages_match_ground_truth(file_id: str, site_name: str | None) -> None:
    meta, truth = _wcxb(file_id)
    assert meta.byline == truth["author"]
    assert meta.published is not None
    assert meta.published[:10] == truth["publish_date"]
    assert meta.site_name == site_name
    assert meta.lang is not None and meta.lang.startswith("en")
    assert meta.title.startswith(truth["title"])


def test_byline_from_the_first_author_mark_in_the_document() -> None:
    link = '<a rel="author" href="/u/1">Link Author</a>'
    microdata = '<span itemprop="author">Item Author</span>'
    assert _meta(f"<p>{link}</p><p>{microdata}</p>").byline == "Link Author"
    assert _meta(f"<p>{microdata}</p><p>{link}</p>").byline == "Item Author"
    # A <link rel=author> counts only when it also carries an itemprop.
    assert _meta('<link rel="author" href="/a"><p>x</p>').byline is None
    html = '<link rel="AUTHOR" itemprop="url" content="Meta Person"><p>x</p>'
    assert _meta(html).byline == "Meta Person"


def test_byline_marks_need_the_whole_word_author() -> None:
    html = '<a rel="coauthors" href="/u">Not Him</a><span itemprop="authorName">Nor Her</span>'
    assert _meta(html).byline is None


def test_published_from_the_first_exact_itemprop() -> None:
    html = (
        '<span itemprop="datepublished" content="2001-01-01">x</span>'
        '<span itemprop="datePublished dateModified" content="2002-02-02">y</span>'
        '<time itemprop="datePublished" datetime="2003-03-03">z</time>'
        '<span itemprop="datePublished" content="2004-04-04">w</span>'
    )
    assert _meta(html).published == "2003-03-03"


def test_json_ld_is_read_whatever_the_other_scripts_hold() -> None:
    html = (
        "<script>var page = {headline: 'Not this'};</script>"
        + _ld({"@type": "Article", "headline": "From JSON-LD"})
        + '<script type="text/javascript">{"@type": "Article", "headline": "Nor this"}</script>'
    )
    assert _meta(html).ld_headline == "From JSON-LD"


@pytest.mark.parametrize(
    "text", ["", "  a\u00a0 b\u3000c \x1c d\n", "\u2028x\u2029", "one", " \t ", "\x85"]
)
def test_collapse_joins_every_kind_of_space(text: str) -> None:
    assert collapse(text) == re.sub(r"\s+", " ", text).strip()


# --- a declared discussion thread ---


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (_ld({"@type": "DiscussionForumPosting", "headline": "Topic"}), True),
        (_ld({"@graph": [{"@type": ["WebPage", "QAPage"]}]}), True),
        (_ld({"@type": "https://schema.org/DiscussionForumPosting"}), True),
        (_ld({"@type": "NewsArticle", "headline": "News"}), False),
        ("<p>no linked data</p>", False),
    ],
)
def test_json_ld_declares_a_discussion(html: str, expected: bool) -> None:
    meta = _meta(html)
    assert meta.discussion is expected
    root = lxml.html.document_fromstring(html)
    assert declares_discussion(root, meta) is expected


@pytest.mark.parametrize(
    ("itemtype", "expected"),
    [
        ("https://schema.org/DiscussionForumPosting", True),
        ("http://schema.org/QAPage", True),
        ("https://schema.org/Comment https://schema.org/DiscussionForumPosting", True),
        # XenForo's replies, typed as comments with no type for the topic (wcxb-dev 4492)
        ("https://schema.org/Comment", True),
        ("https://schema.org/Product", False),
        ("", False),
    ],
)
def test_microdata_declares_a_discussion(itemtype: str, expected: bool) -> None:
    html = f"<div itemscope itemtype='{itemtype}'><p>A post.</p></div>"
    meta = _meta(html)
    assert not meta.discussion  # microdata is read only on request
    assert declares_discussion(lxml.html.document_fromstring(html), meta) is expected


@pytest.mark.parametrize(
    ("head", "body", "expected"),
    [
        ("", "", Declared()),
        ('<meta property="og:type" content="Article">', "", Declared(open_graph=True)),
        ('<meta property="og:type" content="website">', "", Declared()),
        (_ld({"@type": "NewsArticle", "headline": "H"}), "", Declared(schema=True)),
        (
            '<meta property="og:type" content="article">' + _ld({"@type": "BlogPosting"}),
            "",
            Declared(open_graph=True, schema=True),
        ),
        # Microdata counts beside og:type, and is read only then.
        (
            '<meta property="og:type" content="article">',
            "<div itemscope itemtype='http://schema.org/Article'><p>A step.</p></div>",
            Declared(open_graph=True, schema=True),
        ),
        ("", "<p itemscope itemtype='http://schema.org/Article'>A step.</p>", Declared()),
        (
            '<meta property="og:type" content="article">',
            "<div itemscope itemtype='https://schema.org/Product'><p>A shoe.</p></div>",
            Declared(open_graph=True),
        ),
    ],
)
def test_what_the_page_calls_itself(head: str, body: str, expected: Declared) -> None:
    html = f"<html><head>{head}</head><body>{body}<p>Text.</p></body></html>"
    meta = _meta(html)
    assert declares_article(lxml.html.document_fromstring(html), meta) == expected
