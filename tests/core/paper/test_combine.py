"""CombinE's combinations: serial, intersection, union and voting, on pages and on blocks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from addon.core import ALGORITHMS, Article, Block, Diagnostics, Skip, extract, params_for
from addon.core.paper.combine import (
    document_order,
    extract_pipeline,
    filter_page,
    fragment,
    intersection,
    keyed_blocks,
    union,
    vote,
)
from addon.core.paper.pipelines import Pipeline, Serial, Single, SpecError, parse_pipeline

# A page on which the registered algorithms keep different blocks: AdDANAg+ keeps the
# article (an Arabic and an English paragraph) and drops the footer; R2L keeps the lines
# of right-to-left script (the Arabic paragraph and the Arabic footer); DANA, counting
# right-to-left script in regions, keeps the footer only.
AR = "هذه فقرة عربية طويلة تتحدث عن الماء والوديان والبحر وتستمر في الحديث عن الطبيعة. " * 3
EN = "This English paragraph talks about water, valleys and the sea, and about nature. " * 3
FOOTER = "روابط الموقع وحقوق النشر محفوظة لجميع المالكين في كل مكان من العالم الواسع. " * 2
PAGE = f"""<!DOCTYPE html><html><head><title>Water | The Site</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Water</h1><p>{AR}</p><p>{EN}</p></article>
<footer><p>{FOOTER}</p></footer>
</body></html>""".encode()
URL = "https://a.example/water"


def run(spec: str, page: bytes = PAGE) -> Article | Skip:
    """Extract the page with the pipeline a spec names."""
    pipeline = parse_pipeline(spec)
    assert not isinstance(pipeline, SpecError), pipeline
    return extract_pipeline(page, pipeline, url=URL, content_type="text/html; charset=utf-8")


def texts(result: Article | Skip) -> list[str]:
    """Return the texts of an article's blocks, each cut to its first words."""
    assert isinstance(result, Article), result
    return [" ".join(block.text.split()[:3]) for block in result.blocks]


def first_words(*texts: str) -> list[str]:
    """Return the first words of texts, as `texts` gives them."""
    return [" ".join(text.split()[:3]) for text in texts]


def test_the_algorithms_keep_different_blocks_of_the_page() -> None:
    assert texts(run("addanag-plus")) == first_words(AR, EN)
    assert texts(run("r2l")) == first_words(AR, FOOTER)
    assert texts(run("dana")) == first_words(FOOTER)


def without_timings(result: Article | Skip) -> Article | Skip:
    """Return a result without its stage timings, which differ from run to run."""
    if isinstance(result, Skip) or result.diagnostics is None:
        return result
    return replace(result, diagnostics=replace(result.diagnostics, timings_ms={}))


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_a_pipeline_of_one_algorithm_is_that_algorithm(name: str) -> None:
    alone = extract(PAGE, url=URL, content_type="text/html; charset=utf-8", params=params_for(name))
    assert without_timings(run(name)) == without_timings(alone)


# -- serial ------------------------------------------------------------------------------


def test_serial_feeds_each_filter_only_the_one_before_s_article() -> None:
    # R2L on the page keeps the footer too; on AdDANAg+'s article it never sees it.
    assert texts(run("serial(addanag-plus,r2l)")) == first_words(AR)


def test_serial_takes_the_headline_and_metadata_from_the_first_filter() -> None:
    first = run("addanag-plus")
    result = run("serial(addanag-plus,r2l)")
    assert isinstance(first, Article) and isinstance(result, Article)
    assert (result.title, result.page_title, result.url) == ("Water", "Water | The Site", URL)
    assert (result.lang, result.dir, result.readerable) == (first.lang, first.dir, first.readerable)
    assert result.text == " ".join(AR.split()) and result.word_count == len(AR.split())
    assert result.diagnostics is not None
    assert result.diagnostics.params["pipeline"] == "serial(addanag-plus,r2l)"


def test_serial_says_which_filter_found_nothing() -> None:
    # DANA keeps the footer only; AdDANAg+ finds no article in a page of one footer line.
    result = run("serial(addanag-plus,dana)")
    assert isinstance(result, Skip)
    assert result.reason.startswith("serial(addanag-plus,dana): dana found no article (")
    empty = run("serial(addanag-plus,r2l)", b"")
    assert isinstance(empty, Skip)
    assert empty.reason.startswith("serial(addanag-plus,r2l): addanag-plus found no article (")


def test_the_written_page_gives_the_article_back() -> None:
    first = run("addanag-plus")
    assert isinstance(first, Article)
    again = extract(filter_page(first), url=URL)
    assert isinstance(again, Article)
    assert (again.title, again.text) == (first.title, first.text)


def test_the_written_page_escapes_the_headline() -> None:
    article = Article("<b>&", (Block("p", "<p>x</p>", "x"),), "x", "en", "ltr", True)
    page = filter_page(article)
    assert "<h1>&lt;b&gt;&amp;</h1>" in page and "<title>&lt;b&gt;&amp;</title>" in page
    assert '<html lang="en" dir="ltr">' in page and "<p>x</p>" in page


# -- parallel and voting on the page ------------------------------------------------------


def test_parallel_and_keeps_what_every_filter_keeps() -> None:
    assert texts(run("parallel-and(addanag-plus,r2l)")) == first_words(AR)


def test_parallel_or_keeps_what_any_filter_keeps_in_document_order() -> None:
    assert texts(run("parallel-or(addanag-plus,r2l)")) == first_words(AR, EN, FOOTER)
    # R2L alone puts the footer right after the Arabic paragraph; DANAg orders all three.
    assert texts(run("parallel-or(r2l,addanag-plus,danag)")) == first_words(AR, EN, FOOTER)


def test_a_vote_keeps_a_block_of_exactly_k_votes_and_drops_one_of_k_minus_1() -> None:
    # Votes: AR 2 (AdDANAg+, R2L), EN 1 (AdDANAg+), FOOTER 2 (R2L, DANA).
    assert texts(run("vote2(addanag-plus,r2l,dana)")) == first_words(AR, FOOTER)
    assert texts(run("vote1(addanag-plus,r2l,dana)")) == first_words(AR, EN, FOOTER)
    nothing = run("vote3(addanag-plus,r2l,dana)")
    assert nothing == Skip("vote3(addanag-plus,r2l,dana): no block is kept by 3 of the 3 filters")


def test_the_parallel_headline_and_metadata_are_the_first_filter_s() -> None:
    result = run("parallel-or(dana,addanag-plus)")
    dana = run("dana")
    assert isinstance(result, Article) and isinstance(dana, Article)
    assert (result.title, result.readerable) == (dana.title, dana.readerable)


def test_pipelines_nest() -> None:
    assert texts(run("serial(addanag-plus,parallel-and(r2l,danag))")) == first_words(AR)
    assert texts(run("vote2(serial(addanag-plus,r2l),dana,r2l)")) == first_words(AR, FOOTER)


def test_a_serial_pipeline_built_in_code_runs_too() -> None:
    pipeline: Pipeline = Serial((Single("addanag-plus"), Single("r2l")))
    result = extract_pipeline(PAGE, pipeline, url=URL)
    assert texts(result) == first_words(AR)


# -- the combinations on blocks -----------------------------------------------------------


def block(text: str, kind: str = "p") -> Block:
    """Return a block of some kind holding a text."""
    return Block(kind, f"<{kind}>{text}</{kind}>", text)


def article(*blocks: Block, title: str = "Title") -> Article:
    """Return an article of the given blocks, with diagnostics."""
    text = "\n\n".join(each.text for each in blocks)
    diagnostics = Diagnostics((), (), (), (), (), None, (), {"algorithm": "x"})
    return Article(title, blocks, text, "en", "ltr", True, diagnostics=diagnostics)


A, B, C, D = (block(f"Paragraph {name}.") for name in "ABCD")


def kept(result: Article | Skip) -> list[str]:
    """Return the texts of a combined article's blocks."""
    assert isinstance(result, Article), result
    return [each.text for each in result.blocks]


def test_intersection_union_and_vote_on_blocks() -> None:
    results = [article(A, B, D), article(B, C, D), article(A, B)]
    assert kept(intersection(results, "and")) == ["Paragraph B."]
    assert kept(union(results, "or")) == ["Paragraph A.", "Paragraph B.", "Paragraph C.",
                                          "Paragraph D."]  # fmt: skip
    # A 2 votes, B 3, C 1, D 2.
    assert kept(vote(results, "v", k=2)) == ["Paragraph A.", "Paragraph B.", "Paragraph D."]
    assert kept(vote(results, "v", k=3)) == ["Paragraph B."]


def test_a_skipped_filter_votes_for_nothing() -> None:
    results: list[Article | Skip] = [Skip("too large"), article(A, B), article(B)]
    assert kept(vote(results, "v", k=2)) == ["Paragraph B."]
    assert isinstance(intersection(results, "and"), Skip)
    # The headline and metadata come from the first filter that gave an article.
    results[1] = article(A, B, title="Second")
    result = vote(results, "v", k=1)
    assert isinstance(result, Article) and result.title == "Second"
    assert vote([Skip("one"), Skip("two")], "v", k=1) == Skip(
        "v: no filter found an article (one; two)"
    )


def test_the_combined_article_is_the_first_article_with_the_kept_blocks() -> None:
    first = article(A, B, title="First")
    result = union([first, article(C, title="Second")], "parallel-or(x,y)")
    assert isinstance(result, Article)
    assert result.title == "First"
    assert result.text == "Paragraph A.\n\nParagraph B.\n\nParagraph C."
    assert result.word_count == 6
    assert result.diagnostics is not None
    assert result.diagnostics.params == {"algorithm": "x", "pipeline": "parallel-or(x,y)"}


def test_the_first_filter_that_keeps_a_fragment_gives_its_block() -> None:
    plain = Block("p", "<p>Same text.</p>", "Same text.")
    linked = Block("p", '<p><a href="https://a.example/">Same</a> text.</p>', "Same  text.")
    result = union([article(linked), article(plain)], "u")
    assert isinstance(result, Article) and result.blocks == (linked,)


def test_kept_blocks_without_text_are_no_article() -> None:
    image = Block("img", '<img src="https://a.example/i.png" alt="">', "")
    assert union([article(image)], "u") == Skip("u: the kept blocks have no text")


def test_the_combined_headings_are_outlined_again() -> None:
    # One filter kept the section heading under a deeper one, the other on its own.
    first = article(block("Part", "h2"), block("Section", "h3"), A)
    second = article(block("Section", "h2"), B)
    result = intersection([first, second], "and")
    assert isinstance(result, Article)
    assert [(each.kind, each.html) for each in result.blocks] == [("h2", "<h2>Section</h2>")]


def test_a_fragment_is_its_kind_and_its_text_with_whitespace_collapsed() -> None:
    assert fragment(Block("p", "<p>a  b</p>", " a \n b ")) == ("p", "a b")
    assert fragment(Block("li", "<li>a b</li>", "a b")) == ("li", "a b")
    # Heading levels are renumbered per article: any level is the same fragment.
    assert fragment(block("Part", "h2")) == fragment(block("Part", "h4")) == ("h", "Part")
    assert fragment(Block("img", '<img  src="i.png">', "")) == ("img", '<img src="i.png">')


def test_equal_blocks_are_told_apart_by_their_occurrence() -> None:
    keys = list(keyed_blocks([A, B, A]))
    assert keys == [("p", "Paragraph A.", 0), ("p", "Paragraph B.", 0), ("p", "Paragraph A.", 1)]
    # The second "A" is kept by both filters only where both kept two.
    assert kept(intersection([article(A, B, A), article(A)], "and")) == ["Paragraph A."]


@pytest.mark.parametrize(
    ("orders", "merged"),
    [
        ([["a", "c"], ["b", "c"]], ["a", "b", "c"]),
        ([["a", "b", "d"], ["a", "c", "d"]], ["a", "b", "c", "d"]),
        # The third order tells where "y" stands against "x".
        ([["a", "x"], ["a", "y"], ["y", "x"]], ["a", "y", "x"]),
        ([["c"], ["a", "b", "c"]], ["a", "b", "c"]),
        # Orders that cross (equal blocks matched crosswise): the first seen goes first.
        ([["a", "b"], ["b", "a"]], ["a", "b"]),
        ([[], ["a"]], ["a"]),
        ([], []),
    ],
)
def test_document_order_keeps_every_filter_s_order(
    orders: list[list[str]], merged: list[str]
) -> None:
    assert document_order(orders) == merged
