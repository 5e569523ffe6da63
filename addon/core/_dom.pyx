# cython: language_level=3, boundscheck=False, wraparound=False
"""Attribute and text queries over libxml2's own nodes: the compiled twins of `dom`'s.

An XPath such as `//*/@class` has libxml2 build a node set of every element
of the page, and lxml a string tied to its element for each value; the
preprocessing asks seven of them, and the page's text length five times, on
every page (docs/performance.md, "Sixth round"). Walking the nodes here
makes Python objects only for the elements found and their values.
"""

from lxml.includes cimport tree
from lxml.includes.etreepublic cimport _Element, elementFactory, import_lxml__etree

from addon.core._libxml cimport attribute_value, is_text, named_attribute, same_name, string_chars

import_lxml__etree()


cdef inline tree.xmlNode* _next_node(tree.xmlNode* node, tree.xmlNode* top) noexcept nogil:
    """Return the node after `node` in document order under `top`, or NULL past the last.

    Only elements are entered: other nodes hold no attributes.
    """
    if node.type == tree.XML_ELEMENT_NODE and node.children != NULL:
        return node.children
    while node != top and node.next == NULL:
        node = node.parent
    return NULL if node == top else node.next


def attribute_values(_Element root not None, str name not None):
    """Map each element of root's subtree (root too) that has attribute `name` to its value.

    In document order, as `//*/@name` finds them from the document's root.
    """
    cdef bytes key = name.encode("utf-8")
    cdef dict found = {}
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlAttr* attr
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE:
            attr = named_attribute(node, key)
            if attr != NULL:
                found[elementFactory(root._doc, node)] = attribute_value(attr)
        node = _next_node(node, top)
    return found


def attribute_value_set(_Element root not None, tuple names not None):
    """Return the distinct values the attributes `names` have in root's subtree (root too).

    What the values of `attribute_values(root, name)` for each name hold, with
    no element proxy made: a page has hundreds of class values and few of
    their elements are ever wanted (`elements_valued` finds those).
    """
    cdef list keys = [name.encode("utf-8") for name in names]
    cdef set found = set()
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlAttr* attr
    cdef bytes key
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE:
            for key in keys:
                attr = named_attribute(node, key)
                if attr != NULL:
                    found.add(attribute_value(attr))
        node = _next_node(node, top)
    return found


def elements_valued(_Element root not None, tuple names not None, values not None):
    """Return the elements whose attribute names[0] has one of the values, in document order,
    then those of names[1] not listed yet, and so on: each element once."""
    cdef list keys = [name.encode("utf-8") for name in names]
    cdef list found = [[] for _ in keys]
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlAttr* attr
    cdef Py_ssize_t i
    if not values:
        return []
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE:
            for i in range(len(keys)):
                attr = named_attribute(node, <bytes> keys[i])
                if attr != NULL and attribute_value(attr) in values:
                    (<list> found[i]).append(elementFactory(root._doc, node))
        node = _next_node(node, top)
    return list(dict.fromkeys([element for elements in found for element in elements]))


def text_length(_Element element not None):
    """Return the length of the element's text with its descendants' (`dom.text_content`)."""
    return string_chars(element._c_node)


cdef inline unsigned char _display_fold(unsigned char c) noexcept nogil:
    """Lower the capitals of "DISPLAYNOE", as `dom.hides` folds a style."""
    if c in b"DISPLAYNOE":
        return c + 32
    return c


cdef bint _holds_display_none(const unsigned char* style) noexcept nogil:
    """Tell whether a style, its spaces dropped and "DISPLAYNOE" lowered, holds display:none."""
    # The same characters `dom.hides` compares: its fold maps those ten capitals
    # and drops U+0020 only, and UTF-8 bytes of other characters are all >= 0x80.
    cdef const unsigned char* want = b"display:none"
    cdef const unsigned char* start = style
    cdef const unsigned char* at
    cdef Py_ssize_t matched
    while start[0] != 0:
        if _display_fold(start[0]) == want[0]:
            at = start + 1
            matched = 1
            while want[matched] != 0 and at[0] != 0:
                if at[0] != 32:
                    if _display_fold(at[0]) != want[matched]:
                        break
                    matched += 1
                at += 1
            if want[matched] == 0:
                return True
        start += 1
    return False


cdef bint _style_hides(tree.xmlAttr* attr):
    """Tell whether a style attribute's value sets display:none (see `_holds_display_none`)."""
    cdef tree.xmlNode* node = attr.children
    cdef bytes joined
    if node != NULL and node.next == NULL and is_text(node):  # nearly every value
        return node.content != NULL and _holds_display_none(<const unsigned char*> node.content)
    joined = attribute_value(attr).encode("utf-8")
    return _holds_display_none(<const unsigned char*> joined)


cdef bint _is_true(tree.xmlAttr* attr):
    """Tell whether an attribute's value is exactly "true"."""
    cdef tree.xmlNode* node = attr.children
    if node != NULL and node.next == NULL and is_text(node):
        return node.content != NULL and same_name(<const char*> node.content, b"true")
    return attribute_value(attr) == "true"


def hidden_elements(_Element root not None):
    """Return the elements of root's subtree (root too) with a `hidden` attribute, those whose
    style sets display:none and those aria-hidden="true": three lists in document order."""
    cdef list flagged = []
    cdef list styled = []
    cdef list unvoiced = []
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlAttr* attr
    cdef int seen  # the names met on this element: only the first of each counts
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE:
            attr = node.properties
            seen = 0
            while attr != NULL:  # one look at each attribute for all three names
                if attr.ns == NULL:
                    if not seen & 1 and same_name(<const char*> attr.name, b"hidden"):
                        seen |= 1
                        flagged.append(elementFactory(root._doc, node))
                    elif not seen & 2 and same_name(<const char*> attr.name, b"style"):
                        seen |= 2
                        if _style_hides(attr):
                            styled.append(elementFactory(root._doc, node))
                    elif not seen & 4 and same_name(<const char*> attr.name, b"aria-hidden"):
                        seen |= 4
                        if _is_true(attr):
                            unvoiced.append(elementFactory(root._doc, node))
                attr = attr.next
        node = _next_node(node, top)
    return flagged, styled, unvoiced


cdef bint _has_wanted(tree.xmlNode* node, list keys, list values) except -1:
    """Tell whether an element has one of the attributes `keys` with one of its `values`."""
    cdef tree.xmlAttr* attr
    cdef Py_ssize_t i
    for i in range(len(keys)):
        attr = named_attribute(node, <bytes> keys[i])
        if attr != NULL and attribute_value(attr) in values[i]:
            return True
    return False


def elements_with(_Element root not None, dict wanted not None):
    """Return the elements of root's subtree (root too) that have one of the attributes
    `wanted` names with one of its values there, in document order: each element once."""
    cdef list keys = [name.encode("utf-8") for name in wanted]
    cdef list values = list(wanted.values())
    cdef list found = []
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE and _has_wanted(node, keys, values):
            found.append(elementFactory(root._doc, node))
        node = _next_node(node, top)
    return found


cdef bint _holds_word(const unsigned char* value, const unsigned char* word) noexcept nogil:
    """Tell whether NUL-terminated UTF-8 holds the lowercase ASCII word, its letters in any case."""
    # Only ASCII letters compare: a UTF-8 sequence of another character holds no ASCII byte.
    cdef Py_ssize_t k
    while value[0] != 0:
        k = 0
        while word[k] != 0 and (value[k] == word[k] or value[k] == word[k] - 32):
            k += 1
        if word[k] == 0:
            return True
        value += 1
    return False


def elements_holding(_Element root not None, str tag not None, str name not None, str word not None):
    """Return the elements `tag` under root (root too) whose attribute `name` holds `word`
    (lowercase ASCII letters) in any case, in document order: the twin of
    `dom.walk_elements_holding`, with no proxy made for the other elements.
    """
    cdef bytes tag_key = tag.encode("utf-8")
    cdef bytes key = name.encode("utf-8")
    cdef bytes wanted = word.encode("ascii")
    cdef list found = []
    cdef tree.xmlNode* top = root._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlAttr* attr
    cdef tree.xmlNode* text
    cdef bint holds
    while node != NULL:  # depth first
        if node.type == tree.XML_ELEMENT_NODE and node.ns == NULL and same_name(<const char*> node.name, tag_key):
            attr = named_attribute(node, key)
            if attr != NULL:
                text = attr.children
                if text != NULL and text.next == NULL and is_text(text):  # nearly every value
                    holds = text.content != NULL and _holds_word(text.content, wanted)
                else:
                    holds = _holds_word(attribute_value(attr).encode("utf-8"), wanted)
                if holds:
                    found.append(elementFactory(root._doc, node))
        node = _next_node(node, top)
    return found


def unlink_all(_Element root not None, list elements not None):
    """Take each element (not root) out of its tree, its tail left where it stood.

    What `strip_elements(root, ..., with_tail=False)` does to elements renamed for
    it (`dom.walk_unlink_all`), without the walk over the whole tree to find them
    or the walk over each subtree to settle its proxies: lxml frees an unlinked
    subtree once no proxy holds any of it.
    """
    cdef _Element element
    cdef tree.xmlNode* node
    for item in elements:
        element = <_Element?> item
        node = element._c_node
        if node != root._c_node and node.parent != NULL and node.parent.type == tree.XML_ELEMENT_NODE:
            _unlink(node)


cdef void _unlink(tree.xmlNode* node) noexcept nogil:
    """Take an element out from among its siblings, as libxml2's xmlUnlinkNode does.

    libxml2's own function is not among lxml's exported ones: for an element
    below another, unlinking is these pointers.
    """
    cdef tree.xmlNode* parent = node.parent
    if parent.children == node:
        parent.children = node.next
    if parent.last == node:
        parent.last = node.prev
    if node.prev != NULL:
        node.prev.next = node.next
    if node.next != NULL:
        node.next.prev = node.prev
    node.parent = NULL
    node.prev = NULL
    node.next = NULL
