"""The time budget: interrupts work past it in the main thread, never elsewhere."""

import signal
import threading

import pytest

from addon.job.budget import OverBudget, time_budget


def test_work_past_the_budget_is_interrupted_and_the_timer_restored() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(OverBudget), time_budget(0.05):
        while True:  # CPU-bound work: only the timer can stop it
            sum(range(1000))
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == before


def test_work_within_the_budget_finishes() -> None:
    with time_budget(5.0):
        done = sum(range(1000))
    assert done == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_budget_of_zero_means_no_limit() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with time_budget(0):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) == before


def test_the_block_runs_unbounded_outside_the_main_thread() -> None:
    seen: list[bool] = []

    def work() -> None:
        # Signals reach only the main thread: no timer may be armed from here.
        with time_budget(0.01):
            seen.append(signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
        seen.append(True)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert seen == [True, True]
