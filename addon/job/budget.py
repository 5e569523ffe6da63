"""A time budget for CPU-bound work: a timer signal interrupts it past the budget."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class OverBudget(Exception):
    """A page's extraction ran past its time budget."""


def _raise_over_budget(signum: int, frame: object) -> None:
    """Interrupt the extraction from the timer signal."""
    raise OverBudget


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise OverBudget in the block once `seconds` have passed (0: never).

    A timer signal interrupts the work between two Python steps, as the proxy
    abandons a page past its timeout. Signals reach only the main thread, and
    not every system has interval timers: elsewhere the block runs unbounded.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds <= 0 or not usable:
        yield
        return
    previous = signal.signal(signal.SIGALRM, _raise_over_budget)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
