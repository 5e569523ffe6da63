"""Tests for plainview_dev.bench.extraction, with the smoke run of the extraction benchmark."""

from __future__ import annotations

import pytest
from plainview_dev.bench import extraction
from plainview_dev.bench.common import DEFAULT_DATASET, BenchPage, load_pages

from addon.core import Article, Skip

STAGE_NAMES = [*extraction.STAGES, "render", "other"]


@pytest.fixture(scope="module")
def pages() -> list[BenchPage]:
    """Return three pages spread over the dataset."""
    return load_pages(DEFAULT_DATASET, 3)


def test_contenders_all_or_named_in_fixed_order() -> None:
    assert [c.name for c in extraction.contenders()] == list(extraction.CONTENDERS)
    named = extraction.contenders(["lxml-parse", "plainview"])
    assert [c.name for c in named] == ["plainview", "lxml-parse"]
    assert named[0].label == "plainview (addanag-plus)"
    with pytest.raises(ValueError, match="unknown contender nope"):
        extraction.contenders(["nope"])


def test_every_contender_handles_a_page(pages: list[BenchPage]) -> None:
    for contender in extraction.contenders():
        assert contender.run(pages[0]) is not None, contender.name


def test_the_remembering_contender_learns_each_page_and_holds_the_latest(
    pages: list[BenchPage],
) -> None:
    remembering = extraction.Remembering(pages=2)
    results = [remembering.run(page) for page in [*pages, pages[0]]]
    learned = [r.fingerprints for r in results if isinstance(r, Article)]
    assert len(learned) >= 3 and all(learned)
    assert remembering.learned == learned[-2:]


def test_a_contender_that_raises_is_timed_and_counted() -> None:
    def broken(page: BenchPage) -> object:
        raise RuntimeError(page.file_id)

    took, result, failed = extraction._timed(
        extraction.Contender("broken", "broken", broken), BenchPage("1", "http://x/", b"")
    )
    assert failed and result is None and took >= 0


def test_profile_counts_skipped_pages_and_times_render(pages: list[BenchPage]) -> None:
    profile = extraction.Profile()
    profile.add(Skip("no main content found"), 1.0, "http://x/")
    plainview = extraction.contenders(["plainview"])[0]
    profile.add(plainview.run(pages[0]), 5.0, pages[0].url)
    assert profile.skipped == 1
    assert profile.extract == [5.0]
    assert len(profile.render) == 1 and profile.render[0] > 0
    assert all(len(values) == 1 for values in profile.stages.values())


def test_smoke_run_every_contender_once(pages: list[BenchPage]) -> None:
    results = extraction.run(pages, rounds=1)
    assert results["benchmark"] == "extraction"
    assert results["pages"] == 3 and results["rounds"] == 1
    assert results["bytes"] == sum(len(page.body) for page in pages)
    names = [c["name"] for c in results["contenders"]]
    assert names == list(extraction.CONTENDERS)
    for contender in results["contenders"]:
        assert contender["mb_per_s"] > 0, contender
        assert len(contender["mb_per_s_rounds"]) == 1
        assert 0 < contender["median_ms"] <= contender["p99_ms"]
        assert contender["errors"] == 0
    assert set(results["ratios"]) == set(extraction.CONTENDERS) - {"plainview"}
    assert all(ratio > 0 for ratio in results["ratios"].values())
    profile = results["profile"]
    assert profile["articles"] + profile["skipped"] == 3
    assert [stage["stage"] for stage in profile["stages"]] == STAGE_NAMES
    assert sum(stage["share"] for stage in profile["stages"]) == pytest.approx(1.0)
    assert all(stage["total_ms"] >= 0 for stage in profile["stages"])
    verdicts = extraction.targets(results)
    assert [target.name for target in verdicts] == [
        "extraction throughput",
        "speed vs trafilatura",
    ]


def test_run_without_plainview_has_no_ratios_or_profile(pages: list[BenchPage]) -> None:
    results = extraction.run(pages[:1], rounds=2, only=["lxml-parse"])
    assert results["ratios"] == {}
    assert results["profile"] is None
    assert len(results["contenders"][0]["mb_per_s_rounds"]) == 2
    assert extraction.targets(results) == []
