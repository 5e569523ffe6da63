"""BodyCopy: a streamed body goes on unchanged; a copy is kept up to the limit."""

from __future__ import annotations

from addon.proxy.body_copy import BodyCopy


def test_pieces_go_on_unchanged_and_the_copy_is_the_whole_body() -> None:
    copy = BodyCopy(100)
    assert [copy(b"<p>one"), copy(b" two</p>"), copy(b"")] == [b"<p>one", b" two</p>", b""]
    assert copy.body() == b"<p>one two</p>"


def test_a_body_past_the_limit_keeps_no_copy_but_still_goes_on() -> None:
    copy = BodyCopy(10)
    assert copy(b"12345") == b"12345"
    assert copy(b"678901") == b"678901"
    assert copy.body() is None
    assert copy.parts == []  # what was kept is let go at once
    assert copy(b"more") == b"more"
    assert copy.body() is None


def test_a_body_of_exactly_the_limit_is_kept() -> None:
    copy = BodyCopy(4)
    copy(b"ab")
    copy(b"cd")
    assert copy.body() == b"abcd"


def test_the_inner_stream_callable_runs_first_and_its_output_is_copied() -> None:
    seen: list[bytes] = []

    def inner(data: bytes) -> bytes:
        seen.append(data)
        return data.upper()

    copy = BodyCopy(100, inner)
    assert copy(b"abc") == b"ABC"
    assert seen == [b"abc"]
    assert copy.body() == b"ABC"
