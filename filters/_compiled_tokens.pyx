# cython: language_level=3
"""The words of :func:`filters.pipeline.tokenize`, compiled: the same words as its Python version.

``tokenize`` reads the text once, lower-casing it as it goes, and looks the short ASCII words up in a table of the
stop words' bytes (``DropTable``) before making a string of them.  ``filters.html5`` loads this module as
``COMPILED_TOKENS`` when it is built from the source on disk (``SOURCE_SHA256``), and the pipeline falls back to its
Python code otherwise; tests/filters/test_compiled_tokens.py holds the two to the same output.

Built by ``pip install -e .`` (setup.py, Cython), as ``filters/_compiled_loops.pyx`` is.
"""

from libc.string cimport memcmp, memcpy
from cpython.mem cimport PyMem_Calloc, PyMem_Free
from cpython.unicode cimport (
    Py_UNICODE_ISALNUM,
    Py_UNICODE_ISSPACE,
    Py_UNICODE_TOLOWER,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_READ,
    PyUnicode_Substring,
)


cdef extern from *:
    const char *WIMS_SOURCE_SHA256  # defined by setup.py


#: the SHA-256 of the .pyx this module was compiled from
SOURCE_SHA256 = WIMS_SOURCE_SHA256.decode("ascii")


#: str.lower() of each character below 256, from Python's own mapping (one character below 256 for each, asserted)
cdef Py_UCS4 LOWER_LATIN1[256]
for _c in range(256):
    _lower = chr(_c).lower()
    assert len(_lower) == 1 and ord(_lower) < 256, _c
    LOWER_LATIN1[_c] = ord(_lower)
#: what :func:`_folded` reads for a character that str.lower() changes otherwise than LOWER_LATIN1 (no character)
cdef enum:
    UNFOLDABLE = 0x110000


cdef inline Py_UCS4 _folded(int kind, void *data, Py_ssize_t k, bint fold):
    """The character ``k`` of a string's data; with ``fold``, lower-cased as str.lower() does where that is one
    character to one: LOWER_LATIN1 below 256, above it a character that is its own lower case (dashes, curly
    quotes, CJK, lower-case letters), UNFOLDABLE for any other (an upper-case letter beyond Latin-1: its full
    lower case can be two characters, and a capital sigma's depends on its neighbours)."""
    cdef Py_UCS4 ch = PyUnicode_READ(kind, data, k)
    if not fold:
        return ch
    if ch < 256:
        return LOWER_LATIN1[ch]
    return ch if Py_UNICODE_TOLOWER(ch) == ch else UNFOLDABLE


cdef inline str _ascii_word(int kind, void *data, Py_ssize_t start, Py_ssize_t end, bint fold):
    """The ASCII characters ``start:end`` of a string's data (:func:`_folded`) as a string: made directly (a slice of
    a wider string would be scanned for its widest character and narrowed, the tokens' main cost on English pages
    with a curly quote)."""
    cdef str word = PyUnicode_New(end - start, 127)
    cdef unsigned char *out = <unsigned char *> PyUnicode_DATA(word)
    cdef Py_ssize_t k
    for k in range(start, end):
        out[k - start] = <unsigned char> _folded(kind, data, k, fold)
    return word


cdef enum:
    DROP_WORD_MAX = 24  # the ASCII words up to this long are looked up in a DropTable, before any string is made


cdef class DropTable:
    """The ASCII words (of 1 to DROP_WORD_MAX characters) of a set of words, as bytes in an open-addressing table:
    whether a word of the text is in the set, read in its characters without making a string of it (most dropped
    words are stop words: a string made, hashed and freed for nothing)."""

    cdef object words  # the set (kept: the cache of _drop_table is keyed by its id)
    cdef Py_ssize_t mask
    cdef unsigned char *keys  # DROP_WORD_MAX bytes per slot
    cdef unsigned char *lengths  # per slot: the word's length, 0 for an empty slot

    def __cinit__(self, object words):
        cdef Py_ssize_t size = 16, count = 0, m, slot
        cdef bytes data
        ascii = [w.encode("ascii") for w in words if type(w) is str and w.isascii() and 0 < len(w) <= DROP_WORD_MAX]
        while size < 2 * len(ascii):
            size *= 2
        self.words, self.mask = words, size - 1
        self.keys = <unsigned char *> PyMem_Calloc(size, DROP_WORD_MAX)
        self.lengths = <unsigned char *> PyMem_Calloc(size, 1)
        if self.keys == NULL or self.lengths == NULL:
            raise MemoryError()
        for data in ascii:
            m = len(data)
            if self.has(data, m):
                continue
            slot = _fnv(data, m) & self.mask
            while self.lengths[slot]:
                slot = (slot + 1) & self.mask
            memcpy(self.keys + slot * DROP_WORD_MAX, <const char *> data, m)
            self.lengths[slot] = <unsigned char> m

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.lengths)

    cdef inline bint has(self, const unsigned char *word, Py_ssize_t m):
        """Whether the ASCII ``word`` of ``m`` (1 to DROP_WORD_MAX) bytes is in the table."""
        cdef Py_ssize_t slot = _fnv(word, m) & self.mask
        while self.lengths[slot]:
            if self.lengths[slot] == m and memcmp(self.keys + slot * DROP_WORD_MAX, word, m) == 0:
                return True
            slot = (slot + 1) & self.mask
        return False


cdef inline Py_ssize_t _fnv(const unsigned char *data, Py_ssize_t m):
    """FNV-1a of ``m`` bytes (a table's slot, masked)."""
    cdef unsigned long long h = 14695981039346656037ULL
    cdef Py_ssize_t k
    for k in range(m):
        h = (h ^ data[k]) * 1099511628211ULL
    return <Py_ssize_t> (h >> 1)


#: the DropTable of each set of words tokenize was given, by its id (the set kept in the table): the pipeline's are
#: the same few frozensets (filters.pipeline._DROP_CACHE)
cdef dict _DROP_TABLES = {}


cdef DropTable _drop_table(object drop):
    cdef DropTable table = _DROP_TABLES.get(id(drop))
    if table is not None and table.words is drop:
        return table
    if type(drop) is not frozenset:  # a set can change: looked up as it is
        return None
    if len(_DROP_TABLES) >= 16:
        _DROP_TABLES.clear()
    table = _DROP_TABLES[id(drop)] = DropTable(drop)
    return table


def tokenize(str text, object drop, object stop_words, object findall):
    """The words of :func:`filters.pipeline.tokenize` in one pass over ``text``: the pieces between ASCII
    non-letters and white space of the lower-cased text; the words of a piece with no letter outside ASCII are its
    runs of a-z (a run in ``drop``, the stop words and single letters, is not one; a single letter is never made a
    string), the words of another are what ``findall`` (the regex of words) finds in it, stop words left out.  The
    Python version's three paths give these words too; this one copies no text and makes no string of what it
    drops.  The text is lower-cased as it is read (:func:`_folded`: no lower-cased copy, a fifth of the tokens'
    instructions); a text with a character that cannot be is lower-cased by str.lower() first, and read again."""
    cdef DropTable table = _drop_table(drop)
    cdef list out = _words(text, True, drop, table, stop_words, findall)
    if out is None:
        out = _words(text.lower(), False, drop, table, stop_words, findall)
    return out


cdef int _add_ascii_word(list out, int kind, void *data, Py_ssize_t start, Py_ssize_t end, bint fold, object drop,
                         DropTable table) except -1:
    """Append the ASCII word ``start:end`` of a string's data (:func:`_ascii_word`) to ``out`` unless it is in
    ``drop``: looked up in ``table`` (``drop``'s DropTable, or None) before it is made a string, when it fits."""
    cdef unsigned char word[DROP_WORD_MAX]
    cdef Py_ssize_t m = end - start, k
    cdef str made
    if table is None or m > DROP_WORD_MAX:
        made = _ascii_word(kind, data, start, end, fold)
        if made not in drop:
            out.append(made)
        return 0
    for k in range(m):
        word[k] = <unsigned char> _folded(kind, data, start + k, fold)
    if table.has(word, m):
        return 0
    made = PyUnicode_New(m, 127)
    memcpy(PyUnicode_DATA(made), word, m)
    out.append(made)
    return 0


cdef list _words(str text, bint fold, object drop, DropTable table, object stop_words, object findall):
    """:func:`tokenize`'s pass (``fold``: lower-case as it reads, :func:`_folded`; else ``text`` is lower-cased);
    None when a character cannot be lower-cased as it is read."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, start, j, run
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_UCS4 ch
    cdef bint ascii, letters
    cdef list out = []
    while i < n:
        ch = _folded(kind, data, i, fold)
        i += 1
        if not (97 <= ch <= 122 or (ch >= 128 and not Py_UNICODE_ISSPACE(ch))):
            continue
        if ch == UNFOLDABLE:
            return None
        start, ascii, letters = i - 1, ch < 128, ch >= 128 and Py_UNICODE_ISALNUM(ch)
        while i < n:
            ch = _folded(kind, data, i, fold)
            if 97 <= ch <= 122:
                i += 1
            elif ch >= 128 and not Py_UNICODE_ISSPACE(ch):
                if ch == UNFOLDABLE:
                    return None
                # a letter for the regex is alphanumeric (and not a decimal digit): none such, no regex needed
                ascii, letters = False, letters or Py_UNICODE_ISALNUM(ch)
                i += 1
            else:
                break
        if ascii:
            if i - start > 1:
                _add_ascii_word(out, kind, data, start, i, fold, drop, table)
        elif not letters:  # "don’t", "2000–2010": the runs of a-z between the characters outside ASCII
            run = start
            for j in range(start, i + 1):
                if j == i or _folded(kind, data, j, fold) >= 128:
                    if j - run > 1:
                        _add_ascii_word(out, kind, data, run, j, fold, drop, table)
                    run = j + 1
        else:
            piece = PyUnicode_Substring(text, start, i)
            # lower-cased: what the piece is in the lower-cased text (each of its characters one to one)
            for word in findall(piece.lower() if fold else piece):
                if word not in stop_words:
                    out.append(word)
    return out
