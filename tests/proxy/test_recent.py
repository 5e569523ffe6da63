"""Tests for the bounded list of recent pages."""

from __future__ import annotations

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
