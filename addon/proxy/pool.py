"""Worker processes fed by the event loop through their own pipes, with no helper threads.

A `ProcessPoolExecutor` moves each job through a manager thread, a feeder
thread and shared queues: five or six thread and process wake-ups a page,
1.2 ms on an idle 2-core machine before any work (0.3 ms over a bare pipe),
and under load those threads compete for the GIL with the event loop that relays
every other request. Here the event loop writes a job straight into an idle
worker's pipe, from the job's own buffers (a page's body is not copied into
the pickle), and reads its reply from another pipe through asyncio's
non-blocking pipe transport.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import signal
import struct
import sys
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import IO, Any

if sys.platform == "linux":
    import fcntl

log = logging.getLogger(__name__)

# Every reply: its length, then the pickle.
_HEADER = struct.Struct("!Q")
# Every job: how many parts, each part's length, then the parts: the pickle and
# the buffers it holds out of band (pickle protocol 5), such as a page's body.
# Pickled in band and copied into the transport's buffer, a 2-5 MB page held the
# event loop 0.8 ms (median) to 11 ms (p95) under load; 0.5 and 2.8 ms now.
_PARTS = struct.Struct("!I")
# A page's body goes to its worker in one piece: a pipe's 64 KiB buffer takes a
# 2 MB page in 32 writes, each a wake-up of the event loop and of the worker.
_PIPE_BYTES = 1 << 20
# How long a worker may take to leave once its pipes close; a busy one is ended.
_EXIT_SECONDS = 0.5


def _read_exactly(fd: int, size: int) -> bytes | None:
    """Read `size` bytes from a pipe (blocking); None when it closes before the first."""
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            if chunks:
                raise EOFError("the pipe closed inside a message")
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def job_parts(function: Callable[[Any], Any], argument: Any) -> list[bytes | memoryview]:
    """Pickle a job with its large buffers out of band; return the parts to write."""
    buffers: list[pickle.PickleBuffer] = []
    payload = pickle.dumps((function, argument), 5, buffer_callback=buffers.append)
    parts: list[bytes | memoryview] = [payload, *(buffer.raw() for buffer in buffers)]
    sizes = [_HEADER.pack(len(part)) for part in parts]  # a raw() view counts bytes
    return [_PARTS.pack(len(parts)), *sizes, *parts]


def read_job(fd: int) -> tuple[Callable[[Any], Any], Any] | None:
    """Read one job from a pipe (blocking) and unpickle it; None at end of file."""
    head = _read_exactly(fd, _PARTS.size)
    if head is None:
        return None
    (count,) = _PARTS.unpack(head)
    sizes = [_HEADER.unpack(_read_part(fd, _HEADER.size))[0] for _ in range(count)]
    payload, *buffers = (_read_part(fd, size) for size in sizes)
    function, argument = pickle.loads(payload, buffers=buffers)
    return function, argument


def _read_part(fd: int, size: int) -> bytes:
    """Read the next `size` bytes of a message that has begun (blocking)."""
    part = _read_exactly(fd, size)
    if part is None:
        raise EOFError("the pipe closed inside a message")
    return part


def write_message(fd: int, payload: bytes) -> None:
    """Write one message to a pipe (blocking)."""
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


def serve(jobs: Connection, replies: Connection, initializer: Callable[[], object] | None) -> None:
    """Run jobs from the proxy until it closes the job pipe (a worker process's main)."""
    # Ctrl-C in the terminal reaches the whole process group: the proxy stops
    # its workers itself (or they read the end of their pipe when it dies).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    while (job := read_job(jobs.fileno())) is not None:
        write_message(replies.fileno(), _reply(*job))


def _reply(function: Callable[[Any], Any], argument: Any) -> bytes:
    """Run one job; pickle its result, or the exception it raised."""
    try:
        return pickle.dumps((True, function(argument)), pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # the proxy re-raises it, as a pool's future would
        try:
            return pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that does not pickle still gets reported
            failure = RuntimeError(f"{type(error).__name__}: {error}")
            return pickle.dumps((False, failure), pickle.HIGHEST_PROTOCOL)


class _Replies(asyncio.Protocol):
    """Cut a worker's reply pipe into messages; hand each to the job waiting for it."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.waiting: asyncio.Future[bytes] | None = None
        self.closed = False
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the transport, to close it when the worker stops."""
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        """Collect bytes; complete the waiting job once its whole reply is in."""
        self.buffer += data
        if len(self.buffer) < _HEADER.size:
            return
        (size,) = _HEADER.unpack_from(self.buffer)
        end = _HEADER.size + size
        if len(self.buffer) >= end and self.waiting is not None:
            reply = bytes(self.buffer[_HEADER.size : end])
            del self.buffer[:end]
            waiting, self.waiting = self.waiting, None
            if not waiting.done():
                waiting.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        """The worker is gone: fail the job it held."""
        self.closed = True
        waiting, self.waiting = self.waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_exception(BrokenProcessPool("the worker process died"))


class JobPipe:
    """A worker's job pipe, written by the event loop straight from the job's buffers."""

    # asyncio's pipe transport copies what the pipe does not take at once into
    # its own buffer: 4 MB of a 5 MB page, on the event loop. Here the parts stay
    # where they are, and each write takes what the pipe has room for.

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe  # owns the descriptor
        self.fd = pipe.fileno()
        os.set_blocking(self.fd, False)
        self.pending: deque[memoryview] = deque()
        self.closed = False
        self.loop = asyncio.get_running_loop()

    def write(self, parts: Iterable[bytes | memoryview]) -> None:
        """Queue a job's parts; write what the pipe takes now, the rest as it drains."""
        if self.closed:
            return
        waiting = bool(self.pending)
        self.pending.extend(memoryview(part) for part in parts)
        if not waiting:
            self.drain()
            if self.pending:
                self.loop.add_writer(self.fd, self.drain)

    def drain(self) -> None:
        """Write as much as the pipe takes; stop watching it once all is written."""
        try:
            written = os.writev(self.fd, self.pending)
        except BlockingIOError:
            return
        except OSError as error:  # the worker is gone: its reply pipe fails the job
            log.debug("plainview: a worker's job pipe failed: %s", error)
            self.close()
            return
        self._consume(written)
        if not self.pending:
            self.loop.remove_writer(self.fd)

    def _consume(self, written: int) -> None:
        """Drop the bytes the pipe took from the front of the queue."""
        pending = self.pending
        while written:
            size = len(pending[0])
            if written < size:
                pending[0] = pending[0][written:]
                return
            written -= size
            pending.popleft()

    def close(self) -> None:
        """Stop writing and close the pipe (the worker reads its end of file)."""
        if self.closed:
            return
        self.closed = True
        self.pending.clear()
        self.loop.remove_writer(self.fd)
        self.pipe.close()


@dataclass
class _Worker:
    """One worker process and the two ends of its pipes the proxy holds."""

    process: BaseProcess
    jobs: JobPipe
    replies: _Replies

    @property
    def alive(self) -> bool:
        """Tell whether the worker can take a job."""
        return not self.replies.closed and not self.jobs.closed

    def send(self, function: Callable[[Any], Any], argument: Any) -> asyncio.Future[bytes]:
        """Hand the worker a job; return the future of its raw reply."""
        reply: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.replies.waiting = reply
        self.jobs.write(job_parts(function, argument))
        return reply

    def kill(self, reply: asyncio.Future[bytes]) -> None:
        """End the worker at once if it still owes this reply; its pipe then fails the job."""
        if not reply.done() and self.process.is_alive():
            log.warning("plainview: a page overran its time in a worker; the worker is replaced")
            self.process.kill()

    def stop(self) -> None:
        """Close the pipes (an idle worker then exits); end a worker that does not."""
        self.jobs.close()
        if self.replies.transport is not None:
            self.replies.transport.close()
        self.process.join(_EXIT_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(_EXIT_SECONDS)


class PipePool:
    """A fixed number of worker processes, each fed through its own pipes by the event loop."""

    def __init__(
        self,
        workers: int,
        context: BaseContext,
        initializer: Callable[[], object] | None = None,
    ) -> None:
        self.size = workers
        self.context = context
        self.initializer = initializer
        # Last in, first out: one page at a time goes to the worker that ran the
        # last one, whose memory is still in the CPU's caches (docs/performance.md).
        self._idle: asyncio.LifoQueue[_Worker] | None = None
        self._all: list[_Worker] = []

    async def start(self) -> None:
        """Start the workers now, so the first job does not wait for them."""
        if self._idle is None:
            self._idle = asyncio.LifoQueue()
            for _ in range(self.size):
                self._idle.put_nowait(await self._new_worker())

    async def run(
        self, function: Callable[[Any], Any], argument: Any, *, kill_after: float | None = None
    ) -> Any:
        """Run `function(argument)` in an idle worker; raise BrokenProcessPool if it dies.

        A job still running `kill_after` seconds after it was sent ends its worker.
        """
        await self.start()
        assert self._idle is not None
        worker = await self._idle.get()
        if not worker.alive:  # it died between jobs: this job had no part in it
            worker = await self._replace(worker)
        reply = worker.send(function, argument)
        if kill_after is not None:
            # A C call that never returns (libxml2 on an element with 100,000
            # attributes) is deaf to the job's own time budget: only a kill ends it.
            overdue = asyncio.get_running_loop().call_later(kill_after, worker.kill, reply)
            reply.add_done_callback(lambda _: overdue.cancel())
        # A caller that stops waiting (a timeout) leaves the job running: the
        # worker takes the next job only once this reply is in, or once it is killed.
        reply.add_done_callback(lambda done: self._release(worker, done))
        ok, result = pickle.loads(await asyncio.shield(reply))
        if not ok:
            raise result
        return result

    def _release(self, worker: _Worker, reply: asyncio.Future[bytes]) -> None:
        """Put a worker whose job ended back in line, or a fresh one for a dead worker."""
        if not reply.cancelled():
            reply.exception()  # seen here: a job given up on may end in its worker's death
        if self._idle is None:  # shut down meanwhile
            return
        if worker.alive:
            self._idle.put_nowait(worker)
        else:
            asyncio.get_running_loop().create_task(self._refill(worker))

    async def _refill(self, dead: _Worker) -> None:
        """Start a worker in place of a dead one and put it in line."""
        fresh = await self._replace(dead)
        if self._idle is not None:
            self._idle.put_nowait(fresh)

    async def _replace(self, dead: _Worker) -> _Worker:
        """Stop a dead worker's pipes and process; return a fresh worker."""
        dead.stop()
        self._all.remove(dead)
        return await self._new_worker()

    async def _new_worker(self) -> _Worker:
        """Start one worker process and connect its pipes to the event loop."""
        job_out, job_in = self.context.Pipe(duplex=False)
        reply_out, reply_in = self.context.Pipe(duplex=False)
        _widen(job_in)
        _widen(reply_in)
        process = self.context.Process(  # type: ignore[attr-defined]
            target=serve, args=(job_out, reply_in, self.initializer), daemon=True
        )
        process.start()
        job_out.close()
        reply_in.close()
        loop = asyncio.get_running_loop()
        _, replies = await loop.connect_read_pipe(_Replies, _pipe(reply_out, "rb"))
        worker = _Worker(process, JobPipe(_pipe(job_in, "wb")), replies)
        self._all.append(worker)
        return worker

    def workers(self) -> tuple[_Worker, ...]:
        """Return the workers started and not yet replaced."""
        return tuple(self._all)

    def shutdown(self) -> None:
        """Stop every worker; jobs still running fail as if their worker died."""
        self._idle = None
        workers, self._all = self._all, []
        for worker in workers:
            worker.stop()


def _widen(end: Connection) -> None:
    """Grow a pipe's buffer where the system allows (Linux; else it keeps its size)."""
    if sys.platform != "linux":
        return
    try:
        fcntl.fcntl(end.fileno(), fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except OSError as error:  # above /proc/sys/fs/pipe-max-size: slower, still correct
        log.debug("plainview: the worker pipe keeps its buffer size: %s", error)


def _pipe(end: Connection, mode: str) -> IO[bytes]:
    """Turn a pipe end into an unbuffered file object that owns its descriptor."""
    fd = os.dup(end.fileno())
    end.close()
    return os.fdopen(fd, mode, buffering=0)
