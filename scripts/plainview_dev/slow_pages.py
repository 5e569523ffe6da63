"""Time the parse and extraction of pages built to be slow to parse (docs/reliability.md).

    .venv/bin/python -m plainview_dev.slow_pages        (PYTHONPATH=scripts)

Each page is built in memory and timed once on one core: one element with
150,000 attributes, 8 MiB of elements with 1,000 or 200 attributes each, one
element with a million, 8 MiB of entities, 8 MiB of nesting.
"""

from __future__ import annotations

import time

from addon.core import extract
from addon.core.heuristics.parse import parse

MIB = 8 << 20


def _filled(tag: bytes) -> bytes:
    """Return a page of 8 MiB of one piece of markup, repeated."""
    return b"<html><body>" + tag * (MIB // len(tag)) + b"</body></html>"


def _attributes(count: int) -> bytes:
    """Return `count` attribute names, space-separated."""
    return b" ".join(b"a%d" % n for n in range(count))


def pages() -> dict[str, bytes]:
    """Return the slow pages by name."""
    return {
        "one element, 150,000 attributes": b"<html><body><div "
        + _attributes(150_000)
        + b">x</div></body></html>",
        "elements of 1,000 attributes each": _filled(b"<i " + _attributes(1000) + b">x</i>"),
        "elements of 200 attributes each": _filled(b"<i " + _attributes(200) + b">x</i>"),
        "one element of 1,000,000 attributes": b"<html><body><div "
        + _attributes(1_000_000)[:MIB]
        + b">x</div></body></html>",
        "entities only": _filled(b"&amp;&lt;&#x1F600;&nbsp;"),
        "<div> nesting only": _filled(b"<div>"),
    }


def main() -> None:
    """Print a Markdown row per page: size, parse seconds, extraction seconds."""
    print("| page | size | parse | extraction |\n|---|---|---|---|")
    for name, body in pages().items():
        started = time.perf_counter()
        parse(None, utf8=body)
        parsed = time.perf_counter() - started
        started = time.perf_counter()
        extract(body, url="http://example.org/")
        extracted = time.perf_counter() - started
        print(f"| {name} | {len(body) / 1e6:.1f} MB | {parsed:.2f} s | {extracted:.2f} s |")


if __name__ == "__main__":
    main()
