"""Tests for plainview_dev.bench.cli and scripts/bench: options, JSON files and the report."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from plainview_dev.bench import cli

ROOT = Path(__file__).resolve().parents[3]


def test_chosen_benchmarks_keep_their_order() -> None:
    assert cli.chosen_benchmarks([]) == ["extraction", "proxy", "concurrency"]
    assert cli.chosen_benchmarks(["all"]) == ["extraction", "proxy", "concurrency"]
    assert cli.chosen_benchmarks(["concurrency", "extraction"]) == ["extraction", "concurrency"]
    # The floor runs only when named.
    assert cli.chosen_benchmarks(["floor", "proxy"]) == ["proxy", "floor"]
    assert cli.chosen_benchmarks(["all", "floor"])[-1] == "floor"


@pytest.mark.parametrize(
    "argv",
    [
        ["speed"],
        ["--sample", "0"],
        ["--rounds", "-1"],
        ["--only", "nope"],
        ["--probes", "x"],
        ["--rates", "5,x"],
        ["--rates", "0"],
        ["--rates", "nan"],
        ["--rates", "inf"],
        ["--rates", "5,,10"],
    ],
)
def test_bad_arguments_exit_with_usage(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "report" of an empty folder: were the arguments taken, it would return, not run.
    with pytest.raises(SystemExit) as stopped:
        cli.main(["report", "--out", str(tmp_path), *argv])
    assert stopped.value.code == 2
    assert "usage: scripts/bench" in capsys.readouterr().err


def test_options_reach_the_runners() -> None:
    args = cli.build_parser().parse_args(
        ["proxy", "--set", "plainview_timeout=5", "--set", "a=b", "--probes", "7"]
    )
    assert args.mitm_options == ["plainview_timeout=5", "a=b"]
    assert (args.probes, args.rounds, args.sample, args.only) == (7, 3, None, [])
    assert args.rates == (5.0, 10.0, 20.0, 40.0)
    assert cli.build_parser().parse_args(["floor", "--rates", "2.5,30"]).rates == (2.5, 30.0)


@pytest.mark.e2e
def test_proxy_and_concurrency_run_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["proxy", "concurrency", "--sample", "2", "--rounds", "1", "--probes", "2"]
    # A generous page budget: the first pages meet workers still starting.
    argv += ["--set", "plainview_timeout=60", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "Proxy: 2 pages" in printed and "Throughput: 2 pages" in printed
    assert sorted(path.name for path in tmp_path.iterdir()) == ["concurrency.json", "proxy.json"]
    for name in ("proxy", "concurrency"):
        results = json.loads((tmp_path / f"{name}.json").read_text())
        assert results["benchmark"] == name
        assert results["failures"] == 0


@pytest.mark.e2e
def test_a_proxy_that_does_not_start_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The benchmark runs `plainview proxy --mode reader`: the mode again is refused.
    argv = ["proxy", "--sample", "1", "--rounds", "1", "--set", "plainview_mode=auto"]
    assert cli.main([*argv, "--out", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "bench: proxy: plainview exited with 2" in error
    assert "'plainview_mode' and --mode both given" in error


def test_missing_dataset_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["extraction", "--dataset", str(tmp_path), "--out", str(tmp_path)]) == 1
    assert "not a dataset" in capsys.readouterr().err


def test_report_without_results_fails(tmp_path: Path) -> None:
    assert cli.main(["report", "--out", str(tmp_path)]) == 1


def test_extraction_writes_json_and_report_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["extraction", "--sample", "2", "--rounds", "2", "--out", str(tmp_path)]
    assert cli.main([*argv, "--only", "plainview", "--only", "lxml-parse"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Run of the extraction benchmark")
    assert "\nExtraction: 2 pages" in printed
    results = json.loads((tmp_path / "extraction.json").read_text())
    assert [c["name"] for c in results["contenders"]] == ["plainview", "lxml-parse"]
    assert results["rounds"] == 2 and results["sample"] == 2
    assert results["machine"]["cores"] >= 1
    assert results["command"].startswith("scripts/bench extraction --sample 2")
    assert results["seconds"] > 0
    assert [t["name"] for t in results["targets"]] == ["extraction throughput"]
    # The working folder of the run is gone; only the results stay.
    assert [path.name for path in tmp_path.iterdir()] == ["extraction.json"]
    assert cli.main(["report", "--markdown", "--out", str(tmp_path)]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("**Machine**")
    assert "| plainview (addanag-plus) |" in markdown and "**Targets**" in markdown


def test_report_skips_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "proxy.json").write_text("{not json")
    assert cli.print_report([tmp_path / "proxy.json"], as_markdown=False) == 1
    assert "proxy.json" in capsys.readouterr().err


def test_scripts_bench_runs_the_python(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "bench"), "extraction", "--sample", "1", "--rounds", "1",
         "--only", "lxml-parse", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "lxml" in done.stdout and "parse only" in done.stdout
    assert json.loads((tmp_path / "extraction.json").read_text())["pages"] == 1
