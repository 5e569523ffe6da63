# cython: language_level=3, boundscheck=False, wraparound=False
"""The allow-list rebuild's plain elements in C: the compiled part of `blocks._Found.sort`.

The rebuild looks at every element of the reader blocks; most are plain: a
kept tag whose attributes all go (class, id, data-*), an unknown tag to
unwrap by its name. Settling those on libxml2's
nodes spares an element proxy and its strings each (docs/performance.md,
"Eighth round"). Every other element is handed back, in document order, for
`_Found` to settle in Python, as it settles all of them without this module:
the tests run both ways over the golden pages and random trees.
"""

from lxml.includes cimport tree
from lxml.includes.etreepublic cimport (
    _Element,
    delAttributeFromNsName,
    elementFactory,
    import_lxml__etree,
)

from addon.core._libxml cimport same_name

import_lxml__etree()

# tags.ROLES, coded; UNKNOWN: a tag the rebuild unwraps by its name.
cdef enum:
    UNKNOWN = 0
    KEPT = 1
    HEADING = 2
    MENU = 3
    SKIP = 4
    SPECIAL = 5  # layout, link, image: settled in Python
    BLOCKISH = 8  # a flag: the tag is one of tags.BLOCKISH_TAGS

cdef enum:
    _MAX_TAGS = 128
    _MAX_KEPT_ATTRS = 32

cdef const char* _TAGS[_MAX_TAGS]
cdef int _KINDS[_MAX_TAGS]
# By a name's first byte: where the names starting with it begin and end in _TAGS.
cdef unsigned char _FIRST[256]
cdef unsigned char _STOP[256]
cdef int _TAG_COUNT = 0
cdef const char* _KEPT_ATTRS[_MAX_KEPT_ATTRS]  # an element with one is settled in Python
cdef int _KEPT_ATTR_COUNT = 0
cdef list _OWNED = []  # owns the strings the tables point to

_CODES = {"kept": KEPT, "heading": HEADING, "menu": MENU, "skip": SKIP}


cdef const char* _own(str text):
    """Keep a string's UTF-8 alive in _OWNED and return a pointer to it."""
    data = text.encode("utf-8")
    _OWNED.append(data)
    return <const char*> <bytes> data


def set_tables(roles, blockish, kept_attributes):
    """Take the tag roles, block-like tags and kept attributes from `tags` (the output stage)."""
    global _TAG_COUNT, _KEPT_ATTR_COUNT
    names = sorted(set(roles) | set(blockish))
    if len(names) > _MAX_TAGS or any(not name.isascii() for name in names) or len(kept_attributes) > _MAX_KEPT_ATTRS:
        raise ValueError("the tag or attribute table is too small")
    _OWNED.clear()
    cdef int i, first
    for i in range(256):
        _FIRST[i] = 0
        _STOP[i] = 0
    for i, name in enumerate(names):
        first = ord(name[0])
        if _STOP[first] == 0:
            _FIRST[first] = i
        _STOP[first] = i + 1
        _TAGS[i] = _own(name)
        _KINDS[i] = _CODES.get(roles.get(name), SPECIAL if name in roles else UNKNOWN)
        _KINDS[i] |= BLOCKISH if name in blockish else 0
    _TAG_COUNT = len(names)
    for i, name in enumerate(sorted(kept_attributes)):
        _KEPT_ATTRS[i] = _own(name)
    _KEPT_ATTR_COUNT = len(kept_attributes)


cdef int _find(const char* name) noexcept nogil:
    """Return the tag's index in the table, or -1."""
    cdef int i
    cdef unsigned char first = <unsigned char> name[0]
    for i in range(_FIRST[first], _STOP[first]):
        if same_name(name, _TAGS[i]):
            return i
    return -1


cdef bint _plain_name(const unsigned char* name) noexcept nogil:
    """Tell whether a tag name matches tags.PLAIN_NAME_RE: [a-z][a-z0-9-]*."""
    if not (b"a" <= name[0] <= b"z"):
        return False
    name += 1
    while name[0] != 0:
        if not (b"a" <= name[0] <= b"z" or b"0" <= name[0] <= b"9" or name[0] == b"-"):
            return False
        name += 1
    return True


cdef int _attributes(tree.xmlNode* node) noexcept nogil:
    """Return 0 without attributes, 1 when all may go, 2 when Python must look at them."""
    cdef tree.xmlAttr* attr = node.properties
    cdef int i
    if attr == NULL:
        return 0
    while attr != NULL:
        if attr.ns != NULL:
            return 2
        name = <const char*> attr.name
        if same_name(name, b"style") or same_name(name, b"hidden"):
            return 2  # maybe hidden: blocks._is_hidden decides
        for i in range(_KEPT_ATTR_COUNT):
            if same_name(name, _KEPT_ATTRS[i]):
                return 2
        attr = attr.next
    return 1


cdef int _settle(tree.xmlNode* node, int kind, bint shift_headings) except -1:
    """Settle a plain element in place; 0 when Python must settle it."""
    cdef int attributes = _attributes(node)
    cdef int role = kind & ~BLOCKISH
    # lxml renames an element (and its proxy keeps the name): Python does it.
    if attributes == 2 or role == SPECIAL or role == MENU or role == HEADING and shift_headings:
        return 0
    if attributes and role != SKIP:  # kept or heading: none of its attributes stays
        while node.properties != NULL:
            delAttributeFromNsName(node, NULL, node.properties.name)
    return 1


def settle_plain(_Element holder not None, list blockish not None, set unwrap not None,
                 bint shift_headings):
    """Settle the plain elements below the holder; return the rest in document order.

    Appends each block-like element (by its tag before the rebuild) to
    `blockish` and each unknown tag to unwrap by name to `unwrap`.
    """
    cdef list rest = []
    cdef tree.xmlNode* top = holder._c_node
    cdef tree.xmlNode* node = top.children
    cdef int index, kind
    while node != NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            index = _find(<const char*> node.name) if node.ns == NULL else -1
            kind = _KINDS[index] if index >= 0 else UNKNOWN
            if kind & BLOCKISH:
                blockish.append(elementFactory(holder._doc, node))
            if index < 0 and node.ns == NULL and _attributes(node) != 2:
                if _plain_name(<const unsigned char*> node.name):
                    unwrap.add((<bytes> node.name).decode("utf-8"))
                else:
                    rest.append(elementFactory(holder._doc, node))
            elif index < 0 or not _settle(node, kind, shift_headings):
                rest.append(elementFactory(holder._doc, node))
            if node.children != NULL:
                node = node.children
                continue
        while node.next == NULL:
            node = node.parent
            if node == top:
                return rest
        node = node.next
    return rest
