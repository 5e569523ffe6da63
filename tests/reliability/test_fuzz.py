"""A short, fixed fuzz run: mutated pages through decode, extract and the reader view.

`scripts/fuzz SECONDS` runs the same fuzzer for as long as asked.
"""

from __future__ import annotations

import pytest
from plainview_dev import gates

SEED = 20240521
INPUTS = 1000


@pytest.fixture(scope="module")
def report() -> gates.FuzzReport:
    return gates.fuzz(gates.fuzz_seeds(), seed=SEED, max_inputs=INPUTS)


def test_no_mutated_page_breaks_decode_extract_or_render(report: gates.FuzzReport) -> None:
    assert report.tried == INPUTS
    assert report.failures == [], gates.format_fuzz_report(report)


def test_the_fuzz_run_reaches_the_reader_view(report: gates.FuzzReport) -> None:
    # Mutants that still read as articles exercise the sanitiser and the template too.
    assert report.articles >= INPUTS // 5
