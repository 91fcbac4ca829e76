"""What the columnar engine learnt — the paths its traces recorded — shared between the processes of a batch and
kept between runs.

:class:`legislation.columnar.Columnar` traces each version's calculator once per *path* its rows take (tens of
microseconds of Python a path) and records the path; rows that take a recorded path are then computed by array
operations alone (:mod:`legislation.columnar.recorded`). A mixed batch of every version has tens of thousands of
paths, most of them met again in every block: without sharing, each worker process of ``vigueur batch`` traces them
all itself, and every run would start again from nothing. Here:

* a run reads the recordings kept by earlier runs of the same catalogue and code before its first block
  (:func:`load`): worker processes, forked after, start with them;
* as it exits, each worker writes the paths it traced to a file of the run's spill directory (:func:`share`); the
  main process adds them to its recordings and writes them all to ``paths/<fingerprint>.paths`` of vigueur's cache
  directory (:func:`api.kernel_cache.cache_dir`) for the next runs (:func:`save`).

With the recordings, the file keeps what each process would otherwise derive from them before replaying them in
its first block: each recording's leaf table (the leaves' outcomes as the result arrays' codes) and, per scheme and
facts given, the table its versions are replayed through together and their leaves side by side (numpy arrays read
at no cost), each checked against its recordings when read (one that does not fit is built again, as without it).

(Sharing paths between the workers during a run, block by block, was measured: writing and reading them cost more
than tracing them again.)

A path is plain data — the decisions (each a recipe and the label taken) and the outcome the calculator returned at
its end — and the calculators are deterministic, so a path is the same whoever traced it. The fingerprint covers
everything a path depends on: the source of the ``legislation`` package (the calculators, the kit, the resolver,
the columnar engine; :func:`legislation.fast.stored.sources_digest`, as the compiled kernels' cache), every
version of the catalogue (its data and text), and the Python and numpy versions; a change to any of them is another
file. The cache only saves time: a file that cannot be read, is damaged or
holds anything but plain data is skipped (the paths are traced again), never an error; the directory may be
deleted at any time. ``VIGUEUR_CACHE_DIR=off`` turns it off.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

from api.kernel_cache import FileStore, cache_dir, restricted_loads
from legislation.fast.compile import LIFTED
from legislation.fast.stored import sources_digest

PREFIX = "learned-"
SUFFIX = ".paths"


def fingerprint(catalogue: Any) -> str | None:
    """A digest of what the recorded paths depend on (see the module's docstring); None when the sources cannot be
    read (then nothing is kept). The last catalogue's is kept (a run asks for it several times: ~7 ms each)."""
    last = _LAST
    if last and last[0] is catalogue:
        return last[1]
    sources = sources_digest()
    if sources is None:
        return None
    digest = hashlib.sha256(f"{sources}|{sys.version}|numpy {np.__version__}".encode())
    for vid in sorted(catalogue.versions):
        digest.update(repr(catalogue.versions[vid]).encode())
    digest.update(repr(sorted((str(k), repr(t.gaps)) for k, t in catalogue.timelines.items())).encode())
    found = digest.hexdigest()[:32]
    _LAST[:] = [catalogue, found]
    return found


_LAST: list[Any] = []  # the catalogue (itself: not a copy made since) and its fingerprint


# -- plain data ------------------------------------------------------------------------------------------------


def dumps(data: Any) -> bytes:
    """Paths (:meth:`~legislation.columnar.Columnar.take_learned`) or recordings
    (:meth:`~legislation.columnar.Columnar.recordings`) as bytes. An expression's key names a lifted calendar helper
    by its qualified name, the same in every process; the lifts hold the helpers themselves (pickled by name)."""
    return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> Any:
    """What :func:`dumps` wrote (None: damaged, or holding anything but plain data, numpy arrays, the enums of
    :mod:`legislation.enums`, dates, a fallback leaf and the lifted helpers)."""
    collecting = gc.isenabled()
    gc.disable()  # many small tuples, none in a cycle: the collector's passes over them would double the time
    try:
        return restricted_loads(data, _ALLOWED, "plain data")
    except Exception:  # noqa: BLE001 - a damaged file is a miss, whatever the unpickling raised
        return None
    finally:
        if collecting:
            gc.enable()


_ALLOWED = frozenset(
    {
        ("datetime", "date"),
        ("legislation.columnar.symbolic", "Fallback"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.numeric", "_frombuffer"),
        *((f.__module__, f.__qualname__) for f in (c.__wrapped__ for c in LIFTED.values())),
    }
)


# -- files -----------------------------------------------------------------------------------------------------


def _store(folder: Path) -> FileStore:
    return FileStore(folder, SUFFIX)


def _paused(function: Any) -> Any:
    """``function`` with the cyclic collector paused (it makes many small objects, none in a cycle)."""

    def call(*args: Any) -> Any:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return function(*args)
        finally:
            if collecting:
                gc.enable()

    call.__doc__ = function.__doc__
    return call


@_paused
def load(columnar: Any, catalogue: Any) -> bool:
    """The recordings earlier runs of this catalogue kept, into ``columnar`` (before the first block). False: none
    (no cache, no file, or one that cannot be read: the paths are traced)."""
    base = cache_dir()
    slot = fingerprint(catalogue)
    kept = None if base is None or slot is None else _read(_store(base / "paths"), slot)
    if not isinstance(kept, dict) or not isinstance(kept.get("recordings"), dict):
        return False
    try:
        columnar.restore(kept["recordings"])
        columnar.learn_lifted_results(kept.get("lifted", {}))
        columnar.index_lifted_results()
    except (ValueError, TypeError, KeyError, AttributeError):
        return False
    _restore_leaf_tables(columnar, kept.get("leaves"))
    _restore_combined(columnar, kept.get("combined"))
    return True


@_paused
def save(columnar: Any, catalogue: Any, spill: str | None = None) -> None:
    """At the end of a run: the workers' paths (the files of the spill directory) added to ``columnar``, and its
    recordings written to the cache for the next runs (when anything was traced)."""
    base, slot = cache_dir(), fingerprint(catalogue)
    if base is None or slot is None:
        return
    fresh = bool(columnar.take_learned())  # this process's own traces
    if spill is not None:
        store = _store(Path(spill))
        for name in _deltas(Path(spill)):
            learned = _read(store, name)
            if not isinstance(learned, dict):
                continue
            with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
                columnar.learn_lifted_results(learned.get("lifted", {}))
                if learned.get("paths"):
                    columnar.learn(learned["paths"])
                    fresh = True
    if fresh:
        data = {
            "recordings": columnar.recordings(),
            "lifted": columnar.lifted_results(),
            "leaves": _leaf_tables(columnar),
            "combined": _combined(columnar),
        }
        _store(base / "paths").save(slot, dumps(data))
        prune(base / "paths")


# -- the recordings' leaf tables ------------------------------------------------------------------------------
#
# (Each recording's dense table, Recording.tables, is not kept: the engine replays a scheme's versions together
# through a table combined from the recordings themselves (legislation.columnar.recorded.combine); a version replayed
# alone builds its own, as without the cache. Kept, it made the file a third bigger and its reading dearer.)
#
# The columnar engine's table of each recording's leaves (their outcomes as the result arrays' codes: Columnar.
# _leaf_tables), also built once per process from the leaves' outcomes (~18 ms of a worker's first block), kept
# the same way; the paragraphs they cite are numbered in each process: kept as texts, numbered again when read.


def _leaf_tables(columnar: Any) -> dict[str, Any]:
    """Each recording's leaf table (built here when not yet), and the paragraphs their codes number."""
    found: dict[Any, tuple[Any, ...]] = {}
    try:
        for key, recording in columnar._recordings.items():
            if recording.leaves:
                codes, fallback, values = columnar._leaf_tables(recording)
                found[key] = (codes, fallback, list(values))
        paragraphs = list(columnar._paragraphs.texts)  # after: the tables may number new ones
    except (AttributeError, TypeError, ValueError):  # the engine keeps them otherwise: none kept
        return {}
    return {"tables": found, "paragraphs": paragraphs}


def _restore_leaf_tables(columnar: Any, kept: Any) -> int:
    """The leaf tables of :func:`_leaf_tables` given to the recordings they fit (each checked: the others are
    built when replayed, as without them), their paragraphs numbered by ``columnar``; how many."""
    texts = _kept_paragraphs(kept)
    if texts is None:
        return 0
    restored = 0
    try:
        renumber = _renumbering(columnar, texts)
        for key, item in kept["tables"].items():
            recording = columnar._recordings.get(key)
            if recording is None or recording.extra or not _leaves_fit(recording, item, len(texts)):
                continue
            codes, fallback, values = item
            codes = codes.copy()
            codes[5] = renumber[codes[5]]
            recording.extra.update(columns=None, fallback=None, slots=None, values=None)
            recording.extra["arrays"] = (codes, fallback, list(values))
            restored += 1
    except (AttributeError, TypeError, ValueError, IndexError):
        return restored
    return restored


def _kept_paragraphs(kept: Any) -> list[str] | None:
    """The paragraphs' texts kept with tables (``kept``: their tables and those texts), None when ``kept`` is not
    that."""
    if not isinstance(kept, dict) or not isinstance(kept.get("tables"), dict):
        return None
    texts = kept.get("paragraphs")
    if not isinstance(texts, list) or not all(type(t) is str for t in texts):
        return None
    return texts


def _renumbering(columnar: Any, texts: list[str]) -> Any:
    """Each kept paragraph's number in ``columnar`` (its texts numbered there as met), and -1 at -1 (none)."""
    numbering = columnar._paragraphs
    return np.array([*(numbering.number(t) for t in texts), -1], dtype=np.int64)


def _leaves_fit(recording: Any, item: Any, paragraphs: int) -> bool:
    """``item`` is a leaf table of ``recording`` as it is: a row of codes per leaf, in range."""
    if not isinstance(item, tuple) or len(item) != 3:
        return False
    codes, fallback, values = item
    leaves = recording.leaves
    if not (
        isinstance(codes, np.ndarray)
        and codes.dtype == np.int64
        and codes.shape == (8, leaves)
        and isinstance(fallback, np.ndarray)
        and fallback.dtype == np.bool_
        and fallback.shape == (leaves,)
        and isinstance(values, list)
        and all(type(j) is int and 0 <= j < leaves for j in values)
    ):
        return False
    if not leaves:
        return True
    paragraph, slot = codes[5], codes[7]
    return bool(
        paragraph.min() >= -1 and paragraph.max() < paragraphs and slot.min() >= 0 and slot.max() <= len(values)
    )


# The columnar engine replays a scheme's versions together, through one table combined from their recordings and
# the recordings' leaf tables side by side (legislation.columnar.recorded.combine, Columnar._combined_leaves): built
# once per process from the recordings (~45 ms of each worker's first block), kept the same way, per scheme and facts
# given: each checked against the recordings it was built from (the same states and leaves) and its arrays' kinds,
# shapes and ranges; one that does not fit is built again, as without it. The paragraphs their codes number are kept
# as texts, numbered again when read.


def _combined(columnar: Any) -> dict[str, Any]:
    """Each scheme's and facts given's combined table and leaves (built here afresh), and the paragraphs their
    codes number."""
    from legislation.columnar.recorded import Registry, combine
    from legislation.row import ALL_SCHEMES

    found: dict[Any, tuple[Any, ...]] = {}
    try:
        for s, facts_key in sorted({(s, facts_key) for s, _, facts_key in columnar._recordings}):
            plan = columnar.engine.schemes[ALL_SCHEMES[s]]
            vids, recordings = [], []
            for version_plan in plan.plans:  # in the order the engine combines them
                recording = columnar._recordings.get((s, version_plan.vid, facts_key))
                if recording is not None and recording.leaves:
                    vids.append(version_plan.vid)
                    recordings.append(recording)
            if not recordings:
                continue
            registry = Registry()
            c = combine(recordings, registry)
            leaves = columnar._combined_leaves(c, recordings, vids, registry)
            sizes = [(len(r.recipe_of), r.leaves) for r in recordings]
            found[(s, facts_key)] = (
                vids,
                sizes,
                (c.recipes, c.widths, c.labels, c.held, c.recipe_of, c.offset, c.table, c.leaf_of),
                (c.base, c.leaf_base, c.depth, c.users),
                leaves,
            )
        paragraphs = list(columnar._paragraphs.texts)  # after: the leaves may number new ones
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):  # the engine keeps them otherwise
        return {}
    return {"tables": found, "paragraphs": paragraphs}


def _restore_combined(columnar: Any, kept: Any) -> int:
    """The combined tables of :func:`_combined` given to the engine, for the recordings they fit (each checked: the
    others are built when replayed, as without them), their paragraphs numbered by ``columnar``; how many."""
    texts = _kept_paragraphs(kept)
    if texts is None:
        return 0
    from legislation.columnar.recorded import Combined, Recording, Registry, signature

    restored = 0
    try:
        renumber = _renumbering(columnar, texts)
        for key, item in kept["tables"].items():
            if not isinstance(key, tuple) or key in columnar._combined:
                continue
            recordings = _combined_fit(columnar, key, item, len(texts))
            if recordings is None:
                continue
            _, _, fields, (base, leaf_base, depth, users), leaves = item
            lifts = Recording(frozenset())
            for recording in recordings:
                lifts.lifts.update(recording.lifts)
            columns, constants, fallback, value_of, reasons, keys = leaves
            columns = columns.copy()
            columns[5] = renumber[columns[5]]
            combined = Combined(signature(recordings), *fields, base, leaf_base, depth, lifts, users)
            combined.extra["leaves"] = (columns, constants, fallback, value_of, list(reasons), list(keys))
            columnar._combined[key] = combined
            columnar._registries[key] = Registry()  # the table's own numbering: a table combined again starts anew
            restored += 1
    except (AttributeError, TypeError, ValueError, IndexError, KeyError):
        return restored
    return restored


def _arrays(items: Any, kinds: tuple[Any, ...], ndim: int = 1) -> bool:
    return all(isinstance(a, np.ndarray) and a.dtype == k and a.ndim == ndim for a, k in zip(items, kinds, strict=True))


def _combined_fit(columnar: Any, key: Any, item: Any, paragraphs: int) -> list[Any] | None:
    """The recordings a kept combined table was built from, when it fits them as they are (their states and
    leaves) and its arrays are of the right kinds, shapes and ranges; else None."""
    if len(key) != 2 or not isinstance(item, tuple) or len(item) != 5:
        return None
    vids, sizes, fields, placing, leaves = item
    if not (isinstance(vids, list) and isinstance(sizes, list) and len(vids) == len(sizes) and vids):
        return None
    s, facts_key = key
    recordings = []
    for vid, size in zip(vids, sizes, strict=True):
        recording = columnar._recordings.get((s, vid, facts_key))
        if recording is None or not recording.leaves or size != (len(recording.recipe_of), recording.leaves):
            return None
        recordings.append(recording)
    if not (isinstance(fields, tuple) and len(fields) == 8 and isinstance(placing, tuple) and len(placing) == 4):
        return None
    recipes, widths, labels, held, recipe_of, offset, table, leaf_of = fields
    base, leaf_base, depth, users = placing
    n = len(recipes) if isinstance(recipes, list) else -1
    states = sum(size[0] for size in sizes)
    total_leaves = sum(size[1] for size in sizes)
    if not (
        n >= 0
        and all(isinstance(r, tuple) and len(r) == 2 and type(r[0]) is str for r in recipes)
        and isinstance(widths, list)
        and isinstance(labels, list)
        and isinstance(held, list)
        and len(widths) == len(labels) == len(held) == n
        and all(type(w) is int and w >= 1 for w in widths)
        and all(x is None or isinstance(x, dict) for x in labels)
        and all(h is None or _arrays((h,), (np.int64,)) for h in held)
        and _arrays((recipe_of, offset, table, leaf_of, base, leaf_base), (np.intp,) * 3 + (np.int32,) + (np.intp,) * 2)
        and len(recipe_of) == len(offset) == len(leaf_of) == states
        and len(table) > 0
        and type(depth) is int
        and depth == max(r.depth for r in recordings)
        and _arrays((users,), (np.bool_,), 2)
        and users.shape == (n, len(recordings))
    ):
        return None
    counts = np.array(sizes, dtype=np.intp).reshape(-1, 2)
    if not (
        np.array_equal(base, np.cumsum(counts[:, 0]) - counts[:, 0])
        and np.array_equal(leaf_base, np.cumsum(counts[:, 1]) - counts[:, 1])
    ):
        return None
    width_of = np.array([*widths, 1], dtype=np.intp)
    if not (
        recipe_of.min() >= 0
        and recipe_of.max() <= n
        and offset.min() >= 0
        and (offset + width_of[recipe_of]).max() <= len(table)
        and table.min() >= 0
        and table.max() < states
        and leaf_of.min() >= -1
        and leaf_of.max() < total_leaves
    ):
        return None
    if not (isinstance(leaves, tuple) and len(leaves) == 6):
        return None
    columns, constants, fallback, value_of, reasons, keys = leaves
    if not (
        _arrays((columns,), (np.int64,), 2)
        and columns.shape == (6, total_leaves)
        and _arrays((constants, fallback, value_of), (np.int64, np.bool_, np.int64))
        and len(constants) == len(fallback) == len(value_of) == total_leaves
        and isinstance(reasons, list)
        and len(reasons) == total_leaves
        and all(type(r) is str for r in reasons)
        and isinstance(keys, list)
        and columns[5].min() >= -1
        and columns[5].max() < paragraphs
        and value_of.min() >= -1
        and value_of.max() < len(keys)
    ):
        return None
    return recordings


KEPT = 4  # files of recordings kept in the cache (the most recently written: other catalogues or code, earlier)


def prune(folder: Path, suffix: str = SUFFIX, kept: int = KEPT) -> None:
    """The cache's files of recordings (``suffix``) but the ``kept`` most recently written removed (each code or
    catalogue change writes a new one: without this, they would pile up)."""
    try:
        found = sorted(
            (p for p in folder.iterdir() if p.name.endswith(suffix) and p.is_file()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for stale in found[kept:]:
        with contextlib.suppress(OSError):
            stale.unlink()


def cache_file(catalogue: Any) -> Path | None:
    """The file of this catalogue's recordings in the cache (None: the cache is off)."""
    base = cache_dir()
    slot = fingerprint(catalogue)
    return None if base is None or slot is None else _store(base / "paths").path(slot)


def _read(store: FileStore, slot: str) -> Any:
    data = store.load(slot)
    return None if data is None else loads(data)


def _deltas(folder: Path) -> list[str]:
    """The workers' files of a spill directory, by slot."""
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError:
        return []
    return [n[: -len(SUFFIX)] for n in names if n.startswith(PREFIX) and n.endswith(SUFFIX)]


@_paused
def share(columnar: Any, spill: str) -> None:
    """A worker's paths traced during the run, for :func:`save` (a file of the spill directory named by the
    worker; written as the worker exits)."""
    learned = columnar.take_learned()
    if learned:  # with the lifted helpers' results (pure functions: kept with the paths that use them)
        data = {"paths": learned, "lifted": columnar.lifted_results()}
        _store(Path(spill)).save(f"{PREFIX}{os.getpid()}", dumps(data))
