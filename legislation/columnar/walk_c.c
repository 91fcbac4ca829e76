/* The optional compiled walk of the columnar engine (legislation/columnar/recorded.py, walk): a block's rows down a
 * scheme's combined table of recorded decisions, row by row -- four side by side -- instead of level by level. It
 * holds no rule: it reads the tables it is given (built by recorded.combine from the recordings) and the codes the
 * engine computed. Without it (no C compiler at install, or VIGUEUR_NO_C set), numpy walks; the tests
 * (tests/unit/test_columnar_walk.py) pin both to the same leaves. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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

static PyMethodDef module_methods[] = {
    {"walk", walk, METH_VARARGS,
     "walk(table, states, constant, matrix, itemsize, columns, rows, start, depth, state): see walk_c.c"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "legislation.columnar.walk_c",
                                    .m_doc = "The columnar engine's walk down its recorded trees, compiled.",
                                    .m_size = -1, .m_methods = module_methods};

PyMODINIT_FUNC PyInit_walk_c(void) { return PyModule_Create(&module); }
