"""The per-page switch: a one-time marker in the URL, never sent upstream.

`?plainview=original` ("Show original" on a reader page) and `?plainview=reader`
("Read this page", from the bookmarklet or the recent pages) each change one
load of one page, whatever the site's mode; no rule is written.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

MARKER_NAME = "plainview"
ONE_TIME_MODES = ("original", "reader")
MARKER = f"{MARKER_NAME}=original"


# "Read this page" as a bookmark: it adds the reader marker to the address as
# `with_marker` does (before the fragment, keeping every other byte) and loads it.
BOOKMARKLET = (
    "javascript:(function(){var h=location.href,i=h.indexOf('#'),"
    "a=i<0?h:h.slice(0,i),f=i<0?'':h.slice(i);"
    "location.assign(a+(a.indexOf('?')<0?'?':/[?&]$/.test(a)?'':'&')"
    f"+'{MARKER_NAME}=reader'+f)}})()"
)


def strip_marker(path: str) -> tuple[str, str]:
    """Remove the markers from a request path's query, keeping every other byte as it was;
    return the path and the mode the last marker asks for ("" if none)."""
    base, question, query = path.partition("?")
    if not question:
        return path, ""
    query, hash_sign, fragment = query.partition("#")
    fields = query.split("&")
    modes = [_marked_mode(field) for field in fields]
    if not any(modes):
        return path, ""
    rest = "&".join(field for field, mode in zip(fields, modes, strict=True) if not mode)
    return f"{base}{'?' if rest else ''}{rest}{hash_sign}{fragment}", [m for m in modes if m][-1]


def _marked_mode(field: str) -> str:
    """Return the mode a query field marks, or ""."""
    name, equals, value = field.partition("=")
    return value if name == MARKER_NAME and equals and value in ONE_TIME_MODES else ""


def with_marker(url: str, mode: str = "original") -> str:
    """Return the URL with the marker for `mode` added to its query (before any fragment)."""
    address, hash_sign, fragment = url.partition("#")
    joiner = "&" if "?" in address else "?"
    if address.endswith(("?", "&")):
        joiner = ""
    return f"{address}{joiner}{MARKER_NAME}={mode}{hash_sign}{fragment}"


class OneTimePasses:
    """URLs whose next load goes out in a mode of its own, once, within `ttl` seconds."""

    def __init__(
        self, *, ttl: float = 30.0, size: int = 100, clock: Callable[[], float] = time.monotonic
    ) -> None:
        # ttl: the browser follows the redirect at once; a stale pass must not linger.
        # size: bounds memory if many passes are never used.
        self._ttl = ttl
        self._size = size
        self._clock = clock
        self._passes: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def allow(self, url: str, mode: str) -> None:
        """Let the next load of `url` go out in `mode`."""
        self._passes[url] = (mode, self._clock() + self._ttl)
        self._passes.move_to_end(url)
        while len(self._passes) > self._size:
            self._passes.popitem(last=False)

    def take(self, url: str) -> str:
        """Use up the pass for `url`; return its mode, or "" when there was no live one."""
        mode, expires = self._passes.pop(url, ("", 0.0))
        return mode if self._clock() <= expires else ""
