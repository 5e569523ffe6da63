"""Bytes and an optional HTTP Content-Type to text, the way a browser would (WHATWG Encoding).

The order is the HTML standard's: byte order mark, then the transport's charset, then a
`<meta>` found by prescanning the first bytes, then detection. Two repairs go beyond the
standard where the bytes prove the declaration wrong (see `_declared`); nothing here raises on
malformed input, every undecodable byte sequence becomes U+FFFD.
"""

from __future__ import annotations

import codecs
import re
from typing import Literal

import charset_normalizer
import webencodings

Source = Literal["bom", "header", "meta", "repaired", "detected", "default"]

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16le"),
    (b"\xfe\xff", "utf-16be"),
)

# Python codecs for WHATWG encodings whose webencodings mapping is not what browsers decode.
# WHATWG's "gbk" decoder is the gb18030 decoder (it reads four-byte sequences too).
_PYTHON_CODEC: dict[str, str] = {"gbk": "gb18030", "shift_jis": "cp932"}
# The name reported for a decoding: gbk labels are decoded (and so reported) as gb18030.
_REPORTED_NAME: dict[str, str] = {"gbk": "gb18030"}

# WHATWG's single-byte legacy encodings (Encoding standard §9); the "windows-1252 family"
# that the UTF-8 repair applies to.
SINGLE_BYTE = frozenset(
    {
        "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
        "iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13",
        "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u", "macintosh",
        "windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253",
        "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258",
        "x-mac-cyrillic",
    }
)  # fmt: skip

# Encodings detection may choose: the web's legacy encodings, without UTF-16 (only a BOM
# makes a page UTF-16, as in browsers) and the rarely used DOS and Mac code pages, which
# fit short texts as well as the common ones and would otherwise win by chance.
_DETECTABLE: tuple[str, ...] = (
    *sorted(SINGLE_BYTE - {"ibm866", "macintosh", "x-mac-cyrillic", "iso-8859-8-i"}),
    *("shift_jis", "euc-jp", "gb18030", "big5", "euc-kr"),
)

# A valid multi-byte UTF-8 sequence (RFC 3629 table: no overlongs, no surrogates, <= U+10FFFF).
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]"
    rb"|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)

# The five bytes windows-1252 leaves undefined (WHATWG maps them to C1 controls).
_CP1252_UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")

# Content-Type parameters: `; name = value`, the value a quoted-string or a token.
_CT_PARAM = re.compile(r';\s*([^\s=;"]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)')

# Prescan tokens: a comment, a <meta> tag with its attributes, any other tag (quoted attribute
# values may hold ">"), or a "<!", "</", "<?" construct up to the next ">".
_PRESCAN_TOKEN = re.compile(
    rb"<!--.*?(?:-->|\Z)"
    rb"|<meta(?=[\s/>])((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>?"
    rb"|<[a-zA-Z](?:[^>\"']|\"[^\"]*\"|'[^']*')*>?"
    rb"|<[!/?][^>]*>?",
    re.DOTALL | re.IGNORECASE,
)
# A <meta> naming UTF-16 was itself read as ASCII, so the page is not UTF-16: the standard
# says UTF-8; and x-user-defined from a <meta> means windows-1252.
_META_OVERRIDE: dict[str, str] = {
    "utf-16le": "utf-8",
    "utf-16be": "utf-8",
    "x-user-defined": "windows-1252",
}
_ATTRIBUTE = re.compile(rb"""([^\s/>=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]*))?""")
# WHATWG "extracting a character encoding from a meta element".
_CHARSET_IN_CONTENT = re.compile(
    rb"""charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))""", re.IGNORECASE
)


class Decoded:
    """A decoded page: its text, the WHATWG name of the encoding used, and why it was chosen.

    `utf8` is the text's UTF-8 encoding when the body already was exactly that (the
    bytes after any BOM were valid UTF-8), so a parser can read them as they are.
    Given those bytes without the text, the text is decoded from them when first
    asked for: the parser reads the bytes, and most pages need no other copy.
    """

    __slots__ = ("_text", "encoding", "source", "utf8")

    def __init__(
        self, text: str | None, encoding: str, source: Source, utf8: bytes | None = None
    ) -> None:
        if text is None and utf8 is None:
            raise ValueError("a decoded page needs its text or its UTF-8 bytes")
        self._text = text
        self.encoding = encoding
        self.source = source
        self.utf8 = utf8

    @property
    def text(self) -> str:
        """Return the page's text."""
        if self._text is None:
            assert self.utf8 is not None  # __init__ has one or the other
            self._text = self.utf8.decode("utf-8")
        return self._text

    def head(self, chars: int) -> str:
        """Return the text's first `chars` characters, decoding no more of it than that."""
        if self._text is not None or self.utf8 is None:
            return self.text[:chars]
        # Valid UTF-8 spells `chars` characters in at most 4 * chars bytes; a sequence
        # cut at the end of those is left out, past the characters kept.
        return self.utf8[: 4 * chars].decode("utf-8", "ignore")[:chars]

    def holds_ascii(self, char: str) -> bool:
        """Tell whether the text holds an ASCII character, without decoding it."""
        # In UTF-8 an ASCII byte is that character and never part of another.
        if self._text is None and self.utf8 is not None:
            return char.encode("ascii") in self.utf8
        return char in self.text

    def _key(self) -> tuple[str, str, str]:
        return self.text, self.encoding, self.source

    def __eq__(self, other: object) -> bool:
        # As a dataclass would compare: the bytes are the text's, not part of the value.
        return self._key() == other._key() if isinstance(other, Decoded) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Decoded(text={self.text!r}, encoding={self.encoding!r}, source={self.source!r})"


def decode(body: bytes, content_type: str | None = None, *, prescan_bytes: int = 4096) -> Decoded:
    """Decode a page body by BOM, header charset, <meta> prescan, then detection."""
    # prescan_bytes: the standard prescans 1024 bytes; pages with long <head>s (inline
    # styles, many <link>s) put their <meta charset> later, and browsers look further.
    for bom, name in _BOMS:
        if body.startswith(bom):
            if name == "utf-8":
                return _as_utf8(body[len(bom) :], "bom")
            return Decoded(_decode_as(body[len(bom) :], name), name, "bom")
    declared = _header_encoding(content_type)
    if declared is not None:
        return _declared(body, declared, "header")
    declared = _meta_encoding(body[:prescan_bytes])
    if declared is not None:
        return _declared(body, declared, "meta")
    return _detect(body)


def charset_from_content_type(content_type: str) -> str | None:
    """Return the charset parameter of a Content-Type value, unquoted, or None."""
    for match in _CT_PARAM.finditer(content_type):
        if match.group(1).lower() == "charset":
            return _parameter_value(match.group(2)) or None
    return None


def _parameter_value(raw: str) -> str:
    """Return a Content-Type parameter value unquoted and trimmed."""
    value = raw.strip()
    if value.startswith('"'):
        return re.sub(r"\\(.)", r"\1", value[1:].removesuffix('"')).strip()
    # Servers also send 'single quotes' and lists ("utf-8, text/plain"); a token ends at
    # whitespace or a comma either way.
    return re.split(r"[\s,]", value.strip("'"), maxsplit=1)[0]


def encoding_name(label: str) -> str | None:
    """Return the WHATWG encoding name for a label, or None for an unknown or unusable one."""
    encoding = webencodings.lookup(label)
    # "replacement" (ISO-2022-KR, HZ...) would turn the whole page into one U+FFFD: treat
    # it like an unknown label and let the next step decide.
    if encoding is None or encoding.name == "replacement":
        return None
    name: str = encoding.name
    return _REPORTED_NAME.get(name, name)


def _header_encoding(content_type: str | None) -> str | None:
    """Return the encoding a Content-Type header declares, or None."""
    if not content_type:
        return None
    label = charset_from_content_type(content_type)
    return encoding_name(label) if label else None


def _meta_encoding(head: bytes) -> str | None:
    """Return the encoding the first <meta> declaring one names (WHATWG prescan), or None."""
    for token in _PRESCAN_TOKEN.finditer(head):
        attributes = token.group(1)
        if attributes is None:
            continue
        label = _meta_label(attributes)
        name = encoding_name(label.decode("ascii", "replace")) if label else None
        if name is not None:
            return _META_OVERRIDE.get(name, name)
    return None


def _meta_label(attributes: bytes) -> bytes | None:
    """Return the charset label of one <meta>'s attribute text, or None."""
    values: dict[bytes, bytes] = {}
    for match in _ATTRIBUTE.finditer(attributes):
        name = match.group(1).lower()
        if name not in values:
            values[name] = _unquote(match.group(2) or b"")
    if values.get(b"charset"):
        return values[b"charset"]
    if values.get(b"http-equiv", b"").strip().lower() != b"content-type":
        return None
    found = _CHARSET_IN_CONTENT.search(values.get(b"content", b""))
    if found is None:
        return None
    return found.group(1) or found.group(2) or found.group(3) or None


def _unquote(value: bytes) -> bytes:
    """Return an attribute value without its surrounding quotes."""
    if len(value) >= 2 and value[:1] in b"\"'" and value[-1:] == value[:1]:
        return value[1:-1]
    return value


def _declared(body: bytes, name: str, source: Source) -> Decoded:
    """Decode by a declared encoding unless the bytes prove the declaration wrong."""
    if name == "utf-8":
        return _declared_utf8(body, source)
    if name in SINGLE_BYTE:
        return _declared_single_byte(body, name, source)
    return Decoded(_decode_as(body, name), name, source)


def _declared_single_byte(body: bytes, name: str, source: Source) -> Decoded:
    """Decode by a single-byte label, or as UTF-8 when the bytes are valid UTF-8 text."""
    if body.isascii():
        # ASCII reads the same in every single-byte encoding and in UTF-8.
        return Decoded(body.decode("ascii"), name, source, body)
    # Non-ASCII bytes that all form valid UTF-8 sequences are, in practice, never
    # intended single-byte text ("Ã±" pairs); decoding them as declared would show
    # mojibake, so this is a UTF-8 page with a stale declaration.
    decoded = _as_utf8(body, "repaired")
    if decoded.utf8 is not None:
        return decoded
    return Decoded(_decode_as(body, name), name, source)


def _declared_utf8(body: bytes, source: Source) -> Decoded:
    """Decode a body declared UTF-8, or as windows-1252 when the bytes say it is that."""
    decoded = _as_utf8(body, source)
    # Invalid UTF-8 without a single valid multi-byte sequence is legacy text under a wrong
    # label; if windows-1252 reads every byte (none of the undefined 81 8D 8F 90 9D), it is
    # the likely intent and loses nothing, where UTF-8 would turn each byte into U+FFFD.
    if decoded.utf8 is None and _UTF8_MULTIBYTE.search(body) is None and _is_cp1252(body):
        return Decoded(_decode_as(body, "windows-1252"), "windows-1252", "repaired")
    return decoded


def _as_utf8(body: bytes, source: Source) -> Decoded:
    """Decode as UTF-8, replacing invalid sequences; keep the bytes when they were valid."""
    text = body.decode("utf-8", "replace")
    # Each invalid sequence adds a U+FFFD beyond those the bytes spell (EF BF BD, whose
    # lead byte can never be swallowed by a preceding invalid sequence).
    valid = "\ufffd" not in text or text.count("\ufffd") == body.count(b"\xef\xbf\xbd")
    return Decoded(text, "utf-8", source, body if valid else None)


def _is_cp1252(body: bytes) -> bool:
    """Return whether every byte is defined in windows-1252 (Python's strict cp1252)."""
    return _CP1252_UNDEFINED.search(body) is None


def _detect(body: bytes) -> Decoded:
    """Decode an undeclared body: UTF-8 if valid, else charset-normalizer, else windows-1252."""
    if not body:
        return Decoded("", "utf-8", "default")
    utf8 = _as_utf8(body, "detected")
    if utf8.utf8 is not None:
        # A valid multi-byte UTF-8 sequence is very unlikely in any legacy encoding,
        # and pure ASCII reads the same in all of them.
        return utf8
    name = _detect_legacy(body)
    if name is None:
        return Decoded(_decode_as(body, "windows-1252"), "windows-1252", "default")
    return Decoded(_decode_as(body, name), name, "detected")


def _detect_legacy(body: bytes) -> str | None:
    """Return the WHATWG name of the legacy encoding charset-normalizer finds best, or None."""
    by_codec = {_canonical_codec(_python_codec(name)): name for name in _DETECTABLE}
    matches = charset_normalizer.from_bytes(body, cp_isolation=list(by_codec))
    if not matches:
        return None
    best = matches[0]
    tied = [m for m in matches if m.chaos <= best.chaos]
    # Short texts fit several single-byte encodings equally well; windows-1252 is the
    # web's most common legacy encoding and the standard's default, so it wins ties.
    if any("cp1252" in m.could_be_from_charset for m in tied):
        return "windows-1252"
    return by_codec.get(_canonical_codec(best.encoding))


def _python_codec(name: str) -> str:
    """Return the Python codec that decodes a WHATWG encoding as browsers do."""
    return _PYTHON_CODEC.get(name) or webencodings.PYTHON_NAMES.get(name, name)


def _canonical_codec(name: str) -> str:
    """Return Python's canonical name for a codec name ("windows-1252" -> "cp1252")."""
    return codecs.lookup(name).name


def _decode_as(body: bytes, name: str) -> str:
    """Decode bytes with a WHATWG encoding name, replacing what cannot be decoded."""
    if name in SINGLE_BYTE:
        return body.decode("latin-1").translate(_single_byte_table(name))
    if name == "x-user-defined":
        # WHATWG: bytes 80-FF map to the private-use U+F780-U+F7FF.
        return body.decode("latin-1").translate({byte: byte + 0xF700 for byte in range(128, 256)})
    return body.decode(_python_codec(name), "replace")


def _single_byte_table(name: str) -> dict[int, str]:
    """Return a latin-1-to-`name` translation table with WHATWG's C1 fallbacks."""
    decoded = bytes(range(256)).decode(_python_codec(name), "replace")
    # WHATWG maps the bytes 80-9F that an index leaves undefined (windows-1252's 81 8D 8F
    # 90 9D) to the C1 controls U+0080-U+009F, as latin-1 does; Python's cp125x codecs
    # reject them. Other undefined bytes stay U+FFFD, as in the standard.
    return {
        byte: char
        for byte, char in enumerate(decoded)
        if chr(byte) != char and not (char == "\ufffd" and 0x80 <= byte <= 0x9F)
    }
