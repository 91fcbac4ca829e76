"""`vigueur cache info` and `vigueur cache clear`: what vigueur keeps between runs, and emptying it.

Runs keep derived data in vigueur's cache directory (:func:`api.kernel_cache.cache_dir`: ``$VIGUEUR_CACHE_DIR``,
else ``$XDG_CACHE_HOME/vigueur``, else ``~/.cache/vigueur``; ``VIGUEUR_CACHE_DIR=off``: nothing kept) — the compiled
calculators (``kernels/``), the validated catalogue (``catalogue/``), the columnar engine's recorded paths
(``paths/``) and the batch's values met (``memos/``: claim deadlines, explanations by key, cells converted). Each
only saves time: deleting it is always safe, the next run builds it again. ``clear`` removes only those files (by
their folder and suffix, and the temporary files of an interrupted write), never anything else a directory named by
``VIGUEUR_CACHE_DIR`` may hold.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import typer

from api.output import dumps

cache_app = typer.Typer(help="What vigueur keeps between runs (compiled calculators, catalogue, recorded paths).")

KINDS = {  # folder: what its entries are
    "kernels": "the compiled calculators, one per version",
    "catalogue": "the validated catalogue, one per versions folder",
    "paths": "the columnar engine's recorded paths, one per catalogue and code",
    "memos": "the batch's claim deadlines, explanations and cells met, one per catalogue and code",
}


def _suffix(folder: str) -> str:
    """The suffix of a kind's entries, as the module that writes them names it."""
    if folder == "kernels":
        from api.kernel_cache import SUFFIX
    elif folder == "catalogue":
        from api.catalogue.kept import SUFFIX
    elif folder == "paths":
        from api.batch.learned import SUFFIX
    else:
        from api.batch.memos import SUFFIX
    return SUFFIX


def _entries(base: Path, folder: str) -> list[Path]:
    suffix = _suffix(folder)
    try:
        return sorted(
            p
            for p in (base / folder).iterdir()
            if p.is_file() and (p.name.endswith(suffix) or (p.name.startswith(".") and p.name.endswith(".tmp")))
        )
    except OSError:
        return []


def _directory() -> Path | None:
    from api.kernel_cache import cache_dir

    return cache_dir()


@cache_app.command("info")
def info() -> None:
    """Where the cache is and what it holds (JSON): files and bytes per kind."""
    base = _directory()
    report: dict[str, Any] = {"directory": None if base is None else str(base), "enabled": base is not None}
    if base is not None:
        kinds = {}
        for folder, what in KINDS.items():
            found = _entries(base, folder)
            kinds[folder] = {"what": what, "files": len(found), "bytes": sum(_size(p) for p in found)}
        report["kinds"] = kinds
    typer.echo(dumps(report))


@cache_app.command("clear")
def clear() -> None:
    """Remove what the cache holds (the next run compiles, loads and traces again); prints what was removed."""
    base = _directory()
    removed = {folder: 0 for folder in KINDS}
    if base is not None:
        for folder in KINDS:
            for path in _entries(base, folder):
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed[folder] += 1
    typer.echo(dumps({"directory": None if base is None else str(base), "removed": removed}))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
