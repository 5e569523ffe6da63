"""Tests for addon.core.params: the papers' values, the named variants and their lookup."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from addon.core.params import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    PAPER,
    BlockExtractorParams,
    DanagParams,
    ExtractParams,
    TitleParams,
    params_for,
)


def test_the_defaults_are_the_papers_values() -> None:
    danag = DanagParams()
    assert danag.filter == 3  # §4.6.1: AdDANAg's placeholder filter
    assert danag.placeholder_offset == 7  # the thesis's LT-7
    assert danag.gap == 20  # Algorithm 1
    assert danag.smoothing == "4.2"
    assert danag.max_attribute_chars is None  # a tag's whole source is code
    assert danag.gap_in_text_lines is False
    assert TitleParams().method == "tf"  # §5.3: TF cosine, the paper's best


def test_every_variant_is_named_by_its_own_key() -> None:
    assert ALGORITHMS, "no variants"
    for name, params in ALGORITHMS.items():
        assert params.algorithm == name
        assert params_for(name) is params


def test_the_paper_variants_differ_from_the_paper_only_in_their_step() -> None:
    assert params_for("addanag-paper") is PAPER
    assert params_for("danag").danag == DanagParams(filter=0)
    assert params_for("danag-filter1").danag == DanagParams(filter=1)
    assert params_for("danag-filter2").danag == DanagParams(filter=2)
    assert params_for("dana").danag == DanagParams(filter=0, counting="r2l")
    assert params_for("r2l").danag == DanagParams(filter=0, counting="r2l", use_regions=False)
    for name in ("danag", "danag-filter1", "danag-filter2", "dana", "r2l"):
        params = params_for(name)
        assert (params.title, params.extend) == (PAPER.title, PAPER.extend), name


def test_the_default_variant_is_addanag_plus_and_keeps_the_papers_filter() -> None:
    params = params_for()
    assert DEFAULT_ALGORITHM == "addanag-plus" == params.algorithm
    assert params.danag.filter == 3 and params.danag.gap == 80 and params.danag.gap_in_text_lines


def test_an_unknown_variant_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        params_for("addanag-pluss")


def test_parameters_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PAPER.danag.gap = 5  # type: ignore[misc]
    assert isinstance(params_for(), ExtractParams)


def test_blockextractor_is_the_papers_with_and_without_step_3() -> None:
    paper = BlockExtractorParams()
    assert paper.threshold == 1.5  # Algorithm 2
    assert paper.remove_redundant  # Step 3, when the site's pages are given
    plain, redundancy = params_for("blockextractor"), params_for("blockextractor+redundancy")
    assert plain.blockextractor == replace(paper, remove_redundant=False)
    assert redundancy.blockextractor == paper
    # No preprocessing of ours: the extensions are all off, as in the paper's variants.
    assert plain.extend == redundancy.extend == PAPER.extend
    assert all(params.blockextractor is None for name, params in ALGORITHMS.items()
               if not name.startswith("blockextractor"))  # fmt: skip
