"""A regression case file (``tests/regression/*.yaml``, parsed by :mod:`api.cases.files`) as pydantic models.

Published as a JSON Schema for editors: ``vigueur schema --cases`` and ``tests/regression/cases.schema.json``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from api.catalogue.schema import Text, published
from api.purchase.request import CalculationRequest
from legislation.enums import Scheme

_CLOSED = ConfigDict(extra="forbid", use_attribute_docstrings=True)



class CaseSourceFile(BaseModel):
    """Where the case's answer comes from."""

    model_config = _CLOSED
    paragraph: Text
    """The « article » and « alinéa »: « C. énergie, art. D. 251-7, 1° »."""
    url: Annotated[StrictStr, Field(pattern=r"^https?://")] | None = None
    """A link to the text (http or https)."""


Amount = Annotated[str | float | int | None, Field(description="Euros with two decimals (\"7000.00\"); null: none.")]


class ExpectedFile(BaseModel):
    """What one scheme of the case must give."""

    model_config = _CLOSED
    amount: Amount
    """The « montant de l'aide », or null where the answer has none."""
    eligible: bool | None
    """Whether the aid is due, or null where the answer has none."""
    version_id: str | None
    """The version in force that gave the answer, or null (no version on file)."""
    status: (
        Literal[
            "computed",
            "missing_facts",
            "no_version_on_file",
            "kept_version_not_on_file",
            "not_covered_on_file",
            "ended",
        ]
        | None
    ) = None
    """Checked only when given."""
    kept_by: str | None = None
    """The « disposition transitoire » whose kept version gave the amount."""
    missing_facts: list[str] | None = None
    """The facts the text needs and the request does not give."""


class CaseFile(BaseModel):
    """One regression case: a request, and what the text gives for it."""

    model_config = _CLOSED
    id: Text
    """Unique across every file run together."""
    title: Text
    """What the case shows."""
    source: CaseSourceFile
    """The paragraph of the text the answer comes from."""
    request: CalculationRequest
    """The request of `vigueur calculate` / POST /v1/calculate."""
    expected: dict[Scheme, ExpectedFile]
    """Per scheme the request computes (exactly those), what it must give."""
    tolerance: str | float | int | None = None
    """Euros of tolerance on the amount (default 0)."""
    notes: Text
    """The arithmetic, from the text."""


class CaseFileDocument(BaseModel):
    """A regression case file (YAML or JSON): its cases."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, title="regression case file")
    cases: list[CaseFile]
    """The cases, each with a unique id."""


def cases_schema() -> dict[str, Any]:
    """The JSON Schema of a regression case file."""
    return published(CaseFileDocument.model_json_schema(), "cases.schema.json")


__all__ = ["CaseFileDocument", "cases_schema"]
