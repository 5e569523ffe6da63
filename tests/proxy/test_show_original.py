"""Tests for the show-original marker and its one-time passes."""

from __future__ import annotations

import pytest

from addon.proxy.show_original import ShowOriginal, strip_marker, with_marker


@pytest.mark.parametrize(
    ("path", "stripped", "found"),
    [
        ("/a?plainview=original", "/a", True),
        ("/a?x=1&plainview=original", "/a?x=1", True),
        ("/a?plainview=original&x=%20+1", "/a?x=%20+1", True),
        ("/a?x=1&plainview=original&y=2", "/a?x=1&y=2", True),
        ("/a?x=1", "/a?x=1", False),
        ("/a", "/a", False),
        ("/a?plainview=originals", "/a?plainview=originals", False),
        ("/a?myplainview=original", "/a?myplainview=original", False),
    ],
)
def test_strip_marker_keeps_everything_else(path: str, stripped: str, found: bool) -> None:
    assert strip_marker(path) == (stripped, found)


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
    assert strip_marker(path)[1] is True


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_pass_works_once() -> None:
    passes = ShowOriginal(clock=Clock())
    passes.allow("https://a.example/p")
    assert passes.take("https://a.example/other") is False
    assert passes.take("https://a.example/p") is True
    assert passes.take("https://a.example/p") is False


def test_a_pass_expires() -> None:
    clock = Clock()
    passes = ShowOriginal(ttl=30.0, clock=clock)
    passes.allow("https://a.example/p")
    clock.now += 31
    assert passes.take("https://a.example/p") is False


def test_passes_are_bounded_oldest_out() -> None:
    passes = ShowOriginal(size=2, clock=Clock())
    for name in ("a", "b", "c"):
        passes.allow(f"https://{name}.example/")
    assert passes.take("https://a.example/") is False
    assert passes.take("https://b.example/") is True
    assert passes.take("https://c.example/") is True
