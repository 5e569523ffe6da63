"""Properties of the extraction core on random and mutated pages (hypothesis).

- `extract` never raises, whatever the bytes and the declared type;
- every content block holds only allow-listed elements and attributes, with
  safe URLs;
- extraction is deterministic: the same input twice gives the same result;
- `decode` never raises and gives text that can be written out as UTF-8.

The mutated pages (the encodings corpus and a realistic article, with bytes
and markup inserted, replaced and deleted) make the suite's short fuzz run of
decode and extract; `scripts/fuzz` runs a longer one.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import lxml.html
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from addon.core import Article, Skip, extract
from addon.core.decode import decode
from addon.core.output.content import ALLOWED_ATTRS, ALLOWED_TAGS, IMAGE_SCHEMES, LINK_SCHEMES

ENCODINGS = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "encodings"
URL = "https://news.example/section/story.html"
# What the core allows on every element, and what the sanitiser adds to links.
GLOBAL_ATTRS = frozenset({"dir", "lang"})
LINK_REL = {"noopener", "noreferrer"}
PROPERTY_SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def words(names: str) -> list[str]:
    """Return the names of a space-separated string."""
    return names.split()


TAGS = words(
    "p div span a img b i em strong h1 h2 h3 ul ol li table tr td th pre code blockquote"
    " figure figcaption br hr section article main nav header footer aside form input button"
    " script style svg math iframe object embed template noscript textarea title base meta"
    " link select option frameset frame plaintext xmp noembed video source picture dialog"
    " details summary abbr time sub sup"
)
ATTRIBUTES = words(
    "href src srcset data-src class id style hidden dir lang title alt width height colspan"
    " rel target onerror onclick onload formaction action xlink:href srcdoc http-equiv"
    " content charset"
)
VALUES = (
    "javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "vbscript:x",
    "data:text/html,<script>alert(1)</script>", "data:image/png;base64,iVBORw0KGgo=",
    "data:image/svg+xml,<svg onload=alert(1)>", "https://cdn.example/a.png", "//evil.example/",
    "/relative/path", "#top", "?q=1", "mailto:a@example.org", "display:none", "rtl", "en",
    '"><script>alert(1)</script>', "0;url=javascript:alert(1)", "x onerror=alert(1)", "",
)  # fmt: skip
TEXT = st.text(
    alphabet=st.sampled_from([*"abc xyz<>&\"'=/;\n\t", "\x00", "\x03", "é", "中", "ا"]),
    max_size=40,
)
PROSE = (
    "<p>The river board met on Tuesday to agree the plan for the flood defences, which "
    "will raise the embankment by a metre and add two pumping stations near the bridge.</p>"
)


def attributes() -> st.SearchStrategy[str]:
    """Draw a run of attributes, some hostile, some with broken quoting."""
    one = st.builds(
        lambda name, value, quote: f" {name}={quote}{value}{quote}",
        st.sampled_from(ATTRIBUTES),
        st.one_of(st.sampled_from(VALUES), TEXT),
        st.sampled_from(['"', "'", ""]),
    )
    return st.lists(one, max_size=3).map("".join)


def markup() -> st.SearchStrategy[str]:
    """Draw random markup: nested elements, stray text, unclosed and misnested tags."""

    def element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(
            lambda tag, attrs, inner, closed: (
                f"<{tag}{attrs}>{inner}" + (f"</{tag}>" if closed else "")
            ),
            st.sampled_from(TAGS),
            attributes(),
            children,
            st.booleans(),
        )

    leaf = st.one_of(TEXT, st.sampled_from(["<!--", "-->", "<![CDATA[", "</p>", "&amp", "<"]))
    return st.recursive(leaf, lambda kids: element(st.lists(kids, max_size=4).map("".join)),
                        max_leaves=25)  # fmt: skip


@st.composite
def pages(draw: st.DrawFn) -> bytes:
    """Draw a page: random markup between enough prose that an article is often found."""
    parts = [draw(markup()) for _ in range(draw(st.integers(1, 4)))]
    prose = draw(st.integers(0, 6))
    body = "".join(part + PROSE * (prose if index == 0 else 1) for index, part in enumerate(parts))
    title = draw(st.one_of(TEXT, st.sampled_from(VALUES)))
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}".encode()


def encodings_pages() -> list[bytes]:
    """Return the encodings corpus' pages (the corpus must be there)."""
    found = sorted(ENCODINGS.glob("*.html"))
    assert len(found) == 11, f"missing corpus: {ENCODINGS}"
    return [path.read_bytes() for path in found]


SEEDS = [*encodings_pages(), (f"<html><body><h1>Flood plan</h1>{PROSE * 6}</body>").encode()]
TOKENS = [b"<", b"</p>", b"<script>", b"<svg>", b"<table>", b"<!--", b"\x00", b"\x03", b"\xff",
          b'<a href="javascript:alert(1)">', b"<img src=x onerror=alert(1)>", b"<nav>x</nav>",
          b"\xef\xbb\xbf", b'<meta charset="utf-16">', b"<template>", b"&#0;"]  # fmt: skip


@st.composite
def mutated_pages(draw: st.DrawFn) -> bytes:
    """Draw a seed page and apply a few insertions, deletions and replacements."""
    data = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        end = min(len(data), at + draw(st.integers(0, 64)))
        new = draw(st.one_of(st.sampled_from(TOKENS), st.binary(max_size=12)))
        data = data[:at] + new + (data[end:] if draw(st.booleans()) else data[at:])
    return data


CONTENT_TYPES = st.one_of(
    st.none(),
    st.sampled_from(["text/html", "text/html; charset=utf-8", "text/html; charset=shift_jis",
                     "text/html; charset=utf-16", "text/html; charset=bogus", "text/html;charset"]),
    st.text(max_size=40),
)  # fmt: skip


def block_problems(article: Article) -> list[str]:
    """List what in the article's blocks is outside the allow-list or unsafe."""
    problems: list[str] = []
    for block in article.blocks:
        holder = lxml.html.fragment_fromstring(block.html, create_parent="div")
        for el in holder.iterdescendants():
            if not isinstance(el.tag, str):
                continue
            problems += element_problems(el)
    return problems


def element_problems(el: lxml.html.HtmlElement) -> list[str]:
    """List one content element's problems: its tag, its attributes, its URLs."""
    tag = str(el.tag)
    if tag not in ALLOWED_TAGS:
        return [f"<{tag}>"]
    allowed = (
        ALLOWED_ATTRS.get(tag, frozenset()) | GLOBAL_ATTRS | ({"rel"} if tag == "a" else set())
    )
    problems = [f"{name} on <{tag}>" for name in el.attrib if name not in allowed]
    if tag == "a" and el.get("href") is not None:
        problems += [] if scheme(el.get("href", "")) in LINK_SCHEMES else [f"href {el.get('href')}"]
        problems += [] if set(el.get("rel", "").split()) >= LINK_REL else ["a without rel"]
    if tag == "img":
        src = el.get("src", "")
        safe = scheme(src) in IMAGE_SCHEMES or src.lower().startswith("data:image/")
        problems += [] if safe else [f"img src {src}"]
    return problems


def scheme(url: str) -> str:
    """Return an absolute URL's scheme, lowercase ("" when it has none)."""
    head, colon, _ = url.strip().partition(":")
    return head.lower() if colon and head.isascii() and head.isalpha() else ""


def comparable(result: Article | Skip) -> Article | Skip:
    """Return the result without its timings, the one part that may differ between runs."""
    if isinstance(result, Article) and result.diagnostics is not None:
        return replace(result, diagnostics=replace(result.diagnostics, timings_ms={}))
    return result


# Control characters after elements the extractor drops or unwraps: re-attaching that
# text in Python made lxml refuse it (found by fuzzing; a form feed is HTML whitespace).
FORM_FEED_AFTER_CHROME = b"<nav>Home</nav>\x0c<p>" + b"text " * 100 + b"</p>"
CONTROL_AFTER_NOSCRIPT = b"<noscript>x</noscript>\x03<p>" + b"text " * 100 + b"</p>"


@PROPERTY_SETTINGS
@given(pages(), CONTENT_TYPES)
@example(FORM_FEED_AFTER_CHROME, "text/html")
@example(CONTROL_AFTER_NOSCRIPT, None)
def test_extract_never_raises_and_keeps_to_the_allow_list(
    body: bytes, content_type: str | None
) -> None:
    result = extract(body, url=URL, content_type=content_type)
    assert isinstance(result, Article | Skip)
    if isinstance(result, Skip):
        assert result.reason
    else:
        assert block_problems(result) == []


@settings(max_examples=300, deadline=None)
@given(mutated_pages(), CONTENT_TYPES)
def test_mutated_pages_never_raise_and_keep_to_the_allow_list(
    body: bytes, content_type: str | None
) -> None:
    result = extract(body, url=URL, content_type=content_type)
    if isinstance(result, Article):
        assert block_problems(result) == []


@settings(max_examples=100, deadline=None)
@given(st.one_of(pages(), mutated_pages()))
def test_extraction_is_deterministic(body: bytes) -> None:
    assert comparable(extract(body, url=URL)) == comparable(extract(body, url=URL))


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=2048), CONTENT_TYPES)
@example(b"\xff\xfe\x00\xd8", None)  # UTF-16LE with a lone high surrogate
@example(b"\xfe\xff\xdc\x00", "text/html; charset=utf-16be")
def test_decode_never_raises_and_gives_writable_text(body: bytes, content_type: str | None) -> None:
    decoded = decode(body, content_type)
    assert isinstance(decoded.text, str)
    decoded.text.encode("utf-8")  # raises on a lone surrogate
    assert decoded.encoding
