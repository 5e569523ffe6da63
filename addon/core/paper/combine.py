"""CombinE: content extraction filters combined in pipelines (Gottron, "Combining content
extraction heuristics: the CombinE system", iiWAS 2008).

A filter is any algorithm registered in `addon/core/params.py`, run by `extract` with its
`params_for(name)`, or a pipeline itself (see `pipelines.py` for the spec grammar).

- serial: each filter's article, written as an HTML document of its headline and
  blocks (`filter_page`), is the page the next filter reads;
- parallel: each filter reads the page's bytes anew; the blocks they all keep
  (intersection) or any of them keeps (union) are the article;
- vote: a block is content when at least k of the n filters keep it.

A fragment of the parallel combinations is an article's block, named by its kind and
its whitespace-normalised text (`fragment`). The combined article keeps its blocks in
document order: each filter's blocks are in document order, and their orders are
merged (`document_order`). Its headline and metadata (title, byline, dates, site name,
language, direction, the auto decision, the diagnostics) are those of the first filter
of the spec that gives an article: in a serial pipeline the first filter is the one
that read the page itself, and a spec names its most trusted filter first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import replace
from heapq import heapify, heappop, heappush
from html import escape
from itertools import pairwise
from typing import TypeVar

from addon.core.extract import extract
from addon.core.output.headings import heading_level, outline
from addon.core.output.text import plain_text, word_count
from addon.core.paper.pipelines import Parallel, Pipeline, Serial, Single, Vote, spec_text
from addon.core.params import params_for
from addon.core.result import Article, Block, Skip

Result = Article | Skip
# A block's fragment (kind, text) and its occurrence among the article's equal ones.
Key = tuple[str, str, int]
_Item = TypeVar("_Item", bound=Hashable)


def extract_pipeline(
    body: bytes | str,
    pipeline: Pipeline,
    *,
    url: str | None = None,
    content_type: str | None = None,
) -> Result:
    """Extract a page's article with a pipeline of filters (CombinE, Gottron 2008)."""
    match pipeline:
        case Single(algorithm):
            # A pipeline of one algorithm is that algorithm, its article untouched.
            return extract(body, url=url, content_type=content_type, params=params_for(algorithm))
        case Serial(filters):
            return serial(body, filters, url=url, content_type=content_type)
        case Parallel(merge, filters):
            results = side_by_side(body, filters, url=url, content_type=content_type)
            name = spec_text(pipeline)
            return intersection(results, name) if merge == "intersection" else union(results, name)
        case Vote(k, filters):
            results = side_by_side(body, filters, url=url, content_type=content_type)
            return vote(results, spec_text(pipeline), k=k)


def serial(
    body: bytes | str,
    filters: Sequence[Pipeline],
    *,
    url: str | None = None,
    content_type: str | None = None,
) -> Result:
    """Run the filters in a row: each reads the page the one before wrote (CombinE's serial)."""
    name = spec_text(Serial(tuple(filters)))
    first = extract_pipeline(body, filters[0], url=url, content_type=content_type)
    if isinstance(first, Skip):
        return _skipped(name, filters[0], first)
    result: Article = first
    for each in filters[1:]:
        # The written page is text: it is read as UTF-8, whatever the original's charset.
        found = extract_pipeline(filter_page(result), each, url=url)
        if isinstance(found, Skip):
            return _skipped(name, each, found)
        result = found
    return combined(first, result.blocks, name)


def side_by_side(
    body: bytes | str,
    filters: Sequence[Pipeline],
    *,
    url: str | None = None,
    content_type: str | None = None,
) -> list[Result]:
    """Run each filter on the page: each parses the bytes anew (extraction changes its tree)."""
    return [extract_pipeline(body, each, url=url, content_type=content_type) for each in filters]


def intersection(results: Sequence[Result], name: str) -> Result:
    """Keep the blocks every filter keeps (CombinE's parallel pipeline, intersection)."""
    return vote(results, name, k=len(results))


def union(results: Sequence[Result], name: str) -> Result:
    """Keep the blocks any filter keeps (CombinE's parallel pipeline, union)."""
    return vote(results, name, k=1)


def vote(results: Sequence[Result], name: str, *, k: int) -> Result:
    """Keep the blocks at least `k` of the filters keep, in document order (CombinE's voting).

    A filter that skipped the page keeps nothing: it votes for no block.
    """
    articles = [result for result in results if isinstance(result, Article)]
    if not articles:
        reasons = "; ".join(result.reason for result in results if isinstance(result, Skip))
        return Skip(f"{name}: no filter found an article ({reasons})")
    keyed = [keyed_blocks(article.blocks) for article in articles]
    votes = Counter(key for blocks in keyed for key in blocks)
    blocks: dict[Key, Block] = {}
    for each in keyed:
        for key, block in each.items():
            blocks.setdefault(key, block)  # the first filter that keeps it gives its block
    order = document_order([list(each) for each in keyed])
    kept = [blocks[key] for key in order if votes[key] >= k]
    if not kept:
        return Skip(f"{name}: no block is kept by {k} of the {len(results)} filters")
    return combined(articles[0], kept, name)


def fragment(block: Block) -> tuple[str, str]:
    """Name a block by its kind and whitespace-normalised text (CombinE's fragment)."""
    # Each article renumbers its headings from h2 (output/headings.py): a heading's level
    # depends on what else its filter kept, so headings are one kind here.
    kind = "h" if heading_level(block) else block.kind
    # A block without text (an image, a rule) is told apart by its HTML.
    return kind, " ".join(block.text.split()) or " ".join(block.html.split())


def keyed_blocks(blocks: Sequence[Block]) -> dict[Key, Block]:
    """Key each block by its fragment and its occurrence among equal ones, in order."""
    seen: Counter[tuple[str, str]] = Counter()
    keyed: dict[Key, Block] = {}
    for block in blocks:
        kind, text = fragment(block)
        keyed[kind, text, seen[kind, text]] = block
        seen[kind, text] += 1
    return keyed


def document_order(orders: Sequence[Sequence[_Item]]) -> list[_Item]:
    """Merge sequences, each in document order, into one order that keeps each's.

    Each item goes after all that any sequence puts before it (a topological order of
    their precedences). Where no sequence orders two items, the one seen first (in the
    earlier sequence, then further up) goes first.
    """
    first_seen = first_places(orders)
    follows, waits = precedences(orders)
    ready = [(first_seen[item], item) for item in first_seen if not waits[item]]
    heapify(ready)
    merged: list[_Item] = []
    placed: set[_Item] = set()
    while len(merged) < len(first_seen):
        if not ready:  # a cycle: equal blocks the filters matched up crosswise
            item = min(set(first_seen) - placed, key=first_seen.__getitem__)
            ready.append((first_seen[item], item))
        _, item = heappop(ready)
        if item in placed:
            continue
        placed.add(item)
        merged.append(item)
        for later in follows[item]:
            waits[later] -= 1
            if not waits[later]:
                heappush(ready, (first_seen[later], later))
    return merged


def first_places(orders: Sequence[Sequence[_Item]]) -> dict[_Item, tuple[int, int]]:
    """Return where each item is first seen: its sequence's index, its place in it."""
    first_seen: dict[_Item, tuple[int, int]] = {}
    for which, order in enumerate(orders):
        for place, item in enumerate(order):
            first_seen.setdefault(item, (which, place))
    return first_seen


def precedences(
    orders: Sequence[Sequence[_Item]],
) -> tuple[dict[_Item, list[_Item]], Counter[_Item]]:
    """Return what each item directly precedes in some sequence, and how many such
    precedences each item waits for."""
    follows: dict[_Item, list[_Item]] = {}
    waits: Counter[_Item] = Counter()
    for order in orders:
        for item in order:
            follows.setdefault(item, [])
        for earlier, later in pairwise(order):
            follows[earlier].append(later)
            waits[later] += 1
    return follows, waits


def combined(source: Article, blocks: Sequence[Block], name: str) -> Result:
    """Make the combined article: its blocks, with the headline and metadata of `source`."""
    # The outline is renumbered: the blocks may come from articles numbered apart.
    blocks = outline(blocks)
    text = plain_text(blocks)
    if not text:
        return Skip(f"{name}: the kept blocks have no text")
    diagnostics = source.diagnostics
    if diagnostics is not None:
        diagnostics = replace(diagnostics, params={**diagnostics.params, "pipeline": name})
    return replace(
        source, blocks=blocks, text=text, word_count=word_count(text), diagnostics=diagnostics
    )


def filter_page(article: Article) -> str:
    """Write an article as the page the next filter of a serial pipeline reads."""
    # The page's own <title> beside the headline: TitleFinder finds it as on the page.
    lang = f' lang="{escape(article.lang)}"' if article.lang else ""
    title = f"<h1>{escape(article.title)}</h1>\n" if article.title else ""
    return (
        f'<!DOCTYPE html>\n<html{lang} dir="{escape(article.dir)}">\n<head>\n'
        f'<meta charset="utf-8">\n<title>{escape(article.page_title or article.title)}</title>\n'
        f"</head>\n<body>\n<article>\n{title}{article.html}\n</article>\n</body>\n</html>"
    )


def _skipped(name: str, where: Pipeline, skip: Skip) -> Skip:
    """Say which filter of a serial pipeline found no article, and why."""
    return Skip(f"{name}: {spec_text(where)} found no article ({skip.reason})", title=skip.title)
