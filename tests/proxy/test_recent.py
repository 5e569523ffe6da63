"""Tests for the bounded list of recent pages."""

from __future__ import annotations

from dataclasses import replace

from addon.core.result import Diagnostics, LeftOut
from addon.proxy.recent import PageRecord, RecentPages, new_id


def record(number: int) -> PageRecord:
    """Return the record of page number `number`."""
    return PageRecord(f"id{number}", f"https://a.example/{number}", "reader", "reader view", 1.0)


def test_newest_first_and_bounded() -> None:
    recent = RecentPages(size=3)
    for number in range(5):
        recent.add(record(number))
    assert [r.id for r in recent.newest()] == ["id4", "id3", "id2"]
    assert recent.get("id3") == record(3)
    assert recent.get("id0") is None


def test_ids_are_opaque_and_distinct() -> None:
    ids = {new_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(len(i) >= 12 and i.replace("-", "").replace("_", "").isalnum() for i in ids)


def measured(number: int, lines: int, left_out: str = "") -> PageRecord:
    """Return the record of a reader view of `lines` lines that left `left_out` out."""
    zeros = (0,) * lines
    pieces = (LeftOut("repeated", left_out),) if left_out else ()
    diagnostics = Diagnostics(zeros, zeros, zeros, (), zeros, None, ("p",) * lines, {}, {}, pieces)
    return replace(record(number), diagnostics=diagnostics)


def test_the_oldest_measurements_go_first_past_the_line_budget() -> None:
    # Issue 29 (14): a hundred records of 5 MB pages kept their per-line
    # measurements, and the proxy ~1 GiB, after the pages were long gone.
    recent = RecentPages(size=10, max_weight=40_000)
    for number in range(4):
        recent.add(measured(number, 400))  # 16,000 bytes each
    kept = {r.id: r.diagnostics is not None for r in recent.newest()}
    assert kept == {"id3": True, "id2": True, "id1": False, "id0": False}
    assert recent.get("id0") == record(0)  # the record stays, without its chart


def test_a_page_past_the_whole_budget_keeps_no_measurements() -> None:
    recent = RecentPages(size=10, max_weight=40_000)
    recent.add(measured(0, 10))
    recent.add(measured(1, 10, left_out="word " * 10_000))  # the text of 50,000 bytes
    assert [r.diagnostics is not None for r in recent.newest()] == [False, True]
