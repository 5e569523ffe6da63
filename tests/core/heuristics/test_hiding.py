"""Tests for addon.core.heuristics.hiding."""

from __future__ import annotations

import lxml.html
import pytest
from fragments import body_of, text_after

from addon.core.heuristics.hiding import (
    _repeated_units,
    closed_panels_dropped,
    drop_classed_hidden,
    drop_hidden,
    drop_non_content,
    embolden_summaries,
    flatten_math,
    is_rendering_twin,
    keeps_unvoiced,
    label_tab_panels,
    restore_formulas,
    unwrap_noscript,
)
from addon.core.heuristics.names import page_names
from addon.core.heuristics.parse import parse, strip_premature_end_tags


def _text(html: str) -> str:
    return text_after(html, drop_non_content)


def _unvoiced_kept(html: str, share: float | None) -> str:
    return text_after(html, lambda root: drop_hidden(root, unvoiced_max_link_share=share))


def _disclosed(html: str) -> str:
    return text_after(html, lambda root: drop_hidden(root, disclosed_max_link_share=0.5))


def _placed(html: str) -> str:
    return text_after(html, lambda root: drop_non_content(root, place_streamed=True))


def test_premature_end_tags_do_not_cut_the_page() -> None:
    page = "<html><body><p>first</p></body></html><p>second, after the trap</p></body></html>"
    assert strip_premature_end_tags(page).count("</body>") == 0
    assert _text(page) == "first second, after the trap"


def test_scripts_styles_templates_and_comments_are_dropped() -> None:
    page = (
        "<body><script>var x = 'script text';</script><style>p{}</style>"
        "<template><p>template text</p></template><!-- comment --><p>kept</p></body>"
    )
    assert _text(page) == "kept"


def test_noscript_with_real_posts_is_kept_and_a_pixel_noscript_dropped() -> None:
    post = "A forum post written by a person, long enough to be real content. " * 4
    page = (
        f"<body><noscript><img src='/pixel.gif'></noscript>"
        f"<noscript><div class='post'>{post}</div></noscript></body>"
    )
    root = parse(page)
    assert root is not None
    drop_non_content(root)
    assert not root.xpath("//noscript")
    assert not root.xpath("//img")
    assert root.xpath("//div[@class='post']")


def test_hidden_elements_are_dropped() -> None:
    page = (
        "<body><div hidden>a</div><div style='display: none'>b</div>"
        "<div aria-hidden='true'>c</div><p>d</p></body>"
    )
    assert _text(page) == "d"


def test_a_tooltips_box_is_dropped_by_its_role_not_its_class() -> None:
    # wcxb-dev 0334: an author's card shown on hover ("Countries Visited: 63").
    page = (
        "<body><p>By <span class='has-tooltip'>Amar</span>"
        "<div role='tooltip' class='tooltip'>Countries Visited: 63</div></p>"
        "<div class='tooltip'>B Corp</div>"
        f"<p>{'The bags were packed for a four-day trip and carried through airports. ' * 3}</p>"
        "</body>"
    )
    root = parse(page)
    assert root is not None
    drop_hidden(root, tooltips=True)
    text = " ".join("".join(root.itertext()).split())
    assert "Countries Visited" not in text
    assert "Amar" in text and "B Corp" in text
    kept = parse(page)
    assert kept is not None
    drop_hidden(kept)
    assert "Countries Visited" in "".join(kept.itertext())


def test_a_class_word_a_platform_always_hides_is_dropped() -> None:
    # wcxb-dev 4606: Webflow's `w-condition-invisible` hides an unused audio player
    # ("Listen to the audio version", "13:47", "/", "19:15", "1x").
    page = (
        "<body><div class='embed-audio-player w-condition-invisible w-embed'>"
        "<div>Listen to the audio version</div><div>13:47</div></div>"
        "<div class='hide'>Kept: a site's own sheet decides.</div>"
        f"<p>{'A freelance developer builds sites for clients of every size. ' * 3}</p>"
        "</body>"
    )
    root = parse(page)
    assert root is not None
    values = page_names(root, frozenset({"w-condition-invisible"})).named(
        frozenset({"w-condition-invisible"})
    )
    drop_classed_hidden(root, values)
    text = " ".join("".join(root.itertext()).split())
    assert "Listen" not in text and "13:47" not in text
    assert "Kept" in text and "freelance" in text


def test_aria_hidden_panels_are_kept_and_aria_hidden_menus_dropped() -> None:
    page = (
        "<body><div role='tabpanel'><p>Open tab.</p></div>"
        "<div role='tabpanel' aria-hidden='true'><p>Closed tab with "
        "<a href='/x'>a link</a> in its prose.</p></div>"
        "<div aria-hidden='true'><a href='/a'>Home</a> <a href='/b'>Shop</a></div>"
        "<div aria-hidden='true' hidden>Hidden twice.</div>"
        "<div aria-hidden='true' style='display:none'>Styled away.</div></body>"
    )
    assert _unvoiced_kept(page, 0.5) == "Open tab. Closed tab with a link in its prose."
    # Without the share every aria-hidden element goes, as before.
    assert _unvoiced_kept(page, None) == "Open tab."


def test_keeps_unvoiced_weighs_link_text_against_all_text() -> None:
    def first(html: str) -> lxml.html.HtmlElement:
        root = parse(html)
        assert root is not None
        return next(root.iter("div"))

    assert keeps_unvoiced(first("<div aria-hidden='true'><i></i></div>"), 0.5)
    assert keeps_unvoiced(first("<div>an answer of words <a>one link</a></div>"), 0.5)
    assert not keeps_unvoiced(first("<div>x <a>menu entry</a> <a>another</a></div>"), 0.5)
    assert not keeps_unvoiced(first("<div><a>only a link</a></div>"), 0.99)


def test_hidden_styles_follow_the_xpath_reading() -> None:
    page = (
        "<body><div style='DISPLAY : NONE'>a</div><div style='color:red;Display:None'>b</div>"
        "<div style='display:\tnone'>c</div><div style='display:block'>d</div>"
        "<div aria-hidden='TRUE'>e</div><p>f</p></body>"
    )
    # Only spaces are ignored and only the letters of "display none" lowered, as
    # translate(@style, 'DISPLAYNOE ', 'displaynoe') reads them; aria-hidden is exact.
    assert _text(page) == "c d e f"


def test_hidden_elements_are_kept_when_they_hold_the_page() -> None:
    story = "The story, revealed by script. " * 20
    page = f"<body><div style='display:none'><p>{story}</p></div><p hidden>Menu</p></body>"
    assert _text(page) == story.strip()


def test_streamed_segments_take_their_slots_and_show() -> None:
    page = (
        "<body><h1>Title</h1><template id='B:0'></template><p>Loading</p>"
        "<p>Footer</p><div hidden id='S:0'><p>The article.</p></div> tail"
        "<script>$RC(\"B:0\",\"S:0\")</script></body>"
    )
    assert _placed(page) == "Title The article. Loading Footer tail"
    assert _text(page) == "Title Loading Footer tail"


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        pytest.param(
            "<body><template id='B:a'></template><p>middle</p><template id='P:1'></template>"
            "<div hidden id='S:1'>last <template id='B:2'></template></div>"
            "<div hidden id='S:a'>first</div><div hidden id='S:2'>nested</div></body>",
            "first middle last nested",
            id="boundaries-and-placeholders-of-their-number",
        ),
        pytest.param(
            "<body><p>The visible paragraph outweighs the rest.</p>"
            "<div hidden id='S:7'>orphan</div>"
            "<div hidden id='S:8'><template id='B:8'></template>inside itself</div></body>",
            "The visible paragraph outweighs the rest.",
            id="no-slot-or-its-own-slot-stays-hidden",
        ),
    ],
)
def test_streamed_segments_find_only_their_own_slots(page: str, expected: str) -> None:
    assert _placed(page) == expected


def test_markup_a_noscript_holds_as_text_is_read_as_markup() -> None:
    # A page saved with scripts on holds each noscript's content as escaped text.
    warning = (
        "&lt;div class='alertBox'&gt;&lt;p&gt;JavaScript is off.&lt;/p&gt;&lt;/div&gt;"
        "&lt;img width=1 height=1 src='https://t.example/b?p=1'&gt;"
    )
    post = "&lt;p&gt;" + "A forum post kept for readers without scripts. " * 6 + "&lt;/p&gt;"
    root = lxml.html.document_fromstring(
        f"<body><p>Story.</p><noscript>{warning}</noscript><noscript>{post}</noscript></body>"
    )
    unwrap_noscript(root)
    text = root.text_content()
    assert "<" not in text and "alertBox" not in text and "JavaScript is off" not in text
    assert "A forum post kept" in text and root.xpath("//body/p[2]")


def test_a_lazy_images_noscript_fallback_stays_and_a_lone_pixel_goes() -> None:
    root = lxml.html.document_fromstring(
        "<body><figure><div><img src='/max/60/a.png?q=20'></div><img class='full'>"
        "<noscript><img src='/max/1600/a.png'></noscript></figure>"
        "<p>Text.</p><noscript><img src='/pixel.gif'></noscript></body>"
    )
    unwrap_noscript(root)
    assert [img.get("src") for img in root.xpath("//noscript/img")] == ["/max/1600/a.png"]


def test_a_second_link_to_a_photo_hidden_from_keyboard_and_screen_reader_goes() -> None:
    # readability-even nytimes-5: each teaser's thumbnail beside its figure's photo.
    root = lxml.html.document_fromstring(
        "<body><figure><img src='/large.jpg' alt='A bridge.'></figure>"
        "<a aria-hidden='true' tabindex='-1' href='/story'><img src='/thumb.jpg' alt=''></a>"
        "<div aria-hidden='true'><img src='/slide.jpg' alt=''></div>"
        "<a aria-hidden='true' href='/x'><img src='/kept.jpg' alt=''></a><p>Text.</p></body>"
    )
    drop_hidden(root, unvoiced_max_link_share=0.5)
    assert [img.get("src") for img in root.iter("img")] == ["/large.jpg", "/slide.jpg", "/kept.jpg"]


def test_an_aria_hidden_copy_of_a_siblings_words_goes() -> None:
    # wcxb-dev 2834: an h1 animated word by word for the eye, twice (mobile and
    # desktop), beside the sentence screen readers read; the view read all three.
    sentence = "The product development system for teams and agents"
    root = lxml.html.document_fromstring(
        "<body><h1><span aria-hidden='true'><span>The product</span><span>development</span>"
        "<span>system for teams</span><span>and agents</span>"
        f"<span>The product development</span><br><span>system for teams and agents</span></span>"
        f"<span class='visually-hidden'>{sentence}</span></h1>"
        "<div><div aria-hidden='true'>Slide one of the tour.</div><p>Slide two.</p></div>"
        "<p><span aria-hidden='true'>Other words</span><span>Some words</span></p>"
        "<p><span aria-hidden='true'>Both</span><span aria-hidden='true'>Both</span></p>"
        "<div><div aria-hidden='true'>Try it</div><a href='/x'><div>Try it</div></a></div></body>"
    )
    drop_hidden(root, unvoiced_max_link_share=0.5)
    (heading,) = root.iter("h1")
    assert heading.text_content() == sentence
    assert "Slide one of the tour." in root.text_content()  # no twin beside it: a slide
    assert "Other words" in root.text_content()
    assert "BothBoth" in root.text_content()  # two copies, neither voiced: both stay
    # A twin in a link may go as a link line: the copy the eye sees stays.
    assert root.text_content().count("Try it") == 2


def test_content_hidden_until_found_stays() -> None:
    # `hidden="until-found"` folds a section the browser's find-in-page opens:
    # MediaWiki's mobile pages fold every section after the lead that way.
    root = lxml.html.document_fromstring(
        "<body><p>The lead.</p><h2>History</h2>"
        "<section hidden='until-found'><p>The town grew around its harbour.</p></section>"
        "<section hidden='UNTIL-FOUND'><p>Its mill closed in 1912.</p></section>"
        "<div hidden><p>A menu.</p></div><div hidden='hidden'><p>Another.</p></div></body>"
    )
    drop_hidden(root)
    assert [p.text for p in root.iter("p")] == [
        "The lead.", "The town grew around its harbour.", "Its mill closed in 1912."
    ]


def test_a_tickers_copies_beside_its_first_run_go() -> None:
    # wcxb-dev 0589: a ticker's run of claims, drawn twice more for the scrolling.
    run = "<li>No artificial flavors</li><li>100% vegan</li>"
    root = lxml.html.document_fromstring(
        f"<body><div><ul>{run}</ul><ul aria-hidden='true'>{run}</ul>"
        f"<ul aria-hidden='true'>{run}</ul></div></body>"
    )
    drop_hidden(root, unvoiced_max_link_share=0.5)
    assert root.text_content() == "No artificial flavors100% vegan"


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("abab", ["ab", "abab"]),
        ("aaaa", ["a", "aa", "aaaa"]),
        ("abcab", ["abcab"]),
        ("x", ["x"]),
    ],
)
def test_the_units_a_text_repeats_are_its_periods_that_divide_it(
    text: str, units: list[str]
) -> None:
    assert list(_repeated_units(text)) == units


def test_a_formula_keeps_its_text_its_powers_and_indices_and_drops_its_tex() -> None:
    root = lxml.html.document_fromstring(
        "<p>When <math><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo>"
        "<msubsup><mi>a</mi><mn>1</mn><mn>3</mn></msubsup><mo>=</mo><mn>0</mn>"
        "<annotation encoding='application/x-tex'>x^2</annotation></math> holds.</p>"
    )
    (formula,) = flatten_math(root)
    (math,) = root.iter("math")
    assert formula.flat is math
    assert lxml.html.tostring(math, encoding="unicode", with_tail=False) == (
        "<math>x<sup>2</sup>+a<sub>1</sub><sup>3</sup>=0</math>"
    )
    assert root.text_content() == "When x2+a13=0 holds."
    # The MathML as the page wrote it, less its annotation, set aside for the view.
    assert lxml.html.tostring(formula.mathml, encoding="unicode", with_tail=False) == (
        "<math><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo>"
        "<msubsup><mi>a</mi><mn>1</mn><mn>3</mn></msubsup><mo>=</mo><mn>0</mn></math>"
    )


def test_a_formula_holding_an_element_of_an_odd_name_is_flattened_too() -> None:
    # The parser takes "<b\x03" for an element; lxml refuses that name as an argument.
    root = parse("<body><p>So <math><mi>x</mi><b\x03>y</math> holds.</p></body>")
    assert root is not None
    (formula,) = flatten_math(root)
    assert formula.flat.text == "xy" and not len(formula.flat)


def test_a_formula_set_aside_goes_back_where_its_flat_text_stands() -> None:
    root = lxml.html.document_fromstring(
        "<div><p>Since <math display='block'><mfrac><mi>a</mi><mi>b</mi></mfrac></math>, so.</p>"
        "<p>And <math><msqrt><mi>c</mi></msqrt></math> too.</p></div>"
    )
    formulas = drop_non_content(root)
    assert root.text_content() == "Since ab, so.And c too."
    restore_formulas(formulas, set())
    assert [lxml.html.tostring(p, encoding="unicode") for p in root.iter("p")] == [
        '<p>Since <math display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>, so.</p>',
        "<p>And <math><msqrt><mi>c</mi></msqrt></math> too.</p>",
    ]


def test_a_formula_whose_tails_hold_a_control_character_is_flattened_and_restored() -> None:
    # The parser keeps a U+0003 it read, which lxml refuses from its API: copying such
    # a tail to a script's wrapper or to the restored MathML raised (the property test
    # of extract, "<math></math>\x03<p>...").
    root = parse("<body><p>So <math><msup><mi>x</mi><mn>2</mn>\x03</msup></math>\x03 holds.</p>")
    assert root is not None
    formulas = flatten_math(root)
    restore_formulas(formulas, set())
    (paragraph,) = root.iter("p")
    assert next(paragraph.iter("msup"), None) is not None  # the MathML, as the page wrote it
    assert "".join(paragraph.itertext()).replace("\x03", "") == "So x2 holds."


def test_a_formula_with_a_part_left_out_or_gone_from_the_page_stays_flat() -> None:
    root = lxml.html.document_fromstring(
        "<div><p>A <math><msup><mi>x</mi><mn>2</mn></msup></math>.</p>"
        "<p>B <math><mi>y</mi></math>.</p></div>"
    )
    first, second = flatten_math(root)
    (sup,) = first.flat.iter("sup")
    second.flat.getparent().remove(second.flat)
    restore_formulas((first, second), {sup})
    assert root.text_content() == "A x2.B "
    assert next(root.iter("mi"), None) is None


def rendering(glyphs: int, inside: str = "") -> lxml.html.HtmlElement:
    spans = "<mjx-c></mjx-c>" * glyphs
    return lxml.html.fragment_fromstring(
        f"<mjx-math aria-hidden='true'>\n {spans}{inside}\n</mjx-math>"
    )


def test_a_textless_aria_hidden_element_of_many_elements_is_a_rendering_twin() -> None:
    assert is_rendering_twin(rendering(12))
    assert not is_rendering_twin(rendering(3))  # an icon: a few elements
    assert not is_rendering_twin(rendering(12, "<img src='x.png'>"))  # the eye sees it
    assert not keeps_unvoiced(rendering(12), 0.5)
    assert keeps_unvoiced(rendering(3), 0.5)


ANSWER = "Injury protection pays for the care of drivers hurt in an accident."
# A hidden element holding most of a page's text stays whatever it is (drop_unless_main).
INTRO = "Intro. " + "The page's own words, more of them than any panel holds. " * 3


@pytest.mark.parametrize(
    "panel",
    [
        f'<div id="a1" style="display:none">{ANSWER}</div>',
        f'<div id="a1" hidden>{ANSWER}</div>',
        f'<div id="a1" role="region" style="display: none;"><p>{ANSWER}</p></div>',
    ],
)
def test_a_closed_accordion_answer_shows_under_its_question(panel: str) -> None:
    button = '<button aria-controls="a1" aria-expanded="false">What is it?</button>'
    page = f"<body><h3>{button}</h3>{panel}</body>"
    assert _disclosed(page) == f"What is it? {ANSWER}"


def test_without_disclosures_kept_a_closed_panel_goes() -> None:
    panel = f'<div id="a1" hidden>{ANSWER}</div>'
    page = f'<body><p>{INTRO}</p><button aria-controls="a1">Q?</button>{panel}</body>'
    assert "Injury" not in text_after(page, drop_hidden)


@pytest.mark.parametrize(
    "panel",
    [
        '<nav id="a1" hidden><a href="/a">Solar</a> <a href="/b">Heat pumps</a></nav>',
        '<div id="a1" hidden></div>',
        '<div id="a1" hidden>Loading prices for your region\u2026</div>',
        '<div id="a1" hidden>Loading...</div>',
        f'<div id="other" hidden>{ANSWER}</div>',
    ],
)
def test_a_menu_an_empty_or_loading_panel_or_one_no_button_opens_stays_closed(panel: str) -> None:
    page = f'<body><p>{INTRO}</p><button aria-controls="a1">Open</button>{panel}</body>'
    assert _disclosed(page) == " ".join(f"{INTRO} Open".split())


def test_a_revealed_panels_button_becomes_text_and_a_tabs_label_does_not() -> None:
    root = body_of(
        '<a role="button" href="#" aria-controls="a1" tabindex="0">Step one</a>'
        f'<div id="a1" hidden>{ANSWER}</div>'
        '<button role="tab" aria-controls="t1">Specs</button>'
        f'<div id="t1" role="tabpanel" hidden>{ANSWER}</div>'
        '<h3><button aria-controls="a2">Step two</button></h3>'
        f'<div id="a2" hidden>{ANSWER}</div>'
    )
    hidden = list(root.iterfind("div"))
    assert closed_panels_dropped(root, hidden, max_link_share=0.5) == []
    opener, tab, heading = root[0], root[2], root[4]
    # Bold where it stood alone, looking like a title; plain text inside a heading.
    assert (opener.tag, dict(opener.attrib)) == ("strong", {})
    assert (heading[0].tag, dict(heading[0].attrib)) == ("span", {})
    assert (tab.tag, tab.get("role")) == ("button", "tab")  # moved by label_tab_panels
    assert all(panel.get("hidden") is None for panel in hidden)


def test_each_tabs_label_moves_to_the_head_of_its_panel() -> None:
    root = body_of(
        '<div role="tablist"><a role="tab" href="#w" aria-controls="w">Windows</a>'
        '<a role="tab" href="#m" aria-controls="m">macOS</a>'
        '<a role="tab" aria-controls="gone">Linux</a></div>'
        '<section id="w">Run the installer.</section><section id="m">brew install it</section>'
        '<button aria-controls="q">Question?</button><div id="q">Answer.</div>'
    )
    label_tab_panels(root)
    texts = [" ".join(" ".join(e.itertext()).split()) for e in root]
    assert texts == [
        "Linux", "Windows", "Run the installer.", "macOS", "brew install it", "Question?",
        "Answer.",
    ]  # fmt: skip
    assert root[1].tag == "p" and root[1][0].tag == "strong"


def test_labels_and_summaries_holding_control_characters_are_moved_not_refused() -> None:
    # lxml's parser lets control characters into text that its API refuses to store.
    root = parse(
        '<html><body><a role="tab" aria-controls="w">Win\x03dows</a>'
        '<div id="w">Run\x03 it.</div><details><summary>Why\x03?</summary>'
        "<p>Because.</p></details></body></html>"
    )
    assert root is not None
    label_tab_panels(root)
    embolden_summaries(root)
    assert " ".join(" ".join(root.itertext()).split()) == "Windows Run\x03 it. Why\x03? Because."


def test_a_summary_of_text_is_set_in_bold_one_holding_a_block_is_not() -> None:
    root = body_of(
        "<details><summary>How long? <em>green</em> tea</summary><p>Three minutes.</p></details>"
        "<details><summary><h3>Caffeine</h3></summary><p>Some.</p></details>"
        "<details><summary> </summary><p>Empty title.</p></details>"
    )
    embolden_summaries(root)
    first, second, third = (details.find("summary") for details in root)
    assert [child.tag for child in first] == ["strong"]
    assert "".join(first[0].itertext()) == "How long? green tea"
    assert [child.tag for child in second] == ["h3"]
    assert len(third) == 0


def test_a_noscripts_escaped_markup_holding_a_control_character_is_parsed_without_it() -> None:
    # lxml's fragment parser refuses a string with U+0003, which the page's parser kept.
    root = parse(
        "<body><noscript>&lt;p&gt;A forum post kept for readers without scripts, "
        "long enough to stand as text of its own in the page.\x03&lt;/p&gt;</noscript></body>"
    )
    assert root is not None
    unwrap_noscript(root, min_chars=20)
    (paragraph,) = root.iter("p")
    assert paragraph.text is not None and paragraph.text.endswith("page.")


def test_an_icon_between_two_words_parts_them() -> None:
    # wcxb-dev 1066: "7/9/05<i class='fa-at'></i>7:57 PM" read "7/9/057:57 PM" once the
    # aria-hidden icon went.
    root = lxml.html.fromstring(
        "<div><time>7/9/05<i class='far fa-at' aria-hidden='true'></i>7:57 PM</time>"
        "<p><a href='/m/x'>pitmaster</a><i class='user-online-icon' hidden></i>"
        "<span>Member</span></p>"
        "<p>un<span class='emphasis' hidden></span>known, 3<i class='fa' hidden></i> stars</p>"
        "</div>"
    )
    drop_non_content(root)
    texts = [" ".join(child.text_content().split(" ")) for child in root]
    assert texts == ["7/9/05 7:57 PM", "pitmaster Member", "unknown, 3 stars"]


def test_an_unfilled_template_expression_goes_code_quoting_one_stays() -> None:
    # wcxb-dev 0526: AngularJS left "{{ DiscussionBoard.errors[1].message }}" unfilled.
    root = lxml.html.fromstring(
        "<div><p>Reply.</p><div ng-cloak><strong>{{ board.errors[1].message }}</strong></div>"
        "<p>Write <code>{{ order.total }}</code> to show it.</p><p>Hi {{ name }}</p></div>"
    )
    drop_non_content(root)
    assert root.text_content() == "Reply.Write {{ order.total }} to show it.Hi {{ name }}"
