"""A clock for the tests that the test moves by hand."""

from __future__ import annotations


class Clock:
    """A monotonic clock standing at `now` until the test moves it."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
