"""The one JSON serialization of the product (CLI and API alike), in a module of its own so that the
command line can print a document without importing the HTTP and validation layers."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel


def as_json(model: BaseModel) -> Any:
    """A response model in its JSON form: fields in declaration order, dates ISO, aliases (« from »), None kept."""
    return model.model_dump(mode="json", by_alias=True)


def dumps(document: Any) -> str:
    """The one JSON serialization of the product (CLI and API alike): UTF-8, sorted as built, 2-space indent."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


__all__ = ["as_json", "dumps"]
