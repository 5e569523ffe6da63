"""Line normalisation and the hyperlink filters (thesis §4.3.1, §4.6.1)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml.html import HtmlElement

from addon.core.heuristics.parse import parse
from addon.core.paper.lines import (
    BLOCK_TAGS,
    Line,
    anchor_code_chars,
    build_lines,
    count_line,
    tag_code_chars,
    walk_lines,
)
from addon.core.params import ALGORITHMS, Counting, DanagParams, Filter

BBC = '<a href="http://www.BBC.com/">BBC Web Site</a>'


def test_filter3_worked_example_lt_minus_7() -> None:
    # §4.6.1: <a href="http://www.BBC.com/">BBC Web Site</a> becomes <a _____>BBC Web Site</a>.
    assert anchor_code_chars(len("BBC Web Site"), filter=3) == len("<a _____>") + len("</a>")


def test_filter3_lt_minus_5_as_in_the_2012_paper() -> None:
    code = anchor_code_chars(len("BBC Web Site"), filter=3, placeholder_offset=5)
    assert code == len("<a _______>") + len("</a>") == 15


def test_filter3_short_anchor_gets_no_placeholder() -> None:
    # <a href="/x" class="y">Go</a> becomes <a>Go</a>: LT-7 is below one.
    assert anchor_code_chars(len("Go"), filter=3) == len("<a>") + len("</a>")


def test_filters_1_and_2_remove_the_anchor_or_its_attributes() -> None:
    assert anchor_code_chars(12, filter=2) == len("<a></a>")
    assert anchor_code_chars(12, filter=1) == 0


def test_filter3_counts_in_the_lines_of_a_page() -> None:
    root = parse(f"<html><body><p>{BBC} and more words here</p></body></html>")
    assert root is not None
    paper = ALGORITHMS["addanag-paper"].danag
    (line,) = [line for line in build_lines(root, paper) if line.tag == "p"]
    assert line.link_chars == len("BBC Web Site")
    assert line.t2 == len("<p>") + len("</p>") + len("<a _____>") + len("</a>")


def test_tag_code_chars_counts_the_source_form() -> None:
    element = lxml.html.fragment_fromstring('<p class="lead" id="a">x</p>')
    assert tag_code_chars(element) == len('<p class="lead" id="a">') + len("</p>")
    image = lxml.html.fragment_fromstring('<img src="a.png">')
    assert tag_code_chars(image) == len('<img src="a.png">')


def test_tag_code_chars_caps_each_attribute() -> None:
    element = lxml.html.fragment_fromstring('<div class="a very long class list" id="x">y</div>')
    # class="..." is capped at 20 characters, id="x" is shorter than the cap.
    expected = len("<div></div>") + 20 + len(' id="x"')
    assert tag_code_chars(element, max_attribute_chars=20) == expected


def test_capped_attributes_count_in_the_line_code() -> None:
    root = lxml.html.document_fromstring(
        '<html><body><p class="a very long class list">One <span id="s">two</span>'
        ' <img src="a.png" alt="x"></p></body></html>'
    )
    lines = build_lines(root, DanagParams(max_attribute_chars=20))
    line = next(line for line in lines if line.tag == "p")
    elements = [root.find(".//p"), root.find(".//span"), root.find(".//img")]
    assert line.text == "One two"
    assert line.t2 == sum(tag_code_chars(el, max_attribute_chars=20) for el in elements)
    span, image = '<span id="s"></span>', '<img src="a.png" alt="x">'
    assert line.t2 == len("<p></p>") + 20 + len(span) + len(image)


PAGE = (
    "<html><body><div class='nav'><a href='/a'>Home</a> <a href='/b'>News</a></div>"
    "<div id='story'><h1>Title here</h1><p>First <b>bold</b> paragraph.</p>"
    "tail text<p>Second one with <a href='http://www.BBC.com/'>BBC Web Site</a>.</p></div>"
    "</body></html>"
)


def _lines(filter_: int) -> list[tuple[str, str, int, int, int]]:
    root = lxml.html.document_fromstring(PAGE)
    lines = build_lines(root, DanagParams(filter=filter_))  # type: ignore[arg-type]
    return [(line.tag, line.text, line.t1, line.t2, line.link_chars) for line in lines]


def test_one_line_per_block_with_text_in_document_order() -> None:
    texts = [(tag, text) for tag, text, *_ in _lines(3)]
    assert texts == [
        ("html", ""),
        ("body", ""),
        ("div", "Home News"),
        ("div", ""),
        ("h1", "Title here"),
        ("p", "First bold paragraph."),
        ("div", "tail text"),
        ("p", "Second one with BBC Web Site."),
    ]


def test_counts_under_filter_3() -> None:
    lines = {text: (t1, t2, links) for _, text, t1, t2, links in _lines(3)}
    assert lines["First bold paragraph."] == (21, len("<p></p><b></b>"), 0)
    assert lines["Second one with BBC Web Site."] == (29, len("<p></p>") + 13, 12)
    # "Home" and "News" are shorter than 7: the anchors keep a bare <a>; a
    # start tag's code is counted as the source form <div class="nav"></div>.
    nav_code = len('<div class="nav"></div>') + 2 * len("<a></a>")
    assert lines["Home News"] == (9, nav_code, len("HomeNews"))


def test_filter_1_removes_anchors_and_their_text() -> None:
    texts = [text for _, text, *_ in _lines(1)]
    assert "Second one with ." in texts
    assert "Home News" not in texts


def test_filter_0_counts_anchor_markup_as_it_is() -> None:
    lines = {text: (t1, t2) for _, text, t1, t2, _ in _lines(0)}
    assert lines["Second one with BBC Web Site."][1] == len("<p></p>") + len(
        '<a href="http://www.BBC.com/"></a>'
    )


def test_r2l_counts_rtl_letters_against_ascii() -> None:
    root = lxml.html.document_fromstring("<p>مرحبا بالعالم abc</p>")
    lines = build_lines(root, DanagParams(filter=0, counting="r2l"))
    line = next(line for line in lines if line.tag == "p")
    assert line.t1 == 12
    assert line.t2 == len("<p></p>") + 3


def test_deep_nesting_does_not_recurse() -> None:
    depth = 5000
    root = parse("<div>" * depth + "<p>deep</p>" + "</div>" * depth)
    assert root is not None
    lines = build_lines(root, DanagParams())
    assert any(line.text == "deep" for line in lines)


def _rows(lines: list[Line]) -> list[tuple[str, str, int, int, int]]:
    return [(line.tag, line.text, line.t1, line.t2, line.link_chars) for line in lines]


def test_anchor_holding_a_block_counts_its_text_on_both_lines() -> None:
    root = lxml.html.fragment_fromstring(
        "<div>Before <a href='/x'>linked <p>inner link</p> after</a> plain</div>"
    )
    rows = _rows(build_lines(root, DanagParams(filter=2)))
    assert rows == [
        ("div", "Before linked", 13, len("<div></div><a></a>"), len("linked")),
        ("p", "inner link", 10, len("<p></p>"), len("inner link")),
        ("div", "after plain", 11, 0, len("after")),
    ]


def test_filter_1_drops_the_anchor_subtree_and_keeps_its_tail() -> None:
    root = lxml.html.fragment_fromstring(
        "<div>A <a href='/x'>gone <b>also <i>gone</i></b><p>block gone</p></a>"
        " tail <i>kept</i></div>"
    )
    rows = _rows(build_lines(root, DanagParams(filter=1)))
    assert rows == [("div", "A tail kept", 11, len("<div></div><i></i>"), 0)]


def test_comments_and_their_tails_are_left_out() -> None:
    root = lxml.html.fragment_fromstring("<p>One <!-- note -->lost<?pi x?>also lost <b>two</b></p>")
    code = len("<p></p><b></b>")
    assert _rows(build_lines(root, DanagParams())) == [("p", "One two", 7, code, 0)]


def test_white_space_lines_and_a_subtree_root() -> None:
    page = lxml.html.document_fromstring("<html><body><div>\n <span> </span>\n</div></body></html>")
    span = page.find(".//span")
    assert span is not None
    # A span holds no block: it is its own single line, code only.
    assert _rows(build_lines(span, DanagParams())) == [("span", "", 0, len("<span></span>"), 0)]
    rows = _rows(build_lines(page, DanagParams()))
    assert rows[-1] == ("div", "", 0, len("<div></div><span></span>"), 0)


class _EventWalk:
    """Cut lines with a plain start/end event walk, the definition build_lines follows."""

    def __init__(self, root: HtmlElement, params: DanagParams) -> None:
        self.params = params
        self.rows: list[tuple[object, ...]] = []
        self.owners = [root]
        self.texts: list[str] = []
        self.links: list[str] = []
        self.code = 0
        self.anchors = 0

    def flush(self) -> None:
        text = " ".join("".join(self.texts).split())
        if text or self.code:
            link_chars = len(" ".join("".join(self.links).split()))
            t1, t2 = count_line(text, self.code, counting=self.params.counting)
            owner = self.owners[-1]
            self.rows.append((owner, owner.tag, text, t1, t2, link_chars))
        self.texts, self.links, self.code = [], [], 0

    def add(self, text: str | None) -> None:
        if text:
            self.texts.append(text)
            self.links += [text] if self.anchors else []

    def start(self, element: HtmlElement, walker: etree.iterwalk) -> None:
        params = self.params
        if element.tag in BLOCK_TAGS:
            self.flush()
            self.owners.append(element)
        if element.tag != "a":
            self.code += tag_code_chars(element, max_attribute_chars=params.max_attribute_chars)
        elif params.filter == 1:
            walker.skip_subtree()
            return
        elif params.filter == 0:
            self.code += tag_code_chars(element, max_attribute_chars=params.max_attribute_chars)
        else:
            link = len(element.text_content())
            offset = params.placeholder_offset
            self.code += anchor_code_chars(link, filter=params.filter, placeholder_offset=offset)
        self.anchors += element.tag == "a"
        self.add(element.text)

    def end(self, element: HtmlElement) -> None:
        self.anchors -= element.tag == "a" and self.params.filter != 1
        if element.tag in BLOCK_TAGS:
            self.flush()
            self.owners.pop()
        self.add(element.tail)

    def run(self, root: HtmlElement) -> list[tuple[object, ...]]:
        walker = etree.iterwalk(root, events=("start", "end"), tag=etree.Element)
        for event, element in walker:
            if event == "start":
                self.start(element, walker)
            else:
                self.end(element)
        self.flush()
        return self.rows


FRAGMENTS = [
    "<div>", "</div>", "<p class='lead story'>", "</p>", "<a href='/some/where'>", "</a>",
    "<a href='#x' class='a-very-long-class-name'>", "<b>", "</b>", "<br>", "<img src=x.png>",
    "<li>", "<ul>", "</ul>", "<h2 id=t>", "</h2>", "<!-- c -->", "<span>", "</span>",
    " ", "\n  ", "word ", "linked text", "مرحبا", "\xa0", "<td>", "<table>", "</table>",
    "\u3000", "\u2028 ", "\x1c", "\u200b", "é", "<p title='ééééééééééééééééééééééé'>",
    "<a title='日本語の長いタイトルです日本語の長いタイトル'>",
]  # fmt: skip
FILTERS: tuple[Filter, ...] = (0, 1, 2, 3)
VARIANTS: tuple[tuple[int, Counting, int | None], ...] = (
    (7, "danag", None),
    (5, "r2l", 20),
    (0, "danag", 3),
)
PARAMS = [
    DanagParams(filter=f, placeholder_offset=o, counting=c, max_attribute_chars=cap)
    for f in FILTERS
    for o, c, cap in VARIANTS
]


Cut = Callable[[etree._Element, DanagParams], list[Line]]


@pytest.mark.parametrize("cut", [build_lines, walk_lines], ids=["compiled", "python"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.sampled_from(PARAMS))
def test_lines_match_the_plain_event_walk(
    cut: Cut, fragments: list[str], params: DanagParams
) -> None:
    root = lxml.html.document_fromstring("<html><body>" + "".join(fragments) + "x</body></html>")
    lines = cut(root, params)
    expected = _EventWalk(root, params).run(root)
    assert [(line.element, *_rows([line])[0]) for line in lines] == expected


def test_the_compiled_walk_is_built() -> None:
    # build_lines falls back to walk_lines without it: slower, so the install
    # must have built it (pip install -e . with a C compiler and Python's headers).
    assert importlib.util.find_spec("addon.core._lines") is not None


def _records(lines: list[Line]) -> list[tuple[object, ...]]:
    return [(line.element, *_rows([line])[0]) for line in lines]


GOLDEN_SOURCES = sorted((Path(__file__).parents[2] / "golden").glob("*/source.html"))


@pytest.mark.parametrize("source", GOLDEN_SOURCES, ids=lambda path: path.parent.name)
def test_both_walks_cut_the_golden_pages_alike(source: Path) -> None:
    root = parse(source.read_text(encoding="utf-8"))
    assert root is not None
    for params in ALGORITHMS.values():
        assert _records(build_lines(root, params.danag)) == _records(walk_lines(root, params.danag))


def test_both_walks_cut_long_lines_and_deep_blocks_alike() -> None:
    # Past the compiled walk's first buffer (4 KB of text) and owner stack (64 blocks).
    text = "word é " * 2000
    page = "<div>" * 300 + f"<p>{text}<a href='/x'>{text}</a></p>" + "</div>" * 300
    root = parse(f"<html><body>{page}</body></html>")
    assert root is not None
    params = DanagParams(max_attribute_chars=20)
    lines = build_lines(root, params)
    assert _records(lines) == _records(walk_lines(root, params))
    assert max(line.t1 for line in lines) == len((text * 2).strip())


def test_both_walks_read_namespaced_elements_alike() -> None:
    root = lxml.html.document_fromstring("<html><body><p>One</p></body></html>")
    body = root.find("body")
    assert body is not None
    odd = etree.SubElement(body, "{urn:x}div", {"{urn:y}a": "v"})
    odd.text = "namespaced"
    params = DanagParams()
    lines = build_lines(root, params)
    assert _records(lines) == _records(walk_lines(root, params))
    # "{urn:x}div" is no block: its text joins the body's line, its long tag the code.
    assert lines[-1].tag == "body" and lines[-1].text == "namespaced"
