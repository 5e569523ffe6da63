"""CombinE's pipeline specs: good ones read into dataclasses and written back, bad ones named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addon.core.paper.pipelines import (
    MAX_DEPTH,
    Parallel,
    Pipeline,
    Serial,
    Single,
    SpecError,
    Vote,
    parse_pipeline,
    spec_text,
)
from addon.core.params import ALGORITHMS

PLUS, DANAG, DANA, R2L = (Single(name) for name in ("addanag-plus", "danag", "dana", "r2l"))


@pytest.mark.parametrize(
    ("spec", "pipeline"),
    [
        ("addanag-plus", PLUS),
        ("serial(addanag-plus,r2l)", Serial((PLUS, R2L))),
        ("parallel-and(danag,dana)", Parallel("intersection", (DANAG, DANA))),
        ("parallel-or(danag,dana)", Parallel("union", (DANAG, DANA))),
        ("vote2(addanag-plus,danag,dana)", Vote(2, (PLUS, DANAG, DANA))),
        ("vote1(danag)", Vote(1, (DANAG,))),
        ("serial(danag)", Serial((DANAG,))),
        (
            "serial(addanag-plus,vote2(danag,dana,parallel-or(r2l,danag)))",
            Serial((PLUS, Vote(2, (DANAG, DANA, Parallel("union", (R2L, DANAG)))))),
        ),
    ],
)
def test_a_spec_reads_into_its_pipeline_and_is_written_back(spec: str, pipeline: Pipeline) -> None:
    assert parse_pipeline(spec) == pipeline
    assert spec_text(pipeline) == spec


def test_whitespace_between_the_parts_is_ignored() -> None:
    assert parse_pipeline("  vote2 ( danag ,\tdana , r2l )\n") == Vote(2, (DANAG, DANA, R2L))


def test_every_registered_algorithm_is_a_filter() -> None:
    # A newly registered algorithm needs no change here.
    for name in ALGORITHMS:
        assert parse_pipeline(f"serial({name},{name})") == Serial((Single(name), Single(name)))


def test_the_known_names_can_be_given() -> None:
    assert parse_pipeline("mine", algorithms={"mine"}) == Single("mine")
    assert parse_pipeline("danag", algorithms={"mine"}) == SpecError(
        "unknown algorithm 'danag' (known: mine)"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty pipeline spec"),
        ("   ", "empty pipeline spec"),
        ("nope", "unknown algorithm 'nope' (known: addanag-paper, addanag-plus, "),
        ("serial(danag,nope)", "unknown algorithm 'nope'"),
        ("serial", "unknown algorithm 'serial'"),
        ("vote3(danag,dana)", "vote3 needs at least 3 filters, has 2"),
        ("vote0(danag,dana)", "vote0: K must be 1 or more"),
        ("vote99999999999999999999(danag)", "vote99999999999999999999 needs at least 9999"),
        ("serial(danag", "unbalanced parentheses: '(' at 6 is never closed"),
        ("serial(danag))", "unbalanced parentheses: ')' at 13 closes nothing"),
        (")danag(", "unbalanced parentheses: ')' at 0 closes nothing"),
        ("serial()", "no filter between the parentheses at 7"),
        ("serial(danag,)", "expected an algorithm or a combination at 13, found ')'"),
        ("serial(,danag)", "expected an algorithm or a combination at 7, found ','"),
        ("serial(danag dana)", "expected ',' or ')' at 13, found 'dana'"),
        ("(danag)", "expected an algorithm or a combination at 0, found '('"),
        ("danag,dana", "unexpected ',' at 5 after the pipeline"),
        ("danag dana", "unexpected 'dana' at 6 after the pipeline"),
        ("serial(danag)(dana)", "unexpected '(' at 13 after the pipeline"),
        ("blend(danag,dana)", "unknown combination 'blend' (known: serial, parallel-and, "),
        ("danag;dana", "unexpected character ';' at 5"),
    ],
)
def test_a_bad_spec_is_named_not_raised(spec: str, message: str) -> None:
    error = parse_pipeline(spec)
    assert isinstance(error, SpecError)
    assert error.message.startswith(message)


def test_nesting_is_bounded() -> None:
    deep = "serial(" * MAX_DEPTH + "danag" + ")" * MAX_DEPTH
    assert isinstance(parse_pipeline(deep), Serial)
    deeper = "serial(" + deep + ")"
    assert parse_pipeline(deeper) == SpecError(
        f"pipeline nested deeper than {MAX_DEPTH} levels"
    )


@given(st.text(alphabet="(),- \tvoteserialparallndgr2l+1", max_size=40))
def test_any_text_reads_into_a_pipeline_or_an_error(spec: str) -> None:
    parsed = parse_pipeline(spec)
    assert isinstance(parsed, Single | Serial | Parallel | Vote | SpecError)
    if not isinstance(parsed, SpecError):
        assert parse_pipeline(spec_text(parsed)) == parsed
