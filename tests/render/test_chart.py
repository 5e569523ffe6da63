"""Tests for the "why this content" chart geometry."""

from __future__ import annotations

import re

from addon.core.result import Diagnostics, Region
from addon.render.chart import PANEL_HEIGHT, Span, build_chart, summarize


def diagnostics(
    t1: list[int],
    t2: list[int],
    diff: list[int],
    *,
    regions: tuple[Region, ...] = (),
    selected: tuple[int, ...] = (),
    headline: int | None = None,
) -> Diagnostics:
    """Build diagnostics for a page of len(t1) lines."""
    return Diagnostics(
        t1=tuple(t1),
        t2=tuple(t2),
        diff=tuple(diff),
        regions=regions,
        selected=selected,
        headline_line=headline,
        line_tags=tuple("p" for _ in t1),
        params={"gap": "20"},
    )


def bars(path: str) -> list[tuple[int, float, float]]:
    """Parse a bar path into (column, axis y, signed height) triples."""
    found = re.findall(r"M(\d+) (\d+)v(-?[\d.]+)h1v(-?[\d.]+)z", path)
    return [(int(x), float(y), float(h)) for x, y, h, _ in found]


def test_small_page_has_one_column_per_line_t1_up_t2_down() -> None:
    chart = build_chart(diagnostics([10, 0, 5], [5, 20, 0], [5, -20, 5]))
    half = PANEL_HEIGHT // 2
    assert (chart.lines, chart.columns, chart.per_column) == (3, 3, 1)
    assert chart.max_t == 20
    # T1 bars go up (negative y) from the top panel's axis, scaled to the largest value.
    assert bars(chart.t1_path) == [(0, half, -50.0), (2, half, -25.0)]
    # T2 bars go down from the same axis.
    assert bars(chart.t2_path) == [(0, half, 25.0), (1, half, 100.0)]
    # The diff is drawn in the second panel: positive up, negative down.
    assert bars(chart.diff_path) == [
        (0, PANEL_HEIGHT + half, -25.0),
        (1, PANEL_HEIGHT + half, 100.0),
        (2, PANEL_HEIGHT + half, -25.0),
    ]
    assert chart.width == 3 and chart.height == 2 * PANEL_HEIGHT


def two_regions() -> Diagnostics:
    """Return ten lines with two regions, four selected lines and the headline on line 1."""
    return diagnostics(
        [1] * 10,
        [1] * 10,
        [0] * 10,
        regions=(Region(2, 4, 3), Region(7, 7, 1)),
        selected=(2, 3, 4, 7),
        headline=1,
    )


def test_regions_selection_and_headline_are_marked() -> None:
    chart = build_chart(two_regions())
    assert chart.regions == (Span(2, 5), Span(7, 8))
    assert chart.selected == (Span(2, 5), Span(7, 8))
    assert chart.headline_column == 1


def test_huge_page_is_downsampled_and_keeps_its_peaks() -> None:
    lines = 5000
    t1 = [0] * lines
    t1[4321] = 900
    diff = [0] * lines
    diff[17] = -300
    chart = build_chart(
        diagnostics(t1, [1] * lines, diff, selected=(4321,), headline=4999), max_columns=1000
    )
    assert chart.per_column == 5 and chart.columns == 1000
    assert chart.max_t == 900
    assert [column for column, _, _ in bars(chart.t1_path)] == [4321 // 5]
    assert bars(chart.diff_path) == [(3, PANEL_HEIGHT + PANEL_HEIGHT // 2, 100.0)]
    assert chart.selected == (Span(864, 865),)
    assert chart.headline_column == 999
    assert len(chart.t2_path) < 40 * 1000


def test_empty_page_still_draws() -> None:
    chart = build_chart(diagnostics([], [], []))
    assert chart.columns == 0 and chart.width == 1
    assert chart.t1_path == chart.t2_path == chart.diff_path == ""
    assert chart.headline_column is None


def test_summary_names_lines_regions_and_headline() -> None:
    text = summarize(two_regions())
    assert text == (
        "The page has 10 lines. 2 regions have more content than code; 4 lines were "
        "selected (lines 3-5, 8). The headline is line 2, a p element."
    )


def test_summary_without_selection_or_headline() -> None:
    text = summarize(diagnostics([1, 2], [3, 4], [-2, -2]))
    assert (
        text
        == "The page has 2 lines. 0 regions have more content than code; 0 lines were selected."
    )
