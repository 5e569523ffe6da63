"""`plainview eval`: dataset reading, scoring, summaries, tables and the JSON report."""

from __future__ import annotations

import gzip
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from lxml import etree

from addon.cli import main as cli
from addon.core import Article, SitePage, extract, params_for
from addon.evaluation import readability_js
from addon.evaluation import run as evaluation
from addon.evaluation.run import (
    DatasetPage,
    Extractor,
    Prediction,
    Progress,
    Report,
    element_text,
    evaluate,
    html_text,
    load_page,
    page_ids,
    parse_html,
    view_html,
)

PAGE_ONE = (
    b"<html><head><title>Site | One</title><style>p{}</style></head><body>"
    b"<h1>One</h1><p>alpha beta gamma</p><nav>home about</nav></body></html>"
)


@dataclass(frozen=True)
class MiniPage:
    """One page of the test dataset."""

    html: bytes
    url: str
    page_type: str
    truth: dict[str, object]


PAGES = {
    "0001": MiniPage(
        PAGE_ONE,
        "https://example.org/1",
        "article",
        {
            "main_content": "alpha beta gamma delta",
            "title": "One",
            "with": ["Alpha  beta"],
            "without": ["home about"],
        },
    ),
    "0002": MiniPage(
        b"<html><body><h1>Two</h1><p>forum post</p></body></html>",
        "https://example.org/2",
        "forum",
        {"main_content": "forum post", "title": "Two", "with": ["x"], "without": []},
    ),
    "0003": MiniPage(
        b"<html><body><div>menu</div></body></html>",
        "https://example.org/3",
        "article",
        {"title": "Three", "with": [], "without": ["menu"]},
    ),
}
# What the test extractor predicts per page URL.
PREDICTIONS = {
    "https://example.org/1": Prediction("alpha beta gamma home", "one"),
    "https://example.org/2": Prediction("", ""),
    "https://example.org/3": Prediction("", "Three"),
}
REAL_DATASET = cli.DEFAULT_DATASET


def write_dataset(root: Path) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "ground-truth").mkdir()
    for file_id, page in PAGES.items():
        (root / "html" / f"{file_id}.html.gz").write_bytes(gzip.compress(page.html))
        record = {
            "url": page.url,
            "file_id": file_id,
            "_internal": {"page_type": {"primary": page.page_type}},
            "ground_truth": page.truth,
        }
        (root / "ground-truth" / f"{file_id}.json").write_text(json.dumps(record))
    return root


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "dataset")


def fixed(html: bytes, url: str | None) -> Prediction:
    assert url is not None
    return PREDICTIONS[url]


def test_scores_on_the_mini_dataset(dataset: Path) -> None:
    report = evaluate(dataset, [Extractor("fixed", fixed)])
    assert isinstance(report, Report)
    assert (report.pages, report.errors) == (3, ())
    summary = report.extractors[0].summary
    # Page 1: 3 of 4 words each way: P = R = F1 = 0.75, LCS likewise; "alpha beta" is
    # found, "home about" is not. Page 2: empty prediction, 0. Page 3: empty reference
    # and empty prediction, 1.0; its "menu" is not found.
    assert summary.name == "fixed"
    assert summary.pages == 3
    assert summary.f1 == pytest.approx((0.75 + 0 + 1) / 3)
    assert summary.precision == pytest.approx((0.75 + 0 + 1) / 3)
    assert summary.recall == pytest.approx((0.75 + 0 + 1) / 3)
    assert summary.lcs_f1 == pytest.approx((0.75 + 0 + 1) / 3)
    by_type = {t.page_type: (t.pages, t.f1) for t in summary.by_type}
    assert by_type["article"] == (2, pytest.approx(0.875))
    assert by_type["forum"] == (1, 0.0)
    assert by_type["listing"] == (0, None)
    assert [t.page_type for t in summary.by_type] == list(evaluation.PAGE_TYPES)
    assert summary.with_rate == pytest.approx(0.5)  # pages 1 (1.0) and 2 (0.0)
    assert summary.without_rate == 0.0  # pages 1 and 3
    assert summary.headline_match == pytest.approx(2 / 3)
    assert summary.headline_pages == 3
    assert isinstance(summary.median_ms, float)
    pages = report.extractors[0].pages
    assert [page.html_bytes for page in pages] == [len(p.html) for p in PAGES.values()]
    assert [page.headline for page in pages] == [True, False, True]


def test_every_extractor_gets_the_same_page_read_once(dataset: Path) -> None:
    seen: dict[str, list[bytes]] = {"a": [], "b": []}

    def recorder(name: str) -> Extractor:
        def run(html: bytes, url: str | None) -> Prediction:
            seen[name].append(html)
            return Prediction("", "")

        return Extractor(name, run)

    report = evaluate(dataset, [recorder("a"), recorder("b")], split="odd")
    assert isinstance(report, Report)
    assert [entry.summary.name for entry in report.extractors] == ["a", "b"]
    assert len(seen["a"]) == 2
    assert all(a is b for a, b in zip(seen["a"], seen["b"], strict=True))
    assert seen["a"][0] == PAGE_ONE


def test_page_ids_split_and_limit(dataset: Path, tmp_path: Path) -> None:
    (dataset / "ground-truth" / "notes.json").write_text("{}")
    assert page_ids(dataset) == ["0001", "0002", "0003"]
    assert page_ids(dataset, "even") == ["0002"]
    assert page_ids(dataset, "odd") == ["0001", "0003"]
    assert page_ids(dataset, "odd", 1) == ["0001"]
    assert page_ids(tmp_path / "nowhere") == f"{tmp_path / 'nowhere'}: not a dataset " + (
        "(needs html/ and ground-truth/)"
    )


def test_load_page_reads_missing_fields_as_empty(dataset: Path) -> None:
    (dataset / "ground-truth" / "0003.json").write_text('{"ground_truth": {"with": [1, "a"]}}')
    assert load_page(dataset, "0003") == DatasetPage(
        file_id="0003",
        url=None,
        html=PAGES["0003"].html,
        page_type="unknown",
        reference="",
        title=None,
        with_snippets=("a",),
        without_snippets=(),
    )


def test_unreadable_pages_are_reported(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (dataset / "html" / "0002.html.gz").write_bytes(b"not gzip")
    (dataset / "ground-truth" / "0003.json").write_text("[1, 2]")
    report = evaluate(dataset, [Extractor("fixed", fixed)])
    assert isinstance(report, Report)
    assert report.pages == 1
    assert [file_id for file_id, _ in report.errors] == ["0002", "0003"]
    assert report.errors[1][1] == "ground truth is not a JSON object"
    assert cli.main(["eval", "--dataset", str(dataset)]) == 1
    assert "unreadable page 0002: BadGzipFile" in capsys.readouterr().out


def test_eval_command_with_baselines_writes_json(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scores.json"
    status = cli.main(
        ["eval", "--dataset", str(dataset), "--limit", "1", "--baselines", "--out", str(out)]
    )
    printed, progress = capsys.readouterr()
    report = json.loads(out.read_text())
    assert status == 0
    assert progress.startswith("1/1 pages, ")
    assert progress.count("\n") == 1
    assert (report["pages"], report["limit"], report["split"]) == (1, 1, "all")
    assert list(report["extractors"]) == ["addanag-plus", "page-text+title", "page-text+h1"]
    title, h1 = report["extractors"]["page-text+title"], report["extractors"]["page-text+h1"]
    # Whole body text: one alpha beta gamma home about (6 words), 3 of them in the
    # 4-word reference: P = 0.5, R = 0.75, F1 = 0.6.
    assert (title["precision"], title["recall"]) == (0.5, 0.75)
    assert title["f1"] == pytest.approx(0.6)
    assert title["without_rate"] == 1.0
    assert title["per_page"][0]["title"] == "Site | One"
    assert title["headline_match"] == 0.0
    assert h1["per_page"][0]["title"] == "One"
    assert h1["headline_match"] == 1.0
    for name in report["extractors"]:
        assert f"{name}: 1 pages" in printed
    assert "F1" in printed.splitlines()[-4]  # the comparison table's header


def test_eval_rejects_a_missing_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "--dataset", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"plainview: {tmp_path}: not a dataset " + (
        "(needs html/ and ground-truth/, or page folders with source.html and expected.html)\n"
    )
    assert page_ids(tmp_path) == f"{tmp_path}: not a dataset (needs html/ and ground-truth/)"


def test_eval_reports_an_unwritable_out_file(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no" / "such" / "dir.json"
    status = cli.main(["eval", "--dataset", str(dataset), "--limit", "1", "--out", str(out)])
    assert status == 1
    assert capsys.readouterr().err.endswith(f"plainview: {out}: No such file or directory\n")


def test_peers_need_their_packages(
    dataset: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)
    assert cli.main(["eval", "--dataset", str(dataset), "--peers"]) == 1
    assert capsys.readouterr().err == (
        "plainview: --peers needs trafilatura: pip install -e '.[dev]'\n"
    )


def test_peers_need_node_and_its_packages(
    dataset: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(readability_js, "NODE_MODULES", dataset)
    assert cli.main(["eval", "--dataset", str(dataset), "--peers"]) == 1
    assert capsys.readouterr().err == (
        "plainview: --peers needs @mozilla/readability and jsdom: "
        "npm ci in a source checkout (node 20.19 or newer)\n"
    )
    monkeypatch.setitem(sys.modules, "readability", None)
    assert evaluation.peer_extractors() == (
        "--peers needs readability-lxml and @mozilla/readability and jsdom: "
        "pip install -e '.[dev]'; npm ci in a source checkout (node 20.19 or newer)"
    )


def test_peers_run_on_the_mini_dataset(dataset: Path) -> None:
    peers = evaluation.peer_extractors()
    assert isinstance(peers, list)
    assert [peer.name for peer in peers] == [
        "trafilatura 2.3.1",
        "readability-lxml 0.9",
        "readability.js 0.6.0",
    ]
    with evaluation.running(peers):
        report = evaluate(dataset, peers, limit=1)
        assert isinstance(report, Report)
        assert [entry.summary.pages for entry in report.extractors] == [1, 1, 1]
        for peer in peers:
            prediction = peer.run(PAGE_ONE, "https://example.org/1")
            assert "alpha beta gamma" in prediction.text, peer.name
            # Without being asked, only trafilatura leaves its HTML out.
            assert ("alpha beta gamma" in prediction.html) != peer.name.startswith("trafilatura")


def test_a_peer_process_that_dies_stops_the_run_with_its_reason(
    dataset: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    closed: list[bool] = []

    def dying(html: bytes, url: str | None) -> Prediction:
        raise readability_js.PeerFailed("node stopped reading (exit status 1; ...)")

    peer = Extractor("readability.js", dying, lambda: closed.append(True))
    monkeypatch.setattr(evaluation, "peer_extractors", lambda with_html: [peer])
    assert cli.main(["eval", "--dataset", str(dataset), "--peers"]) == 1
    assert capsys.readouterr().err.endswith(
        "plainview: readability.js: node stopped reading (exit status 1; ...)\n"
    )
    assert closed == [True]


def test_running_closes_the_extractors_that_hold_something() -> None:
    closed: list[str] = []
    extractors = [Extractor("a", silent, lambda: closed.append("a")), Extractor("b", silent)]
    with pytest.raises(ZeroDivisionError), evaluation.running(extractors):
        _ = 1 / 0
    assert closed == ["a"]


def test_an_extractor_failing_on_a_page_is_reported(dataset: Path) -> None:
    def failing(html: bytes, url: str | None) -> Prediction:
        return Prediction("", "", error="TypeError: boom" if url == PAGES["0002"].url else None)

    report = evaluate(dataset, [Extractor("failing", failing)])
    assert isinstance(report, Report)
    assert [page.error for page in report.extractors[0].pages] == [None, "TypeError: boom", None]
    assert evaluation.format_report(report).endswith(
        "\n\nfailing failed on page 0002: TypeError: boom"
    )
    data = evaluation.report_json(report)["extractors"]
    assert isinstance(data, dict)
    assert [page["error"] for page in data["failing"]["per_page"]] == [
        None,
        "TypeError: boom",
        None,
    ]


def test_the_baselines_predict_the_whole_page_as_html() -> None:
    for baseline in evaluation.baseline_extractors():
        prediction = baseline.run(PAGE_ONE, None)
        assert prediction.html == PAGE_ONE.decode()


def test_element_text_puts_blocks_on_lines_and_hides_code() -> None:
    html = b"<div>a<!-- x -->b<script>s</script>c<p>d</p>e<br>f <b>g</b>  h</div>"
    assert html_text(html) == "abc\nd\ne\nf g h"
    assert html_text("<?xml version='1.0' encoding='utf-8'?><p>Caf\u00e9</p>") == "Caf\u00e9"
    assert html_text(b"") == ""
    root = parse_html(b"<body><ul><li>one</li><li>two</li></ul>tail</body>")
    assert root is not None
    assert element_text(root) == "one\ntwo\ntail"


def test_element_text_survives_deep_nesting() -> None:
    root = parent = etree.Element("div")
    for _ in range(5_000):  # deeper than Python's recursion limit
        parent = etree.SubElement(parent, "span")
    parent.text = "deep"
    assert element_text(root) == "deep"


def test_progress_on_a_file_writes_one_final_line() -> None:
    stream = io.StringIO()
    ticks = iter([0.0, 1.0, 2.0, 4.0])
    progress = Progress(stream, 3, clock=lambda: next(ticks))
    progress.step(1_000_000)
    progress.step(500_000)
    progress.close()
    assert stream.getvalue() == "2/3 pages, 1.5 MB, 4.0 s, 0.5 pages/s\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_redraws_in_place() -> None:
    stream = Terminal()
    ticks = iter([0.0, 1.0, 1.05, 2.0, 2.0])
    progress = Progress(stream, 3, clock=lambda: next(ticks), min_interval=0.1)
    progress.step(0)  # drawn at 1.0
    progress.step(0)  # 1.05: too soon to redraw
    progress.step(0)  # drawn at 2.0
    progress.close()
    assert stream.getvalue() == (
        "\r1/3 pages, 0.0 MB, 1.0 s, 1.0 pages/s"
        "\r3/3 pages, 0.0 MB, 2.0 s, 1.5 pages/s"
        "\r3/3 pages, 0.0 MB, 2.0 s, 1.5 pages/s\n"
    )


def test_real_dataset_through_the_real_extract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "real.json"
    options = ["--dataset", str(REAL_DATASET), "--split", "even", "--limit", "4"]
    status = cli.main(["eval", *options, "--baselines", "--out", str(out)])
    report = json.loads(out.read_text())
    assert status == 0
    assert (report["pages"], report["errors"], report["split"]) == (4, {}, "even")
    assert list(report["extractors"]) == ["addanag-plus", "page-text+title", "page-text+h1"]
    for scores in report["extractors"].values():
        assert scores.keys() >= {
            "pages", "f1", "precision", "recall", "by_type", "with_rate", "without_rate",
            "lcs_f1", "headline_match", "headline_pages", "mb_per_s", "median_ms", "per_page",
        }  # fmt: skip
        assert scores["pages"] == 4
        assert sum(entry["pages"] for entry in scores["by_type"].values()) == 4
        assert [int(page["file_id"]) % 2 for page in scores["per_page"]] == [0, 0, 0, 0]
    assert "addanag-plus: 4 pages" in capsys.readouterr().out


# What the auto mode decides per page URL in the decision tests.
VERDICTS = {
    "https://example.org/1": True,
    "https://example.org/2": False,
    "https://example.org/3": False,
    "https://example.org/4": True,
}


def judged(html: bytes, url: str | None) -> Prediction:
    assert url is not None
    return Prediction("", "", readerable=VERDICTS[url])


def silent(html: bytes, url: str | None) -> Prediction:
    return Prediction("", "")


def add_listing(dataset: Path) -> None:
    """Add page 0004, a listing page, to the mini dataset."""
    (dataset / "html" / "0004.html.gz").write_bytes(gzip.compress(b"<ul><li>a</li></ul>"))
    record = {"url": "https://example.org/4", "_internal": {"page_type": {"primary": "listing"}}}
    (dataset / "ground-truth" / "0004.json").write_text(json.dumps(record))


def test_the_auto_decision_is_counted_per_page_type(dataset: Path) -> None:
    add_listing(dataset)
    report = evaluate(dataset, [Extractor("judged", judged), Extractor("silent", silent)])
    assert isinstance(report, Report)
    judged_entry, silent_entry = report.extractors
    assert [page.readerable for page in judged_entry.pages] == [True, False, False, True]
    rows = {row.page_type: row for row in judged_entry.summary.decisions}
    assert list(rows) == list(evaluation.PAGE_TYPES)
    article, forum, listing = rows["article"], rows["forum"], rows["listing"]
    assert (article.pages, article.reader, article.original, article.share) == (2, 1, 1, 0.5)
    assert (forum.pages, forum.reader, forum.share) == (1, 0, 0.0)
    assert (listing.pages, listing.reader, listing.share) == (1, 1, 1.0)
    assert (rows["product"].pages, rows["product"].share) == (0, None)
    # Articles and forums should get the reader view (1 of 3 did); the listing should not.
    assert evaluation.confusion(judged_entry.summary.decisions) == {
        "reader": (1, 2),
        "original": (1, 0),
    }
    # An extractor that gives no verdict has no matrix.
    assert [page.readerable for page in silent_entry.pages] == [None] * 4
    assert silent_entry.summary.decisions == ()


def test_the_auto_decision_goes_into_the_json_and_the_printed_report(dataset: Path) -> None:
    add_listing(dataset)
    report = evaluate(dataset, [Extractor("judged", judged), Extractor("silent", silent)])
    assert isinstance(report, Report)
    data = evaluation.report_json(report)["extractors"]
    assert isinstance(data, dict)
    decision = data["judged"]["auto_decision"]
    assert decision["by_type"]["article"] == {
        "pages": 2, "reader": 1, "original": 1, "share": 0.5,
    }  # fmt: skip
    assert decision["should_be_reader"] == {"reader": 1, "original": 2}
    assert decision["should_be_original"] == {"reader": 1, "original": 0}
    assert [page["readerable"] for page in data["judged"]["per_page"]] == [True, False, False, True]
    assert data["silent"]["auto_decision"] is None
    assert [page["readerable"] for page in data["silent"]["per_page"]] == [None] * 4
    printed = evaluation.format_report(report)
    assert printed.count("auto mode decision") == 1
    assert "| article | 2 | 1 | 1 | 50.0% |" in printed.splitlines()
    assert "| product | 0 | 0 | 0 | - |" in printed.splitlines()
    assert "| reader view (article, documentation, forum) | 1 | 2 |" in printed.splitlines()
    assert "| original (the others) | 1 | 0 |" in printed.splitlines()


def test_the_real_extractor_gives_a_verdict_for_every_page(tmp_path: Path) -> None:
    out = tmp_path / "real.json"
    options = ["--dataset", str(REAL_DATASET), "--split", "odd", "--limit", "6"]
    assert cli.main(["eval", *options, "--baselines", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    plainview = report["extractors"]["addanag-plus"]
    verdicts = [page["readerable"] for page in plainview["per_page"]]
    assert all(isinstance(verdict, bool) for verdict in verdicts)
    by_type = plainview["auto_decision"]["by_type"]
    assert sum(row["pages"] for row in by_type.values()) == 6
    assert sum(row["reader"] for row in by_type.values()) == sum(verdicts)
    assert report["extractors"]["page-text+title"]["auto_decision"] is None


def test_a_pipeline_is_scored_as_an_extractor_of_its_own(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "scores.json"
    options = ["--dataset", str(dataset), "--algorithm", "addanag-plus"]
    options += ["--pipeline", "addanag-plus", "--pipeline", "parallel-or(addanag-plus,danag)"]
    assert cli.main(["eval", *options, "--out", str(out)]) == 0
    report = json.loads(out.read_text())["extractors"]
    assert list(report) == ["addanag-plus", "parallel-or(addanag-plus,danag)"]
    # A pipeline of one algorithm is that algorithm, named as it: one row, each page once.
    plus, union = report.values()
    assert plus["pages"] == union["pages"] == 3
    # The headline is the first filter's.
    assert union["per_page"][0]["title"] == plus["per_page"][0]["title"]
    assert union["per_page"][0]["readerable"] is plus["per_page"][0]["readerable"]


def test_the_pipeline_extractor_predicts_the_pipeline_s_article() -> None:
    pipeline = cli.pipeline_spec("serial(addanag-plus,danag)")
    extractor = evaluation.pipeline_extractor("serial", pipeline)
    prediction = extractor.run(PAGE_ONE, "https://example.org/1")
    plus = evaluation.plainview_extractor("plus", params_for()).run(PAGE_ONE, None)
    assert (prediction.title, prediction.text) == (plus.title, "alpha beta gamma")
    assert prediction.html == "<p>alpha beta gamma</p>" and prediction.lost_words is None
    assert extractor.run(b"", None) == Prediction("", "", readerable=False)


SHELL = (
    b"<html><head><title>Stated headline - Site</title>"
    b'<meta property="og:title" content="Stated headline"></head>'
    b'<body><main><div class="loader"></div></main></body></html>'
)


def test_a_skipped_page_predicts_no_text_and_the_headline_it_states() -> None:
    plus = evaluation.plainview_extractor("plus", params_for())
    serial = evaluation.pipeline_extractor("serial", cli.pipeline_spec("serial(addanag-plus)"))
    for extractor in (plus, serial):
        prediction = extractor.run(SHELL, None)
        assert (prediction.text, prediction.title) == ("", "Stated headline")
        assert prediction.readerable is False


# -- site pages ------------------------------------------------------------------------


def add_page(dataset: Path, file_id: str, url: str, html: bytes, main_content: str = "") -> None:
    (dataset / "html" / f"{file_id}.html.gz").write_bytes(gzip.compress(html))
    truth = {"main_content": main_content}
    record = {"url": url, "_internal": {"page_type": {"primary": "article"}}, "ground_truth": truth}
    (dataset / "ground-truth" / f"{file_id}.json").write_text(json.dumps(record))


def test_a_host_is_the_urls_host_name_without_www() -> None:
    assert evaluation.host_of("https://www.Example.org:8080/a?b") == "example.org"
    assert evaluation.host_of("http://blog.example.org/") == "blog.example.org"
    assert evaluation.host_of(None) is None
    assert evaluation.host_of("no host here") is None


def test_site_pages_score_only_the_pages_of_hosts_with_several(dataset: Path) -> None:
    # 0001-0003 are example.org's; 0004 is alone on its host, 0005 shares www.other.example's.
    add_page(dataset, "0004", "https://lonely.example/4", b"<p>alone</p>")
    add_page(dataset, "0005", "https://www.other.example/5", b"<p>five</p>")
    add_page(dataset, "0006", "https://other.example/6", b"<p>six</p>")
    assert evaluation.site_members(dataset)["0005"] == ["0005", "0006"]
    assert "0004" not in evaluation.site_members(dataset)
    handed: dict[str, list[tuple[bytes, str | None]]] = {}

    def with_site(html: bytes, url: str | None, site: Sequence[SitePage]) -> Prediction:
        handed[str(url)] = [(page.body, page.url) for page in site]
        return Prediction("", "")

    extractors = [Extractor("site", silent, run_with_site=with_site), Extractor("plain", silent)]
    report = evaluate(dataset, extractors, split="odd", site_pages=True)
    assert isinstance(report, Report) and report.site_pages
    # Odd ids among the hosts of two or more pages: 0001, 0003, 0005 (not 0004's host).
    assert [score.file_id for score in report.extractors[0].pages] == ["0001", "0003", "0005"]
    assert handed["https://www.other.example/5"] == [(b"<p>six</p>", "https://other.example/6")]
    assert [url for _, url in handed["https://example.org/1"]] == [
        "https://example.org/2",
        "https://example.org/3",
    ]
    assert evaluation.report_json(report)["site_pages"] is True
    assert "site_pages" not in evaluation.report_json(_plain_report(dataset))
    limited = evaluate(dataset, extractors, site_pages=True, limit=4)
    assert isinstance(limited, Report) and limited.pages == 4


def per_page(out: Path, *names: str) -> list[dict[str, dict[str, object]]]:
    """Return each named extractor's scores in an eval's JSON, by file id."""
    scores = json.loads(out.read_text())["extractors"]
    return [{page["file_id"]: page for page in scores[name]["per_page"]} for name in names]


def _plain_report(dataset: Path) -> Report:
    report = evaluate(dataset, [Extractor("plain", silent)])
    assert isinstance(report, Report)
    return report


def test_eval_site_pages_runs_blockextractor_with_and_without_step_3(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    story = "<p>{} The story runs on through the town, told at some length here.</p>"
    footer = "<footer><p>Example Corp publishes a story like this one every week.</p></footer>"
    for file_id, url in (("0007", "https://news.example/7"), ("0009", "https://news.example/9")):
        text = story.format(file_id)
        page = f"<html><body><div>{text}</div>{footer}</body></html>"
        add_page(dataset, file_id, url, page.encode(), main_content=text[3:-4])
    options = ["--dataset", str(dataset), "--site-pages", "--split", "odd"]
    options += ["--algorithm", "blockextractor", "--algorithm", "blockextractor+redundancy"]
    assert cli.main(["eval", *options, "--out", str(dataset / "out.json")]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("site pages: 4 pages of hosts with two or more pages")
    names = ("blockextractor", "blockextractor+redundancy")
    plain, redundancy = per_page(dataset / "out.json", *names)
    # The footer both news pages hold is gone with Step 3 only.
    assert plain["0007"]["precision"] < redundancy["0007"]["precision"] == 1.0


def test_eval_site_memory_scores_each_page_with_its_hosts_other_pages_remembered(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prose = "The ferry crosses the bay twice a day, and the crossing takes a full hour."
    template = "<p>Our harbour shop opens at nine.</p><p>Sign up for the tide letter.</p>"
    for file_id, topic in (("0007", "Ferries"), ("0009", "Tides")):
        text = f"{topic} first. {prose}\n\n{topic} then. {prose}"
        body = "".join(f"<p>{part}</p>" for part in text.split("\n\n"))
        page = f"<html><body><main><h1>{topic}</h1>{body}{template}</main></body></html>"
        add_page(dataset, file_id, f"https://harbour.example/{file_id}", page.encode(), text)
    options = ["--dataset", str(dataset), "--site-pages", "--site-memory", "--split", "odd"]
    assert cli.main(["eval", *options, "--out", str(dataset / "out.json")]) == 0
    names = ("addanag-plus", "addanag-plus+memory")
    assert set(json.loads((dataset / "out.json").read_text())["extractors"]) == set(names)
    plain, remembered = per_page(dataset / "out.json", *names)
    # The sign-up lines both harbour pages hold are left out with the memory only.
    assert plain["0007"]["precision"] < remembered["0007"]["precision"] == 1.0
    assert remembered["0007"]["recall"] == plain["0007"]["recall"] == 1.0
    assert remembered["0007"]["lost_words"] == 0
    capsys.readouterr()


def test_eval_site_memory_needs_site_pages(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["eval", "--dataset", str(dataset), "--site-memory"]) == 1
    assert "--site-memory needs --site-pages" in capsys.readouterr().err


def test_a_remembering_extractor_alone_is_the_plain_one(dataset: Path) -> None:
    remembering = evaluation.remembering_extractor("addanag-plus", params_for())
    plain = evaluation.plainview_extractor("addanag-plus", params_for())
    story = b"Words of the story. " * 20
    page = b"<html><body><main><h1>T</h1><p>" + story + b"</p></main></body></html>"
    assert remembering.name == "addanag-plus+memory"
    assert remembering.run(page, None) == plain.run(page, None)


def test_the_view_html_is_the_reader_page_h1_then_the_blocks() -> None:
    article = extract(PAGE_ONE, url="https://example.org/1")
    assert isinstance(article, Article) and article.title == "Site"
    assert view_html(article) == f"<h1>Site</h1>\n{article.html}"
    linked = replace(article, title="<One>", title_href="https://example.org/2?a&b")
    link = '<a href="https://example.org/2?a&amp;b">&lt;One&gt;</a>'
    assert view_html(linked).startswith(f"<h1>{link}</h1>\n")
    assert view_html(replace(article, title="")) == article.html
