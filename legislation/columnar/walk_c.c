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

/* decide(nodes, constant, recipes, code, held, lookups, lift_keys, lift_values, lifts, columns, nulls, rows, start,
 * depth, out): the walk of walk() down a scheme's combined table, each decision computed for the row that reaches it,
 * when it reaches it, instead of read from a matrix of codes computed beforehand for every row
 * (legislation/columnar/recorded.py, decide: what each decision reads, compiled from the recordings' expressions --
 * the trace's own keys; it holds no rule). The table comes as `nodes` (int32): a state at place p holds its decision
 * at p (`constant`: a leaf or UNKNOWN, where a row stays) and the place of its next state for slot c at p + 1 + c, so
 * that a level is one look-up. Row rows[r] starts at place start[r] and goes down at most `depth` levels; its last
 * place is written to out[r]. `recipes` holds six int64 per decision: its kind (DECIDE_*), its column, where its
 * program starts in `code`, its « not held » slot, where its look-up starts in `held` or `lookups` and its length (a
 * comparison of a column with a number: the number and the operation). `code` is pairs of int64 (operation,
 * argument) ending on OP_END; `columns` and `nulls` are tuples of numpy arrays (a column of signed integers of 1, 2,
 * 4 or 8 bytes, or bool; a null mask of bool, or None), `lifts` pairs (start, length) into `lift_keys` (sorted) and
 * `lift_values`. Arithmetic is on int64, every operation checked: a result that would leave int64, a value a lifted
 * function was never asked, a column not there give the decision's « not held » slot -- as the matrix did for a
 * decision the chunk could not compute -- and the row reaches UNKNOWN, to be traced. Every index is checked: one
 * outside its array raises IndexError. */
enum { DECIDE_TRUTH, DECIDE_NULL, DECIDE_MEMBER, DECIDE_PLAIN, DECIDE_VALUE, DECIDE_MISSING, DECIDE_COMPARE };
enum {
    OP_END, OP_CONST, OP_COLUMN, OP_ADD, OP_SUB, OP_MUL, OP_FLOORDIV, OP_MOD, OP_ABS, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_EQ, OP_NE, OP_YEAR, OP_MONTH, OP_DAY, OP_LIFT, OP_CODE
};
#define MAX_COLUMNS 256
#define STACK 32
/* the codes of recorded.py: a plain fact not given, a value out of the codes' range */
#define CODE_OFFSET ((int64_t)1 << 32)
#define CODE_NONE (-CODE_OFFSET + 1)
#define CODE_BAD (CODE_OFFSET - 1)
#define CODE_LOW (-CODE_OFFSET + 2)
#define CODE_HIGH (CODE_OFFSET - 2)

typedef struct {
    const char *values;
    int itemsize; /* 0: not a column of this block */
    const unsigned char *null;
    Py_ssize_t length;
} Col;

static inline __attribute__((always_inline)) int64_t col_value(const Col *c, Py_ssize_t row) {
    switch (c->itemsize) {
    case 1: return ((const int8_t *)c->values)[row];
    case 2: return ((const int16_t *)c->values)[row];
    case 4: return ((const int32_t *)c->values)[row];
    default: return ((const int64_t *)c->values)[row];
    }
}

/* year, month, day of a proleptic Gregorian ordinal (date.toordinal: 0001-01-01 is 1), H. Hinnant's civil_from_days */
static inline void civil(int64_t ordinal, int64_t *year, int64_t *month, int64_t *day) {
    int64_t z = ordinal - 719163 + 719468; /* days from 0000-03-01 */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *day = doy - (153 * mp + 2) / 5 + 1;
    *month = mp < 10 ? mp + 3 : mp - 9;
    *year = yoe + era * 400 + (*month <= 2);
}

/* a comparison's truth (0 or 1); -1: not a comparison */
static inline int compared(int64_t op, int64_t a, int64_t b) {
    switch (op) {
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    default: return -1;
    }
}

typedef struct {
    const int64_t *code, *lift_keys, *lift_values, *lifts;
    Py_ssize_t ncode, nlift_keys, nlifts;
    const Col *cols;
    Py_ssize_t ncols;
} Machine;

/* the program at `pc` for row `row`: 1 and its value in *out, 0 where it cannot be computed exactly, -1 on an index
 * outside its array */
static inline int run(const Machine *m, Py_ssize_t pc, Py_ssize_t row, int64_t *out) {
    int64_t stack[STACK];
    int top = 0;
    for (;;) {
        if (pc < 0 || pc + 1 >= m->ncode) return -1;
        const int64_t op = m->code[pc], arg = m->code[pc + 1];
        pc += 2;
        int64_t a, b, r;
        switch (op) {
        case OP_END:
            if (top != 1) return -1;
            *out = stack[0];
            return 1;
        case OP_CONST:
            if (top >= STACK) return -1;
            stack[top++] = arg;
            continue;
        case OP_COLUMN:
        case OP_CODE: {
            const Py_ssize_t k = op == OP_CODE ? (Py_ssize_t)(arg >> 32) : (Py_ssize_t)arg;
            if (k < 0 || k >= m->ncols || top >= STACK) return -1;
            const Col *c = &m->cols[k];
            if (!c->itemsize) return 0;
            if (row >= c->length) return -1;
            int64_t v = col_value(c, row);
            stack[top++] = op == OP_CODE ? (int64_t)(v == (int64_t)(int32_t)(arg & 0xffffffff)) : v;
            continue;
        }
        case OP_ABS:
            if (top < 1) return -1;
            if (stack[top - 1] == INT64_MIN) return 0;
            if (stack[top - 1] < 0) stack[top - 1] = -stack[top - 1];
            continue;
        case OP_YEAR:
        case OP_MONTH:
        case OP_DAY: {
            if (top < 1) return -1;
            int64_t y, mo, d, v = stack[top - 1];
            if (v < 1 || v > 3652059) return 0; /* date.min .. date.max */
            civil(v, &y, &mo, &d);
            stack[top - 1] = op == OP_YEAR ? y : op == OP_MONTH ? mo : d;
            continue;
        }
        case OP_LIFT: {
            if (top < 1 || arg < 0 || arg >= m->nlifts) return -1;
            const int64_t first = m->lifts[2 * arg], length = m->lifts[2 * arg + 1];
            if (first < 0 || length < 0 || first + length > m->nlift_keys) return -1;
            const int64_t v = stack[top - 1], *keys = m->lift_keys + first;
            Py_ssize_t lo = 0, hi = (Py_ssize_t)length;
            while (lo < hi) {
                Py_ssize_t mid = lo + (hi - lo) / 2;
                if (keys[mid] < v) lo = mid + 1; else hi = mid;
            }
            if (lo >= length || keys[lo] != v) return 0; /* never asked: traced */
            stack[top - 1] = m->lift_values[first + lo];
            continue;
        }
        default:
            break;
        }
        if (top < 2) return -1;
        b = stack[--top];
        a = stack[top - 1];
        switch (op) {
        case OP_ADD: if (__builtin_add_overflow(a, b, &r)) return 0; break;
        case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) return 0; break;
        case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) return 0; break;
        case OP_FLOORDIV: /* Python's: towards minus infinity (the trace's divisors are positive constants) */
            if (b <= 0) return 0;
            r = a / b;
            if (a % b != 0 && a < 0) r -= 1;
            break;
        case OP_MOD:
            if (b <= 0) return 0;
            r = a % b;
            if (r < 0) r += b;
            break;
        default:
            if ((r = compared(op, a, b)) < 0) return -1;
        }
        stack[top - 1] = r;
    }
}

static inline Py_ssize_t held_slot(const int64_t *held, Py_ssize_t length, int64_t v, Py_ssize_t missing) {
    Py_ssize_t lo = 0, hi = length;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (held[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo < length && held[lo] == v ? lo : missing;
}

static int column_of(PyObject *array, PyObject *null, Col *c) {
    c->itemsize = 0, c->values = NULL, c->null = NULL, c->length = 0;
    if (array == Py_None) return 0;
    Py_buffer view;
    if (PyObject_GetBuffer(array, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    /* the arrays stay alive in the caller's tuples: their buffers are read while the call runs */
    const char f = view.format ? view.format[strspn(view.format, "@=<")] : 'B';
    const int itemsize = (int)view.itemsize;
    c->values = view.buf, c->length = itemsize ? view.len / itemsize : 0;
    PyBuffer_Release(&view);
    if (!((f == 'b' || f == '?') && itemsize == 1) && !(f == 'h' && itemsize == 2) &&
        !((f == 'i' || f == 'l') && itemsize == 4) && !((f == 'l' || f == 'q') && itemsize == 8)) {
        PyErr_Format(PyExc_ValueError, "decide(): a column of signed integers or bool, not '%c' of %d bytes", f,
                     itemsize);
        return -1;
    }
    c->itemsize = itemsize;
    if (null != Py_None) {
        if (PyObject_GetBuffer(null, &view, PyBUF_C_CONTIGUOUS) < 0) return -1;
        c->null = view.buf;
        const Py_ssize_t length = view.len;
        PyBuffer_Release(&view);
        if (length != c->length) {
            PyErr_SetString(PyExc_ValueError, "decide(): a null mask of another length than its column");
            return -1;
        }
    }
    return 0;
}

static PyObject *decide(PyObject *module, PyObject *args) {
    Py_buffer nodes, recipes, code, held, lookups, lift_keys, lift_values, lifts, rows, start, state;
    Py_ssize_t constant, depth;
    PyObject *columns, *nulls;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*y*y*y*y*O!O!y*y*nw*", &nodes, &constant, &recipes, &code, &held, &lookups,
                          &lift_keys, &lift_values, &lifts, &PyTuple_Type, &columns, &PyTuple_Type, &nulls, &rows,
                          &start, &depth, &state))
        return NULL;
    PyObject *result = NULL;
    Col *cols = NULL;
    Py_ssize_t *active = NULL, *order = NULL, *first = NULL;
    int32_t *reached = NULL;
    const Py_ssize_t size = (Py_ssize_t)sizeof(Py_ssize_t), nnodes = nodes.len / 4;
    const Py_ssize_t n = rows.len / size, ncols = PyTuple_GET_SIZE(columns);
    if (nodes.len % 4 || rows.len % size || start.len != rows.len ||
        state.len != rows.len || constant < 0 || recipes.len != constant * 6 * 8 || code.len % 16 || held.len % 8 ||
        lookups.len % 8 || lift_keys.len % 8 || lift_values.len != lift_keys.len || lifts.len % 16 ||
        PyTuple_GET_SIZE(nulls) != ncols || ncols > MAX_COLUMNS) {
        PyErr_SetString(PyExc_ValueError, "decide(): arrays of intp and int64 of the sizes described in walk_c.c");
        goto done;
    }
    cols = PyMem_Calloc(ncols ? ncols : 1, sizeof(Col));
    if (!cols) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < ncols; k++)
        if (column_of(PyTuple_GET_ITEM(columns, k), PyTuple_GET_ITEM(nulls, k), &cols[k]) < 0) goto done;
    const Machine machine = {code.buf, lift_keys.buf, lift_values.buf, lifts.buf, code.len / 8, lift_keys.len / 8,
                             lifts.len / 16, cols, ncols};
    const int64_t *recipe = recipes.buf, *held_values = held.buf, *lookup = lookups.buf;
    const Py_ssize_t nheld = held.len / 8, nlookups = lookups.len / 8;
    const int32_t *node = nodes.buf;
    const Py_ssize_t *at = rows.buf, *from = start.buf;
    Py_ssize_t *out = state.buf;
    /* Level by level: the rows still walking grouped by the decision they reach (a counting sort, stable: each group's
     * rows in the block's order), then each group decided in one loop of its own kind, its columns asked for AHEAD
     * rows ahead; a SLICE of rows at a time, whose columns' lines stay in the caches while the levels pass over them.
     * Measured on the benchmark's mixed rows (2026-12-07, CPU time of the calls, a row and scheme): one row at a time
     * down its path, 210-300 ns on 200 000 rows (the processor mispredicted the kind and operations of nearly every
     * decision, and waited for each column's line); by groups 175, with the prefetching 130; on 1 000 000 rows 215,
     * by slices 145. The codes computed beforehand by numpy, gathered and walked: ~300-400. */
    enum { AHEAD = 32, SLICE = 16384 };
    const int64_t *code_at = code.buf;
    active = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
    order = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
    reached = PyMem_Malloc((n ? n : 1) * sizeof(int32_t));
    first = PyMem_Calloc((size_t)constant + 1, sizeof(Py_ssize_t));
    if (!active || !order || !reached || !first) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c0 = 0; c0 < n; c0 += SLICE) {
    const Py_ssize_t c1 = n - c0 < SLICE ? n : c0 + SLICE;
    Py_ssize_t walking = 0;
    for (Py_ssize_t j = c0; j < c1; j++) {
        if (from[j] < 0 || from[j] >= nnodes || at[j] < 0) goto outside;
        out[j] = from[j];
        active[walking++] = j;
    }
    for (Py_ssize_t level = 0; walking && level < depth; level++) {
        Py_ssize_t still = 0;
        for (Py_ssize_t a = 0; a < walking; a++) { /* the rows on a node, and the decision each reaches */
            if (a + AHEAD < walking) __builtin_prefetch(&node[out[active[a + AHEAD]]]);
            const Py_ssize_t j = active[a];
            const int32_t k = node[out[j]];
            if (k == constant) continue; /* a leaf, or UNKNOWN: it stays */
            if (k < 0 || k > constant) goto outside;
            active[still] = j, reached[still++] = k;
        }
        walking = still;
        memset(first, 0, ((size_t)constant + 1) * sizeof(Py_ssize_t));
        for (Py_ssize_t a = 0; a < walking; a++) first[reached[a] + 1]++;
        for (Py_ssize_t k = 0; k < constant; k++) first[k + 1] += first[k];
        for (Py_ssize_t a = 0; a < walking; a++) order[first[reached[a]]++] = active[a];
        /* first[k] is now where group k ends (and where group k + 1 starts) */
        for (Py_ssize_t k = 0, begin = 0; k < constant; begin = first[k++]) {
            const Py_ssize_t stop = first[k];
            if (stop == begin) continue;
            const int64_t *r = recipe + 6 * k;
            const int64_t kind = r[0], missing = r[3], aux = r[4], length = r[5];
            const Col *c = kind != DECIDE_TRUTH && kind != DECIDE_VALUE && kind != DECIDE_MISSING ? &cols[0] : NULL;
            if (c) {
                if (r[1] < 0 || r[1] >= ncols) goto outside;
                c = &cols[r[1]];
                if (!c->itemsize) c = NULL; /* not a column of this block: « not held » */
            }
            if ((kind == DECIDE_MEMBER && (aux < 0 || length < 0 || aux + length > nlookups)) ||
                ((kind == DECIDE_PLAIN || kind == DECIDE_VALUE) && (aux < 0 || length < 0 || aux + length > nheld)))
                goto outside;
            /* the columns the group reads (up to 4), asked for AHEAD rows ahead: its rows are spread over the slice,
             * each value on a line of its own, which the processor's prefetching does not foresee */
            const Col *read[4];
            int reads = 0;
            if (c) read[reads++] = c;
            else if (kind == DECIDE_TRUTH || kind == DECIDE_VALUE)
                for (Py_ssize_t pc = r[2]; pc >= 0 && pc + 1 < machine.ncode && code_at[pc] != OP_END && reads < 4;
                     pc += 2)
                    if (code_at[pc] == OP_COLUMN || code_at[pc] == OP_CODE) {
                        const int64_t k2 = code_at[pc] == OP_CODE ? code_at[pc + 1] >> 32 : code_at[pc + 1];
                        if (k2 >= 0 && k2 < ncols && cols[k2].itemsize) read[reads++] = &cols[k2];
                    }
            for (Py_ssize_t g = begin; g < stop; g++) {
                if (g + AHEAD < stop) {
                    const Py_ssize_t ahead = at[order[g + AHEAD]];
                    for (int q = 0; q < reads; q++)
                        if (ahead < read[q]->length) {
                            __builtin_prefetch(read[q]->values + ahead * read[q]->itemsize);
                            if (read[q]->null) __builtin_prefetch(read[q]->null + ahead);
                        }
                    __builtin_prefetch(&node[out[order[g + AHEAD]]]);
                }
                const Py_ssize_t j = order[g], row = at[j];
                int64_t slot = missing, v;
                if (c && row >= c->length) goto outside;
                switch (kind) {
                case DECIDE_NULL:
                    if (c) slot = !c->null || !c->null[row];
                    break;
                case DECIDE_MEMBER:
                    if (c) {
                        const int64_t place = col_value(c, row) + 1;
                        slot = place >= 0 && place < length ? lookup[aux + place] : missing;
                    }
                    break;
                case DECIDE_COMPARE: /* a column against a number: the number, the operation */
                    if (c) {
                        if ((slot = compared(length, col_value(c, row), aux)) < 0) goto outside;
                    }
                    break;
                case DECIDE_PLAIN:
                    if (c) {
                        v = col_value(c, row);
                        v = c->null && c->null[row] ? CODE_NONE : v < CODE_LOW || v > CODE_HIGH ? CODE_BAD : v;
                        slot = held_slot(held_values + aux, length, v, missing);
                    }
                    break;
                case DECIDE_TRUTH:
                case DECIDE_VALUE: {
                    const int ran = run(&machine, (Py_ssize_t)r[2], row, &v);
                    if (ran < 0) goto outside;
                    if (ran && kind == DECIDE_TRUTH) slot = v != 0;
                    else if (ran) slot = held_slot(held_values + aux, length, v < CODE_LOW || v > CODE_HIGH ? CODE_BAD : v,
                                                   missing);
                    break;
                }
                case DECIDE_MISSING:
                    break;
                default:
                    goto outside;
                }
                if (slot < 0 || slot > missing) goto outside;
                const Py_ssize_t i = out[j] + 1 + (Py_ssize_t)slot;
                if (i >= nnodes || node[i] < 0 || node[i] >= nnodes) goto outside;
                out[j] = node[i];
            }
        }
    }
    }
    result = Py_NewRef(Py_None);
    goto done;
outside:
    PyErr_SetString(PyExc_IndexError, "decide(): an index outside its array");
done:
    PyMem_Free(cols);
    PyMem_Free(active);
    PyMem_Free(order);
    PyMem_Free(reached);
    PyMem_Free(first);
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&recipes);
    PyBuffer_Release(&code);
    PyBuffer_Release(&held);
    PyBuffer_Release(&lookups);
    PyBuffer_Release(&lift_keys);
    PyBuffer_Release(&lift_values);
    PyBuffer_Release(&lifts);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&start);
    PyBuffer_Release(&state);
    return result;
}

static PyMethodDef module_methods[] = {
    {"walk", walk, METH_VARARGS,
     "walk(table, states, constant, matrix, itemsize, columns, rows, start, depth, state): see walk_c.c"},
    {"decide", decide, METH_VARARGS,
     "decide(nodes, constant, recipes, code, held, lookups, lift_keys, lift_values, lifts, columns, nulls, rows, "
     "start, depth, out): see walk_c.c"},
    {"lookup", lookup, METH_VARARGS, "lookup(table, leaf, leafsize, out): out[r] = table[leaf[r]], see walk_c.c"},
    {"indices", indices, METH_VARARGS, "indices(mask, out) -> count: the indices of mask's non-zero bytes, see walk_c.c"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "legislation.columnar.walk_c",
                                    .m_doc = "The columnar engine's walk down its recorded trees, compiled.",
                                    .m_size = -1, .m_methods = module_methods};

PyMODINIT_FUNC PyInit_walk_c(void) { return PyModule_Create(&module); }
