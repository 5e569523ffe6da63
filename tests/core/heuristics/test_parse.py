"""Tests for addon.core.heuristics.parse."""

from __future__ import annotations

import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.dom import text_content
from addon.core.heuristics.parse import (
    _XML_DECLARATION,
    _only_space,
    _source_byte_pieces,
    _source_pieces,
    parse,
    strip_premature_end_tags,
)

# Every character str.isspace() accepts, for the UTF-8 bytes path.
_SPACES = [chr(code) for code in range(0x3001) if chr(code).isspace()]


def test_empty_and_blank_input_parse_to_nothing() -> None:
    assert parse("") is None
    assert parse(" \n\t ") is None


def test_xml_declaration_with_another_encoding_still_parses() -> None:
    root = parse('<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>é</p></body></html>')
    assert root is not None
    assert text_content(root) == "é"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["</body>", "</HTML >", "</html\u3000>", "<?xml version='1.0'?>", "<?XmL", ">",
             " ", "\n", "\u2028", "<p>", "x", "é", "</bodyx>", "\ud800"]
        ),
        max_size=12,
    ).map("".join)
)
def test_source_pieces_are_the_page_without_end_tags_or_declaration(text: str) -> None:
    expected = _XML_DECLARATION.sub("", strip_premature_end_tags(text), count=1)
    assert "".join(_source_pieces(text)) == expected
    if not expected or expected.isspace():
        assert parse(text) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["</body>", "</HTML >", "</html\u3000>", "<?xml version='1.0'?>", "<?XmL", ">",
             "<p>", "x", "é", "</bodyx>", "</body\x1c>", "</html\u205f\x85>", *_SPACES]
        ),
        max_size=12,
    ).map("".join)
)
def test_utf8_pieces_are_the_text_pieces_encoded(text: str) -> None:
    pieces = _source_pieces(text)
    byte_pieces = _source_byte_pieces(text.encode())
    assert b"".join(byte_pieces) == "".join(pieces).encode()
    # Both paths agree on which pages hold nothing but space.
    assert all(_only_space(piece) for piece in byte_pieces) == all(
        not piece or piece.isspace() for piece in pieces
    )
    from_text, from_bytes = parse(text), parse(text, utf8=text.encode())
    assert (from_text is None) == (from_bytes is None)
    if from_text is not None and from_bytes is not None:
        assert lxml.html.tostring(from_bytes) == lxml.html.tostring(from_text)


def test_the_space_list_covers_every_space_character() -> None:
    # _SPACES stops at U+3000, the last character str.isspace() accepts.
    assert not any(chr(code).isspace() for code in range(0x3001, 0x110000))
    assert all(_only_space(space.encode()) for space in _SPACES)
