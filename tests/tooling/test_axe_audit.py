"""Tests for the axe audit's parts that need no browser: its pages, its server, its tally."""

from __future__ import annotations

import urllib.request

from plainview_dev.axe_audit import SHARED, Audit, reference_pages, serve


def test_every_reference_page_and_the_asked_articles_are_audited() -> None:
    pages = reference_pages(5)
    folders = [p for p in (SHARED / "readability-even").iterdir() if (p / "source.html").is_file()]
    assert sum(path.startswith("/re/") for path in pages) == len(folders) == 65
    articles = [path for path in pages if path.startswith("/wcxb/")]
    assert len(articles) == 5 and all(pages[path].lstrip()[:1] == b"<" for path in articles)


def test_the_pages_are_served_as_they_are() -> None:
    with serve({"/a.html": b"<p>caf\xc3\xa9</p>"}) as base:
        answer = urllib.request.urlopen(f"{base}/a.html", timeout=10)
        assert answer.read() == b"<p>caf\xc3\xa9</p>"
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        answer.close()


def test_the_tally_counts_nodes_by_rule() -> None:
    audit = Audit()
    audit.add("light /re/a.html", [{"id": "list", "impact": "serious", "nodes": 2, "targets": []}])
    audit.add("dark /re/a.html", [{"id": "list", "impact": "serious", "nodes": 1, "targets": []}])
    audit.add("light settings", [])
    assert audit.audited == 3 and audit.counts == {"list": 3}
    assert list(audit.violations) == ["light /re/a.html", "dark /re/a.html"]
