# cython: language_level=3
"""The walk of :func:`filters.html5.segment`, compiled: the same phrases and blocks, read from lexbor's node structs.

The Python walk calls into selectolax for every node (about 2,000 a page); most of the pipeline's time went there.
This module steps through lexbor's own ``lxb_dom_node_t`` structs instead, decodes only the text it keeps, and
wraps a node in a selectolax ``LexborNode`` only where the walk reads attributes (links, marked blocks, meta) or a
tag name seen for the first time.  Its logic is the Python walk's, line for line; ``filters.html5`` uses it when the
selectolax installed is the release declared here and the walk passes the self-check there, and the Python walk
otherwise; tests/filters/test_fast_paths.py holds the two to the same output.

Built by ``pip install -e .`` (setup.py, Cython); the layouts below are lexbor's as bundled in the selectolax release
``SELECTOLAX_VERSION`` (lexbor/dom).  Redeclared, not cimported: selectolax's ``lexbor.pxd`` takes them from lexbor's
headers, which its wheels do not ship, and leaves the element struct opaque.
"""

from libc.stdint cimport uintptr_t
from cpython.object cimport PyTypeObject
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_Resize
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_DecodeUTF8, PyUnicode_New

from .hidden import hidden_class, hidden_reason
from .limits import MAX_DEPTH, too_deep
from .phrases import Phrase


cdef struct lexbor_str_t:
    unsigned char *data
    size_t length


cdef struct lxb_dom_node_t:
    void *events
    uintptr_t local_name
    uintptr_t prefix
    uintptr_t ns
    void *owner_document
    lxb_dom_node_t *next
    lxb_dom_node_t *prev
    lxb_dom_node_t *parent
    lxb_dom_node_t *first_child
    lxb_dom_node_t *last_child
    void *user
    int type


cdef struct lxb_dom_character_data_t:
    lxb_dom_node_t node
    lexbor_str_t data


cdef struct lxb_dom_attr_t:
    lxb_dom_node_t node
    uintptr_t upper_name
    uintptr_t qualified_name
    lexbor_str_t *value
    void *owner
    lxb_dom_attr_t *next
    lxb_dom_attr_t *prev


cdef struct lxb_dom_element_t:
    lxb_dom_node_t node
    uintptr_t upper_name
    uintptr_t qualified_name
    lexbor_str_t *is_value
    lxb_dom_attr_t *first_attr
    lxb_dom_attr_t *last_attr
    # the element's id and class attributes, also in the list above
    lxb_dom_attr_t *attr_id
    lxb_dom_attr_t *attr_class


# selectolax's LexborNode object: its C layout, so that a node can be wrapped from a struct pointer as
# LexborNode.new does (checked against selectolax itself by filters.html5 before this walk is used)
cdef extern from *:
    """
    typedef struct {
        PyObject_HEAD
        void *__pyx_vtab;
        void *node;
        PyObject *parser;
        int _is_fragment_root;
        int _is_template_content;
    } WimsLexborNodeObject;
    """
    ctypedef struct WimsLexborNodeObject:
        pass
    ctypedef class selectolax.lexbor.LexborNode [object WimsLexborNodeObject, check_size ignore]:
        cdef void *node
        cdef object parser


cdef extern from *:
    const char *WIMS_SOURCE_SHA256  # defined by setup.py


#: the SHA-256 of the source this module was compiled from (the .pyx and its included .pxi: filters/compiled_sources.py)
SOURCE_SHA256 = WIMS_SOURCE_SHA256.decode("ascii")
#: the selectolax release whose structs are declared here (pinned in pyproject.toml): filters.html5 runs no self-check,
#: which reads the structs and could crash rather than fail, with any other
SELECTOLAX_VERSION = "1.0.2"


cdef enum:
    _ELEMENT = 1
    _TEXT = 3
    _COMMENT = 8
    _FAST_IDS = 1024  # lexbor's static tag ids are below this; custom elements get larger ones
    # bit flags: the same values as filters.html5's
    _HARD = 1
    _LINK = 2
    _POS = 4
    _SPECIAL = 8
    _BLOCK = 16
    _MARKED = 32
    _OPAQUE = 64

cdef int _PATH_LIMIT = 400
cdef Py_ssize_t _MAX_DEPTH = MAX_DEPTH
#: lexbor's id of the attribute name "href" (its ``local_name``), read from a parsed link the first time a walk runs:
#: only then have selectolax's release and the structs been vouched for (filters.html5's self-check)
cdef uintptr_t _HREF_ID = 0


cdef inline LexborNode _wrap(lxb_dom_node_t *ptr, object tree):
    cdef LexborNode node = LexborNode.__new__(LexborNode)
    node.node = <void *> ptr
    node.parser = tree
    return node


cdef extern from *:
    """
    #include "structmember.h"

    /* A Phrase (filters.phrases, a dataclass with __slots__) built as object.__new__ and its __init__ would, without
       running the __init__'s bytecode: each field stored in its slot, at the offset the class's member descriptor
       gives (read once, by name, by _phrase_layout). */
    static PyTypeObject *wims_phrase_type = NULL;
    static Py_ssize_t wims_phrase_offset[9];

    static Py_ssize_t wims_slot_offset(PyObject *descr) {
        PyMemberDef *member;
        if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
        member = ((PyMemberDescrObject *) descr)->d_member;
        if (member->type != T_OBJECT_EX || (member->flags & READONLY)) return -1;
        return member->offset;
    }

    static PyObject *wims_phrase(PyObject *text, PyObject *path, PyObject *neg, PyObject *pos, PyObject *link_density,
                                 PyObject *node) {
        PyObject *values[9], *obj;
        int k;
        obj = wims_phrase_type->tp_alloc(wims_phrase_type, 0);
        if (obj == NULL) return NULL;
        values[0] = text; values[1] = path; values[2] = neg; values[3] = pos; values[4] = link_density;
        values[5] = values[6] = values[8] = Py_None;  /* removed_by, rescued_by, note */
        values[7] = node;
        for (k = 0; k < 9; k++) {
            Py_INCREF(values[k]);
            *(PyObject **) ((char *) obj + wims_phrase_offset[k]) = values[k];
        }
        return obj;
    }
    """
    PyTypeObject *wims_phrase_type
    Py_ssize_t wims_phrase_offset[9]
    Py_ssize_t wims_slot_offset(object descr)
    object wims_phrase(object text, object path, object neg, object pos, object link_density, object node)

#: Phrase's fields in the order wims_phrase stores them
_PHRASE_FIELDS = ("text", "path", "neg", "pos", "link_density", "removed_by", "rescued_by", "node", "note")


cdef bint _phrase_layout():
    """Whether Phrase is the slotted dataclass wims_phrase can fill (exactly these fields, each a writable slot, no
    __post_init__), with the offsets read; else the walk calls Phrase() (slower, the same phrases)."""
    import dataclasses

    global wims_phrase_type
    if tuple(f.name for f in dataclasses.fields(Phrase)) != _PHRASE_FIELDS or hasattr(Phrase, "__post_init__"):
        return False
    if Phrase.__new__ is not object.__new__:
        return False
    cdef Py_ssize_t k, offset
    for k, name in enumerate(_PHRASE_FIELDS):
        offset = wims_slot_offset(Phrase.__dict__[name])
        if offset < 0:
            return False
        wims_phrase_offset[k] = offset
    wims_phrase_type = <PyTypeObject *> Phrase
    return True


cdef bint _FAST_PHRASE = _phrase_layout()
#: whether the walk builds its phrases in C (for the tests)
PHRASE_IN_C = _FAST_PHRASE


cdef inline object _phrase(str text, str path, object neg, object pos, object link_density, object block):
    """``Phrase(text, path, neg, pos, link_density, None, None, block)``: most of a phrase's cost was its
    __init__'s bytecode (9 % of the walk); without it where the layout allows (:func:`_phrase_layout`)."""
    if _FAST_PHRASE:
        return wims_phrase(text, path, neg, pos, link_density, block)
    return Phrase(text, path, neg, pos, link_density, None, None, block)


def layout_ok(object original, object tree):
    """Whether selectolax's node objects have the layout declared above: read-only, on an existing ``original``."""
    if type(original) is not LexborNode or type(original).__basicsize__ != sizeof(WimsLexborNodeObject):
        return False
    cdef LexborNode node = original
    return <size_t> node.node == original.mem_id and node.parser is tree


def wrap(size_t ptr, object tree):
    """A selectolax node for a struct address (the self-check's and the tests' way in)."""
    return _wrap(<lxb_dom_node_t *> ptr, tree)


def node_count(size_t root):
    """Nodes and text characters under ``root`` (an address), walked through the structs: the self-check."""
    cdef lxb_dom_node_t *top = <lxb_dom_node_t *> root
    cdef lxb_dom_node_t *node = top
    cdef lxb_dom_character_data_t *cd
    cdef Py_ssize_t n = 0, chars = 0
    while node != NULL:
        n += 1
        if node.type == _TEXT:
            cd = <lxb_dom_character_data_t *> node
            if cd.data.data != NULL:
                chars += len(PyUnicode_DecodeUTF8(<char *> cd.data.data, cd.data.length, "replace"))
        if node.first_child != NULL:
            node = node.first_child
            continue
        while node != top and node.next == NULL:
            node = node.parent
        if node == top:
            break
        node = node.next
    return n, chars


include "_html5_text.pxi"


cdef inline object _negative_phrase(str text, str path, str tag, object pos, object block):
    """filters.html5's: the phrase of a negative tag's text (or a comment's), a long one only stripped."""
    return _phrase(_norm(text) if len(text) < 1000 else text.strip(), path, tag, pos, None, block)


# the tests' way in to _phrase (the text helpers': _html5_text.pxi)
def phrase(str text, str path, object neg, object pos, object link_density, Py_ssize_t block):
    return _phrase(text, path, neg, pos, link_density, block)


#: the attribute names a block's marks and hidden cues read (_other_marks): role 1, style 2, hidden cues 3, class
#: and id 4 (read from the element's own pointers), any other 0
_ATTR_KINDS = {"role": 1, "style": 2, "hidden": 3, "aria-hidden": 3, "class": 4, "id": 4}


cdef object _other_marks(lxb_dom_element_t *element, dict kinds):
    """A block's ``(role, style, hidden cue)`` read from its attribute structs, as selectolax's ``attributes`` would
    give them; None where an attribute's name is not known yet (lexbor's ids of most names are the document's own,
    learned as the walk meets them: _learn_kinds) or has a prefix (``xlink:role``)."""
    cdef lxb_dom_attr_t *attr = element.first_attr
    cdef bint cue = False
    role = style = None
    while attr != NULL:
        if attr != element.attr_class and attr != element.attr_id:
            kind = kinds.get(attr.node.local_name) if attr.node.prefix == 0 else None
            if kind is None or kind == 4:
                return None
            if kind == 1:
                role = _attr_value(attr)
            elif kind == 2:
                style = _attr_value(attr)
            elif kind == 3:
                cue = True
        attr = attr.next
    return role, style, cue


cdef void _learn_kinds(lxb_dom_element_t *element, dict marks, dict kinds) except *:
    """The kinds of a block's attribute names (_ATTR_KINDS) by their ids, from selectolax's ``attributes`` of the
    same element: its keys are the attributes' names in the structs' order (unprefixed ones only are learned)."""
    cdef lxb_dom_attr_t *attr = element.first_attr
    cdef list names = list(marks)
    cdef Py_ssize_t i = 0
    while attr != NULL:
        i += 1
        attr = attr.next
    if i != len(names):  # not one key per struct: nothing learned
        return
    attr, i = element.first_attr, 0
    while attr != NULL:
        if attr.node.prefix == 0:
            kinds[attr.node.local_name] = _ATTR_KINDS.get(names[i], 0)
        attr = attr.next
        i += 1


cdef str _own_text(lxb_dom_node_t *node, object tree):
    """``text(deep=True)`` of an element: read from the struct when it has no child or one text child (scripts,
    styles, the title: what they almost always hold), without wrapping the node; through selectolax otherwise."""
    cdef lxb_dom_character_data_t *cd = <lxb_dom_character_data_t *> node.first_child
    if cd == NULL:
        return ""
    if cd.node.type == _TEXT and node.first_child == node.last_child and cd.data.data != NULL:
        return PyUnicode_DecodeUTF8(<char *> cd.data.data, cd.data.length, "replace")
    return _wrap(node, tree).text(deep=True)


cdef uintptr_t _href_id() except 0:
    """lexbor's id of the attribute name "href"."""
    from selectolax.lexbor import LexborHTMLParser

    link = LexborHTMLParser('<a href="x"></a>').css_first("a")
    cdef lxb_dom_element_t *element = <lxb_dom_element_t *> <size_t> link.mem_id
    return element.first_attr.node.local_name


cdef object _href(lxb_dom_node_t *node):
    """A link's ``href`` as selectolax's ``attrs.get("href")`` gives it, read from the element's attributes."""
    cdef lxb_dom_attr_t *attr = (<lxb_dom_element_t *> node).first_attr
    while attr != NULL:
        if attr.node.local_name == _HREF_ID:
            return _attr_value(attr)
        attr = attr.next
    return None


cdef inline object _attr_value(lxb_dom_attr_t *attr):
    """An attribute's value as selectolax gives it: None for no attribute or no value."""
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return None
    return PyUnicode_DecodeUTF8(<char *> attr.value.data, attr.value.length, "replace")


cdef str _attr_lower(lxb_dom_attr_t *attr):
    """``value.lower() if value else ""`` for an attribute's value (:func:`_attr_value`), ASCII lower-cased in C."""
    if attr == NULL or attr.value == NULL or attr.value.data == NULL:
        return ""
    cdef const unsigned char *data = attr.value.data
    cdef size_t i, n = attr.value.length
    for i in range(n):
        if data[i] >= 128:
            return PyUnicode_DecodeUTF8(<char *> data, n, "replace").lower()
    cdef str out = PyUnicode_New(n, 127)
    cdef unsigned char *chars = <unsigned char *> PyUnicode_DATA(out)
    for i in range(n):
        chars[i] = data[i] + 32 if 65 <= data[i] <= 90 else data[i]
    return out


cdef tuple _child(dict kids, str path, str tag):
    """``(f"{path}/{tag}", its kids)`` from ``path``'s ``kids``, made once per walk: tag paths repeat, shared."""
    cdef object found = kids.get(tag)
    if found is None:
        found = kids[tag] = (f"{path}/{tag}", {})
    return <tuple> found


ctypedef PyObject *_Ref  # a borrowed reference
cdef struct _Open:
    # per open element; each field a stack of its own (C arrays: lists reallocated as they emptied and refilled, 7 %)
    int kind, link_at  # the kind of its closing (0: nothing to do); an open link's (not a block) place among them
    Py_ssize_t link_start  # and where its text starts in the run
    _Ref hard, pos  # an open negative, positive tag's name (held by the walk's `names`)
    Py_ssize_t outer  # an outer block: its index, its int, its path and kids (_child's) and its positive tag
    _Ref outer_id, outer_path, outer_kids, outer_pos


def segment(object tree, object profile, dict flags_of_tag, object blocks):  # noqa: C901
    """:func:`filters.html5.segment` (see there) for a tree whose nodes the self-check vouched for.

    ``flags_of_tag``: the profile's tag flags (``filters.html5._tag_flags``); ``blocks``: an empty
    ``filters.html5.Blocks`` to fill.
    """
    global _HREF_ID
    if _HREF_ID == 0:
        _HREF_ID = _href_id()
    neg = profile.negative_tags  # looked in twice: not worth a set
    pos_tags = profile.positive_tags
    cdef int flag_arr[_FAST_IDS]
    cdef PyObject *name_arr[_FAST_IDS]  # the names of the ids in flag_arr that are seen (held by `names`)
    cdef Py_ssize_t i
    for i in range(_FAST_IDS):
        flag_arr[i] = -2  # not seen yet
    cdef dict flags_by_id = {}  # ids from _FAST_IDS up
    cdef dict names = {}, top = {}
    cdef dict attr_kinds = {}  # lexbor's attribute name ids met in the page: their kind (_learn_kinds)
    cdef dict kids = top  # the tag paths below path (_child); the top ones held by top
    cdef bint comments_negative = "#comment" in neg, skip_head = not profile.head_phrases
    meta_pos = "meta" if "meta" in pos_tags else None
    cdef bint find_hidden = profile.main_content
    cdef dict block_hidden = blocks.hidden

    cdef list phrases = []
    title = ""
    root_node = tree.root
    if root_node is None:
        return phrases, title, blocks
    cdef lxb_dom_node_t *root = <lxb_dom_node_t *> <size_t> root_node.mem_id

    # the open elements' stack (_Open), grown as the walk steps down: at most MAX_DEPTH + 2 (the door's limit)
    cdef Py_ssize_t cap = 64
    opened_mem = bytearray(cap * sizeof(_Open))  # freed with the function
    cdef _Open *opened = <_Open *> PyByteArray_AS_STRING(opened_mem)
    cdef Py_ssize_t n_opened = 0, n_hards = 0, n_poss = 0, n_links = 0, n_outer = 0
    cdef list hrefs = []  # per open link (n_links), its href: held here, a list written in place
    cdef int in_head = 0
    cdef bint skipping = False
    cdef Py_ssize_t block = -1
    cdef object block_id = -1  # block's int: one per block, shared by its phrases and children
    cdef list block_ids = []
    cdef str path = ""
    block_pos = pos = None
    cdef list block_tags = blocks.tags, block_parents = blocks.parents, block_marks = blocks.marks
    cdef list block_ends = blocks.ends, block_links = blocks.links
    cdef bytearray run = bytearray(64 * sizeof(wims_piece))  # the text run's pieces (_add_piece): run_n of them
    cdef Py_ssize_t run_n = 0, run_len = 0, run_link = 0, n, at, depth = 0

    cdef lxb_dom_node_t *node = root
    cdef lxb_dom_character_data_t *cd
    cdef lxb_dom_element_t *element
    cdef lxb_dom_attr_t *attr
    cdef uintptr_t tag_id
    cdef int f, kind
    cdef bint close
    cdef str text, tag
    while node != NULL:
        close = False
        if n_opened + 1 >= cap:
            cap *= 2
            PyByteArray_Resize(opened_mem, cap * sizeof(_Open))
            opened = <_Open *> PyByteArray_AS_STRING(opened_mem)
        if node.type == _TEXT:
            cd = <lxb_dom_character_data_t *> node
            if cd.data.data != NULL and cd.data.length:
                if not skipping:
                    # len(text.strip()) from the bytes: a run's text is decoded once, when it is joined
                    n = wims_utf8_stripped(cd.data.data, cd.data.length)
                    if n < 0 or (n and n_hards):  # not valid UTF-8 ("replace" decides), or a negative phrase's
                        text = PyUnicode_DecodeUTF8(<char *> cd.data.data, cd.data.length, "replace")
                        n = _stripped_length(text)
                    if not n:
                        if run_n and not n_hards:
                            run_n = _add_piece(run, run_n, _SPACE, 1)
                    elif n_hards:
                        tag = <str> opened[n_hards - 1].hard
                        phrases.append(_negative_phrase(text, <str> _child(kids, path, tag)[0], tag, pos, block_id))
                    else:
                        run_n = _add_piece(run, run_n, cd.data.data, cd.data.length)
                        run_len += n
                        if n_links:
                            run_link += n
        elif node.type == _COMMENT:
            if comments_negative and not skipping:
                cd = <lxb_dom_character_data_t *> node
                if cd.data.data != NULL:
                    text = PyUnicode_DecodeUTF8(<char *> cd.data.data, cd.data.length, "replace").strip()
                    if text and not text.isspace():
                        phrases.append(
                            _negative_phrase(text, <str> _child(kids, path, "#comment")[0], "#comment", None, block_id)
                        )
        else:
            tag_id = node.local_name
            if tag_id < _FAST_IDS:
                f = flag_arr[tag_id]
            else:
                f = flags_by_id.get(tag_id, -2)
            if f == -2:  # first of its tag in the page
                name = _wrap(node, tree).tag if node.type == _ELEMENT else None
                f = flags_of_tag.get(name, 0) if name and name[0] not in "-!" else -1
                name = name or ""
                names[tag_id] = name
                if tag_id < _FAST_IDS:
                    flag_arr[tag_id] = f
                    name_arr[tag_id] = <PyObject *> name
                else:
                    flags_by_id[tag_id] = f
            if f == 0:  # an inline element the walk does not react to: into its children
                opened[n_opened].kind = 0
                n_opened += 1
                if node.first_child != NULL:
                    node = node.first_child
                    depth += 1
                    if depth > _MAX_DEPTH:  # the door's limit (filters.limits): lexbor keeps every level
                        raise too_deep()
                    continue
                close = True
            elif f < 0:
                if not depth:
                    break
            else:
                kind = 0
                tag = <str> name_arr[tag_id] if tag_id < _FAST_IDS else names[tag_id]
                if f & 15:
                    if f & _HARD:
                        kind = 1
                        opened[n_hards].hard = <PyObject *> tag
                        n_hards += 1
                    elif f & _LINK:
                        kind = 2
                        opened[n_links].link_at = n_opened
                        opened[n_links].link_start = run_n
                        _push(hrefs, n_links, _href(node))
                        n_links += 1
                    if f & _POS:
                        kind |= 4
                        opened[n_poss].pos = <PyObject *> tag
                        n_poss += 1
                        pos = tag
                    if f & _SPECIAL:
                        if tag == "head":
                            kind |= 8
                            in_head += 1
                            skipping = skip_head
                        elif tag == "title":
                            if not title:
                                title = _norm(_own_text(node, tree))
                        elif tag == "meta":
                            if not skip_head:
                                hard = <str> opened[n_hards - 1].hard if n_hards else None
                                _append_meta(phrases, _wrap(node, tree), path, hard, meta_pos, block_id)
                        elif tag == "br":
                            run_n = _add_piece(run, run_n, _SPACE, 1)
                if f & _BLOCK:
                    kind |= 16
                    if run_len:
                        _append_run(phrases, run, run_n, path, block_pos, run_link / run_len, block_id)
                        run_len = run_link = 0
                    run_n = 0
                    if n_links:
                        for i in range(n_links):
                            at = opened[i].link_at
                            opened[at].kind = (opened[at].kind & ~2) | 32
                            _open_block(opened, n_outer, block, block_id, path, kids, block_pos)
                            n_outer += 1
                            block_tags.append("a")
                            block_parents.append(block_id)
                            block_ends.append(0)
                            block_marks.append("")
                            block_id = block = len(block_tags) - 1
                            block_ids.append(block_id)
                            path, kids = _child(kids, path, "a")
                            block_pos = pos
                        n_links = 0
                    _open_block(opened, n_outer, block, block_id, path, kids, block_pos)
                    n_outer += 1
                    block_tags.append(tag)
                    block_parents.append(block_id)
                    block_ends.append(0)  # known when it closes
                    if f & _MARKED:
                        element = <lxb_dom_element_t *> node
                        attr = element.first_attr
                        while attr != NULL and (attr == element.attr_class or attr == element.attr_id):
                            attr = attr.next
                        if attr == NULL:  # no attribute but class and id (most blocks): read from the struct
                            ident = _attr_value(element.attr_id)
                            if ident is None:
                                names_ = _attr_lower(element.attr_class)
                                block_marks.append(names_)
                            else:
                                names_ = _attr_value(element.attr_class)
                                block_marks.append(" ".join([p for p in (names_, ident) if p]).lower())
                                names_ = names_.lower() if names_ and find_hidden else ""
                            if find_hidden and names_ and "hid" in <str> names_:
                                hidden = hidden_class(names_)
                                if hidden is not None:
                                    block_hidden[len(block_tags) - 1] = hidden
                            marks = None
                        else:  # others: read from the structs once their names are known (_other_marks)
                            marks = None
                            known = _other_marks(element, attr_kinds)
                            if known is None:  # a name first met in the page: through selectolax, learned
                                marks = _wrap(node, tree).attributes
                                _learn_kinds(element, marks, attr_kinds)
                                names_, ident, role = marks.get("class"), marks.get("id"), marks.get("role")
                                style, cue = marks.get("style"), "hidden" in marks or "aria-hidden" in marks
                            else:
                                names_, ident = _attr_value(element.attr_class), _attr_value(element.attr_id)
                                role, style, cue = <tuple> known
                            if ident is None and role is None:
                                block_marks.append(names_.lower() if names_ else "")
                            else:
                                block_marks.append(" ".join([p for p in (names_, ident, role) if p]).lower())
                            # the cues of filters.hidden.hidden_reason first, in C: most blocks have none
                            if find_hidden and (
                                cue
                                or (style and ("none" in style.lower() or "hidden" in style.lower()))
                                or (names_ and "hid" in names_.lower())
                            ):
                                hidden = hidden_reason(_wrap(node, tree).attributes if marks is None else marks)
                                if hidden is not None:
                                    block_hidden[len(block_tags) - 1] = hidden
                    else:
                        block_marks.append("")
                    block_id = block = len(block_tags) - 1
                    block_ids.append(block_id)
                    if len(path) < _PATH_LIMIT:
                        path, kids = _child(kids, path, tag)
                    block_pos = pos
                opened[n_opened].kind = kind
                n_opened += 1
                if f & _OPAQUE:
                    text = _own_text(node, tree)
                    if text and not text.isspace() and not skipping:
                        phrases.append(_negative_phrase(text, <str> _child(kids, path, tag)[0], tag, pos, block_id))
                else:
                    if node.first_child != NULL:
                        node = node.first_child
                        depth += 1
                        if depth > _MAX_DEPTH:  # the door's limit (filters.limits): lexbor keeps every level
                            raise too_deep()
                        continue
                close = True
        # move on: to the next sibling, closing each element whose children are all walked
        while True:
            if close:
                n_opened -= 1
                kind = opened[n_opened].kind
                if kind:
                    if kind & 15:
                        if kind & 1:
                            n_hards -= 1
                        if kind & 2:
                            n_links -= 1
                            href = hrefs[n_links]
                            if href:
                                anchor = _norm_pieces(run, opened[n_links].link_start, run_n)
                                if anchor:
                                    block_links.append((block_id, (<str> href).strip(), anchor))
                        if kind & 4:
                            n_poss -= 1
                            pos = <str> opened[n_poss - 1].pos if n_poss else None
                        if kind & 8:
                            in_head -= 1
                            skipping = skip_head and in_head > 0
                    if kind & 48:
                        if run_len:
                            _append_run(phrases, run, run_n, path, block_pos, run_link / run_len, block_id)
                            run_len = run_link = 0
                        run_n = 0
                        block_ends[block] = len(block_tags)
                        n_outer -= 1
                        block = opened[n_outer].outer
                        block_id = <object> opened[n_outer].outer_id
                        path = <str> opened[n_outer].outer_path
                        kids = <dict> opened[n_outer].outer_kids
                        block_pos = <object> opened[n_outer].outer_pos
                if not depth:
                    node = NULL
                    break
            if node.next != NULL:
                node = node.next
                break
            node = node.parent
            if node == NULL:
                break
            depth -= 1
            close = True
    if run_len:
        _append_run(phrases, run, run_n, path, block_pos, run_link / run_len, block_id)
    return phrases, title, blocks


cdef inline void _append_run(list phrases, bytearray run, Py_ssize_t n, str path, pos, double links, block) except *:
    """The phrase of a text run (its first n pieces), if it holds any text."""
    cdef str text = _norm_pieces(run, 0, n)
    if text:
        phrases.append(_phrase(text, path, None, pos, links, block))


cdef void _append_meta(list phrases, LexborNode node, str path, hard, pos, block) except *:
    """The phrase of a ``<meta name=description|keywords>`` (or ``property=``) element's content."""
    attrs = node.attrs
    name = (attrs.get("name") or attrs.get("property") or "").lower()
    content = attrs.get("content")
    if name in ("description", "keywords") and content and not content.isspace():
        phrases.append(_phrase(_norm(content), f"{path}/meta[@name={name}]", hard, pos, None, block))


cdef inline Py_ssize_t _push(list stack, Py_ssize_t n, object item) except -1:
    """``stack[:n] + [item]`` in place (a list used as a stack of n items, written over, never shrunk): n + 1."""
    if n < len(stack):
        stack[n] = item
    else:
        stack.append(item)
    return n + 1


cdef inline void _open_block(_Open *opened, Py_ssize_t at, Py_ssize_t block, block_id, str path, dict kids, pos):
    # the innermost block (its index, int, path and positive tag) saved as an outer one, at `at`
    opened[at].outer = block
    opened[at].outer_id = <PyObject *> block_id
    opened[at].outer_path = <PyObject *> path
    opened[at].outer_kids = <PyObject *> kids
    opened[at].outer_pos = <PyObject *> pos
