"""The site memory's files: per site, the block fingerprints of its latest pages.

One JSON file per site under the user's data directory, replaced atomically on every
change. What a file holds: the site's host name and, for each of its latest pages, a
hash of the page's address and the 64-bit fingerprints of its blocks
(addon/core/heuristics/site_memory.py). Never a word of a page, nor its address.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from addon.core.heuristics.site_memory import SiteMemory, remember

log = logging.getLogger(__name__)

FORMAT = 1
# Pages remembered per site: the template shows itself on a few (wcxb-dev: 1-11).
DEFAULT_MAX_PAGES = 30
# Sites remembered; past it the site learned from longest ago is forgotten.
DEFAULT_MAX_SITES = 500
# Fingerprints kept per page (a page's median is 266 on wcxb-dev, its largest 1,578).
MAX_PRINTS = 4000
# A site's file larger than this is not ours (30 pages of 4,000 prints: 1.3 MB).
MAX_FILE_BYTES = 4 * 1024 * 1024
# Sites held in memory at once, the latest used; the others wait in their files.
DEFAULT_LOADED_SITES = 16

Pages = OrderedDict[str, frozenset[int]]  # page key -> fingerprints, oldest first


def default_memory_dir() -> Path:
    """Return the site memory's place in the user's data directory."""
    return platformdirs.user_data_path("plainview") / "site-memory"


def page_key(url: str) -> str:
    """Return the hash a page's address is remembered by (its query kept, no fragment)."""
    return hashlib.blake2b(url.partition("#")[0].encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class SiteCount:
    """How many pages the memory holds for one site."""

    site: str
    pages: int


class SiteMemoryStore:
    """Remember each site's latest pages' fingerprints, a file per site (thread-safe).

    Its methods read and write files: the proxy calls them in a thread, off the
    event loop.
    """

    def __init__(
        self,
        directory: Path,
        *,
        max_pages: int = DEFAULT_MAX_PAGES,
        max_sites: int = DEFAULT_MAX_SITES,
        loaded_sites: int = DEFAULT_LOADED_SITES,
    ) -> None:
        self.directory = directory
        self.max_pages = max_pages
        self.max_sites = max_sites
        self.loaded_sites = loaded_sites
        self._lock = threading.Lock()
        # The sites used last, read from their files: the newest last.
        self._sites: OrderedDict[str, Pages] = OrderedDict()

    def memory_for(self, site: str, url: str) -> SiteMemory:
        """Return the memory of the site's pages other than `url` (a reload is no other)."""
        key = page_key(url)
        with self._lock:
            pages = self._pages(site)
            return remember(prints for other, prints in pages.items() if other != key)

    def learn(self, site: str, url: str, prints: frozenset[int]) -> None:
        """Remember a page's fingerprints as the site's latest; forget its oldest past the limit."""
        if not prints:
            return
        kept = frozenset(sorted(prints)[:MAX_PRINTS])
        with self._lock:
            pages = self._pages(site)
            new_site = not pages
            pages.pop(page_key(url), None)
            pages[page_key(url)] = kept
            while len(pages) > self.max_pages:
                pages.popitem(last=False)
            if new_site:
                self._make_room(site)
            self._write(site, pages)

    def counts(self) -> list[SiteCount]:
        """Return every remembered site and its page count, by site name."""
        with self._lock:
            counts = [_read_count(path) for path in self._files()]
        return sorted((count for count in counts if count.pages), key=lambda count: count.site)

    def forget(self, site: str) -> bool:
        """Forget one site; tell whether anything was remembered."""
        with self._lock:
            known = bool(self._pages(site))
            self._sites.pop(site, None)
            with suppress(FileNotFoundError):
                self._path(site).unlink()
            return known

    def forget_all(self) -> int:
        """Forget every site; return how many sites were remembered."""
        with self._lock:
            files = self._files()
            for path in files:
                with suppress(FileNotFoundError):
                    path.unlink()
            self._sites.clear()
            return len(files)

    # -- files -----------------------------------------------------------------------

    def _pages(self, site: str) -> Pages:
        """Return the site's pages, read from its file unless among the sites used last."""
        pages = self._sites.pop(site, None)
        if pages is None:
            pages = _read_pages(self._path(site), site)
        self._sites[site] = pages
        while len(self._sites) > self.loaded_sites:
            self._sites.popitem(last=False)
        return pages

    def _path(self, site: str) -> Path:
        """Return the file of a site (named by a hash: any host name is a safe file name)."""
        name = hashlib.blake2b(site.encode(), digest_size=16).hexdigest()
        return self.directory / f"{name}.json"

    def _files(self) -> list[Path]:
        """Return the site files in the directory (none when it does not exist yet)."""
        try:
            return [path for path in self.directory.iterdir() if path.suffix == ".json"]
        except OSError:
            return []

    def _make_room(self, site: str) -> None:
        """Forget the sites learned from longest ago, to stay within the site limit."""
        others = [path for path in self._files() if path != self._path(site)]
        if len(others) < self.max_sites:
            return
        others.sort(key=_modified)
        for path in others[: len(others) - self.max_sites + 1]:
            forgotten = _read_site_name(path)
            with suppress(FileNotFoundError):
                path.unlink()
            self._sites.pop(forgotten or "", None)

    def _write(self, site: str, pages: Pages) -> None:
        """Replace the site's file atomically; a failure is logged, the memory kept."""
        data = {
            "format": FORMAT,
            "site": site,
            "pages": [[key, _pack(prints)] for key, prints in pages.items()],
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            _replace(self._path(site), json.dumps(data, separators=(",", ":")))
        except OSError as error:
            log.warning("plainview: site memory for %s not saved: %s", site, error)


def _modified(path: Path) -> float:
    """Return a file's modification time (0 when it is gone)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _replace(path: Path, text: str) -> None:
    """Write the file atomically: a sibling written, flushed and renamed over it."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text.encode())
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _pack(prints: frozenset[int]) -> str:
    """Write fingerprints as base64 of their 8-byte big-endian values, ascending."""
    return base64.b64encode(b"".join(p.to_bytes(8, "big") for p in sorted(prints))).decode()


def _unpack(text: str) -> frozenset[int]:
    """Read fingerprints written by _pack()."""
    raw = base64.b64decode(text.encode(), validate=True)
    return frozenset(int.from_bytes(raw[i : i + 8], "big") for i in range(0, len(raw) - 7, 8))


def _load(path: Path) -> dict[str, object] | None:
    """Return a site file's data; None when missing, too large or not ours."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("plainview: site memory file %s unreadable, starting afresh: %s", path, error)
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return data


def _read_count(path: Path) -> SiteCount:
    """Return the site a file remembers and its page count (0 pages: none or not ours)."""
    data = _load(path)
    site = None if data is None else data.get("site")
    entries = None if data is None else data.get("pages")
    if not isinstance(site, str) or not isinstance(entries, list):
        return SiteCount("", 0)
    return SiteCount(site, len(entries))


def _read_site_name(path: Path) -> str | None:
    """Return the site a file remembers, or None."""
    data = _load(path)
    site = None if data is None else data.get("site")
    return site if isinstance(site, str) else None


def _read_pages(path: Path, site: str) -> Pages:
    """Read a site's pages from its file; a missing or damaged file is no memory."""
    data = _load(path)
    pages: Pages = OrderedDict()
    entries = None if data is None or data.get("site") != site else data.get("pages")
    if not isinstance(entries, list):
        return pages
    for entry in entries:
        if isinstance(entry, list) and len(entry) == 2 and all(isinstance(e, str) for e in entry):
            with suppress(ValueError):  # base64 damaged: that page is skipped
                pages[entry[0]] = _unpack(entry[1])
    return pages
