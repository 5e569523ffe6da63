"""CombinE's pipelines written as text: the spec grammar, read into frozen dataclasses.

Gottron, "Combining content extraction heuristics: the CombinE system" (iiWAS 2008)
combines content extraction filters serially (each filter reads the one before's
output) and in parallel (each reads the page; their outputs are intersected, merged,
or voted on). A pipeline is written

    pipeline    := algorithm | combination "(" pipeline { "," pipeline } ")"
    combination := "serial" | "parallel-and" | "parallel-or" | "vote" K

where `algorithm` is a name registered in `addon/core/params.py` (`ALGORITHMS`),
`parallel-and` intersects, `parallel-or` merges (union), and `voteK` keeps what at
least K of its filters keep (1 <= K <= the number of its filters). Whitespace between
the parts is ignored. Examples: `serial(addanag-plus,r2l)`, `parallel-and(danag,dana)`,
`vote2(addanag-plus,danag,dana)`, `serial(danag,parallel-or(dana,r2l))`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from addon.core.params import ALGORITHMS

# Nesting deeper than this is refused: the reader and the runner recurse once per
# level, and no useful pipeline nests more than a few.
MAX_DEPTH = 16

Merge = Literal["intersection", "union"]


@dataclass(frozen=True, slots=True)
class Single:
    """One registered algorithm: a filter of its own."""

    algorithm: str


@dataclass(frozen=True, slots=True)
class Serial:
    """Filters in a row: each one's article is the next one's page."""

    filters: tuple[Pipeline, ...]


@dataclass(frozen=True, slots=True)
class Parallel:
    """Filters side by side on the page: the blocks all keep, or the blocks any keeps."""

    merge: Merge
    filters: tuple[Pipeline, ...]


@dataclass(frozen=True, slots=True)
class Vote:
    """Filters side by side on the page: the blocks at least `k` of them keep."""

    k: int
    filters: tuple[Pipeline, ...]


Pipeline = Single | Serial | Parallel | Vote


@dataclass(frozen=True, slots=True)
class SpecError:
    """Why a pipeline spec cannot be read."""

    message: str


# The spec's words of the two parallel merges.
PARALLEL_WORDS: dict[str, Merge] = {"parallel-and": "intersection", "parallel-or": "union"}
_MERGE_WORDS = {merge: word for word, merge in PARALLEL_WORDS.items()}
_TOKEN = re.compile(r"\s*(?:([A-Za-z0-9][A-Za-z0-9._+-]*)|([(),])|(\S))")
_VOTE = re.compile(r"vote([0-9]+)")
# A k of more digits is larger than any pipeline (and int() refuses thousands of digits).
_MAX_K_DIGITS = 9


@dataclass(frozen=True, slots=True)
class _Token:
    """A name or a mark of the spec, and where it starts (for the messages)."""

    text: str
    at: int


@dataclass(frozen=True, slots=True)
class _Parsed:
    """A pipeline read from the tokens, and the index of the token after it."""

    pipeline: Pipeline
    end: int


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the reader knows throughout: the tokens, the algorithms' names, the depth limit."""

    tokens: Sequence[_Token]
    algorithms: Collection[str]
    max_depth: int

    def token(self, index: int) -> _Token:
        """Return the token at `index`, or a token that names the spec's end."""
        if index < len(self.tokens):
            return self.tokens[index]
        return _Token("", self.tokens[-1].at + len(self.tokens[-1].text) if self.tokens else 0)


def parse_pipeline(
    text: str, *, algorithms: Collection[str] = ALGORITHMS, max_depth: int = MAX_DEPTH
) -> Pipeline | SpecError:
    """Read a pipeline spec, or say what is wrong with it (CombinE, Gottron 2008)."""
    tokens = tokenize(text)
    if isinstance(tokens, SpecError):
        return tokens
    if not tokens:
        return SpecError("empty pipeline spec")
    if problem := unbalanced(tokens):
        return SpecError(problem)
    reading = _Reading(tokens, algorithms, max_depth)
    parsed = _pipeline_at(reading, 0, depth=0)
    if isinstance(parsed, SpecError):
        return parsed
    if parsed.end < len(tokens):
        extra = tokens[parsed.end]
        return SpecError(f"unexpected {extra.text!r} at {extra.at} after the pipeline")
    return parsed.pipeline


def tokenize(text: str) -> list[_Token] | SpecError:
    """Split a spec into names and the marks ( ) , ; a character of neither is an error."""
    tokens = []
    for match in _TOKEN.finditer(text):
        name, mark, bad = match.groups()
        if bad is not None:
            return SpecError(f"unexpected character {bad!r} at {match.start(3)}")
        if name is not None or mark is not None:
            tokens.append(_Token(name or mark, match.start(1 if name is not None else 2)))
    return tokens


def unbalanced(tokens: Sequence[_Token]) -> str:
    """Say which parenthesis has no partner ("" when they pair up)."""
    opened: list[_Token] = []
    for token in tokens:
        if token.text == "(":
            opened.append(token)
        elif token.text == ")" and not opened:
            return f"unbalanced parentheses: ')' at {token.at} closes nothing"
        elif token.text == ")":
            opened.pop()
    if opened:
        return f"unbalanced parentheses: '(' at {opened[-1].at} is never closed"
    return ""


def _pipeline_at(reading: _Reading, index: int, *, depth: int) -> _Parsed | SpecError:
    """Read the pipeline that starts at token `index`: an algorithm or a combination."""
    token = reading.token(index)
    if token.text in ("", "(", ")", ","):
        found = repr(token.text) if token.text else "the end"
        return SpecError(f"expected an algorithm or a combination at {token.at}, found {found}")
    if reading.token(index + 1).text != "(":
        if token.text not in reading.algorithms:
            known = ", ".join(sorted(reading.algorithms))
            return SpecError(f"unknown algorithm {token.text!r} (known: {known})")
        return _Parsed(Single(token.text), index + 1)
    if depth >= reading.max_depth:
        return SpecError(f"pipeline nested deeper than {reading.max_depth} levels")
    parts = _filters_at(reading, index + 2, depth=depth + 1)
    if isinstance(parts, SpecError):
        return parts
    filters, end = parts
    combined = combination(token.text, filters)
    return combined if isinstance(combined, SpecError) else _Parsed(combined, end)


def _filters_at(
    reading: _Reading, index: int, *, depth: int
) -> tuple[tuple[Pipeline, ...], int] | SpecError:
    """Read the comma-separated filters after an opening parenthesis, and the closing one."""
    if reading.token(index).text == ")":
        return SpecError(f"no filter between the parentheses at {reading.token(index).at}")
    filters: list[Pipeline] = []
    while True:
        parsed = _pipeline_at(reading, index, depth=depth)
        if isinstance(parsed, SpecError):
            return parsed
        filters.append(parsed.pipeline)
        after = reading.token(parsed.end)
        if after.text == ")":
            return tuple(filters), parsed.end + 1
        if after.text != ",":
            found = repr(after.text) if after.text else "the end"
            return SpecError(f"expected ',' or ')' at {after.at}, found {found}")
        index = parsed.end + 1


def combination(word: str, filters: tuple[Pipeline, ...]) -> Pipeline | SpecError:
    """Build the combination a word names over its filters, or say why it cannot be."""
    if word == "serial":
        return Serial(filters)
    if word in PARALLEL_WORDS:
        return Parallel(PARALLEL_WORDS[word], filters)
    vote = _VOTE.fullmatch(word)
    if vote is None:
        return SpecError(
            f"unknown combination {word!r} (known: serial, parallel-and, parallel-or, voteK)"
        )
    digits = vote.group(1)
    k = int(digits) if len(digits) <= _MAX_K_DIGITS else 10**_MAX_K_DIGITS
    if k < 1:
        return SpecError(f"{word}: K must be 1 or more")
    if k > len(filters):
        return SpecError(f"{word} needs at least {digits} filters, has {len(filters)}")
    return Vote(k, filters)


def spec_text(pipeline: Pipeline) -> str:
    """Write a pipeline as its spec, without spaces (the name of its eval row)."""
    match pipeline:
        case Single(algorithm):
            return algorithm
        case Serial(filters):
            return f"serial({_joined(filters)})"
        case Parallel(merge, filters):
            return f"{_MERGE_WORDS[merge]}({_joined(filters)})"
        case Vote(k, filters):
            return f"vote{k}({_joined(filters)})"


def _joined(filters: Sequence[Pipeline]) -> str:
    """Write filters as specs separated by commas."""
    return ",".join(spec_text(each) for each in filters)
