"""A copy of a body that streams on as it came, for the site memory to learn from."""

from __future__ import annotations

from collections.abc import Callable


class BodyCopy:
    """Pass a streamed body on unchanged, keeping a copy of it up to `limit` bytes
    (a mitmproxy stream callable; `inner` is another one it runs first)."""

    def __init__(self, limit: int, inner: Callable[[bytes], bytes] | None = None) -> None:
        self.limit = limit
        self.inner = inner
        self.parts: list[bytes] = []
        self.size = 0
        self.whole = True  # False once the body passed the limit: no copy is kept

    def __call__(self, data: bytes) -> bytes:
        """Keep a copy of one piece of the body; return the piece as it came."""
        if self.inner is not None:
            data = self.inner(data)
        if self.whole and data:
            self.size += len(data)
            if self.size > self.limit:
                self.whole, self.parts = False, []
            else:
                self.parts.append(data)
        return data

    def body(self) -> bytes | None:
        """Return the copied body, or None when it passed the limit."""
        return b"".join(self.parts) if self.whole else None
