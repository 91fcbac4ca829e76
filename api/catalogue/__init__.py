"""Catalogue: the ``versions/`` tree (loader, codec), the database store of versions, diffs."""

from pathlib import Path

DEFAULT_VERSIONS_DIR = Path(__file__).resolve().parents[2] / "versions"  # the repository's catalogue
