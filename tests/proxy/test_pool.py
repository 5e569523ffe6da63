"""Tests for the pipe-fed worker processes: jobs, failures, dead workers, framing."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest

from addon.proxy import pool as workers
from addon.proxy.pool import PipePool, job_parts, read_job

T = TypeVar("T")
SPAWN = multiprocessing.get_context("spawn")
WAIT_SECONDS = 60


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run one async test body and return what it returns."""
    return asyncio.run(coroutine)


def with_pool(body: Callable[[PipePool], Awaitable[T]], workers: int = 1) -> T:
    """Run a test body with a started pool of spawned workers; stop it after."""

    async def main() -> T:
        pool = PipePool(workers, SPAWN)
        try:
            await pool.start()
            # A job whose bytes go astray would wait forever: fail instead.
            return await asyncio.wait_for(body(pool), WAIT_SECONDS)
        finally:
            pool.shutdown()

    return run(main())


def pid_of_worker(_: object) -> int:
    """Return the worker's process id."""
    return os.getpid()


def echo(value: T) -> T:
    """Return the argument unchanged (it went through both pipes)."""
    return value


def wait_for_release(fifo: str) -> str:
    """Block until the test writes to the named pipe; return what it wrote."""
    with open(fifo, encoding="utf-8") as released:
        return released.read()


def die(_: object) -> None:
    """End the worker process at once, as a crash would."""
    os._exit(3)


class Unpicklable(Exception):
    """An exception that cannot travel back to the proxy."""

    def __reduce__(self) -> Any:
        raise TypeError("no pickling")


def raise_unpicklable(_: object) -> None:
    """Raise an exception that does not pickle."""
    raise Unpicklable("odd failure")


def test_a_job_runs_in_a_worker_process_and_returns_its_result() -> None:
    async def body(pool: PipePool) -> tuple[int, str]:
        return await pool.run(pid_of_worker, None), await pool.run(echo, "page")

    worker, echoed = with_pool(body)
    assert worker != os.getpid()
    assert echoed == "page"


def test_an_exception_in_the_job_is_raised_with_its_type() -> None:
    async def body(pool: PipePool) -> int:
        with pytest.raises(ValueError, match="invalid literal"):
            await pool.run(int, "not a number")
        return int(await pool.run(int, "42"))  # the worker is still usable

    assert with_pool(body) == 42


def test_an_exception_that_does_not_pickle_is_reported_by_name() -> None:
    async def body(pool: PipePool) -> None:
        with pytest.raises(RuntimeError, match="Unpicklable: odd failure"):
            await pool.run(raise_unpicklable, None)

    with_pool(body)


def test_a_worker_dying_in_a_job_fails_that_job_and_is_replaced() -> None:
    async def body(pool: PipePool) -> tuple[int, int]:
        first = await pool.run(pid_of_worker, None)
        with pytest.raises(BrokenProcessPool):
            await pool.run(die, None)
        return first, await pool.run(pid_of_worker, None)

    first, second = with_pool(body)
    assert second != first


def pids_around_a_signal(signum: int) -> tuple[int, int]:
    """Signal the worker of one job; return its pid and the pid running the next job."""

    async def body(pool: PipePool) -> tuple[int, int]:
        before = await pool.run(pid_of_worker, None)
        os.kill(before, signum)
        for _ in range(50):  # time for the event loop to see a pipe close, if it does
            await asyncio.sleep(0.01)
            if not any(worker.alive for worker in pool.workers()):
                break
        return before, await pool.run(pid_of_worker, None)

    return with_pool(body)


def test_a_worker_dying_while_its_job_is_written_fails_that_job_alone() -> None:
    async def body(pool: PipePool) -> tuple[int, bool, int]:
        victim = await pool.run(pid_of_worker, None)
        os.kill(victim, signal.SIGSTOP)  # it reads nothing more: the job stays half written
        page = pickle.PickleBuffer(os.urandom(5 * 1024 * 1024))
        job = asyncio.ensure_future(pool.run(kind_and_length, page))
        (worker,) = pool.workers()
        for _ in range(100):  # the few loop turns it takes to hand the job over
            if worker.jobs.pending:
                break
            await asyncio.sleep(0)
        half_written = bool(worker.jobs.pending)
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await job
        return victim, half_written, await pool.run(pid_of_worker, None)

    victim, half_written, successor = with_pool(body)
    assert half_written
    assert successor != victim


def test_a_worker_killed_between_jobs_costs_no_job() -> None:
    victim, successor = pids_around_a_signal(signal.SIGKILL)
    assert successor != victim


def test_a_worker_ignores_the_terminal_s_interrupt() -> None:
    # Ctrl-C reaches the whole process group; the proxy stops its workers itself.
    before, after = pids_around_a_signal(signal.SIGINT)
    assert after == before


def test_a_job_given_up_on_keeps_its_worker_until_it_ends(tmp_path: Path) -> None:
    # The caller stops waiting; the next job must wait for the worker and get
    # its own result, not the late reply of the job given up on.
    fifo = tmp_path / "release"
    os.mkfifo(fifo)

    async def body(pool: PipePool) -> tuple[bool, str]:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(pool.run(wait_for_release, str(fifo)), 0.05)
        following = asyncio.ensure_future(pool.run(echo, "next"))
        await asyncio.sleep(0.2)
        waited = not following.done()  # the only worker still holds the first job
        fifo.write_text("late reply", encoding="utf-8")
        return waited, await following

    assert with_pool(body) == (True, "next")


def stall(_: object) -> None:
    """Block in one C call for good, as libxml2 parsing a hostile page does: no signal
    ends it, no time limit either; only a kill."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
    never_written, _kept_open = os.pipe()
    os.read(never_written, 1)


def test_a_job_past_its_kill_time_ends_its_worker_and_the_next_job_runs_at_once() -> None:
    # Issue 29 (1): a parse that never returns to Python held its worker for
    # minutes; the pool only stopped waiting. Now the worker is killed and replaced.
    # The stalled job never ends by itself: only the kill lets the test go on
    # (with_pool fails it after WAIT_SECONDS otherwise).
    async def body(pool: PipePool) -> tuple[int, int]:
        stalled = await pool.run(pid_of_worker, None)
        with pytest.raises(BrokenProcessPool):
            await pool.run(stall, None, kill_after=0.2)
        return stalled, await pool.run(pid_of_worker, None)

    stalled, fresh = with_pool(body)
    assert fresh != stalled


def test_a_job_done_before_its_kill_time_keeps_its_worker() -> None:
    # The kill checks the reply it was armed for: once that reply is in, a kill
    # that comes late (its timer not yet cancelled) ends nothing.
    async def body(pool: PipePool) -> tuple[int, str, int]:
        first = await pool.run(pid_of_worker, None, kill_after=60.0)
        reply = await pool.run(echo, "fine", kill_after=60.0)
        (worker,) = pool.workers()
        answered = asyncio.get_running_loop().create_future()
        answered.set_result(b"")
        worker.kill(answered)  # what a late timer would do
        return first, reply, await pool.run(pid_of_worker, None)

    first, reply, later = with_pool(body)
    assert reply == "fine" and later == first


def test_jobs_beyond_the_workers_wait_their_turn() -> None:
    async def body(pool: PipePool) -> list[str]:
        return list(await asyncio.gather(*(pool.run(echo, f"page {n}") for n in range(6))))

    assert with_pool(body, workers=2) == [f"page {n}" for n in range(6)]


def test_one_job_at_a_time_goes_to_the_worker_that_ran_the_last() -> None:
    async def body(pool: PipePool) -> tuple[set[int], set[int]]:
        alone = {await pool.run(pid_of_worker, None) for _ in range(6)}
        # Two jobs at once still use both workers.
        together = set(await asyncio.gather(*(pool.run(pid_of_worker, None) for _ in range(2))))
        return alone, together

    alone, together = with_pool(body, workers=2)
    assert len(alone) == 1
    assert len(together) == 2


def test_shutdown_ends_the_worker_processes() -> None:
    async def main() -> list[int]:
        pool = PipePool(2, SPAWN)
        await asyncio.gather(pool.run(echo, 1), pool.run(echo, 2))
        pids = [worker.process.pid for worker in pool.workers()]
        processes = [worker.process for worker in pool.workers()]
        pool.shutdown()
        assert not any(process.is_alive() for process in processes)
        return [pid for pid in pids if pid is not None]

    assert len(run(main())) == 2


def test_an_initializer_runs_in_each_worker() -> None:
    async def main() -> int:
        pool = PipePool(1, SPAWN, initializer=_nicer)
        try:
            return int(await pool.run(os.nice, 0))
        finally:
            pool.shutdown()

    assert run(main()) == min(os.nice(0) + 3, 19)


def _nicer() -> None:
    os.nice(3)


def kind_and_length(value: object) -> tuple[str, int]:
    """Return the type and size of what arrived, to see how a buffer travelled."""
    assert isinstance(value, bytes)
    return type(value).__name__, len(value)


def test_large_bodies_cross_both_pipes_intact() -> None:
    body_bytes = os.urandom(5 * 1024 * 1024 + 7)  # past the pipe's buffer, odd size

    async def body(pool: PipePool) -> bytes:
        result: bytes = await pool.run(echo, body_bytes)
        return result

    assert with_pool(body) == body_bytes


def test_out_of_band_buffers_reach_the_worker_whole_job_after_job() -> None:
    pages = [os.urandom(size) for size in (3 * 1024 * 1024 + 1, 17, 2 * 1024 * 1024)]

    async def body(pool: PipePool) -> list[tuple[str, int]]:
        return [await pool.run(kind_and_length, pickle.PickleBuffer(page)) for page in pages]

    assert with_pool(body) == [("bytes", len(page)) for page in pages]


def test_a_job_s_buffer_is_written_from_its_own_memory_not_copied() -> None:
    page = os.urandom(1024 * 1024)
    parts = job_parts(echo, pickle.PickleBuffer(page))
    assert len(parts) == 1 + 2 + 2  # count, two sizes, the pickle and the buffer
    assert isinstance(parts[-1], memoryview) and parts[-1].obj is page
    assert len(parts[-2]) < 200  # the pickle holds no copy of the page


def write_all(fd: int, parts: list[bytes | memoryview]) -> None:
    """Write a job's parts to a pipe (blocking)."""
    for part in parts:
        view = memoryview(part)
        while view:
            view = view[os.write(fd, view) :]


def test_jobs_round_trip_through_a_pipe_and_end_at_its_close() -> None:
    read_end, write_end = os.pipe()
    page = b"<p>page</p>" * 100
    try:
        write_all(write_end, job_parts(echo, "in band"))
        write_all(write_end, job_parts(echo, pickle.PickleBuffer(page)))
        write_all(write_end, job_parts(echo, pickle.PickleBuffer(b"")))
        os.close(write_end)
        assert read_job(read_end) == (echo, "in band")
        assert read_job(read_end) == (echo, page)
        assert read_job(read_end) == (echo, b"")
        assert read_job(read_end) is None
    finally:
        os.close(read_end)


@pytest.mark.parametrize("cut", [2, 4 + 8, 4 + 16 + 3, -1])
def test_a_pipe_closed_inside_a_job_is_an_error(cut: int) -> None:
    read_end, write_end = os.pipe()
    whole = b"".join(job_parts(echo, pickle.PickleBuffer(b"0123456789")))
    try:
        os.write(write_end, whole[:cut])
        os.close(write_end)
        with pytest.raises(EOFError, match="inside a message"):
            read_job(read_end)
    finally:
        os.close(read_end)


def test_a_job_pipe_whose_reader_is_gone_closes_without_raising() -> None:
    async def main() -> tuple[bool, bool]:
        read_end, write_end = os.pipe()
        os.close(read_end)
        pipe = workers.JobPipe(os.fdopen(write_end, "wb", buffering=0))
        pipe.write([b"job"])  # EPIPE: the worker is gone
        closed_at_once = pipe.closed
        pipe.write([b"another"])  # ignored once closed
        return closed_at_once, pipe.pipe.closed

    assert run(main()) == (True, True)
