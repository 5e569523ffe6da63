# cython: language_level=3, boundscheck=False, wraparound=False
"""The page source's premature end tags found in C: the twin of `preprocess._PREMATURE_END_BYTES`.

Every page's bytes are searched for `</body>` and `</html>` before parsing
(thesis §4.3.1's parser trap). The pattern is tried at each "<" of the page;
this loop looks at the byte after each "<" first and costs a fraction of it
(docs/performance.md, "Eighth round"). The tests compare both on the golden
pages and on random bytes.
`holds_data_url` tells in one pass what `sanitise.holds_data_url` tells.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport (
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_KIND,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memchr


cdef inline Py_ssize_t _space(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Return the length of the UTF-8 space (str.isspace) at s[i], or 0."""
    cdef unsigned char c = s[i]
    if 0x09 <= c <= 0x0D or 0x1C <= c <= 0x20:
        return 1
    if c == 0xC2:
        return 2 if i + 1 < n and (s[i + 1] == 0x85 or s[i + 1] == 0xA0) else 0
    if i + 2 >= n:
        return 0
    if c == 0xE1:
        return 3 if s[i + 1] == 0x9A and s[i + 2] == 0x80 else 0
    if c == 0xE2 and s[i + 1] == 0x80:
        c = s[i + 2]
        return 3 if 0x80 <= c <= 0x8A or c == 0xA8 or c == 0xA9 or c == 0xAF else 0
    if c == 0xE2 and s[i + 1] == 0x81:
        return 3 if s[i + 2] == 0x9F else 0
    if c == 0xE3:
        return 3 if s[i + 1] == 0x80 and s[i + 2] == 0x80 else 0
    return 0


cdef inline bint _named(const unsigned char* s, const char* name) noexcept nogil:
    """Tell whether four bytes spell the lowercase ASCII name in any case."""
    # OR 0x20 lowers a letter and maps nothing else onto one.
    return (
        (s[0] | 0x20) == name[0] and (s[1] | 0x20) == name[1]
        and (s[2] | 0x20) == name[2] and (s[3] | 0x20) == name[3]
    )


cdef Py_ssize_t _end_tag(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Return where a `</body>` or `</html>` at s[i] (a "<") ends, spaces and all; -1 if none."""
    if i + 6 > n or s[i + 1] != b"/":
        return -1
    if not (_named(s + i + 2, b"body") or _named(s + i + 2, b"html")):
        return -1
    cdef Py_ssize_t j = i + 6
    cdef Py_ssize_t width
    while j < n:
        width = _space(s, j, n)
        if width == 0:
            break
        j += width
    return j + 1 if j < n and s[j] == b">" else -1


def premature_ends(bytes source not None):
    """Return the (start, end) spans `_PREMATURE_END_BYTES.finditer(source)` finds."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(source)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(source)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t end
    cdef const unsigned char* found
    spans = []
    while i < n:
        found = <const unsigned char*> memchr(s + i, b"<", n - i)
        if found == NULL:
            break
        i = found - s
        end = _end_tag(s, i, n)
        if end < 0:
            i += 1
        else:
            spans.append((i, end))
            i = end
    return spans


ctypedef fused unit_t:
    uint8_t
    uint16_t
    uint32_t


cdef inline bint _fold_is(unit_t c, unsigned char lower) noexcept nogil:
    """Tell whether a code unit is the ASCII letter `lower` in either case."""
    return c == lower or c == lower - 32


cdef bint _data_url(const unit_t* s, Py_ssize_t n) noexcept nogil:
    """Find "data:" in any case in the code units; see `holds_data_url`."""
    cdef Py_ssize_t i
    for i in range(4, n):
        if (
            s[i] == b":" and _fold_is(s[i - 1], c'a') and _fold_is(s[i - 2], c't')
            and _fold_is(s[i - 3], c'a') and _fold_is(s[i - 4], c'd')
        ):
            return True
    return False


def holds_data_url(str markup not None):
    """Tell whether markup holds "data:" in any case: the twin of `sanitise.holds_data_url`."""
    # Lowering changes no other character into one of "data:" (checked for every
    # code point in the tests), so an ASCII fold finds what str.lower() would.
    return _by_width(markup)


cdef bint _by_width(str text) noexcept:
    """Look for "data:" in the string's own code units: one, two or four bytes each."""
    cdef Py_ssize_t n = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    if kind == PyUnicode_1BYTE_KIND:
        return _data_url(<const uint8_t*> data, n)
    if kind == PyUnicode_2BYTE_KIND:
        return _data_url(<const uint16_t*> data, n)
    return _data_url(<const uint32_t*> data, n)
