"""Tests for addon.core.output.posts."""

from __future__ import annotations

import lxml.html

from addon.core.heuristics.parse import parse
from addon.core.output.posts import part_posts

POST = "A reply long enough to be a post of its own in the thread."


def _parted(body: str, drop: tuple[str, ...] = ()) -> str:
    """Part the posts of a page's body and return it serialised."""
    root = parse(f"<body>{body}</body>")
    assert root is not None
    left_out = [element for element in root.iter() if element.get("id") in drop]
    part_posts([root], left_out)
    return lxml.html.tostring(root.find("body"), encoding="unicode")


def test_a_rule_parts_each_post_from_the_one_before() -> None:
    # Stack Exchange's answers (wcxb-dev 0566): one tag, one first class name, the
    # accepted answer's class longer.
    body = (
        '<div id="answers"><h2>3 Answers</h2>'
        f'<div class="answer accepted-answer"><p>{POST}</p></div>'
        f'<div class="answer"><p>{POST}</p></div>'
        f'<div class="answer"><p>{POST}</p></div></div>'
    )
    parted = _parted(body)
    assert parted.count("<hr>") == 2
    first = f'<div class="answer accepted-answer"><p>{POST}</p></div>'
    assert f"<h2>3 Answers</h2>{first}<hr>" in parted


def test_no_rule_without_a_series_that_holds_the_thread() -> None:
    # One post; posts without a class; two boxes inside one post holding little of
    # the thread (NodeBB's header and body boxes in a list item); a post left out.
    long = POST * 10
    for body in (
        f'<div class="post"><p>{POST}</p></div>',
        f"<div><p>{POST}</p></div><div><p>{POST}</p></div>",
        f'<ul><li><div class="box">{POST}</div><div class="box">{POST}</div>{long}</li></ul>',
        f'<div class="post"><p>{POST}</p></div><div class="post" id="gone"><p>{POST}</p></div>',
    ):
        assert "<hr>" not in _parted(body, drop=("gone",)), body
