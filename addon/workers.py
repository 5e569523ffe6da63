"""Worker processes fed by the event loop through their own pipes, with no helper threads.

A `ProcessPoolExecutor` moves each job through a manager thread, a feeder
thread and shared queues: five or six thread and process wake-ups a page,
1.2 ms on an idle 2-core machine before any work (0.3 ms over a bare pipe),
and under load those threads compete for the GIL with the event loop that relays
every other request. Here the event loop writes a job straight into an idle
worker's pipe and reads its reply from another, both through asyncio's
non-blocking pipe transports.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import IO, Any

if sys.platform == "linux":
    import fcntl

log = logging.getLogger(__name__)

# Every message, either way: its length, then the pickle.
_HEADER = struct.Struct("!Q")
# A page's body goes to its worker in one piece: a pipe's 64 KiB buffer takes a
# 2 MB page in 32 writes, each a wake-up of the event loop and of the worker.
_PIPE_BYTES = 1 << 20
# How long a worker may take to leave once its pipes close; a busy one is ended.
_EXIT_SECONDS = 0.5


def read_message(fd: int) -> bytes | None:
    """Read one message from a pipe (blocking); None at end of file."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    payload = _read_exactly(fd, size)
    if payload is None:
        raise EOFError("the pipe closed inside a message")
    return payload


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
    while (message := read_message(jobs.fileno())) is not None:
        function, argument = pickle.loads(message)
        write_message(replies.fileno(), _reply(function, argument))


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


@dataclass
class _Worker:
    """One worker process and the two ends of its pipes the proxy holds."""

    process: BaseProcess
    jobs: asyncio.WriteTransport
    replies: _Replies

    @property
    def alive(self) -> bool:
        """Tell whether the worker can take a job."""
        return not self.replies.closed and not self.jobs.is_closing()

    def send(self, function: Callable[[Any], Any], argument: Any) -> asyncio.Future[bytes]:
        """Hand the worker a job; return the future of its raw reply."""
        payload = pickle.dumps((function, argument), pickle.HIGHEST_PROTOCOL)
        reply: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.replies.waiting = reply
        self.jobs.writelines([_HEADER.pack(len(payload)), payload])
        return reply

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

    async def run(self, function: Callable[[Any], Any], argument: Any) -> Any:
        """Run `function(argument)` in an idle worker; raise BrokenProcessPool if it dies."""
        await self.start()
        assert self._idle is not None
        worker = await self._idle.get()
        if not worker.alive:  # it died between jobs: this job had no part in it
            worker = await self._replace(worker)
        reply = worker.send(function, argument)
        # A caller that stops waiting (a timeout) leaves the job running: the
        # worker takes the next job only once this reply is in.
        reply.add_done_callback(lambda _: self._release(worker))
        ok, result = pickle.loads(await asyncio.shield(reply))
        if not ok:
            raise result
        return result

    def _release(self, worker: _Worker) -> None:
        """Put a worker whose job ended back in line, or a fresh one for a dead worker."""
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
        jobs, _ = await loop.connect_write_pipe(asyncio.Protocol, _pipe(job_in, "wb"))
        _, replies = await loop.connect_read_pipe(_Replies, _pipe(reply_out, "rb"))
        worker = _Worker(process, jobs, replies)
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
