# The walk's text helpers, included by filters/_html5_walk.pyx (one extension: the walk's calls to them stay inline C):
# white space normalised (_norm, _norm_join; a text run's UTF-8 pieces: _norm_pieces) and stripped (_stripped_length,
# wims_utf8_stripped) in C, text only, no lexbor struct.  setup.py's source hash covers this file too
# (filters/compiled_sources.py): an edited helper cannot leave a stale build in use.

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_Resize
from cpython.unicode cimport (
    Py_UNICODE_ISSPACE,
    PyUnicode_DATA,
    PyUnicode_DecodeUTF8,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
)


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
    /* A text run's pieces as lexbor holds them, UTF-8, not decoded: its text nodes, a space for a <br>... */
    typedef struct { const unsigned char *data; Py_ssize_t length; } wims_piece;

    /* The character at p (before end) as CPython's strict UTF-8 decoder reads it: its code point, *size its bytes;
       -1 where the bytes are not valid UTF-8 there (decoded with "replace", they give U+FFFD: the caller decodes). */
    static inline long wims_utf8_char(const unsigned char *p, const unsigned char *end, int *size) {
        unsigned int c = p[0];
        if (c < 0x80) { *size = 1; return c; }
        if (c < 0xC2) return -1;
        if (c < 0xE0) {
            if (end - p < 2 || (p[1] & 0xC0) != 0x80) return -1;
            *size = 2;
            return ((c & 0x1F) << 6) | (p[1] & 0x3F);
        }
        if (c < 0xF0) {
            if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return -1;
            if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)) return -1;  /* overlong; surrogate */
            *size = 3;
            return ((c & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        }
        if (c > 0xF4 || end - p < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
            return -1;
        if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)) return -1;  /* overlong; above U+10FFFF */
        *size = 4;
        return ((long) (c & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    }

    /* len(text.strip()) of the UTF-8 `data` decoded, without decoding it; -1 where it is not valid UTF-8. */
    static Py_ssize_t wims_utf8_stripped(const unsigned char *data, Py_ssize_t length) {
        const unsigned char *p = data, *end = data + length, *q;
        Py_ssize_t chars = 0, until = 0;  /* characters from the first non-space one; up to the last */
        int size = 1;
        long ch;
        uint64_t w, high = 0;
        /* all ASCII (most text nodes; told 8 bytes at a time): one byte a character, white space only at the ends */
        for (q = p; q + 8 <= end; q += 8) {
            memcpy(&w, q, 8);
            high |= w;
        }
        for (; q < end; q++) high |= *q;
        if (!(high & 0x80 * WIMS_ONES)) {
            while (p < end && Py_UNICODE_ISSPACE(*p)) p++;
            while (end > p && Py_UNICODE_ISSPACE(end[-1])) end--;
            return end - p;
        }
        while (p < end) {
            ch = *p < 0x80 ? *p : wims_utf8_char(p, end, &size);
            if (ch < 0) return -1;
            if (!Py_UNICODE_ISSPACE(ch)) until = ++chars;
            else if (chars) chars++;
            p += *p < 0x80 ? 1 : size;
        }
        return until;
    }

    /* wims_norm of pieces[start:end] (each valid UTF-8), normalised as UTF-8 and decoded once: no str per text node.
       None where a piece is not valid UTF-8 (the caller decodes the pieces, as before). */
    static PyObject *wims_norm_utf8(const wims_piece *pieces, Py_ssize_t start, Py_ssize_t end) {
        Py_ssize_t n = 0, p, i, j = 0, len;
        int space = 1, size;
        long ch;
        uint64_t high = 0;  /* the bytes kept, or-ed: ASCII text is made a str without a decoder */
        char stack[2048];
        unsigned char *out;
        const unsigned char *in;
        PyObject *result;
        for (p = start; p < end; p++) n += pieces[p].length;
        out = (size_t) n <= sizeof(stack) ? (unsigned char *) stack : PyMem_Malloc((size_t) n);
        if (out == NULL) return PyErr_NoMemory();
        for (p = start; p < end; p++) {
            in = pieces[p].data;
            len = pieces[p].length;
            for (i = 0; i < len; i++) {
                if (i + 8 <= len) {  /* wims_norm's 8 at a time through printable ASCII */
                    uint64_t w, t, spaces;
                    memcpy(&w, in + i, 8);
                    if (!((((w - 0x20 * WIMS_ONES) & ~w) | w) & 0x80 * WIMS_ONES)) {
                        t = w ^ (0x20 * WIMS_ONES);
                        spaces = ~((((t & 0x7f * WIMS_ONES) + 0x7f * WIMS_ONES) | t)) & 0x80 * WIMS_ONES;
                        if (!(spaces & (spaces >> 8)) && !(space && in[i] == 32)) {
                            int last = in[i + 7] == 32 ? 7 : 8;
                            if (space && j) out[j++] = 32;
                            memcpy(out + j, in + i, 8);  /* room: j is at most the bytes read before */
                            high |= w;
                            j += last;
                            space = last == 7;
                            i += 7;
                            continue;
                        }
                    }
                }
                size = 1;
                ch = in[i] < 0x80 ? in[i] : wims_utf8_char(in + i, in + len, &size);
                if (ch < 0) {
                    if (out != (unsigned char *) stack) PyMem_Free(out);
                    Py_RETURN_NONE;
                }
                if (Py_UNICODE_ISSPACE(ch)) {
                    space = 1;
                } else {
                    if (space && j) out[j++] = 32;
                    space = 0;
                    memcpy(out + j, in + i, size);
                    high |= in[i];
                    j += size;
                }
                i += size - 1;
            }
        }
        if (high & 0x80 * WIMS_ONES) {
            result = PyUnicode_DecodeUTF8((const char *) out, j, NULL);
        } else if ((result = PyUnicode_New(j, 127)) != NULL) {
            memcpy(PyUnicode_DATA(result), out, j);
        }
        if (out != (unsigned char *) stack) PyMem_Free(out);
        return result;
    }
    """
    object wims_norm(object pieces, Py_ssize_t start, Py_ssize_t end)
    ctypedef struct wims_piece:
        const unsigned char *data
        Py_ssize_t length
    Py_ssize_t wims_utf8_stripped(const unsigned char *data, Py_ssize_t length) noexcept
    object wims_norm_utf8(const wims_piece *pieces, Py_ssize_t start, Py_ssize_t end)


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



cdef const unsigned char *_SPACE = b" "  # the piece of a <br> or a white-space text node


cdef inline Py_ssize_t _add_piece(bytearray run, Py_ssize_t n, const unsigned char *data, Py_ssize_t length) except -1:
    """``run[:n] + [piece]`` for a text run's pieces (``run``: wims_piece structs, grown as needed): n + 1."""
    if <size_t> (n + 1) * sizeof(wims_piece) > <size_t> len(run):
        PyByteArray_Resize(run, 2 * (n + 1) * sizeof(wims_piece))
    cdef wims_piece *pieces = <wims_piece *> PyByteArray_AS_STRING(run)
    pieces[n].data = data
    pieces[n].length = length
    return n + 1


cdef str _norm_pieces(bytearray run, Py_ssize_t start, Py_ssize_t end):
    """``_norm_join`` of a text run's pieces ``start:end``, normalised from the UTF-8 lexbor holds (decoding each text
    node was 8 % of the walk); a run with a piece that is not valid UTF-8 decoded piece by piece, as before."""
    cdef const wims_piece *pieces = <const wims_piece *> PyByteArray_AS_STRING(run)
    text = wims_norm_utf8(pieces, start, end)
    if text is not None:
        return <str> text
    cdef Py_ssize_t k
    decoded = [PyUnicode_DecodeUTF8(<char *> pieces[k].data, pieces[k].length, "replace") for k in range(start, end)]
    return _norm_join(decoded, 0, len(decoded))


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


# the tests' ways in: _norm, _stripped_length, _norm_join, _norm_pieces and wims_utf8_stripped
def norm(str text):
    return _norm(text)


def stripped_length(str text):
    return _stripped_length(text)


def norm_join(list pieces, Py_ssize_t start=0):
    return _norm_join(pieces, start, len(pieces))


def norm_utf8(list pieces, Py_ssize_t start=0):
    """``_norm_pieces`` of ``bytes`` pieces (held by the list while it runs)."""
    run = bytearray()
    cdef Py_ssize_t n = 0
    for piece in pieces:
        n = _add_piece(run, n, <const unsigned char *> <bytes> piece, len(<bytes> piece))
    return _norm_pieces(run, start, n)


def utf8_stripped(bytes data):
    return wims_utf8_stripped(<const unsigned char *> data, len(data))
