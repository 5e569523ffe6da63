"""Golden extraction cases: the folder format, and the tool that adds one.

A case is a folder tests/golden/<name>/ holding
  source.html    the page exactly as served (bytes; encoding detection is tested too)
  url.txt        optional: the page's URL, which resolves relative links
  expected.html  `Article.html` followed by one newline
  expected.json  the Article's fields named in FIELDS

Usage: scripts/add-golden NAME SOURCE_FILE_OR_URL [--url URL] [--force]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from addon.core import Article, extract

ROOT = Path(__file__).resolve().parents[1] / "tests" / "golden"
FIELDS = (
    "title", "title_href", "lang", "dir", "readerable", "byline", "published", "site_name", "text",
)  # fmt: skip
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
FETCH_TIMEOUT_S = 30  # one page over the network; longer means the host is not answering


@dataclass(frozen=True, slots=True)
class Case:
    """One golden case as stored on disk."""

    name: str
    source: bytes
    url: str | None
    html: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Expected:
    """What a case's expected files hold, derived from one Article."""

    html: str
    fields: dict[str, Any]


def expect(article: Article) -> Expected:
    """Return the expected files' content for ARTICLE."""
    return Expected(article.html + "\n", {name: getattr(article, name) for name in FIELDS})


def case_folders(root: Path = ROOT) -> list[Path]:
    """Return the case folders under ROOT, sorted by name."""
    if not root.is_dir():
        return []
    return sorted(path for path in root.iterdir() if (path / "source.html").is_file())


def load_case(folder: Path) -> Case:
    """Read the case stored in FOLDER."""
    url_file = folder / "url.txt"
    url = url_file.read_text(encoding="utf-8").strip() if url_file.is_file() else None
    return Case(
        name=folder.name,
        source=(folder / "source.html").read_bytes(),
        url=url or None,
        html=(folder / "expected.html").read_text(encoding="utf-8"),
        fields=json.loads((folder / "expected.json").read_text(encoding="utf-8")),
    )


def fields_json(fields: dict[str, Any]) -> str:
    """Serialise FIELDS the way expected.json stores them."""
    return json.dumps(fields, ensure_ascii=False, indent=2) + "\n"


def write_case(folder: Path, source: bytes, url: str | None, expected: Expected) -> None:
    """Write a case folder, replacing any files it already had."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "source.html").write_bytes(source)
    (folder / "url.txt").unlink(missing_ok=True)
    if url:
        (folder / "url.txt").write_text(url + "\n", encoding="utf-8")
    (folder / "expected.html").write_text(expected.html, encoding="utf-8")
    (folder / "expected.json").write_text(fields_json(expected.fields), encoding="utf-8")


def is_url(source: str) -> bool:
    """Tell whether SOURCE names a web page rather than a file."""
    return source.startswith(("http://", "https://"))


def read_source(source: str) -> bytes:
    """Return the bytes of a local file or a fetched URL."""
    if not is_url(source):
        return Path(source).read_bytes()
    request = urllib.request.Request(source, headers={"User-Agent": "plainview-golden"})
    with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_S) as response:
        body: bytes = response.read()
    return body


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line of scripts/add-golden."""
    parser = argparse.ArgumentParser(
        prog="scripts/add-golden",
        description="Run the current extractor on a page and store the result as a golden case.",
    )
    parser.add_argument("name", help="case folder name: lowercase letters, digits, . _ -")
    parser.add_argument("source", help="an HTML file, or an http(s) URL to fetch")
    parser.add_argument("--url", help="the page's URL (default: SOURCE when it is a URL)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing case")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def add_case(args: argparse.Namespace) -> str | None:
    """Write the case ARGS describe; return an error message, or None."""
    if not NAME.match(args.name):
        return f"bad case name {args.name!r}: use lowercase letters, digits, '.', '_', '-'"
    folder: Path = args.root / args.name
    if folder.exists() and not args.force:
        return f"{folder} exists; pass --force to overwrite it"
    try:
        source = read_source(args.source)
    except (OSError, urllib.error.URLError) as error:
        return f"cannot read {args.source}: {error}"
    url = args.url or (args.source if is_url(args.source) else None)
    result = extract(source, url=url)
    if not isinstance(result, Article):
        return f"the extractor skipped {args.source} ({result.reason}); no case written"
    write_case(folder, source, url, expect(result))
    print(f"wrote {folder}: review expected.html and expected.json", file=sys.stderr)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run scripts/add-golden; return the exit status."""
    error = add_case(parse_args(sys.argv[1:] if argv is None else argv))
    if error is not None:
        print(f"add-golden: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
