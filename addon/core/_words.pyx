# cython: language_level=3, boundscheck=False, wraparound=False
"""Word work in C: the compiled twins of `content.word_count`, `preprocess._word_hits` and
`direction.has_rtl`.

The regular expression the word count follows runs over the whole plain text
of every page, once for the page and once for each paragraph in the reader
check (docs/performance.md, "Sixth round"); one loop over the characters costs
a tenth of it. The class/id word hits cut a page's distinct class and id values
(some kilobytes of them) into pieces, which in Python made a string and a set
entry of each (docs/performance.md, "Tenth round").
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport (
    Py_UNICODE_ISALNUM,
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_AsUTF8AndSize,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
)
from libc.string cimport memchr, memcmp


cdef inline bint _cjk(Py_UCS4 c) noexcept nogil:
    """Tell whether a character is one the pattern counts as a word by itself."""
    return (
        0x3040 <= c <= 0x30FF or 0x3400 <= c <= 0x4DBF
        or 0x4E00 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF
    )


cdef inline bint _alnum(Py_UCS4 c) noexcept:
    """Tell whether str.isalnum() accepts a character; ASCII without a table lookup."""
    if c < 0x80:
        return (0x30 <= c <= 0x39) or (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)
    return Py_UNICODE_ISALNUM(c)


def word_count(str text not None):
    """Return len(re.findall(r"[CJK]|[^\\W_]+", text)) for `content._WORD_RE`'s CJK ranges.

    As the pattern does at each place it tries: a CJK character is a word by
    itself; else a letter or digit (str.isalnum) starts a word that runs over
    every letter and digit after it, CJK ones too.
    """
    cdef Py_ssize_t count = 0
    cdef bint in_word = False
    cdef Py_UCS4 c
    for c in text:
        if in_word and _alnum(c):
            continue
        in_word = False
        if _cjk(c):
            count += 1
        elif _alnum(c):
            count += 1
            in_word = True
    return count


cdef inline bint _space(unsigned char c) noexcept nogil:
    """Tell whether str.split() takes an ASCII character for space (`preprocess._ASCII_SPACE`)."""
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


cdef inline bint _joiner(unsigned char c) noexcept nogil:
    """Tell whether a character joins the pieces of a name token: - or _."""
    return c == 45 or c == 95


cdef inline bint _bounded(unsigned char before, unsigned char after) noexcept nogil:
    """Tell whether a word between these characters opens or closes a name token."""
    if _space(before):
        return _space(after) or _joiner(after)
    return _joiner(before) and _space(after)


cdef class _Parts:
    """The distinct pieces of the words, by length, and which of them the text holds."""

    cdef list keep  # the pieces' bytes, alive while their pointers are read
    cdef dict index  # piece -> its number
    cdef const char** text
    cdef Py_ssize_t* size
    cdef bint* found
    cdef Py_ssize_t* by_length  # piece numbers sorted by length
    cdef Py_ssize_t* first  # first[n]: where pieces of length n start in by_length
    cdef Py_ssize_t longest

    def __cinit__(self, dict words):
        cdef Py_ssize_t count, i, n
        self.keep = []
        self.index = {}
        for parts in words.values():
            for part in parts:
                if part not in self.index:
                    self.index[part] = len(self.keep)
                    self.keep.append((<str> part).encode("ascii"))
        count = len(self.keep)
        self.longest = max([len(part) for part in self.keep], default=0)
        self.text = <const char**> PyMem_Malloc((count + 1) * sizeof(char*))
        self.size = <Py_ssize_t*> PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
        self.found = <bint*> PyMem_Malloc((count + 1) * sizeof(bint))
        self.by_length = <Py_ssize_t*> PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
        self.first = <Py_ssize_t*> PyMem_Malloc((self.longest + 2) * sizeof(Py_ssize_t))
        if not (self.text and self.size and self.found and self.by_length and self.first):
            raise MemoryError()
        for i in range(count):
            self.text[i] = <const char*> (<bytes> self.keep[i])
            self.size[i] = len(<bytes> self.keep[i])
            self.found[i] = False
        order = sorted(range(count), key=lambda k: len(self.keep[k]))
        for i in range(count):
            self.by_length[i] = order[i]
        i = 0
        for n in range(self.longest + 2):
            while i < count and self.size[self.by_length[i]] < n:
                i += 1
            self.first[n] = i

    def __dealloc__(self):
        PyMem_Free(self.text)
        PyMem_Free(self.size)
        PyMem_Free(self.found)
        PyMem_Free(self.by_length)
        PyMem_Free(self.first)

    cdef void see(self, const char* piece, Py_ssize_t length) noexcept nogil:
        """Mark the word piece equal to this piece of the text, if there is one."""
        cdef Py_ssize_t k, at
        if length > self.longest:
            return
        for k in range(self.first[length], self.first[length + 1]):
            at = self.by_length[k]
            if self.text[at][0] == piece[0] and memcmp(self.text[at], piece, length) == 0:
                self.found[at] = True
                return

    cdef bint holds(self, tuple parts):
        """Tell whether the text held every one of a word's pieces."""
        for part in parts:
            if not self.found[<Py_ssize_t> self.index[part]]:
                return False
        return True


cdef void _see_pieces(_Parts parts, const char* text, Py_ssize_t size) noexcept nogil:
    """Mark the word pieces the text holds, cut at every space, - and _."""
    cdef Py_ssize_t start = 0, end
    while start < size:
        if _space(text[start]) or _joiner(text[start]):
            start += 1
            continue
        end = start + 1
        while end < size and not (_space(text[end]) or _joiner(text[end])):
            end += 1
        parts.see(text + start, end - start)
        start = end


cdef Py_ssize_t _name_at(Py_ssize_t* starts, Py_ssize_t names, Py_ssize_t position) noexcept nogil:
    """Return the number of the name whose span (its separator after it too) holds a position."""
    cdef Py_ssize_t low = 0, high = names  # bisect_right(starts, position) - 1
    cdef Py_ssize_t middle
    while low < high:
        middle = (low + high) // 2
        if position < starts[middle]:
            high = middle
        else:
            low = middle + 1
    return low - 1


def word_hits(list names not None, dict words not None):
    """Map each word that matches some of the ASCII names to their indexes: `preprocess._word_hits`."""
    cdef str joined = " ".join(names).lower()
    cdef Py_ssize_t size, count = len(names), i, start, length
    cdef const char* text = PyUnicode_AsUTF8AndSize(joined, &size)
    cdef const char* found
    cdef const char* wanted
    cdef unsigned char before, after
    cdef _Parts parts = _Parts(words)
    cdef dict hits = {}
    cdef set named
    if size != len(joined):  # the offsets below count bytes
        raise ValueError("word_hits() takes ASCII names only")
    _see_pieces(parts, text, size)
    present = [word for word, pieces in words.items() if parts.holds(pieces)]
    if not present:
        return hits
    cdef Py_ssize_t* starts = <Py_ssize_t*> PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
    if not starts:
        raise MemoryError()
    try:
        start = 0
        for i in range(count):
            starts[i] = start
            start += len(<str> names[i]) + 1
        for word in present:
            encoded = (<str> word).encode("ascii")
            wanted = <const char*> (<bytes> encoded)
            length = len(<bytes> encoded)
            named = set()
            start = 0
            while start + length <= size:
                found = <const char*> memchr(text + start, wanted[0], size - length + 1 - start)
                if found == NULL:
                    break
                start = found - text
                if memcmp(found, wanted, length) == 0:
                    before = text[start - 1] if start else 32
                    after = text[start + length] if start + length < size else 32
                    if _bounded(before, after):
                        named.add(_name_at(starts, count, start))
                start += 1
            if named:
                hits[word] = named
    finally:
        PyMem_Free(starts)
    return hits
