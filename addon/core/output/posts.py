"""A thread's posts set apart: a rule between each post and the next.

A thread's posts follow one another in the view as paragraphs; where the page
shows no name over each post (Stack Exchange's answers sign at their foot), a
reader, and a screen reader, could not tell where one answer ends and the next
begins. The posts are a series of siblings of one tag and first class name.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from addon.core.dom import text_length
from addon.core.output.tags import Element


def part_posts(
    roots: Iterable[Element],
    drop: Collection[Element],
    *,
    min_posts: int = 2,
    min_chars: int = 20,
    min_share: float = 0.5,
) -> None:
    """Set a rule before each post of a thread's series of posts but the first."""
    # The series: the most siblings of one tag (`_POST_TAGS`) and first class name that
    # hold `min_chars` of text each, `min_posts` of them or more (wcxb-dev 0566's 14
    # answers, `div.answer`; XenForo's `article.message`), together holding
    # `min_share` of the text or more.
    for root in roots:
        series = _post_series(root, drop, min_chars=min_chars)
        # The posts hold most of the thread: two boxes inside one post (NodeBB's posts
        # are list items, each holding a header box and a body box) are no series.
        held = sum(text_length(post) for post in series)
        if len(series) < min_posts or held < min_share * text_length(root):
            continue
        for post in series[1:]:
            post.addprevious(post.makeelement("hr"))


def _post_series(root: Element, drop: Collection[Element], *, min_chars: int) -> list[Element]:
    """Return the longest run of sibling posts of one tag and first class name under root."""
    best: list[Element] = []
    for parent in root.iter(*_POST_TAGS):
        groups: dict[tuple[str, str], list[Element]] = {}
        for child in parent:
            key = _post_key(child)
            if key is not None and child not in drop:
                groups.setdefault(key, []).append(child)
        for group in groups.values():
            if len(group) > len(best):
                posts = [post for post in group if text_length(post) >= min_chars]
                best = posts if len(posts) > len(best) else best
    return best


def _post_key(element: Element) -> tuple[str, str] | None:
    """Return a possible post's tag and first class name, or None for no post."""
    tag = element.tag
    if tag not in _POST_TAGS:
        return None
    names = (element.get("class") or "").split()
    return (str(tag), names[0]) if names else None


# The elements a post is: not a list item, a row or a paragraph (a list's items are
# one list, a table's rows one table).
_POST_TAGS = ("div", "article", "section")
