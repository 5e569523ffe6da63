"""`plainview eval` on Readability.js's test pages: reading, scoring, real and all averages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from addon.cli import main as cli
from addon.evaluation import run as evaluation
from addon.evaluation import testpages
from addon.evaluation.run import Extractor, Prediction
from addon.evaluation.structure import Recall
from addon.evaluation.testpages import PAGE_URL, Mean, ReferencePage, Report

REAL_DATASET = cli.DEFAULT_DATASET.parent / "readability-even"
# The real page: a saved article, well over the synthetic size (a comment fills it).
FILLER = "<!-- " + "padding " * 600 + "-->"
REAL_SOURCE = (
    f"<html><head><title>Real article | Site</title>{FILLER}</head><body><nav>Menu</nav>"
    "<article><h1>Real article</h1><p>alpha beta gamma delta</p>"
    '<h2 id="more">More</h2><pre>x = 1</pre><img src="/img/a.png">'
    '<p><a href="#more">Jump</a> <a href="/x">Elsewhere</a></p></article></body></html>'
)
REAL_EXPECTED = (
    '<div id="readability-page-1"><p>alpha beta gamma delta</p><h2 id="more">More</h2>'
    '<pre>x = 1</pre><img src="http://fakehost/img/a.png">'
    '<p><a href="#more">Jump</a> <a href="http://fakehost/x">Elsewhere</a></p></div>'
)
SYNTHETIC_SOURCE = "<html><body><article><h1>Lorem</h1><p>lorem ipsum</p></article></body></html>"
SYNTHETIC_EXPECTED = '<div id="readability-page-1"><h2>Lorem</h2><p>lorem ipsum</p></div>'
# What the test extractor predicts per page, told apart by their sizes.
REAL_PREDICTION = Prediction(
    text="alpha beta gamma delta epsilon More x = 1 Jump",
    title="Real article",
    html=(
        "<p>alpha beta gamma delta epsilon</p><h3>More</h3><pre>x  =  1</pre>"
        f'<img src="https://cdn.example/a.png"><p><a href="{PAGE_URL}#gone">Jump</a></p>'
    ),
    readerable=True,
)
SYNTHETIC_PREDICTION = Prediction(text="", title="", html="", readerable=True, error="boom")


def write_page(root: Path, name: str, source: str, expected: str, title: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "source.html").write_text(source)
    (folder / "expected.html").write_text(expected)
    metadata = {"title": title, "lang": "en", "readerable": len(source) > 4096}
    (folder / "expected-metadata.json").write_text(json.dumps(metadata))


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "test-pages"
    write_page(root, "real-article", REAL_SOURCE, REAL_EXPECTED, "Real article | Site")
    write_page(root, "synthetic-rule", SYNTHETIC_SOURCE, SYNTHETIC_EXPECTED, "Lorem")
    (root / "README.md").write_text("not a page")
    (root / "notes").mkdir()  # a folder without source.html is no page
    return root


def fixed(html: bytes, url: str | None) -> Prediction:
    assert url == PAGE_URL
    return REAL_PREDICTION if len(html) > testpages.SYNTHETIC_MAX_BYTES else SYNTHETIC_PREDICTION


def test_the_layout_is_told_by_its_files(dataset: Path, tmp_path: Path) -> None:
    assert testpages.is_dataset(dataset)
    assert not testpages.is_dataset(tmp_path / "nowhere")
    assert not testpages.is_dataset(dataset / "notes")
    assert testpages.page_names(dataset) == ["real-article", "synthetic-rule"]
    assert testpages.page_names(dataset, 1) == ["real-article"]
    assert testpages.evaluate(tmp_path, []) == (
        f"{tmp_path}: not a test-pages dataset (needs folders with source.html and expected.html)"
    )


def test_load_page_reads_the_expectations_and_the_size_rule(dataset: Path) -> None:
    page = testpages.load_page(dataset, "synthetic-rule")
    assert page == ReferencePage(
        name="synthetic-rule",
        html=SYNTHETIC_SOURCE.encode(),
        expected=SYNTHETIC_EXPECTED,
        title="Lorem",
        synthetic=True,
        readerable=False,
    )
    real = testpages.load_page(dataset, "real-article")
    assert isinstance(real, ReferencePage)
    assert not real.synthetic
    (dataset / "synthetic-rule" / "expected-metadata.json").write_text("[]")
    assert testpages.load_page(dataset, "synthetic-rule") == (
        "expected-metadata.json is not a JSON object"
    )
    (dataset / "synthetic-rule" / "expected.html").unlink()
    problem = testpages.load_page(dataset, "synthetic-rule")
    assert isinstance(problem, str)
    assert problem.startswith("FileNotFoundError: ")


def test_scores_and_real_and_all_averages(dataset: Path) -> None:
    report = testpages.evaluate(dataset, [Extractor("fixed", fixed)])
    assert isinstance(report, Report)
    assert (report.pages, report.synthetic, report.errors) == (2, ("synthetic-rule",), ())
    real, synthetic = report.extractors[0].pages
    # Words: the reference has alpha beta gamma delta more x 1 jump elsewhere (9), the
    # prediction 9 with "epsilon" instead of "elsewhere": P = R = F1 = 8/9.
    assert real.words.f1 == pytest.approx(8 / 9)
    structure = real.structure
    assert structure.code == Recall(1, 1)  # whitespace does not matter
    assert structure.headings == Recall(1, 1)  # "More", at another level
    assert structure.images == Recall(1, 1)  # a.png, from another host
    assert structure.link_texts == Recall(1, 2)  # "Elsewhere" is lost
    assert structure.in_page_links == Recall(0, 1)  # #gone has no target
    assert real.headline is False  # "Real article" against "Real article | Site"
    # The synthetic page: nothing predicted, its one heading lost, the failure kept.
    assert (synthetic.words.f1, synthetic.error) == (0.0, "boom")
    assert synthetic.structure.headings == Recall(0, 1)
    assert synthetic.structure.code.rate is None
    summary = report.extractors[0].summary
    assert (summary.real.pages, summary.all.pages) == (1, 2)
    assert summary.real.f1 == pytest.approx(8 / 9)
    assert summary.all.f1 == pytest.approx(4 / 9)
    assert (summary.real.headings.value, summary.real.headings.pages) == (1.0, 1)
    assert (summary.all.headings.value, summary.all.headings.pages) == (0.5, 2)
    assert (summary.all.code.value, summary.all.code.pages) == (1.0, 1)
    assert (summary.all.link_texts.value, summary.all.in_page_links.value) == (0.5, 0.0)
    assert (summary.all.headline.value, summary.all.headline.pages) == (0.0, 2)
    # Auto mode against Firefox: the real page is readerable to both; the synthetic
    # one is not to Firefox, and would be a reader view here.
    assert (real.readerable, real.firefox_readerable) == (True, True)
    assert (synthetic.readerable, synthetic.firefox_readerable) == (True, False)
    assert summary.real.auto_readerable == Mean(1.0, 1)
    assert summary.real.auto_other == Mean(None, 0)
    assert summary.all.auto_other == Mean(1.0, 1)


def test_the_printed_report_and_the_json(dataset: Path) -> None:
    report = testpages.evaluate(dataset, [Extractor("fixed", fixed), Extractor("other", fixed)])
    assert isinstance(report, Report)
    printed = testpages.format_report(report).splitlines()
    assert printed[0] == "fixed: 2 pages (1 real, 1 synthetic)"
    assert printed[2].split() == ["word", "F1", "/", "P", "/", "R", "0.889", "/", "0.889", "/",
                                  "0.889", "0.444", "/", "0.444", "/", "0.444"]  # fmt: skip
    assert "  code blocks           100.0% (1 pages)            100.0% (1 pages)" in printed
    assert (
        "| fixed | 0.889 / 0.444 | 100.0% / 100.0% | 100.0% / 50.0% | 100.0% / 100.0% "
        "| 50.0% / 50.0% | 0.0% / 0.0% | 0.0% / 0.0% | 100.0% / 100.0% | - / 100.0% |"
    ) in printed
    assert "fixed failed on page synthetic-rule: boom" in printed
    data = testpages.report_json(report)
    assert (data["pages"], data["synthetic_pages"], data["page_url"]) == (
        2,
        ["synthetic-rule"],
        PAGE_URL,
    )
    extractors = data["extractors"]
    assert isinstance(extractors, dict)
    fixed_data = extractors["fixed"]
    assert fixed_data["real"]["link_texts"] == {"rate": 0.5, "pages": 1}
    assert fixed_data["all"]["code"] == {"rate": 1.0, "pages": 1}
    page = fixed_data["per_page"][0]
    assert (page["name"], page["synthetic"], page["in_page_links"]) == (
        "real-article",
        False,
        {"found": 0, "total": 1},
    )
    assert fixed_data["per_page"][1]["error"] == "boom"
    json.dumps(data)  # plain JSON data throughout


def test_unreadable_pages_are_reported(dataset: Path) -> None:
    (dataset / "synthetic-rule" / "expected-metadata.json").unlink()
    report = testpages.evaluate(dataset, [Extractor("fixed", fixed)])
    assert isinstance(report, Report)
    assert report.pages == 1
    assert [name for name, _ in report.errors] == ["synthetic-rule"]
    assert "unreadable page synthetic-rule: FileNotFoundError" in testpages.format_report(report)


def test_eval_command_detects_the_layout_and_runs_plainview(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scores.json"
    status = cli.main(["eval", "--dataset", str(dataset), "--baselines", "--out", str(out)])
    printed, progress = capsys.readouterr()
    assert status == 0
    assert progress.startswith("2/2 pages, ")
    report = json.loads(out.read_text())
    assert report["layout"] == "readability test pages"
    assert list(report["extractors"]) == ["addanag-plus", "page-text+title", "page-text+h1"]
    plainview = report["extractors"]["addanag-plus"]
    assert (plainview["real"]["pages"], plainview["all"]["pages"]) == (1, 2)
    assert plainview["per_page"][0]["code"] == {"found": 1, "total": 1}
    # The whole page holds every reference item, its in-page link included.
    whole = report["extractors"]["page-text+h1"]["per_page"][0]
    for measure in ("code", "headings", "images", "link_texts", "in_page_links"):
        assert whole[measure]["found"] == whole[measure]["total"]
    assert "| addanag-plus | " in printed


def test_eval_command_rejects_a_split_and_an_unknown_layout(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["eval", "--dataset", str(dataset), "--split", "even"]) == 1
    assert capsys.readouterr().err == (
        "plainview: --split even picks WCXB file ids: test pages have none\n"
    )
    assert cli.main(["eval", "--dataset", str(dataset), "--site-pages"]) == 1
    assert capsys.readouterr().err == (
        "plainview: --site-pages reads WCXB pages' URLs: test pages have none\n"
    )
    assert cli.main(["eval", "--dataset", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err == (
        f"plainview: {tmp_path / 'nowhere'}: not a dataset (needs html/ and ground-truth/, "
        "or page folders with source.html and expected.html)\n"
    )


def test_peers_give_their_html_on_test_pages(tmp_path: Path) -> None:
    # Long paragraphs, so that no peer falls back to the whole page's text.
    prose = "<p>" + "A sentence of the article, with a comma, as articles have. " * 12 + "</p>"
    source = REAL_SOURCE.replace("<h2 ", prose * 3 + "<h2 ")
    expected = REAL_EXPECTED.replace("<h2 ", prose * 3 + "<h2 ")
    dataset = tmp_path / "pages"
    write_page(dataset, "article", source, expected, "Real article | Site")
    peers = evaluation.peer_extractors(with_html=True)
    assert isinstance(peers, list), peers
    with evaluation.running(peers):
        report = testpages.evaluate(dataset, peers, limit=1)
    assert isinstance(report, Report)
    scores = {entry.summary.name.split()[0]: entry.pages[0] for entry in report.extractors}
    assert list(scores) == ["trafilatura", "readability-lxml", "readability.js"]
    for name, page in scores.items():
        assert page.error is None, name
        # Each one gave its HTML: the heading "More" and the image are in it.
        assert page.structure.headings == Recall(1, 1), name
        assert page.structure.images == Recall(1, 1), name
    readability = scores["readability.js"]
    assert readability.words.f1 == 1.0
    assert readability.structure.link_texts == Recall(2, 2)
    assert readability.structure.in_page_links == Recall(1, 1)


def test_real_dataset_with_every_peer(tmp_path: Path) -> None:
    out = tmp_path / "real.json"
    options = ["--dataset", str(REAL_DATASET), "--limit", "3", "--peers", "--out", str(out)]
    assert cli.main(["eval", *options]) == 0
    report = json.loads(out.read_text())
    assert report["pages"] == 3
    assert report["synthetic_pages"] == ["003-metadata-preferred", "005-unescape-html-entities"]
    names = [name.split()[0] for name in report["extractors"]]
    assert names == ["addanag-plus", "trafilatura", "readability-lxml", "readability.js"]
    for scores in report["extractors"].values():
        assert [page["error"] for page in scores["per_page"]] == [None] * 3
    readability = next(v for k, v in report["extractors"].items() if k.startswith("readability.js"))
    # Firefox's own extraction agrees with its expected output on these pages.
    assert readability["all"]["f1"] > 0.99
