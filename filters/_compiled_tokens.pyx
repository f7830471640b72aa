# cython: language_level=3
"""The words of :func:`filters.pipeline.tokenize`, compiled: the same words as its Python version.

``tokenize`` reads the text once, lower-casing it as it goes, and looks each short ASCII word up by its bytes in a
``WordTable``: the stop words (dropped) and the words met before in the text, each with the string made of it the
first time (reused: no string made and freed per word).  ``filters.html5`` loads this module as ``COMPILED_TOKENS``
when it is built from the source on disk (``SOURCE_SHA256``), and the pipeline falls back to its Python code
otherwise; tests/filters/test_compiled_tokens.py holds the two to the same output.

Built by ``pip install -e .`` (setup.py, Cython), as ``filters/_compiled_loops.pyx`` is.
"""

from libc.string cimport memcpy
from cpython.mem cimport PyMem_Calloc, PyMem_Free
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.unicode cimport (
    Py_UNICODE_ISALNUM,
    Py_UNICODE_ISSPACE,
    Py_UNICODE_TOLOWER,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_1BYTE_KIND,
    PyUnicode_2BYTE_KIND,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_READ,
    PyUnicode_Substring,
)


cdef extern from *:
    const char *WIMS_SOURCE_SHA256  # defined by setup.py


cdef extern from *:
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2


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


cdef inline Py_UCS4 _folded(int kind, void *data, Py_ssize_t k, bint fold) noexcept:
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
    SEPARATOR = 0  # white space, or an ASCII character that is not a letter: between pieces
    OTHER = 1  # a character outside ASCII that is not white space: in a piece, which is then no ASCII word
    UNFOLDED = 2  # a character that cannot be lower-cased as it is read (:func:`_folded`'s UNFOLDABLE)


cdef unsigned char _class_of(Py_UCS4 ch) noexcept:
    """What the scan makes of a (lower-cased) character: its ASCII letter, SEPARATOR or OTHER."""
    if 97 <= ch <= 122:
        return <unsigned char> ch
    return OTHER if ch >= 128 and not Py_UNICODE_ISSPACE(ch) else SEPARATOR


#: :func:`_class_of` each character below 256, lower-cased as read (LOWER_LATIN1) and as it is (a lower-cased text)
cdef unsigned char CLASS_FOLDED[256]
cdef unsigned char CLASS_AS_IS[256]
for _c in range(256):
    CLASS_FOLDED[_c] = _class_of(LOWER_LATIN1[_c])
    CLASS_AS_IS[_c] = _class_of(_c)


cdef inline unsigned char _wide_class(Py_UCS4 ch, bint fold) noexcept:
    """:func:`_class_of` a character of 256 or above, UNFOLDED where ``fold`` cannot lower-case it (:func:`_folded`)."""
    if Py_UNICODE_ISSPACE(ch):
        return SEPARATOR
    return UNFOLDED if fold and Py_UNICODE_TOLOWER(ch) != ch else OTHER


cdef enum:
    WORD_MAX = 24  # the ASCII words up to this long are looked up in a WordTable, before any string is made
    TABLE_SLOTS = 1024  # a WordTable's slots at least (32 KB: read at every word, it must stay in the caches)


cdef struct Slot:
    # the word's bytes, zero-padded to WORD_MAX: no letter is a zero byte, so they tell its length too, and an
    # empty slot (all zero)
    unsigned long long key[3]
    PyObject *word  # the string made of the word (a reference held), NULL for a dropped word


cdef inline Py_ssize_t _hash(const unsigned long long *key) noexcept:
    """A word's hash (a table's slot, masked): the high halves of its key's words multiplied by odd constants, which
    depend on all their bytes (hashed once per word, not per letter)."""
    cdef unsigned long long h = (
        key[0] * 0x9E3779B97F4A7C15ULL ^ key[1] * 0xC2B2AE3D27D4EB4FULL ^ key[2] * 0x165667B19E3779F9ULL
    )
    return <Py_ssize_t> (h >> 32)


cdef class WordTable:
    """The ASCII words (of 1 to WORD_MAX characters) of one set of dropped words, by their bytes in an open-addressing
    table: whether a word of the text is dropped, read in its characters without making a string of it (most dropped
    words are stop words: a string made, hashed and freed for nothing); and while a text is read, the words met in
    it, each with the string made of it the first time, which its next occurrences reuse (close to half of a text's
    words), forgotten after the text (only what a text enters is read: a small table stays in the caches)."""

    cdef object words  # the dropped words' set (kept: the cache of _word_table is keyed by its id)
    cdef Slot *slots
    cdef Py_ssize_t mask
    cdef Py_ssize_t *met  # the slots of the words met in the text being read
    cdef Py_ssize_t n_met, room  # their number, and how many a text may enter (the table at most half full)
    cdef bint reading  # a text is being read with the table (set by tokenize, cleared by forget)

    def __cinit__(self, object words):
        cdef Py_ssize_t size = TABLE_SLOTS, used = 0
        cdef bytes data
        cdef unsigned long long key[3]
        cdef Slot *slot
        # only a word of a-z letters can be read (and only its bytes, zero-padded, tell it from a longer word)
        ascii = {w.encode("ascii") for w in words if type(w) is str and 0 < len(w) <= WORD_MAX and _letters_only(w)}
        while size < 4 * len(ascii):
            size *= 2
        self.words, self.mask = words, size - 1
        self.slots = <Slot *> PyMem_Calloc(size, sizeof(Slot))
        self.met = <Py_ssize_t *> PyMem_Calloc(size // 2, sizeof(Py_ssize_t))
        if self.slots == NULL or self.met == NULL:
            raise MemoryError()
        for data in ascii:  # a dropped word's probe runs over dropped words only: forgetting a met word keeps them
            key[0] = key[1] = key[2] = 0
            memcpy(key, <const char *> data, len(data))
            slot = self._find(key)
            memcpy(slot.key, key, sizeof(key))
            used += 1
        self.room = size // 2 - used

    def __dealloc__(self):
        if self.slots != NULL and self.met != NULL:
            self.forget()
        PyMem_Free(self.slots)
        PyMem_Free(self.met)

    cdef void forget(self) noexcept:
        """Forget the words met in the text read (their strings released): the table holds the dropped words."""
        cdef Slot *slot
        cdef Py_ssize_t k
        for k in range(self.n_met):
            slot = self.slots + self.met[k]
            Py_XDECREF(slot.word)
            slot.word = NULL
            slot.key[0] = slot.key[1] = slot.key[2] = 0
        self.n_met = 0
        self.reading = False

    cdef inline Slot *_find(self, const unsigned long long *key) noexcept:
        """The slot of the word ``key`` (its bytes, zero-padded), else the empty slot where it goes."""
        cdef Py_ssize_t k = _hash(key) & self.mask
        while self.slots[k].key[0]:
            if self.slots[k].key[0] == key[0] and self.slots[k].key[1] == key[1] and self.slots[k].key[2] == key[2]:
                break
            k = (k + 1) & self.mask
        return self.slots + k

    cdef int add(self, list out, const unsigned long long *key, Py_ssize_t m) except -1:
        """Append the ASCII word ``key`` of ``m`` letters (:func:`_find`) to ``out`` unless it is dropped: the string
        made of it before in the text, else a new one, entered while the text has room."""
        cdef Slot *slot = self._find(key)
        cdef str made
        if slot.key[0]:
            if slot.word != NULL:
                out.append(<object> slot.word)
            return 0
        made = PyUnicode_New(m, 127)
        memcpy(PyUnicode_DATA(made), key, m)
        out.append(made)
        if self.n_met < self.room:
            memcpy(slot.key, key, 3 * sizeof(unsigned long long))
            Py_INCREF(made)
            slot.word = <PyObject *> made
            self.met[self.n_met] = slot - self.slots
            self.n_met += 1
        return 0


cdef bint _letters_only(str word):
    """Whether ``word`` is made of a-z only (the words the scan reads)."""
    return word.isascii() and word.isalpha() and word.islower()


#: the WordTable of each set of words tokenize was given to drop, by its id (the set kept in the table): the
#: pipeline's are the same few frozensets (filters.pipeline._DROP_CACHE)
cdef dict _WORD_TABLES = {}


cdef WordTable _word_table(object drop):
    cdef WordTable table = _WORD_TABLES.get(id(drop))
    if table is not None and table.words is drop:
        return table
    if type(drop) is not frozenset:  # a set can change: looked up as it is
        return None
    if len(_WORD_TABLES) >= 16:
        _WORD_TABLES.clear()
    table = _WORD_TABLES[id(drop)] = WordTable(drop)
    return table


def tokenize(str text, object drop, object stop_words, object findall):
    """The words of :func:`filters.pipeline.tokenize` in one pass over ``text``: the pieces between ASCII
    non-letters and white space of the lower-cased text; the words of a piece with no letter outside ASCII are its
    runs of a-z (a run in ``drop``, the stop words and single letters, is not one; a single letter is never made a
    string), the words of another are what ``findall`` (the regex of words) finds in it, stop words left out.  The
    Python version's three paths give these words too; this one copies no text, and makes no string of what it
    drops nor of a word met before in the text (:class:`WordTable`).  The text is lower-cased as it is read
    (:func:`_folded`: no lower-cased copy, a fifth of the tokens' instructions); a text with a character that cannot
    be is lower-cased by str.lower() first, and read again."""
    cdef WordTable table = _word_table(drop)
    cdef list out = []
    if table is not None and table.reading:  # another call is reading with it (a thread's, during findall)
        table = None
    if table is not None:
        table.reading = True
    try:
        if _words(out, text, True, table, drop, stop_words, findall):
            out = []
            _words(out, text.lower(), False, table, drop, stop_words, findall)
    finally:
        if table is not None:
            table.forget()
    return out


ctypedef fused Char:
    Py_UCS1
    Py_UCS2
    Py_UCS4


cdef int _words(list out, str text, bint fold, WordTable table, object drop, object stop_words,
                object findall) except -1:
    """:func:`_scan` of ``text``'s characters, read as wide as they are stored."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    if kind == PyUnicode_1BYTE_KIND:
        return _scan(out, <Py_UCS1 *> data, n, fold, table, drop, text, stop_words, findall)
    if kind == PyUnicode_2BYTE_KIND:
        return _scan(out, <Py_UCS2 *> data, n, fold, table, drop, text, stop_words, findall)
    return _scan(out, <Py_UCS4 *> data, n, fold, table, drop, text, stop_words, findall)


cdef int _scan(list out, Char *s, Py_ssize_t n, bint fold, WordTable table, object drop, str text,
               object stop_words, object findall) except -1:
    """:func:`tokenize`'s pass over the ``n`` characters ``s`` of ``text`` (``fold``: lower-cased as read, else the
    text is lower-cased already): an ASCII piece's bytes made as it is read, for ``table``
    (:meth:`WordTable.add`; ``drop`` itself where there is none or the piece is longer), the other pieces to
    :func:`_other_piece`.  1 when a character cannot be lower-cased as it is read."""
    cdef const unsigned char *classes = &CLASS_FOLDED[0] if fold else &CLASS_AS_IS[0]
    cdef unsigned long long key[3]
    cdef unsigned char *letters = <unsigned char *> key
    cdef Py_ssize_t i = 0, start
    cdef Py_UCS4 ch
    cdef unsigned char c
    cdef bint ascii
    while i < n:
        ch = s[i]
        c = classes[ch] if ch < 256 else _wide_class(ch, fold)
        if c == SEPARATOR:
            i += 1
            continue
        start, ascii = i, True
        key[0] = key[1] = key[2] = 0
        while True:
            if c == UNFOLDED:
                return 1
            if c == OTHER:
                ascii = False
            elif ascii and i - start < WORD_MAX:
                letters[i - start] = c
            i += 1
            if i == n:
                break
            ch = s[i]
            c = classes[ch] if ch < 256 else _wide_class(ch, fold)
            if c == SEPARATOR:
                break
        if not ascii:
            _other_piece(out, text, start, i, fold, table, drop, stop_words, findall)
        elif i - start < 2:  # a single letter: dropped
            continue
        elif table is None or i - start > WORD_MAX:
            _add_run(out, PyUnicode_KIND(text), PyUnicode_DATA(text), start, i, fold, table, drop)
        else:
            table.add(out, key, i - start)
    return 0


cdef int _other_piece(list out, str text, Py_ssize_t start, Py_ssize_t end, bint fold, WordTable table,
                      object drop, object stop_words, object findall) except -1:
    """The words of the piece ``start:end`` of ``text``, which holds a character outside ASCII: with no letter
    outside ASCII ("don’t", "2000–2010") its runs of a-z between those characters, else what ``findall`` finds in
    it, stop words left out."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t j, run = start
    cdef Py_UCS4 ch
    for j in range(start, end):
        ch = _folded(kind, data, j, fold)
        if ch >= 128 and Py_UNICODE_ISALNUM(ch):  # a letter for the regex is alphanumeric (not a decimal digit)
            piece = PyUnicode_Substring(text, start, end)
            # lower-cased: what the piece is in the lower-cased text (each of its characters one to one)
            for word in findall(piece.lower() if fold else piece):
                if word not in stop_words:
                    out.append(word)
            return 0
    for j in range(start, end + 1):
        if j == end or _folded(kind, data, j, fold) >= 128:
            if j - run > 1:
                _add_run(out, kind, data, run, j, fold, table, drop)
            run = j + 1
    return 0


cdef int _add_run(list out, int kind, void *data, Py_ssize_t start, Py_ssize_t end, bint fold, WordTable table,
                  object drop) except -1:
    """Append the run of a-z ``start:end`` of a string's data (:func:`_folded`) to ``out`` unless it is in ``drop``:
    looked up in ``table`` (``drop``'s WordTable, or None) before it is made a string, when it fits."""
    cdef unsigned long long key[3]
    cdef unsigned char *letters = <unsigned char *> key
    cdef Py_ssize_t m = end - start, k
    cdef str made
    if table is None or m > WORD_MAX:
        made = _ascii_word(kind, data, start, end, fold)
        if made not in drop:
            out.append(made)
        return 0
    key[0] = key[1] = key[2] = 0
    for k in range(m):
        letters[k] = <unsigned char> _folded(kind, data, start + k, fold)
    return table.add(out, key, m)
