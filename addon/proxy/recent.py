"""The proxy's memory of recent pages, for the settings and "why" pages."""

from __future__ import annotations

import secrets
from collections import deque
from dataclasses import dataclass, replace

from addon.core.result import Diagnostics

ACTIONS = ("reader", "original", "passthrough")


@dataclass(frozen=True, slots=True)
class PageRecord:
    """What happened to one page: reader view, original or passthrough, why, how long."""

    id: str
    url: str
    action: str  # one of ACTIONS
    reason: str
    ms: float
    title: str = ""
    diagnostics: Diagnostics | None = None


def new_id() -> str:
    """Return a fresh opaque id for a page record (unguessable, URL-safe)."""
    return secrets.token_urlsafe(9)


# What the records' measurements may hold in all, roughly (weight_of). A
# 5 MB page's held 5 MB: the text the output stage left out, and 25,000 lines
# of counts; a hundred such records kept ~1 GiB after the pages were gone.
MAX_WEIGHT = 16 << 20
# Bytes a line's counts, tag and selection take; bytes a left-out piece takes
# besides its text.
LINE_BYTES = 40
PIECE_BYTES = 100


def weight_of(record: PageRecord) -> int:
    """Return about how many bytes a record's measurements hold."""
    diagnostics = record.diagnostics
    if diagnostics is None:
        return 0
    left_out = sum(PIECE_BYTES + len(piece.text) for piece in diagnostics.left_out)
    return LINE_BYTES * len(diagnostics.t1) + left_out


class RecentPages:
    """The last `size` page records, newest first, found by id; the measurements of the
    newest up to `max_weight` bytes in all."""

    def __init__(self, size: int = 100, max_weight: int = MAX_WEIGHT) -> None:
        self._records: deque[PageRecord] = deque(maxlen=size)
        self.max_weight = max_weight

    def add(self, record: PageRecord) -> None:
        """Remember one record, forgetting the oldest past the size, and the oldest
        measurements past the weight budget."""
        self._records.appendleft(record)
        weight = 0
        for place, kept in enumerate(self._records):
            weight += weight_of(kept)
            if weight > self.max_weight:  # the why page then shows it without a chart
                self._records[place] = replace(kept, diagnostics=None)
                weight -= weight_of(kept)

    def get(self, record_id: str) -> PageRecord | None:
        """Return the record with this id, if it is still remembered."""
        return next((r for r in self._records if r.id == record_id), None)

    def newest(self) -> tuple[PageRecord, ...]:
        """Return all remembered records, newest first."""
        return tuple(self._records)
