"""The reader check: is this page one that a reader view serves well?"""

from __future__ import annotations

from collections.abc import Sequence

from addon.core.result import Block

# Blocks that carry running prose, as Readability's isProbablyReaderable counts them.
PROSE_KINDS = frozenset({"p", "pre", "blockquote", "li"})


def is_readerable(
    blocks: Sequence[Block],
    text: str,
    has_headline: bool,
    *,
    min_block_chars: int = 140,
    min_score: float = 20.0,
    min_text_chars: int = 500,
) -> bool:
    """Tell whether the content reads like an article (after Readability's check).

    Each prose block longer than `min_block_chars` adds sqrt(length -
    min_block_chars); the page is readerable when the sum passes `min_score`
    and the text is at least `min_text_chars` long.
    """
    if len(text) < min_text_chars:
        return False
    score = 0.0
    for block in blocks:
        if block.kind in PROSE_KINDS and len(block.text) > min_block_chars:
            score += (len(block.text) - min_block_chars) ** 0.5
            if score > min_score:
                return True
    return has_headline and score > min_score / 2
