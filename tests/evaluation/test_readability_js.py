"""Readability.js through a real node process: articles, per-page failures, a dying node."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from addon.evaluation import readability_js
from addon.evaluation.readability_js import JsArticle, JsFailure, PeerFailed, ReadabilityJs

URL = "http://fakehost/test/page.html"
PARAGRAPH = (
    "<p>Readability keeps the paragraphs of an article, the long runs of text with "
    "commas, and drops what stands around them, like menus, footers and share buttons.</p>"
)
PAGE = (
    "<html><head><title>A tiny article - Example site</title></head><body>"
    '<nav><a href="/">Home</a> <a href="/about">About</a></nav>'
    f"<article><h1>A tiny article</h1>{PARAGRAPH * 4}"
    '<p>See <a href="notes.html">the notes</a>.</p></article>'
    "<footer>Copyright Example</footer></body></html>"
).encode()


@pytest.fixture
def peer() -> Iterator[ReadabilityJs]:
    # scripts/test installs the node packages (npm ci); without them this test must fail.
    missing = readability_js.missing()
    assert missing == [], f"Readability.js needs {missing}: run scripts/test or npm ci"
    peer = ReadabilityJs()
    yield peer
    peer.close()


def test_readability_js_extracts_a_tiny_page(peer: ReadabilityJs) -> None:
    article = peer.extract(PAGE, URL)
    assert isinstance(article, JsArticle)
    assert article.title == "A tiny article - Example site"
    assert article.content.count("Readability keeps the paragraphs") == 4
    assert 'href="http://fakehost/test/notes.html"' in article.content  # resolved against URL
    assert "Copyright" not in article.content
    assert "About" not in article.content


def test_one_process_serves_many_pages_in_order(peer: ReadabilityJs) -> None:
    other = PAGE.replace(b"tiny article", "petit article été".encode())
    titles = [peer.extract(page, URL) for page in (PAGE, other, PAGE)]
    assert [answer.title for answer in titles if isinstance(answer, JsArticle)] == [
        "A tiny article - Example site",
        "A petit article été - Example site",
        "A tiny article - Example site",
    ]


def test_a_page_without_an_article_gives_empty_strings(peer: ReadabilityJs) -> None:
    # Readability's parse() returns null for an empty document.
    assert peer.extract(b"", URL) == JsArticle("", "")
    assert peer.extract(b"<p>hi</p>", None) == JsArticle(
        "", '<div id="readability-page-1" class="page"><p>hi</p></div>'
    )


def test_a_page_that_makes_jsdom_throw_is_a_failure_not_a_crash(peer: ReadabilityJs) -> None:
    failure = peer.extract(PAGE, "not a url")
    assert failure == JsFailure("TypeError: Invalid URL: not a url")
    # The process lives on for the next page.
    assert isinstance(peer.extract(PAGE, URL), JsArticle)


def test_a_node_that_dies_is_reported(tmp_path: Path) -> None:
    script = tmp_path / "dies.mjs"
    script.write_text("process.exit(3);\n")
    peer = ReadabilityJs(script)
    with pytest.raises(PeerFailed, match=r"node stopped .* \(exit status 3;"):
        peer.extract(PAGE, URL)
    peer.close()  # nothing left to close


def test_a_node_that_answers_garbage_is_reported(tmp_path: Path) -> None:
    script = tmp_path / "garbage.mjs"
    script.write_text(
        'import { createInterface } from "node:readline";\n'
        "for await (const line of createInterface({ input: process.stdin })) {\n"
        '  console.log(line.includes("garbage") ? "oops" : "[1, 2]");\n'
        "}\n"
    )
    peer = ReadabilityJs(script)
    with pytest.raises(PeerFailed, match=r"node answered with no object: b'\[1, 2\]"):
        peer.extract(PAGE, URL)
    with pytest.raises(PeerFailed, match="node answered with no JSON: b'oops"):
        peer.extract(b"garbage", URL)
    peer.close()


def test_missing_names_what_is_not_there(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(readability_js, "NODE_MODULES", tmp_path)
    monkeypatch.setattr(readability_js, "SCRIPT", tmp_path / "readability-peer.mjs")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert readability_js.missing() == [
        "node",
        "readability-peer.mjs",
        "@mozilla/readability",
        "jsdom",
    ]


def test_version_is_the_installed_package_version() -> None:
    assert readability_js.version() == "0.6.0"  # pinned in package.json
