"""Tests for addon.core.heuristics.mojibake."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree, html

from addon.core.decode import Decoded, decode
from addon.core.heuristics.mojibake import may_hold_mojibake, repair_mojibake


def twice(text: str) -> str:
    """Encode TEXT as UTF-8 and read the bytes back as Latin-1: the damage repaired here."""
    return text.encode("utf-8").decode("latin-1")


def page(body: str) -> etree._Element:
    """Parse BODY into a page tree as lxml reads HTML."""
    return html.document_fromstring(f"<html><head><title>t</title></head><body>{body}</body>")


@pytest.mark.parametrize(
    ("text", "may"),
    [
        (twice("A DIY Investor’s Guide"), True),
        (twice("Español"), True),
        ("Investorâ€™s Guide", True),  # read as windows-1252
        ("café, naïve, Ørsted, São Paulo, À la carte", False),
        ("plain ASCII", False),
    ],
)
def test_may_hold_mojibake_from_bytes_and_text(text: str, *, may: bool) -> None:
    # A valid UTF-8 page is searched in its bytes; a page decoded otherwise, in its text.
    as_utf8 = decode(f"<p>{text}</p>".encode(), "text/html; charset=utf-8")
    assert as_utf8.utf8 is not None
    assert may_hold_mojibake(as_utf8) is may
    assert may_hold_mojibake(Decoded(f"<p>{text}</p>", "windows-1252", "header")) is may


def test_repair_mojibake_repairs_text_tails_attributes_and_code_of_a_damaged_page() -> None:
    root = page(
        f"<h1>{twice('Investor’s Guide')}</h1>"
        f"<p>It {twice('costs €5')} <b>now</b>{twice(' — or less')}<!-- c -->{twice('—end')}</p>"
        f"<img src='a.png' alt='{twice('Café')}'>"
        f"<pre>x = 1  # {twice('naïve')}</pre>"
    )
    assert repair_mojibake(root) == 6
    assert root.findtext(".//h1") == "Investor’s Guide"
    assert root.find(".//p").text_content() == "It costs €5 now — or less—end"
    assert root.find(".//img").get("alt") == "Café"
    assert root.findtext(".//pre") == "x = 1  # naïve"


@pytest.mark.parametrize(
    ("body", "path", "quoted"),
    [
        # A post about mojibake shows it in its code; its prose is clean.
        (
            "<p>Clean prose about encodings.</p><pre><code>{}</code></pre>",
            ".//code",
            f"s.replace({twice('’')!r}, \"'\")",
        ),
        # wcxb-dev 2498: a history of the web quotes the damage beside its own letters.
        (
            "<p>{}</p>",
            ".//p",
            f"I lost count of how many times I saw \"{twice('ä')}\" instead of \"ä\" — ugh.",
        ),
    ],
)
def test_repair_mojibake_leaves_mojibake_quoted_on_purpose_alone(
    body: str, path: str, quoted: str
) -> None:
    root = page(body.format(quoted))
    assert repair_mojibake(root) == 0
    assert root.findtext(path) == quoted


def test_repair_mojibake_leaves_scripts_and_clean_pages_alone() -> None:
    script = f"var s = {twice('“x”')!r};"
    root = page(f"<p>{twice('it’s')}</p><script>{script}</script>")
    assert repair_mojibake(root) == 1
    assert root.findtext(".//script") == script
    clean = page("<p>café — naïve, Ørsted’s “quotes”</p>")
    before = etree.tostring(clean)
    assert repair_mojibake(clean) == 0
    assert etree.tostring(clean) == before


# Words and punctuation as pages write them, in Latin, Greek, Cyrillic, Hebrew, Arabic
# and CJK scripts.
WORDS = [
    *("café", "naïve", "Straße", "Ørsted", "São", "Paulo", "Łódź", "İstanbul", "Ærø"),
    *("Zürich", "Málaga", "Þór", "crème", "brûlée", "façade", "jalapeño", "Dvořák", "Škoda"),
    *("Αθήνα", "Москва", "東京", "مرحبا", "שלום", "Ελλάδα", "Kraków", "garçon", "Ångström"),
    *("smörgåsbord", "Noël", "Mañana", "über", "Ça", "À", "la", "carte", "100", "€5", "it's"),
]
SEPARATORS = [" ", ", ", ". ", " – ", " — ", "’s ", " “", "” ", "… ", "™ ", " • ", ": ", "! ", "\n"]
SENTENCES = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=12
).map(lambda pairs: "".join(word + separator for word, separator in pairs))


@settings(max_examples=300, deadline=None)
@given(SENTENCES)
def test_repair_mojibake_restores_text_encoded_twice_and_leaves_it_written(words: str) -> None:
    # ftfy judges a string as a whole: a short one may read as well either way ("Å koda"),
    # so each holds a curly apostrophe, as most of a damaged page's paragraphs do.
    text = f"Here’s {words}"
    damaged, clean = page("<p></p>"), page("<p></p>")
    damaged.find(".//p").text = twice(text)
    clean.find(".//p").text = text
    assert repair_mojibake(damaged) == 1
    assert damaged.findtext(".//p") == text
    assert repair_mojibake(clean) == 0
    assert clean.findtext(".//p") == text


def test_repair_mojibake_mends_strings_in_parts_on_a_page_damaged_whole() -> None:
    # wcxb-dev 4526: "&nbsp;" came through the parser as itself, beside text encoded twice.
    damaged = "\xa0can lower muscle strain " + twice("– and lead to wellness")
    root = page(f"<p>{twice('It’s')} simple.</p><p>{damaged}</p>")
    assert repair_mojibake(root) == 2
    repaired = "\xa0can lower muscle strain – and lead to wellness"
    assert [p.text for p in root.iter("p")] == ["It’s simple.", repaired]


def test_repair_mojibake_writes_no_character_lxml_refuses() -> None:
    # A mutated page's title held U+0001 beside its damage (the fuzz test): lxml keeps
    # what its parser read, but refuses it from the API, which raised.
    root = html.document_fromstring(
        f"<html><head><title>\x01{twice('Año nuevo en Córdoba')}</title></head>"
        f"<body><p>{twice('Miles de personas recibieron el año nuevo')}</p></body></html>"
    )
    assert root.findtext(".//title").startswith("\x01")
    assert repair_mojibake(root) == 2
    assert root.findtext(".//title") == "Año nuevo en Córdoba"


def test_repair_mojibake_leaves_a_page_with_more_to_read_than_its_budget() -> None:
    # A megabyte of damaged text would take ftfy half a second: the page stays as it is.
    text = twice("It’s a “quote” — café. ") * 40
    root = page(f"<p>{text}</p><p>{text}</p>")
    assert repair_mojibake(root, max_chars=len(text) * 2 - 1) == 0
    assert root.findtext(".//p") == text
    assert repair_mojibake(root, max_chars=len(text) * 2) == 2
