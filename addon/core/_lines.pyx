# cython: language_level=3, boundscheck=False, wraparound=False
"""Line normalisation over libxml2's own nodes (thesis §4.3.1-4.3.2, §4.6.1).

The compiled twin of `lines.walk_lines`, with the same output: the tests run
both over the golden pages and random trees and compare every line. The walk
meets every element of the page; reading libxml2's nodes directly spares the
element proxy lxml builds for each, and the proxies' strings, which cost most
of the Python walk's time (docs/performance.md, "Fifth round"). Only the lines'
own elements, texts and `Line` records are made as Python objects.
"""

from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strlen
from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Document, _Element, elementFactory, import_lxml__etree

from addon.core._libxml cimport is_text, same_name, string_chars, utf8_chars

from addon.core.paper.lines import BLOCK_TAGS, VOID_TAGS

import_lxml__etree()

# What the walk needs to know of a tag: lines start and end at a block, an
# anchor gets Filter 1-3, a void element has no end tag.
cdef enum:
    BLOCK = 1
    VOID = 2
    ANCHOR = 4

cdef struct _Named:
    const char* name
    int kind

cdef enum:
    _MAX_NAMED = 64

cdef _Named _NAMED[_MAX_NAMED]
# By a name's first byte: where the names starting with it begin and end in _NAMED.
cdef unsigned char _FIRST[256]
cdef unsigned char _STOP[256]
cdef list _NAME_BYTES = []  # owns the strings _NAMED points to


def _index_tags(blocks, voids):
    """Fill the tag table from the tag sets of `lines`, grouped by first letter."""
    named = sorted(set(blocks) | set(voids) | {"a"})
    if len(named) > _MAX_NAMED:
        raise ValueError(f"{len(named)} tag names: the table holds {_MAX_NAMED}")
    _NAME_BYTES[:] = [name.encode("ascii") for name in named]
    cdef int i, first
    for i, name in enumerate(named):
        _NAMED[i].name = <const char*> <bytes> _NAME_BYTES[i]
        _NAMED[i].kind = (
            (BLOCK if name in blocks else 0)
            | (VOID if name in voids else 0)
            | (ANCHOR if name == "a" else 0)
        )
        first = ord(name[0])
        if _STOP[first] == 0:
            _FIRST[first] = i
        _STOP[first] = i + 1


_index_tags(BLOCK_TAGS, VOID_TAGS)


cdef int _kind(tree.xmlNode* node) noexcept nogil:
    """Return the BLOCK, VOID and ANCHOR bits of an element's tag (none if namespaced)."""
    if node.ns != NULL:  # lxml names it "{uri}name": in none of the sets
        return 0
    cdef const unsigned char* name = <const unsigned char*> node.name
    cdef int i
    for i in range(_FIRST[name[0]], _STOP[name[0]]):
        if same_name(<const char*> name, _NAMED[i].name):
            return _NAMED[i].kind
    return 0


# --- Counting characters in libxml2's UTF-8 ----------------------------------


cdef bint _space_at(const unsigned char* s, Py_ssize_t n, Py_ssize_t* width) noexcept nogil:
    """Tell whether the UTF-8 character at `s` is one str.isspace() accepts; set its width."""
    cdef unsigned int c = s[0]
    if c < 0x80:
        width[0] = 1
        return 0x09 <= c <= 0x0D or 0x1C <= c <= 0x20
    if c < 0xE0:
        width[0] = 2
        return n >= 2 and c == 0xC2 and (s[1] == 0x85 or s[1] == 0xA0)
    if c < 0xF0:
        width[0] = 3
        if n < 3:
            return False
        c = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F)
        return (
            c == 0x1680 or 0x2000 <= c <= 0x200A or c == 0x2028 or c == 0x2029
            or c == 0x202F or c == 0x205F or c == 0x3000
        )
    width[0] = 4  # no space beyond the Basic Multilingual Plane
    return False


cdef bint _all_space(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """Tell whether `n` bytes of UTF-8 hold only what str.isspace() calls space."""
    cdef Py_ssize_t i = 0, width = 1
    while i < n:
        if not _space_at(s + i, n - i, &width):
            return False
        i += width
    return True


# --- Reading the tree as lxml does ---------------------------------------------


cdef tree.xmlNode* _text_or_skip(tree.xmlNode* node) noexcept nogil:
    """Return the node if it holds text, past XInclude markers; else NULL (lxml's .text rule)."""
    while node != NULL:
        if is_text(node):
            return node
        if node.type != tree.XML_XINCLUDE_START and node.type != tree.XML_XINCLUDE_END:
            return NULL
        node = node.next
    return NULL


cdef tree.xmlNode* _next_element(tree.xmlNode* node) noexcept nogil:
    """Return the first element node from `node` on among its siblings, or NULL."""
    while node != NULL and node.type != tree.XML_ELEMENT_NODE:
        node = node.next
    return node


cdef Py_ssize_t _tag_chars(tree.xmlNode* node, int kind, Py_ssize_t cap) noexcept nogil:
    """Return the length of an element's start and end tag as HTML source (`tag_code_chars`)."""
    cdef Py_ssize_t name = utf8_chars(<const unsigned char*> node.name, PY_SSIZE_T_MAX)
    if node.ns != NULL and node.ns.href != NULL:
        name += utf8_chars(<const unsigned char*> node.ns.href, PY_SSIZE_T_MAX) + 2
    cdef Py_ssize_t size = name + 2 if kind & VOID else 2 * name + 5
    cdef Py_ssize_t chars
    cdef tree.xmlAttr* attr = node.properties
    cdef tree.xmlNode* value
    while attr != NULL:  # ` name="value"`, each capped at `cap`
        chars = utf8_chars(<const unsigned char*> attr.name, PY_SSIZE_T_MAX) + 4
        if attr.ns != NULL and attr.ns.href != NULL:
            chars += utf8_chars(<const unsigned char*> attr.ns.href, PY_SSIZE_T_MAX) + 2
        value = attr.children
        # Past the cap a value's length no longer matters: long ones (inline JSON,
        # data: URLs) are read only that far.
        while value != NULL and chars < cap:
            if is_text(value):
                chars += utf8_chars(<const unsigned char*> value.content, cap - chars)
            value = value.next
        size += chars if chars < cap else cap
        attr = attr.next
    return size


cdef Py_ssize_t _anchor_chars(tree.xmlNode* anchor, int filter, int offset) noexcept nogil:
    """Return the code characters of an anchor's tags under Filter 2 or 3 (`anchor_code_chars`)."""
    if filter == 2:
        return 7  # <a></a>
    cdef Py_ssize_t width = string_chars(anchor) - offset
    return (4 + width if width > 0 else 3) + 4  # <a ___> or <a>, then </a>


# --- The walk ------------------------------------------------------------------


cdef class _Walk:
    """The lines cut so far, the pending line as UTF-8 bytes, its anchors and its blocks.

    As in `lines._Lines`, an anchor's text is kept as a range of the pending
    line, here of its bytes, from its start to the start of its tail.
    """

    cdef unsigned char* text  # the pending line's text pieces, joined
    cdef Py_ssize_t size, room
    cdef tree.xmlNode** owners  # the blocks open around the pending line
    cdef Py_ssize_t depth_owners, room_owners
    cdef tree.xmlNode* owner  # the block the pending line belongs to
    cdef Py_ssize_t code  # the code characters of the pending line
    cdef Py_ssize_t depth, opened  # anchors open, and where the outermost one's text starts
    cdef list ranges  # the closed anchors' text, as (start, stop) byte offsets
    cdef list lines
    cdef int filter, offset
    cdef Py_ssize_t cap
    cdef object line, count_line
    cdef _Document doc

    def __cinit__(self):
        self.room = 4096
        self.text = <unsigned char*> malloc(self.room)
        self.room_owners = 64
        self.owners = <tree.xmlNode**> malloc(self.room_owners * sizeof(tree.xmlNode*))
        if self.text == NULL or self.owners == NULL:
            raise MemoryError()
        self.ranges = []
        self.lines = []

    def __dealloc__(self):
        free(self.text)
        free(self.owners)

    cdef int enter(self, tree.xmlNode* node) except -1:
        """Open an element: cut a line before a block, count its tags, take its text.

        Return 1 when the walk must not go into the element (Filter 1's anchor).
        """
        cdef int kind = _kind(node)
        if kind & BLOCK:
            self.cut()
            self.push_owner(node)
        if kind & ANCHOR:
            if self.filter == 1:
                return 1  # the anchor goes with its descendants; its tail stays
            self.code += _tag_chars(node, kind, self.cap) if self.filter == 0 else (
                _anchor_chars(node, self.filter, self.offset)
            )
            if not self.depth:
                self.opened = self.size
            self.depth += 1
        else:
            self.code += _tag_chars(node, kind, self.cap)
        self.add_run(node.children)
        return 0

    cdef int leave(self, tree.xmlNode* node, bint skipped) except -1:
        """Close an element: cut the line a block ends, close an anchor, take the tail."""
        cdef int kind = _kind(node)
        if kind & BLOCK:
            self.cut()
            self.depth_owners -= 1
            self.owner = self.owners[self.depth_owners]
        elif kind & ANCHOR and not skipped:
            self.depth -= 1
            if not self.depth:
                self.ranges.append((self.opened, self.size))
        self.add_run(node.next)
        return 0

    cdef int push_owner(self, tree.xmlNode* node) except -1:
        """Make a block the pending line's owner, keeping the one it replaces."""
        cdef tree.xmlNode** grown
        if self.depth_owners == self.room_owners:
            self.room_owners *= 2
            grown = <tree.xmlNode**> realloc(
                self.owners, self.room_owners * sizeof(tree.xmlNode*)
            )
            if grown == NULL:
                raise MemoryError()
            self.owners = grown
        self.owners[self.depth_owners] = self.owner
        self.depth_owners += 1
        self.owner = node
        return 0

    cdef int add_run(self, tree.xmlNode* node) except -1:
        """Append a run of text nodes (a .text or .tail) unless it is blank and opens a line."""
        cdef tree.xmlNode* first = _text_or_skip(node)
        cdef tree.xmlNode* cur = first
        cdef bint blank = True
        cdef Py_ssize_t total = 0, n
        while cur != NULL:
            n = strlen(<const char*> cur.content)
            total += n
            if blank and not _all_space(<const unsigned char*> cur.content, n):
                blank = False
            cur = _text_or_skip(cur.next)
        # White space that opens a line is dropped, as the line is collapsed anyway.
        if total == 0 or (self.size == 0 and blank):
            return 0
        cur = first
        while cur != NULL:
            self.add(<const unsigned char*> cur.content, strlen(<const char*> cur.content))
            cur = _text_or_skip(cur.next)
        return 0

    cdef int add(self, const unsigned char* s, Py_ssize_t n) except -1:
        """Append `n` bytes to the pending line's text."""
        cdef unsigned char* grown
        if self.size + n > self.room:
            while self.size + n > self.room:
                self.room *= 2
            grown = <unsigned char*> realloc(self.text, self.room)
            if grown == NULL:
                raise MemoryError()
            self.text = grown
        memcpy(self.text + self.size, s, n)
        self.size += n
        return 0

    cdef int cut(self) except -1:
        """Append the pending line if it holds content or code, and start the next."""
        cdef str text
        if self.size == 0:
            if self.code:  # most lines are a wrapper's tags, with no text to collapse
                self.append_line("", 0)
        else:
            text = " ".join(self.piece(0, self.size).split())
            if text or self.code:
                self.append_line(text, self.link_chars() if self.ranges or self.depth else 0)
            self.size = 0
        if self.ranges:
            self.ranges.clear()
        self.opened = 0
        self.code = 0
        return 0

    cdef int append_line(self, str text, Py_ssize_t link_chars) except -1:
        """Append the pending line as a `Line` of its owner."""
        element = elementFactory(self.doc, self.owner)
        if self.count_line is None:  # the usual counts, without a call per line
            line = self.line(element, element.tag, text, len(text), self.code, link_chars)
        else:
            t1, t2 = self.count_line(text, self.code)
            line = self.line(element, element.tag, text, t1, t2, link_chars)
        self.lines.append(line)
        return 0

    cdef Py_ssize_t link_chars(self) except -1:
        """Return the length of the anchor text in the pending line, spaces collapsed."""
        if self.depth:  # an anchor that holds a block goes on in the next line
            self.ranges.append((self.opened, self.size))
        linked = "".join([self.piece(start, stop) for start, stop in self.ranges])
        return len(" ".join(linked.split()))

    cdef str piece(self, Py_ssize_t start, Py_ssize_t stop):
        """Return bytes `start` to `stop` of the pending line as text."""
        return (<char*> self.text + start)[: stop - start].decode("utf-8")


def build_lines(
    _Element root not None, line, count_line, int filter, int offset, Py_ssize_t cap
):
    """Cut a preprocessed tree into block lines with their T1/T2 counts (§4.3.1-4.3.2).

    `line` makes a line's record; `count_line(text, code)` gives its (T1, T2),
    None for DANAg's (len(text), code); the rest as in `DanagParams`.
    """
    cdef _Walk walk = _Walk()
    walk.filter, walk.offset, walk.cap = filter, offset, cap
    walk.line, walk.count_line, walk.doc = line, count_line, root._doc
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlNode* after
    walk.owner = top
    cdef int skip = walk.enter(node)
    while True:  # depth first, each element entered and left once
        after = NULL if skip else _next_element(node.children)
        if after != NULL:
            node = after
            skip = walk.enter(node)
            continue
        while node != top:
            after = _next_element(node.next)
            walk.leave(node, skip)
            skip = 0
            if after != NULL:
                node = after
                skip = walk.enter(node)
                break
            node = node.parent
        else:
            walk.leave(top, skip)
            walk.cut()  # the last line
            return walk.lines
