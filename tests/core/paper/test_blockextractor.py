"""BlockExtractor on hand-made trees: Definition 1, DOM2Blocks, Formulas 1-3, Algorithm 2,
Step 3."""

from __future__ import annotations

from fragments import body_of
from lxml import etree

from addon.core.heuristics.parse import parse
from addon.core.paper.blockextractor import (
    DENSITY_THRESHOLD,
    BleIeBlock,
    Lengths,
    Shape,
    TextNode,
    block_lengths,
    block_tree,
    children_of,
    choose_blocks,
    content_candidates,
    cut_right_most_subtrees,
    density,
    dom2blocks,
    exceeds,
    find_content,
    indent_attributes,
    matching_prefix,
    measure_page,
    page_shape,
    reconstruct_under_parent_copy,
    remove_redundant_blocks,
    remove_scripts_and_comments,
    site_blocks,
    symbols_of,
)

S = frozenset


def matches(children: list[frozenset[str]]) -> bool:
    """Tell whether a whole sequence matches Definition 1: its longest matching prefix is it."""
    return matching_prefix(children) == len(children)  # type: ignore[arg-type]


def described(node: etree._Element | TextNode) -> str:
    """Name a node for assertions: an element by its tag and id, text by its text."""
    if isinstance(node, TextNode):
        return repr(node.text)
    return f"{node.tag}#{node.get('id')}" if node.get("id") else str(node.tag)


def blocks_of(markup: str) -> list[tuple[str, list[str]]]:
    body = body_of(markup)
    return [
        (described(block.root), [described(node) for node in block.items])
        for block in dom2blocks(body, page_shape(body))
    ]


# -- Definition 1 ----------------------------------------------------------------------


def test_the_pattern_on_symbol_sequences() -> None:
    text, ie, p, q, lst, t = (S({name}) for name in ("text", "IE", "p", "q", "l", "t"))
    assert matches([text, ie, text, p, q, q, lst, lst, t, t])
    assert matches([])  # every part is optional
    assert matches([t, t, t])
    assert not matches([p, p])  # p at most once
    assert not matches([p, text])  # inline content only before the BLEs
    assert not matches([lst, q])  # out of order
    assert not matches([t, lst])
    assert matching_prefix([ie, q, t, lst, q]) == 3


def test_a_node_standing_for_several_symbols_matches_if_any_choice_does() -> None:
    # A heading of plain text may be p, q or t: after a p only its q and t fit.
    heading = S({"p", "q", "t"})
    assert matches([S({"p"}), heading, heading])
    assert matches([heading, S({"l"}), heading])
    assert not matches([S({"l"}), S({"p", "q"})])


def test_symbols_of_the_children_of_a_hand_made_tree() -> None:
    body = body_of(
        "<div id='x'>Lead <b>bold</b><p>one <i>two</i></p><div>plain</div>"
        "<ul><li>item</li></ul><h2>Heading</h2><div><p>nested</p></div></div>"
    )
    shape = page_shape(body)
    symbols = [symbols_of(node, shape) for node in children_of(body[0])]
    assert symbols == [
        S({"text"}),
        S({"IE"}),
        S({"p", "t"}),  # inline elements and text
        S({"p", "q"}),  # text only
        S({"l"}),  # a list of inline items
        S({"p", "q", "t"}),
        S(),  # a BLE holding a BLE stands for nothing: it breaks any block
    ]


def is_ble_ie_block(element: etree._Element, shape: Shape) -> bool:
    """Tell whether an element's subtree is a BLE&IE block (Definition 1)."""
    symbols = [symbols_of(child, shape) for child in children_of(element)]
    return element in shape.blocks and matches(symbols)

def test_definition_1_matches_a_hand_made_block() -> None:
    body = body_of(
        "<div>Lead <a href='/'>link</a><p>rich <b>text</b></p><div>plain</div><div>more</div>"
        "<ul><li>one</li><li>two</li></ul><h2>Heading</h2><p>closing</p></div>"
    )
    assert is_ble_ie_block(body[0], page_shape(body))


def test_definition_1_refuses_out_of_order_children_and_nested_blocks() -> None:
    for markup in (
        "<div><ul><li>one</li></ul><div>plain after the list</div></div>",
        "<div><p>one</p>loose text after a block</div>",
        "<div><p>one</p><div><p>a block inside a block</p></div></div>",
        "<div><div>one <b>x</b></div><div>two <b>y</b></div></div>",  # two p, no t
    ):
        body = body_of(markup)
        assert not is_ble_ie_block(body[0], page_shape(body)), markup


def test_an_inline_element_holding_a_block_is_read_as_a_block() -> None:
    body = body_of("<div><a href='/card'><div>Card title</div></a><span>caption</span></div>")
    shape = page_shape(body)
    anchor, span = body[0]
    assert shape.is_ble(anchor)
    assert symbols_of(anchor, shape) == S()
    assert not shape.is_ble(span)
    assert symbols_of(span, shape) == S({"IE"})


# -- Algorithm 1 -----------------------------------------------------------------------

CUT_TREE = (
    "<div id='x'>Lead <b>bold</b><p>one</p>"
    "<div id='inner'><p>two</p><p>three</p></div>"
    "after<p>four</p></div>"
)


def test_the_cut_takes_the_right_most_children_from_the_first_that_breaks() -> None:
    body = body_of(CUT_TREE)
    shape = page_shape(body)
    children = [(node, symbols_of(node, shape)) for node in children_of(body[0])]
    kept, cut = cut_right_most_subtrees(children)
    assert [described(node) for node, _ in kept] == ["'Lead'", "b", "p"]
    assert [described(node) for node, _ in cut] == ["div#inner", "'after'", "p"]
    block = reconstruct_under_parent_copy(body[0], kept)
    assert block.root is body[0] and len(block.items) == 3


def test_dom2blocks_recurses_on_the_cut_subtrees_in_document_order() -> None:
    assert blocks_of(CUT_TREE) == [
        ("div#x", ["'Lead'", "b", "p"]),
        ("div#inner", ["p", "p"]),  # the block that broke div#x's pattern, cut in turn
        ("div#x", ["'after'", "p"]),  # the rest, under another copy of div#x
    ]


def test_dom2blocks_reads_a_flat_article_as_one_block() -> None:
    markup = "<article><h1>T</h1><p>a</p><p>b <i>c</i></p><ul><li>d</li></ul><p>e</p></article>"
    # h1 p p as p q t (or t t t): a list after a t breaks the pattern.
    assert blocks_of(markup) == [("article", ["h1", "p", "p"]), ("article", ["ul", "p"])]


def test_dom2blocks_walks_pages_deeper_than_the_recursion_limit() -> None:
    root = parse("<html><body>" + "<div>" * 1500 + "<p>deep</p>" + "</div>" * 1500)
    assert root is not None
    body = root.find("body")
    assert body is not None
    blocks = dom2blocks(body, page_shape(body))
    assert [described(node) for node in blocks[-1].items] == ["p"]


def test_scripts_and_comments_go_their_tails_stay() -> None:
    root = etree.fromstring(
        "<div>a<script>var x;</script>b<!-- note -->c<style>p{}</style>d</div>"
    )
    remove_scripts_and_comments(root)
    assert etree.tostring(root) == b"<div>abcd</div>"


def test_attributes_are_indented_into_their_element() -> None:
    element = etree.fromstring('<a href="/x" class="nav">go</a>')
    assert indent_attributes(element) == len("a") + len("href/x") + len("classnav")


# -- Formulas 1-3 and Algorithm 2 ------------------------------------------------------

SMALL_BLOCK = '<div class="c">Hello <a href="/x">go</a><p>abcdef</p></div>'


def test_the_densities_of_a_small_block_by_hand() -> None:
    body = body_of(SMALL_BLOCK)
    lengths = measure_page(body)
    div, anchor, paragraph = body[0], body[0][0], body[0][1]
    # TgL: "div" + "class" "c" = 9; "a" + "href" "/x" = 7; "p" = 1.
    # TtL: "Hello" (its trailing space collapsed away) 5, "go" 2, "abcdef" 6.
    assert lengths[anchor] == Lengths(7, 2)
    assert lengths[paragraph] == Lengths(1, 6)
    assert lengths[div] == Lengths(9 + 7 + 1, 5 + 2 + 6)
    assert density(lengths[div]) == 13 / 17
    assert density(lengths[paragraph]) == 6.0
    block = BleIeBlock(div, tuple(children_of(div)))
    assert block_lengths(block, lengths) == Lengths(17, 13)
    # A copy of the parent holding only some children counts only those.
    assert block_lengths(BleIeBlock(div, block.items[2:]), lengths) == Lengths(10, 6)


def test_exceeding_the_threshold_is_strictly_above_it() -> None:
    assert DENSITY_THRESHOLD == 1.5
    assert not exceeds(1.5)
    assert exceeds(1.5000001)
    assert not exceeds(2.0, threshold=2.0)


def test_a_block_whose_root_density_is_exactly_the_threshold_holds_no_candidate() -> None:
    body = body_of("<div><p>abcdef</p></div>")  # TgL 3 + 1, TtL 6: rho = 1.5
    shape, lengths = page_shape(body), measure_page(body)
    block = BleIeBlock(body[0], tuple(children_of(body[0])))
    assert density(block_lengths(block, lengths)) == 1.5
    assert content_candidates(block, lengths, shape).kept == ()
    lower = content_candidates(block, lengths, shape, threshold=1.4)
    assert [described(node) for node in lower.kept] == ["p"]


def test_candidates_drop_a_child_at_the_threshold_and_keep_inline_text() -> None:
    # ul: TgL 2, TtL 3, rho exactly 1.5; the root: TgL 3 + 2, TtL 16 + 3.
    body = body_of("<div>abcdefghijklmnop<ul>abc</ul></div>")
    shape, lengths = page_shape(body), measure_page(body)
    block = BleIeBlock(body[0], tuple(children_of(body[0])))
    found = content_candidates(block, lengths, shape)
    assert [described(node) for node in found.kept] == ["'abcdefghijklmnop'"]


def test_a_candidate_list_leaves_out_its_items_that_fail() -> None:
    item = '<li><a href="/a/long/link/target">x</a></li>'
    text = "a long item of plain text that goes on and on for a while"
    body = body_of(f"<div><ul><li>{text}</li>{item}</ul></div>")
    shape, lengths = page_shape(body), measure_page(body)
    block = BleIeBlock(body[0], tuple(children_of(body[0])))
    found = content_candidates(block, lengths, shape)
    assert [described(node) for node in found.kept] == ["ul"]
    assert found.dropped == (body[0][0][1],)


def test_find_content_keeps_the_dense_blocks_only() -> None:
    links = "".join(f'<li><a href="/section/{n}/index.html">S{n}</a></li>' for n in range(5))
    root = parse(
        f"<html><body><nav><ul>{links}</ul></nav><div><h1>Title</h1>"
        "<p>A paragraph of plain text, long enough to be content.</p></div></body></html>"
    )
    assert root is not None
    found = find_content(root)
    kept = [described(node) for candidates in found for node in candidates.kept]
    assert kept == ["h1", "p"]


# -- Step 3 ----------------------------------------------------------------------------

NAV = '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul>'
FOOTER = "<div><p>Copyright Example Corp, every word of it reserved for years.</p></div>"


def page_blocks(story: str, nav: str = NAV) -> list[BleIeBlock]:
    root = parse(f"<html><body><div>{nav}</div><article><p>{story}</p></article>{FOOTER}")
    assert root is not None
    return site_blocks(root)


def test_block_trees_label_elements_with_attributes_and_text_with_its_text() -> None:
    body = body_of('<div id="a">Hi <b class="x">there</b></div>')
    tree = block_tree(BleIeBlock(body[0], tuple(children_of(body[0]))))
    assert tree.labels == ("#text Hi", "#text there", "b class=x", "div id=a")


def test_redundancy_removal_keeps_the_blocks_no_other_page_holds() -> None:
    one = page_blocks("The first story, told at length.")
    two = page_blocks("Another story entirely, with other words.")
    kept = remove_redundant_blocks(one, two)
    story = "#text The first story, told at length."
    assert [block_tree(block).labels[0] for block in kept] == [story]
    assert remove_redundant_blocks(one, []) == one


def test_a_block_within_the_share_of_edits_is_the_same_block() -> None:
    # The menu marks the current page: one relabel in a tree of 8 nodes.
    current = NAV.replace('<li><a href="/about">', '<li class="current"><a href="/about">')
    one = page_blocks("The first story, told at length.")
    two = page_blocks("Another story entirely, with other words.", nav=current)
    menu = one[0]
    assert block_tree(menu).size == 8
    assert remove_redundant_blocks([menu], two, max_share=0.2) == []
    assert remove_redundant_blocks([menu], two, max_share=0.1) == [menu]  # 0.8 edits allowed


# -- What the reader view shows --------------------------------------------------------


def test_the_chosen_subtree_leaves_out_and_blanks_what_is_not_content() -> None:
    root = parse(
        "<html><body><div id='wrap'>Menu text<span>x</span>"
        "<div id='main'><p>A paragraph of plain text, long enough to be content.</p></div>"
        "<div id='side'><a href='/b'>a</a></div>"
        "<p>Closing words of the article, also plain.</p></div></body></html>"
    )
    assert root is not None
    chosen = choose_blocks(find_content(root), [], None)
    wrap = root.find(".//div[@id='wrap']")
    assert chosen.top == [wrap]
    assert {described(element) for element in chosen.drop} == {"span", "div#side"}
    assert wrap is not None and wrap.text is None  # the menu's text is not content
    assert choose_blocks([], [], None).top == []
