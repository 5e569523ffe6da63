"""Furniture in the output.

A late heading or label that ends the content, repeated blocks, stray rules.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import urlsplit

from addon.core.heuristics.metadata import collapse
from addon.core.output.tags import HEADINGS, tag_set
from addon.core.result import Block

# A heading's words for the furniture test: punctuation, arrows and emoji drop out.
_TOKEN_RE = re.compile(r"\w+")


def furniture_pattern(headings: str) -> re.Pattern[str]:
    """Compile the furniture heading vocabulary, to match a heading's words whole."""
    return re.compile(f"(?:{headings})")


def heading_names_furniture(text: str, pattern: re.Pattern[str]) -> bool:
    """Tell whether a heading's words, lowered, are wholly a furniture heading's."""
    # Lowered before the words are cut: lowering may split a word in two.
    return pattern.fullmatch(" ".join(_TOKEN_RE.findall(text.lower()))) is not None


def cut_furniture_tail(
    blocks: Sequence[Block],
    pattern: re.Pattern[str],
    *,
    min_position: float = 0.4,
    max_label_words: int = 0,
    resume_chars: int = 0,
    box: re.Pattern[str] | None = None,
    min_label_repeats: int = 0,
    outranked: bool = False,
    tag_lines: re.Pattern[str] | None = None,
    max_tag_chars: int = 0,
) -> tuple[Block, ...]:
    """End the content at a furniture heading that stands late in it; a box the article goes
    on after goes alone."""
    # Related links, comments, share bars and author bios follow the article
    # under headings like these; the same words early on may title a box inside
    # the article, so only a heading with enough text before it ends the content.
    # A paragraph of `resume_chars` or more after a heading that `box` matches
    # ("Related") is the article going on past a box set inside it: the box goes,
    # up to there. Comments and an author's bio, long as they are, end it.
    # A label the article gave `min_label_repeats` of its sections before
    # ("Recommended courses:" over each school's list in a guide to courses) is no
    # furniture's title; a share bar's stands twice, atop the article and below it,
    # and a teaser's ("Related questions", "Subscribe: ...") stands in the teasers
    # after the article, however often. With `outranked`, a furniture heading that a
    # heading of higher rank closes, prose of `resume_chars` right under that one,
    # titled a box inside a section ("More posts related to Tokyo" in a travel
    # guide's day): the box goes, the guide goes on. A paragraph of up to
    # `max_tag_chars` that `tag_lines` opens ("Filed under: Japan, Travel Guides")
    # names furniture too: the tag line under a post, a label too long for one.
    total = sum(len(block.text) for block in blocks)
    before = 0
    labels: Counter[str] = Counter()
    for index, block in enumerate(blocks):
        if (
            before >= min_position * total
            and (
                _names_furniture(block, pattern, max_label_words)
                or _tag_line(block, tag_lines, max_tag_chars)
            )
            and not _own_label(block, labels, min_label_repeats)
        ):
            boxed = box is not None and _names_furniture(block, box, max_label_words)
            resumes = _resumes(blocks, index, resume_chars) if boxed and resume_chars else None
            if resumes is None and outranked and resume_chars:
                resumes = _outranked(blocks, index, resume_chars)
            if resumes is None:
                return tuple(blocks[:index])
            rest = cut_furniture_tail(
                blocks[resumes:],
                pattern,
                min_position=0.0,
                max_label_words=max_label_words,
                resume_chars=resume_chars,
                box=box,
                min_label_repeats=min_label_repeats,
                outranked=outranked,
                tag_lines=tag_lines,
                max_tag_chars=max_tag_chars,
            )
            return (*blocks[:index], *rest)
        before += len(block.text)
        if min_label_repeats:
            labels[_label_key(block)] += 1
    return tuple(blocks)


def _own_label(block: Block, labels: Counter[str], min_repeats: int) -> bool:
    """Tell whether a block is a label the content held at least `min_repeats` times before."""
    key = _label_key(block)
    return bool(min_repeats and key) and labels[key] >= min_repeats


def _label_key(block: Block, *, max_chars: int = 80) -> str:
    """Return a heading's or short paragraph's words, lowered, as a label is compared; ""
    for other blocks."""
    if len(block.text) > max_chars or (block.kind not in HEADINGS and block.kind != "p"):
        return ""
    return " ".join(_TOKEN_RE.findall(block.text.lower()))


def _resumes(blocks: Sequence[Block], heading: int, min_chars: int) -> int | None:
    """Return where the article's prose goes on after a furniture heading, or None: at the
    headings right above it, which title its section ("5. Snapchat")."""
    prose = next(
        (
            index
            for index in range(heading + 1, len(blocks))
            if blocks[index].kind == "p"
            and len(blocks[index].text) >= min_chars
            and not _is_excerpt(blocks[index].text)
        ),
        None,
    )
    if prose is None:
        return None
    while prose - 1 > heading and blocks[prose - 1].kind in HEADINGS:
        prose -= 1
    return prose


def _is_excerpt(text: str) -> bool:
    """Tell whether a paragraph is a teaser's excerpt: cut off with an ellipsis."""
    # A related post's excerpt runs to 200 characters and more ("... biased against
    # devs…", readability-even wordpress), but it stops mid-sentence: the article's
    # prose going on past a box ends as a sentence does.
    return text.rstrip().endswith(_ELLIPSES)


_ELLIPSES = ("…", "...", "[…]", "[...]")


def _outranked(blocks: Sequence[Block], heading: int, min_chars: int) -> int | None:
    """Return the heading of higher rank that closes a furniture heading's section, when a
    paragraph of `min_chars` or more stands right under it (past its subheadings), or None."""
    rank = blocks[heading].kind
    if rank not in HEADINGS:
        return None
    closing = next(
        (
            index
            for index in range(heading + 1, len(blocks))
            if blocks[index].kind in HEADINGS and blocks[index].kind < rank  # "h2" < "h3"
        ),
        None,
    )
    if closing is None:
        return None
    after = closing
    while after < len(blocks) and blocks[after].kind in HEADINGS:
        after += 1
    if after < len(blocks) and blocks[after].kind == "p" and len(blocks[after].text) >= min_chars:
        return closing
    return None


def _tag_line(block: Block, tag_lines: re.Pattern[str] | None, max_chars: int) -> bool:
    """Tell whether a paragraph is a post's tag line: a taxonomy label and its values."""
    return (
        tag_lines is not None
        and block.kind == "p"
        and len(block.text) <= max_chars
        and tag_lines.match(block.text.lower()) is not None
    )


def _names_furniture(block: Block, pattern: re.Pattern[str], max_label_words: int) -> bool:
    """Tell whether a heading, or a short label paragraph, names page furniture."""
    if block.kind not in HEADINGS and block.kind != "p":
        return False
    if block.kind != "p":
        return heading_names_furniture(block.text, pattern)
    # Many sites style a furniture title ("Related articles", "Was this page
    # helpful?") as a bold paragraph; a one-word one ("Share", "Tags") is more
    # often a button inside a post, so a label needs two words or more. Lowering
    # never joins two words (true of every character, tests/core/output/test_furniture.py),
    # so a paragraph with more words than a label's is ruled out unlowered, by one
    # match that stops at the word after a label's last.
    if _words_beyond(max_label_words).match(block.text):
        return False
    words = _TOKEN_RE.findall(block.text.lower())[: max_label_words + 1]
    if not 2 <= len(words) <= max_label_words:
        return False
    return pattern.fullmatch(" ".join(words)) is not None


def _words_beyond(count: int) -> re.Pattern[str]:
    """Compile the pattern that matches the start of a text with more than `count` words."""
    # Possessive: each run of word or other characters is taken whole, never retried.
    return re.compile(rf"\W*+(?:\w++\W*+){{{count + 1}}}")


def drop_repeated_blocks(
    blocks: Sequence[Block], *, min_chars: int = 20, min_run: int = 2
) -> tuple[Block, ...]:
    """Leave out a run of blocks that repeats an earlier run block for block: a section served
    twice."""
    # Pages serve one section twice (a mobile and a desktop copy, a tab and its
    # accordion twin) and clone carousels for their scrolling; a reader reads it
    # once. One block repeated alone is the article's own: a heading over every
    # product ("Specs"), a poem's refrain, a line quoted again. So only a run of
    # `min_run` blocks or more that repeats an earlier run, with `min_chars` of
    # text, goes. Code is never part of a run: documentation repeats an example.
    keys = [_repeat_key(block) for block in blocks]
    earlier: dict[str, list[int]] = {}
    kept: list[Block] = []
    index = 0
    while index < len(blocks):
        sources = earlier.get(keys[index])
        run = _repeated_run(keys, index, sources) if sources else 0
        if (
            run >= min_run
            and sum(len(block.text) for block in blocks[index : index + run]) >= min_chars
        ):
            index += run
            continue
        if keys[index]:
            earlier.setdefault(keys[index], []).append(index)
        kept.append(blocks[index])
        index += 1
    return tuple(kept)


def drop_lone_labels(blocks: Sequence[Block], pattern: re.Pattern[str]) -> tuple[Block, ...]:
    """Leave out the headings and paragraphs that are a label alone, its widget gone: a share
    bar's ("Share this story"), an advertisement's ("Advertisement", "Anzeige")."""
    # Left where they stood, not ending the content: a thread repeats "Share" under
    # every post, a story's bar stands above its first paragraph (readability-even
    # theverge's h2 "Share this story"); an ad slot's label stands between two
    # paragraphs or closes the story (nytimes-3, heise). No wcxb-dev reference holds
    # such a line.
    return tuple(
        block
        for block in blocks
        if not (
            (block.kind == "p" or block.kind in HEADINGS)
            and len(block.text) <= _MAX_LABEL_CHARS
            and pattern.fullmatch(" ".join(_TOKEN_RE.findall(block.text.lower()))) is not None
        )
    )


def drop_closing_headings(blocks: Sequence[Block], *, max_words: int = 12) -> Sequence[Block]:
    """Leave out the short headings the article ends with: with nothing under them, they
    title nothing (a teaser strip's "Read More Stories About:", its links gone)."""
    # A longer one is a paragraph set as a heading: wcxb-dev 0344's closing "Sources:
    # Smartphone Basics Explained ..." (an h-element of 30 words) is the article's.
    end = len(blocks)
    while end and _short_heading(blocks[end - 1], max_words):
        end -= 1
    # An article of headings alone keeps them: they are all it has.
    return blocks[:end] if end else blocks


def _short_heading(block: Block, max_words: int) -> bool:
    """Tell whether a block is a heading of `max_words` words or fewer."""
    return block.kind in HEADINGS and len(block.text.split()) <= max_words


# Longer than any share label: the text is not even lowered and cut into words.
_MAX_LABEL_CHARS = 40


def drop_twin_figures(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Leave out a figure that repeats the one right before it: the same image files under
    the same caption, a photo served at two sizes."""
    # Pages serve a lead photo twice, a square crop and a wide one, and let the
    # style sheet show one (readability-even theverge: DSC00889.jpg at 2400x2400
    # and 2400x1600, both captioned "The Apple Vision Pro."). Only a captioned
    # figure: a row of the same icon (rating stars, badges) is the page's own.
    kept: list[Block] = []
    before: tuple[str, tuple[str, ...]] | None = None
    for block in blocks:
        key = _figure_key(block)
        if key is None or key != before:
            kept.append(block)
        before = key
    return tuple(kept)


def _figure_key(block: Block) -> tuple[str, tuple[str, ...]] | None:
    """Return a captioned figure's caption and image file names; None for other blocks."""
    if block.kind != "figure" or not block.text.strip():
        return None
    names = tuple(
        urlsplit(src).path.rpartition("/")[2] for src in _IMAGE_SRC_RE.findall(block.html)
    )
    return (block.text, names) if names else None


# An image's src in a block's HTML, as the output stage serialises it.
_IMAGE_SRC_RE = re.compile(r'<img src="([^"]*)"')


def _repeat_key(block: Block) -> str:
    """Return what a block is compared by: its kind and text, its markup when textless; "" for
    code, which never repeats as furniture."""
    if block.kind == "pre":
        return ""
    # Compared as one line: a section's mobile twin breaks its lines elsewhere.
    # Built blocks hold lines of single spaces (block_texts): collapsing those
    # again would cost 2% of extraction.
    text = block.text.replace("\n", " ")
    if "  " in text:
        text = collapse(text)
    return f"{block.kind} {text}" if text else block.html


def _repeated_run(keys: Sequence[str], start: int, sources: Sequence[int]) -> int:
    """Return how many blocks from `start` on repeat, key for key, the blocks after one of the
    earlier places `sources`, each earlier run ending before `start`."""
    longest = 0
    for source in sources:
        length = 0
        while (
            source + length < start
            and start + length < len(keys)
            and keys[start + length]
            and keys[start + length] == keys[source + length]
        ):
            length += 1
        longest = max(longest, length)
    return longest


def drop_date_lines(
    blocks: Sequence[Block],
    *,
    dated: bool,
    byline: str | None = None,
    max_chars: int = 80,
    prose_chars: int = 150,
    max_lead: int = 4,
) -> tuple[Block, ...]:
    """Leave out the short date, "updated" and reading-time lines that open the article,
    which the reader page's byline row shows."""
    # The byline row shows the reading time always and the date when the page's
    # metadata gives one (`dated`). Among the first `max_lead` blocks, before the
    # first paragraph of `prose_chars`, a line of up to `max_chars` that says only
    # that goes; later ones are the content's own (a thread's post dates).
    kept: list[Block] = []
    for index, block in enumerate(blocks):
        if index >= max_lead or (block.kind == "p" and len(block.text) >= prose_chars):
            return (*kept, *blocks[index:])
        if len(block.text) > max_chars or not _says_only(block.text, dated=dated, byline=byline):
            kept.append(block)
    return tuple(kept)


def _says_only(text: str, *, dated: bool, byline: str | None = None) -> bool:
    """Tell whether a line says only when (if `dated`), by whom (the `byline`) or how long to
    read, in English."""
    words = _TOKEN_RE.findall(text.lower())
    # A byline's lead word with its name left out as a link line (readability-even
    # cnet-svg-classes' "por", wcxb-dev's "By", "Written by"): it says nothing alone.
    if words and set(words) <= _BY_WORDS:
        return True
    # The author's name alone ("Mark Di Stefano", "By Ann Lee"), as the row names them.
    if byline and [word for word in words if word != "by"] == _TOKEN_RE.findall(byline.lower()):
        return True
    reading = "read" in words and any(word.startswith("min") for word in words)
    # A bare date may open a post (a thread's first one): a stamped one goes, or
    # one beside the byline's name.
    named = bool(byline) and str(byline).lower() in text.lower()
    dating = dated and any(
        word in _STAMPS or (named and (word in _DATE_WORDS or _NUMBER.fullmatch(word)))
        for word in words
    )
    if not (reading or dating):
        return False
    # Besides those words, a name at most ("by Ann Lee | May 2, 2025").
    rest = [word for word in words if word not in _LINE_WORDS and not _NUMBER.fullmatch(word)]
    return len(rest) <= 2


_MONTHS = (
    "january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec"
)
_STAMPS = tag_set("updated published posted")
_DATE_WORDS = tag_set(_MONTHS) | _STAMPS
_LINE_WORDS = _DATE_WORDS | tag_set(
    "last on at by and min mins minute minutes read reading time am pm"
    " monday tuesday wednesday thursday friday saturday sunday"
)
# The words that lead a byline, in the languages of the reference pages and their
# neighbours: "by", "written by", "por", "von", "par", "di", "door", "av", "af", "przez".
_BY_WORDS = tag_set("by written posted author authors por von par di door av af przez")
# A number, or an ordinal ("26th").
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th)?")


def trim_rules(blocks: list[Block]) -> tuple[Block, ...]:
    """Drop rules at the ends and repeated rules: they separate nothing."""
    kept: list[Block] = []
    for block in blocks:
        if block.kind == "hr" and (not kept or kept[-1].kind == "hr"):
            continue
        kept.append(block)
    while kept and kept[-1].kind == "hr":
        kept.pop()
    return tuple(kept)
