"""Tests for the per-page switch: one-time markers in the URL and their passes."""

from __future__ import annotations

import pytest
from hand_clock import Clock

from addon.proxy.page_switch import OneTimePasses, strip_marker, with_marker


@pytest.mark.parametrize(
    ("path", "stripped", "mode"),
    [
        ("/a?plainview=original", "/a", "original"),
        ("/a?x=1&plainview=original", "/a?x=1", "original"),
        ("/a?plainview=original&x=%20+1", "/a?x=%20+1", "original"),
        ("/a?x=1&plainview=original&y=2", "/a?x=1&y=2", "original"),
        ("/a?plainview=reader", "/a", "reader"),
        ("/a?x=%20+1&plainview=reader#never-sent", "/a?x=%20+1#never-sent", "reader"),
        ("/a?x=1", "/a?x=1", ""),
        ("/a", "/a", ""),
        ("/a?plainview=originals", "/a?plainview=originals", ""),
        ("/a?myplainview=original", "/a?myplainview=original", ""),
        ("/a?plainview=auto", "/a?plainview=auto", ""),
    ],
)
def test_strip_marker_keeps_everything_else(path: str, stripped: str, mode: str) -> None:
    assert strip_marker(path) == (stripped, mode)


def test_both_markers_go_and_the_last_one_says_the_mode() -> None:
    assert strip_marker("/a?plainview=original&plainview=reader") == ("/a", "reader")


@pytest.mark.parametrize(
    ("url", "marked"),
    [
        ("https://a.example/p", "https://a.example/p?plainview=original"),
        ("https://a.example/p?x=1", "https://a.example/p?x=1&plainview=original"),
        ("https://a.example/p?x=1#top", "https://a.example/p?x=1&plainview=original#top"),
        ("https://a.example/p?", "https://a.example/p?plainview=original"),
    ],
)
def test_with_marker(url: str, marked: str) -> None:
    assert with_marker(url) == marked
    path = marked.split("a.example", 1)[1].split("#", maxsplit=1)[0]
    assert strip_marker(path)[1] == "original"
    reader = with_marker(url, "reader")
    assert reader == marked.replace("plainview=original", "plainview=reader")


def test_a_pass_works_once_with_its_mode() -> None:
    passes = OneTimePasses(clock=Clock())
    passes.allow("https://a.example/p", "original")
    passes.allow("https://a.example/q", "reader")
    assert passes.take("https://a.example/other") == ""
    assert passes.take("https://a.example/p") == "original"
    assert passes.take("https://a.example/p") == ""
    assert passes.take("https://a.example/q") == "reader"


def test_a_later_pass_for_the_same_url_replaces_the_earlier() -> None:
    passes = OneTimePasses(clock=Clock())
    passes.allow("https://a.example/p", "original")
    passes.allow("https://a.example/p", "reader")
    assert passes.take("https://a.example/p") == "reader"


def test_a_pass_expires() -> None:
    clock = Clock()
    passes = OneTimePasses(ttl=30.0, clock=clock)
    passes.allow("https://a.example/p", "original")
    clock.now += 31
    assert passes.take("https://a.example/p") == ""


def test_passes_are_bounded_oldest_out() -> None:
    passes = OneTimePasses(size=2, clock=Clock())
    for name in ("a", "b", "c"):
        passes.allow(f"https://{name}.example/", "original")
    assert passes.take("https://a.example/") == ""
    assert passes.take("https://b.example/") == "original"
    assert passes.take("https://c.example/") == "original"
