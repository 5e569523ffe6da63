"""Tests for addon.core.output.urls."""

from __future__ import annotations

from addon.core.output.urls import LINK_SCHEMES, UrlBase


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
