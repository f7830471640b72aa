# cython: language_level=3
"""The pipeline's loops that do not walk lexbor's tree, compiled: the same code as their Python versions.

``utf8`` (the input checks' encoding of a page), ``tag_scan`` (their count of ``<`` and long tags), ``map_blocks``
(:func:`filters.sst.map_blocks`'s loop), ``best_subtree`` (:func:`filters.content._best_subtree`'s loop),
``named_noise`` (that of :func:`filters.content._named_noise`), ``measure`` (:func:`filters.content._measure`'s loops)
and ``CueScan`` (the cues of :func:`filters.prompts.cue_hits` and :func:`filters.prompts.notice_note`); the tokens'
loop is filters/_compiled_tokens.pyx.  ``filters.html5`` loads this module as ``COMPILED_LOOPS`` when it is built
from the source on disk (``SOURCE_SHA256``), and each caller falls back to its Python code otherwise;
tests/filters/test_fast_paths.py and tests/filters/test_compiled_loops.py hold the two to the same output.

Built by ``pip install -e .`` (setup.py, Cython), as ``filters/_html5_walk.pyx`` is.
"""

from types import MemberDescriptorType

cimport cython
from cpython.list cimport PyList_GET_ITEM, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF, Py_XDECREF

from cpython.object cimport PyObject
from libc.string cimport memchr, memcmp
from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport (
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_1BYTE_KIND,
    PyUnicode_KIND,
    PyUnicode_READ,
)


cdef extern from *:
    int __builtin_ctzll(unsigned long long)


cdef extern from *:
    const char *WIMS_SOURCE_SHA256  # defined by setup.py


#: the SHA-256 of the .pyx this module was compiled from
SOURCE_SHA256 = WIMS_SOURCE_SHA256.decode("ascii")


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    /* One character's UTF-8 (a surrogate goes to the label `surrogate`: strict UTF-8 has none). */
    #define WIMS_UTF8_CHAR(ch) {                                                \
        if (ch < 0x80) {                                                       \
            *out++ = (char) ch;                                                \
        } else if (ch < 0x800) {                                               \
            *out++ = (char) (0xc0 | (ch >> 6));                                \
            *out++ = (char) (0x80 | (ch & 0x3f));                              \
        } else if (ch < 0x10000) {                                             \
            if ((ch & 0xf800) == 0xd800) goto surrogate;                       \
            *out++ = (char) (0xe0 | (ch >> 12));                               \
            *out++ = (char) (0x80 | ((ch >> 6) & 0x3f));                       \
            *out++ = (char) (0x80 | (ch & 0x3f));                              \
        } else {                                                               \
            *out++ = (char) (0xf0 | (ch >> 18));                               \
            *out++ = (char) (0x80 | ((ch >> 12) & 0x3f));                      \
            *out++ = (char) (0x80 | ((ch >> 6) & 0x3f));                       \
            *out++ = (char) (0x80 | (ch & 0x3f));                              \
        }                                                                      \
    }

    /* Whether the COUNT characters of kind T from in + i are all ASCII (their 64-bit words have none of MASK's bits). */
    #define WIMS_ASCII(T, MASK, COUNT, ascii) {                                 \
        uint64_t word, any = 0;                                                \
        int w;                                                                 \
        for (w = 0; w < (COUNT) * (int) sizeof(T) / 8; w++) {                  \
            memcpy(&word, in + i + w * (8 / sizeof(T)), 8);                    \
            any |= word;                                                       \
        }                                                                      \
        ascii = (any & (MASK)) == 0;                                           \
    }

    /* 8 characters of kind T from in + i: copied byte by byte when all ASCII, else encoded one by one. */
    #define WIMS_UTF8_EIGHT(T, MASK) {                                          \
        int ascii, k;                                                          \
        WIMS_ASCII(T, MASK, 8, ascii)                                          \
        if (ascii) {                                                           \
            for (k = 0; k < 8; k++) out[k] = (char) in[i + k];                 \
            out += 8;                                                          \
        } else {                                                               \
            for (k = 0; k < 8; k++) {                                          \
                ch = in[i + k];                                                \
                WIMS_UTF8_CHAR(ch)                                             \
            }                                                                  \
        }                                                                      \
        i += 8;                                                                \
    }

    /* A string of kind T, 32 characters at a time where they are all ASCII (markup is, also on pages in other
       scripts: copied byte by byte, which the compiler does 16 at a time), else 8 at a time. */
    #define WIMS_UTF8_PASS(T, MASK) {                                           \
        const T *in = (const T *) data;                                        \
        int ascii, k;                                                          \
        while (i + 32 <= n) {                                                  \
            WIMS_ASCII(T, MASK, 32, ascii)                                     \
            if (ascii) {                                                       \
                for (k = 0; k < 32; k++) out[k] = (char) in[i + k];            \
                out += 32;                                                     \
                i += 32;                                                       \
            } else {                                                           \
                WIMS_UTF8_EIGHT(T, MASK)                                       \
                WIMS_UTF8_EIGHT(T, MASK)                                       \
                WIMS_UTF8_EIGHT(T, MASK)                                       \
                WIMS_UTF8_EIGHT(T, MASK)                                       \
            }                                                                  \
        }                                                                      \
        while (i + 8 <= n) WIMS_UTF8_EIGHT(T, MASK)                            \
        for (; i < n; i++) {                                                   \
            ch = in[i];                                                        \
            WIMS_UTF8_CHAR(ch)                                                 \
        }                                                                      \
    }

    /* str.encode("utf-8"), or None for a text with a lone surrogate (which that raises on). */
    static PyObject *wims_utf8(PyObject *text) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        PyObject *bytes;
        char *out, *start;
        Py_UCS4 ch;
        if (PyUnicode_IS_ASCII(text)) return PyBytes_FromStringAndSize((const char *) data, n);
        if (n > PY_SSIZE_T_MAX / 4) return PyErr_NoMemory();
        /* room for the longest: 2 bytes for a character below 256, 3 below 65,536, 4 above */
        bytes = PyBytes_FromStringAndSize(NULL, n * (kind == PyUnicode_1BYTE_KIND ? 2 : kind + 1));
        if (bytes == NULL) return NULL;
        start = out = PyBytes_AS_STRING(bytes);
        if (kind == PyUnicode_1BYTE_KIND) WIMS_UTF8_PASS(Py_UCS1, 0x8080808080808080ULL)
        else if (kind == PyUnicode_2BYTE_KIND) WIMS_UTF8_PASS(Py_UCS2, 0xff80ff80ff80ff80ULL)
        else WIMS_UTF8_PASS(Py_UCS4, 0xffffff80ffffff80ULL)
        if (_PyBytes_Resize(&bytes, out - start) < 0) return NULL;
        return bytes;
      surrogate:
        Py_DECREF(bytes);
        Py_RETURN_NONE;
    }

    /* The control characters (below 32, but tab, line feed, form feed and carriage return) among a string's first n
       characters of kind T: compares only, which the compiler does 16 characters at a time, summed in bytes per run
       of 255 so the sums cannot overflow. */
    #define WIMS_CONTROLS(T) {                                                  \
        const T *in = (const T *) data;                                        \
        Py_ssize_t i = 0, end;                                                 \
        while (i < n) {                                                        \
            unsigned char run = 0;                                             \
            end = n - i > 255 ? i + 255 : n;                                   \
            for (; i < end; i++) {                                             \
                T c = in[i];                                                   \
                run += (c < 32) - (c == 9) - (c == 10) - (c == 12) - (c == 13);  \
            }                                                                  \
            count += run;                                                      \
        }                                                                      \
    }

    static Py_ssize_t wims_controls(PyObject *text, Py_ssize_t n) {
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t count = 0;
        int kind = PyUnicode_KIND(text);
        if (n > PyUnicode_GET_LENGTH(text)) n = PyUnicode_GET_LENGTH(text);
        if (kind == PyUnicode_1BYTE_KIND) WIMS_CONTROLS(Py_UCS1)
        else if (kind == PyUnicode_2BYTE_KIND) WIMS_CONTROLS(Py_UCS2)
        else WIMS_CONTROLS(Py_UCS4)
        return count;
    }
    """
    object wims_utf8(str text)
    Py_ssize_t wims_controls(str text, Py_ssize_t n) noexcept


def utf8(str text):
    """``text.encode("utf-8")``, or None when that raises (a lone surrogate): the input checks' encoding of a page for
    lexbor (``filters.pipeline``), 8.5 times faster than CPython's on the median non-ASCII tuning page (its markup is
    ASCII, copied 32 characters at a time)."""
    return wims_utf8(text)


def map_blocks(
    dict root,
    list tags,
    list parents,
    list marks,
    list ends,
    dict key_cache,
    object block_key,
    object crc32,
    object noisy,
):
    """The loop of :func:`filters.sst.map_blocks` (see there; ``root``: the style tree's root node, ``key_cache``,
    ``block_key`` and ``noisy``: filters.sst's ``_KEY_CACHE``, ``block_key`` and ``NOISY``; ``crc32``: zlib's, for
    :func:`filters.sst.style_signature`, inlined), compiled: the same code, line for line, without the
    interpreter's dispatch (the style tree's mapping was 6 % of a site-learned page's time), its dicts typed (their
    lookups direct, not method calls) and the per-parent tables lists indexed by the parent, not dicts keyed by it."""
    cdef Py_ssize_t n = len(tags), i = 0, p, k, end
    cdef list state = [None] * n
    cdef list seen = [None] * (n + 1)  # per parent (at p + 1, -1 the top): its children's keys met so far
    cdef list styled = [None] * n  # the children's keys of the blocks on template nodes (style check)
    cdef list styled_order = []
    cdef dict ps, counter, children
    cdef str m, key
    cdef object count
    while i < n:
        p = parents[i]
        ps = root if p < 0 else state[p]  # a dict: the blocks below None or NOISY are skipped with their subtree
        children = ps.get("c")
        if not children:
            i = ends[i]
            continue
        m = marks[i]
        key = (key_cache.get((tags[i], m)) or block_key(tags[i], m)) if m else tags[i]
        counter = seen[p + 1]
        if counter is None:
            counter = seen[p + 1] = {}
            if p >= 0 and "s" in ps:
                styled[p] = []
                styled_order.append(p)
        count = counter.get(key)
        k = 0 if count is None else count
        counter[key] = k + 1
        found = children.get(key) if k == 0 else children.get(f"{key}#{k}")
        if p >= 0 and styled[p] is not None:
            (<list> styled[p]).append(key)
        if found is None:
            i = ends[i]
        elif type(found) is int:  # NOISY, and all below it
            end = ends[i]
            state[i:end] = [noisy] * (end - i)
            i = end
        else:
            state[i] = found
            i += 1
    bad = [
        p
        for p in styled_order
        if crc32("\x1f".join(<list> styled[p]).encode("utf-8", "replace")) not in (<dict> state[p])["s"]
    ]
    for p in bad:
        state[p : ends[p]] = [None] * (ends[p] - p)
    return state


def best_subtree(list sums, list chars, list link_chars, list parents, object best_score):
    """The loop of :func:`filters.content._best_subtree` (see there), compiled: the same code, line for line, on the
    same Python numbers (the same sums, in the same order), without the interpreter's dispatch."""
    cdef Py_ssize_t i, p, best = -1
    for i in range(len(parents) - 1, -1, -1):
        p = parents[i]
        s = sums[i]
        if s > best_score:
            best, best_score = i, s
        if p >= 0:
            sums[p] += s
            chars[p] += chars[i]
            link_chars[p] += link_chars[i]
    return best


cdef enum:
    CUES_MAX = 64  # cues of a CueScan: one bit each
    CUE_LEN_MAX = 24
    SCAN_LOCAL = 512  # a text shorter than this is folded on the stack by CueScan.scan


cdef class CueScan:
    """:func:`filters.prompts.cue_hits` for fixed ``groups`` (note, cues, pattern) of ASCII cues, compiled: one pass
    over the lower-cased phrase, trying at each character the cues that start with it, instead of a search of the
    whole phrase per cue (each ``in`` of an ASCII cue in a phrase with a character above U+00FF copies the cue)."""

    cdef tuple groups
    cdef int n_cues
    cdef unsigned char cue[CUES_MAX][CUE_LEN_MAX]
    cdef Py_ssize_t length[CUES_MAX]
    cdef int group[CUES_MAX]
    cdef unsigned long long starting[256]  # per ASCII code: the cues that start with it (none above 127)
    cdef unsigned long long second[256]  # per ASCII code: the cues whose second character it is
    cdef unsigned long long single  # the cues of one character
    cdef unsigned long long in_group[CUES_MAX]  # per cue: its group's cues, none of which need be looked for once found
    cdef unsigned long long below[CUES_MAX + 1]  # per group count g: the cues of the first g groups

    def __init__(self, tuple groups):
        cdef int n = 0, j
        self.groups = groups
        self.single = 0
        for j in range(256):
            self.starting[j] = self.second[j] = 0
        for g, group in enumerate(groups):
            for cue in group[1]:
                data = (<str> cue).encode("ascii")  # raises on a cue that is not ASCII
                if n == CUES_MAX or not 0 < len(data) <= CUE_LEN_MAX:
                    raise ValueError(f"at most {CUES_MAX} cues of 1 to {CUE_LEN_MAX} characters: {cue!r}")
                for j in range(len(data)):
                    self.cue[n][j] = data[j]
                self.length[n], self.group[n] = len(data), g
                self.starting[data[0]] |= 1ULL << n
                if len(data) == 1:
                    self.single |= 1ULL << n
                else:
                    self.second[data[1]] |= 1ULL << n
                n += 1
        self.n_cues = n
        for j in range(CUES_MAX + 1):  # once, not per scan (a group count takes a couple of values)
            self.below[j] = 0
        for q in range(n):
            self.in_group[q] = 0
            for j in range(n):
                if self.group[j] == self.group[q]:
                    self.in_group[q] |= 1ULL << j
            for j in range(self.group[q] + 1, CUES_MAX + 1):
                self.below[j] |= 1ULL << q
        for j, cue in enumerate((b"opyright", b"eserved")):  # scan's copyright cues, after the groups' cues
            if n + j == CUES_MAX:
                raise ValueError(f"at most {CUES_MAX - 2} cues")
            for q in range(len(cue)):
                self.cue[n + j][q] = cue[q]
            self.length[n + j], self.group[n + j] = len(cue), -1
            self.starting[cue[0]] |= 1ULL << (n + j)
            self.second[cue[1]] |= 1ULL << (n + j)

    def hits(self, str low, Py_ssize_t n_groups):
        """The first ``n_groups`` groups, in order, one of whose cues is in ``low``."""
        cdef int kind = PyUnicode_KIND(low), q
        cdef void *data = PyUnicode_DATA(low)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(low), k, j, m
        cdef Py_UCS4 c
        cdef unsigned long long left = (1ULL << self.n_cues) - 1 if self.n_cues < 64 else ~0ULL, todo
        cdef unsigned long long groups_seen = 0
        for k in range(n):
            c = PyUnicode_READ(kind, data, k)
            if c >= 128:
                continue
            todo = self.starting[c] & left
            while todo:
                q = __builtin_ctzll(todo)
                todo &= todo - 1
                m = self.length[q]
                if k + m > n:
                    continue
                j = 1
                while j < m and PyUnicode_READ(kind, data, k + j) == self.cue[q][j]:
                    j += 1
                if j == m:  # found: the group's other cues need not be looked for
                    groups_seen |= 1ULL << self.group[q]
                    left &= ~self.in_group[q]
            if not left:
                break
        return [self.groups[g] for g in range(n_groups) if groups_seen >> g & 1]

    def scan(self, str text, Py_ssize_t n_groups):
        """What :func:`filters.prompts.notice_note` looks for before any regex, in ``text`` itself (its ASCII letters
        lower-cased as they are read, not by ``text.lower()``): 0 when it holds no copyright cue ("opyright",
        "OPYRIGHT", "eserved", "ESERVED", "©", as written) and no cue of the first ``n_groups`` groups (as
        :meth:`hits` on ``text.lower()``); else (whether it holds a copyright cue, those groups).  None for a text
        with U+0130 or U+212A, the characters that ``str.lower()`` makes ASCII letters of: the caller lower-cases
        it."""
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
        cdef unsigned char local[SCAN_LOCAL]
        cdef unsigned char *buf = local
        if n >= SCAN_LOCAL:
            buf = <unsigned char *> PyMem_Malloc(n + 1)
            if buf == NULL:
                raise MemoryError()
        try:
            return self._scan(text, n_groups, buf)
        finally:
            if buf != local:
                PyMem_Free(buf)

    cdef object _scan(self, str text, Py_ssize_t n_groups, unsigned char *buf):
        """:meth:`scan`, with ``buf`` room for the text's length + 1 bytes: the text folded (ASCII lower-cased, 128
        for a character above ASCII, 0 after its end), then the cues looked for in it, each where its first two
        characters are; the copyright cues are two more cues (:meth:`__init__`), lower-cased, whose hits are then
        read as written."""
        cdef int kind = PyUnicode_KIND(text), q
        cdef void *data = PyUnicode_DATA(text)
        cdef const unsigned char *one = <const unsigned char *> data
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), k, j
        cdef unsigned int c
        cdef unsigned long long copyright_cues = 3ULL << self.n_cues, left = 0, todo, groups_seen = 0
        cdef bint copyright = False
        if kind == PyUnicode_1BYTE_KIND:  # most texts: read as bytes, without a branch per character
            for k in range(n):
                c = one[k]
                buf[k] = (c + ((c - 65u < 26u) << 5)) if c < 128 else 128
            copyright = memchr(one, 0xa9, n) != NULL  # ©
        else:
            for k in range(n):
                c = <unsigned int> PyUnicode_READ(kind, data, k)
                if c < 128:
                    buf[k] = c + 32 if 65 <= c <= 90 else c
                    continue
                if c == 0xa9:  # ©
                    copyright = True
                elif c == 0x130 or c == 0x212a:
                    return None
                buf[k] = 128
        buf[n] = 0
        left = self.below[min(max(n_groups, 0), CUES_MAX)]  # the cues of the first n_groups groups
        if not copyright:
            left |= copyright_cues
        cdef const unsigned long long *starting = self.starting
        cdef const unsigned long long *second = self.second
        cdef unsigned long long single = self.single
        k = 0
        while left and k < n:
            todo = starting[buf[k]] & (second[buf[k + 1]] | single) & left
            while todo:
                q = __builtin_ctzll(todo)
                todo &= todo - 1
                if k + self.length[q] > n or memcmp(buf + k, self.cue[q], self.length[q]) != 0:
                    continue
                if self.group[q] < 0:  # a copyright cue lower-cased: it counts as written, or in upper case
                    if _written_at(kind, data, n, k, COPYRIGHT_CUES[0][q - self.n_cues]) or _written_at(
                        kind, data, n, k, COPYRIGHT_CUES[1][q - self.n_cues]
                    ):
                        copyright = True
                        left &= ~copyright_cues
                    continue
                groups_seen |= 1ULL << self.group[q]  # found: the group's other cues need not be looked for
                left &= ~self.in_group[q]
            k += 1
        if not copyright and not groups_seen:
            return 0
        return copyright, [self.groups[g] for g in range(n_groups) if groups_seen >> g & 1]


#: the copyright cues of :meth:`CueScan.scan`, as written: [upper case][e]
cdef const char *COPYRIGHT_CUES[2][2]
COPYRIGHT_CUES[0][0], COPYRIGHT_CUES[0][1] = b"opyright", b"eserved"
COPYRIGHT_CUES[1][0], COPYRIGHT_CUES[1][1] = b"OPYRIGHT", b"ESERVED"


cdef inline bint _written_at(int kind, void *data, Py_ssize_t n, Py_ssize_t k, const char *cue) noexcept:
    """Whether the string (``kind``, ``data``, ``n`` characters) holds the ASCII ``cue`` at ``k``, as written."""
    cdef Py_ssize_t j = 0
    while cue[j]:
        if k + j >= n or <unsigned int> PyUnicode_READ(kind, data, k + j) != <unsigned char> cue[j]:
            return False
        j += 1
    return True


def measure(list phrases, list parents, list tags, dict anchors, object linked_sentence, object sentence_blocks,
            double text_max_links, Py_ssize_t text_min, double link_floor, double link_weight):
    """The loops of :func:`filters.content._measure` (see there), compiled: the same sums in the same order, in C
    doubles (a Python float is one; an int phrase length is converted as ``int + float`` converts it), each block's
    written back to its lists only where a phrase added to it; ``linked_sentence`` called as there."""
    cdef Py_ssize_t n = len(parents)
    # per block: 4 sums (chars, link chars, text score, other score), 4 counts (text chars, linked phrases, linked
    # sentences, subtree) and whether a phrase added to them
    cdef double *sums = <double *> PyMem_Calloc(4 * n + 1, sizeof(double))
    cdef Py_ssize_t *counts = <Py_ssize_t *> PyMem_Calloc(4 * n + 1, sizeof(Py_ssize_t))
    cdef unsigned char *touched = <unsigned char *> PyMem_Calloc(n + 1, 1)
    try:
        if sums == NULL or counts == NULL or touched == NULL:
            raise MemoryError()
        return _measure(
            phrases, parents, tags, anchors, linked_sentence, sentence_blocks,
            (text_max_links, link_floor, link_weight), text_min, sums, counts, touched,
        )
    finally:
        PyMem_Free(sums)
        PyMem_Free(counts)
        PyMem_Free(touched)


cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    enum:
        T_OBJECT_EX  # a __slots__ member: NULL until set


#: per class of phrases: the offsets of its slots text, neg, link_density and node in its objects, or None
cdef dict _SLOT_OFFSETS = {}


cdef object _slot_offsets(type cls):
    """The offsets of ``cls``'s __slots__ members text, neg, link_density and node (filters.phrases.Phrase), read
    from its member descriptors; None when one is not such a member (the attributes are then looked up)."""
    offsets = _SLOT_OFFSETS.get(cls, False)
    if offsets is not False:
        return offsets
    found = []
    for name in ("text", "neg", "link_density", "node"):
        descr = getattr(cls, name, None)
        if type(descr) is not MemberDescriptorType or (<PyMemberDescrObject *> descr).d_member.type != T_OBJECT_EX:
            found = None
            break
        found.append((<PyMemberDescrObject *> descr).d_member.offset)
    offsets = _SLOT_OFFSETS[cls] = None if found is None else tuple(found)
    return offsets


def phrase_slots(type cls):
    """:func:`_slot_offsets` (for the tests)."""
    return _slot_offsets(cls)


cdef inline object _slot(object obj, Py_ssize_t offset):
    """The __slots__ member of ``obj`` at ``offset`` (AttributeError when unset, as its descriptor raises)."""
    cdef PyObject *value = (<PyObject **> ((<char *> <PyObject *> obj) + offset))[0]
    if value == NULL:
        raise AttributeError("a phrase's slot is not set")
    return <object> value


cdef inline void _put(list items, Py_ssize_t i, object value):
    """``items[i] = value`` for an index known to be in range: what list assignment does, without its checks."""
    cdef PyObject *old = PyList_GET_ITEM(items, i)
    Py_INCREF(value)  # the list's reference (PyList_SET_ITEM takes one)
    PyList_SET_ITEM(items, i, value)
    Py_XDECREF(old)


cdef tuple _measure(list phrases, list parents, list tags, dict anchors, object linked_sentence,
                    object sentence_blocks, tuple weights, Py_ssize_t text_min, double *sums,
                    Py_ssize_t *counts, unsigned char *touched):
    cdef Py_ssize_t n = len(parents), k = 0, i, length, p
    cdef Py_ssize_t at_text = 0, at_neg = 0, at_ld = 0, at_node = 0
    cdef type cls = type(phrases[0]) if phrases else None
    offsets = None if cls is None else _slot_offsets(cls)
    if offsets is not None:
        at_text, at_neg, at_ld, at_node = offsets
    cdef double ld, text_max_links = weights[0], link_floor = weights[1], link_weight = weights[2]
    cdef double *d_chars = sums
    cdef double *d_link = sums + n
    cdef double *d_text = sums + 2 * n
    cdef double *d_other = sums + 3 * n
    cdef Py_ssize_t *n_text = counts
    cdef Py_ssize_t *n_linked = counts + n
    cdef Py_ssize_t *n_sentences = counts + 2 * n
    cdef Py_ssize_t *subtree = counts + 3 * n
    cdef list article = [False] * len(phrases), text_chars = [0] * n, text_score = [0.0] * n
    cdef list other_score = [0.0] * n, chars = [0.0] * n, link_chars = [0.0] * n, linked = [0] * n
    cdef list linked_sentences = [0] * n
    for ph in phrases:
        direct = offsets is not None and type(ph) is cls  # its slots read directly, not looked up by name
        i = _slot(ph, at_node) if direct else ph.node
        if (_slot(ph, at_neg) if direct else ph.neg) is not None or i < 0:
            k += 1
            continue
        if i >= n:
            raise IndexError("a phrase's block is not in the page's blocks")
        text = _slot(ph, at_text) if direct else ph.text
        length = len(text)
        ld = (_slot(ph, at_ld) if direct else ph.link_density) or 0.0
        touched[i] = 1
        d_chars[i] += length
        if ld:
            d_link[i] += length * ld
            n_linked[i] += 1
            if text[-1] in ".!?" and tags[i] in sentence_blocks and linked_sentence(text, ld, anchors.get(i)):
                n_sentences[i] += 1
        if ld <= text_max_links and length >= text_min:
            article[k] = True
            n_text[i] += length
            d_text[i] += length * (1.0 - ld)
        else:
            d_other[i] += length * (ld if ld > link_floor else link_floor) * link_weight
        k += 1
    for i in range(n):  # i in range(n), the length of the lists made here: their items replaced without checks
        subtree[i] = n_text[i]
        if touched[i]:
            _put(text_chars, i, n_text[i])
            _put(text_score, i, d_text[i])
            _put(other_score, i, d_other[i])
            _put(chars, i, d_chars[i])
            _put(link_chars, i, d_link[i])
            _put(linked, i, n_linked[i])
            _put(linked_sentences, i, n_sentences[i])
    with cython.boundscheck(False), cython.wraparound(False):  # i in range(n), n the length of parents
        for i in range(n - 1, -1, -1):  # children come after their parent
            p = parents[i]
            if p >= 0:
                subtree[p] += subtree[i]
    return (
        article, text_chars, text_score, other_score, chars, link_chars, linked, linked_sentences,
        [subtree[i] for i in range(n)],
    )


def named_noise(list own, list subtree, list chars, list text_score, list other_score, list parents,
                object whole_page_noise, Py_ssize_t region_min, double whole_share, double max_share, double total,
                double outside, double noise_weight):
    """The loop of :func:`filters.content._named_noise` (see there), compiled: the same tests (a Python int
    compared with a float as its double: exact below 2**53), the same floats (``text_score[i] - other_score[i]``,
    ``-chars[i] * noise_weight``)."""
    cdef Py_ssize_t n = len(parents), i, p, size
    cdef list noise = [None] * n, score = [None] * n
    cdef object reason
    if len(own) != n or len(subtree) != n or len(chars) != n or len(text_score) != n or len(other_score) != n:
        raise ValueError("the lists of _named_noise differ in length")
    # every list is n long (checked above) and i < n: read and written without checks; a parent is checked
    with cython.boundscheck(False), cython.wraparound(False):
        for i in range(n):
            reason = own[i]
            if reason is not None:
                size = subtree[i]
                if size > region_min and (
                    size > whole_share * total if reason in whole_page_noise else size > max_share * outside
                ):
                    reason = None
            p = parents[i]
            if reason is None and p >= 0:
                if p >= n:
                    raise IndexError("list index out of range")
                reason = noise[p]
            if reason is not None:
                _put(noise, i, reason)
                _put(score, i, -(<double> chars[i]) * noise_weight)
            else:
                _put(score, i, <double> text_score[i] - <double> other_score[i])
    return noise, score


def control_count(str text, Py_ssize_t bound):
    """How many control characters the first ``bound`` characters of ``text`` hold (below 32, but tab, line feed,
    form feed and carriage return): the input checks' count of :func:`filters.charset.control_bytes` in the UTF-8 of
    a page's head, where each is one byte and no other character has a byte below 32, read in the string itself
    (not a copy of its head, not encoded and translated)."""
    return wims_controls(text, bound if bound > 0 else 0)


def tag_scan(bytes data, Py_ssize_t min_length):
    """The input checks' pass over a page's bytes (``filters.pipeline``): its count of ``<``, and the spans of the
    matches of ``re.finditer(rb"<[A-Za-z][^>]{min_length,}", data)`` (the tags long enough to hold too many
    attributes), found by memchr from one ``<`` to the next instead of a regex and a count."""
    cdef const char *s = PyBytes_AS_STRING(data)
    cdef const char *hit
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data)
    cdef Py_ssize_t count = 0, p = 0, gt = -1, skip = 0
    cdef unsigned char c
    cdef list spans = []
    while p < n:
        hit = <const char *> memchr(s + p, 60, n - p)  # "<"
        if hit == NULL:
            break
        p = hit - s
        count += 1
        if p >= skip and p + 1 < n:
            c = (<unsigned char> s[p + 1]) | 32  # an ASCII letter, lower-cased
            if 97 <= c <= 122:
                if gt < p + 2:  # the first ">" from p + 2 on (the one found before, while it lies ahead)
                    hit = <const char *> memchr(s + p + 2, 62, n - p - 2)
                    gt = hit - s if hit != NULL else n
                if gt - (p + 2) >= min_length:  # a match runs to the ">" (or the end); the search goes on there
                    spans.append((p, gt))
                    skip = gt
        p += 1
    return count, spans
