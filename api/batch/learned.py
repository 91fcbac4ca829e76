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
        data = {"recordings": columnar.recordings(), "lifted": columnar.lifted_results()}
        _store(base / "paths").save(slot, dumps(data))
        prune(base / "paths")


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
