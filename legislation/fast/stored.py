"""Compiled forms kept between processes: their key and their bytes (:mod:`legislation.fast.compile` uses it).

The compiled calculators are *derived* code: generating them (rewriting each module's source for each version)
is most of a batch's start-up. A :class:`FormStore` — the application gives one (``api.kernel_cache``: files of a
cache directory); the domain does no I/O of its own beyond reading its own source — keeps what the generation
made, by a key that names everything it read:

- the text of every source file of the ``legislation`` package (the calculators, the kit, the compiler itself,
  the enums and helpers their globals come from) and where it lives (the code's file names for tracebacks);
- the Python version and its bytecode's magic number (the code is kept as :mod:`marshal` data);
- the version's identity and every number folded into its code: its citation, its scheme, the numbers of each
  scale, and those of the versions it relies on (see :func:`legislation.fast.compile.form_key`).

A change to any of them is another key: the entry is not used, the form is generated again and replaces it.
An entry is written whole (a checksum of its content leads it) and read only when its checksum and its key
match; anything else — a truncated or damaged file, an entry of other code — is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import sys
from functools import cache
from pathlib import Path
from typing import Any, Protocol

PACKAGE = Path(__file__).resolve().parents[1]  # the ``legislation`` package
MAGIC = b"vigueur-form-1\n"  # the layout of an entry; a new layout gets a new magic
DIGEST = 32  # bytes of the sha256 that follows the magic


class FormStore(Protocol):
    """Bytes by slot, at best effort: ``load`` answers None for anything it cannot read, ``save`` gives up
    silently. A slot holds one version's entry (a newer entry replaces it); the entry names its key itself."""

    def load(self, slot: str) -> bytes | None: ...

    def save(self, slot: str, data: bytes) -> None: ...


@cache
def sources_digest() -> str | None:
    """:func:`package_digest` of the ``legislation`` package, read once per process."""
    return package_digest(PACKAGE)


def package_digest(package: Path) -> str | None:
    """The sha256 of a package's source files (names and text) and of where it is; None when they cannot be read
    (then nothing is stored)."""
    digest = hashlib.sha256(str(package).encode())
    try:
        for path in sorted(package.rglob("*.py")):
            digest.update(str(path.relative_to(package)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def key_of(identity: Any) -> str | None:
    """The key of a form from what makes it (a ``repr``-stable value: strings, numbers, tuples), the sources,
    and the Python that runs it; None when the sources cannot be read."""
    sources = sources_digest()
    if sources is None:
        return None
    made_of = repr((MAGIC, sys.version, importlib.util.MAGIC_NUMBER, sources, identity))
    return hashlib.sha256(made_of.encode()).hexdigest()


def slot_of(version_id: str) -> str:
    """Where a version's entry is kept: one slot per version, Python and installed package (bounded size)."""
    return hashlib.sha256(repr((version_id, sys.version, str(PACKAGE))).encode()).hexdigest()[:32]


def pack(key: str, payload: Any) -> bytes:
    """An entry: the magic, the checksum of the rest, then the key and ``payload`` as :mod:`marshal` data."""
    body = marshal.dumps((key, payload))
    return MAGIC + hashlib.sha256(body).digest() + body


def unpack(data: bytes | None, key: str) -> Any:
    """The payload of an entry packed under ``key``; None for anything else (another key, another layout, a
    truncated or damaged entry)."""
    if data is None or not data.startswith(MAGIC):
        return None
    start = len(MAGIC) + DIGEST
    body = data[start:]
    if hashlib.sha256(body).digest() != data[len(MAGIC) : start]:
        return None
    try:
        found = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if not (isinstance(found, tuple) and len(found) == 2 and found[0] == key):
        return None
    return found[1]
