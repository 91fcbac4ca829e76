/* The optional compiled walk of the columnar engine (legislation/columnar/recorded.py, walk): a block's rows down a
 * scheme's combined table of recorded decisions, row by row -- four side by side -- instead of level by level. It
 * holds no rule: it reads the tables it is given (built by recorded.combine from the recordings) and the codes the
 * engine computed. Without it (no C compiler at install, or VIGUEUR_NO_C set), numpy walks; the tests
 * (tests/unit/test_columnar_walk.py) pin both to the same leaves. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* walk(table, states, constant, matrix, itemsize, columns, rows, start, depth, state): the columnar engine's walk of a
 * block's rows down a scheme's combined table (legislation/columnar/recorded.py, walk: the same walk, row by row
 * instead of level by level). `states` holds two intp per state s: its decision (`constant`: a leaf or UNKNOWN, where
 * a row stays) and where its slots start in `table`. Row r starts at state start[r] and goes down at most `depth`
 * levels: at state s, to table[start of s's slots + code], the code being s's decision's line of `matrix` (int8 or
 * int32: recipes + 1 lines of `columns` codes) at column rows[r]; its last state is written to state[r]. Every index
 * is checked: one outside its array raises IndexError (the caller then replays the block another way). All arrays
 * are of intp but `matrix`. */
static PyObject *walk(PyObject *module, PyObject *args) {
    Py_buffer table, states, matrix, rows, start, state;
    Py_ssize_t constant, depth, columns;
    int itemsize;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*y*ny*iny*y*nw*", &table, &states, &constant, &matrix, &itemsize, &columns, &rows,
                          &start, &depth, &state))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t size = (Py_ssize_t)sizeof(Py_ssize_t), ntable = table.len / size, nstates = states.len / size / 2;
    const Py_ssize_t n = rows.len / size;
    if ((itemsize != 1 && itemsize != 4) || table.len % size || states.len % (2 * size) || rows.len % size ||
        start.len != rows.len || state.len != rows.len || constant < 0 || columns < 0 ||
        matrix.len != (constant + 1) * columns * itemsize) {
        PyErr_SetString(PyExc_ValueError, "walk(): arrays of intp, a matrix of (constant + 1) x columns int8 or int32");
        goto done;
    }
    const Py_ssize_t *to = table.buf, *of = states.buf, *column = rows.buf, *from = start.buf;
    Py_ssize_t *out = state.buf;
    const int8_t *codes8 = matrix.buf;
    const int32_t *codes32 = matrix.buf;
    /* rows walked side by side, their chains of look-ups overlapping (a million rows: 0.105 -> 0.067 CPU-s; 2, 8, 16
     * lanes slower) */
    enum { LANES = 4 };
    for (Py_ssize_t r0 = 0; r0 < n; r0 += LANES) {
        const Py_ssize_t m = n - r0 < LANES ? n - r0 : LANES;
        Py_ssize_t s[LANES], c[LANES];
        for (Py_ssize_t j = 0; j < m; j++) {
            s[j] = from[r0 + j], c[j] = column[r0 + j];
            if (s[j] < 0 || s[j] >= nstates || c[j] < 0 || c[j] >= columns) goto outside;
        }
        for (Py_ssize_t level = 0, walking = 1; walking && level < depth; level++) {
            walking = 0;
            for (Py_ssize_t j = 0; j < m; j++) {
                Py_ssize_t k = of[2 * s[j]];
                if (k == constant) continue; /* a leaf, or UNKNOWN: it stays */
                if (k < 0 || k > constant) goto outside;
                Py_ssize_t cell = k * columns + c[j];
                Py_ssize_t i = of[2 * s[j] + 1] + (itemsize == 1 ? (Py_ssize_t)codes8[cell] : (Py_ssize_t)codes32[cell]);
                if (i < 0 || i >= ntable) goto outside;
                s[j] = to[i];
                if (s[j] < 0 || s[j] >= nstates) goto outside;
                walking = 1;
            }
        }
        for (Py_ssize_t j = 0; j < m; j++) out[r0 + j] = s[j];
    }
    result = Py_NewRef(Py_None);
    goto done;
outside:
    PyErr_SetString(PyExc_IndexError, "walk(): an index outside its array");
done:
    PyBuffer_Release(&table);
    PyBuffer_Release(&states);
    PyBuffer_Release(&matrix);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&start);
    PyBuffer_Release(&state);
    return result;
}

/* lookup(table, leaf, leafsize, out): out[r] = table[leaf[r]], the items of `table` and `out` of one size (1, 2, 4
 * or 8 bytes), `leaf` of unsigned bytes (leafsize 1) or intp (leafsize 8); a leaf past the table's end takes its last
 * item (numpy's take, mode="clip"). The columnar engine's results by leaf (engine._assemble): numpy's take costs
 * 1.1-1.6 ns a row for a table of a few dozen items, this loop about half of it for 1- to 4-byte items (8-byte ones
 * about the same: the memory's speed). */
static PyObject *lookup(PyObject *module, PyObject *args) {
    Py_buffer table, leaf, out;
    int leafsize;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*y*iw*", &table, &leaf, &leafsize, &out)) return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n = leafsize > 0 ? leaf.len / leafsize : 0;
    const Py_ssize_t itemsize = n ? out.len / n : 0;
    if ((leafsize != 1 && leafsize != 8) || leaf.len % leafsize || out.len != n * itemsize ||
        (n && itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8) || (n && table.len < itemsize) ||
        (n && table.len % itemsize)) {
        PyErr_SetString(PyExc_ValueError, "lookup(): a table and an output of one item size, leaves of uint8 or intp");
        goto done;
    }
    if (n == 0) goto ok;
    const Py_ssize_t last = table.len / itemsize - 1;
#define LOOKUP(T)                                                                                                  \
    do {                                                                                                           \
        const T *from = table.buf;                                                                                 \
        T *restrict to = out.buf;                                                                                  \
        if (leafsize == 1) { /* the table made 256 items long (its last repeated): a look-up without a test */    \
            T full[256];                                                                                           \
            for (Py_ssize_t k = 0; k < 256; k++) full[k] = from[k > last ? last : k];                              \
            const uint8_t *restrict at = leaf.buf;                                                                 \
            for (Py_ssize_t r = 0; r < n; r++) to[r] = full[at[r]];                                                \
        } else {                                                                                                   \
            const Py_ssize_t *restrict at = leaf.buf;                                                              \
            for (Py_ssize_t r = 0; r < n; r++) to[r] = from[at[r] < 0 ? 0 : at[r] > last ? last : at[r]];          \
        }                                                                                                          \
    } while (0)
    switch (itemsize) {
    case 1: LOOKUP(uint8_t); break;
    case 2: LOOKUP(uint16_t); break;
    case 4: LOOKUP(uint32_t); break;
    default: LOOKUP(uint64_t); break;
    }
#undef LOOKUP
ok:
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&table);
    PyBuffer_Release(&leaf);
    PyBuffer_Release(&out);
    return result;
}

/* indices(mask, out) -> count: the indices of the non-zero bytes of `mask` (a numpy bool array's bytes), written in
 * order into `out` (intp), which must hold at least 8 more than there are -- the trace's rows of a sparse path
 * (legislation/columnar/symbolic.py, _sub): eight bytes at a time, a word of zeros skipped at once and the others
 * written without a branch (numpy's flatnonzero: 0.62 ms a million rows, 3 % of them set, this 0.30 ms; 0.5 %: 0.19 and 0.09 ms). Too
 * short an output raises ValueError. */
static PyObject *indices(PyObject *module, PyObject *args) {
    Py_buffer mask, out;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*w*", &mask, &out)) return NULL;
    PyObject *result = NULL;
    const Py_ssize_t size = (Py_ssize_t)sizeof(Py_ssize_t), n = mask.len, capacity = out.len / size;
    if (out.len % size) {
        PyErr_SetString(PyExc_ValueError, "indices(): an output of intp");
        goto done;
    }
    const unsigned char *restrict from = mask.buf;
    Py_ssize_t *restrict to = out.buf, found = 0, r = 0;
    for (; r + 8 <= n; r += 8) {
        uint64_t word;
        memcpy(&word, from + r, 8);
        if (!word) continue;
        if (found + 8 > capacity) goto short_output;
        for (Py_ssize_t j = 0; j < 8; j++) {
            to[found] = r + j;
            found += from[r + j] != 0;
        }
    }
    for (; r < n; r++) {
        if (from[r]) {
            if (found >= capacity) goto short_output;
            to[found++] = r;
        }
    }
    result = PyLong_FromSsize_t(found);
    goto done;
short_output:
    PyErr_SetString(PyExc_ValueError, "indices(): an output too short for the mask's count and 8");
done:
    PyBuffer_Release(&mask);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef module_methods[] = {
    {"walk", walk, METH_VARARGS,
     "walk(table, states, constant, matrix, itemsize, columns, rows, start, depth, state): see walk_c.c"},
    {"lookup", lookup, METH_VARARGS, "lookup(table, leaf, leafsize, out): out[r] = table[leaf[r]], see walk_c.c"},
    {"indices", indices, METH_VARARGS, "indices(mask, out) -> count: the indices of mask's non-zero bytes, see walk_c.c"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "legislation.columnar.walk_c",
                                    .m_doc = "The columnar engine's walk down its recorded trees, compiled.",
                                    .m_size = -1, .m_methods = module_methods};

PyMODINIT_FUNC PyInit_walk_c(void) { return PyModule_Create(&module); }
