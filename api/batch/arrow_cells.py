"""The cells of `vigueur batch`'s Arrow reading: a column of texts to the values of the columnar engine.

Each column is converted by the very converter of :mod:`api.batch.csv_rows` — the validation rule stays in one
place — once per **distinct text**, kept from block to block: a block's cells are looked up among the texts already
converted, and only its new texts are converted (dates read from their bytes when they have the shape of a date).
Amounts and quantities, which rarely repeat, are checked from their bytes when the column holds only digits and
dots, else by one regular expression, both equivalent to that converter (tests/api/batch/test_arrow_cells.py pins
them together), and read as the integers of their digits (the dot taken out) — as decimals when a cell is
refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from api.batch.csv_rows import Invalid, converter
from legislation.columnar.columns import DEFAULTS, FACTS, MEMBERS
from legislation.row import SCHEME_TUPLES

Bool = npt.NDArray[np.bool_]

# The optional C module (api/batch/split_c.c, built by ``pip install`` when a C compiler is there): the C reading of
# CSV blocks (api.batch.arrow_read) and of amounts (:func:`scaled`). Without it, or with VIGUEUR_NO_C set (to 1, or
# any non-empty text), numpy and Arrow read them.
try:
    from api.batch import split_c  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - no C compiler at install
    split_c = None


def c_reading() -> bool:
    """Whether the C module reads: it is built, and VIGUEUR_NO_C is not set."""
    return split_c is not None and not os.environ.get("VIGUEUR_NO_C")


# The texts the converter of csv_rows accepts for euros (2 places, 12 digits) and quantities (3 places, 9 digits):
# ASCII digits, a dot followed by 1 to ``places`` digits.
_WHOLE = {2: 12, 3: 9}  # places: digits before the dot
_SCALED = {places: rf"^[0-9]{{1,{whole}}}(?:\.[0-9]{{1,{places}}})?$" for places, whole in _WHOLE.items()}
_TUPLES = {t: i for i, t in enumerate(SCHEME_TUPLES)}
_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9]  # where YYYY-MM-DD has its digits


def all_empty(text: pa.Array) -> bool:
    """No cell holds a byte: the first and the last offset are the same (a column of codes: each code's text is
    empty)."""
    if isinstance(text, pa.DictionaryArray):
        offsets, _ = _bytes(text.dictionary)
        empty = np.diff(offsets) == 0
        codes = text.indices.to_numpy()
        if not len(codes) or not empty[codes[0]]:  # (the usual column: its first cell is given)
            return not len(codes)
        return bool(empty[codes].all())
    offsets, _ = _bytes(text)
    return bool(offsets[0] == offsets[-1])


def _bytes(text: pa.Array) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8]]:
    """A column's offsets (where each cell starts in the data, and where the last ends) and its data."""
    if text.type != pa.string():
        text = text.cast(pa.string())
    buffers = text.buffers()
    if not len(text) or buffers[2] is None:
        return np.zeros(len(text) + 1, dtype=np.int32), np.zeros(0, dtype=np.uint8)
    offsets = np.frombuffer(buffers[1], dtype=np.int32)[text.offset : text.offset + len(text) + 1]
    return offsets, np.frombuffer(buffers[2], dtype=np.uint8)


def scaled(text: pa.Array, places: int) -> tuple[np.ma.MaskedArray, Bool, Bool]:
    """Cents (thousandths) of each cell, whether it is given, and whether it fails the converter's rule.

    With the C module (:func:`c_reading`), its ``scaled`` reads every cell in one pass, the rule's numbers given from
    :data:`_WHOLE`. Without it, the given cells are checked from their bytes (:func:`_digits_and_dot`; when some byte
    is neither a digit nor a dot, by the regular expression). When all follow the rule, each value is read as the
    integer of its digits, the dot taken out (Arrow's cast of digits to an integer), times ten to the places its
    fraction lacks (measured: a third of the cost of the cast to a decimal, which reads the others)."""
    offsets, data = _bytes(text)
    if c_reading():  # one pass in C over the bytes (measured: 0.22 -> 0.05 CPU-s a million rows of 10 amounts)
        n = len(offsets) - 1
        values, known, wrong = np.empty(n, np.int64), np.empty(n, np.bool_), np.empty(n, np.bool_)
        split_c.scaled(np.ascontiguousarray(offsets), data, places, _WHOLE[places], values, known, wrong)
        return np.ma.MaskedArray(values, mask=~known), known, wrong
    given = offsets[1:] != offsets[:-1]
    every = bool(given.all())
    # the given cells: an empty one holds no byte, so theirs are the offsets of the given ones
    starts = offsets if every else np.append(offsets[:-1][given], offsets[-1])
    checked = _checked(starts, data, places)
    if checked is not None and checked[0].all():
        valid, fraction, dots = checked
        values = _digit_values(starts, data, fraction, dots, places)
    else:
        cells = text if every else pc.filter(text, pa.array(given))
        valid = checked[0] if checked is not None else None
        if valid is None:
            valid = pc.match_substring_regex(cells, _SCALED[places]).to_numpy(zero_copy_only=False)
        sure = cells if valid.all() else pc.if_else(pa.array(valid), cells, "0")
        values = pc.cast(sure, pa.decimal64(18, places)).view(pa.int64()).to_numpy()  # 12 digits and 2: fits 18
    if every:
        return np.ma.MaskedArray(values, mask=~valid), valid, ~valid
    rows = np.flatnonzero(given)
    spread = np.zeros(len(text), dtype=np.int64)
    spread[rows] = values  # « 0 » where not valid
    known = np.zeros(len(text), dtype=np.bool_)
    known[rows] = valid
    wrong = np.zeros(len(text), dtype=np.bool_)
    wrong[rows] = ~valid
    return np.ma.MaskedArray(spread, mask=~known), known, wrong


_TENS = 10 ** np.arange(4, dtype=np.int64)


def _digit_values(
    offsets: npt.NDArray[np.int32],
    data: npt.NDArray[np.uint8],
    fraction: npt.NDArray[np.int32],
    dots: Bool,
    places: int,
) -> npt.NDArray[np.int64]:
    """The unscaled integers of cells that follow the rule (``fraction``: the digits after the dot, 0 without one;
    ``dots``: where the dots are in their bytes): their digits without the dot, read by Arrow's cast to an
    integer, times ten to the places the fraction lacks."""
    first, last = int(offsets[0]), int(offsets[-1])
    region = data[first:last]
    digits = region[~dots] if fraction.any() else region
    shift = np.zeros(len(offsets), dtype=np.int32)  # the dots before each cell's start (one per cell with a dot)
    np.cumsum((fraction > 0).view(np.int8), dtype=np.int32, out=shift[1:])
    starts = offsets - np.int32(first)
    starts -= shift
    numbers = pa.Array.from_buffers(
        pa.string(), len(fraction), [None, pa.py_buffer(starts), pa.py_buffer(np.ascontiguousarray(digits))]
    )
    values: npt.NDArray[np.int64] = pc.cast(numbers, pa.int64()).to_numpy()
    return values * _TENS[(places - fraction).astype(np.intp)]


def _digits_and_dot(cells: pa.Array, places: int) -> Bool | None:
    """Which of these non-empty cells follow the rule of :data:`_SCALED` (see :func:`_checked`)."""
    offsets, data = _bytes(cells)
    checked = _checked(offsets, data, places)
    return None if checked is None else checked[0]


def _checked(
    offsets: npt.NDArray[np.int32], data: npt.NDArray[np.uint8], places: int
) -> tuple[Bool, npt.NDArray[np.int32], Bool] | None:
    """Which of these non-empty cells follow the rule of :data:`_SCALED`, read from their bytes with numpy (measured:
    a fifth of the cost of the expression) when every byte is a digit or a dot and every dot is followed by 1 to
    ``places`` digits that end its cell, after a digit — with the digits after each cell's dot (0: none) and where
    the dots are in the cells' bytes; None otherwise: the expression decides."""
    n = len(offsets) - 1
    if offsets[0] == offsets[-1]:  # not a byte
        return np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.int32), np.zeros(0, dtype=np.bool_)
    region = data[offsets[0] : offsets[-1]]
    dots = region == 46
    if ((region - np.uint8(48) > 9) & ~dots).any():  # a byte neither a digit nor a dot
        return None
    lengths = np.diff(offsets)
    ends = offsets[1:].astype(np.intp)  # (numpy converts int32 indices at each take)
    fraction = np.zeros(n, dtype=np.int32)  # digits after the dot (0: no dot)
    for k in range(1, places + 1):
        at = ends - (k + 1)
        np.maximum(at, 0, out=at)
        fraction[(lengths >= k + 2) & (data[at] == 46)] = k
    if np.count_nonzero(fraction) != np.count_nonzero(dots):  # a dot elsewhere, or two in a cell
        return None
    whole = lengths - np.where(fraction > 0, fraction + 1, 0)
    return (lengths > 0) & (whole >= 1) & (whole <= _WHOLE[places]), fraction, dots


def _iso_days(texts: pa.Array) -> tuple[npt.NDArray[Any], Bool]:
    """Days of ``YYYY-MM-DD`` texts (ASCII digits, years from 1, a day of the calendar: what the converter accepts)
    and which texts that reading vouches for; the others are left to the converter (empty: not given). Read from
    the texts' bytes with numpy (measured: a fifth of the cost of Arrow's strptime and strftime back)."""
    days = np.full(len(texts), np.datetime64("NaT"), dtype="datetime64[D]")
    sure = np.zeros(len(texts), dtype=np.bool_)
    offsets, data = _bytes(texts)
    shaped = np.flatnonzero(np.diff(offsets) == 10)
    if not shaped.size:
        return days, sure
    chars = data[offsets[shaped, None] + np.arange(10)]
    digits = chars.astype(np.int64) - 48
    ok = (chars[:, 4] == 45) & (chars[:, 7] == 45)
    ok &= ((digits[:, _DIGITS] >= 0) & (digits[:, _DIGITS] <= 9)).all(axis=1)
    year = digits[:, 0:4] @ np.array([1000, 100, 10, 1])
    month = digits[:, 5] * 10 + digits[:, 6]
    day = digits[:, 8] * 10 + digits[:, 9]
    ok &= (year >= 1) & (month >= 1) & (month <= 12) & (day >= 1)
    months = np.where(ok, (year - 1970) * 12 + month - 1, 0)
    first = months.astype("datetime64[M]").astype("datetime64[D]")
    length = ((months + 1).astype("datetime64[M]").astype("datetime64[D]") - first).astype(np.int64)
    ok &= day <= length
    days[shaped[ok]] = first[ok] + (day[ok] - 1)
    sure[shaped[ok]] = True
    return days, sure


def by_distinct(name: str, text: pa.Array | pa.ChunkedArray) -> tuple[Any, Bool]:
    """A column converted once per distinct text by the converter of csv_rows, then spread by the indices."""
    kind = "schemes" if name == "schemes" else FACTS[name][0]
    if isinstance(text, pa.ChunkedArray) and text.num_chunks == 1:
        text = text.chunk(0)
    if isinstance(text, pa.DictionaryArray):
        return _by_codes(name, kind, text)
    seen = _SEEN.get(name)
    if seen is not None:  # the texts of the blocks before: looked up (measured: a quarter to half the cost of encoding)
        positions = pc.index_in(text, value_set=seen.texts)
        if positions.null_count == 0:
            return seen.spread(positions.to_numpy())
        seen = seen.joined(_distinct(name, kind, pc.unique(pc.filter(text, positions.is_null()))))
    else:
        seen = _distinct(name, kind, pc.unique(text))
    if len(seen.texts) <= _SEEN_TEXTS and seen.texts.nbytes <= _SEEN_BYTES:
        _SEEN[name] = seen
    return seen.spread(pc.index_in(text, value_set=seen.texts).to_numpy())


def _by_codes(name: str, kind: str, column: pa.DictionaryArray) -> tuple[Any, Bool]:
    """A column given as codes into its texts (the C reading: the texts seen so far, then those met first in this
    block): the new texts converted, as :func:`by_distinct` does, then spread by the codes."""
    texts = column.dictionary
    seen = _SEEN.get(name)
    known = len(seen.texts) if seen is not None and texts.slice(0, len(seen.texts)).equals(seen.texts) else 0
    if seen is not None and len(seen.texts) and not known:  # texts of their own (a Parquet column's dictionary)
        positions = pc.index_in(texts, value_set=seen.texts)
        if positions.null_count:  # its new texts converted, kept after the others
            seen = seen.joined(_distinct(name, kind, pc.filter(texts, positions.is_null())))
            if len(seen.texts) <= _SEEN_TEXTS and seen.texts.nbytes <= _SEEN_BYTES:
                _SEEN[name] = seen
            positions = pc.index_in(texts, value_set=seen.texts)
        return seen.spread(positions.to_numpy()[column.indices.to_numpy()])
    if seen is None or not known:
        seen = _distinct(name, kind, texts)
    elif known < len(texts):
        seen = seen.joined(_distinct(name, kind, texts.slice(known)))
    else:
        return seen.spread(column.indices.to_numpy())
    seen = _Distinct(texts, seen.values, seen.null, seen.wrong)  # (the very texts the C reading holds)
    if len(seen.texts) <= _SEEN_TEXTS and seen.texts.nbytes <= _SEEN_BYTES:
        _SEEN[name] = seen
    return seen.spread(column.indices.to_numpy())


def seen_texts(name: str) -> pa.Array:
    """The texts of a column read so far (the order of their values in ``_SEEN``)."""
    seen = _SEEN.get(name)
    return _NO_TEXT if seen is None else seen.texts


def text_buffers(texts: pa.Array) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8]]:
    """A string array's offsets (one per text and one more) and the data they point into."""
    offsets, data = _bytes(texts)
    return np.ascontiguousarray(offsets), data


_NO_TEXT = pa.array([], pa.string())


@dataclass(slots=True, frozen=True)
class _Distinct:
    """A column's distinct texts converted: the value (a code, a number or a day) of each, whether it is not given
    (a number; a day not given is NaT) and whether the converter refuses it."""

    texts: pa.Array
    values: npt.NDArray[Any]
    null: Bool
    wrong: Bool

    def spread(self, indices: npt.NDArray[Any]) -> tuple[Any, Bool]:
        indices = indices.astype(np.intp, copy=False)  # (Arrow's are int32: numpy would convert them at each take)
        values = self.values[indices]
        if self.null.any():
            nulls = self.null[indices]
            if nulls.any():
                values = np.ma.MaskedArray(values, mask=nulls)
        wrong = self.wrong[indices] if self.wrong.any() else np.zeros(len(indices), dtype=np.bool_)
        return values, wrong

    def joined(self, other: _Distinct) -> _Distinct:
        """These texts and ``other``'s, which are not among them."""
        return _Distinct(
            pa.concat_arrays([self.texts, other.texts]),
            np.concatenate([self.values, other.values]),
            np.concatenate([self.null, other.null]),
            np.concatenate([self.wrong, other.wrong]),
        )


# Per column, the distinct texts of the blocks read so far in this process (their conversion depends on the text
# and the column only): enums, booleans, schemes, small integers and dates repeat from block to block.
_SEEN: dict[str, _Distinct] = {}
_SEEN_TEXTS, _SEEN_BYTES = 1 << 15, 1 << 22  # kept per column at most (a block that would add more: not kept)


def _distinct(name: str, kind: str, text_set: pa.Array) -> _Distinct:
    convert = converter(name)
    default = DEFAULTS.get(name)
    wrong = np.zeros(len(text_set), dtype=np.bool_)
    null = np.zeros(len(text_set), dtype=np.bool_)  # numbers only: codes say « not given » with -1, days with NaT
    if kind == "date":
        return _Distinct(text_set, _days(name, text_set, convert, wrong), null, wrong)
    texts = text_set.to_pylist()
    if kind in ("enum", "bool", "schemes"):
        members = MEMBERS.get(name, (True, False))
        table = np.empty(len(texts), dtype=np.int8)
        for j, t in enumerate(texts):
            value = _value(convert, t, default, name)
            if value is _WRONG:
                wrong[j], table[j] = True, (0 if kind == "schemes" else -1)
            elif kind == "schemes":
                table[j] = _TUPLES[value]
            else:
                table[j] = -1 if value is None else members.index(value)
        return _Distinct(text_set, table, null, wrong)
    numbers = np.zeros(len(texts), dtype=np.int64)
    for j, t in enumerate(texts):
        value = _value(convert, t, default, name)
        if value is _WRONG or value is None:
            wrong[j] = value is _WRONG
            null[j] = True
        else:
            numbers[j] = value
    return _Distinct(text_set, numbers, null, wrong)


def _days(name: str, text_set: pa.Array, convert: Any, wrong: Bool) -> npt.NDArray[Any]:
    """The day of each distinct text (NaT: not given or refused, then marked in ``wrong``)."""
    days, sure = _iso_days(text_set)
    for j in np.flatnonzero(~sure).tolist():  # the texts the vectorised reading does not vouch for
        value = _value(convert, text_set[j].as_py(), DEFAULTS.get(name), name)
        if value is _WRONG or value is None:
            wrong[j] = value is _WRONG
            days[j] = np.datetime64("NaT")
        else:
            days[j] = np.datetime64(value, "D")
    return days


_WRONG = object()


def _value(convert: Any, text: str, default: Any, name: str) -> Any:
    if not text:
        return _WRONG if name == "acquisition" else _code_default(default)
    try:
        return convert(text)
    except Invalid:
        return _WRONG


def _code_default(default: Any) -> Any:
    return default
