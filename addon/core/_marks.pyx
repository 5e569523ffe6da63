# cython: language_level=3, boundscheck=False, wraparound=False
"""The reader blocks' marked text in C: the compiled twin of `text._TEXT_MARKS`.

The stylesheet writes the text of every cleaned block with marks for the
plain-text lines: a line mark around each line tag's content and after a br,
a cell mark before a cell's, a pre's whitespace swapped for marks, a block
end after each block. libxslt spends most of its time on that call setting
up the transformation (docs/performance.md, "Eighth round"); this walk over
libxml2's nodes writes the same characters, which the tests check on the
golden pages and on random trees.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strlen
from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Element, import_lxml__etree

from addon.core._libxml cimport is_text, same_name

import_lxml__etree()

# What an element adds to the text around its content (text._TEXT_MARKS).
cdef enum:
    PLAIN = 0
    LINE = 1  # a line mark before and after: the line tags
    BREAK = 2  # a line mark after: br
    CELL = 3  # a cell mark before: td, th
    PRE = 4  # a line tag whose text keeps its whitespace as marks

# U+FDD0, U+FDD1, U+FDD2, U+FDD3, U+FDD5 in UTF-8: text._LINE, _CELL,
# _KEEP_SPACE, _KEEP_TAB, _BLOCK_END.
cdef const char* _LINE_MARK = b"\xef\xb7\x90"
cdef const char* _CELL_MARK = b"\xef\xb7\x91"
cdef const char* _SPACE_MARK = b"\xef\xb7\x92"
cdef const char* _TAB_MARK = b"\xef\xb7\x93"
cdef const char* _END_MARK = b"\xef\xb7\x95"

cdef enum:
    _MAX_LINE_TAGS = 32

cdef const char* _LINE_TAGS[_MAX_LINE_TAGS]  # text._LINE_TAGS, set by set_line_tags
cdef int _LINE_TAG_COUNT = 0
cdef list _LINE_TAG_BYTES = []  # owns the strings _LINE_TAGS points to


def set_line_tags(names):
    """Take the line tags from `content`, which owns them (and the stylesheet)."""
    global _LINE_TAG_COUNT
    encoded = sorted({name.encode("ascii") for name in names})
    if len(encoded) > _MAX_LINE_TAGS:
        raise ValueError(f"{len(encoded)} line tags: the table holds {_MAX_LINE_TAGS}")
    _LINE_TAG_BYTES[:] = encoded
    cdef int i
    for i in range(len(encoded)):
        _LINE_TAGS[i] = <const char*> <bytes> _LINE_TAG_BYTES[i]
    _LINE_TAG_COUNT = len(encoded)


cdef int _kind(tree.xmlNode* node) noexcept nogil:
    """Return what an element adds to the text: PLAIN, LINE, BREAK, CELL or PRE."""
    if node.ns != NULL:  # the stylesheet's names match elements in no namespace only
        return PLAIN
    cdef const char* name = <const char*> node.name
    if same_name(name, b"br"):
        return BREAK
    if same_name(name, b"td") or same_name(name, b"th"):
        return CELL
    cdef int i
    for i in range(_LINE_TAG_COUNT):
        if same_name(name, _LINE_TAGS[i]):
            return PRE if same_name(name, b"pre") else LINE
    return PLAIN


cdef struct _Out:
    char* data
    Py_ssize_t size
    Py_ssize_t room


cdef int _grow(_Out* out, Py_ssize_t more) except -1:
    """Make room for `more` bytes."""
    cdef Py_ssize_t room = out.room
    cdef char* data
    if out.size + more <= room:
        return 0
    while out.size + more > room:
        room *= 2
    data = <char*> realloc(out.data, room)
    if data == NULL:
        raise MemoryError()
    out.data = data
    out.room = room
    return 0


cdef int _write(_Out* out, const char* text, Py_ssize_t length) except -1:
    """Append bytes."""
    _grow(out, length)
    memcpy(out.data + out.size, text, length)
    out.size += length
    return 0


cdef int _write_pre(_Out* out, const char* text, Py_ssize_t length) except -1:
    """Append a pre's text with its line breaks, spaces and tabs swapped for marks."""
    cdef Py_ssize_t i
    _grow(out, 3 * length)  # each byte becomes at most one three-byte mark
    for i in range(length):
        if text[i] == b"\n":
            memcpy(out.data + out.size, _LINE_MARK, 3)
            out.size += 3
        elif text[i] == b" ":
            memcpy(out.data + out.size, _SPACE_MARK, 3)
            out.size += 3
        elif text[i] == b"\t":
            memcpy(out.data + out.size, _TAB_MARK, 3)
            out.size += 3
        else:
            out.data[out.size] = text[i]
            out.size += 1
    return 0


cdef int _write_block(_Out* out, tree.xmlNode* top) except -1:
    """Append one block's marked text: its content, depth first, with the marks."""
    cdef tree.xmlNode* node = top
    cdef int kind
    cdef int in_pre = 0  # pre elements open around the node
    cdef const char* text
    while True:
        if node.type == tree.XML_ELEMENT_NODE:
            kind = _kind(node)
            if kind == LINE or kind == PRE:
                _write(out, _LINE_MARK, 3)
            elif kind == CELL:
                _write(out, _CELL_MARK, 3)
            in_pre += kind == PRE
            if node.children != NULL:
                node = node.children
                continue
        elif is_text(node) and node.content != NULL:
            text = <const char*> node.content
            if in_pre:
                _write_pre(out, text, strlen(text))
            else:
                _write(out, text, strlen(text))
        # The node is done: close it and the elements it is the last child of.
        while True:
            if node.type == tree.XML_ELEMENT_NODE:
                kind = _kind(node)
                if kind == LINE or kind == PRE or kind == BREAK:
                    _write(out, _LINE_MARK, 3)
                in_pre -= kind == PRE
            if node == top:
                return 0
            if node.next != NULL:
                node = node.next
                break
            node = node.parent


def block_marks(_Element holder not None):
    """Return what `text._TEXT_MARKS` writes for the blocks, the holder's child elements."""
    cdef _Out out
    cdef tree.xmlNode* block = holder._c_node.children
    out.size = 0
    out.room = 4096
    out.data = <char*> malloc(out.room)
    if out.data == NULL:
        raise MemoryError()
    try:
        while block != NULL:
            if block.type == tree.XML_ELEMENT_NODE:
                _write_block(&out, block)
                _write(&out, _END_MARK, 3)
            block = block.next
        return out.data[:out.size].decode("utf-8")
    finally:
        free(out.data)
