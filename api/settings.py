"""Settings of the API and of the store, read from the environment when asked (never at import time).

``VIGUEUR_DATABASE_URL`` (or ``DATABASE_URL``, the usual name, when the first is unset): where the catalogue is
stored. Default: the SQLite file ``vigueur.db`` of the user's data directory — ``$XDG_DATA_HOME/vigueur/`` or
``~/.local/share/vigueur/`` on Linux, the platform's own elsewhere (platformdirs) — the same whatever folder a
command runs in (``vigueur db path`` prints it). PostgreSQL URLs (``postgresql://``, ``postgres://``) are
served through psycopg 3.
``VIGUEUR_VERSIONS_DIR``: the ``versions/`` tree loaded into an empty database (default: the repository's).
``VIGUEUR_CORS_ORIGINS``: the origins a browser may call the API from, separated by commas (``*`` for any);
unset or empty: CORS is off (no ``Access-Control-*`` header is ever sent).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DATABASE_FILE = "vigueur.db"
MAX_BODY_BYTES = 1_000_000
TIMEZONE = "Europe/Paris"  # « today » of the catalogue endpoints is the French legal day
DATABASE_URL_VARIABLES = ("VIGUEUR_DATABASE_URL", "DATABASE_URL")  # the first set one wins


def user_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user data directory of vigueur: XDG on Linux and BSD (or wherever XDG_DATA_HOME is set)."""
    env = os.environ if environ is None else environ
    if env.get("XDG_DATA_HOME") or not sys.platform.startswith(("darwin", "win")):
        base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "share")
        return Path(base) / "vigueur"
    import platformdirs

    return platformdirs.user_data_path("vigueur", appauthor=False)


def default_database_url(environ: Mapping[str, str] | None = None) -> str:
    return f"sqlite:///{user_data_dir(environ) / DATABASE_FILE}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What a process of the API needs to know about its environment."""

    database_url: str = ""
    versions_dir: Path | None = None
    cors_origins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.database_url:
            object.__setattr__(self, "database_url", default_database_url())

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        versions_dir = env.get("VIGUEUR_VERSIONS_DIR") or None
        url = next((env[name] for name in DATABASE_URL_VARIABLES if env.get(name)), None)
        return cls(
            database_url=normalize_database_url(url or default_database_url(env)),
            versions_dir=Path(versions_dir) if versions_dir else None,
            cors_origins=parse_origins(env.get("VIGUEUR_CORS_ORIGINS", "")),
        )


def get_settings() -> Settings:
    """The settings of this process, from the environment as it is now."""
    return Settings.from_env()


def parse_origins(value: str) -> tuple[str, ...]:
    """``https://a.example, https://b.example`` → the origins, without blanks and trailing slashes."""
    return tuple(o.strip().rstrip("/") for o in value.split(",") if o.strip())


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; None for another database or an in-memory one."""
    scheme, sep, rest = url.partition(":///")
    if not sep or not scheme.startswith("sqlite") or rest in ("", ":memory:") or rest.startswith(":memory:"):
        return None
    return Path(rest.split("?", 1)[0])


def create_data_dir(url: str, environ: Mapping[str, str] | None = None) -> None:
    """Create the user's data directory when ``url`` is the default database in it (SQLite does not)."""
    path = sqlite_path(url)
    if path is not None and path.parent == user_data_dir(environ):
        path.parent.mkdir(parents=True, exist_ok=True)


def normalize_database_url(url: str) -> str:
    """PostgreSQL URLs always go through psycopg 3 (``postgresql+psycopg://``)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def redact_database_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else f"{scheme}://{user}@{host}"
