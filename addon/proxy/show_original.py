"""The "Show original" escape hatch: a one-time marker in the URL, never sent upstream."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

MARKER = "plainview=original"


def strip_marker(path: str) -> tuple[str, bool]:
    """Remove the marker from a request path's query, keeping every other byte as it was."""
    base, question, query = path.partition("?")
    if not question:
        return path, False
    fields = query.split("&")
    kept = [field for field in fields if field != MARKER]
    if len(kept) == len(fields):
        return path, False
    rest = "&".join(kept)
    return (f"{base}?{rest}" if rest else base), True


def with_marker(url: str) -> str:
    """Return the URL with the marker added to its query (before any fragment)."""
    address, hash_sign, fragment = url.partition("#")
    joiner = "&" if "?" in address else "?"
    if address.endswith(("?", "&")):
        joiner = ""
    return f"{address}{joiner}{MARKER}{hash_sign}{fragment}"


class ShowOriginal:
    """URLs whose next load goes out untransformed, once, within `ttl` seconds."""

    def __init__(
        self, *, ttl: float = 30.0, size: int = 100, clock: Callable[[], float] = time.monotonic
    ) -> None:
        # ttl: the browser follows the redirect at once; a stale pass must not linger.
        # size: bounds memory if many passes are never used.
        self._ttl = ttl
        self._size = size
        self._clock = clock
        self._passes: OrderedDict[str, float] = OrderedDict()

    def allow(self, url: str) -> None:
        """Let the next load of `url` through untransformed."""
        self._passes[url] = self._clock() + self._ttl
        self._passes.move_to_end(url)
        while len(self._passes) > self._size:
            self._passes.popitem(last=False)

    def take(self, url: str) -> bool:
        """Use up the pass for `url`; tell whether there was a live one."""
        expires = self._passes.pop(url, None)
        return expires is not None and self._clock() <= expires
