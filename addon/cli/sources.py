"""Read pages from files, http(s) URLs and standard input, never more than a cap."""

from __future__ import annotations

import gzip
import http.client
import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from addon import __version__

# Servers answer some clients with a stub; ask the way a browser does.
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
USER_AGENT = f"Mozilla/5.0 (compatible; plainview/{__version__})"
# zlib window bits per Content-Encoding: 31 = gzip framing, 47 = gzip or zlib.
_WBITS = {"gzip": 31, "x-gzip": 31, "deflate": 47}


@dataclass(frozen=True, slots=True)
class Page:
    """The bytes of one source and what is known about them."""

    source: str
    # At most the cap plus one byte: enough to tell that the source is too large.
    body: bytes
    url: str | None = None
    content_type: str | None = None


@dataclass(frozen=True, slots=True)
class ReadError:
    """Why a source could not be read."""

    source: str
    reason: str


def is_url(source: str) -> bool:
    """Tell whether a source names an http(s) URL rather than a file."""
    return source.lower().startswith(("http://", "https://"))


def read_source(
    source: str,
    *,
    max_bytes: int,
    url: str | None = None,
    timeout: float = 20.0,
    stdin: BinaryIO | None = None,
) -> Page | ReadError:
    """Read a file, an http(s) URL or (for `-`) standard input; `url` names a file's page."""
    if source == "-":
        if stdin is None:
            return ReadError(source, "no standard input")
        return read_stream(stdin, max_bytes=max_bytes, url=url)
    if is_url(source):
        return read_url(source, max_bytes=max_bytes, timeout=timeout)
    return read_file(Path(source), max_bytes=max_bytes, url=url)


def read_file(path: Path, *, max_bytes: int, url: str | None = None) -> Page | ReadError:
    """Read up to max_bytes + 1 bytes of a file, decompressing a `.gz` one."""
    try:
        if path.suffix.lower() == ".gz":
            with gzip.open(path, "rb") as compressed:
                body = compressed.read(max_bytes + 1)
        else:
            with path.open("rb") as plain:
                body = plain.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as error:
        return ReadError(str(path), _reason(error))
    return Page(str(path), body, url)


def read_stream(
    stream: BinaryIO, *, max_bytes: int, url: str | None = None, name: str = "-"
) -> Page | ReadError:
    """Read up to max_bytes + 1 bytes of an open binary stream."""
    try:
        body = stream.read(max_bytes + 1)
    except OSError as error:
        return ReadError(name, _reason(error))
    return Page(name, body, url)


def read_url(url: str, *, max_bytes: int, timeout: float = 20.0) -> Page | ReadError:
    """Fetch an http(s) URL, following redirects; the page's URL is the final one."""
    request = urllib.request.Request(url, headers={"Accept": ACCEPT, "User-Agent": USER_AGENT})
    try:
        with _opener().open(request, timeout=timeout) as response:
            raw = response.read(max_bytes + 1)
            final_url = response.geturl()
            content_type = response.headers.get("Content-Type")
            coding = response.headers.get("Content-Encoding", "")
    except urllib.error.HTTPError as error:
        error.close()
        return ReadError(url, f"HTTP {error.code} {error.reason}")
    except (OSError, ValueError, http.client.HTTPException) as error:
        return ReadError(url, _reason(error))
    body = decode_content(raw, coding, max_bytes=max_bytes)
    if body is None:
        return ReadError(url, f"cannot decode Content-Encoding {coding.strip()!r}")
    return Page(url, body, final_url, content_type)


def decode_content(raw: bytes, coding: str, *, max_bytes: int) -> bytes | None:
    """Undo a gzip/deflate Content-Encoding up to max_bytes + 1 bytes; None if impossible."""
    name = coding.strip().lower()
    if name in ("", "identity"):
        return raw
    wbits = _WBITS.get(name)
    if wbits is None:
        return None
    try:
        return zlib.decompressobj(wbits).decompress(raw, max_bytes + 1)
    except zlib.error:
        return None


def _opener() -> urllib.request.OpenerDirector:
    """Build an opener that speaks http(s) only, so a redirect cannot reach ftp or files."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        urllib.request.HTTPRedirectHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
        urllib.request.UnknownHandler(),
    ):
        opener.add_handler(handler)
    return opener


def _reason(error: BaseException) -> str:
    """Say in a few words why reading failed."""
    if isinstance(error, urllib.error.URLError):
        return str(error.reason)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
