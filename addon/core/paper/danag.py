"""The DANAg core: smoothed diff, regions and Algorithm 1 (thesis §4.3.2-§4.3.5, §4.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import add, sub

from addon.core.result import Region


def diff(t1: Sequence[int], t2: Sequence[int], *, smoothing: str = "4.2") -> list[int]:
    """Return diff per line: T1-T2 summed over lines i-1..i+1 (Formula 4.2) or not (4.6)."""
    if len(t1) != len(t2):
        raise ValueError(f"T1 and T2 differ in length ({len(t1)} and {len(t2)} lines)")
    # map() runs the sums in C, a little faster than indexing in a comprehension.
    raw = list(map(sub, t1, t2))
    if smoothing == "4.6" or len(raw) < 2:
        return raw
    padded = [0, *raw, 0]
    return list(map(add, map(add, padded[:-2], raw), padded[2:]))


def find_regions(diffs: Sequence[int], t1: Sequence[int]) -> list[Region]:
    """Return the maximal runs of lines with diff > 0, with their content (§4.3.4)."""
    regions: list[Region] = []
    start = -1
    for index, value in enumerate([*diffs, 0]):
        if value > 0 and start < 0:
            start = index
        elif value <= 0 and start >= 0:
            regions.append(Region(start, index - 1, sum(t1[start:index])))
            start = -1
    return regions


def main_region(regions: Sequence[Region]) -> int:
    """Return the index of the region with the most content, the first on ties (§4.3.5)."""
    best = 0
    for index, region in enumerate(regions):
        if region.content > regions[best].content:
            best = index
    return best


def grow(
    regions: Sequence[Region], start: int, *, gap: int = 20, positions: Sequence[int] | None = None
) -> list[Region]:
    """Add neighbouring regions at most `gap` lines away, outward from `start` (Algorithm 1).

    The distance between two regions is the difference of the line numbers
    of the first region's last line and the second region's first line;
    `positions` renumbers lines (e.g. counting text-bearing lines only).
    """
    position = positions if positions is not None else range(_last_line(regions) + 1)
    first = last = start
    while first > 0 and position[regions[first].start] - position[regions[first - 1].end] <= gap:
        first -= 1
    while (
        last + 1 < len(regions)
        and position[regions[last + 1].start] - position[regions[last].end] <= gap
    ):
        last += 1
    return list(regions[first : last + 1])


def text_positions(t1: Sequence[int]) -> list[int]:
    """Number each line by how many text-bearing lines come up to and including it."""
    return list(accumulate(1 if content > 0 else 0 for content in t1))


@dataclass(frozen=True, slots=True)
class Selection:
    """What DANAg decided for one page: diff per line, all regions, the chosen lines."""

    diff: list[int]
    regions: list[Region]
    selected: list[int]


def select_lines(
    t1: Sequence[int],
    t2: Sequence[int],
    *,
    smoothing: str = "4.2",
    gap: int = 20,
    gap_in_text_lines: bool = False,
) -> Selection:
    """Run DANAg on one page's counts: return its diff, regions and selected lines."""
    diffs = diff(t1, t2, smoothing=smoothing)
    regions = find_regions(diffs, t1)
    if not regions:
        return Selection(diffs, regions, [])
    positions = text_positions(t1) if gap_in_text_lines else None
    chosen = grow(regions, main_region(regions), gap=gap, positions=positions)
    selected = [line for region in chosen for line in range(region.start, region.end + 1)]
    return Selection(diffs, regions, selected)


def select_lines_r2l(t1: Sequence[int], t2: Sequence[int]) -> list[int]:
    """Keep each line whose right-to-left content outweighs its ASCII code (R2L, §4.4)."""
    pairs = enumerate(zip(t1, t2, strict=True))
    return [index for index, (content, code) in pairs if content > code]


def _last_line(regions: Sequence[Region]) -> int:
    """Return the last line index covered by any region."""
    return max((region.end for region in regions), default=0)
