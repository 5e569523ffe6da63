"""Golden extraction cases (tests/golden/<case>/) and the tool that writes them."""

from __future__ import annotations

import difflib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from addon.core import Article, Block, extract

REPO = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    """Import scripts/golden.py, which owns the case format."""
    spec = importlib.util.spec_from_file_location("golden", REPO / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


golden = load_tool()
CASES: list[Path] = golden.case_folders()


def unified(expected: str, actual: str, label: str) -> str:
    """Return a unified diff of two texts, labelled for a failure message."""
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        f"{label} (expected)",
        f"{label} (actual)",
    )
    return "".join(lines)


def fields_listing(fields: dict[str, Any]) -> str:
    """List the fields one per line, with the text split into its lines, for diffing."""
    listing = [
        f"{key}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in fields.items()
        if key != "text"
    ]
    listing += ["text:", *str(fields.get("text", "")).splitlines()]
    return "\n".join(listing) + "\n"


def regenerate_hint(case: Any) -> str:
    """Say how to accept an intended change of a case's output."""
    url = f" --url {case.url}" if case.url else ""
    source = f"tests/golden/{case.name}/source.html"
    return f"if the change is intended: scripts/add-golden {case.name} {source}{url} --force"


def extract_case(folder: Path) -> tuple[Any, Article]:
    """Load the case in FOLDER and run the extractor on its source."""
    case = golden.load_case(folder)
    result = extract(case.source, url=case.url)
    if not isinstance(result, Article):
        pytest.fail(f"{case.name}: the extractor skipped the page: {result.reason}")
    return case, result


@pytest.mark.parametrize("folder", CASES, ids=[folder.name for folder in CASES])
def test_golden_html(folder: Path) -> None:
    case, article = extract_case(folder)
    actual = golden.expect(article).html
    if actual != case.html:
        diff = unified(case.html, actual, f"{case.name}/expected.html")
        pytest.fail(f"{diff}\n{regenerate_hint(case)}", pytrace=False)


@pytest.mark.parametrize("folder", CASES, ids=[folder.name for folder in CASES])
def test_golden_fields(folder: Path) -> None:
    case, article = extract_case(folder)
    actual = golden.expect(article).fields
    if actual != case.fields:
        expected_text, actual_text = fields_listing(case.fields), fields_listing(actual)
        diff = unified(expected_text, actual_text, f"{case.name}/expected.json")
        pytest.fail(f"{diff}\n{regenerate_hint(case)}", pytrace=False)


def test_the_case_folder_holds_cases() -> None:
    assert [folder.name for folder in CASES] == sorted(folder.name for folder in CASES)
    assert "simple-article" in [folder.name for folder in CASES]


def sample_article() -> Article:
    """Return a small hand-built Article with every stored field set."""
    block = Block("p", "<p>Straße, ünïcode &amp; more.</p>", "Straße, ünïcode & more.")
    return Article(
        title="A title",
        blocks=(block, Block("p", "<p>Two.</p>", "Two.")),
        text="Straße, ünïcode & more.\n\nTwo.",
        lang="de",
        dir="ltr",
        readerable=False,
        byline="A. Writer",
        published="2024-01-02",
        site_name="Site",
    )


def test_a_written_case_reads_back_the_same(tmp_path: Path) -> None:
    expected = golden.expect(sample_article())
    golden.write_case(tmp_path / "one", b"<p>\xe9</p>", "https://a.example/x", expected)
    case = golden.load_case(tmp_path / "one")
    assert (case.name, case.source, case.url) == ("one", b"<p>\xe9</p>", "https://a.example/x")
    assert case.html == "<p>Straße, ünïcode &amp; more.</p>\n<p>Two.</p>\n"
    assert case.fields == expected.fields
    assert list(case.fields) == list(golden.FIELDS)
    assert case.fields["byline"] == "A. Writer"


def test_rewriting_a_case_without_url_drops_the_old_url(tmp_path: Path) -> None:
    expected = golden.expect(sample_article())
    golden.write_case(tmp_path / "one", b"<p>a</p>", "https://a.example/x", expected)
    golden.write_case(tmp_path / "one", b"<p>b</p>", None, expected)
    assert not (tmp_path / "one" / "url.txt").exists()
    assert golden.load_case(tmp_path / "one").url is None


def test_case_folders_lists_only_folders_with_a_source(tmp_path: Path) -> None:
    for name in ("b", "a"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "source.html").write_bytes(b"<p>x</p>")
    (tmp_path / "notes").mkdir()
    assert [folder.name for folder in golden.case_folders(tmp_path)] == ["a", "b"]
    assert golden.case_folders(tmp_path / "missing") == []


def test_add_golden_writes_a_case_the_golden_tests_accept(tmp_path: Path) -> None:
    source = REPO / "tests" / "golden" / "simple-article" / "source.html"
    argv = ["new-case", str(source), "--url", "https://a.example/p", "--root", str(tmp_path)]
    assert golden.main(argv) == 0
    case = golden.load_case(tmp_path / "new-case")
    article = extract(case.source, url=case.url)
    assert isinstance(article, Article)
    assert golden.expect(article) == golden.Expected(case.html, case.fields)
    assert case.url == "https://a.example/p"


def test_add_golden_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken").mkdir()
    source = tmp_path / "page.html"
    source.write_bytes(b"<p>x</p>")
    assert golden.main(["taken", str(source), "--root", str(tmp_path)]) == 1
    assert "exists; pass --force" in capsys.readouterr().err
    assert list((tmp_path / "taken").iterdir()) == []


@pytest.mark.parametrize("name", ["../escape", "Upper", "", "a/b"])
def test_add_golden_rejects_bad_names(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert golden.main([name, "page.html", "--root", str(tmp_path)]) == 1
    assert "bad case name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_add_golden_reports_a_missing_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.html"
    assert golden.main(["case", str(missing), "--root", str(tmp_path)]) == 1
    assert f"cannot read {missing}" in capsys.readouterr().err
    assert not (tmp_path / "case").exists()


def test_add_golden_writes_nothing_when_the_extractor_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert golden.main(["case", str(empty), "--root", str(tmp_path)]) == 1
    assert "no case written" in capsys.readouterr().err
    assert not (tmp_path / "case").exists()
