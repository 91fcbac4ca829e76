"""The cache of compiled calculators: a directory of files, one per version (:mod:`legislation.fast.stored`).

Its files are in ``kernels/`` of vigueur's cache directory: ``$VIGUEUR_CACHE_DIR`` when set; ``off`` (or ``0``,
``none``, ``false``, ``no``): no cache, each process compiles the calculators itself; unset or empty:
``$XDG_CACHE_HOME/vigueur`` or ``~/.cache/vigueur`` on Linux, the platform's own cache directory elsewhere
(platformdirs). The cache is an accelerator only: a directory that cannot be created or written, a file that
cannot be read, or one that is damaged, is a miss (the calculator is compiled, as without a cache), never an
error; the directory may be deleted at any time. Its entries are code that runs: a file another user owns or may
write is not read.
"""

from __future__ import annotations

import contextlib
import enum
import gc
import hashlib
import io
import os
import pickle
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from legislation.fast.stored import FormStore

OFF = frozenset({"off", "0", "none", "false", "no"})
SUFFIX = ".form"


class FileStore:
    """Entries as files of one directory, each written to a temporary file first and moved into place whole."""

    def __init__(self, directory: Path, suffix: str = SUFFIX) -> None:
        self.directory = directory
        self.suffix = suffix

    def path(self, slot: str) -> Path:
        return self.directory / f"{slot}{self.suffix}"

    def load(self, slot: str) -> bytes | None:
        """The entry's bytes; None when it cannot be read, or when another user could have written it (an entry is
        code that runs: a file not owned by this user, or writable by others, is not read)."""
        try:
            with open(self.path(slot), "rb") as file:
                info = os.fstat(file.fileno())
                if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                    return None
                return file.read()
        except OSError:
            return None

    def save(self, slot: str, data: bytes) -> None:
        temporary: str | None = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{slot}.", suffix=".tmp")
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, self.path(slot))
        except OSError:  # read-only, full, gone: the next process compiles again
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)


def cache_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """vigueur's cache directory, or None when the cache is off."""
    env = os.environ if environ is None else environ
    chosen = env.get("VIGUEUR_CACHE_DIR", "").strip()
    if chosen.lower() in OFF:
        return None
    if chosen:
        return Path(chosen)
    if env.get("XDG_CACHE_HOME") or not sys.platform.startswith(("darwin", "win")):
        base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
        return Path(base) / "vigueur"
    import platformdirs

    return platformdirs.user_cache_path("vigueur", appauthor=False)


def form_store(environ: Mapping[str, str] | None = None) -> FormStore | None:
    """The store of compiled calculators this process uses (None: the cache is off)."""
    directory = cache_dir(environ)
    return FileStore(directory / "kernels") if directory is not None else None


def restricted_loads(data: bytes, allowed: frozenset[tuple[str, str]], what: str) -> Any:
    """``pickle.loads`` of a cache entry that may build only the globals ``allowed`` (module, name) and the enums
    defined in :mod:`legislation.enums`; any other global is refused before it is looked up (an entry is data read
    from disk: nothing in it may name a function to call). Raises :class:`pickle.UnpicklingError` (``what``: what
    the entry should hold, for the message)."""

    class Restricted(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) in allowed:
                return super().find_class(module, name)
            if module == "legislation.enums" and "." not in name:
                found = super().find_class(module, name)
                if isinstance(found, type) and issubclass(found, enum.Enum) and found.__module__ == module:
                    return found
            raise pickle.UnpicklingError(f"{module}.{name} is not {what}")

    return Restricted(io.BytesIO(data)).load()


DIGEST = 32  # bytes of the sha256 of a sealed entry's rest, after its magic


def seal(magic: bytes, key: str, value: Any) -> bytes:
    """A cache entry: ``magic`` (its layout), the sha256 of the rest, ``key`` (ASCII), then ``value`` pickled."""
    body = key.encode("ascii") + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return magic + hashlib.sha256(body).digest() + body


def unseal(data: bytes | None, magic: bytes, key: str, allowed: frozenset[tuple[str, str]], what: str) -> Any:
    """The value of an entry :func:`seal` wrote with ``magic`` and ``key``, read by :func:`restricted_loads`; None for
    anything else: another layout or key, a checksum that does not match, a global not ``allowed``, any failure of
    the unpickling (a damaged entry is a miss, never an error)."""
    start = len(magic) + DIGEST
    if data is None or not data.startswith(magic) or data[start : start + len(key)] != key.encode("ascii"):
        return None
    body = data[start:]
    if hashlib.sha256(body).digest() != data[len(magic) : start]:
        return None
    collecting = gc.isenabled()
    gc.disable()  # many small objects, none in a cycle: the collector's passes would only slow the reading
    try:
        return restricted_loads(body[len(key) :], allowed, what)
    except Exception:  # noqa: BLE001 - a damaged entry is a miss, whatever the unpickling raised
        return None
    finally:
        if collecting:
            gc.enable()
