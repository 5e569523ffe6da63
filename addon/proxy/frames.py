"""The frames of pages that went out as they came: a request for one is no page load.

Chromium sends Fetch Metadata (`Sec-Fetch-Dest: iframe`) only to trustworthy
origins. Over plain HTTP a frame's request carries the same headers as a page
opened in a tab, and a reader view in a frame is refused (it forbids framing).
The proxy sees every page that goes out as it came: the addresses in its
`<iframe src>` and `<frame src>` tell the frame requests that follow apart.
"""

from __future__ import annotations

import re
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from html import unescape
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

# An <iframe> or <frame> tag's src, or the data-src a lazy loader copies into it.
FRAME_SRC = re.compile(
    rb"""<i?frame\b[^>]*?\s(?:data-)?src\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""",
    re.IGNORECASE,
)
# Bytes of the text kept from one piece to the next, so a tag cut between two
# pieces of a streamed body is still found whole.
CARRY_BYTES = 4096
# The codings a browser accepts over plain HTTP (Chromium: gzip, deflate).
INFLATED = ("gzip", "x-gzip", "deflate")
# Bytes decompressed per step: a compression bomb never sits in memory at once.
STEP_BYTES = 64 * 1024
DEFAULT_SIZE = 4096  # frame addresses remembered
# A lazy frame loads when scrolled into view, minutes after its page.
DEFAULT_SECONDS = 600.0


def address(url: str) -> str:
    """Return a URL as a request names it: no fragment, default port dropped, ASCII only."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    netloc = host if port is None or port == default else f"{host}:{port}"
    path = quote(parts.path or "/", safe="/%:@!$&'()*+,;=~")
    query = quote(parts.query, safe="/%:@!$&'()*+,;=~?")
    return urlunsplit((parts.scheme.lower(), netloc, path, query, ""))


def origin_of(url: str) -> str:
    """Return a URL's origin (scheme, host and port), as a Referer may carry it."""
    parts = urlsplit(address(url))
    return f"{parts.scheme}://{parts.netloc}"


class Frames:
    """Remember which pages, by origin, embed which plain-HTTP addresses as frames."""

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        seconds: float = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self.seconds = seconds
        self.clock = clock
        self.embeds: OrderedDict[str, tuple[float, frozenset[str]]] = OrderedDict()

    def add(self, page_url: str, src: str) -> None:
        """Note a frame's src, as written in the page at page_url."""
        url = address(urljoin(page_url, src.strip()))
        if not url.startswith("http://"):
            return  # an https frame's request carries Fetch Metadata
        _, origins = self.embeds.pop(url, (0.0, frozenset()))
        self.embeds[url] = (self.clock() + self.seconds, origins | {origin_of(page_url)})
        while len(self.embeds) > self.size:
            self.embeds.popitem(last=False)

    def holds(self, url: str, referer: str | None) -> bool:
        """Tell whether a request is for a frame of a page seen lately: its address is a
        frame's, and its Referer is from a page that embeds it."""
        # Without a Referer it is the user's own visit (typed, a bookmark), even to
        # an address some page framed; a frame in a page that sends none (a
        # no-referrer policy) is the case left out.
        entry = self.embeds.get(address(url))
        if entry is None or entry[0] < self.clock() or referer is None:
            return False
        return origin_of(referer) in entry[1]


class BodyText:
    """Undo a body's gzip or deflate a piece at a time, at most `limit` bytes in all."""

    def __init__(self, coding: str, limit: int) -> None:
        coding = coding.strip().lower()
        self.inflater = zlib.decompressobj(zlib.MAX_WBITS | 32) if coding in INFLATED else None
        # Another coding (br, zstd: never over plain HTTP) is not read at all.
        self.left = limit if self.inflater is not None or coding in ("", "identity") else 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Yield the text in one piece of the body, until the limit is reached."""
        if self.inflater is None:
            yield from self._counted(data)
            return
        try:
            while data and self.left > 0:
                yield from self._counted(self.inflater.decompress(data, STEP_BYTES))
                data = self.inflater.unconsumed_tail
        except zlib.error:
            self.left = 0  # not what it claims: the body goes on unread

    def _counted(self, text: bytes) -> Iterator[bytes]:
        """Yield text up to the limit, and count it."""
        text = text[: max(self.left, 0)]
        self.left -= len(text)
        if text:
            yield text


class FrameScan:
    """Pass a page's body on unchanged, noting the address of each frame in it
    (a mitmproxy stream callable)."""

    def __init__(self, frames: Frames, page_url: str, coding: str, limit: int) -> None:
        self.frames = frames
        self.page_url = page_url
        self.body = BodyText(coding, limit)
        self.carry = b""

    def __call__(self, data: bytes) -> bytes:
        """Note the frames in one piece of the body; return the piece as it came."""
        for text in self.body.feed(data):
            self._scan(self.carry + text)
        return data

    def _scan(self, text: bytes) -> None:
        """Note every frame src in the text; keep its end for the next piece."""
        for match in FRAME_SRC.finditer(text):
            if match.end() == len(text):
                continue  # an unquoted value the next piece may go on with: seen whole then
            raw = next(group for group in match.groups() if group is not None)
            self.frames.add(self.page_url, unescape(raw.decode("utf-8", "replace")))
        self.carry = text[-CARRY_BYTES:]
