"""The one table of problem types (RFC 9457 ``type``) of the product, used by the API and the CLI alike.

A problem whose status says it all (a request that does not validate: 422) keeps ``about:blank``; every
other kind is named ``urn:vigueur:problem:<name>`` by this table, so that ``vigueur`` on standard error and
the API's ``application/problem+json`` body carry the same ``type`` for the same problem.
"""

from __future__ import annotations

from typing import Any

URN = "urn:vigueur:problem:"
BLANK = "about:blank"

PROBLEM_TYPES: dict[str, str] = {
    "unknown-version": "no version with that id on file",
    "no-version-on-file": "no version of the scheme's amounts on file for the date (declared_gap says why)",
    "different-articles": "a diff between versions of two articles",
    "catalogue-not-loaded": "the database holds no catalogue: run `vigueur load`",
    "database-unavailable": "cannot connect to the database",
    "nothing-known-then": "known_at is before the first load: the catalogue held nothing then",
    "unknown-receipt": "no receipt with that id",
    "store-integrity": "rows of the store no longer rebuild into what was recorded",
    "history-unavailable": "`vigueur load --history` needs git and the repository's .git folder",
    "bug": "an unexpected error of vigueur",
    "invalid-case-file": "a regression case file does not parse",
    "stored-case-invalid": "a stored regression case no longer validates",
    "no-case": "no stored regression case matches",
    "unknown-case": "no stored regression case with that id",
    "concurrent-import": "another import of cases ran at the same time",
    "too-many-bytes": "a batch body over its size limit",
    "too-many-rows": "a batch body over its row limit",
}


def problem_type(name: str) -> str:
    """The URN of a problem kind of the table (a name not in the table is a bug)."""
    if name not in PROBLEM_TYPES:
        raise KeyError(f"{name!r} is not a problem type of api/problem_types.py")
    return URN + name


def problem(
    status: int,
    title: str,
    *,
    type_: str = BLANK,
    detail: str | None = None,
    errors: list[dict[str, str]] | None = None,
    **extensions: Any,
) -> dict[str, Any]:
    """A problem document; its keys are in the order both the CLI and the API print them (type, title, …)."""
    doc: dict[str, Any] = {"type": type_, "title": title, "status": status}
    if detail is not None:
        doc["detail"] = detail
    if errors is not None:
        doc["errors"] = errors
    return doc | extensions


__all__ = ["BLANK", "PROBLEM_TYPES", "URN", "problem", "problem_type"]
