"""Tests for plainview_dev.bench.floor: the floor benchmark from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plainview_dev.bench import cli, floor


def test_targets_judge_the_failures_only() -> None:
    (target,) = floor.targets({"failures": 3})
    assert (target.name, target.value, target.passed) == ("failed requests", 3.0, False)


@pytest.mark.e2e
def test_smoke_run_straight_to_the_origin_and_through_mitmdump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["floor", "--sample", "2", "--rounds", "1", "--probes", "4", "--rates", "20,40"]
    argv += ["--set", "stream_large_bodies=1k", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "The floor: probes" in printed and "(stream_large_bodies=1k)" in printed
    results = json.loads((tmp_path / "floor.json").read_text())
    assert results["benchmark"] == "floor" and results["failures"] == 0
    assert results["rates"] == [20.0, 40.0]
    assert [target["name"] for target in results["targets"]] == ["failed requests"]
    for way in ("direct", "mitmdump"):
        assert list(results[way]) == ["20", "40"]
        for run in results[way].values():
            for phase in ("idle", "loaded"):
                assert run[phase]["requests"] == 4 and run[phase]["failures"] == 0
                assert 0 < run[phase]["p50_ms"] <= run[phase]["p95_ms"]
            # Each loading client had a page through, the original: no addon anywhere.
            assert run["loaders"]["originals_sent"] >= 8 and run["loaders"]["reader_views"] == 0
