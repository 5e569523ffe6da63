"""Tests for addon.core.output.text."""

from __future__ import annotations

import copy
import re
import sys

import lxml.html
import pytest
from fragments import HOLDERS, THOROUGH
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from addon.core.output.text import (
    _marked_text,
    _serialise,
    block_texts,
    break_code_lines,
    lines_of_marks,
    part_glued_words,
    pre_text,
    raise_note_links,
    reading_minutes,
    serialise_all,
    word_count,
)


def test_word_count() -> None:
    assert word_count("") == 0
    assert word_count("  The cat's 2 hats — on!  ") == 6
    assert word_count("كتب الولد الدرس") == 3
    assert word_count("日本語 text") == 4


def test_reading_minutes() -> None:
    assert reading_minutes(0) == 0
    assert reading_minutes(1) == 1
    assert reading_minutes(230) == 1
    assert reading_minutes(231) == 2
    assert reading_minutes(1000, wpm=100) == 10




_PLAIN_WORDS = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+"


# Letters, digits, CJK; and the CJK-range characters that are no letters (゠ ・
# and a combining mark), numbers str.isalnum takes (² ½ ٣), a combining accent.
_WORD_ALPHABET = (
    "ab1_ \u00e9\u0436\u65e5\u672c\u3042'-\n\u30a0\u30fb\u30fc\u3099\u00b2\u00bd\u0663\u0301"
)


@THOROUGH
@given(HOLDERS)
def test_one_serialisation_gives_each_block_what_its_own_gives(holder: etree._Element) -> None:
    roots = list(holder)
    expected = [_serialise(block) for block in roots]
    assert serialise_all(holder, roots) == expected


@THOROUGH
@given(HOLDERS)
def test_text_written_for_all_blocks_at_once_is_the_text_of_each_marked_tree(
    holder: etree._Element,
) -> None:
    roots = list(holder)
    expected = [_marked_text(copy.deepcopy(block)) for block in roots]
    assert block_texts(holder, roots) == expected


@given(st.text(st.sampled_from(_WORD_ALPHABET), max_size=16))
def test_word_count_counts_what_the_plain_pattern_finds(text: str) -> None:
    assert word_count(text) == len(re.findall(_PLAIN_WORDS, text))


def test_word_count_takes_each_character_as_the_pattern_does() -> None:
    # Every code point, alone and after a letter: where a word starts, and whether it goes on.
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert word_count(char) == len(re.findall(_PLAIN_WORDS, char)), hex(code)
        assert word_count("a" + char) == len(re.findall(_PLAIN_WORDS, "a" + char)), hex(code)


def test_lines_collapse_white_space_and_drop_control_characters_and_empty_lines() -> None:
    marked = (
        "\ufdd0 a \u3000 b \x0bc\ufdd0\ufdd0 \xa0\ufdd0d\ufdd5\ufdd0e\x85\ufdd0\U0001f600 \ufffe"
    )
    assert lines_of_marks(marked) == "a b c\nd\ufdd5\ne\n\U0001f600"
    assert lines_of_marks("") == ""


def test_a_cells_lines_after_a_break_stay_in_the_tables_text() -> None:
    holder = etree.fromstring(
        "<div><table><tr><th>Battery</th><td>Smartwatch: 40 days<br/>GPS: 118 hours</td>"
        "<td>Daily: 36 days</td></tr></table></div>"
    )
    (text,) = block_texts(holder, list(holder))
    assert text.split("\n") == ["Battery\tSmartwatch: 40 days", "GPS: 118 hours\tDaily: 36 days"]


def test_a_pre_broken_into_lines_by_br_keeps_its_lines_in_the_text() -> None:
    pre = etree.fromstring("<pre>import os<br/>import time<br/><br/>x = 1</pre>")
    assert pre_text(pre) == "import os\nimport time\n\nx = 1"
    # The pre itself stays as it was.
    assert etree.tostring(pre) == b"<pre>import os<br/>import time<br/><br/>x = 1</pre>"


@pytest.mark.parametrize(
    ("code", "text"),
    [
        # Issue 28: tailwindcss.com's docs (wcxb-dev 2876) write each line of code as a
        # `span.line` with no newline between, shown as blocks by CSS: the reader view
        # ran "npm create vite@latest my-project" into "cd my-project".
        (
            "<span class='line'><span>npm</span> create vite</span>"
            "<span class='line'>cd my-project</span>\n<span class='line'>npm install</span>"
            "<span class='line-number'>4</span>",
            "npm create vite\ncd my-project\nnpm install4",
        ),
        # gatsby-remark-prismjs's highlighted lines (legacy.reactjs.org, wcxb-dev 4402):
        # a class word ending in "-line", the newline dropped, an empty one a blank line.
        (
            "<span class='gatsby-highlight-code-line'>a = useState(null);</span>"
            "<span class='gatsby-highlight-code-line'></span>"
            "<span class='gatsby-highlight-code-line'>  useEffect(() =&gt; {</span>"
            "<span class='token-line'>  });</span><span class='underline'>x</span>",
            "a = useState(null);\n\n  useEffect(() => {\n  });x",
        ),
        # GitBook's `span.highlight-line` holds its own newline (wcxb-dev 0498).
        (
            "<span class='highlight-line'><span>nvm install 10<!-- -->\n</span></span>"
            "<span class='highlight-line'><span>nvm install 20</span></span>",
            "nvm install 10\nnvm install 20",
        ),
        # CodeMirror's `<div class="cm-line">` (react.dev, wcxb-dev 0674, 2873) and any
        # div inside a pre: a browser starts each on a new line.
        (
            "<div class='cm-line'>/* In your CSS */</div><div class='cm-line'>.a {</div>"
            "<div>  margin: 0;</div><div>}</div>",
            "/* In your CSS */\n.a {\n  margin: 0;\n}",
        ),
    ],
)
def test_code_lines_set_apart_by_a_style_keep_their_line_breaks(code: str, text: str) -> None:
    pre = lxml.html.fragment_fromstring(f"<pre><code>{code}</code></pre>")
    break_code_lines(pre)
    assert pre.text_content() == text


def test_a_footnotes_number_link_is_raised() -> None:
    # Substack (wcxb-dev 0460): "Siemens.1 By walking" without the style sheet.
    holder = lxml.html.fragment_fromstring(
        '<div><p>Siemens.<a class="footnote-anchor" href="https://x.example/p#footnote-1">1</a>'
        ' By walking. <a class="footnote" href="#n">see the note</a>'
        '<sup><a class="footnote-anchor" href="#footnote-2">2</a></sup></p></div>'
    )
    raise_note_links(holder)
    html = lxml.html.tostring(holder, encoding="unicode")
    assert 'href="https://x.example/p#footnote-1"><sup>1</sup></a> By walking.' in html
    assert '<a class="footnote" href="#n">see the note</a>' in html  # words, not a number
    assert '<sup><a class="footnote-anchor" href="#footnote-2">2</a></sup>' in html  # as it was


def test_a_counter_is_parted_from_the_words_after_it() -> None:
    # wcxb-dev 0002: `<span class="faq-item--counter">01.</span>Can Tastewise ...`.
    holder = lxml.html.fragment_fromstring(
        "<div><p><span>01.</span>Can it help?</p><p><span>U.S.</span>Army</p>"
        "<p><span>in 2024.</span>The</p></div>"
    )
    part_glued_words(holder)
    assert [p.text_content() for p in holder] == ["01. Can it help?", "U.S.Army", "in 2024.The"]


def test_code_lines_parted_by_a_control_character_keep_their_line_break() -> None:
    # The parser keeps a U+0003 between two lines, which lxml refuses from its API.
    pre = lxml.html.fragment_fromstring(
        "<pre><code><span class='line'>a = 1</span>\x03<span class='line'>b = 2</span></code></pre>"
    )
    break_code_lines(pre)
    assert pre.text_content() == "a = 1\nb = 2"


@pytest.mark.parametrize(
    ("html", "text"),
    [
        # yahoo-2's byline: the style sheet's padding parts the provider from the date.
        (
            "<p><span class='provider'><span><a href='/ap'>Associated Press</a></span></span>"
            "<time class='date'>December 2, 2016</time></p>",
            "Associated Press December 2, 2016",
        ),
        # breitbart's: author, date and comment count, each a box of its own.
        (
            "<p><span class='by-author'><span>by</span> <a href='/a'>Lucas Nolan</a></span>"
            "<span class='bydate'>22 Dec 2016</span><a class='bycount' href='#c'>651</a></p>",
            "by Lucas Nolan 22 Dec 2016 651",
        ),
        (
            "<p><a href='/1'>Wall Mirrors</a><a href='/2'>Vanity Mirrors</a></p>",
            "Wall Mirrors Vanity Mirrors",
        ),
        # Two links to two places, nothing between them: a table of contents' entries
        # laid out as blocks ("Necessary?02 How to Measure", wcxb-dev 4416).
        (
            "<p><a href='#why'>01 Why Is It Necessary?</a><a href='#how'>02 How</a></p>",
            "01 Why Is It Necessary? 02 How",
        ),
        ("<p><a href='/x'>un</a><a href='/x'>believable</a></p>", "unbelievable"),
        ("<p><a href='http://video.mp/'>video.mp</a><a href='/v.mp4'>4</a></p>", "video.mp4"),
        # Inside one word, a drop cap and a word's emphasised half stay joined.
        ("<p><span class='dropcap'>T</span><span>he</span> end.</p>", "The end."),
        ("<p><b>un</b><i>believable</i>, <b>Java</b>script</p>", "unbelievable, Javascript"),
        (
            "<p>the <b>23</b><sup>rd</sup>, <b>12</b><span>th</span>, 5<span>km</span></p>",
            "the 23rd, 12th, 5km",
        ),
        ("<p>a <i>word</i><sup>12</sup> and <b>CO</b><sub>2</sub></p>", "a word12 and CO2"),
        # Code is the page's own characters; so is a formula, and text without case.
        ("<pre><span class='n'>Foo</span><span class='mi'>22</span></pre>", "Foo22"),
        ("<p><code><span>Foo</span><span>22</span></code></p>", "Foo22"),
        ("<p><span>新闻</span><span>中心</span><span>第</span><span>33</span></p>", "新闻中心第33"),
        # Already apart, by a space or by a line break.
        ("<p><span>Written By</span><span><br>John Goreham</span></p>", "Written ByJohn Goreham"),
        ("<p><a href='/1'>Home</a> <a href='/2'>News</a></p>", "Home News"),
    ],
)
def test_words_a_style_sheet_sets_apart_are_parted(html: str, text: str) -> None:
    holder = lxml.html.fragment_fromstring(html, create_parent="div")
    part_glued_words(holder)
    assert holder.text_content() == text


def test_an_empty_icon_between_two_words_parts_them() -> None:
    # wcxb-dev 1066: a visible icon the view drops, empty, between a date and a time.
    holder = lxml.html.fromstring(
        "<p><time>7/9/05<i></i>7:57 PM</time> a<span class='note'></span>b"
        " <a>name</a><span class='online-icon'></span><span>Member</span></p>"
    )
    part_glued_words(holder)
    etree.strip_elements(holder, "i", with_tail=False)
    assert holder.text_content() == "7/9/05 7:57 PM ab name Member"
