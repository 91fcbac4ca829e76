/* The optional C reading of `vigueur batch` (api/batch/arrow_read.py): a clean block of CSV lines cut into its
 * columns in one pass over its bytes; a Parquet column read as its dictionaries recoded into the same texts
 * (recode(), below); a column of amounts read as integers of cents or thousandths (scaled(), below); and the output's
 * texts gathered end to end (gather(), below).
 *
 * It holds no rule of law. Its one rule of validation is the shape of an amount (scaled(): digits, a dot, digits),
 * whose numbers it is given by api/batch/arrow_cells.py and which the tests pin to the converter of csv_rows.py.
 * Otherwise it only cuts lines at their commas and gives, per column,
 *   - a "dictionary" column: the index of each cell's text in the column's list of distinct texts, kept from block
 *     to block in an Encoder (a hash table per column), and the texts this block met first (Python converts them);
 *   - a "plain" column: its cells' bytes one after the other and their offsets (the buffers of an Arrow string
 *     array).
 * A block it cannot read as is -- a quote, a control character (but a tab, or a carriage return ending a line), an
 * empty line, a line of another number of fields than the header's, a block of 2 GB or more -- is refused (None):
 * the Arrow reading and the row path read it, and word its errors. Every access is bounds-checked against the block
 * (the scan of a cell stops at the latest on the NUL that ends every bytes object).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A slot of a column's hash table: a text's first 16 bytes (zero-padded), its length and its index + 1 (0: a free
 * slot). A text of at most 16 bytes -- nearly every cell: dates, enums, codes -- is found by comparing the slot alone,
 * without a look at the texts' bytes. */
typedef struct {
    uint64_t a, b;
    uint32_t n, index1;
} Slot;

/* One dictionary column's distinct texts: their bytes end to end, where each ends, and a hash table of indices. */
typedef struct {
    char *bytes;       /* the texts' bytes, end to end */
    Py_ssize_t nbytes, bytes_cap;
    Py_ssize_t *ends;  /* ends[i]: where text i ends in bytes (text i starts at ends[i - 1], or 0) */
    Py_ssize_t count, count_cap;
    Slot *slots;       /* open addressing, linear probing; the size is a power of 2, at most half full */
    Py_ssize_t nslots;
    uint32_t *days;    /* a date's index + 1 by its day (see day_of; 0: not looked up yet), made at the first date:
                          a column of dates reads a few kB of it, not a hash table of thousands of texts */
} Column;

typedef struct {
    PyObject_HEAD
    Py_ssize_t width;
    char *kinds;       /* per column: 'd' dictionary, 'p' plain */
    Column *columns;   /* per column (used by the dictionary ones) */
} Encoder;

static uint64_t load8(const unsigned char *p) { /* 8 bytes, unaligned */
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static uint64_t hash_bytes(const unsigned char *p, Py_ssize_t n) { /* 8 bytes at a time, then mixed (murmur3's) */
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ULL, w;
    for (; n >= 8; p += 8, n -= 8) h = (h ^ load8(p)) * 0xff51afd7ed558ccdULL, h ^= h >> 32;
    for (w = 0; n > 0; n--) w = (w << 8) | p[n - 1];
    h ^= w;
    h ^= h >> 33, h *= 0xff51afd7ed558ccdULL, h ^= h >> 33, h *= 0xc4ceb9fe1a85ec53ULL, h ^= h >> 33;
    return h;
}

static int same_bytes(const unsigned char *a, const unsigned char *b, Py_ssize_t n) {
    for (; n >= 8; a += 8, b += 8, n -= 8)
        if (load8(a) != load8(b)) return 0;
    for (; n > 0; n--)
        if (a[n - 1] != b[n - 1]) return 0;
    return 1;
}

/* The first 16 bytes of p[0:n] as two words, zero-padded; `avail`: the bytes that may be read from p (>= n). */
static void key_of(const unsigned char *p, Py_ssize_t n, Py_ssize_t avail, uint64_t *a, uint64_t *b) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (avail >= 16) { /* two loads, the bytes past the text masked off */
        uint64_t x = load8(p), y = load8(p + 8);
        *a = n >= 8 ? x : (n > 0 ? x & ((1ULL << (8 * n)) - 1) : 0);
        *b = n >= 16 ? y : (n > 8 ? y & ((1ULL << (8 * (n - 8))) - 1) : 0);
        return;
    }
#endif
    unsigned char first[16] = {0};
    memcpy(first, p, (size_t)(n < 16 ? n : 16));
    *a = load8(first), *b = load8(first + 8);
}

static uint64_t hash_key(uint64_t a, uint64_t b, const unsigned char *p, Py_ssize_t n) {
    uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)n * 0x165667B19E3779F9ULL;
    if (n > 16) h ^= hash_bytes(p + 16, n - 16);
    h ^= h >> 32, h *= 0xD6E8FEB86659FD93ULL, h ^= h >> 32;
    return h;
}

static Py_ssize_t text_start(const Column *c, Py_ssize_t i) { return i ? c->ends[i - 1] : 0; }

static void column_free(Column *c) {
    PyMem_Free(c->days);
    PyMem_Free(c->bytes);
    PyMem_Free(c->ends);
    PyMem_Free(c->slots);
    memset(c, 0, sizeof(*c));
}

/* Place text i (key a, b; length n; hash h) in the hash table (which has room). */
static void slot_put(Column *c, Py_ssize_t i, uint64_t a, uint64_t b, Py_ssize_t n, uint64_t h) {
    size_t mask = (size_t)c->nslots - 1, k = (size_t)h & mask;
    while (c->slots[k].index1) k = (k + 1) & mask;
    c->slots[k].a = a, c->slots[k].b = b, c->slots[k].n = (uint32_t)n, c->slots[k].index1 = (uint32_t)(i + 1);
}

/* The hash table rebuilt with nslots slots for the first `count` texts; -1 when out of memory. */
static int rehash(Column *c, Py_ssize_t nslots) {
    Slot *slots = PyMem_Calloc((size_t)nslots, sizeof(Slot));
    if (!slots) return -1;
    PyMem_Free(c->slots);
    c->slots = slots;
    c->nslots = nslots;
    for (Py_ssize_t i = 0; i < c->count; i++) {
        Py_ssize_t start = text_start(c, i), n = c->ends[i] - start;
        const unsigned char *p = (const unsigned char *)c->bytes + start;
        uint64_t a, b;
        key_of(p, n, c->nbytes - start, &a, &b);
        slot_put(c, i, a, b, n, hash_key(a, b, p, n));
    }
    return 0;
}

/* A text « YYYY-MM-DD » of years 1900-2099, months 01-12 and days 01-31: its place in a table of 200 × 12 × 31 days
 * (a different text, a different place); -1 for any other text. */
#define DAYS (200 * 12 * 31)
static Py_ssize_t day_of(const unsigned char *p, Py_ssize_t n) {
    if (n != 10 || p[4] != '-' || p[7] != '-') return -1;
    int digits[8], k = 0;
    for (int i = 0; i < 10; i++) {
        if (i == 4 || i == 7) continue;
        if (p[i] < '0' || p[i] > '9') return -1;
        digits[k++] = p[i] - '0';
    }
    int year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3];
    int month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7];
    if (year < 1900 || year > 2099 || month < 1 || month > 12 || day < 1 || day > 31) return -1;
    return ((Py_ssize_t)(year - 1900) * 12 + month - 1) * 31 + day - 1;
}

static Py_ssize_t lookup_text(Column *c, const unsigned char *p, Py_ssize_t n, Py_ssize_t avail);

/* The index of the text p[0:n] in the column, appended when new; -1 when out of memory. `avail`: the bytes that may
 * be read from p (>= n). A date is looked up by its day first. */
static Py_ssize_t lookup(Column *c, const unsigned char *p, Py_ssize_t n, Py_ssize_t avail) {
    Py_ssize_t day = day_of(p, n);
    if (day < 0) return lookup_text(c, p, n, avail);
    if (!c->days && !(c->days = PyMem_Calloc(DAYS, sizeof(uint32_t)))) return -1;
    if (c->days[day]) return (Py_ssize_t)c->days[day] - 1;
    Py_ssize_t i = lookup_text(c, p, n, avail);
    if (i >= 0) c->days[day] = (uint32_t)(i + 1);
    return i;
}

/* The index of the text p[0:n] in the column, appended when new; -1 when out of memory. `avail`: the bytes that may
 * be read from p (>= n). */
static Py_ssize_t lookup_text(Column *c, const unsigned char *p, Py_ssize_t n, Py_ssize_t avail) {
    uint64_t a, b;
    key_of(p, n, avail, &a, &b);
    uint64_t h = hash_key(a, b, p, n);
    size_t mask = (size_t)c->nslots - 1, k = (size_t)h & mask;
    for (const Slot *s; (s = &c->slots[k])->index1; k = (k + 1) & mask) {
        if (s->a != a || s->b != b || s->n != (uint32_t)n) continue;
        if (n <= 16) return (Py_ssize_t)s->index1 - 1;
        Py_ssize_t i = (Py_ssize_t)s->index1 - 1;
        if (same_bytes((const unsigned char *)c->bytes + text_start(c, i) + 16, p + 16, n - 16)) return i;
    }
    /* a new text: room for it, then appended */
    if (c->count >= UINT32_MAX - 1 || n >= UINT32_MAX) return -1;
    if (c->count == c->count_cap) {
        Py_ssize_t cap = c->count_cap ? 2 * c->count_cap : 64;
        Py_ssize_t *ends = PyMem_Realloc(c->ends, (size_t)cap * sizeof(Py_ssize_t));
        if (!ends) return -1;
        c->ends = ends;
        c->count_cap = cap;
    }
    if (c->nbytes + n > c->bytes_cap) {
        Py_ssize_t cap = c->bytes_cap ? 2 * c->bytes_cap : 1024;
        while (cap < c->nbytes + n) cap *= 2;
        char *bytes = PyMem_Realloc(c->bytes, (size_t)cap);
        if (!bytes) return -1;
        c->bytes = bytes;
        c->bytes_cap = cap;
    }
    memcpy(c->bytes + c->nbytes, p, (size_t)n);
    c->nbytes += n;
    Py_ssize_t i = c->count++;
    c->ends[i] = c->nbytes;
    if (2 * c->count > c->nslots) {
        if (rehash(c, c->nslots ? 2 * c->nslots : 128) < 0) return -1;
    } else {
        slot_put(c, i, a, b, n, h);
    }
    return i;
}

/* The column cut back to its first `count` texts (a refused block's new texts forgotten). */
static int truncate_column(Column *c, Py_ssize_t count) {
    if (count >= c->count) return 0;
    c->count = count;
    c->nbytes = count ? c->ends[count - 1] : 0;
    if (c->days) memset(c->days, 0, DAYS * sizeof(uint32_t)); /* (texts forgotten: their days too) */
    return rehash(c, c->nslots ? c->nslots : 128);
}

static void Encoder_dealloc(Encoder *self) {
    if (self->columns)
        for (Py_ssize_t j = 0; j < self->width; j++) column_free(&self->columns[j]);
    PyMem_Free(self->columns);
    PyMem_Free(self->kinds);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Encoder(kinds: bytes): one byte per column of the header, b"d" (dictionary) or b"p" (plain). */
static int Encoder_init(Encoder *self, PyObject *args, PyObject *kwds) {
    const char *kinds;
    Py_ssize_t width;
    static char *names[] = {"kinds", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y#", names, &kinds, &width)) return -1;
    if (width < 1 || self->columns) {
        PyErr_SetString(PyExc_ValueError, "an Encoder needs one kind per column, and is made once");
        return -1;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        if (kinds[j] != 'd' && kinds[j] != 'p') {
            PyErr_SetString(PyExc_ValueError, "a column's kind is b'd' (dictionary) or b'p' (plain)");
            return -1;
        }
    }
    self->kinds = PyMem_Malloc((size_t)width);
    self->columns = PyMem_Calloc((size_t)width, sizeof(Column));
    if (!self->kinds || !self->columns) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->kinds, kinds, (size_t)width);
    self->width = width;
    return 0;
}

static int dictionary_column(Encoder *self, Py_ssize_t j) {
    if (j < 0 || j >= self->width || self->kinds[j] != 'd') {
        PyErr_SetString(PyExc_IndexError, "not a dictionary column");
        return 0;
    }
    return 1;
}

/* seed(column, offsets, data): the column's texts are now these, in this order (an Arrow string array's int32
 * offsets -- count + 1 of them -- and its data). */
static PyObject *Encoder_seed(Encoder *self, PyObject *args) {
    Py_ssize_t j;
    Py_buffer offsets, data;
    if (!PyArg_ParseTuple(args, "ny*y*", &j, &offsets, &data)) return NULL;
    PyObject *result = NULL;
    if (!dictionary_column(self, j)) goto done;
    const int32_t *at = offsets.buf;
    Py_ssize_t count = offsets.len / (Py_ssize_t)sizeof(int32_t) - 1;
    if (offsets.len % (Py_ssize_t)sizeof(int32_t) || count < 0) {
        PyErr_SetString(PyExc_ValueError, "offsets: count + 1 int32");
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) { /* offsets within the data, in order */
        if (at[i] < 0 || at[i] > at[i + 1] || at[i + 1] > data.len) {
            PyErr_SetString(PyExc_ValueError, "offsets out of the data");
            goto done;
        }
    }
    Column *c = &self->columns[j];
    column_free(c);
    if (rehash(c, 128) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t n = at[i + 1] - at[i];
        Py_ssize_t k = lookup(c, (const unsigned char *)data.buf + at[i], n, data.len - at[i]);
        if (k < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (k != i) {
            PyErr_SetString(PyExc_ValueError, "a text given twice");
            column_free(c);
            goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    return result;
}

/* size(column): the number of texts of a dictionary column. */
static PyObject *Encoder_size(Encoder *self, PyObject *arg) {
    Py_ssize_t j = PyLong_AsSsize_t(arg);
    if (j == -1 && PyErr_Occurred()) return NULL;
    if (!dictionary_column(self, j)) return NULL;
    return PyLong_FromSsize_t(self->columns[j].count);
}

/* What stops the scan of a cell: a comma, a line feed, a carriage return (ending a CRLF line, else refused), and
 * what makes a block refused: a quote, DEL, a C0 control but the tab. */
static unsigned char STOP[256];

static void init_stop(void) {
    for (int b = 0; b < 32; b++) STOP[b] = (b != '\t');
    STOP[','] = STOP['"'] = STOP[127] = 1;
}

/* The output of one column, filled by split(). */
typedef struct {
    PyObject *codes_or_offsets; /* bytes: int64 codes (dictionary), int32 offsets (plain) */
    PyObject *data;             /* bytes: a plain column's cells, end to end */
    Py_ssize_t used;            /* bytes used in data */
    int64_t *codes;             /* where they are written */
    int32_t *offsets;
    char *to;
    const unsigned char *last;  /* a dictionary column's cell on the line before, and its length and code */
    Py_ssize_t last_n, last_code;
} Out;

/* split(block) -> (rows, columns) or None (refused). A dictionary column gives (codes, new_offsets, new_data): an
 * int64 code per row, and the texts met first in this block (int32 offsets, data); a plain column gives (offsets,
 * data). The block is refused -- None, and the texts it met first forgotten -- when it is not clean (see above). */
static PyObject *Encoder_split(Encoder *self, PyObject *arg) {
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "split() takes bytes");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(arg);
    const Py_ssize_t len = PyBytes_GET_SIZE(arg), width = self->width;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "Encoder() was not given its kinds");
        return NULL;
    }
    if (len == 0 || len >= INT32_MAX) Py_RETURN_NONE;
    const unsigned char *const end = p + len;
    Py_ssize_t rows = 0; /* the lines: line feeds, and a last line without one */
    for (const unsigned char *q = p; (q = memchr(q, '\n', (size_t)(end - q))); q++) rows++;
    if (end[-1] != '\n') rows++;

    PyObject *result = NULL;
    Py_ssize_t *before = PyMem_Calloc((size_t)width, sizeof(Py_ssize_t)); /* each column's texts before */
    Out *out = PyMem_Calloc((size_t)width, sizeof(Out));
    if (!before || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        before[j] = self->columns[j].count;
        if (self->kinds[j] == 'd') {
            out[j].codes_or_offsets = PyBytes_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(int64_t));
            if (!out[j].codes_or_offsets) goto done;
            out[j].codes = (int64_t *)PyBytes_AS_STRING(out[j].codes_or_offsets);
            out[j].last_code = -1;
            if (!self->columns[j].nslots && rehash(&self->columns[j], 128) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        } else {
            out[j].codes_or_offsets = PyBytes_FromStringAndSize(NULL, (rows + 1) * (Py_ssize_t)sizeof(int32_t));
            out[j].data = PyBytes_FromStringAndSize(NULL, len + 16); /* at most the block (+ slack); shrunk after */
            if (!out[j].codes_or_offsets || !out[j].data) goto done;
            out[j].offsets = (int32_t *)PyBytes_AS_STRING(out[j].codes_or_offsets);
            out[j].to = PyBytes_AS_STRING(out[j].data);
            out[j].offsets[0] = 0;
        }
    }

    int refused = 0;
    for (Py_ssize_t row = 0; row < rows && !refused; row++) {
        const unsigned char *line = p;
        for (Py_ssize_t j = 0; j < width; j++) {
            const unsigned char *start = p;
            while (!STOP[*p]) p++; /* (a bytes object ends with a NUL, which stops it: *end == 0) */
            const unsigned char *stop = p; /* the cell is [start, stop) */
            if (p < end && *p == '\r' && p + 1 < end && p[1] == '\n') p++; /* CRLF: the \r ends the line */
            int last = (j == width - 1), comma = (p < end && *p == ','), line_end = (p == end || *p == '\n');
            if (comma ? last : !(line_end && last)) {
                refused = 1; /* a field too many, too few, or a byte that makes the block unclean */
                break;
            }
            if (p < end) p++; /* past the comma or the line feed */
            if (last && stop == line) {
                refused = 1; /* an empty line (Arrow skips it: the row path reads the block) */
                break;
            }
            Py_ssize_t n = stop - start;
            Out *o = &out[j];
            if (self->kinds[j] == 'd') {
                if (n != o->last_n || o->last_code < 0 || !same_bytes(start, o->last, n)) { /* not the cell above */
                    o->last_code = lookup(&self->columns[j], start, n, end - start);
                    if (o->last_code < 0) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    o->last = start, o->last_n = n;
                }
                o->codes[row] = o->last_code;
            } else {
                char *to = o->to + o->used; /* (room for 16 bytes more than the block) */
                if (n <= 16 && end - start >= 16) memcpy(to, start, 8), memcpy(to + 8, start + 8, 8);
                else memcpy(to, start, (size_t)n);
                o->used += n;
                o->offsets[row + 1] = (int32_t)o->used;
            }
        }
    }
    if (refused || p < end) { /* (p < end: not expected, the lines were counted) */
        for (Py_ssize_t j = 0; j < width; j++)
            if (self->kinds[j] == 'd' && truncate_column(&self->columns[j], before[j]) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        result = Py_NewRef(Py_None);
        goto done;
    }

    PyObject *columns = PyList_New(width);
    if (!columns) goto done;
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *item;
        if (self->kinds[j] == 'd') { /* the texts met first: from before[j] on */
            Column *c = &self->columns[j];
            Py_ssize_t first = before[j], added = c->count - first, base = text_start(c, first);
            PyObject *offsets = PyBytes_FromStringAndSize(NULL, (added + 1) * (Py_ssize_t)sizeof(int32_t));
            PyObject *data = PyBytes_FromStringAndSize(c->bytes ? c->bytes + base : "", c->nbytes - base);
            if (offsets && data) {
                int32_t *at = (int32_t *)PyBytes_AS_STRING(offsets);
                at[0] = 0;
                for (Py_ssize_t i = 0; i < added; i++) at[i + 1] = (int32_t)(c->ends[first + i] - base);
            }
            item = offsets && data ? PyTuple_Pack(3, out[j].codes_or_offsets, offsets, data) : NULL;
            Py_XDECREF(offsets);
            Py_XDECREF(data);
        } else {
            if (_PyBytes_Resize(&out[j].data, out[j].used) < 0) item = NULL;
            else item = PyTuple_Pack(2, out[j].codes_or_offsets, out[j].data);
        }
        if (!item) {
            Py_DECREF(columns);
            goto done;
        }
        PyList_SET_ITEM(columns, j, item);
    }
    result = Py_BuildValue("(nN)", rows, columns);
done:
    if (!result && before) /* an error (out of memory): the texts met in this block forgotten, or all of them */
        for (Py_ssize_t j = 0; j < width; j++)
            if (self->kinds[j] == 'd' && truncate_column(&self->columns[j], before[j]) < 0) column_free(&self->columns[j]);
    if (out)
        for (Py_ssize_t j = 0; j < width; j++) {
            Py_XDECREF(out[j].codes_or_offsets);
            Py_XDECREF(out[j].data);
        }
    PyMem_Free(out);
    PyMem_Free(before);
    return result;
}

/* The Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html): a stable ABI, these
 * structures as the specification gives them. recode() reads a column through its C stream (one call, every chunk). */
struct ArrowSchema {
    const char *format, *name, *metadata;
    int64_t flags, n_children;
    struct ArrowSchema **children, *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length, null_count, offset, n_buffers, n_children;
    const void **buffers;
    struct ArrowArray **children, *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

/* One chunk's cells as codes into the column, from `codes[row]` on: its dictionary's texts looked up once each
 * (`map`: room for them), a null cell the empty text. 0: done; -1: out of memory; -2: an index outside the
 * dictionary, or offsets out of order. */
static int recode_chunk(Column *c, const struct ArrowArray *a, int64_t *codes, Py_ssize_t **map, Py_ssize_t *map_cap,
                        Py_ssize_t *empty) {
    const struct ArrowArray *d = a->dictionary;
    Py_ssize_t count = (Py_ssize_t)d->length;
    if (count > *map_cap) {
        PyMem_Free(*map);
        *map_cap = count;
        if (!(*map = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(Py_ssize_t)))) return -1;
    }
    const int32_t *at = (const int32_t *)d->buffers[1] + d->offset;
    const unsigned char *data = d->buffers[2];
    for (Py_ssize_t i = 0; i < count; i++) { /* each text of the chunk's dictionary: its code */
        if (at[i] < 0 || at[i] > at[i + 1]) return -2;
        if (((*map)[i] = lookup(c, data + at[i], at[i + 1] - at[i], at[count] - at[i])) < 0) return -1;
    }
    const int32_t *indices = (const int32_t *)a->buffers[1] + a->offset;
    const unsigned char *valid = a->null_count ? a->buffers[0] : NULL;
    for (Py_ssize_t r = 0; r < (Py_ssize_t)a->length; r++) {
        Py_ssize_t bit = (Py_ssize_t)a->offset + r;
        if (valid && !((valid[bit >> 3] >> (bit & 7)) & 1)) { /* null: the empty text */
            if (*empty < 0 && (*empty = lookup(c, (const unsigned char *)"", 0, 0)) < 0) return -1;
            codes[r] = *empty;
            continue;
        }
        int32_t x = indices[r];
        if (x < 0 || x >= count) return -2;
        codes[r] = (*map)[x];
    }
    return 0;
}

/* recode(column, stream, rows) -> (codes, new_offsets, new_data), or None: the cells of an Arrow column of
 * dictionaries (a Parquet column read as its dictionaries: each row group's own), given as its C stream (the
 * PyCapsule of ChunkedArray.__arrow_c_stream__: int32 indices into utf8 texts, `rows` cells in all), as an int64 code
 * per cell into the column's texts (the empty text for a null cell), and the texts met first: what split() gives for
 * a dictionary column. None -- the texts met first forgotten -- for another type, a null text, an index outside its
 * dictionary, or another number of cells: the caller reads the column another way. */
static PyObject *Encoder_recode(Encoder *self, PyObject *args) {
    Py_ssize_t j, rows;
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "nOn", &j, &capsule, &rows)) return NULL;
    if (!dictionary_column(self, j)) return NULL;
    struct ArrowArrayStream *stream = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (!stream) return NULL;
    if (!stream->release || rows < 0) {
        PyErr_SetString(PyExc_ValueError, "recode(): a stream not consumed yet, and its number of cells");
        return NULL;
    }
    Column *c = &self->columns[j];
    if (!c->nslots && rehash(c, 128) < 0) return PyErr_NoMemory();
    const Py_ssize_t before = c->count;
    PyObject *result = NULL, *codes_bytes = PyBytes_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(int64_t));
    Py_ssize_t *map = NULL, map_cap = 0, empty = -1, row = 0;
    struct ArrowSchema schema = {0};
    int refused = 0, failed = 0;
    if (!codes_bytes) goto done;
    int64_t *codes = (int64_t *)PyBytes_AS_STRING(codes_bytes);
    if (stream->get_schema(stream, &schema) != 0) {
        refused = 1;
        goto done;
    }
    refused = strcmp(schema.format, "i") || !schema.dictionary || strcmp(schema.dictionary->format, "u");
    while (!refused) {
        struct ArrowArray a = {0};
        if (stream->get_next(stream, &a) != 0) {
            refused = 1;
            break;
        }
        if (!a.release) break; /* the end of the stream */
        int got = -2;
        if (a.length > rows - row || a.n_buffers != 2 || !a.dictionary || a.dictionary->n_buffers != 3)
            got = -2; /* more cells than said, or not an array of dictionaries */
        else if (a.length == 0)
            got = 0;
        else if (a.buffers[1] && a.dictionary->buffers[1] && a.dictionary->buffers[2] && !a.dictionary->null_count)
            got = recode_chunk(c, &a, codes + row, &map, &map_cap, &empty);
        row += (Py_ssize_t)a.length;
        a.release(&a);
        if (got == -1) failed = 1;
        if (got < 0) refused = 1;
    }
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (refused || row != rows) {
        refused = 1;
        goto done;
    }
    Py_ssize_t added = c->count - before, base = text_start(c, before);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (added + 1) * (Py_ssize_t)sizeof(int32_t));
    PyObject *data = PyBytes_FromStringAndSize(c->bytes ? c->bytes + base : "", c->nbytes - base);
    if (offsets && data) {
        int32_t *out = (int32_t *)PyBytes_AS_STRING(offsets);
        out[0] = 0;
        for (Py_ssize_t i = 0; i < added; i++) out[i + 1] = (int32_t)(c->ends[before + i] - base);
        result = PyTuple_Pack(3, codes_bytes, offsets, data);
    }
    Py_XDECREF(offsets);
    Py_XDECREF(data);
done:
    if (schema.release) schema.release(&schema);
    if (stream->release) stream->release(stream); /* consumed: the capsule's destructor finds it released */
    if (!result && truncate_column(c, before) < 0) column_free(c); /* the texts met first forgotten */
    if (refused && !PyErr_Occurred()) result = Py_NewRef(Py_None);
    PyMem_Free(map);
    Py_XDECREF(codes_bytes);
    return result;
}

/* scaled(offsets, data, places, whole, values, known, wrong): the cells of an Arrow string array (its int32 offsets,
 * n + 1 of them, and its data) read as amounts of `places` decimal places, into three arrays of n the caller gives
 * (int64 values, one-byte known and wrong): a cell of 1 to `whole` ASCII digits, then optionally a dot and 1 to
 * `places` digits, is known, its value its digits as one integer (the dot taken out) times ten to the places its
 * fraction lacks; any other cell holding a byte is wrong (value 0); an empty cell is neither (value 0). This is the
 * shape arrow_cells._SCALED writes as a regular expression, with its numbers (`places`, `whole`) given from there;
 * tests/api/batch/test_arrow_cells.py pins both to the converter of api/batch/csv_rows.py. */
static PyObject *scaled(PyObject *module, PyObject *args) {
    Py_buffer offsets, data, values, known, wrong;
    int places, whole;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*y*iiw*w*w*", &offsets, &data, &places, &whole, &values, &known, &wrong)) return NULL;
    PyObject *result = NULL;
    const int32_t *at = offsets.buf;
    Py_ssize_t n = offsets.len / (Py_ssize_t)sizeof(int32_t) - 1;
    if (offsets.len % (Py_ssize_t)sizeof(int32_t) || n < 0 || places < 0 || whole < 1 || whole + places > 18 ||
        values.len != n * (Py_ssize_t)sizeof(int64_t) || known.len != n || wrong.len != n) {
        PyErr_SetString(PyExc_ValueError, "scaled(): offsets of n + 1 int32, 0 <= places, 1 <= whole, places + whole "
                                          "<= 18, and n values (int64), n known and n wrong (one byte each)");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (at[i] < 0 || at[i] > at[i + 1] || at[i + 1] > data.len) {
            PyErr_SetString(PyExc_ValueError, "offsets out of the data");
            goto done;
        }
    const unsigned char *bytes = data.buf;
    int64_t *value = values.buf;
    char *is_known = known.buf, *is_wrong = wrong.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *p = bytes + at[i], *end = bytes + at[i + 1];
        uint64_t v = 0;
        int digits = 0, fraction = -1; /* -1: no dot yet */
        int ok = p < end;
        for (; ok && p < end; p++) {
            if (*p >= '0' && *p <= '9') {
                if (fraction < 0 ? ++digits > whole : ++fraction > places) ok = 0;
                else v = v * 10 + (uint64_t)(*p - '0');
            } else if (*p == '.' && fraction < 0) {
                fraction = 0;
            } else {
                ok = 0;
            }
        }
        ok = ok && digits >= 1 && fraction != 0; /* a dot is followed by a digit at least */
        for (int k = fraction < 0 ? 0 : fraction; ok && k < places; k++) v *= 10;
        value[i] = ok ? (int64_t)v : 0;
        is_known[i] = (char)ok;
        is_wrong[i] = (char)(!ok && at[i + 1] > at[i]);
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    PyBuffer_Release(&values);
    PyBuffer_Release(&known);
    PyBuffer_Release(&wrong);
    return result;
}

/* gather(offsets, data, index) -> bytes: the texts of a string array (its int32 offsets, count + 1 of them, and its
 * data) at each index of `index` (int32), end to end -- an Arrow `take` of the texts and its data buffer, in one
 * pass (the output of `vigueur batch`: each record's fields, api/batch/results.py). */
static PyObject *gather(PyObject *module, PyObject *args) {
    Py_buffer offsets, data, index;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*y*y*", &offsets, &data, &index)) return NULL;
    PyObject *result = NULL;
    const int32_t *at = offsets.buf, *which = index.buf;
    Py_ssize_t count = offsets.len / (Py_ssize_t)sizeof(int32_t) - 1, n = index.len / (Py_ssize_t)sizeof(int32_t);
    if (offsets.len % (Py_ssize_t)sizeof(int32_t) || count < 0 || index.len % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "gather(): offsets of count + 1 int32, and int32 indices");
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (at[i] < 0 || at[i] > at[i + 1] || at[i + 1] > data.len) {
            PyErr_SetString(PyExc_ValueError, "offsets out of the data");
            goto done;
        }
    Py_ssize_t size = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t k = which[i];
        if (k < 0 || k >= count) {
            PyErr_SetString(PyExc_IndexError, "gather(): an index out of the texts");
            goto done;
        }
        size += at[k + 1] - at[k];
    }
    result = PyBytes_FromStringAndSize(NULL, size);
    if (!result) goto done;
    char *to = PyBytes_AS_STRING(result), *const end = to + size;
    const char *from = data.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t k = which[i], length = at[k + 1] - at[k];
        if (length <= 16 && end - to >= 16 && data.len - at[k] >= 16) { /* a short text: two 16-byte moves' worth */
            uint64_t x, y;
            memcpy(&x, from + at[k], 8), memcpy(&y, from + at[k] + 8, 8);
            memcpy(to, &x, 8), memcpy(to + 8, &y, 8); /* (the bytes past it are written over by the next) */
        } else {
            memcpy(to, from + at[k], (size_t)length);
        }
        to += length;
    }
done:
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    PyBuffer_Release(&index);
    return result;
}

static PyMethodDef module_methods[] = {
    {"gather", gather, METH_VARARGS, "gather(offsets, data, index) -> bytes: a string array's texts at the indices"},
    {"scaled", scaled, METH_VARARGS,
     "scaled(offsets, data, places, whole, values, known, wrong): a string array's cells read as amounts"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Encoder_methods[] = {
    {"seed", (PyCFunction)Encoder_seed, METH_VARARGS, "seed(column, offsets, data): the column's texts, in order"},
    {"size", (PyCFunction)Encoder_size, METH_O, "size(column): the number of texts of a dictionary column"},
    {"split", (PyCFunction)Encoder_split, METH_O, "split(block) -> (rows, columns) or None: see api/batch/split_c.c"},
    {"recode", (PyCFunction)Encoder_recode, METH_VARARGS,
     "recode(column, stream, rows) -> (codes, new_offsets, new_data) or None: an Arrow column of dictionaries as codes"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "api.batch.split_c.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Encoder(kinds): cuts clean CSV blocks into columns, the dictionary ones' texts kept from block to block",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Encoder_init,
    .tp_dealloc = (destructor)Encoder_dealloc,
    .tp_methods = Encoder_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "api.batch.split_c",
                                    .m_doc = "A clean CSV block cut into columns.", .m_size = -1,
                                    .m_methods = module_methods};

PyMODINIT_FUNC PyInit_split_c(void) {
    init_stop();
    if (PyType_Ready(&EncoderType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "Encoder", (PyObject *)&EncoderType) < 0) Py_CLEAR(m);
    return m;
}
