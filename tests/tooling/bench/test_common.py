"""Tests for plainview_dev.bench.common: sampling, statistics, targets, pages, machine, JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from plainview_dev.bench.common import (
    DEFAULT_DATASET,
    Target,
    load_ids,
    load_pages,
    machine,
    median,
    percentile,
    sample_ids,
    spread,
    write_json,
)

IDS = [f"{n:04d}" for n in range(10)]


def test_sample_ids_spreads_evenly_from_the_first() -> None:
    assert sample_ids(IDS, 3) == ["0000", "0003", "0006"]
    assert sample_ids(IDS, 5) == ["0000", "0002", "0004", "0006", "0008"]


def test_sample_ids_keeps_everything_without_a_sample_or_when_it_is_large() -> None:
    assert sample_ids(IDS, None) == IDS
    assert sample_ids(IDS, 10) == IDS
    assert sample_ids(IDS, 50) == IDS
    assert sample_ids(IDS, 0) == []


def test_percentile_interpolates_between_ranks() -> None:
    values = [4.0, 1.0, 3.0, 2.0, 5.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 50) == 3.0
    assert percentile(values, 100) == 5.0
    assert percentile(values, 95) == pytest.approx(4.8)
    assert percentile([7.0], 99) == 7.0
    assert math.isnan(percentile([], 50))


def test_median_and_spread() -> None:
    assert median([3.0, 1.0, 2.0, 10.0]) == 2.5
    assert math.isnan(median([]))
    assert spread([float(n) for n in range(101)]) == {"p50": 50.0, "p95": 95.0, "p99": 99.0}


def test_target_verdicts() -> None:
    assert Target("speed", 41.0, 40.0, "MB/s", at_most=False).passed
    assert not Target("speed", 39.9, 40.0, "MB/s", at_most=False).passed
    assert Target("latency", 10.0, 10.0, "ms", at_most=True).passed
    assert not Target("latency", 10.1, 10.0, "ms", at_most=True).passed
    assert not Target("latency", math.nan, 10.0, "ms", at_most=True).passed
    assert Target("x", 1.0, 2.0, "ms", at_most=True).to_json() == {
        "name": "x", "value": 1.0, "limit": 2.0, "unit": "ms", "at_most": True, "passed": True,
    }  # fmt: skip


def test_load_pages_reads_the_sample_with_urls_and_html() -> None:
    pages = load_pages(DEFAULT_DATASET, 3)
    assert [page.file_id for page in pages] == sample_ids(
        sorted(p.name.split(".")[0] for p in (DEFAULT_DATASET / "ground-truth").iterdir()), 3
    )
    for page in pages:
        assert page.url.startswith("http")
        assert b"<" in page.body and len(page.body) > 1000


def test_load_ids_and_load_pages_reject_what_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="9999"):
        load_ids(DEFAULT_DATASET, ["9999"])
    with pytest.raises(ValueError, match="not a dataset"):
        load_pages(tmp_path)


def test_machine_describes_cpu_memory_and_versions() -> None:
    about = machine()
    assert about["cores"] >= 1
    assert about["ram_gib"] > 0
    assert about["cpu"]
    assert about["python"].count(".") == 2
    assert about["libraries"]["lxml"][0].isdigit()
    assert about["libraries"]["trafilatura"] == "2.3.1"
    assert len(about["load_average"]) == 3
    assert about["commit"] != ""


def test_write_json_turns_nan_into_null(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "results.json"
    write_json({"a": math.nan, "b": [1.5, math.inf], "c": {"d": (2, math.nan)}}, path)
    assert json.loads(path.read_text()) == {"a": None, "b": [1.5, None], "c": {"d": [2, None]}}
