"""The "Why this content?" page's list of the page's blocks, each kept or left out and why."""

from __future__ import annotations

from dataclasses import dataclass

from addon.core.result import Diagnostics

KEPT = "kept"
HEADLINE = "the headline"
LINK_DENSE = "mostly link text: a link list beside the content"
OTHER_REGION = "a region with more text than markup, but not the article's (DANAg)"
MARKUP = "more markup than text around it (DANAg)"


@dataclass(frozen=True, slots=True)
class BlockRun:
    """A run of the page's lines in order that share one outcome: kept, or why left out."""

    first: int  # line numbers, from 1
    last: int
    kept: bool
    why: str
    texts: tuple[str, ...]


def block_runs(diagnostics: Diagnostics) -> list[BlockRun]:
    """Return the page's lines with text, in runs of one outcome each, in page order."""
    runs: list[BlockRun] = []
    outcomes = _outcomes(diagnostics)
    for index, text in enumerate(diagnostics.line_texts):
        if not text.strip():
            continue
        kept, why = outcomes[index]
        last = runs[-1] if runs else None
        if last is not None and (last.kept, last.why) == (kept, why):
            runs[-1] = BlockRun(last.first, index + 1, kept, why, (*last.texts, text))
        else:
            runs.append(BlockRun(index + 1, index + 1, kept, why, (text,)))
    return runs


def _outcomes(diagnostics: Diagnostics) -> list[tuple[bool, str]]:
    """Return, per line, whether it was kept and the reason."""
    selected, dense = set(diagnostics.selected), set(diagnostics.link_dense)
    in_region: set[int] = set()
    for region in diagnostics.regions:
        in_region.update(range(region.start, region.end + 1))
    outcomes = []
    for index in range(len(diagnostics.line_texts)):
        if index == diagnostics.headline_line:
            outcomes.append((True, HEADLINE))
        elif index in selected:
            outcomes.append((True, KEPT))
        elif index in dense:
            outcomes.append((False, LINK_DENSE))
        else:
            outcomes.append((False, OTHER_REGION if index in in_region else MARKUP))
    return outcomes
