"""The validated catalogue kept between runs: ``catalogue/<slot>.catalogue`` of vigueur's cache directory.

Loading ``versions/`` (:func:`api.catalogue.loader.load_catalogue`: TOML, the pydantic models, the numbers checked
in their quotes, the content hashes) takes a command's start-up a fifth of a second, and importing the models as
much again. A run whose tree holds the same bytes as one already loaded reads the :class:`~legislation.Catalogue`
that load built instead. Its key is a hash of

- every entry under the versions folder: each folder's and file's path relative to it and each file's bytes
  (``catalogue.toml`` included; a symbolic link, a special file or a file above 1 MiB is never kept: the loader
  says what is wrong with it);
- the sources that shape the objects: the ``legislation`` package (:func:`legislation.fast.stored.sources_digest`)
  and the loader's modules (:data:`SHAPERS`), the libraries that validate and hash (:data:`LIBRARIES`: where they
  are installed and when), the Python version.

A change to any of them is a miss: the tree is loaded and validated as without a cache, and the new catalogue
replaces the entry (one slot per versions folder and Python). Only a catalogue the loader accepted is kept: an
invalid tree is refused with the loader's error every time. The entry is a pickle read by an unpickler that
builds only the classes a catalogue holds (:data:`ALLOWED`, and the enums of :mod:`legislation.enums`), behind a
checksum; a damaged, foreign or unreadable entry is a miss, never an error, and the directory may be deleted at any
time. Its files are written and read as the compiled kernels' (:class:`api.kernel_cache.FileStore`: whole, and
not read when another user owns them or may write them). ``VIGUEUR_CACHE_DIR=off`` turns it off.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from api.catalogue import DEFAULT_VERSIONS_DIR
from api.kernel_cache import FileStore, cache_dir, seal, unseal
from legislation.fast.stored import sources_digest
from legislation.timeline import Catalogue, Gap, Timeline
from legislation.versions import Parameter, Source, TransitionalClause, Version

MAGIC = b"vigueur-catalogue-1\n"  # the layout of an entry; a new layout gets a new magic
SUFFIX = ".catalogue"
LARGEST = 1_048_576  # the loader refuses a text or a version.toml above 1 MiB: a tree holding one is never kept
SHAPERS = ("loader.py", "schema.py", "hashing.py", "kept.py")  # of api/catalogue: what builds the objects
LIBRARIES = ("pydantic", "pydantic_core", "rfc8785")  # the models' validation, the content hashes' canonical JSON
ALLOWED = frozenset(
    (kind.__module__, kind.__qualname__)
    for kind in (Catalogue, Timeline, Gap, Version, Parameter, Source, TransitionalClause, date, Decimal)
)


def load_catalogue(root: Path | None = None) -> Catalogue:
    """The catalogue of ``root`` (default: the repository's ``versions/``), from the cache when its tree and the
    code are those of a run that loaded it; else loaded and validated (:func:`api.catalogue.loader.load_catalogue`,
    which raises :class:`~legislation.errors.CatalogueError`) and kept for the next runs."""
    root = root or DEFAULT_VERSIONS_DIR
    base = cache_dir()
    key = None if base is None else tree_key(root)
    if base is None or key is None:
        return _load(root)
    store, slot = FileStore(base / "catalogue", SUFFIX), slot_of(root)
    found = unpack(store.load(slot), key)
    if found is not None:
        return found
    catalogue = _load(root)
    if tree_key(root) == key:  # the tree did not change while it was loaded
        store.save(slot, pack(key, catalogue))
    return catalogue


def _load(root: Path) -> Catalogue:
    from api.catalogue import loader  # pydantic and the models: imported only when a tree is loaded

    return loader.load_catalogue(root)


def tree_key(root: Path) -> str | None:
    """The key of the catalogue of ``root`` (see the module's docstring); None when the tree holds anything the
    loader refuses outright (a link, a special file, a file too large) or cannot be read: it is loaded, not kept."""
    here = Path(__file__).parent
    try:
        digest = hashlib.sha256(repr((MAGIC, sys.version, sources_digest(), _libraries())).encode())
        for name in SHAPERS:
            digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
        if not _walk(root, "", digest):
            return None
    except (OSError, ImportError, ValueError):  # ValueError: a library imported without a spec
        return None
    return digest.hexdigest()


def _walk(folder: Path, prefix: str, digest: Any) -> bool:
    """Each entry of ``folder`` (sorted, links not followed) into ``digest``; False at anything not kept."""
    with os.scandir(folder) as listing:
        entries = sorted(listing, key=lambda e: e.name)
    for entry in entries:
        relative = prefix + entry.name
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISDIR(mode):
            digest.update(b"d" + relative.encode("utf-8", "surrogateescape") + b"\0")
            if not _walk(Path(entry.path), relative + "/", digest):
                return False
        elif stat.S_ISREG(mode):
            with open(entry.path, "rb") as file:
                data = file.read(LARGEST + 1)
            if len(data) > LARGEST:
                return False
            name = relative.encode("utf-8", "surrogateescape")
            digest.update(b"f" + name + b"\0" + str(len(data)).encode() + b"\0" + data)
        else:
            return False
    return True


def _libraries() -> tuple[tuple[str, str, int, int], ...]:
    """Where each of :data:`LIBRARIES` is installed and its ``__init__``'s time and size (a new release is a new
    file), found without importing it."""
    found = []
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None and spec.origin else ""
        info = os.stat(origin) if origin else None
        found.append((name, origin, info.st_mtime_ns if info else 0, info.st_size if info else 0))
    return tuple(found)


def slot_of(root: Path) -> str:
    """Where the catalogue of ``root`` is kept: one slot per versions folder and Python (bounded size)."""
    return hashlib.sha256(repr((str(root.resolve()), sys.version)).encode()).hexdigest()[:32]


# -- entries ---------------------------------------------------------------------------------------------------


def pack(key: str, catalogue: Catalogue) -> bytes:
    """An entry: the magic, the checksum of the rest, the key, then the catalogue pickled (:func:`seal`)."""
    return seal(MAGIC, key, catalogue)


def unpack(data: bytes | None, key: str) -> Catalogue | None:
    """The catalogue of an entry packed under ``key``; None for anything else (another key or layout, a damaged
    entry, one naming anything but the classes a catalogue holds)."""
    found = unseal(data, MAGIC, key, ALLOWED, "part of a catalogue")
    return found if isinstance(found, Catalogue) else None
