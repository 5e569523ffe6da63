"""Tree edit distance of ordered labelled trees (Zhang and Shasha, SIAM J. Comput. 18(6), 1989).

BlockExtractor's Step 3 compares blocks across the pages of a site by this distance
(Lin, Chen and Niu 2012, redundancy removal). Unit costs: deleting, inserting or relabelling a node
costs 1, keeping a node with its label costs 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

_N = TypeVar("_N")


@dataclass(frozen=True, slots=True, eq=False)
class Tree:
    """One node of an ordered labelled tree, with its children in order."""

    label: str
    children: tuple[Tree, ...] = ()


@dataclass(frozen=True, slots=True)
class PostOrder:
    """A tree numbered in postorder: each node's label and its leftmost leaf's number.

    `keyroots` are the nodes Zhang and Shasha's algorithm starts a forest distance
    from: the root, and every node that has a left sibling.
    """

    labels: tuple[str, ...]
    leftmost: tuple[int, ...]
    keyroots: tuple[int, ...]

    @property
    def size(self) -> int:
        """Return the number of nodes."""
        return len(self.labels)

    def key(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Return what tells two trees equal: the same labels in the same shape."""
        return self.labels, self.leftmost

    def bag(self) -> Counter[str]:
        """Return the multiset of the labels."""
        return Counter(self.labels)


def postorder(tree: Tree) -> PostOrder:
    """Number the nodes of a tree in postorder."""
    return postorder_of(tree, lambda node: node.children, lambda node: node.label)


def postorder_of(
    root: _N, children: Callable[[_N], Sequence[_N]], label: Callable[[_N], str]
) -> PostOrder:
    """Number the nodes of any tree in postorder, given how to read a node's children and
    label; without recursion, as trees from pages run deeper than Python's limit."""
    labels: list[str] = []
    leftmost: list[int] = []
    # A node is numbered when popped the second time, after all its children.
    stack: list[tuple[_N, bool]] = [(root, False)]
    # The number the next node will get, for each open subtree: the first node numbered
    # in a subtree is its leftmost leaf.
    firsts: list[int] = []
    while stack:
        node, done = stack.pop()
        if done:
            labels.append(label(node))
            leftmost.append(firsts.pop())
            continue
        firsts.append(len(labels))
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(children(node)))
    return PostOrder(tuple(labels), tuple(leftmost), _keyroots(leftmost))


def _keyroots(leftmost: list[int]) -> tuple[int, ...]:
    """Return the nodes that are the highest-numbered of their leftmost leaf."""
    highest: dict[int, int] = {}
    for node, leaf in enumerate(leftmost):
        highest[leaf] = node
    return tuple(sorted(highest.values()))


def tree_edit_distance(a: Tree | PostOrder, b: Tree | PostOrder) -> int:
    """Return the unit-cost edit distance of two ordered labelled trees (Zhang-Shasha 1989)."""
    first = a if isinstance(a, PostOrder) else postorder(a)
    second = b if isinstance(b, PostOrder) else postorder(b)
    # treedist[i][j]: the distance of the subtrees rooted at i and j, filled keyroot
    # pair by keyroot pair, each pair reusing the subtrees its forests hold.
    treedist = [[0] * second.size for _ in range(first.size)]
    for i in first.keyroots:
        for j in second.keyroots:
            _forest_distance(first, second, i, j, treedist)
    return treedist[-1][-1]


def _forest_distance(
    a: PostOrder, b: PostOrder, i: int, j: int, treedist: list[list[int]]
) -> None:
    """Fill the forest distances of the keyroots i and j, and the tree distances they give."""
    left_a, left_b = a.leftmost[i], b.leftmost[j]
    rows, columns = i - left_a + 2, j - left_b + 2
    forest = [[0] * columns for _ in range(rows)]
    for x in range(1, rows):
        forest[x][0] = x  # delete every node of the forest
    forest[0] = list(range(columns))  # insert every node
    for x in range(1, rows):
        node_a = left_a + x - 1
        whole_a = a.leftmost[node_a] == left_a
        for y in range(1, columns):
            node_b = left_b + y - 1
            if whole_a and b.leftmost[node_b] == left_b:
                # Both forests are whole trees: this pair's tree distance is settled here.
                relabel = forest[x - 1][y - 1] + (a.labels[node_a] != b.labels[node_b])
                cost = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1, relabel)
                treedist[node_a][node_b] = cost
            else:
                before = forest[a.leftmost[node_a] - left_a][b.leftmost[node_b] - left_b]
                matched = before + treedist[node_a][node_b]
                cost = min(forest[x - 1][y] + 1, forest[x][y - 1] + 1, matched)
            forest[x][y] = cost


def label_bound(a: PostOrder, b: PostOrder, bag_a: Counter[str], bag_b: Counter[str]) -> int:
    """Return a lower bound of the edit distance from the label multisets alone.

    An edit script maps at most as many nodes to nodes of the same label as the two
    multisets share; every other node of the larger tree costs one operation at least.
    """
    shared = sum((bag_a & bag_b).values())
    return max(a.size, b.size) - shared
