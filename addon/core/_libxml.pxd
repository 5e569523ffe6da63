# cython: language_level=3
"""Reading libxml2's nodes as lxml and XPath read them: shared by the compiled modules."""

from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, strlen
from lxml.includes cimport tree


cdef inline bint same_name(const char* a, const char* b) noexcept nogil:
    """Tell whether two NUL-terminated names are equal: strcmp inline, for short names."""
    # Most names differ in their first byte; a call to strcmp costs more than
    # comparing a tag or attribute name here.
    while a[0] == b[0]:
        if a[0] == 0:
            return True
        a += 1
        b += 1
    return False


cdef inline Py_ssize_t utf8_chars(const unsigned char* s, Py_ssize_t limit) noexcept nogil:
    """Count the characters of NUL-terminated UTF-8, stopping once `limit` are counted."""
    cdef Py_ssize_t n = 0
    if s == NULL:
        return 0
    while s[0] != 0 and n < limit:
        if (s[0] & 0xC0) != 0x80:  # continuation bytes do not start a character
            n += 1
        s += 1
    return n


cdef inline Py_ssize_t utf8_length(const unsigned char* s) noexcept nogil:
    """Count the characters of NUL-terminated UTF-8: its bytes less its continuation bytes."""
    if s == NULL:
        return 0
    cdef Py_ssize_t size = strlen(<const char*> s)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t continuations = 0
    cdef uint64_t word
    # Eight bytes at a time: a continuation byte is 10xxxxxx, its top bit set
    # and the next one clear. Shifted down, each such byte holds a 1; the
    # multiplication sums the eight bytes into the top one (at most 8). The
    # compiler's popcount is a library call without a CPU flag for it.
    while i + 8 <= size:
        memcpy(&word, s + i, 8)
        word = (word & ~(word << 1) & 0x8080808080808080ULL) >> 7
        continuations += <Py_ssize_t> ((word * 0x0101010101010101ULL) >> 56)
        i += 8
    while i < size:
        continuations += (s[i] & 0xC0) == 0x80
        i += 1
    return size - continuations


cdef inline bint is_text(tree.xmlNode* node) noexcept nogil:
    """Tell whether a node holds text (a text or CDATA node)."""
    return node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE


cdef inline Py_ssize_t string_chars(tree.xmlNode* top) noexcept nogil:
    """Count the characters of all text below an element, as XPath's string() gives it."""
    cdef Py_ssize_t n = 0
    cdef tree.xmlNode* node = top.children
    while node != NULL:
        if is_text(node):
            n += utf8_length(<const unsigned char*> node.content)
        elif node.type == tree.XML_ELEMENT_NODE and node.children != NULL:
            node = node.children
            continue
        while node.next == NULL:
            node = node.parent
            if node == top or node == NULL:
                return n
        node = node.next
    return n


cdef inline str attribute_value(tree.xmlAttr* attr):
    """Return an attribute's value: its text nodes joined, as XPath's string() gives it."""
    cdef tree.xmlNode* node = attr.children
    cdef const char* content
    if node != NULL and node.next == NULL and is_text(node):  # nearly every value
        content = <const char*> node.content
        if content == NULL:
            return ""
        # Straight to str: through bytes would copy every value twice.
        return PyUnicode_DecodeUTF8(content, strlen(content), NULL)
    pieces = []
    while node != NULL:
        if is_text(node):
            pieces.append(<bytes> node.content)
        node = node.next
    return b"".join(pieces).decode("utf-8")


cdef inline tree.xmlAttr* named_attribute(tree.xmlNode* node, const char* name) noexcept nogil:
    """Return an element's attribute of that name and no namespace, or NULL."""
    cdef tree.xmlAttr* attr = node.properties
    while attr != NULL:
        if attr.ns == NULL and same_name(<const char*> attr.name, name):
            return attr
        attr = attr.next
    return NULL
