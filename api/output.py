"""The one JSON serialization of the product (CLI and API alike), in a module of its own so that the
command line can print a document without importing the HTTP and validation layers."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from pydantic import BaseModel

# orjson writes what ``json.dumps(..., ensure_ascii=False, indent=2)`` writes (the same escapes, separators and
# indentation), 20-50 times faster (the standard library's C encoder is not used with ``indent``). Where the two
# could differ, the standard library writes instead: floats (the two spell some differently: json « 1e-05 »,
# orjson « 0.00001 »; a document holding one goes to json: a walk of a few microseconds), a type orjson would
# serialise and json refuses or writes otherwise (dates, dataclasses, str/int/dict/list subclasses: passed
# through, so orjson raises), integers beyond 64 bits and non-string keys (orjson raises). A plain Enum, which
# json refuses (a bug: 500), orjson writes by its value.
_ORJSON_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def as_json(model: BaseModel) -> Any:
    """A response model in its JSON form: fields in declaration order, dates ISO, aliases (« from »), None kept."""
    return model.model_dump(mode="json", by_alias=True)


def dumps(document: Any) -> str:
    """The one JSON serialization of the product (CLI and API alike): UTF-8, sorted as built, 2-space indent."""
    out = _orjson(document)
    return out.decode("utf-8") if out is not None else _json(document)


def dumps_bytes(document: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes (what an HTTP answer sends), without a round trip through ``str``."""
    out = _orjson(document)
    return out if out is not None else _json(document).encode("utf-8")


def _orjson(document: Any) -> bytes | None:
    if _has_float(document):
        return None
    try:
        return orjson.dumps(document, option=_ORJSON_OPTIONS) + b"\n"
    except TypeError:  # orjson.JSONEncodeError included
        return None


def _has_float(document: Any) -> bool:
    """A float anywhere in the dicts, lists and tuples of ``document`` (subclasses: orjson refuses them)."""
    stack = [document]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            stack.extend(node.values())
        elif kind is list or kind is tuple:
            stack.extend(node)
        elif kind is not str and isinstance(node, float):
            return True
    return False


def _json(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


__all__ = ["as_json", "dumps", "dumps_bytes"]
