"""Tests for plainview_dev.bench.compiled: what each compiled function buys, side by side."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from plainview_dev.bench import compiled, report
from plainview_dev.bench.cli import main
from plainview_dev.bench.common import DEFAULT_DATASET

from addon.core import compiled as registry


def test_a_small_run_times_every_variant_asked_for() -> None:
    results = compiled.run(
        DEFAULT_DATASET, ["0001", "0002"], 1, twins=["word_count"], against=[sys.executable]
    )
    names = [each["name"] for each in results["variants"]]
    assert names == ["all compiled", "pure Python", "word_count", f"against {sys.executable}"]
    assert all(each["seconds"] > 0 for each in results["variants"])
    assert results["variants"][2]["module"] == "_words"
    (target,) = compiled.targets(results)
    assert target.name == "word_count (_words) buys" and target.limit == 5.0
    assert "pure Python" in report.render(results)


def test_every_compiled_function_gets_a_variant_by_default() -> None:
    names = [variant.name for variant in compiled.variants()]
    assert names[:2] == ["all compiled", "pure Python"]
    assert names[2:] == list(registry.FUNCTIONS)
    pure = compiled.variants()[1]
    assert pure.env[registry.NO_EXTENSIONS] == "1"


def test_an_unknown_twin_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="no compiled function wordcount"):
        compiled.variants(["wordcount"])
    argv = ["compiled", "--sample", "1", "--twins", "wordcount", "--out", str(tmp_path)]
    assert main(argv) == 1
    assert "no compiled function wordcount" in capsys.readouterr().err
