"""The why page's list of blocks: each line kept or left out, and why, in runs."""

from __future__ import annotations

from addon.core.result import Diagnostics, Region
from addon.render.why import (
    HEADLINE,
    KEPT,
    LINK_DENSE,
    MARKUP,
    OTHER_REGION,
    BlockRun,
    block_runs,
)


def diagnostics(texts: tuple[str, ...], **fields: object) -> Diagnostics:
    n = len(texts)
    values: dict[str, object] = {
        "t1": (1,) * n, "t2": (1,) * n, "diff": (0,) * n, "regions": (), "selected": (),
        "headline_line": None, "line_tags": ("p",) * n, "params": {}, "line_texts": texts,
    }  # fmt: skip
    values.update(fields)
    return Diagnostics(**values)  # type: ignore[arg-type]


def test_each_line_is_kept_or_left_out_with_its_reason_in_runs() -> None:
    texts = ("Home", "News", "Rivers", "First.", "Second.", "Share", "Tweet", "Also", "Footer")
    runs = block_runs(
        diagnostics(
            texts,
            regions=(Region(2, 4, 30), Region(7, 7, 5)),
            selected=(2, 3, 4),
            headline_line=2,
            link_dense=(5, 6),
        )
    )
    assert runs == [
        BlockRun(1, 2, False, MARKUP, ("Home", "News")),
        BlockRun(3, 3, True, HEADLINE, ("Rivers",)),
        BlockRun(4, 5, True, KEPT, ("First.", "Second.")),
        BlockRun(6, 7, False, LINK_DENSE, ("Share", "Tweet")),
        BlockRun(8, 8, False, OTHER_REGION, ("Also",)),
        BlockRun(9, 9, False, MARKUP, ("Footer",)),
    ]


def test_lines_without_text_are_not_listed_and_do_not_split_a_run() -> None:
    runs = block_runs(diagnostics(("One.", "", "  ", "Two."), selected=(0, 3)))
    assert runs == [BlockRun(1, 4, True, KEPT, ("One.", "Two."))]


def test_no_line_texts_no_runs() -> None:
    assert block_runs(diagnostics(())) == []
