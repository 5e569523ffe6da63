# cython: language_level=3, boundscheck=False, wraparound=False
"""Word work in C: the compiled twin of `output.text.word_count`.

The regular expression the word count follows runs over the whole plain text
of every page, once for the page and once for each paragraph in the reader
check (docs/performance.md, "Sixth round"); one loop over the characters costs
a tenth of it.
"""

from cpython.unicode cimport Py_UNICODE_ISALNUM


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
