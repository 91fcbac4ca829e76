"""The one JSON serialization of the product (CLI and API alike), in a module of its own so that the
command line can print a document without importing the HTTP and validation layers."""

from __future__ import annotations

import json
from typing import Any


def dumps(document: Any) -> str:
    """The one JSON serialization of the product (CLI and API alike): UTF-8, sorted as built, 2-space indent."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


__all__ = ["dumps"]
