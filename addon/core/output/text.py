"""A block's plain text.

Its serialisation, the line and cell marks of its layout, words and reading
time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy as copy_element

from lxml import etree

from addon.core import compiled
from addon.core.dom import is_element, text_content
from addon.core.output.tags import (
    BLOCKISH_TAGS,
    CONTROL_RE,
    MATH_TAGS,
    Element,
    safe_text,
    tag_set,
    text_of,
)
from addon.core.result import Block

# A CJK character, or a run of letters and digits; the group makes findall keep a
# word's first character (most are shared one-character strings), not the word.
_WORD_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|([^\W_])[^\W_]*")


# Markers for plain text: Unicode noncharacters, which do not occur in real text.
_LINE = "\ufdd0"


_CELL = "\ufdd1"


_KEEP_SPACE = "\ufdd2"


_KEEP_TAB = "\ufdd3"


_BLOCK_END = "\ufdd5"  # after each block in the one serialisation, and text, of them all


_LINE_TAGS = tuple(
    tag_set(
        "p h1 h2 h3 h4 h5 h6 li dt dd tr caption figcaption blockquote pre ul ol dl table figure hr"
    )
)


# The marks _marked_text puts in a block's tree, written by libxslt for all blocks
# at once: text as lxml's text method writes it, a line mark around each line tag's
# content and after a br, a cell mark before a cell's, a nested pre's whitespace
# swapped for marks, a block end after each block.
_TEXT_MARKS = etree.XSLT(
    etree.XML(
        f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/*"><xsl:for-each select="*"><xsl:apply-templates select="."/>\
&#{ord(_BLOCK_END)};</xsl:for-each></xsl:template>
<xsl:template match="{"|".join(_LINE_TAGS)}">&#{ord(_LINE)};<xsl:apply-templates/>\
&#{ord(_LINE)};</xsl:template>
<xsl:template match="br"><xsl:apply-templates/>&#{ord(_LINE)};</xsl:template>
<xsl:template match="td|th">&#{ord(_CELL)};<xsl:apply-templates/></xsl:template>
<xsl:template match="pre//text()"><xsl:value-of select="translate(., '&#10; &#9;',\
 '&#{ord(_LINE)};&#{ord(_KEEP_SPACE)};&#{ord(_KEEP_TAB)};')"/></xsl:template>
</xsl:stylesheet>"""
    )
)


def plain_text(blocks: Sequence[Block]) -> str:
    """Join the blocks' text, one blank line between blocks."""
    return "\n\n".join(block.text for block in blocks if block.text)


def word_count(text: str) -> int:
    """Count words; each CJK character counts as one word."""
    if _COMPILED_WORD_COUNT is not None:
        return _COMPILED_WORD_COUNT(text)
    return len(_WORD_RE.findall(text))


_COMPILED_WORD_COUNT: Callable[[str], int] | None = compiled.pick_or_none("word_count")


def reading_minutes(words: int, *, wpm: int = 230) -> int:
    """Return the reading time in whole minutes at `wpm` words a minute, >= 1 for any words."""
    if words <= 0:
        return 0
    return max(1, math.ceil(words / wpm))


def break_code_lines(pre: Element) -> None:
    """Put a line break between a code block's line elements that only a style set apart."""
    # Highlighters wrap each line of code in an element of class "line" (Shiki,
    # Prism, highlight.js plugins) and most write a newline between them; a site
    # that drops it and shows each line as a block by CSS (tailwindcss.com's docs,
    # wcxb-dev 2876) would have its commands run together: "my-projectcd my-project".
    for line in _CODE_LINES(pre):  # type: ignore[union-attr]
        if not is_element(line):
            continue
        following = line.getnext()
        if following is None or "\n" in (line.tail or ""):
            continue
        if _is_code_line(following) and not _ends_line(line):
            line.tail = "\n" + safe_text(line.tail)


def _ends_line(element: Element) -> bool:
    """Tell whether an element's text ends with its line's break (GitBook's line spans)."""
    return text_content(element).rstrip(" \t").endswith("\n")


def _is_code_line(element: Element) -> bool:
    """Tell whether an element is a line of code: a class names it so, or it is a block box
    (a browser starts a div inside a pre on a line of its own)."""
    # CodeMirror's `<div class="cm-line">` (react.dev, wcxb-dev 0674, 2873); a class
    # word ending in "-line": gatsby-remark-prismjs's "gatsby-highlight-code-line"
    # (legacy.reactjs.org, 4402), Prism React Renderer's "token-line".
    if element.tag in _CODE_LINE_TAGS:
        return True
    names = (element.get("class") or "").split()
    return any(name == "line" or name.endswith("-line") for name in names)


# The block boxes that stand on lines of their own inside a pre.
_CODE_LINE_TAGS = frozenset({"div", "p"})
# The elements of a pre that a class names a line of code, and its block boxes.
_CODE_LINES = etree.XPath(
    "descendant::*[contains(concat(' ', normalize-space(@class), ' '), ' line ')"
    " or contains(concat(normalize-space(@class), ' '), '-line ')]"
    " | descendant::div | descendant::p"
)


def part_glued_words(holder: Element, *, min_chars: int = 2) -> None:
    """Part two phrasing elements whose words only the style sheet sets apart."""
    # yahoo-2's "<span class=provider>Associated Press</span><time>December 2, 2016"
    # shows with the provider's padding between; run together it read
    # "PressDecember". Parted only where the two cannot be one word: a small letter
    # then a capital, a cased letter then a digit, a digit then a capital, two
    # digits; each side of at least `min_chars` characters (a drop cap's
    # "<span>T</span>he" stays one word), neither of them a sup or sub (an
    # ordinal's "3<sup>rd</sup>", a note's "word<sup>12</sup>").
    for element in holder.iter(etree.Element):
        if element.tag in _UNGLUED_TAGS:
            continue
        space_icons((element,))  # an icon the sanitiser drops, empty
        if element.tail:
            _part_counter(element)
            continue
        following = element.getnext()
        if (
            following is not None
            and isinstance(following.tag, str)
            and following.tag not in _UNGLUED_TAGS
            and (
                runs_together(text_of(element), text_of(following), min_chars=min_chars)
                or _links_apart(element, following)
            )
            and not _in_code(element)
            and not _opens_apart(following)
        ):
            element.tail = " "


def space_icons(elements: Iterable[Element]) -> None:
    """Part the words on each side of the icons among elements about to go: empty elements
    their class draws a glyph in."""
    # A forum's post date, "7/9/05<i class='fa-at margin-left-5'></i>7:57 PM", and its
    # poster, "<a>name</a><i class='user-online-icon'></i><span>Member</span>" (wcxb-dev
    # 1066): the icon font's glyph and its margins stood between; without them the view
    # read "7/9/057:57 PM". Spaced where the hidden elements go (most icons are
    # aria-hidden) and where the output stage drops empty elements.
    for icon in elements:
        if len(icon) or icon.text:
            continue
        # An empty <i> is an icon font's whatever its class, which the sanitiser drops.
        if icon.tag != "i" and not _ICON_CLASS.search(icon.get("class") or ""):
            continue
        if _text_before(icon)[-1:].isalnum() and _text_after(icon)[:1].isalnum():
            icon.tail = " " + (icon.tail or "")


def _text_before(element: Element) -> str:
    """Return the text right before an element: its previous sibling's tail or text, or
    its parent's text."""
    before = element.getprevious()
    if before is not None:
        return before.tail or text_content(before)
    parent = element.getparent()
    return (parent.text or "") if parent is not None else ""


def _text_after(element: Element) -> str:
    """Return the text right after an element: its tail, or its next sibling's text."""
    if element.tail:
        return element.tail
    after = element.getnext()
    return text_content(after) if after is not None else ""


# A class that draws an icon: Font Awesome's "fa" and "fa-*", "icon", "icon-*", "*-icon",
# Bootstrap's "glyphicon".
_ICON_CLASS = re.compile(
    r"(?:^|\s)(?:fa[srlbd]?|fa-[\w-]+|icon(?:-[\w-]+)?|[\w-]+-icon|glyphicon)(?:\s|$)"
)


# Blocks, media, line breaks and formulas: their edges show apart, or hold no word;
# raised and lowered text, which runs on with the word it marks.
_UNGLUED_TAGS = BLOCKISH_TAGS | MATH_TAGS | tag_set("br img hr wbr picture source sup sub")


def raise_note_links(holder: Element) -> None:
    """Raise a footnote's number link, which the style sheet raised: its number in a <sup>."""
    # Substack's `<a class="footnote-anchor" href="...#footnote-1">1</a>` after a
    # sentence's full stop (wcxb-dev 0460): without its style it read "Siemens.1 By
    # walking", the number glued to the words.
    for link in _NOTE_LINKS(holder):  # type: ignore[union-attr]
        if not is_element(link) or not _NOTE_NUMBER.fullmatch((link.text or "").strip()):
            continue
        parent = link.getparent()
        if len(link) or parent is None or parent.tag == "sup" or _opens_line(link, parent):
            continue
        # Raised inside the link: the link's tail, which may hold a control character
        # lxml refuses from its API (the parser keeps them), stays where it is.
        sup = link.makeelement("sup")
        sup.text, link.text = link.text, None
        link.append(sup)


def _opens_line(link: Element, parent: Element) -> bool:
    """Tell whether a link starts its block's text, through the inline elements that start
    with it: a footnote's own number, a label."""
    node: Element = link
    above: Element | None = parent
    while above is not None:
        if node.getprevious() is not None or (above.text or "").strip():
            return False
        if above.tag in BLOCKISH_TAGS:
            return True
        node, above = above, above.getparent()
    return True


# The links a class names a footnote's, into the page or its own URL's fragment.
_NOTE_LINKS = etree.XPath("descendant::a[contains(@class, 'footnote') and contains(@href, '#')]")
# A footnote's number: digits, or digits in brackets.
_NOTE_NUMBER = re.compile(r"\[?\d{1,3}\]?")


def _part_counter(element: Element) -> None:
    """Part a counter element from the words its tail runs on with: "01.Can Tastewise"."""
    # wcxb-dev 0002's FAQ: `<span class="faq-item--counter">01.</span>Can Tastewise ...`.
    tail = element.tail or ""
    # The tail's first letter is read first: most tails open with a space or a small
    # letter, and the element's text is built only for the rest.
    if tail[:1].isupper() and _COUNTER.fullmatch(text_of(element)) is not None:
        element.tail = " " + safe_text(tail)  # lxml refuses a control character


# A counter that ends its text: digits and a full stop or closing bracket.
_COUNTER = re.compile(r"(?:^|\s)\d{1,3}[.)]$")


def _links_apart(element: Element, following: Element) -> bool:
    """Tell whether two links side by side lead to two places, each with words of its own."""
    # A table of contents' entries, a tag list's tags, set apart as blocks by the style
    # sheet: "Necessary?02 How to Measure" (wcxb-dev 4416), where no letter case tells.
    if element.tag != "a" or following.tag != "a":
        return False
    # Not before a digit: an auto-linker's "video.mp" left "4" to the file's own link
    # (wcxb-dev odd 0299's "video.mp4").
    href, before, after = element.get("href"), text_of(element), text_of(following)
    return (
        href is not None
        and href != following.get("href")
        and bool(before.strip())
        and bool(after.strip())
        and not before[-1].isspace()
        and not (before[-1].isalnum() and after[0].isdigit())
    )


def runs_together(before: str, after: str, *, min_chars: int = 2) -> bool:
    """Tell whether two texts run together at a place no word has inside it."""
    if len(before.strip()) < min_chars or len(after.strip()) < min_chars:
        return False
    last, first = before[-1], after[:1]
    # A list's counter set apart by its style: "01." then "Can Tastewise..." (wcxb-dev
    # 0002's FAQ), not "U.S." then "Army" (no digit before the stop).
    if _COUNTER.search(before) and first.isupper():
        return True
    if last.isdigit():
        return first.isdigit() or first.isupper()  # not "5km", "1st"
    return _cased(last) and (first.isdigit() or (last.islower() and first.isupper()))


def _opens_apart(element: Element) -> bool:
    """Tell whether a line break or a block comes first in an element, before its text."""
    for node in element.iter():
        if node.tag in _UNGLUED_TAGS and node is not element:
            return node.tag == "br" or node.tag in BLOCKISH_TAGS
        if node.text and not node.text.isspace():
            return False
    return False


def _cased(char: str) -> bool:
    """Tell a letter of a script with capitals (Latin, Greek, Cyrillic...)."""
    return char.islower() or char.isupper()


def _in_code(element: Element) -> bool:
    """Tell whether an element is inside code, whose characters are the page's own."""
    return element.tag in ("pre", "code") or any(
        ancestor.tag in ("pre", "code") for ancestor in element.iterancestors()
    )


def keep_pre_newline(holder: Element) -> None:
    """Double a pre's leading newline: parsers drop one after <pre>, nh3 does not add it."""
    for pre in holder.iter("pre"):
        if pre.text and pre.text.startswith("\n\n"):
            pre.text = "\n" + safe_text(pre.text)


def _serialise(block: Element) -> str:
    """Serialise a cleaned block as HTML."""
    return etree.tostring(block, encoding="unicode", method="html", with_tail=False)


def serialise_all(holder: Element, roots: list[Element]) -> list[str]:
    """Serialise each cleaned block as HTML, all in one lxml call when that is exact."""
    # A block serialises alike alone or among its siblings; each one's tail marks
    # where it ends. Should page text hold the mark, the count shows it.
    for block in roots:
        block.tail = _BLOCK_END
    parts = etree.tostring(holder, encoding="unicode", method="html")[5:-6].split(_BLOCK_END)
    if len(parts) != len(roots) + 1:
        return [_serialise(block) for block in roots]
    return parts[:-1]


def block_texts(holder: Element, roots: list[Element]) -> list[str]:
    """Return each cleaned block's plain text, for a pre too (though it keeps its own)."""
    # One libxslt pass writes all the text with the marks _marked_text puts in the
    # tree, a block's end after each block; then the lines are made in a few string
    # passes over the whole. Should page text hold the block end, the count shows it.
    marked = _block_marks(holder)
    if marked.count(_BLOCK_END) != len(roots):
        return [_marked_text(block) for block in roots]
    # Lines made once for all blocks: then only a block's ends may hold a space
    # or a line break.
    texts = [piece.strip(" \n") for piece in lines_of_marks(marked).split(_BLOCK_END)[:-1]]
    if _CELL in marked:
        if CONTROL_RE.search(marked):
            marked = CONTROL_RE.sub("", marked)
        for index, raw in enumerate(marked.split(_BLOCK_END)[:-1]):
            if _CELL in raw:
                texts[index] = _table_text(raw)
    if _KEEP_SPACE in marked or _KEEP_TAB in marked:
        texts = [text.replace(_KEEP_SPACE, " ").replace(_KEEP_TAB, "\t") for text in texts]
    return texts


def lines_of_marks(marked: str) -> str:
    """Turn marked text into plain lines: whitespace collapsed, line marks made line breaks."""
    # The control characters lxml refuses go first. str.split() beats a regex here
    # by far; a line has at most one space at each end, which strip takes off
    # faster than replacing the spaces next to line marks in the whole text.
    if CONTROL_RE.search(marked):
        marked = CONTROL_RE.sub("", marked)
    flat = " ".join(marked.split())
    return "\n".join(filter(None, [line.strip(" ") for line in flat.split(_LINE)]))


def stylesheet_marks(holder: Element) -> str:
    """Write the blocks' text with the marks by the stylesheet ("" if libxslt gives up)."""
    try:
        return str(_TEXT_MARKS(holder))
    except etree.XSLTError:  # libxslt gave up (resources): the caller marks each tree
        return ""


_block_marks = compiled.pick("block_marks", stylesheet_marks)


_MARKS = compiled.compiled_module("block_marks")


if _MARKS is not None:
    _MARKS.set_line_tags(_LINE_TAGS)


def _table_text(raw: str) -> str:
    """Return the text of a block whose lines may hold table cells."""
    lines = (_text_line(line) for line in raw.split(_LINE))
    return "\n".join(line for line in lines if line)


def _marked_text(block: Element) -> str:
    """Return a block's plain text by marking up its tree; this changes the block."""
    for pre in block.iter("pre"):
        _protect_whitespace(pre)
    for el in block.iter(*_LINE_TAGS):
        el.text = _LINE + safe_text(el.text)
        el.tail = _LINE + safe_text(el.tail)
    for br in block.iter("br"):
        br.tail = _LINE + safe_text(br.tail)
    for cell in block.iter("td", "th"):
        cell.text = _CELL + safe_text(cell.text)
    text = _table_text(safe_text(text_of(block)))
    if _KEEP_SPACE in text or _KEEP_TAB in text:
        text = text.replace(_KEEP_SPACE, " ").replace(_KEEP_TAB, "\t")
    return text


def pre_text(pre: Element) -> str:
    """Return a pre's text verbatim, less its leading and trailing blank lines; a br is a line
    break, as the browser shows it."""
    if next(pre.iter("br"), None) is None:
        return safe_text(text_of(pre)).lstrip("\n").rstrip()
    copy = copy_element(pre)
    for br in copy.iter("br"):
        br.tail = "\n" + safe_text(br.tail)
    return safe_text(text_of(copy)).lstrip("\n").rstrip()


def _protect_whitespace(pre: Element) -> None:
    """Swap a nested pre's whitespace for markers that survive collapsing."""
    table = str.maketrans({"\n": _LINE, " ": _KEEP_SPACE, "\t": _KEEP_TAB})
    pre.text = safe_text(pre.text).translate(table)
    for el in pre.iterdescendants():
        el.text = safe_text(el.text).translate(table)
        el.tail = safe_text(el.tail).translate(table)


def _text_line(raw: str) -> str:
    """Collapse one line's whitespace; a table row's cells are joined by tabs."""
    if _CELL in raw:
        # Text before the line's first cell ends a cell a line break cut ("a<br>b</td>").
        lead, *cells = raw.split(_CELL)
        parts = [" ".join(cell.split()) for cell in cells]
        lead = " ".join(lead.split())
        return "\t".join([lead, *parts] if lead else parts).rstrip("\t")
    return " ".join(raw.split())
