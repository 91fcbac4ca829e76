"""The OpenAPI examples of the HTTP routes: JSON files written from live answers by
``python -m api.http.examples.generate`` (never by hand), loaded here."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@cache
def _read(name: str) -> str:
    return (HERE / f"{name}.json").read_text(encoding="utf-8")


def load(name: str) -> Any:
    """The example ``<name>.json``, a fresh copy (callers may not share one mutable document)."""
    return json.loads(_read(name))


def names(prefix: str) -> list[str]:
    """The examples whose name starts with ``prefix``, in name order."""
    return sorted(p.stem for p in HERE.glob(f"{prefix}*.json"))


__all__ = ["load", "names"]
