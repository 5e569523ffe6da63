"""Tests for addon.core.heuristics.direction."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from addon.core.decode import decode
from addon.core.heuristics.direction import (
    count_rtl,
    declared_direction,
    has_rtl,
    language_direction,
    page_direction,
    rtl_share,
    text_direction,
)

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpora" / "encodings"


def _page(name: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(decode((CORPUS / name).read_bytes()).text)


@pytest.mark.parametrize(
    "char",
    [
        "\u05d0",  # HEBREW LETTER ALEF
        "\u0627",  # ARABIC LETTER ALEF
        "\u06cc",  # ARABIC LETTER FARSI YEH
        "\u0710",  # SYRIAC LETTER ALAPH
        "\u0780",  # THAANA LETTER HAA
        "\u07ca",  # NKO LETTER A
        "\ufb1d",  # first Hebrew presentation form
        "\ufdff",  # end of Arabic Presentation Forms-A
        "\ufe70",  # first Arabic Presentation Forms-B
        "\U00010800",  # CYPRIOT SYLLABLE A
        "\U0001e900",  # ADLAM CAPITAL LETTER ALIF
    ],
)
def test_rtl_characters(char: str) -> None:
    assert has_rtl(char) and count_rtl(char) == 1
    assert count_rtl(char) == 1


@pytest.mark.parametrize("char", ["a", "Я", "中", "\u058f", "\u0900", "\ufb1c", "\ufe6f", "1", " "])
def test_non_rtl_characters(char: str) -> None:
    assert not has_rtl(char) and count_rtl(char) == 0
    assert count_rtl(char) == 0


def test_count_rtl_counts_every_rtl_character() -> None:
    assert count_rtl("") == 0
    assert count_rtl("abc שלום abc سلام") == 8
    # Arabic-Indic digits and Arabic punctuation are in the Arabic block too.
    assert count_rtl("١٥،") == 3


def test_rtl_share_counts_letters_only() -> None:
    assert rtl_share("") == 0.0
    assert rtl_share("123 !!!") == 0.0
    assert rtl_share("سلام") == 1.0
    assert rtl_share("سلام abcd") == 0.5
    # Digits, spaces and punctuation do not dilute the share.
    assert rtl_share("سلام 2024, 1999!") == 1.0


def test_text_direction_threshold() -> None:
    assert text_direction("سلام دنیا") == "rtl"
    assert text_direction("hello world") == "ltr"
    mixed = "سلام " + "abcdefgh"  # 4 of 12 letters
    assert text_direction(mixed) == "rtl"
    assert text_direction(mixed, min_share=0.5) == "ltr"
    assert text_direction("") == "ltr"


@pytest.mark.parametrize(
    ("lang", "direction"),
    [
        ("ar", "rtl"),
        ("fa-IR", "rtl"),
        ("he", "rtl"),
        ("ur_PK", "rtl"),
        ("ckb", "rtl"),
        ("yi", "rtl"),
        ("ku-Arab", "rtl"),
        ("pa-Arab-PK", "rtl"),
        ("uz-Latn", "ltr"),
        ("en", None),
        ("en-US", None),
        ("", None),
        (None, None),
    ],
)
def test_language_direction(lang: str | None, direction: str | None) -> None:
    assert language_direction(lang) == direction


def test_explicit_dir_wins() -> None:
    assert page_direction("ltr", "ar", "سلام دنیا") == "ltr"
    assert page_direction(" RTL ", "en", "hello") == "rtl"


def test_language_decides_before_text() -> None:
    assert page_direction(None, "he", "menu home about") == "rtl"
    assert page_direction("auto", "fa", "") == "rtl"


def test_text_decides_last() -> None:
    assert page_direction(None, "en", "مقاله درباره اصفهان") == "rtl"
    assert page_direction(None, None, "an article about Isfahan") == "ltr"


def test_persian_page_without_dir_is_rtl() -> None:
    root = _page("persian_utf-8_no-dir.html")
    assert root.get("dir") is None and not root.xpath("//*[@dir]")
    text = root.text_content()
    assert page_direction(None, root.get("lang"), text) == "rtl"
    # Without the lang attribute the text alone says so too.
    assert page_direction(None, None, text) == "rtl"
    assert rtl_share(text) > 0.9


def test_arabic_page_is_rtl() -> None:
    root = _page("arabic_utf-8_rtl.html")
    text = root.text_content()
    assert page_direction(root.get("dir"), root.get("lang"), text) == "rtl"
    assert text_direction(text) == "rtl"
    assert count_rtl(text) > 500


def test_english_page_is_ltr() -> None:
    root = _page("windows-1252_meta-http-equiv.html")
    assert page_direction(None, root.get("lang"), root.text_content()) == "ltr"


# Each range's edges and neighbours, in every string storage (1, 2 and 4 bytes).
_EDGES = "".join(
    chr(code)
    for edge in (0x0590, 0x08FF, 0xFB1D, 0xFDFF, 0xFE70, 0xFEFE, 0x10800, 0x10FFF, 0x1E800, 0x1EFFF)
    for code in (edge - 1, edge, edge + 1)
)


def _in_rtl_ranges(code: int) -> bool:
    """Tell whether a code point lies in the right-to-left ranges direction names."""
    ranges = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFE), (0x10800, 0x10FFF),
              (0x1E800, 0x1EFFF))  # fmt: skip
    return any(low <= code <= high for low, high in ranges)


def test_has_rtl_knows_each_range_edge() -> None:
    for ch in _EDGES:
        for each in (ch, "a" + ch, "\u201c" + ch):
            assert has_rtl(each) is _in_rtl_ranges(ord(ch)), hex(ord(ch))
            assert count_rtl(each) == int(_in_rtl_ranges(ord(ch)))


# --- the direction the page declares for its chosen content ---


def _content(html: str) -> list[lxml.html.HtmlElement]:
    """Return the elements marked id=content in a parsed page: the chosen content."""
    return lxml.html.document_fromstring(html).xpath("//*[@id='content']")


def test_dir_on_body_applies_to_the_content() -> None:
    html = '<html><body dir="rtl"><div><article id="content">x</article></div></body></html>'
    assert declared_direction(_content(html)) == "rtl"


def test_dir_on_a_wrapper_of_the_content() -> None:
    html = '<html><body><main dir="RTL "><article id="content">x</article></main></body></html>'
    assert declared_direction(_content(html)) == "rtl"
    assert declared_direction(_content('<body><div id="content" dir="rtl">x</div></body>')) == "rtl"


def test_the_nearest_dir_wins() -> None:
    html = '<html dir="ltr"><body dir="rtl"><div id="content">x</div></body></html>'
    assert declared_direction(_content(html)) == "rtl"
    html = '<html dir="rtl"><body><div dir="ltr"><div id="content">x</div></div></body></html>'
    assert declared_direction(_content(html)) == "ltr"


def test_dir_auto_leaves_the_direction_to_the_text() -> None:
    html = '<html dir="rtl"><body><div dir="auto"><div id="content">x</div></div></body></html>'
    assert declared_direction(_content(html)) is None


def test_invalid_dir_is_no_declaration() -> None:
    html = '<html dir="rtl"><body><div dir="right"><div id="content">x</div></div></body></html>'
    assert declared_direction(_content(html)) == "rtl"


def test_dir_inside_the_content_or_beside_it_is_not_the_content_s() -> None:
    html = '<body><div id="content"><p dir="rtl">x</p></div><aside dir="rtl">y</aside></body>'
    assert declared_direction(_content(html)) is None


def test_several_subtrees_take_the_dir_declared_for_all_of_them() -> None:
    html = (
        '<html dir="ltr"><body dir="rtl"><header id="content" dir="ltr">t</header>'
        '<main><div id="content">x</div></main></body></html>'
    )
    assert declared_direction(_content(html)) == "rtl"


def test_no_content_declares_nothing() -> None:
    assert declared_direction([]) is None
