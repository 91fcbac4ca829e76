"""What the JSON contract refuses before its models see a document: duplicate keys; what it forgives: a BOM.

Python's and pydantic's JSON readers keep the last of two equal keys (« last wins »): a request holding
``"invoice_date"`` twice would be computed with one of them, silently. The contract refuses it (422 naming
the key by its path). A leading byte-order mark is accepted, as in a CSV input (both written by common
spreadsheet and text tools; RFC 8259 lets a reader ignore it); anywhere else it is a character like another.
"""

from __future__ import annotations

import json
from typing import Any

BOM = "\ufeff"
_BOM_BYTES = BOM.encode("utf-8")


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as read, its pairs in order, duplicates kept."""


class _Duplicate(Exception):
    """A key given twice somewhere: the document is read again to name each one by its path."""


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Duplicate
    return found


def without_bom(raw: str | bytes) -> str | bytes:
    """``raw`` without its leading byte-order mark, if any."""
    if isinstance(raw, bytes):
        return raw[len(_BOM_BYTES) :] if raw.startswith(_BOM_BYTES) else raw
    return raw[1:] if raw.startswith(BOM) else raw


def duplicate_keys(raw: str | bytes) -> list[dict[str, str]]:
    """One error per key given twice in an object, named by its path (« vehicle.energy »); [] when none, or
    when ``raw`` is not JSON (the contract's reader says why)."""
    try:
        json.loads(raw, object_pairs_hook=_refuse_duplicates)  # the common case, quickly: no key given twice
        return []
    except _Duplicate:
        pass
    except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep: reported by the model's reader
        return []
    document = json.loads(raw, object_pairs_hook=_Pairs)
    errors: list[dict[str, str]] = []
    _walk(document, "", errors)
    return errors


def _walk(node: Any, path: str, errors: list[dict[str, str]]) -> None:
    if isinstance(node, _Pairs):
        seen: set[str] = set()
        for key, value in node:
            where = f"{path}.{key}" if path else key
            if key in seen:
                errors.append({"field": where, "message": "given twice in the same object (duplicate key)"})
            seen.add(key)
            _walk(value, where, errors)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            _walk(item, f"{path}.{index}" if path else str(index), errors)
