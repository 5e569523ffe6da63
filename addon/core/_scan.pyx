# cython: language_level=3, boundscheck=False, wraparound=False
"""The page source's premature end tags found in C: the twin of `preprocess._PREMATURE_END_BYTES`.

Every page's bytes are searched for `</body>` and `</html>` before parsing
(thesis §4.3.1's parser trap). The pattern is tried at each "<" of the page;
this loop looks at the byte after each "<" first and costs a fraction of it
(docs/performance.md, "Eighth round"). The tests compare both on the golden
pages and on random bytes. The same pass finds the start tags with more
attributes than libxml2 parses in time (`parse.crowded_attributes`).
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
from libc.string cimport memchr, memcmp


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


cdef inline bint _ascii_space(unsigned char c) noexcept nogil:
    """Tell a byte that a bytes pattern's \\s matches."""
    return c == 0x20 or 0x09 <= c <= 0x0D


cdef inline Py_ssize_t _quoted(const unsigned char* s, Py_ssize_t j, Py_ssize_t stop) noexcept nogil:
    """Return where a value quoted at s[j] ends (after its closing quote), or -1 if unclosed."""
    cdef const unsigned char* close = <const unsigned char*> memchr(s + j + 1, s[j], stop - j - 1)
    return -1 if close == NULL else close - s + 1


cdef Py_ssize_t _attribute(const unsigned char* s, Py_ssize_t j, Py_ssize_t stop) noexcept nogil:
    """Return where the attribute from s[j] ends, as parse._ATTRIBUTE reads it; -1 if none."""
    cdef Py_ssize_t k, end
    while j < stop and (_ascii_space(s[j]) or s[j] == b"/"):
        j += 1
    if j >= stop or s[j] == b">":
        return -1
    j += 1
    while j < stop and not (_ascii_space(s[j]) or s[j] == b"/" or s[j] == b">" or s[j] == b"="):
        j += 1
    k = j
    while k < stop and _ascii_space(s[k]):
        k += 1
    if k >= stop or s[k] != b"=":
        return j
    k += 1
    while k < stop and _ascii_space(s[k]):
        k += 1
    if k < stop and (s[k] == b'"' or s[k] == b"'"):
        end = _quoted(s, k, stop)
        if end >= 0:
            return end
    while k < stop and not (_ascii_space(s[k]) or s[k] == b">"):
        k += 1
    return k


cdef inline bint _named_as(const unsigned char* s, const char* name, Py_ssize_t length) noexcept nogil:
    """Tell whether `length` bytes spell the lowercase ASCII name in any case."""
    cdef Py_ssize_t k
    for k in range(length):
        if (s[k] | 0x20) != name[k]:
            return False
    return True


cdef Py_ssize_t _find(
    const unsigned char* s, Py_ssize_t j, Py_ssize_t n, const char* text, Py_ssize_t length
) noexcept nogil:
    """Return where `text` first stands from s[j] on; -1 if nowhere."""
    cdef const unsigned char* found
    while j + length <= n:
        found = <const unsigned char*> memchr(s + j, text[0], n - j)
        if found == NULL:
            return -1
        j = found - s
        if j + length <= n and memcmp(s + j, text, length) == 0:
            return j
        j += 1
    return -1


cdef Py_ssize_t _raw_text_end(
    const unsigned char* s, Py_ssize_t j, Py_ssize_t n, const char* name, Py_ssize_t length
) noexcept nogil:
    """Return where a `</name` (any case) starts from s[j] on; n if nowhere."""
    cdef const unsigned char* found
    while j < n:
        found = <const unsigned char*> memchr(s + j, b"<", n - j)
        if found == NULL:
            return n
        j = found - s
        if j + 2 + length <= n and s[j + 1] == b"/" and _named_as(s + j + 2, name, length):
            return j
        j += 1
    return n


cdef Py_ssize_t _past_start_tag(
    const unsigned char* s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t cap, list crowded
):
    """Return where the start tag at s[i] ends (after a script's or style's text)."""
    cdef Py_ssize_t j = i + 2
    cdef Py_ssize_t count = 0
    cdef Py_ssize_t cut = -1
    cdef Py_ssize_t end, close, length
    while j < n and not (_ascii_space(s[j]) or s[j] == b"/" or s[j] == b">"):
        j += 1
    length = j - i - 1
    while True:
        end = _attribute(s, j, n)
        if end < 0:
            break
        count += 1
        if count == cap + 1:
            cut = j
        j = end
    close = _find(s, j, n, b">", 1)
    if close < 0:
        close = n
    if cut >= 0:
        crowded.append((cut, close))
    if length == 6 and _named_as(s + i + 1, b"script", 6):
        return _raw_text_end(s, close + 1, n, b"script", 6)
    if length == 5 and _named_as(s + i + 1, b"style", 5):
        return _raw_text_end(s, close + 1, n, b"style", 5)
    return close + 1


cdef Py_ssize_t _past_markup(
    const unsigned char* s, Py_ssize_t i, Py_ssize_t n, Py_ssize_t cap, list crowded
):
    """Return where the markup at s[i] (a "<") ends; note a start tag's crowded span."""
    cdef Py_ssize_t end
    cdef unsigned char after
    if i + 4 <= n and s[i + 1] == b"!" and s[i + 2] == b"-" and s[i + 3] == b"-":
        end = _find(s, i + 4, n, b"-->", 3)
        return n if end < 0 else end + 3
    if i + 1 >= n:
        return i + 1
    after = s[i + 1]
    if after == b"/" or after == b"!" or after == b"?":
        end = _find(s, i + 1, n, b">", 1)
        return n if end < 0 else end + 1
    if not (b"a" <= (after | 0x20) <= b"z"):
        return i + 1
    return _past_start_tag(s, i, n, cap, crowded)


def scan_tags(bytes source not None, Py_ssize_t max_attributes):
    """Return what parse.scan_tags returns: the premature end tags' spans, then those of the
    attributes past `max_attributes` in each start tag."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(source)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(source)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t end
    cdef const unsigned char* found
    ends = []
    while i < n:
        found = <const unsigned char*> memchr(s + i, b"<", n - i)
        if found == NULL:
            break
        i = found - s
        end = _end_tag(s, i, n)
        if end < 0:
            i += 1
        else:
            ends.append((i, end))
            i = end
    crowded = []
    i = 0
    while i < n:
        found = <const unsigned char*> memchr(s + i, b"<", n - i)
        if found == NULL:
            break
        i = _past_markup(s, found - s, n, max_attributes, crowded)
    return ends, crowded


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
