"""Tests for addon.core.decode on the encodings corpus and on edge cases."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml.html import HtmlElement

from addon.core.decode import Decoded, _as_utf8, charset_from_content_type, decode, encoding_name

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "encodings"


def _read(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


def _root(decoded: Decoded) -> HtmlElement:
    root = lxml.html.document_fromstring(decoded.text)
    assert isinstance(root, HtmlElement)
    return root


def _h1(decoded: Decoded) -> str:
    """Return the text of the page's only <h1>."""
    headings = [str(h1.text_content()) for h1 in _root(decoded).iter("h1")]
    assert len(headings) == 1
    return headings[0]


def _body_text(decoded: Decoded) -> str:
    """Return the text of the page's <body>."""
    return "".join(str(body.text_content()) for body in _root(decoded).iter("body"))


# --- the corpus, one test per file (see its README.md) ---


def test_windows_1252_declared_by_http_equiv() -> None:
    decoded = decode(_read("windows-1252_meta-http-equiv.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("windows-1252", "meta")
    assert _h1(decoded) == "Café prices rise by €0.20 — “a small change”, owners say"
    for char in "€…Œ’“”•—™½":
        assert char in decoded.text
    # latin-1 would have produced C1 controls (0x85 is NEL, a line break for splitlines).
    assert not any("\x80" <= char <= "\x9f" for char in decoded.text)


def test_shift_jis_decodes_81_60_as_fullwidth_tilde() -> None:
    decoded = decode(_read("shift_jis_meta.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("shift_jis", "meta")
    assert _h1(decoded) == "東京で桜が満開、例年より五日早く"
    assert "二十度\uff5e二十二度" in decoded.text
    assert "\u301c" not in decoded.text  # WAVE DASH, Python's shift_jis reading
    assert "ｶﾌｪ" in decoded.text


def test_gb18030_reads_four_byte_sequences() -> None:
    decoded = decode(_read("gb18030_meta.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("gb18030", "meta")
    assert _h1(decoded) == "上海地铁新线路开通 日均客流预计超过二十万人次"
    assert "©" in decoded.text
    assert "🚇" in decoded.text
    assert "\ufffd" not in decoded.text


def test_utf8_bom_is_stripped() -> None:
    decoded = decode(_read("utf-8_bom_no-meta.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "bom")
    assert _h1(decoded) == "Straßenbahn fährt wieder über die Brücke am Großmarkt"
    assert "\ufeff" not in decoded.text
    assert decoded.text.startswith("<!DOCTYPE html>")


def test_utf16le_bom_with_surrogate_pair() -> None:
    decoded = decode(_read("utf-16le_bom.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-16le", "bom")
    assert _h1(decoded) == "Новый пешеходный мост через Казанку открыт"
    assert "🚲" in decoded.text
    assert "\ufeff" not in decoded.text
    assert "\x00" not in decoded.text


def test_meta_iso_8859_1_over_utf8_bytes_is_repaired() -> None:
    decoded = decode(_read("meta-iso-8859-1_bytes-utf-8.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "repaired")
    assert _h1(decoded) == "Año nuevo en Córdoba: la ciudad celebra con música en la calle"
    assert "Ã" not in decoded.text


def test_meta_utf8_over_windows_1252_bytes_is_repaired() -> None:
    decoded = decode(_read("meta-utf-8_bytes-windows-1252.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("windows-1252", "repaired")
    assert _h1(decoded) == "Eleições em São Paulo: votação começa às 8h"
    assert "\ufffd" not in decoded.text


def test_arabic_utf8() -> None:
    decoded = decode(_read("arabic_utf-8_rtl.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert _h1(decoded) == "افتتاح مكتبة عامة جديدة في وسط المدينة"
    for run in ("١٥", "٢٠٢٤", "(Wi-Fi)", "library.example.org"):
        assert run in decoded.text


def test_persian_keeps_zwnj_and_persian_letters() -> None:
    decoded = decode(_read("persian_utf-8_no-dir.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert _h1(decoded) == "بازگشایی پل تاریخی اصفهان پس از دو سال مرمت"
    assert "می\u200cگفتند" in decoded.text
    assert "هفته\u200cی" in decoded.text
    assert "\u06cc" in decoded.text and "\u06a9" in decoded.text  # Persian yeh and keheh
    assert "۱۴۰۳" in decoded.text


def test_invalid_utf8_gets_one_replacement_per_maximal_subpart() -> None:
    decoded = decode(_read("utf-8_invalid-sequences.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert _h1(decoded) == "Water board report: river quality \ufffd improved"
    assert decoded.text.count("\ufffd") == 16
    assert _body_text(decoded).count("\ufffd") == 15
    assert "caf\ufffd on 2 August" in decoded.text


def test_undeclared_utf8_is_sniffed() -> None:
    decoded = decode(_read("utf-8_no-declaration.html"), "text/html")
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert _h1(decoded) == "Fête de la musique : les concerts gratuits du 21 juin à Lyon"


def test_every_corpus_file_is_covered() -> None:
    # A file added to the corpus needs its own test above.
    assert len(list(CORPUS.glob("*.html"))) == 11


# --- order of the signals ---


def test_header_charset_overrides_meta() -> None:
    body = '<meta charset="utf-8"><p>Привет</p>'.encode("koi8-r")
    decoded = decode(body, "text/html; charset=KOI8-R")
    assert (decoded.encoding, decoded.source) == ("koi8-r", "header")
    assert "Привет" in decoded.text


def test_bom_overrides_header() -> None:
    body = b"\xef\xbb\xbf<p>caf\xc3\xa9</p>"
    decoded = decode(body, "text/html; charset=windows-1251")
    assert decoded == Decoded("<p>café</p>", "utf-8", "bom")


def test_utf16be_bom() -> None:
    body = b"\xfe\xff" + "<p>Ωμέγα</p>".encode("utf-16-be")
    assert decode(body) == Decoded("<p>Ωμέγα</p>", "utf-16be", "bom")


def test_header_repair_applies_to_a_stale_latin1_default() -> None:
    # Servers that append "charset=iso-8859-1" to UTF-8 pages.
    decoded = decode("<p>naïve café</p>".encode(), "text/html; charset=ISO-8859-1")
    assert decoded == Decoded("<p>naïve café</p>", "utf-8", "repaired")


def test_ascii_under_a_legacy_label_is_not_repaired() -> None:
    decoded = decode(b"<p>plain</p>", "text/html; charset=iso-8859-1")
    assert decoded == Decoded("<p>plain</p>", "windows-1252", "header")


def test_declared_utf8_with_a_valid_multibyte_sequence_is_not_repaired() -> None:
    # One real UTF-8 character proves the label right; the stray byte becomes U+FFFD.
    body = b'<meta charset="utf-8"><p>caf\xc3\xa9 and cr\xe8me</p>'
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert "café and cr\ufffdme" in decoded.text


def test_literal_replacement_character_is_valid_utf8() -> None:
    body = "<p>lost \ufffd char, café</p>".encode()
    decoded = decode(body, "text/html; charset=windows-1252")
    assert decoded == Decoded("<p>lost \ufffd char, café</p>", "utf-8", "repaired")
    # With one invalid byte besides it, the page is not valid UTF-8 any more.
    decoded = decode(b'<meta charset="utf-8"><p>\xef\xbf\xbd caf\xe9</p>')
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert decoded.text.count("\ufffd") == 2


def test_windows_1252_undefined_bytes_follow_whatwg() -> None:
    decoded = decode(b"\x80\x81\x8d\x9f", "text/html; charset=windows-1252")
    assert decoded.text == "€\x81\x8dŸ"


@pytest.mark.parametrize(
    ("label", "encoding", "text"),
    [
        ("latin1", "windows-1252", "caf\xe9"),
        ("ascii", "windows-1252", "caf\xe9"),
        ("gb2312", "gb18030", "中文"),
        ("GBK", "gb18030", "中文"),
        ("x-sjis", "shift_jis", "～"),
        ("euc-kr", "euc-kr", "한국"),
    ],
)
def test_labels_map_per_whatwg(label: str, encoding: str, text: str) -> None:
    python_codec = {"windows-1252": "cp1252", "shift_jis": "cp932"}.get(encoding, encoding)
    body = f'<meta charset="{label}"><p>{text}</p>'.encode(python_codec)
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == (encoding, "meta")
    assert f"<p>{text}</p>" in decoded.text


# --- bogus, empty and hostile input ---


def test_bogus_header_label_falls_through_to_meta() -> None:
    body = '<meta charset="windows-1251"><p>Привет</p>'.encode("cp1251")
    decoded = decode(body, "text/html; charset=no-such-charset")
    assert (decoded.encoding, decoded.source) == ("windows-1251", "meta")
    assert "Привет" in decoded.text


def test_bogus_meta_label_falls_through_to_detection() -> None:
    decoded = decode('<meta charset="bogus"><p>über</p>'.encode())
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")


def test_replacement_encoding_label_is_ignored() -> None:
    assert encoding_name("iso-2022-kr") is None
    decoded = decode("<p>über</p>".encode(), "text/html; charset=iso-2022-kr")
    assert decoded == Decoded("<p>über</p>", "utf-8", "detected")


def test_meta_utf16_means_utf8() -> None:
    decoded = decode('<meta charset="utf-16"><p>über</p>'.encode())
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")


def test_empty_body() -> None:
    assert decode(b"") == Decoded("", "utf-8", "default")
    assert decode(b"", "text/html; charset=shift_jis") == Decoded("", "shift_jis", "header")
    assert decode(b"\xef\xbb\xbf") == Decoded("", "utf-8", "bom")


def test_undeclared_legacy_text_is_detected() -> None:
    body = (
        "<p>" + "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 8 + "</p>"
    ).encode("cp1251")
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == ("windows-1251", "detected")
    assert "французских" in decoded.text


def test_undeclared_short_western_text_prefers_windows_1252() -> None:
    decoded = decode(b"<p>caf\xe9 cr\xe8me</p>")
    assert decoded == Decoded("<p>café crème</p>", "windows-1252", "detected")


# --- the <meta> prescan ---


def test_meta_in_a_comment_is_ignored() -> None:
    body = b'<!-- <meta charset="koi8-r"> --><meta charset="iso-8859-2"><p>\xb1</p>'
    assert decode(body) == Decoded(body.decode("iso-8859-2"), "iso-8859-2", "meta")


def test_meta_inside_an_attribute_value_is_ignored() -> None:
    body = b'<a title="<meta charset=koi8-r>"><meta charset="iso-8859-2"><p>\xb1</p>'
    assert decode(body).encoding == "iso-8859-2"


def test_content_charset_needs_http_equiv() -> None:
    body = (
        b'<meta content="text/html; charset=koi8-r">'
        b"<meta http-equiv=Content-Type content=\"text/html;charset='iso-8859-5'\"><p>\xb1</p>"
    )
    decoded = decode(body)
    assert (decoded.encoding, decoded.source) == ("iso-8859-5", "meta")
    assert "<p>Б</p>" in decoded.text


def test_meta_beyond_the_prescan_window_is_not_seen() -> None:
    body = b"<!-- " + b"x" * 5000 + b' --><meta charset="utf-8"><p>\xe9</p>'
    assert decode(body).source != "meta"
    assert decode(body, prescan_bytes=8192).source == "repaired"  # UTF-8 label, 1252 bytes


# --- Content-Type parsing ---


@pytest.mark.parametrize(
    ("content_type", "charset"),
    [
        ('text/html; charset="UTF-8"', "UTF-8"),
        ("TEXT/HTML; CHARSET=Shift_JIS", "Shift_JIS"),
        ("text/html;charset=utf-8;foo=bar", "utf-8"),
        ('text/html; foo="a;charset=koi8-r"; charset=iso-8859-2', "iso-8859-2"),
        ('text/html; charset = "gbk" ', "gbk"),
        ("text/html; charset='utf-8'", "utf-8"),
        ('text/html; charset="a\\"b"', 'a"b'),
        ("text/html; charset=utf-8, text/plain", "utf-8"),
        ('text/html; charset="utf-8', "utf-8"),
        ("text/html; charset=", None),
        ("text/html", None),
        ("charset=utf-8", None),
        ("", None),
    ],
)
def test_charset_from_content_type(content_type: str, charset: str | None) -> None:
    assert charset_from_content_type(content_type) == charset


@settings(max_examples=200, deadline=None)
@given(
    body=st.binary(max_size=3000),
    content_type=st.one_of(st.none(), st.text(max_size=60)),
)
def test_random_bytes_never_raise(body: bytes, content_type: str | None) -> None:
    decoded = decode(body, content_type)
    assert isinstance(decoded.text, str)
    assert encoding_name(decoded.encoding) is not None


# --- the UTF-8 bytes handed on to the parser ---


@pytest.mark.parametrize(
    ("body", "content_type", "utf8"),
    [
        ("<p>café</p>".encode(), "text/html; charset=utf-8", "<p>café</p>".encode()),
        (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", None, b"<p>caf\xc3\xa9</p>"),  # without the BOM
        ("<p>naïve</p>".encode(), "text/html; charset=iso-8859-1", "<p>naïve</p>".encode()),
        (b"<p>plain</p>", "text/html; charset=windows-1252", b"<p>plain</p>"),
        ("<p>ok \ufffd</p>".encode(), None, "<p>ok \ufffd</p>".encode()),
    ],
)
def test_valid_utf8_bodies_keep_their_bytes(
    body: bytes, content_type: str | None, utf8: bytes
) -> None:
    decoded = decode(body, content_type)
    assert decoded.utf8 == utf8
    assert decoded.text.encode() == utf8  # the bytes are exactly the text's encoding


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"<p>caf\xc3\xa9 and cr\xe8me</p>", "text/html; charset=utf-8"),  # one invalid byte
        (b"<p>caf\xe9</p>", "text/html; charset=utf-8"),  # repaired as windows-1252
        (b"<p>caf\xe9</p>", "text/html; charset=windows-1252"),
        ("<p>Привет</p>".encode("koi8-r"), "text/html; charset=koi8-r"),
        (b"\xfe\xff" + "<p>Ωμέγα</p>".encode("utf-16-be"), None),
    ],
)
def test_other_bodies_leave_the_text_to_encode(body: bytes, content_type: str | None) -> None:
    assert decode(body, content_type).utf8 is None


def test_a_valid_utf8_page_is_decoded_only_when_its_text_is_asked_for() -> None:
    body = "<p>Ωμέγα café 😀</p>".encode()
    decoded = decode(body, "text/html; charset=utf-8")
    assert decoded.utf8 is body
    assert decoded.head(5) == "<p>Ωμ"
    assert decoded.holds_ascii("<") and not decoded.holds_ascii("#")
    assert decoded.text == "<p>Ωμέγα café 😀</p>"
    assert decoded == Decoded("<p>Ωμέγα café 😀</p>", "utf-8", "header")
    assert repr(decoded) == (
        "Decoded(text='<p>Ωμέγα café 😀</p>', encoding='utf-8', source='header')"
    )
    assert hash(decoded) == hash(Decoded("<p>Ωμέγα café 😀</p>", "utf-8", "header"))
    with pytest.raises(ValueError, match="its text or its UTF-8 bytes"):
        Decoded(None, "utf-8", "header")


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40), chars=st.integers(min_value=0, max_value=45))
def test_the_head_of_a_page_left_in_utf8_is_its_text_s(text: str, chars: int) -> None:
    body = text.encode("utf-8", "replace")
    lazy = Decoded(None, "utf-8", "detected", body)
    eager = body.decode("utf-8")
    assert lazy.head(chars) == eager[:chars]
    assert lazy.holds_ascii("<") == ("<" in eager)
    assert lazy.text == eager


def _strict_utf8(data: bytes) -> bool:
    """Tell whether Python's strict UTF-8 decoder accepts the bytes (the reference)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _is_utf8(data: bytes) -> bool:
    """Tell whether decoding keeps the page's bytes: valid UTF-8 is parsed from them."""
    return _as_utf8(data, "detected").utf8 is not None


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"plain ASCII, longer than eight bytes",
        "café Ωμέγα 日本 😀".encode(),
        b"\xef\xbf\xbd",  # U+FFFD spelled out is valid
        b"\xc0\xaf",  # overlong
        b"\xe0\x80\xaf",  # overlong
        b"\xf0\x80\x80\xaf",  # overlong
        b"\xed\xa0\x80",  # a surrogate
        b"\xf4\x90\x80\x80",  # past U+10FFFF
        b"\xf5\x80\x80\x80",
        b"abcdefgh\xff",  # after an ASCII run of eight
        b"abcdefg\xc3",  # cut at the end
        b"\x80",  # a lone continuation byte
        b"\xe2\x82",  # cut inside
    ],
)
def test_the_utf8_check_accepts_what_the_strict_decoder_accepts(data: bytes) -> None:
    assert _is_utf8(data) == _strict_utf8(data)


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=6).map(lambda text: text.encode("utf-8", "surrogatepass")),
            st.binary(max_size=3),
            st.sampled_from([b"\xc2", b"\xe0\xa0", b"\xed\x9f\xbf", b"\xf0\x90\x80", b"\xf4\x8f"]),
        ),
        max_size=12,
    ).map(b"".join)
)
def test_the_utf8_check_is_the_strict_decoder_on_random_bytes(data: bytes) -> None:
    assert _is_utf8(data) == _strict_utf8(data)
