# The walk's text helpers, included by filters/_html5_walk.pyx (one extension: the walk's calls to them stay inline C):
# white space normalised (_norm, _norm_join), stripped (_stripped_length) and tested (_ascii_space) in C, text only,
# no lexbor struct.  setup.py's source hash covers this file too (filters/compiled_sources.py): an edited helper
# cannot leave a stale build in use.

from cpython.unicode cimport Py_UNICODE_ISSPACE, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    /* White space normalised from the text `data` (kind Tin, n characters) into `buf` (kind Tout, at least as wide), at
       `*j`, `space` saying whether white space (or nothing) came before: one space between words, none at the ends.
       1-byte strings (most text) go 8 characters at a time through blocks of printable ASCII with single spaces
       (words): copied as they are, a space at a block's end left pending as white space is. */
    #define WIMS_ONES 0x0101010101010101ULL
    #define WIMS_NORM_PASS(Tin, Tout) {                                          \
        const Tin *in = (const Tin *) data;                                     \
        Tout *out = (Tout *) buf;                                               \
        for (i = 0; i < n; i++) {                                               \
            Py_UCS4 ch;                                                         \
            if (sizeof(Tin) == 1 && i + 8 <= n) {                               \
                uint64_t w, t, spaces;                                          \
                memcpy(&w, in + i, 8);                                          \
                /* each byte at 0x20 or above and below 0x80 (any false alarm only sends the block the slow way) */ \
                if (!((((w - 0x20 * WIMS_ONES) & ~w) | w) & 0x80 * WIMS_ONES)) { \
                    t = w ^ (0x20 * WIMS_ONES);  /* 0 where a space is */      \
                    spaces = ~((((t & 0x7f * WIMS_ONES) + 0x7f * WIMS_ONES) | t)) & 0x80 * WIMS_ONES; \
                    if (!(spaces & (spaces >> 8)) && !(space && in[i] == 32)) { \
                        int k, last = in[i + 7] == 32 ? 7 : 8;                 \
                        if (space && *j) out[(*j)++] = 32;                      \
                        if (sizeof(Tout) == 1) memcpy(out + *j, in + i, 8);  /* room: *j <= i */ \
                        else for (k = 0; k < last; k++) out[*j + k] = (Tout) in[i + k]; \
                        *j += last;                                             \
                        space = last == 7;                                      \
                        i += 7;                                                 \
                        continue;                                               \
                    }                                                           \
                }                                                               \
            }                                                                   \
            ch = in[i];                                                         \
            if (Py_UNICODE_ISSPACE(ch)) {                                       \
                if (space || ch != 32) changed = 1;                             \
                space = 1;                                                      \
            } else {                                                            \
                if (space && *j) out[(*j)++] = 32;                              \
                space = 0;                                                      \
                out[(*j)++] = (Tout) ch;                                        \
            }                                                                   \
        }                                                                       \
    }

    /* One text into buf (kind out_kind, as wide as the text's or wider); returns whether it changed anything. */
    static int wims_norm_into(PyObject *text, void *buf, int out_kind, Py_ssize_t *j, int *space_at) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(text), i;
        int kind = PyUnicode_KIND(text), space = *space_at, changed = 0;
        const void *data = PyUnicode_DATA(text);
        if (kind == PyUnicode_1BYTE_KIND) {
            if (out_kind == PyUnicode_1BYTE_KIND) WIMS_NORM_PASS(Py_UCS1, Py_UCS1)
            else if (out_kind == PyUnicode_2BYTE_KIND) WIMS_NORM_PASS(Py_UCS1, Py_UCS2)
            else WIMS_NORM_PASS(Py_UCS1, Py_UCS4)
        } else if (kind == PyUnicode_2BYTE_KIND) {
            if (out_kind == PyUnicode_2BYTE_KIND) WIMS_NORM_PASS(Py_UCS2, Py_UCS2)
            else WIMS_NORM_PASS(Py_UCS2, Py_UCS4)
        } else WIMS_NORM_PASS(Py_UCS4, Py_UCS4)
        *space_at = space;
        return changed;
    }

    /* " ".join("".join(pieces[start:end]).split()) for a list of str, without the joined string: each piece goes into
       one buffer of the widest piece's kind; PyUnicode_FromKindAndData stores the result as narrow as it can be (a text
       whose only wide characters were white space), as str.join does.  With one piece (``pieces`` a str): that
       piece itself when nothing changes. */
    static PyObject *wims_norm(PyObject *pieces, Py_ssize_t start, Py_ssize_t end) {
        PyObject *one = PyUnicode_Check(pieces) ? pieces : NULL, *result, *piece;
        Py_ssize_t count = one ? 1 : end, p, n = 0, j = 0;
        int kind = PyUnicode_1BYTE_KIND, space = 1, changed = 0;
        char stack[2048];
        void *buf;
        for (p = one ? 0 : start; p < count; p++) {
            piece = one ? one : PyList_GET_ITEM(pieces, p);
            n += PyUnicode_GET_LENGTH(piece);
            if (PyUnicode_KIND(piece) > kind) kind = PyUnicode_KIND(piece);
        }
        buf = (size_t) n * kind <= sizeof(stack) ? stack : PyMem_Malloc((size_t) n * kind);
        if (buf == NULL) return PyErr_NoMemory();
        for (p = one ? 0 : start; p < count; p++) {
            changed |= wims_norm_into(one ? one : PyList_GET_ITEM(pieces, p), buf, kind, &j, &space);
        }
        if (one && !changed && !space) {  /* nothing to change: the text itself */
            Py_INCREF(one);
            result = one;
        } else {
            result = PyUnicode_FromKindAndData(kind, buf, j);
        }
        if (buf != stack) PyMem_Free(buf);
        return result;
    }
    """
    object wims_norm(object pieces, Py_ssize_t start, Py_ssize_t end)


cdef inline str _norm(str text):
    """:func:`filters.phrases.norm` in C: ``" ".join(text.split())`` (the same test of white space, CPython's
    ``Py_UNICODE_ISSPACE``), the text itself when it has nothing to change: one pass, in a loop for each kind of
    string, 8 characters at a time through ASCII words (the walk's costliest step: it was two passes reading each
    character through the kind's switch)."""
    return <str> wims_norm(text, 0, 1)


cdef inline str _norm_join(list pieces, Py_ssize_t start, Py_ssize_t end):
    """``_norm("".join(pieces[start:end]))`` without the joined string (a text run's pieces: its text nodes, a space
    for a ``<br>``...); ``end`` at most ``len(pieces)``."""
    return <str> wims_norm(pieces, start, end)



cdef inline Py_ssize_t _stripped_length(str text) noexcept:
    """``len(text.strip())`` without the stripped copy (the same white space: ``Py_UNICODE_ISSPACE``)."""
    cdef Py_ssize_t start = 0, end = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    while start < end and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, start)):
        start += 1
    while end > start and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1)):
        end -= 1
    return end - start


cdef inline bint _ascii_space(const unsigned char *data, size_t length) noexcept:
    """Only ASCII white space (what most white-space text nodes hold): then str.isspace() is True too."""
    cdef size_t i
    cdef unsigned char c
    for i in range(length):
        c = data[i]
        if c != 32 and c != 10 and c != 9 and c != 13 and c != 12 and c != 11:
            return False
    return True



# the tests' ways in: _norm, _stripped_length and _norm_join
def norm(str text):
    return _norm(text)


def stripped_length(str text):
    return _stripped_length(text)


def norm_join(list pieces, Py_ssize_t start=0):
    return _norm_join(pieces, start, len(pieces))
