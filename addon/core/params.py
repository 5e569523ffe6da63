"""One frozen `Params` dataclass per algorithm, and the named variants."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Filter = Literal[0, 1, 2, 3]
Smoothing = Literal["4.2", "4.6"]
Counting = Literal["danag", "r2l"]
TitleMethod = Literal["tf", "tfidf", "osm", "aggregate"]


@dataclass(frozen=True, slots=True)
class DanagParams:
    """Parameters of DANAg / AdDANAg (thesis §4.3-§4.6)."""

    # §4.6.1: 0 = none (DANAg), 1 = remove anchors, 2 = strip anchor
    # attributes, 3 = AdDANAg's placeholder of length LT - offset.
    filter: Filter = 3
    # §4.6.1 Filter 3: the thesis says LT-7; the 2012 paper says LT-5.
    placeholder_offset: int = 7
    # Algorithm 1: neighbouring regions at most `gap` lines away are added.
    gap: int = 20
    # paper: the gap counts every line; counting only text-bearing lines
    # makes the gap independent of empty wrapper lines (docs/evaluation.md).
    gap_in_text_lines: bool = False
    # Formula 4.2 smooths diff over lines i-1, i, i+1; Formula 4.6 does not.
    smoothing: Smoothing = "4.2"
    # §4.3 (DANAg): content = text characters, code = markup characters;
    # §4.4 (R2L/DANA): content = right-to-left script characters, code = ASCII.
    counting: Counting = "danag"
    # R2L (§4.4) keeps single lines whose content beats their code, with no
    # regions; DANA and DANAg grow regions (Algorithm 1).
    use_regions: bool = True


@dataclass(frozen=True, slots=True)
class TitleParams:
    """Parameters of TitleFinder (thesis §5.3)."""

    # §5.3: TF cosine was the paper's best measure.
    method: TitleMethod = "tf"
    # paper: every sentence of the page is a candidate; scoring whole
    # h1-h6 / headline-like blocks first avoids sentence splits at "U.S."
    # and "?" (docs/evaluation.md).
    prefer_headings: bool = False


@dataclass(frozen=True, slots=True)
class ExtendParams:
    """Plainview's extensions on top of AdDANAg; all off in the paper variant."""

    # Output the smallest DOM subtree enclosing the headline and the main region.
    enclose_headline: bool = False
    # Drop nav/aside/footer/header outside an <article>, form controls, svg, iframes.
    drop_chrome: bool = False
    # Drop lines whose text is mostly link text (share above this); 1.0 = off.
    max_link_share: float = 1.0


@dataclass(frozen=True, slots=True)
class ExtractParams:
    """Everything `extract` needs to know, with the named variant it came from."""

    algorithm: str = "addanag-plus"
    danag: DanagParams = field(default_factory=DanagParams)
    title: TitleParams = field(default_factory=TitleParams)
    extend: ExtendParams = field(default_factory=ExtendParams)
    # Pages above this many bytes are skipped (the proxy passes them through).
    max_bytes: int = 32 * 1024 * 1024
    # An article needs at least this many characters of main text to be kept.
    min_text_chars: int = 1


PAPER = ExtractParams(algorithm="addanag-paper")

ALGORITHMS: dict[str, ExtractParams] = {
    "addanag-paper": PAPER,
    "danag": replace(PAPER, algorithm="danag", danag=DanagParams(filter=0)),
    "dana": replace(PAPER, algorithm="dana", danag=DanagParams(filter=0, counting="r2l")),
    "r2l": replace(
        PAPER, algorithm="r2l", danag=DanagParams(filter=0, counting="r2l", use_regions=False)
    ),
    "addanag-plus": ExtractParams(
        algorithm="addanag-plus",
        danag=DanagParams(gap=80, gap_in_text_lines=True),
        title=TitleParams(prefer_headings=True),
        extend=ExtendParams(enclose_headline=True, drop_chrome=True, max_link_share=0.8),
    ),
}

DEFAULT_ALGORITHM = "addanag-plus"


def params_for(algorithm: str = DEFAULT_ALGORITHM) -> ExtractParams:
    """Return the parameters of a named variant; raise KeyError for an unknown name."""
    return ALGORITHMS[algorithm]
