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
its first block: each recording's leaf table (the leaves' outcomes as the result arrays' codes), numpy arrays read
at no cost, each checked against its recording when read (one that does not fit is built again, as without it).

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
    except (ValueError, TypeError, KeyError, AttributeError):
        return False
    _restore_leaf_tables(columnar, kept.get("leaves"))
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
    if not isinstance(kept, dict) or not isinstance(kept.get("tables"), dict):
        return 0
    texts = kept.get("paragraphs")
    if not isinstance(texts, list) or not all(type(t) is str for t in texts):
        return 0
    restored = 0
    try:
        numbering = columnar._paragraphs
        renumber = np.array([*(numbering.number(t) for t in texts), -1], dtype=np.int64)  # -1: none, at -1
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
