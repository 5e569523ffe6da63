"""Zhang-Shasha tree edit distance: known distances, and a brute-force reference on small trees."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from addon.core.paper.tree_edit import (
    Tree,
    label_bound,
    postorder,
    postorder_of,
    tree_edit_distance,
)


def t(label: str, *children: Tree) -> Tree:
    return Tree(label, children)


# Zhang and Shasha's own example (SIAM J. Comput. 1989, Fig. 1): distance 2, as
# relabelling is not needed: delete c above b, insert c above d.
ZS_ONE = t("f", t("d", t("a"), t("c", t("b"))), t("e"))
ZS_TWO = t("f", t("c", t("d", t("a"), t("b"))), t("e"))


def test_the_papers_example_is_two_edits_apart() -> None:
    assert tree_edit_distance(ZS_ONE, ZS_TWO) == 2
    assert tree_edit_distance(ZS_TWO, ZS_ONE) == 2


def test_a_tree_is_no_edit_from_itself() -> None:
    assert tree_edit_distance(ZS_ONE, ZS_ONE) == 0


def test_one_relabel_one_insert_one_delete() -> None:
    assert tree_edit_distance(t("a"), t("b")) == 1
    assert tree_edit_distance(t("a"), t("a", t("b"))) == 1
    assert tree_edit_distance(t("a", t("b"), t("c")), t("a", t("c"))) == 1
    # Deleting an inner node hands its children to its parent: one edit.
    assert tree_edit_distance(t("a", t("b", t("c"), t("d"))), t("a", t("c"), t("d"))) == 1


def test_order_matters() -> None:
    # Swapping two leaves costs two relabels (or a delete and an insert).
    assert tree_edit_distance(t("r", t("x"), t("y")), t("r", t("y"), t("x"))) == 2


def test_postorder_numbers_labels_leftmost_leaves_and_keyroots() -> None:
    numbered = postorder(ZS_ONE)
    assert numbered.labels == ("a", "b", "c", "d", "e", "f")
    assert numbered.leftmost == (0, 1, 1, 0, 4, 0)
    # The root and every node with a left sibling: c (beside a), e (beside d), f.
    assert numbered.keyroots == (2, 4, 5)
    assert numbered.key() == postorder(t("f", t("d", t("a"), t("c", t("b"))), t("e"))).key()


def test_postorder_walks_trees_deeper_than_the_recursion_limit() -> None:
    deep = t("leaf")
    for _ in range(5000):
        deep = t("n", deep)
    numbered = postorder(deep)
    assert numbered.size == 5001 and set(numbered.leftmost) == {0}


def test_postorder_of_reads_any_node_type() -> None:
    nested = ("r", [("a", []), ("b", [("c", [])])])
    numbered = postorder_of(nested, lambda node: node[1], lambda node: node[0])
    assert numbered.labels == ("a", "c", "b", "r")


def test_the_label_bound_never_exceeds_the_distance() -> None:
    one, two = postorder(ZS_ONE), postorder(t("f", t("x"), t("y")))
    bound = label_bound(one, two, one.bag(), two.bag())
    assert bound == 5  # six nodes, one shared label (f)
    assert bound <= tree_edit_distance(one, two)


def _forest_distance(size: Callable[[tuple[Tree, ...]], int]) -> Callable[..., int]:
    """The textbook recursion over forests: delete, insert or match the right-most roots."""

    @cache
    def distance(one: tuple[Tree, ...], two: tuple[Tree, ...]) -> int:
        if not one or not two:
            return size(one) + size(two)
        v, w = one[-1], two[-1]
        return min(
            distance((*one[:-1], *v.children), two) + 1,
            distance(one, (*two[:-1], *w.children)) + 1,
            distance(v.children, w.children)
            + distance(one[:-1], two[:-1])
            + (v.label != w.label),
        )

    return distance


def _size(forest: tuple[Tree, ...]) -> int:
    return sum(1 + _size(tree.children) for tree in forest)


def _random_tree(rng: random.Random, nodes: int) -> Tree:
    if nodes == 1:
        return t(rng.choice("abc"))
    children: list[Tree] = []
    left = nodes - 1
    while left:
        take = rng.randint(1, left)
        children.append(_random_tree(rng, take))
        left -= take
    return t(rng.choice("abc"), *children)


def test_zhang_shasha_agrees_with_the_forest_recursion_on_random_trees() -> None:
    rng = random.Random(20120601)
    reference = _forest_distance(_size)
    for _ in range(300):
        one = _random_tree(rng, rng.randint(1, 7))
        two = _random_tree(rng, rng.randint(1, 7))
        assert tree_edit_distance(one, two) == reference((one,), (two,))
