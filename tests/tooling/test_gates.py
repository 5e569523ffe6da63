"""The reliability gates' own parts: page building, the inspection, the watchdog, the fuzzer."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import lxml.html
import pytest
from plainview_dev import gates

LINKS = gates.gate_links()
MARKER = "zq-payload-marker"


def reader_page(content: str, *, head: str = "", toolbar: str = "") -> bytes:
    """Build a page shaped like the reader template around some content HTML."""
    action = LINKS.toggle_action
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>T</title><style>p{{}}</style>{head}</head><body>"
        '<header class="toolbar ui"><nav><a href="https://news.example/?plainview=original">'
        f'Show original</a><form method="post" action="{action}">'
        '<input type="hidden" name="token" value="t"><button type="submit">Always</button>'
        f"</form>{toolbar}</nav></header>"
        '<main id="pv-content"><article><header><h1>T</h1></header>'
        f"{content}</article></main></body></html>"
    ).encode()


def problems(content: str, **parts: str) -> list[str]:
    return gates.executable_constructs(reader_page(content, **parts), LINKS)


def test_a_clean_reader_page_has_no_problem() -> None:
    content = (
        '<p>Text with a <a href="https://a.example/" rel="noopener noreferrer">link</a>,'
        ' <abbr title="x">x</abbr> and <img referrerpolicy="no-referrer"'
        ' src="https://a.example/i.png" alt="a"></p>'
        '<figure><img src="data:image/svg+xml;base64,PHN2Zz4=" alt=""></figure>'
        '<p dir="rtl" lang="ar">نص</p>'
    )
    assert problems(content) == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("<script>alert(1)</script>", "<script> element"),
        ('<iframe src="https://a.example/"></iframe>', "<iframe> element"),
        ("<svg><animate href='#x'></animate></svg>", "<svg> element"),
        ('<object data="x.swf"></object>', "<object> element"),
        ('<p onmouseover="alert(1)">x</p>', "event handler onmouseover on <p>"),
        ('<img src="x.png" ONERROR="alert(1)">', "event handler onerror on <img>"),
        (
            '<a href=" JaVa&#09;Script:alert(1)" rel="noopener noreferrer">x</a>',
            "javascript: URL in <a href>",
        ),
        (
            '<a href="data:text/html,<script>alert(1)</script>" rel="noopener noreferrer">x</a>',
            "data: URL in <a href>",
        ),
        ('<a href="vbscript:msgbox(1)" rel="noopener noreferrer">x</a>', "vbscript: URL"),
        ('<img src="x.png" srcset="javascript:alert(1) 2x">', "javascript: URL in <img srcset>"),
        ('<img src="data:text/html;base64,PHNjcmlwdD4=">', "data: URL in <img src>"),
        (
            '<form action="https://evil.example/"><button>x</button></form>',
            "<form> outside the toolbar",
        ),
        ('<button formaction="javascript:alert(1)">x</button>', "javascript: URL in <button"),
        ('<a href="https://a.example/">x</a>', "link without rel=noopener noreferrer"),
        ('<a href="https://a.example/" rel="noopener">x</a>', "link without rel"),
        ('<div class="x">x</div>', "<div> in the content"),
        ('<p style="color:red">x</p>', "style attribute on <p>"),
        ('<p title="x">x</p>', "title attribute on <p>"),
        ('<img src="x.png" referrerpolicy="unsafe-url">', "referrerpolicy attribute on <img>"),
        ('<p referrerpolicy="no-referrer">x</p>', "referrerpolicy attribute on <p>"),
        ('<p id="pv-content">x</p>', "the reader page's own id on <p>"),
        ("<style>p{}</style>", "<style> outside the head"),
        (
            '<p><iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe></p>',
            "srcdoc attribute on <iframe>",
        ),
    ],
)
def test_each_executable_construct_is_found(content: str, expected: str) -> None:
    found = problems(content)
    assert any(expected in problem for problem in found), found


def test_an_article_id_outside_the_reader_pages_namespace_is_allowed() -> None:
    assert problems('<h2 id="History">History</h2><p><a href="#History" rel="noopener noreferrer">'
                    "back</a></p>") == []


def test_the_head_and_toolbar_are_checked_too() -> None:
    refresh = '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'
    assert any("http-equiv" in problem for problem in problems("<p>x</p>", head=refresh))
    assert "<base> element" in problems("<p>x</p>", head='<base href="https://evil.example/">')
    assert "2 <style> elements" in problems("<p>x</p>", head="<style>p{}</style>")
    rogue = '<form method="post" action="https://evil.example/"></form>'
    assert "<form action='https://evil.example/'>" in problems("<p>x</p>", toolbar=rogue)
    # The "Aa" panel posts to the settings host: Plainview's own form.
    panel = (
        f'<details class="pv-aa"><summary>Aa</summary><form method="post" '
        f'action="{LINKS.style_action}"><select name="theme"><option>dark</option></select>'
        "<button>Apply</button></form></details>"
    )
    assert LINKS.style_action and problems("<p>x</p>", toolbar=panel) == []
    assert "<select> outside the toolbar" in problems("<p><select></select></p>")


def test_a_page_without_the_reader_article_is_refused() -> None:
    with pytest.raises(ValueError, match="not a reader page"):
        gates.executable_constructs(b"<html><body><p>x</p></body></html>", LINKS)


@pytest.mark.parametrize(
    ("url", "scheme"),
    [
        ("javascript:alert(1)", "javascript"),
        ("\x01 JAVASCRIPT:alert(1)", "javascript"),
        ("java\tscript:alert(1)", "javascript"),
        ("java\nscript:alert(1)", "javascript"),
        ("https://a.example/", "https"),
        ("/relative:path", ""),
        ("", ""),
    ],
)
def test_url_scheme_reads_urls_as_browsers_do(url: str, scheme: str) -> None:
    assert gates.url_scheme(url) == scheme


@pytest.mark.parametrize("placement", gates.PLACEMENTS)
def test_the_payload_lands_in_its_placement(placement: str) -> None:
    root = lxml.html.document_fromstring(gates.article_page(MARKER, placement))
    where = {
        "h1": root.findtext(".//h1"),
        "title": root.findtext(".//title"),
        "paragraph": " ".join(p.text_content() for p in root.iter("p")),
        "attribute": " ".join(
            f"{a.get('href')} {a.get('title')} {a.get('class')}" for a in root.iter("a")
        ),
        "image": " ".join(img.get("src", "") for img in root.iter("img")),
    }
    assert [name for name, text in where.items() if MARKER in (text or "")] == [placement]


def test_article_page_refuses_an_unknown_placement() -> None:
    with pytest.raises(ValueError, match="unknown placement"):
        gates.article_page("x", "footer")


def test_a_harmless_payload_page_becomes_a_clean_reader_view() -> None:
    outcome = gates.reader_view(gates.article_page(MARKER, "paragraph"))
    assert outcome.html is not None
    assert outcome.style_source.startswith("'sha256-")
    assert gates.executable_constructs(outcome.html, LINKS) == []
    assert gates.payload_shown_as_text(outcome.html, MARKER)


def test_rotation_and_cross_product() -> None:
    assert gates.rotation(7) == [
        (0, "h1"), (1, "title"), (2, "paragraph"), (3, "attribute"), (4, "image"),
        (5, "h1"), (6, "title"),
    ]  # fmt: skip
    product = gates.cross_product(3)
    assert len(product) == 15 and len(set(product)) == 15


def test_the_xss_gate_counts_pages_and_records_findings() -> None:
    payloads = ["<b>bold words</b>", "<img src=x onerror=alert(1)>", "plain words"]
    report = gates.run_xss_gate(payloads, gates.cross_product(len(payloads)))
    assert report.pages == 15
    assert {name: tally.pages for name, tally in report.tallies.items()} == dict.fromkeys(
        gates.PLACEMENTS, 3
    )
    assert report.findings == []
    assert report.tallies["title"].shown_as_text == 3  # <title> holds text only
    table = gates.format_xss_report(report)
    assert "| title | 3 | 3 | 0 | 3 | 0 |" in table


def test_the_xss_report_lists_findings() -> None:
    report = gates.XssReport()
    report.findings.append(gates.XssFinding(4, "image", "<x>", "<script> element"))
    assert "finding: line 5 in image: <script> element: '<x>'" in gates.format_xss_report(report)


# -- The parser gate's runner ----------------------------------------------------------

# A stand-in for `plainview extract`: answers per source name, crashes or hangs on cue.
FAKE_EXTRACT = """
import json, sys, threading
for source in sys.argv[1:]:
    if "crash" in source:
        raise RuntimeError("broken page")
    if "hang" in source:
        threading.Event().wait()  # never set: hangs until the runner kills it
    if "partial" in source:
        sys.stdout.write('{"source": "partial", "sk')
        raise SystemExit(3)
    if "unreadable" in source:
        print(f"plainview: {source}: No such file or directory", file=sys.stderr)
        continue
    skip = "no main content found" if "skip" in source else None
    print(json.dumps({"source": source, "skip": skip, "ms": 1.5}), flush=True)
"""


def fake_command(sources: Sequence[Path], budget: float) -> list[str]:
    return [sys.executable, "-c", FAKE_EXTRACT, *map(str, sources)]


def test_gate_batch_goes_on_past_crashes_and_hangs() -> None:
    names = ["a", "skip", "crash", "b", "unreadable", "hang", "c", "partial", "d"]
    results = gates.gate_batch(
        "fake", [Path(name) for name in names], 2.0, command=fake_command, stall=3.0
    )
    assert [(r.source, r.outcome) for r in results] == [
        ("a", "article"), ("skip", "skip"), ("crash", "crash"), ("b", "article"),
        ("unreadable", "missing"), ("hang", "hang"), ("c", "article"), ("partial", "missing"),
        ("d", "article"),
    ]  # fmt: skip
    assert results[1].reason == "no main content found"
    assert results[2].reason == "RuntimeError: broken page"
    assert results[4].reason == "No such file or directory"
    assert results[0].ms == 1.5
    assert all(r.peak_kib > 1000 for r in results if r.outcome == "article")


def test_run_batch_records_the_peak_memory_of_the_child() -> None:
    grow = "x = bytearray(150 * 1024 * 1024); x[::4096] = b'1' * len(x[::4096])"
    batch = gates.run_batch([sys.executable, "-c", grow], stall=60)
    assert batch.returncode == 0 and not batch.stalled
    assert batch.peak_kib > 150 * 1024


def test_the_real_command_on_a_few_pages(tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    page = tmp_path / "page.html"
    page.write_bytes(gates.article_page("plain words", "paragraph"))
    results = gates.gate_batch("mine", [empty, page], 2.0)
    assert [(Path(r.source).name, r.outcome, r.reason) for r in results] == [
        ("empty.html", "skip", "empty page: no text"),
        ("page.html", "article", ""),
    ]


def test_corpus_files_takes_html_and_gzipped_html(tmp_path: Path) -> None:
    folder = tmp_path / "extremes"
    folder.mkdir()
    for name in ("b.html", "a.html.gz", "README.md", "index.tsv"):
        (folder / name).write_bytes(b"")
    assert [p.name for p in gates.corpus_files("extremes", tmp_path)] == ["a.html.gz", "b.html"]


def test_parser_report_table() -> None:
    results = [
        gates.PageResult("c", "/x/a.html", "article", "", 5.0, 2048),
        gates.PageResult("c", "/x/b.html", "skip", "empty page: no text", 0.1, 4096),
        gates.PageResult("c", "/x/c.html", "skip", "empty page: no text", 0.1, 1024),
        gates.PageResult("c", "/x/d.html", "hang", "no result in 50 s"),
    ]
    table = gates.format_parser_report(results, 2.0)
    assert (
        "| c | 4 | 1 | empty page: no text: 2 | 0 | 1 | 0 | 5 ms (a.html) | 4 MiB (b.html) |"
        in table
    )
    assert "failure: /x/d.html: hang: no result in 50 s" in table


# -- The fuzzer ----------------------------------------------------------------------------


def test_mutations_are_deterministic_for_a_seed() -> None:
    seeds = [b"<p>one</p>", b"<div><b>two</b></div>"]
    first = [gates.mutate(random.Random(7), seeds[0], seeds) for _ in range(3)]
    again = [gates.mutate(random.Random(7), seeds[0], seeds) for _ in range(3)]
    assert first == again
    outputs = {gates.mutate(random.Random(n), seeds[0], seeds) for n in range(50)}
    assert len(outputs) > 25  # the mutations really vary


def test_each_mutation_returns_bytes_even_from_empty_input() -> None:
    rng = random.Random(3)
    for mutation in gates.MUTATIONS:
        assert isinstance(mutation(rng, b"", [b"<p>x</p>"]), bytes)


def test_fuzz_counts_inputs_and_catches_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    report = gates.fuzz([gates.article_page("words", "paragraph")], seed=5, max_inputs=20)
    assert report.tried == 20 and report.failures == []
    assert report.articles > 0

    def broken(body: bytes, content_type: str | None) -> tuple[bool, list[str]]:
        raise KeyError("boom")

    monkeypatch.setattr(gates, "check_input", broken)
    failing = gates.fuzz([b"<p>x</p>"], seed=5, max_inputs=3)
    assert [f.kind for f in failing.failures] == ["exception"] * 3
    report = gates.format_fuzz_report(failing)
    assert "3 x exception: KeyError: 'boom' at scripts/plainview_dev/gates.py:" in report


def test_fuzz_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="max_inputs or seconds"):
        gates.fuzz([b""], seed=1)


def test_save_failures_writes_the_input_and_its_details(tmp_path: Path) -> None:
    report = gates.FuzzReport(1, tried=1)
    report.failures.append(gates.FuzzFailure("hang", "over 20 s", b"<p>slow", "text/html"))
    (page,) = gates.save_failures(report, tmp_path / "out")
    assert page.read_bytes() == b"<p>slow"
    assert '"signature": "hang: over 20 s"' in page.with_suffix(".json").read_text()


def test_command_line_runs_a_small_xss_gate(capsys: pytest.CaptureFixture[str]) -> None:
    assert gates.main(["xss", "--rotation", "--limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "| h1 | 2 |" in out and "10 payloads, 10 pages" in out
