"""Structure measures on small hand-made pages: each one kept and each one lost."""

from __future__ import annotations

from dataclasses import fields

from addon.evaluation.structure import (
    Recall,
    StructureScores,
    code_recall,
    document,
    file_name,
    finds,
    fragment,
    heading_recall,
    image_recall,
    in_page_link_resolution,
    link_text_recall,
    srcset_urls,
    structure_scores,
    targets,
)

URL = "http://fakehost/test/page.html"
REFERENCE = """
<div id="readability-page-1">
  <h2 id="intro">Getting   started</h2>
  <p>Run <a href="#setup">the setup</a>, see <a href="#nowhere">broken</a>
     and <a href="https://example.org/doc">the docs</a>.</p>
  <pre>pip install
      plainview</pre>
  <pre><code>plainview eval</code></pre>
  <img src="/images/figure-1.png?width=600">
  <img srcset="lazy.jpg 1x, lazy@2x.jpg 2x">
  <h3 id="setup">Setup</h3>
  <p><a href="#intro">[1]</a> <a href="#setup">[1]</a></p>
</div>
"""


def test_the_reference_itself_scores_full_marks() -> None:
    scores = structure_scores(REFERENCE, REFERENCE, title="", url=URL)
    # The link to #nowhere has no target in the reference, so it is not counted.
    assert scores == StructureScores(
        code=Recall(2, 2),
        headings=Recall(2, 2),
        images=Recall(2, 2),
        link_texts=Recall(5, 5),
        in_page_links=Recall(3, 3),
    )


def test_an_empty_prediction_finds_nothing() -> None:
    scores = structure_scores(REFERENCE, "", title="", url=URL)
    recalls = [getattr(scores, field.name) for field in fields(scores)]
    assert [recall.found for recall in recalls] == [0] * 5
    assert [recall.rate for recall in recalls] == [0.0] * 5


def test_recall_rate_is_none_without_reference_items() -> None:
    assert Recall(0, 0).rate is None
    assert Recall(1, 4).rate == 0.25


def test_code_kept_as_code_is_found_whatever_its_whitespace() -> None:
    reference = document("<pre>a  =  1\n  b = 2</pre><pre>   </pre><pre>c()</pre>")
    kept = document("<pre>a = 1\nb = 2</pre><p>Then <code>c()</code>.</p>")
    assert code_recall(reference, kept) == Recall(2, 2)  # the blank block does not count


def test_code_turned_into_prose_or_changed_is_lost() -> None:
    reference = document("<pre>a = 1\nb = 2</pre><pre>Print(x)</pre>")
    prose = document("<p>a = 1 b = 2</p><pre>print(x)</pre>")  # case matters in code
    assert code_recall(reference, prose) == Recall(0, 2)


def test_a_code_block_split_in_two_still_counts() -> None:
    reference = document("<pre>line one\nline two</pre>")
    split = document("<pre>line one</pre><pre>line two</pre>")
    assert code_recall(reference, split) == Recall(1, 1)


def test_headings_are_found_at_any_level_or_as_the_headline() -> None:
    reference = document("<h1>The Title</h1><h2>Café  Menu</h2><h3>Prices</h3><h4> </h4>")
    prediction = document("<h3>café menu</h3><h2>PRICES</h2>")
    assert heading_recall(reference, prediction, "The  title") == Recall(3, 3)


def test_headings_turned_into_paragraphs_are_lost() -> None:
    reference = document("<h2>Menu</h2><h2>Prices</h2>")
    prediction = document("<p>Menu</p><h2>Price list</h2>")
    assert heading_recall(reference, prediction, "Menu card") == Recall(0, 2)


def test_images_are_found_by_file_name_in_src_or_srcset() -> None:
    reference = document(
        '<img src="http://fakehost/a/photo%20one.jpg?w=100"><img src="b.png">'
        '<img data-src="lazy.png"><img src="data:image/png;base64,AAAA">'
    )
    prediction = document(
        '<img src="https://cdn.example/x/photo one.jpg">'
        '<picture><source srcset="https://cdn.example/b.png 2x"><img src="b-small.png"></picture>'
        '<img src="data:image/png;base64,AAAA">'
    )
    # The image without src or srcset has no name and is not counted.
    assert image_recall(reference, prediction) == Recall(3, 3)


def test_images_dropped_or_renamed_are_lost() -> None:
    reference = document('<img src="/a/figure.png"><img src="/a/chart.svg">')
    prediction = document('<img src="/a/figure-small.png"><p>chart.svg</p>')
    assert image_recall(reference, prediction) == Recall(0, 2)


def test_srcset_urls_and_file_names() -> None:
    assert srcset_urls(" a.jpg 1x, b.jpg 2x ,c.jpg,  d.jpg 300w") == ["a.jpg", "b.jpg", "d.jpg"]
    assert srcset_urls("https://img.example/w_100,h_80/e.jpg 100w") == [
        "https://img.example/w_100,h_80/e.jpg"
    ]
    assert srcset_urls("  ") == []
    assert file_name("https://x.example/a/b%C3%A9.png?size=2#top") == "bé.png"
    assert file_name("/folder/") == ""
    assert file_name(" DATA:image/gif;base64,R0lG/ODlh ") == "DATA:image/gif;base64,R0lG/ODlh"


def test_link_texts_count_as_multisets() -> None:
    reference = document(
        '<a href="/1">[1]</a><a href="/2">[1]</a><a href="/3">Read  more</a><a></a>'
    )
    prediction = document('<a href="/x">read more</a><a href="/y">[1]</a><a href="/z">[2]</a>')
    # One "[1]" of two, "read more"; the empty link is not counted.
    assert link_text_recall(reference, prediction) == Recall(2, 3)


def test_link_texts_left_as_plain_text_are_lost() -> None:
    reference = document('<a href="/a">Sources</a>')
    prediction = document("<p>Sources</p>")
    assert link_text_recall(reference, prediction) == Recall(0, 1)


def test_in_page_links_resolve_when_their_twin_points_at_a_kept_target() -> None:
    reference = document(
        '<a href="#a">one</a><a href="#b">[1]</a><a href="#c">[1]</a>'
        '<h2 id="a">A</h2><p id="b">B</p><a name="c"></a><a href="#gone">dead</a>'
    )
    prediction = document(
        f'<a href="{URL}#a">one</a><a href="#b">[1]</a><a href="#c">[1]</a>'
        '<h2 id="a">A</h2><p id="b">B</p><a name="c">C</a>'
    )
    assert in_page_link_resolution(reference, prediction, URL) == Recall(3, 3)


def test_in_page_links_fail_without_target_twin_or_in_page_href() -> None:
    reference = document(
        '<a href="#a">one</a><a href="#b">two</a><a href="#c">three</a>'
        '<h2 id="a">A</h2><h2 id="b">B</h2><h2 id="c">C</h2>'
    )
    prediction = document(
        # The target's id is gone; the second link points at another page; no third link.
        '<a href="#a">one</a><a href="http://fakehost/other.html#b">two</a>'
        "<h2>A</h2><h2 id='b'>B</h2><h2 id='c'>C</h2>"
    )
    assert in_page_link_resolution(reference, prediction, URL) == Recall(0, 3)


def test_fragments_and_targets() -> None:
    assert fragment("#x", URL) == "x"
    assert fragment(f"{URL}#x", URL) == "x"
    assert fragment("page.html#x", URL) == "x"
    assert fragment("other.html#x", URL) == ""
    assert fragment("", URL) == ""
    assert fragment("#", URL) == ""
    assert targets(document('<p id="a"><a name="b">x</a><!-- c --><span id="">y</span></p>')) == {
        "a",
        "b",
    }
    # Browsers look a fragment up as written, then percent-decoded.
    assert finds("caf%C3%A9", {"café"})
    assert finds("caf%C3%A9", {"caf%C3%A9"})
    assert not finds("", {""})
    assert not finds("cafe", {"café"})


def test_a_wikis_edit_link_in_firefoxs_headings_is_not_asked_for() -> None:
    expected = document(
        "<div><h2>History<span>[<a href='/w?action=edit'>edit</a>]</span></h2></div>"
    )
    predicted = document("<div><h2 id='History'>History</h2></div>")
    assert heading_recall(expected, predicted, "Title") == Recall(1, 1)
    # A heading of Firefox's that is its edit link alone (wikipedia: the title of
    # the "Community" section lost, "[edit]" left) holds no words to recall.
    bare = document(
        "<div><h2>History</h2><h2><span>[<a href='/w?action=edit'>edit</a>]</span></h2></div>"
    )
    assert heading_recall(bare, predicted, "Title") == Recall(1, 1)


def test_a_wikis_edit_link_is_not_asked_for_among_the_link_texts() -> None:
    expected = document(
        "<div><h2>History<span>[<a href='/w?action=edit'>edit</a>]</span></h2>"
        "<p><a href='/wiki/Edit'>edit</a> and <a href='/wiki/Netscape'>Netscape</a></p></div>"
    )
    predicted = document("<div><h2>History</h2><p><a href='/x'>Netscape</a></p></div>")
    # The heading's edit link is furniture; an "edit" link in the prose is the article's.
    assert link_text_recall(expected, predicted) == Recall(1, 2)


def test_an_in_page_link_without_text_is_not_asked_for() -> None:
    expected = document(
        "<div><h2 id='a'>A<a href='#a'></a></h2><p><a href='#a'>to A</a></p></div>"
    )
    predicted = document("<div><h2 id='a'>A</h2><p><a href='#a'>to A</a></p></div>")
    assert in_page_link_resolution(expected, predicted, "http://fakehost/test/page.html") == (
        Recall(1, 1)
    )
