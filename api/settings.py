"""Settings of the API and of the store, read from the environment when asked (never at import time).

``DATABASE_URL``: where the catalogue is stored. Default: the embedded SQLite file ``./vigueur.db``.
PostgreSQL URLs (``postgresql://``, ``postgres://``) are served through psycopg 3.
``VIGUEUR_VERSIONS_DIR``: the ``versions/`` tree loaded into an empty database (default: the repository's).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite:///./vigueur.db"
MAX_BODY_BYTES = 1_000_000
TIMEZONE = "Europe/Paris"  # « today » of the catalogue endpoints is the French legal day


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What a process of the API needs to know about its environment."""

    database_url: str = DEFAULT_DATABASE_URL
    versions_dir: Path | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        versions_dir = env.get("VIGUEUR_VERSIONS_DIR") or None
        return cls(
            database_url=normalize_database_url(env.get("DATABASE_URL") or DEFAULT_DATABASE_URL),
            versions_dir=Path(versions_dir) if versions_dir else None,
        )


def get_settings() -> Settings:
    """The settings of this process, from the environment as it is now."""
    return Settings.from_env()


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
