"""Line normalisation and the hyperlink filters (thesis §4.3.1, §4.6.1)."""

import lxml.html

from addon.core.lines import anchor_code_chars, build_lines, filter3, tag_code_chars
from addon.core.params import DanagParams
from addon.core.preprocess import parse

BBC = '<a href="http://www.BBC.com/">BBC Web Site</a>'


def test_filter3_worked_example_lt_minus_7() -> None:
    assert filter3(BBC) == "<a _____>BBC Web Site</a>"


def test_filter3_lt_minus_5_as_in_the_2012_paper() -> None:
    assert filter3(BBC, placeholder_offset=5) == "<a _______>BBC Web Site</a>"


def test_filter3_short_anchor_gets_no_placeholder() -> None:
    assert filter3('<a href="/x" class="y">Go</a>') == "<a>Go</a>"


def test_anchor_code_chars_match_the_filtered_markup() -> None:
    filtered = filter3(BBC)
    code = len(filtered) - len("BBC Web Site")
    assert anchor_code_chars(12, filter=3) == code == 13
    assert anchor_code_chars(12, filter=3, placeholder_offset=5) == 15
    assert anchor_code_chars(12, filter=2) == len("<a></a>")
    assert anchor_code_chars(12, filter=1) == 0


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
