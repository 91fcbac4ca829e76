"""The derived columns' values met by earlier runs — claim deadlines, explanations by key, eventful leases' decisive
days — kept between runs, so that a worker's first block does not compute again what every run computes.

:class:`api.batch.results.Tables` computes each claim deadline once per (scheme, decisive day), each explanation
that depends only on the scheme, status, versions and date once per such key, and each eventful lease's decisive
day once per (scheme, dates), in Python, and keeps them for the process's next blocks (:class:`~api.batch.results.
Memo`). A mixed batch meets tens of thousands of them, most in its first blocks: each worker process of ``vigueur
batch`` paid them again in its first block (measured: 0.2-0.3 CPU-s of a 0.35 s block), and every run again. Here,
as the recorded paths of :mod:`api.batch.learned`:

* a run reads the values kept by earlier runs of the same catalogue and code before its first block (:func:`load`):
  worker processes, forked after, start with them;
* as it exits, each worker that computed values not kept writes them all to a file of the run's spill directory
  (:func:`share`); the main process adds them to its own and, when any is new, writes them to
  ``memos/<fingerprint>.memos`` of vigueur's cache directory for the next runs (:func:`save`).

A value is what the functions of the explained path (:mod:`legislation.resolver`) give for its key, whoever computed
it; the fingerprint covers everything a value and its key depend on: :func:`api.batch.learned.fingerprint` (the
``legislation`` sources, every version of the catalogue, Python, numpy) and the sources of :mod:`api.batch` (how a
key is packed, what is asked of the resolver). An entry is plain data (integers, texts, tuples: the unpickler builds
nothing else) behind a checksum and its fingerprint; one that cannot be read, is damaged, foreign or holds anything
else is a miss (the values are computed, as without a cache), never an error; the directory may be deleted at any
time. ``VIGUEUR_CACHE_DIR=off`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from api.batch import arrow_cells, learned
from api.kernel_cache import FileStore, cache_dir, seal, unseal
from legislation.columnar.columns import FACTS
from legislation.fast.stored import package_digest

MAGIC = b"vigueur-memos-1\n"  # the layout of an entry; a new layout gets a new magic
SUFFIX = ".memos"
PREFIX = "memos-"  # a worker's file in the spill directory
KEPT = 4  # files kept in the cache (the most recently written: other catalogues or code, earlier)


def fingerprint(catalogue: Any) -> str | None:
    """A digest of what the values and their keys depend on (see the module's docstring); None when the sources
    cannot be read (then nothing is kept)."""
    catalogue_and_code = learned.fingerprint(catalogue)
    ours = package_digest(Path(__file__).parent)
    if catalogue_and_code is None or ours is None:
        return None
    return hashlib.sha256(f"{MAGIC!r}|{catalogue_and_code}|{ours}".encode()).hexdigest()


# -- the tables' values as plain data ------------------------------------------------------------------------


def entries(tables: Any) -> dict[str, Any]:
    """The values ``tables`` met: each memo's keys (int64, as bytes) and values, the eventful leases' days; and the
    cells this process converted (:func:`cells`)."""
    found: dict[str, Any] = {}
    for name, memo in _memos(tables).items():
        keys, values = memo.entries()
        found[name] = (keys.astype("<i8").tobytes(), values)
    found["eventful"] = [(*key, day) for key, day in tables.eventful_known.items()]
    found["cells"] = cells()
    return found


def count(tables: Any) -> int:
    """How many values ``tables`` and this process's converted cells hold."""
    try:
        seen = sum(len(d.texts) for d in arrow_cells._SEEN.values())
    except (AttributeError, TypeError):
        seen = 0
    return sum(len(memo) for memo in _memos(tables).values()) + len(tables.eventful_known) + seen


def learn(tables: Any, found: Any) -> int:
    """The values of ``found`` (:func:`entries`, as read back) that ``tables`` has not met, added; how many. Raises
    ValueError (nothing added) when ``found`` is not what :func:`entries` makes."""
    if not isinstance(found, dict):
        raise ValueError("not a dictionary")
    checked: list[tuple[Any, np.ndarray[Any, Any], list[Any]]] = []
    for name, memo in _memos(tables).items():
        item = found.get(name)
        if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], bytes):
            raise ValueError(f"no {name}")
        raw, values = item
        if len(raw) % 8 or not isinstance(values, list) or len(values) != len(raw) // 8:
            raise ValueError(f"{name}: keys and values differ")
        keys = np.frombuffer(raw, dtype="<i8").astype(np.int64)
        if len(keys) and (np.any(keys[1:] <= keys[:-1]) or keys[0] < 0):
            raise ValueError(f"{name}: keys not distinct")  # they are kept sorted
        if not all(map(_VALID[name], values)):
            raise ValueError(f"{name}: a value of another kind")
        checked.append((memo, keys, values))
    eventful = found.get("eventful")
    if not isinstance(eventful, list) or not all(
        isinstance(e, tuple) and len(e) == 5 and all(type(x) is int for x in e) for e in eventful
    ):
        raise ValueError("eventful: not (scheme, dates, day) integers")
    seen = _checked_cells(found.get("cells"))
    added = sum(memo.learn(keys, values) for memo, keys, values in checked)
    added += _learn_cells(seen)
    known = tables.eventful_known
    for k, rent, invoice, order, day in eventful:
        if (k, rent, invoice, order) not in known:
            known[k, rent, invoice, order] = day
            added += 1
    return added


def _memos(tables: Any) -> dict[str, Any]:
    return {"deadlines": tables.deadlines, "explanations": tables.explanations}


def _text(value: Any) -> bool:
    return value is None or type(value) is str


_VALID = {
    "deadlines": _text,  # an ISO date (None: none)
    "explanations": lambda v: type(v) is tuple and len(v) == 2 and _text(v[0]) and _text(v[1]),  # reason, missing
}


# -- the cells converted (api.batch.arrow_cells) ------------------------------------------------------------
#
# The Arrow reading converts each column's distinct texts once per process by the converter of csv_rows, and keeps
# them for the next blocks (``arrow_cells._SEEN``: a text's value depends on it and its column only).

_DTYPES = {"date": "datetime64[D]", "enum": "int8", "bool": "int8", "schemes": "int8", "int": "int64"}


def cells() -> dict[str, Any]:
    """Per column, its distinct texts converted: (offsets, characters, values, not given, refused) as bytes."""
    try:
        return {
            name: (*_text_buffers(d.texts), d.values.tobytes(), d.null.tobytes(), d.wrong.tobytes())
            for name, d in arrow_cells._SEEN.items()
        }
    except (AttributeError, TypeError, ValueError, pa.ArrowException):  # the reading keeps them otherwise: none
        return {}


def _text_buffers(texts: pa.Array) -> tuple[bytes, bytes]:
    """A string array's offsets (int32, from 0) and characters."""
    texts = pa.concat_arrays([texts.cast(pa.string())])  # its own buffers, from its first cell
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int32)[texts.offset : texts.offset + len(texts) + 1]
    data = texts.buffers()[2]
    characters = b"" if data is None else data.to_pybytes()[int(offsets[0]) : int(offsets[-1])]
    return (offsets - offsets[0]).astype("<i4").tobytes(), characters


def _checked_cells(found: Any) -> dict[str, Any]:
    """:func:`cells` as read back, as arrays (raises ValueError when it is not what :func:`cells` makes)."""
    if not isinstance(found, dict):
        raise ValueError("cells: not a dictionary")
    checked = {}
    for name, item in found.items():
        kind = ("schemes" if name == "schemes" else FACTS.get(name, ("",))[0]) if isinstance(name, str) else ""
        if kind not in _DTYPES or not isinstance(item, tuple) or len(item) != 5:
            raise ValueError(f"cells: {name!r}")
        if not all(isinstance(b, bytes) for b in item):
            raise ValueError(f"cells: {name} not arrays")
        offsets, characters, values, null, wrong = item
        dtype = np.dtype(_DTYPES[kind])
        n = len(null)
        if len(offsets) != 4 * (n + 1) or len(values) != n * dtype.itemsize or len(wrong) != n:
            raise ValueError(f"cells: {name} of several lengths")
        buffers = [None, pa.py_buffer(offsets), pa.py_buffer(characters)]
        texts = pa.Array.from_buffers(pa.string(), n, buffers)
        try:
            texts.validate(full=True)  # offsets in order and within the characters, UTF-8
        except pa.ArrowException as exc:
            raise ValueError(f"cells: {name}: {exc}") from None
        if pc.count_distinct(texts).as_py() != n:
            raise ValueError(f"cells: {name} not distinct")
        checked[name] = (
            texts,
            np.frombuffer(values, dtype=dtype).copy(),
            np.frombuffer(null, dtype=np.bool_).copy(),
            np.frombuffer(wrong, dtype=np.bool_).copy(),
        )
    return checked


def _learn_cells(checked: dict[str, Any]) -> int:
    """The converted texts of ``checked`` this process has not met, added to its own (within the Arrow reading's
    bounds); how many."""
    added = 0
    for name, (texts, values, null, wrong) in checked.items():
        try:
            seen = arrow_cells._SEEN
            given = arrow_cells._Distinct(texts, values, null, wrong)
            known = seen.get(name)
            if known is not None:
                fresh = pc.index_in(texts, value_set=known.texts).is_null().to_numpy(zero_copy_only=False)
                new = np.flatnonzero(fresh)
                if not new.size:
                    continue
                more = arrow_cells._Distinct(texts.take(pa.array(new)), values[new], null[new], wrong[new])
                given = known.joined(more)
            if len(given.texts) <= arrow_cells._SEEN_TEXTS and given.texts.nbytes <= arrow_cells._SEEN_BYTES:
                added += len(given.texts) - (0 if known is None else len(known.texts))
                seen[name] = given
        except (AttributeError, TypeError, ValueError, pa.ArrowException):  # the reading keeps them otherwise
            continue
    return added


# -- entries ---------------------------------------------------------------------------------------------------


def dumps(key: str, tables: Any) -> bytes:
    """An entry: the magic, the checksum of the rest, the fingerprint, then the values pickled (:func:`seal`)."""
    return seal(MAGIC, key, entries(tables))


def loads(data: bytes | None, key: str) -> Any:
    """The values of an entry written under ``key`` (None: another key or layout, damaged, or holding anything but
    plain data)."""
    return unseal(data, MAGIC, key, frozenset(), "plain data")


def _read(store: FileStore, slot: str, key: str, tables: Any) -> int:
    """The values of ``slot`` learnt by ``tables`` (how many were new; 0: none, or a miss)."""
    found = loads(store.load(slot), key)
    if found is None:
        return 0
    try:
        return learn(tables, found)
    except ValueError:
        return 0


# -- a run -----------------------------------------------------------------------------------------------------


def load(tables: Any, catalogue: Any) -> bool:
    """The values earlier runs of this catalogue kept, into ``tables`` (before the first block). False: none (no
    cache, no file, or one that cannot be read: they are computed)."""
    base = cache_dir()
    key = None if base is None else fingerprint(catalogue)
    added = 0 if base is None or key is None else _read(FileStore(base / "memos", SUFFIX), key, key, tables)
    tables.memos_kept = count(tables)  # what a worker forked after has not computed itself
    return added > 0


def share(tables: Any, catalogue: Any, spill: str) -> None:
    """A worker's values, when it computed any not kept, for :func:`save` (a file of the spill directory named by
    the worker; written as the worker exits)."""
    key = fingerprint(catalogue)
    if key is not None and count(tables) > tables.memos_kept:
        FileStore(Path(spill), SUFFIX).save(f"{PREFIX}{os.getpid()}", dumps(key, tables))


def save(tables: Any, catalogue: Any, spill: str | None = None) -> None:
    """At the end of a run: the workers' values (the files of the spill directory) added to ``tables``, and all of
    them written to the cache for the next runs (when any is new)."""
    base = cache_dir()
    key = None if base is None else fingerprint(catalogue)
    if base is None or key is None:
        return
    if spill is not None:
        store = FileStore(Path(spill), SUFFIX)
        for slot in _shared(Path(spill)):
            _read(store, slot, key, tables)
    if count(tables) > tables.memos_kept:
        FileStore(base / "memos", SUFFIX).save(key, dumps(key, tables))
        tables.memos_kept = count(tables)
        learned.prune(base / "memos", SUFFIX, KEPT)


def _shared(folder: Path) -> list[str]:
    """The workers' files of a spill directory, by slot."""
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError:
        return []
    return [n[: -len(SUFFIX)] for n in names if n.startswith(PREFIX) and n.endswith(SUFFIX)]


def cache_file(catalogue: Any) -> Path | None:
    """The file of this catalogue's values in the cache (None: the cache is off)."""
    base = cache_dir()
    key = None if base is None else fingerprint(catalogue)
    return None if base is None or key is None else FileStore(base / "memos", SUFFIX).path(key)
