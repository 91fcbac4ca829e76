"""The one JSON serialization of the product (CLI and API alike), in a module of its own so that the
command line can print a document without importing the HTTP and validation layers."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from pydantic import BaseModel

# orjson writes what ``json.dumps(..., ensure_ascii=False, indent=2)`` writes (the same escapes, separators and
# indentation), 20-50 times faster (the standard library's C encoder is not used with ``indent``). Where the two
# could differ, the standard library writes instead: a type orjson would serialise and json refuses or writes
# otherwise (dates, dataclasses, str/int/dict subclasses: passed through, so orjson raises), integers
# beyond 64 bits and non-string keys (orjson raises), and a float in exponent form (json writes « 1e-07 »,
# orjson « 1e-7 »: any digit-e-sign-digit in the output, even inside a string, sends the document to json).
# Non-finite floats are never in a document (json would write NaN, which is not JSON; orjson null), and a plain
# Enum, which json refuses (a bug: 500), orjson writes by its value.
_ORJSON_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
_EXPONENT = re.compile(rb"\de[-+]\d")


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
    try:
        out = orjson.dumps(document, option=_ORJSON_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError included
        return None
    return None if _has_exponent(out) else out + b"\n"


def _has_exponent(out: bytes) -> bool:
    """A digit, « e », a sign, a digit somewhere in ``out`` (what ``_EXPONENT`` matches; found with
    ``bytes.find``, which is many times faster than the regular expression on a few kilobytes)."""
    for marker in (b"e-", b"e+"):
        at = out.find(marker, 1)
        while at != -1:
            if _EXPONENT.match(out, at - 1) is not None:
                return True
            at = out.find(marker, at + 1)
    return False


def _json(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


__all__ = ["as_json", "dumps", "dumps_bytes"]
