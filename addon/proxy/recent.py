"""The proxy's memory of recent pages, for the settings and "why" pages."""

from __future__ import annotations

import secrets
from collections import deque
from dataclasses import dataclass

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


class RecentPages:
    """The last `size` page records, newest first, found by id."""

    def __init__(self, size: int = 100) -> None:
        self._records: deque[PageRecord] = deque(maxlen=size)

    def add(self, record: PageRecord) -> None:
        """Remember one record, forgetting the oldest past the size."""
        self._records.appendleft(record)

    def get(self, record_id: str) -> PageRecord | None:
        """Return the record with this id, if it is still remembered."""
        return next((r for r in self._records if r.id == record_id), None)

    def newest(self) -> tuple[PageRecord, ...]:
        """Return all remembered records, newest first."""
        return tuple(self._records)
