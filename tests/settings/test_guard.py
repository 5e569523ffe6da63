"""Tests for the secret token and the checks on state-changing POSTs."""

from __future__ import annotations

from pathlib import Path

import pytest

from addon.settings.guard import (
    SecretError,
    load_or_create_secret,
    origin_of,
    refuse_settings_post,
    refuse_toggle_post,
    site_token,
)

SECRET = "s" * 43


def test_the_secret_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "new" / "secret-token"
    first = load_or_create_secret(path)
    assert len(first) >= 32
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_or_create_secret(path) == first
    assert load_or_create_secret(tmp_path / "other") != first


@pytest.mark.parametrize("content", [b"short\n", b"\xff\xfe" * 30])
def test_an_unusable_secret_file_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "secret-token"
    path.write_bytes(content)
    with pytest.raises(SecretError, match="secret-token"):
        load_or_create_secret(path)


def test_site_tokens_differ_per_host_and_ignore_case() -> None:
    assert site_token(SECRET, "News.Example") == site_token(SECRET, "news.example")
    assert site_token(SECRET, "news.example") != site_token(SECRET, "other.example")
    assert site_token(SECRET, "news.example") != site_token("t" * 43, "news.example")
    assert SECRET not in site_token(SECRET, "news.example")


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://News.example/a?b#c", "https://news.example"),
        ("https://news.example:443/", "https://news.example"),
        ("http://news.example:8080/x", "http://news.example:8080"),
        ("ftp://news.example/", ""),
        ("javascript:alert(1)", ""),
        ("/relative", ""),
        ("http://news.example:99999/", ""),
    ],
)
def test_origin_of(url: str, origin: str) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize(
    ("token", "origin", "site", "refused"),
    [
        (SECRET, "http://plainview.proxy", "same-origin", ""),
        (SECRET, "https://plainview.proxy", None, ""),
        (SECRET, None, None, ""),
        ("", "http://plainview.proxy", "same-origin", "token"),
        ("x" * 43, None, None, "token"),
        (SECRET, "https://evil.example", None, "another origin"),
        (SECRET, "null", None, "another origin"),
        (SECRET, None, "cross-site", "another site"),
        (SECRET, None, "same-site", "another site"),
    ],
)
def test_settings_posts(token: str, origin: str | None, site: str | None, refused: str) -> None:
    reason = refuse_settings_post(token, SECRET, origin, site)
    assert (refused in reason) if refused else reason == ""


URL = "https://news.example/story"


@pytest.mark.parametrize(
    ("token", "origin", "url", "refused"),
    [
        (site_token(SECRET, "news.example"), "https://news.example", URL, ""),
        # Issue 29 (3): any page can send Origin: null.
        (site_token(SECRET, "news.example"), "null", URL, "another origin"),
        (site_token(SECRET, "news.example"), None, URL, ""),
        (site_token(SECRET, "news.example"), "https://plainview.proxy", URL, ""),
        (SECRET, "http://plainview.proxy", URL, ""),
        ("", "https://news.example", URL, "token"),
        (site_token(SECRET, "other.example"), "https://news.example", URL, "token"),
        (site_token(SECRET, "news.example"), "https://evil.example", URL, "another origin"),
        (site_token(SECRET, "news.example"), "http://news.example", URL, "another origin"),
        (site_token(SECRET, "news.example"), None, "javascript:alert(1)", "not an http"),
    ],
)
def test_toggle_posts(token: str, origin: str | None, url: str, refused: str) -> None:
    reason = refuse_toggle_post(token, SECRET, origin, url)
    assert (refused in reason) if refused else reason == ""
