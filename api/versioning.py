"""What produced an answer: the package version, the git commit of the code and of the catalogue (``versions/``).

Computed once per process (at start-up: ``api.http.app`` warms it) from ``git`` when the checkout has a ``.git``
folder and git is installed; ``unknown`` otherwise (an installed wheel). A receipt records all three.
"""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

from api.catalogue import DEFAULT_VERSIONS_DIR

CODE_ROOT = Path(__file__).resolve().parent.parent  # the checkout holding api/ and legislation/
UNKNOWN = "unknown"


@cache
def software_version() -> str:
    """The installed package's version (pyproject.toml's ``version``). (``importlib.metadata`` imported here: ~8 ms
    that every command paid at start-up, `vigueur batch` included, for a version most never print.)"""
    from importlib import metadata

    try:
        return metadata.version("vigueur")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree not installed
        return UNKNOWN


def git(*args: str, cwd: Path) -> str | None:
    """The output of ``git args`` in ``cwd``, stripped; None when git or the repository is absent."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _commit(path: Path, *paths: str) -> str:
    """The last commit that changed ``paths`` under ``path`` (or HEAD), « +dirty » if they differ from it."""
    if not path.exists():
        return UNKNOWN
    commit = git("log", "-1", "--format=%H", "--", *paths, cwd=path) if paths else git("rev-parse", "HEAD", cwd=path)
    if not commit:
        return UNKNOWN
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", *(paths or (".",)), cwd=path)
    return commit + ("+dirty" if dirty else "")


@cache
def code_commit() -> str:
    """``git rev-parse HEAD`` of the checkout the code runs from; « unknown » without git."""
    return _commit(CODE_ROOT)


def catalogue_commit(versions_dir: Path | None = None) -> str:
    """The last commit that changed the ``versions/`` tree served (the settings'); « unknown » without git."""
    from api.settings import get_settings

    return _catalogue_commit((versions_dir or get_settings().versions_dir or DEFAULT_VERSIONS_DIR).resolve())


@cache
def _catalogue_commit(versions_dir: Path) -> str:
    return _commit(versions_dir, ".")


def provenance(versions_dir: Path | None = None) -> dict[str, str]:
    return {
        "package_version": software_version(),
        "code_commit": code_commit(),
        "catalogue_commit": catalogue_commit(versions_dir),
    }
