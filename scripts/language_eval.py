"""Measure language detection and the reader views' lang and dir (docs/evaluation.md).

    .venv/bin/python scripts/language_eval.py detector
    .venv/bin/python scripts/language_eval.py windows
    .venv/bin/python scripts/language_eval.py pages

`detector`: on the wcxb-dev pages (and those of readability-even and of the
encodings corpus, most of them not English) that declare a language, the
declaration hidden, how many reader views the detector labels
and how many of those labels match the declared primary subtag, over a grid of
its thresholds. `windows`: the same on short texts, windows of 20 to 320
characters cut from the reader views of those pages that are not English,
per minimum of scored bytes. `pages`: how many reader views get no language (the reader
page's lang="und") on wcxb-dev and readability-even, and how readability-even's
lang and dir compare with Firefox Reader View's (expected-metadata.json).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from addon.core import Article, extract
from addon.core.decode import decode
from addon.core.heuristics.language import detect_language
from addon.core.heuristics.metadata import read_metadata
from addon.core.heuristics.parse import parse

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO.parent / "shared" / "datasets"
ENCODINGS = REPO.parent / "shared" / "corpora" / "encodings"
READABILITY_URL = "http://fakehost/test/page.html"  # what Readability's tests use


@dataclass(frozen=True, slots=True)
class Page:
    """One page's reader view and what its source declares."""

    name: str
    declared: str | None  # primary subtag of <html lang>/xml:lang/Content-Language/og:locale
    article: Article | None
    firefox: dict[str, str | None] | None = None  # readability-even's expected lang and dir


def primary(tag: str | None) -> str | None:
    """Return a language tag's primary subtag, lowercased."""
    return tag.split("-")[0].lower() if tag else None


def wcxb_sources() -> Iterator[tuple[str, bytes, str | None]]:
    """Yield each wcxb-dev page's name, bytes and URL."""
    for path in sorted((DATASETS / "wcxb-dev" / "html").glob("*.html.gz")):
        truth = DATASETS / "wcxb-dev" / "ground-truth" / path.name.replace(".html.gz", ".json")
        yield f"wcxb/{path.name[:4]}", gzip.decompress(path.read_bytes()), _url(truth)


def _url(truth: Path) -> str | None:
    """Return the URL a wcxb-dev ground-truth file names."""
    url = json.loads(truth.read_text("utf-8")).get("url")
    return url if isinstance(url, str) else None


def readability_folders() -> list[Path]:
    """Return readability-even's page folders."""
    root = DATASETS / "readability-even"
    return sorted(path for path in root.iterdir() if (path / "source.html").is_file())


def read_page(
    name: str, body: bytes, url: str | None, firefox: dict[str, str | None] | None = None
) -> Page:
    """Extract one page and read the language its source declares."""
    root = parse(decode(body, None).text)
    declared = read_metadata(root).lang if root is not None else None
    result = extract(body, url=url)
    article = result if isinstance(result, Article) else None
    return Page(name, primary(declared), article, firefox)


def all_pages() -> list[Page]:
    """Read wcxb-dev, readability-even and the encodings corpus."""
    pages = [read_page(name, body, url) for name, body, url in wcxb_sources()]
    for folder in readability_folders():
        expected = json.loads((folder / "expected-metadata.json").read_text("utf-8"))
        firefox = {"lang": expected.get("lang"), "dir": expected.get("dir")}
        body = (folder / "source.html").read_bytes()
        pages.append(read_page(f"readability/{folder.name}", body, READABILITY_URL, firefox))
    for path in sorted(ENCODINGS.glob("*.html")):
        pages.append(read_page(f"encodings/{path.name}", path.read_bytes(), None))
    return pages


def detector(pages: list[Page]) -> None:
    """Print the detector's coverage and accuracy on the declared pages, per threshold."""
    labelled = [page for page in pages if page.declared and page.article and page.article.text]
    print(f"{len(labelled)} reader views of pages that declare a language")
    print(
        "max_chars min_bytes min_share | labelled correct accuracy | not English: labelled correct"
    )
    for max_chars, min_bytes, min_share in _grid():
        found = [
            (page.declared, detect_language(page.article.text, max_chars=max_chars,
                                            min_bytes=min_bytes, min_share=min_share))
            for page in labelled
            if page.article is not None
        ]  # fmt: skip
        named = [(want, got) for want, got in found if got]
        right = sum(want == got for want, got in named)
        other = [(want, got) for want, got in named if want != "en"]
        print(
            f"{max_chars:9} {min_bytes:9} {min_share:9} | {len(named):8} {right:7} "
            f"{right / max(1, len(named)):8.4f} | {len(other):21} {sum(w == g for w, g in other):7}"
        )
    texts = [page.article.text for page in labelled if page.article is not None]
    start = time.perf_counter()
    for text in texts:
        detect_language(text)
    per_page = (time.perf_counter() - start) / max(1, len(texts)) * 1000
    print(f"detect_language with its defaults: {per_page:.3f} ms per page")


def _grid() -> Iterator[tuple[int, int, int]]:
    """Yield the thresholds compared: the defaults first, then one varied at a time."""
    yield 2000, 200, 70
    yield from ((chars, 200, 70) for chars in (500, 1000, 3000, 10_000))
    yield from ((2000, size, 70) for size in (0, 100, 300, 500))
    yield from ((2000, 200, share) for share in (0, 50, 60, 80, 90))


def windows(pages: list[Page], *, sizes: tuple[int, ...] = (20, 40, 80, 160, 320)) -> None:
    """Print the detector's coverage and accuracy on short windows of the non-English texts."""
    texts = [
        (page.declared, page.article.text[:6000])
        for page in pages
        if page.declared not in (None, "en") and page.article is not None
    ]
    cut = [
        (want, text[start : start + size])
        for want, text in texts
        for size in sizes
        for start in range(0, len(text) - size, size)
    ]
    print(f"{len(cut)} windows of {sizes} characters from {len(texts)} non-English reader views")
    print("min_bytes | labelled correct wrong")
    for min_bytes in (0, 50, 100, 150, 200, 300):
        named = [
            (want, got)
            for want, text in cut
            if (got := detect_language(text, min_bytes=min_bytes)) is not None
        ]
        right = sum(want == got for want, got in named)
        print(f"{min_bytes:9} | {len(named):8} {right:7} {len(named) - right:5}")


def page_counts(pages: list[Page]) -> None:
    """Print the reader views without a language, and readability-even against Firefox."""
    for prefix in ("wcxb/", "readability/"):
        views = [page for page in pages if page.name.startswith(prefix) and page.article]
        und = [page for page in views if page.article is not None and not page.article.lang]
        print(f"{prefix[:-1]}: {len(views)} reader views, {len(und)} without a language")
        for page in und:
            print(f"  und: {page.name}")
    firefox = [page for page in pages if page.firefox is not None and page.article is not None]
    lang_same = dir_same = declared = 0
    for page in firefox:
        assert page.firefox is not None and page.article is not None
        ours, theirs = primary(page.article.lang), primary(page.firefox["lang"])
        lang_same += theirs is not None and ours == theirs
        declared += theirs is not None
        dir_same += page.article.dir == (page.firefox["dir"] or "ltr")
        if ours != theirs and theirs is not None:
            print(f"  lang {page.name}: Firefox {theirs}, Plainview {ours}")
        if page.article.dir != (page.firefox["dir"] or "ltr"):
            print(f"  dir {page.name}: Firefox {page.firefox['dir']}, Plainview {page.article.dir}")
    print(
        f"readability-even: Firefox has a lang (it reads <html lang> alone) on {declared} of"
        f" {len(firefox)} reader views, Plainview the same primary subtag on {lang_same}"
    )
    print(f"readability-even: dir as Firefox's on {dir_same} of {len(firefox)} (no dir: ltr)")


def main(argv: list[str] | None = None) -> int:
    """Run one measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("detector", "windows", "pages"))
    args = parser.parse_args(argv)
    pages = all_pages()
    if args.what == "detector":
        detector(pages)
    elif args.what == "windows":
        windows(pages)
    else:
        page_counts(pages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
