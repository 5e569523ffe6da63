"""SVG geometry for the "Why this content?" page: T1/T2 per line, then the smoothed diff.

The thesis (§4.3.2, §4.3.4) plots each line's content length T1 above the
axis and its code length T2 below it, then the smoothed difference with the
selected regions. This module computes the shapes; the template draws them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from addon.core.result import Diagnostics

# Height in viewBox units of each of the two panels (T1/T2, then diff).
PANEL_HEIGHT = 200


@dataclass(frozen=True, slots=True)
class Span:
    """A horizontal run of columns, [start, end) in viewBox units."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Chart:
    """The drawable shapes of one page's line measurements."""

    lines: int  # lines on the page
    columns: int  # columns drawn (lines per column = `per_column`)
    per_column: int
    panel_height: int
    t1_path: str  # bars up from the axis of the first panel
    t2_path: str  # bars down from the same axis
    diff_path: str  # bars up (positive) or down (negative) in the second panel
    regions: tuple[Span, ...]  # the regions with positive smoothed diff
    selected: tuple[Span, ...]  # the selected lines
    headline_column: int | None
    max_t: int  # the value the half-panel height stands for (T1/T2)
    max_diff: int  # the value the half-panel height stands for (diff)

    @property
    def width(self) -> int:
        """Return the viewBox width (at least 1, so an empty page still draws)."""
        return max(self.columns, 1)

    @property
    def height(self) -> int:
        """Return the viewBox height of both panels."""
        return 2 * self.panel_height


def _bucket_max(values: Sequence[int], size: int) -> list[int]:
    """Return the largest value of each run of `size` values."""
    return [max(values[i : i + size]) for i in range(0, len(values), size)]


def _bucket_extreme(values: Sequence[int], size: int) -> list[int]:
    """Return the value farthest from zero of each run of `size` values."""
    return [max(values[i : i + size], key=abs) for i in range(0, len(values), size)]


def _bars(values: Sequence[int], axis: int, scale: float, direction: int) -> str:
    """Return one path of unit-wide bars from `axis`, up for direction -1, down for +1."""
    parts: list[str] = []
    for column, value in enumerate(values):
        height = round(abs(value) * scale, 2)
        if height <= 0:
            continue
        sign = direction if value >= 0 else -direction
        parts.append(f"M{column} {axis}v{sign * height:g}h1v{-sign * height:g}z")
    return "".join(parts)


def _spans(indices: Sequence[int], size: int) -> tuple[Span, ...]:
    """Merge line indices into runs of adjacent columns."""
    spans: list[Span] = []
    for column in sorted({index // size for index in indices}):
        if spans and spans[-1].end == column:
            spans[-1] = Span(spans[-1].start, column + 1)
        else:
            spans.append(Span(column, column + 1))
    return tuple(spans)


def _region_spans(diagnostics: Diagnostics, size: int) -> tuple[Span, ...]:
    """Return each region as a span of columns."""
    return tuple(
        Span(region.start // size, region.end // size + 1) for region in diagnostics.regions
    )


def build_chart(diagnostics: Diagnostics, *, max_columns: int = 1000) -> Chart:
    """Compute the chart of one page, one column per line or per bucket of lines.

    Pages with more than `max_columns` lines are downsampled: each column shows
    the largest T1/T2 and the most extreme diff of its lines, so peaks survive.
    """
    lines = len(diagnostics.t1)
    size = max(1, math.ceil(lines / max_columns))
    t1 = _bucket_max(diagnostics.t1, size)
    t2 = _bucket_max(diagnostics.t2, size)
    diff = _bucket_extreme(diagnostics.diff, size)
    half = PANEL_HEIGHT // 2
    max_t = max([*t1, *t2, 1])
    max_diff = max([*(abs(value) for value in diff), 1])
    headline = diagnostics.headline_line
    return Chart(
        lines=lines,
        columns=len(t1),
        per_column=size,
        panel_height=PANEL_HEIGHT,
        t1_path=_bars(t1, half, half / max_t, -1),
        t2_path=_bars(t2, half, half / max_t, 1),
        diff_path=_bars(diff, PANEL_HEIGHT + half, half / max_diff, -1),
        regions=_region_spans(diagnostics, size),
        selected=_spans(diagnostics.selected, size),
        headline_column=None if headline is None else headline // size,
        max_t=max_t,
        max_diff=max_diff,
    )


def _line_ranges(indices: Sequence[int]) -> str:
    """Write ascending line indices as ranges: "3-7, 12" (1-based)."""
    ranges: list[tuple[int, int]] = []
    for index in sorted(indices):
        if ranges and ranges[-1][1] == index - 1:
            ranges[-1] = (ranges[-1][0], index)
        else:
            ranges.append((index, index))
    return ", ".join(f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in ranges)


def _count(number: int, noun: str) -> str:
    """Write "1 line", "2 lines"."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def summarize(diagnostics: Diagnostics) -> str:
    """Describe the chart in one paragraph of text for screen reader users."""
    lines = len(diagnostics.t1)
    selected = len(diagnostics.selected)
    regions = len(diagnostics.regions)
    text = (
        f"The page has {_count(lines, 'line')}. {_count(regions, 'region')} "
        f"{'has' if regions == 1 else 'have'} more content than code; "
        f"{_count(selected, 'line')} {'was' if selected == 1 else 'were'} selected"
    )
    text += f" (lines {_line_ranges(diagnostics.selected)})." if selected else "."
    headline = diagnostics.headline_line
    if headline is not None and 0 <= headline < len(diagnostics.line_tags):
        text += (
            f" The headline is line {headline + 1}, a {diagnostics.line_tags[headline]} element."
        )
    elif headline is not None:
        text += f" The headline is line {headline + 1}."
    return text
