"""Tests for addon.core.heuristics.parse."""

from __future__ import annotations

import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st

from addon.core.dom import text_content
from addon.core.heuristics.parse import (
    _XML_DECLARATION,
    MAX_ATTRIBUTES,
    _only_space,
    _source_byte_pieces,
    _source_pieces,
    cap_attributes,
    mend_markup,
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


def test_an_element_s_attributes_past_the_cap_are_left_out_before_parsing() -> None:
    # Issue 29 (1): libxml2's work grows with the square of an element's attributes
    # (80,000: 5.6 s in one C call), so one such tag held a worker for minutes.
    names = " ".join(f"a{n}" for n in range(20_000))
    root = parse(f"<html><body><div {names}>Text of the page.</div></body></html>")
    assert root is not None
    (div,) = root.iter("div")
    assert len(div.attrib) == MAX_ATTRIBUTES
    assert div.text == "Text of the page."


def test_the_cap_reads_quoted_values_holding_a_tag_s_end() -> None:
    values = " ".join(f"a{n}='x>y' b{n}=\"z>\"" for n in range(1500))
    capped = cap_attributes(f"<p {values} id=last>text</p>".encode(), max_attributes=2000)
    assert capped.count(b"x>y") == 1000 and capped.count(b"z>") == 1000
    assert cap_attributes(b"<p " + b"a " * 3000 + b">", 4) == b"<p a a a a>"
    assert capped.endswith(b">text</p>") and b"id=last" not in capped


def test_tags_within_the_cap_keep_every_byte() -> None:
    page = b'<div class="a" style="' + b"x" * 5000 + b'" id=b>t</div><p>' + b"w " * 3000
    assert cap_attributes(page) is page
    # Words of text, a script's and a quoted value's are no attributes.
    quoted = b'<img src="data:,<g ' + b"1 " * 3000 + b'">'
    assert cap_attributes(quoted) is quoted
    script = b"<script>if (i<n " + b"x " * 3000 + b")</script>"
    assert cap_attributes(script) is script


def _serialised(text: str) -> str:
    root = parse(text)
    assert root is not None
    return lxml.html.tostring(root.find(".//div"), encoding="unicode")


def test_a_paragraph_libxml2_moved_out_of_its_heading_goes_back() -> None:
    # React sites write `<h1><p>Auth</p></h1>` (wcxb-dev 0676); libxml2 closes the
    # heading at the `<p>`, a browser keeps it in.
    mended = _serialised(
        '<div><h1 class="t"><p>Auth</p></h1><h2> <p>Use <b>it</b> well.</p></h2><p>Body</p></div>'
    )
    assert mended == '<div><h1 class="t">Auth</h1><h2>Use <b>it</b> well.</h2><p>Body</p></div>'
    # A heading empty in the source as well: the count differs, nothing is mended.
    assert _serialised("<div><h1><p>Auth</p></h1><h3></h3><p>x</p></div>") == (
        "<div><h1></h1><p>Auth</p><h3></h3><p>x</p></div>"
    )
    # Text before the paragraph: libxml2 keeps it in the heading, which is not empty.
    assert _serialised("<div><h2>Title<p>para</p></h2></div>") == (
        "<div><h2>Title</h2><p>para</p></div>"
    )
    # Parsed from the page's UTF-8 bytes too.
    root = parse(None, utf8=b"<div><h1><p>Auth</p></h1><p>Body</p></div>")
    assert root is not None
    assert lxml.html.tostring(root.find(".//h1"), encoding="unicode") == "<h1>Auth</h1>"


def test_a_heading_paragraph_with_control_characters_is_mended() -> None:
    # The parser keeps a U+0003 in a text, which lxml refuses from its API: copying
    # the paragraph's text into the heading raised (found by fuzzing the goldens).
    root = parse(None, utf8=b"<div><h1><p>Au\x03th</p></h1><p>Body</p></div>")
    assert root is not None
    heading = root.find(".//h1")
    assert heading is not None and "".join(heading.itertext()).startswith("Au")
    assert [p.text for p in root.iter("p")] == ["Body"]


def test_a_subtitle_beside_its_h1_becomes_a_paragraph() -> None:
    # wcxb-dev 0416: Substack's h3.subtitle under the post's h1 (the site's h1 first).
    root = parse(
        "<div><h1>Site</h1></div><article><header><h1>Post</h1>"
        "<h3 class='subtitle'>The deck</h3></header><h2 class='text-subtitle-large'>One</h2>"
        "<section><div><h1>Two</h1></div></section>"
        "<section><div><h3 class='subtitle'>Far</h3></div></section></article>"
    )
    assert root is not None
    mend_markup(root)
    tags = [(element.tag, element.text) for element in root.iter("p", "h1", "h2", "h3")]
    assert tags == [
        ("h1", "Site"), ("h1", "Post"), ("p", "The deck"), ("h2", "One"), ("h1", "Two"),
        ("h3", "Far"),
    ]  # fmt: skip


def test_a_named_anchor_left_open_gives_up_the_blocks_it_swallowed() -> None:
    # wcxb-dev 2866: "<a id=ips-and-vips><h2>..." left open held the rest of the page,
    # 29 blocks, all counted as link text.
    root = parse(
        "<div><p>Before.</p><a id=x><a id=y>lead<h2>Virtual IPs</h2><p>Text.</p>after</div>"
        "<p><a name=n>a word</a> and <a class=card><div>a card</div></a></p>"
    )
    assert root is not None
    mend_markup(root)
    anchors = [(a.get("id") or a.get("name") or a.get("class"), len(a)) for a in root.iter("a")]
    assert anchors == [("x", 0), ("y", 0), ("n", 0), ("card", 1)]
    assert "".join(root.itertext()) == "Before.leadVirtual IPsText.aftera word and a card"


def test_a_text_field_named_for_code_shows_its_code() -> None:
    # wcxb-dev 0444: MongoDB's snippet in `<textarea aria-label="code-snippet">`.
    root = parse(
        "<article><h1>Title</h1><textarea aria-label='code-snippet' tabindex='-1'>a::b</textarea>"
        "<form><textarea name='note'>Type here</textarea><textarea id='codes'>x</textarea></form>"
        "</article>"
    )
    assert root is not None
    mend_markup(root)
    assert [("".join(pre.itertext()), len(pre.attrib)) for pre in root.iter("pre")] == [("a::b", 0)]
    assert [field.text for field in root.iter("textarea")] == ["Type here", "x"]
