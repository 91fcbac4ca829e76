"""The cells of `vigueur batch`'s Arrow reading: a column of texts to the values of the columnar engine.

Each column is converted by the very converter of :mod:`api.batch.csv_rows` — the validation rule stays in one
place — once per **distinct text**, kept from block to block: a block's cells are looked up among the texts already
converted, and only its new texts are converted (dates read from their bytes when they have the shape of a date).
Amounts and quantities, which rarely repeat, are checked from their bytes when the column holds only digits and
dots, else by one regular expression, both equivalent to that converter (tests/api/batch/test_arrow_cells.py pins
them together), and read as decimals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from api.batch.csv_rows import Invalid, converter
from legislation.columnar.columns import DEFAULTS, FACTS, MEMBERS
from legislation.row import SCHEME_TUPLES

Bool = npt.NDArray[np.bool_]

# The texts the converter of csv_rows accepts for euros (2 places, 12 digits) and quantities (3 places, 9 digits):
# ASCII digits, a dot followed by 1 to ``places`` digits.
_WHOLE = {2: 12, 3: 9}  # places: digits before the dot
_SCALED = {places: rf"^[0-9]{{1,{whole}}}(?:\.[0-9]{{1,{places}}})?$" for places, whole in _WHOLE.items()}
_TUPLES = {t: i for i, t in enumerate(SCHEME_TUPLES)}
_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9]  # where YYYY-MM-DD has its digits


def all_empty(text: pa.Array) -> bool:
    """No cell holds a byte: the first and the last offset are the same."""
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
    """Cents (thousandths) of each cell, whether it is given, and whether it fails the converter's rule. The given
    cells that follow the rule are read as decimals of ``places`` places, whose unscaled integer is the value
    (measured: half the cost of extracting the whole and the fraction by the expression)."""
    given = pc.greater(pc.binary_length(text), 0)
    every = pc.all(given).as_py() is not False
    cells = text if every else pc.filter(text, given)
    valid = _digits_and_dot(cells, places)
    if valid is None:
        valid = pc.match_substring_regex(cells, _SCALED[places]).to_numpy(zero_copy_only=False)
    sure = cells if valid.all() else pc.if_else(pa.array(valid), cells, "0")
    values = pc.cast(sure, pa.decimal64(18, places)).view(pa.int64()).to_numpy()  # 12 digits and 2: fits 18
    if every:
        return np.ma.MaskedArray(values, mask=~valid), valid, ~valid
    rows = np.flatnonzero(given.to_numpy(zero_copy_only=False))
    spread = np.zeros(len(text), dtype=np.int64)
    spread[rows] = values  # « 0 » where not valid
    known = np.zeros(len(text), dtype=np.bool_)
    known[rows] = valid
    wrong = np.zeros(len(text), dtype=np.bool_)
    wrong[rows] = ~valid
    return np.ma.MaskedArray(spread, mask=~known), known, wrong


def _digits_and_dot(cells: pa.Array, places: int) -> Bool | None:
    """Which of these non-empty cells follow the rule of :data:`_SCALED`, read from their bytes with numpy (measured:
    a fifth of the cost of the expression) when every byte is a digit or a dot and every dot is followed by 1 to
    ``places`` digits that end its cell, after a digit; None otherwise: the expression decides."""
    offsets, data = _bytes(cells)
    if offsets[0] == offsets[-1]:  # not a byte
        return np.zeros(len(cells), dtype=np.bool_)
    region = data[offsets[0] : offsets[-1]]
    dots = region == 46
    if ((region - np.uint8(48) > 9) & ~dots).any():  # a byte neither a digit nor a dot
        return None
    lengths = np.diff(offsets)
    fraction = np.zeros(len(cells), dtype=np.int32)  # digits after the dot (0: no dot)
    for k in range(1, places + 1):
        fraction[(lengths >= k + 2) & (data[np.maximum(offsets[1:] - k - 1, 0)] == 46)] = k
    if np.count_nonzero(fraction) != np.count_nonzero(dots):  # a dot elsewhere, or two in a cell
        return None
    whole = lengths - np.where(fraction > 0, fraction + 1, 0)
    return (lengths > 0) & (whole >= 1) & (whole <= _WHOLE[places])


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


PAD = 32  # zero bytes before and after a column's bytes: a word of 8 bytes can be read at any cell's start
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)  # the first k bytes
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9))
_WORDS = 3  # texts of up to 24 bytes are looked up by their words; longer ones are converted one by one


@dataclass(slots=True)
class Cells:
    """One column's cells where they lie: ``buf`` (PAD zero bytes before and after the texts), each cell's start
    in it and its length. ``words`` reads the 8 bytes from any position (an unaligned view of ``buf``)."""

    buf: npt.NDArray[np.uint8]
    starts: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]

    @property
    def words(self) -> npt.NDArray[np.uint64]:
        return _words(self.buf)

    def text(self, i: int) -> str:
        start = int(self.starts[i])
        return self.buf[start : start + int(self.lengths[i])].tobytes().decode("utf-8")

    def strings(self) -> pa.Array:
        """The cells as an Arrow string array (their bytes gathered)."""
        lengths = self.lengths
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        total = int(offsets[-1])
        if total:
            index = np.repeat(self.starts - offsets[:-1], lengths)
            index += np.arange(total)
            data = self.buf[index]
        else:
            data = np.zeros(0, dtype=np.uint8)
        return pa.Array.from_buffers(
            pa.string(), len(lengths), [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
        )


def _words(buf: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    return np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


def cells_of(text: pa.Array) -> Cells:
    """An Arrow string column's cells (its bytes copied once, with the padding)."""
    offsets, data = _bytes(text)
    first, last = int(offsets[0]), int(offsets[-1])
    buf = np.zeros(last - first + 2 * PAD, dtype=np.uint8)
    buf[PAD : PAD + last - first] = data[first:last]
    starts = offsets[:-1].astype(np.int64) + (PAD - first)
    return Cells(buf, starts, np.diff(offsets).astype(np.int64))


def by_distinct(name: str, text: pa.Array | Cells) -> tuple[Any, Bool]:
    """A column converted once per distinct text by the converter of csv_rows, then spread by the indices.

    A cell is looked up among the texts already converted by its bytes — its length and up to three words of 8
    bytes, which are the text itself (the bytes past its end read as zeros, and the length tells « a » from
    « a\\0 ») — through a hash of them, then compared with the text found, word by word: a hash shared by two texts
    only costs a conversion. A text not found is converted and remembered."""
    cells = text if isinstance(text, Cells) else cells_of(text)
    kind = "schemes" if name == "schemes" else FACTS[name][0]
    seen = _SEEN.get(name)
    if seen is None:
        seen = _SEEN[name] = _Seen.empty(name, kind)
    n = len(cells.lengths)
    lengths = cells.lengths
    longest = int(lengths.max()) if n else 0
    nwords = min(_WORDS, (longest + 7) // 8)
    short = lengths <= 8 * _WORDS
    words = _cell_words(cells, nwords, lengths)
    keys = _hash(words, lengths)
    index = seen.find(keys, words, lengths)
    missing = np.flatnonzero(index < 0)
    if missing.size:
        missing = missing[short[missing]]
        if missing.size:
            _, first = np.unique(keys[missing], return_index=True)
            new = missing[first]
            seen.add(name, kind, [cells.text(i) for i in new.tolist()], keys[new], [w[new] for w in words], lengths[new])
            index[missing] = seen.find(keys[missing], [w[missing] for w in words], lengths[missing])
    values = seen.values[np.maximum(index, 0)]
    wrong = seen.wrong[np.maximum(index, 0)]
    null = seen.null[np.maximum(index, 0)] if seen.any_null else None
    alone = np.flatnonzero(index < 0)
    if alone.size:  # longer texts, or texts not kept: converted one by one
        null = np.zeros(n, dtype=np.bool_) if null is None else null
        single = _Seen.empty(name, kind)
        single.add(name, kind, [cells.text(i) for i in alone.tolist()], keys[alone], [w[alone] for w in words],
                   lengths[alone], keep_all=True)
        values[alone], wrong[alone], null[alone] = single.values, single.wrong, single.null
    if null is not None and null.any():
        values = np.ma.MaskedArray(values, mask=null)
    return values, wrong


def _cell_words(cells: Cells, nwords: int, lengths: npt.NDArray[np.int64]) -> list[npt.NDArray[np.uint64]]:
    """The first ``nwords`` words of 8 bytes of each cell, the bytes past its end as zeros."""
    view = cells.words
    found = []
    for k in range(nwords):
        word = view[cells.starts + 8 * k] if k else view[cells.starts]
        rest = lengths - 8 * k if k else lengths
        found.append(word & _MASKS[np.clip(rest, 0, 8)])
    return found


def _hash(words: list[npt.NDArray[np.uint64]], lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    key = lengths.astype(np.uint64) * _MIX[2]
    for k, word in enumerate(words):
        key ^= word * _MIX[k % 2] if k else word
    return key


@dataclass(slots=True)
class _Seen:
    """A column's texts converted so far: their keys (sorted, with the entry of each), their words and lengths,
    and for each the value (a code, a number or a day), whether it is not given (a number; a day not given is NaT)
    and whether the converter refuses it."""

    sorted_keys: npt.NDArray[np.uint64]
    entry: npt.NDArray[np.int64]
    words: list[npt.NDArray[np.uint64]]
    lengths: npt.NDArray[np.int64]
    values: npt.NDArray[Any]
    null: Bool
    wrong: Bool
    any_null: bool = False
    keys: npt.NDArray[np.uint64] = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))  # by entry
    bits: int = 6
    slots: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(64, dtype=np.int64))

    @classmethod
    def empty(cls, name: str, kind: str) -> _Seen:
        dtype = "datetime64[D]" if kind == "date" else np.int8 if kind in ("enum", "bool", "schemes") else np.int64
        values = np.zeros(0, dtype=dtype)
        nothing = np.zeros(0, dtype=np.bool_)
        return cls(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64), [np.zeros(0, dtype=np.uint64)] * _WORDS,
                   np.zeros(0, dtype=np.int64), values, nothing, nothing)

    @property
    def texts(self) -> npt.NDArray[np.int64]:  # how many (for the bound)
        return self.lengths

    def find(
        self, keys: npt.NDArray[np.uint64], words: list[npt.NDArray[np.uint64]], lengths: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """The entry of each text (-1: not among them)."""
        m = len(self.sorted_keys)
        if not m:
            return np.full(len(keys), -1, dtype=np.int64)
        # the entry in the slot of the key's hash (one of the texts sharing it), checked; the others searched
        slot = (keys * _MIX[0]) >> np.uint64(64 - self.bits)
        entry = self.slots[slot]
        found = self._same(entry, keys, words, lengths)
        others = np.flatnonzero(~found)
        if others.size:
            keys_ = keys[others]
            at = np.searchsorted(self.sorted_keys, keys_)
            np.minimum(at, m - 1, out=at)
            entry[others] = self.entry[at]
            found[others] = self._same(entry[others], keys_, [w[others] for w in words], lengths[others])
        entry[~found] = -1
        return entry

    def _same(
        self,
        entry: npt.NDArray[np.int64],
        keys: npt.NDArray[np.uint64],
        words: list[npt.NDArray[np.uint64]],
        lengths: npt.NDArray[np.int64],
    ) -> Bool:
        same = self.keys[entry] == keys
        same &= self.lengths[entry] == lengths
        for k, word in enumerate(words):
            same &= self.words[k][entry] == word
        return same

    def add(
        self,
        name: str,
        kind: str,
        texts: list[str],
        keys: npt.NDArray[np.uint64],
        words: list[npt.NDArray[np.uint64]],
        lengths: npt.NDArray[np.int64],
        *,
        keep_all: bool = False,
    ) -> None:
        """Convert these texts and remember them (not past the bound, and not a key already taken)."""
        converted = _distinct(name, kind, pa.array(texts, pa.string()))
        if keep_all:
            self.values, self.null, self.wrong = converted.values, converted.null, converted.wrong
            return
        fresh = ~np.isin(keys, self.sorted_keys)
        room = _SEEN_TEXTS - len(self.lengths)
        if room <= 0:
            return
        fresh[np.cumsum(fresh) > room] = False
        if not fresh.all():
            keys, lengths = keys[fresh], lengths[fresh]
            words = [w[fresh] for w in words]
            converted = _Distinct(converted.texts, converted.values[fresh], converted.null[fresh],
                                  converted.wrong[fresh])
        base = len(self.lengths)
        full = [np.zeros(len(keys), dtype=np.uint64) for _ in range(_WORDS)]
        for k, word in enumerate(words):
            full[k] = word
        self.words = [np.concatenate([a, b]) for a, b in zip(self.words, full, strict=True)]
        self.lengths = np.concatenate([self.lengths, lengths])
        self.values = np.concatenate([self.values, converted.values])
        self.null = np.concatenate([self.null, converted.null])
        self.wrong = np.concatenate([self.wrong, converted.wrong])
        self.any_null = bool(self.null.any())
        all_keys = np.concatenate([self.sorted_keys, keys])
        all_entries = np.concatenate([self.entry, base + np.arange(len(keys))])
        order = np.argsort(all_keys, kind="stable")
        self.sorted_keys, self.entry = all_keys[order], all_entries[order]
        self.keys = np.concatenate([self.keys, keys])
        self.bits = max(6, int(len(self.keys)).bit_length() + 2)  # a table four to eight times the texts
        slot = (self.keys * _MIX[0]) >> np.uint64(64 - self.bits)
        self.slots = np.zeros(1 << self.bits, dtype=np.int64)  # an empty slot: entry 0, which the check refuses
        self.slots[slot[::-1]] = np.arange(len(self.keys))[::-1]  # a slot shared: the first text's


@dataclass(slots=True, frozen=True)
class _Distinct:
    """Distinct texts converted: the value of each, whether it is not given, whether the converter refuses it."""

    texts: pa.Array
    values: npt.NDArray[Any]
    null: Bool
    wrong: Bool


# Per column, the distinct texts of the blocks read so far in this process (their conversion depends on the text
# and the column only): enums, booleans, schemes, small integers and dates repeat from block to block. Seeded by
# converting a column of texts: ``by_distinct(name, pyarrow.array(texts))``.
_SEEN: dict[str, _Seen] = {}
_SEEN_TEXTS = 1 << 15  # kept per column at most (texts past it: converted in each block)


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
