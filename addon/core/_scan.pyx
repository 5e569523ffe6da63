# cython: language_level=3, boundscheck=False, wraparound=False
"""The page source's premature end tags found in C: the twin of `preprocess._PREMATURE_END_BYTES`.

Every page's bytes are searched for `</body>` and `</html>` before parsing
(thesis §4.3.1's parser trap). The pattern is tried at each "<" of the page;
this loop looks at the byte after each "<" first and costs a fraction of it
(docs/performance.md, "Eighth round"). The tests compare both on the golden
pages and on random bytes. `is_utf8` tells valid UTF-8 without decoding it;
`closes_alike` and `holds_data_url` tell in one pass each what the sanitiser's
string scans tell (`sanitise._closes_alike`, `sanitise.holds_data_url`);
`holds_any` looks for several words in one pass (`preprocess.holds_any`).
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport (
    Py_UNICODE_ISSPACE,
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_KIND,
)
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memcpy, memset


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


cdef inline Py_ssize_t _sequence(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Return the length of the well-formed UTF-8 sequence at s[i] (Unicode Table 3-7), or 0."""
    cdef unsigned char c = s[i]
    cdef unsigned char low = 0x80  # the second byte's range, by the lead byte
    cdef unsigned char high = 0xBF
    cdef Py_ssize_t length
    if 0xC2 <= c <= 0xDF:
        length = 2
    elif 0xE0 <= c <= 0xEF:
        length = 3
        low = 0xA0 if c == 0xE0 else 0x80  # no overlong form
        high = 0x9F if c == 0xED else 0xBF  # no surrogate
    elif 0xF0 <= c <= 0xF4:
        length = 4
        low = 0x90 if c == 0xF0 else 0x80  # no overlong form
        high = 0x8F if c == 0xF4 else 0xBF  # nothing past U+10FFFF
    else:
        return 0
    if i + length > n or not low <= s[i + 1] <= high:
        return 0
    cdef Py_ssize_t k
    for k in range(2, length):
        if not 0x80 <= s[i + k] <= 0xBF:
            return 0
    return length


cdef bint _valid(const unsigned char* s, Py_ssize_t n) noexcept nogil:
    """Tell whether n bytes are well-formed UTF-8, ASCII runs eight bytes at a time."""
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t length
    cdef uint64_t word
    while i < n:
        if i + 8 <= n:
            memcpy(&word, s + i, 8)
            if word & 0x8080808080808080ULL == 0:  # no byte with its top bit set
                i += 8
                continue
        if s[i] < 0x80:
            i += 1
            continue
        length = _sequence(s, i, n)
        if length == 0:
            return False
        i += length
    return True


def is_utf8(bytes data not None):
    """Tell whether bytes are valid UTF-8: whether data.decode("utf-8") would succeed."""
    cdef const unsigned char* s = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef bint valid
    with nogil:
        valid = _valid(s, n)
    return valid


ctypedef fused unit_t:
    uint8_t
    uint16_t
    uint32_t


cdef inline bint _at(const unit_t* s, Py_ssize_t i, Py_ssize_t n, const char* word) noexcept nogil:
    """Tell whether the NUL-terminated ASCII `word` stands in the code units at i."""
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if i + k >= n or s[i + k] != <unsigned char> word[k]:
            return False
        k += 1
    return True


cdef inline bint _table_part(const unit_t* s, Py_ssize_t i, Py_ssize_t n) noexcept:
    """Tell whether a table part's start tag (`sanitise._TABLE_PART_RE`) stands at the "<" at i."""
    cdef Py_ssize_t end
    if _at(s, i + 1, n, b"table"):
        end = i + 6
    elif _at(s, i + 1, n, b"caption"):
        end = i + 8
    elif i + 2 < n and s[i + 1] == b"t" and (s[i + 2] == b"d" or s[i + 2] == b"h" or s[i + 2] == b"r"):
        end = i + 3
    else:
        return False
    # The pattern's [\s/>]: \s is what str.isspace() calls space, as in re.
    return end < n and (s[end] == b"/" or s[end] == b">" or Py_UNICODE_ISSPACE(s[end]))


cdef bint _closes(const unit_t* s, Py_ssize_t n) noexcept:
    """Count the tags of markup in its code units; see `closes_alike`."""
    cdef Py_ssize_t i
    cdef Py_ssize_t tags = 0
    cdef Py_ssize_t ends = 0
    cdef Py_ssize_t voids = 0
    for i in range(n):
        if s[i] != b"<":
            continue
        tags += 1
        if i + 1 < n and s[i + 1] == b"/":
            ends += 1
        elif _at(s, i + 1, n, b"br") or _at(s, i + 1, n, b"hr") or _at(s, i + 1, n, b"img"):
            voids += 1
        elif _table_part(s, i, n):
            return False
    return tags - ends - voids == ends


def closes_alike(str source not None):
    """Tell whether serialised markup has no table part and ends every element it starts.

    The twin of `sanitise._closes_alike`, in one pass: "<" starts a tag and
    nothing else (lxml escapes it in text and values); br, hr and img have no end tag.
    """
    return _by_width(source, _CLOSES)


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
    return _by_width(markup, _DATA_URL)


cdef enum:  # the scans `_by_width` runs
    _CLOSES = 0
    _DATA_URL = 1


cdef bint _scan_units(const unit_t* s, Py_ssize_t n, int scan) noexcept:
    """Run one of the markup scans over code units of one width."""
    return _closes(s, n) if scan == _CLOSES else _data_url(s, n)


cdef bint _by_width(str text, int scan) noexcept:
    """Run a markup scan over the string's own code units: one, two or four bytes each."""
    cdef Py_ssize_t n = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    if kind == PyUnicode_1BYTE_KIND:
        return _scan_units(<const uint8_t*> data, n, scan)
    if kind == PyUnicode_2BYTE_KIND:
        return _scan_units(<const uint16_t*> data, n, scan)
    return _scan_units(<const uint32_t*> data, n, scan)


cdef enum:
    # The most words `holds_any` looks for in one pass: a bit each in a mask per first letter.
    _MAX_WORDS = 64


cdef bint _holds_any(const unit_t* s, Py_ssize_t n, const char** words, uint64_t* first) noexcept nogil:
    """Find any of the ASCII words in the code units; `first` maps a letter to the words it opens."""
    cdef Py_ssize_t i
    cdef uint64_t mask
    cdef int j
    for i in range(n):
        if s[i] >= 128:
            continue
        mask = first[s[i]]
        j = 0
        while mask:
            if mask & 1 and _at(s, i, n, words[j]):
                return True
            mask >>= 1
            j += 1
    return False


def holds_any(str text not None, tuple words not None):
    """Tell whether the text holds any of the words: `any(word in text for word in words)`.

    One pass over the text's own code units, where str.find makes one per word.
    """
    if not words or len(words) > _MAX_WORDS:
        return any(word in text for word in words)
    cdef list spelled = []
    for word in words:
        if not isinstance(word, str) or not word or not (<str> word).isascii() or "\0" in word:
            return any(word in text for word in words)  # beyond the C pass: the plain test
        spelled.append((<str> word).encode("ascii"))
    cdef const char* pointers[_MAX_WORDS]
    cdef uint64_t first[128]
    cdef Py_ssize_t j
    memset(first, 0, sizeof(first))
    for j in range(len(spelled)):
        pointers[j] = <const char*> (<bytes> spelled[j])
        first[<unsigned char> pointers[j][0]] |= (<uint64_t> 1) << j
    cdef Py_ssize_t n = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    if kind == PyUnicode_1BYTE_KIND:
        return _holds_any(<const uint8_t*> data, n, pointers, first)
    if kind == PyUnicode_2BYTE_KIND:
        return _holds_any(<const uint16_t*> data, n, pointers, first)
    return _holds_any(<const uint32_t*> data, n, pointers, first)
