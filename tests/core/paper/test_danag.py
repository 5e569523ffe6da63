"""DANAg core: diff (Formulas 4.2 and 4.6), regions and Algorithm 1 on hand-computed data."""

import pytest

from addon.core.paper.danag import (
    diff,
    find_regions,
    grow,
    main_region,
    select_lines,
    text_positions,
)
from addon.core.result import Region

T1 = [0, 10, 50, 40, 0, 5]
T2 = [20, 5, 10, 10, 30, 2]
# T1 - T2 per line: [-20, 5, 40, 30, -30, 3]


def test_diff_formula_4_2_sums_three_lines() -> None:
    assert diff(T1, T2, smoothing="4.2") == [-15, 25, 75, 40, 3, -27]


def test_diff_formula_4_6_is_unsmoothed() -> None:
    assert diff(T1, T2, smoothing="4.6") == [-20, 5, 40, 30, -30, 3]


def test_diff_of_one_line_and_no_lines() -> None:
    assert diff([7], [2]) == [5]
    assert diff([], []) == []


def test_regions_are_maximal_positive_runs_with_their_content() -> None:
    regions = find_regions([-15, 25, 75, 40, 3, -27], T1)
    assert regions == [Region(1, 4, 100)]
    assert find_regions([1, -1, 2, 2, 0, 3], [1, 1, 1, 1, 1, 1]) == [
        Region(0, 0, 1),
        Region(2, 3, 2),
        Region(5, 5, 1),
    ]


def test_main_region_has_most_content_first_on_ties() -> None:
    regions = [Region(0, 1, 5), Region(3, 4, 9), Region(6, 7, 9)]
    assert main_region(regions) == 1


REGIONS = [Region(0, 2, 10), Region(10, 15, 100), Region(35, 36, 5)]


def test_algorithm_1_adds_a_region_exactly_gap_lines_away() -> None:
    # B ends at line 15, C starts at line 35: distance 20 = gap.
    assert grow(REGIONS, 1, gap=20) == REGIONS


def test_algorithm_1_leaves_a_region_gap_plus_one_lines_away() -> None:
    # With gap 19 the same distance is gap + 1.
    assert grow(REGIONS, 1, gap=19) == REGIONS[:2]


def test_algorithm_1_stops_at_the_first_region_too_far_away() -> None:
    regions = [Region(0, 0, 1), Region(30, 31, 2), Region(40, 45, 50), Region(50, 50, 1)]
    assert grow(regions, 2, gap=8) == regions[2:]


def test_gap_counted_in_text_lines_ignores_empty_lines() -> None:
    t1 = [5, 0, 0, 0, 0, 7]
    positions = text_positions(t1)
    assert positions == [1, 1, 1, 1, 1, 2]
    regions = [Region(0, 0, 5), Region(5, 5, 7)]
    assert grow(regions, 1, gap=1, positions=positions) == regions
    assert grow(regions, 1, gap=1) == regions[1:]


def test_select_lines_keeps_the_grown_regions_lines() -> None:
    selection = select_lines(T1, T2, smoothing="4.2", gap=20)
    assert selection.selected == [1, 2, 3, 4]
    assert select_lines([0, 0], [3, 4]).selected == []


def test_diff_refuses_t1_and_t2_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        diff([1, 2], [1])
