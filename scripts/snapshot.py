"""Fingerprint Plainview's output on every wcxb-dev page, corpus file and golden case.

A refactoring must leave every byte of the output alone: run this before and
after, and compare the two files.

    .venv/bin/python scripts/snapshot.py write OUT.json [--limit N]
    .venv/bin/python scripts/snapshot.py compare BEFORE.json AFTER.json

SNAPSHOT_WITHOUT_PARAMS=1 leaves the diagnostics' parameter listing out, for a
change that adds or removes a parameter and nothing else; SNAPSHOT_RENDER_ONLY=1
fingerprints the rendered reader page alone, for a change that moves a decision
from the renderer into the core.

Each page gets one SHA-256 over the extraction result (the Article's fields, its
blocks' kind, HTML and text, its diagnostics but their timings; or the Skip's
reason) and its rendered reader page.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from addon.core import Article, Skip, extract
from addon.render.pages import PageStyle, ReaderLinks, render_reader

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
URL = "http://example.org/a/page.html"
LINKS = ReaderLinks("http://example.org/a/page.html#o", "/toggle", "/", "token", "/why")


def pages(limit: int) -> Iterator[tuple[str, bytes]]:
    """Yield (name, bytes) of every page the snapshot covers, in a fixed order."""
    wcxb = sorted((SHARED / "datasets" / "wcxb-dev" / "html").glob("*.html.gz"))
    for path in wcxb[:limit] if limit else wcxb:
        yield f"wcxb/{path.name}", gzip.decompress(path.read_bytes())
    datasets = SHARED / "datasets"
    roots = (SHARED / "corpora", datasets / "readability-even", REPO / "tests" / "golden")
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            if path.suffix in {".json", ".md", ".txt"} or path.name == "expected.html":
                continue
            yield f"{root.name}/{path.relative_to(root)}", path.read_bytes()


# The Article's output, field by field: a field added to the dataclasses for the
# code's own use (not shown to anyone) does not count as a change of output.
FIELDS = (
    "title", "text", "lang", "dir", "readerable", "url", "byline", "published",
    "site_name", "page_title", "word_count", "title_href",
)  # fmt: skip


def fingerprint(source: bytes) -> str:
    """Return the SHA-256 of the extraction result and the rendered reader page."""
    result = extract(source, url=URL)
    digest = hashlib.sha256()
    if isinstance(result, Skip):
        digest.update(f"skip:{result.reason}".encode())
        return digest.hexdigest()
    if os.environ.get("SNAPSHOT_RENDER_ONLY"):  # a change of where the output is decided
        digest.update(render_reader(result, URL, PageStyle(), LINKS).body)
        return digest.hexdigest()
    digest.update(repr([getattr(result, name) for name in FIELDS]).encode())
    digest.update(repr([(block.kind, block.html, block.text) for block in result.blocks]).encode())
    digest.update(repr(_diagnostics(result)).encode())
    digest.update(render_reader(result, URL, PageStyle(), LINKS).body)
    return digest.hexdigest()


def _diagnostics(article: Article) -> object:
    """Return the article's diagnostics without their timings: they differ on every run."""
    if article.diagnostics is None:
        return None
    diagnostics = dataclasses.replace(article.diagnostics, timings_ms={})
    if os.environ.get("SNAPSHOT_WITHOUT_PARAMS"):  # a change of the parameters' set
        diagnostics = dataclasses.replace(diagnostics, params={})
    return diagnostics


def write(out: Path, limit: int) -> int:
    """Write the fingerprints of every page to OUT."""
    prints = {name: fingerprint(source) for name, source in pages(limit)}
    out.write_text(json.dumps(prints, indent=0, sort_keys=True))
    print(f"{len(prints)} pages fingerprinted into {out}")
    return 0


def compare(before: Path, after: Path) -> int:
    """Say which pages' output differs between two snapshots; exit 1 if any."""
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    changed = sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))
    for name in changed:
        print(f"differs: {name}")
    print(f"{len(old)} pages before, {len(new)} after, {len(changed)} differ")
    return 1 if changed else 0


def main() -> int:
    """Parse the command line and run it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out", type=Path)
    w.add_argument("--limit", type=int, default=0, help="only the first N wcxb-dev pages")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "write":
        return write(args.out, args.limit)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
