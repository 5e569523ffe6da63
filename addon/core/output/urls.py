"""URLs in reader blocks: made absolute against the page's base, kept to safe schemes."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from addon.core.output.tags import CONTROL_RE

LINK_SCHEMES = frozenset({"http", "https", "mailto", "tel"})


IMAGE_SCHEMES = frozenset({"http", "https"})


SRCSET_URL_RE = re.compile(r"[\s,]*([^\s,]\S*)")


_URL_BREAKS_RE = re.compile(r"[\t\n\r\\[]")  # URLs browsers rewrite: leave them to urljoin


_SCHEME_RE = re.compile(r"[^/?#]*:")


_DOT_SEGMENT_RE = re.compile(r"(?:^|/)\.\.?(?:[/?#]|$)")


def simple_url(url: str) -> bool:
    """Tell an absolute http(s) URL that resolves to itself and ends no srcset candidate."""
    return (
        url.startswith(("http://", "https://"))
        and url.isprintable()
        and " " not in url
        and "\\" not in url
        and "[" not in url
        and not url.endswith(",")
    )


def is_data_image(url: str) -> bool:
    """Tell whether a data: URL holds an image."""
    return url.lstrip()[:11].lower() == "data:image/"


@dataclass(frozen=True, slots=True)
class UrlBase:
    """A base URL split once, so that the common relative URLs resolve without urljoin."""

    url: str | None
    scheme: str = ""  # http or https; empty when only urljoin may resolve against it
    origin: str = ""  # scheme://host[:port]
    directory: str = ""  # the base up to the last "/" of its path
    path: str = ""  # the base without query and fragment
    document: str = ""  # the base without fragment

    @classmethod
    def of(cls, url: str | None) -> UrlBase:
        """Split a base URL (already resolved from the page URL and <base>)."""
        # A control character makes the base unusable: lxml refuses it in any URL made from it.
        if not url or CONTROL_RE.search(url):
            return cls(None)
        try:
            parts = urlsplit(url)
        except ValueError:  # a malformed base cannot resolve anything
            return cls(None)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return cls(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        path = parts.path or "/"
        directory = origin + path[: path.rfind("/") + 1]
        return cls(url, parts.scheme, origin, directory, origin + path, url.split("#", 1)[0])

    def resolve(self, url: str, *, schemes: Collection[str]) -> str | None:
        """Resolve a URL; None when it is empty, malformed or its scheme is not allowed."""
        url = url.strip()
        if not url:
            return None
        # A printable URL holds no control character, tab or line break; the test
        # is much faster than the regexes, which run only on the rest.
        printable = url.isprintable()
        if not printable and (CONTROL_RE.search(url) or _dangles(url)):
            return None
        resolved = self._join_simple(url, printable=printable)
        if resolved is not None:
            return resolved if resolved.split(":", 1)[0].lower() in schemes else None
        try:
            resolved = urljoin(self.url, url) if self.url else url
            scheme = urlsplit(resolved).scheme.lower()
        except ValueError:  # e.g. an unclosed IPv6 host: the URL is unusable
            return None
        if scheme:
            return resolved if scheme in schemes else None
        # Without a scheme it must read as a path, not as a scheme urlsplit rejected.
        return None if _SCHEME_RE.match(resolved) else resolved

    def _join_simple(self, url: str, *, printable: bool) -> str | None:
        """Join the common URL shapes by concatenation; None for the rest."""
        if ("\\" in url or "[" in url) if printable else _URL_BREAKS_RE.search(url):
            return None
        if url[:8].lower().startswith(("http://", "https://")):
            return url
        if not self.scheme or _SCHEME_RE.match(url) or _has_dot_segment(url):
            return None
        if url[0] == "#":
            return self.document + url
        if url[0] == "?":
            return self.path + url
        if url.startswith("//"):
            return f"{self.scheme}:{url}"
        return (self.origin if url[0] == "/" else self.directory) + url


def _dangles(url: str) -> bool:
    """Tell dangling markup: a URL that ran on over a line break into the page's tags."""
    # Chromium's rule: it fetches no URL holding a "<" and a tab or line break. Written
    # back without the break, the URL would pass it and carry the page's text away.
    return "<" in url and ("\n" in url or "\r" in url or "\t" in url)


def _has_dot_segment(url: str) -> bool:
    """Tell whether a URL path holds a "." or ".." segment."""
    return (url[0] == "." or "/." in url) and _DOT_SEGMENT_RE.search(url) is not None


NO_BASE = UrlBase(None)


def link_host(href: str) -> str | None:
    """Return an absolute http(s) link's host, lowered and without "www."; else None."""
    href = href.strip()
    if not href.lower().startswith(("http://", "https://", "//")):
        return None  # relative: the page's own site
    try:
        host = urlsplit(href if not href.startswith("//") else "http:" + href).hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else None


def same_site(host: str, other: str) -> bool:
    """Tell whether two hosts are one site: the same, or one a subdomain of the other."""
    return host == other or host.endswith("." + other) or other.endswith("." + host)
