"""Tests for the frames of pages that went out as they came."""

from __future__ import annotations

import gzip
import zlib

import pytest
from hand_clock import Clock

from addon.proxy.frames import CARRY_BYTES, BodyText, Frames, FrameScan, address

PAGE = "http://news.example/story.html"


def scan(frames: Frames, body: bytes, coding: str = "", limit: int = 1 << 20) -> None:
    """Run a body through a FrameScan in pieces of 7 bytes, as mitmproxy streams it."""
    scanner = FrameScan(frames, PAGE, coding, limit)
    for start in range(0, len(body), 7):
        piece = body[start : start + 7]
        assert scanner(piece) is piece
    assert scanner(b"") == b""


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://Host.Example:80/a#top", "http://host.example/a"),
        ("http://host.example:8080", "http://host.example:8080/"),
        ("http://host.example/caf\u00e9?q=\u00e9 1", "http://host.example/caf%C3%A9?q=%C3%A9%201"),
        ("http://host.example/a%20b?x=1&y=2", "http://host.example/a%20b?x=1&y=2"),
    ],
)
def test_address_is_what_the_request_names(url: str, expected: str) -> None:
    assert address(url) == expected


def test_a_frame_is_held_for_the_sites_that_embed_it() -> None:
    frames = Frames()
    frames.add(PAGE, "/embed/video.html")
    frames.add(PAGE, "http://player.example/v/1")
    assert frames.holds("http://news.example/embed/video.html", PAGE)
    assert frames.holds("http://player.example/v/1", "http://news.example/")  # origin only
    # No Referer: the user's own visit (typed, a bookmark), a page load.
    assert not frames.holds("http://player.example/v/1", None)
    # The same address, asked for from a page of another site: a link, a page load.
    assert not frames.holds("http://player.example/v/1", "http://other.example/list")
    assert not frames.holds("http://player.example/v/2", PAGE)


def test_https_frames_are_not_held() -> None:
    # An https frame's request carries Sec-Fetch-Dest: the header decides.
    frames = Frames()
    frames.add(PAGE, "https://player.example/v/1")
    frames.add(PAGE, "javascript:void(0)")
    frames.add(PAGE, "about:blank")
    assert frames.embeds == {}


def test_frames_are_forgotten_after_their_time_and_past_the_size() -> None:
    clock = Clock()
    frames = Frames(size=2, seconds=60.0, clock=clock)
    frames.add(PAGE, "/a")
    frames.add(PAGE, "/b")
    clock.now += 59.0
    assert frames.holds("http://news.example/a", PAGE)
    clock.now += 2.0
    assert not frames.holds("http://news.example/a", PAGE)
    frames.add(PAGE, "/c")
    assert list(frames.embeds) == ["http://news.example/b", "http://news.example/c"]


def test_the_scan_finds_every_frame_src_form() -> None:
    frames = Frames()
    body = (
        b"<p>text</p><iframe src='/one.html'></iframe>"
        b'<IFRAME width=1 SRC="/two.html?a=1&amp;b=2"></IFRAME>'
        b"<frameset><frame name=x src=/three.html></frameset>"
        b"<iframe loading=lazy data-src=/four.html></iframe>"
        b"<iframe srcdoc='<p>x</p>'></iframe><img src=/not-a-frame.html>"
    )
    scan(frames, body)
    assert sorted(frames.embeds) == [
        "http://news.example/four.html",
        "http://news.example/one.html",
        "http://news.example/three.html",
        "http://news.example/two.html?a=1&b=2",
    ]


def test_the_scan_reads_gzip_and_deflate_bodies() -> None:
    page = b"<html>" + b"<p>filler</p>" * 5000 + b"<iframe src=/deep.html></iframe>"
    for coding, body in (("gzip", gzip.compress(page)), ("deflate", zlib.compress(page))):
        frames = Frames()
        scan(frames, body, coding)
        assert list(frames.embeds) == ["http://news.example/deep.html"], coding


def test_a_tag_cut_between_two_pieces_is_found() -> None:
    frames = Frames()
    scanner = FrameScan(frames, PAGE, "", 1 << 20)
    scanner(b"x" * 10_000 + b"<ifr")
    scanner(b"ame class=video src=/cut.html></iframe>")
    assert list(frames.embeds) == ["http://news.example/cut.html"]
    assert len(scanner.carry) <= CARRY_BYTES


def test_a_compression_bomb_is_read_only_up_to_the_limit() -> None:
    bomb = gzip.compress(b"\0" * (64 << 20) + b"<iframe src=/late.html>")
    text = BodyText("gzip", 1 << 20)
    assert sum(len(piece) for piece in text.feed(bomb)) == 1 << 20
    assert list(text.feed(bomb)) == []
    frames = Frames()
    scan(frames, bomb, "gzip", limit=1 << 20)
    assert frames.embeds == {}


def test_an_unread_coding_or_a_broken_body_passes_unread() -> None:
    frames = Frames()
    scan(frames, b"<iframe src=/x.html>", "br")
    scan(frames, b"not gzip at all <iframe src=/y.html>", "gzip")
    assert frames.embeds == {}
