"""The contract of the catalogue endpoints and of the problem documents, as models (OpenAPI and tests).

Routes build plain dicts and serialize them with :func:`api.purchase.request.dumps`; the tests check every
answer against these models, and the OpenAPI document shows them with their examples.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.catalogue.models import (  # noqa: F401 - re-exported: the public contract in one place
    CoverageOut,
    FactsOut,
    GapOut,
    InForceOut,
    ParameterOut,
    SchemeOut,
    SchemesOut,
    SegmentOut,
    TimelineOut,
    VersionOut,
    VersionSummaryOut,
)
from api.http import examples
from api.purchase.models import VersionRefOut

_CLOSED = ConfigDict(extra="forbid")
SchemeName = Literal["bonus", "conversion_premium"]


def _example(doc: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": [doc]})


class FieldError(BaseModel):
    model_config = _CLOSED
    field: str = Field(
        description="Path of the failing field: « vehicle.acquisition_cost », « on », « (body) »."
    )
    message: str


class Problem(BaseModel):
    """An RFC 9457 problem document (``application/problem+json``)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [examples.load("problem_422")]})
    type: str = Field(
        description="A URI naming the kind of problem; « about:blank » when the status says it all."
    )
    title: str
    status: int
    detail: str | None = None
    errors: list[FieldError] | None = Field(None, description="One entry per failing field of the request.")


class NearestVersionsOut(BaseModel):
    model_config = _CLOSED
    before: VersionRefOut | None
    after: VersionRefOut | None



class NoVersionProblem(Problem):
    """404 of ``in-force``: no version of the scheme's amounts on file for the date."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [examples.load("problem_no_version")]})
    scheme: SchemeName
    on: date
    declared_gap: GapOut | None = Field(description="The declared gap the date falls in, with its reason.")
    nearest_versions: NearestVersionsOut












class DiffRefOut(VersionRefOut):
    version_hash: str


class WordSegmentOut(BaseModel):
    model_config = _CLOSED
    op: Literal["equal", "replace", "delete", "insert"]
    text: str | None = Field(None, description="equal: the common words.")
    from_: str | None = Field(None, alias="from", description="replace/delete: the old words.")
    to: str | None = Field(None, description="replace/insert: the new words.")


class ChangeOut(BaseModel):
    model_config = _CLOSED
    op: Literal["replace", "delete", "insert"]
    from_: str | None = Field(alias="from")
    to: str | None
    context_before: str
    context_after: str
    line: int = Field(description="Line of the new text where the change is.")
    paragraph: str | None = Field(description="The paragraph mark that starts that line (« 1° », « a) »).")


class ParameterChangeOut(BaseModel):
    model_config = _CLOSED
    name: str
    from_: str | None = Field(alias="from")
    to: str | None
    paragraph: str
    notion: str | None = Field(None, description="Across a codification: the notion both names mean.")
    from_name: str | None = Field(None, description="The parameter's name in the first version, when it differs.")


class CodificationOut(BaseModel):
    model_config = _CLOSED
    from_article: str = Field(description="The article of the first version: « decret-2014-1672-art3 ».")
    to_article: str = Field(description="The article of the second version, its codification: « D251-7 ».")
    from_citation: str = Field(description="How the first article is cited.")
    to_citation: str = Field(description="How the second article is cited.")


class MetadataChangeOut(BaseModel):
    model_config = _CLOSED
    field: str
    from_: object = Field(alias="from")
    to: object


class DiffOut(BaseModel):
    model_config = _example(examples.load("diff"))
    article: str
    citation: str
    from_: DiffRefOut = Field(alias="from")
    to: DiffRefOut
    codification: CodificationOut | None = Field(
        None,
        description="Two articles of the same scheme and role (décret 2014-1672 art. 3 → C. énergie D. 251-7); "
        "null for two versions of one article.",
    )
    identical_text: bool = Field(description="The same words (pure whitespace changes are not changes).")
    unified_diff: str
    changes: list[ChangeOut] = Field(
        description="Each changed run of words, with context: « 7 000 » → « 6 000 »."
    )
    words: list[WordSegmentOut] = Field(description="The whole text as equal / changed segments.")
    parameters: list[ParameterChangeOut]
    metadata: list[MetadataChangeOut]


class HealthOut(BaseModel):
    model_config = _example({"status": "ok"})
    status: Literal["ok"]


class LoadedOut(BaseModel):
    model_config = _CLOSED
    load_id: int
    recorded_at: datetime
    tree_hash: str
    versions: int


class ReadyOut(BaseModel):
    model_config = _example(examples.load("ready"))
    status: Literal["ready"]
    database: str = Field(description="The database backend: sqlite or postgresql.")
    catalogue: LoadedOut


# -- knowledge time and audit ---------------------------------------------------------------------


class LoadRefOut(BaseModel):
    model_config = _CLOSED
    load_id: int
    recorded_at: datetime
    origin: str = Field(description="What was recorded: the tree loaded, or the correction and its reason.")


class RevisionChangesOut(BaseModel):
    model_config = _CLOSED
    from_revision_id: int = Field(description="The revision this one superseded.")
    fields: list[str] = Field(
        description="What changed: « text », « parameters.<name> », and metadata fields (« valid_until », …)."
    )
    summary: list[str] = Field(description="One line per change, readable: « « 6 000 » → « 6 300 » (2°) ».")
    identical_text: bool
    unified_diff: str
    changes: list[ChangeOut]
    parameters: list[ParameterChangeOut]
    metadata: list[MetadataChangeOut]


class RevisionOut(BaseModel):
    model_config = _CLOSED
    revision_id: int
    version_hash: str
    recorded_at: datetime = Field(description="Knowledge time: from when the catalogue held this revision.")
    superseded_at: datetime | None = Field(
        description="Knowledge time: until when (exclusive); null = still the latest knowledge (at known_at)."
    )
    current: bool
    removed: bool = Field(description="Superseded with no successor: the version left the catalogue.")
    recorded_by: LoadRefOut
    superseded_by: LoadRefOut | None
    valid_from: date
    valid_until: date | None
    changes: RevisionChangesOut | None = Field(
        description="What differs from the previous revision (null: the first)."
    )


class RevisionsOut(BaseModel):
    model_config = _example(examples.load("revisions"))
    version_id: str
    known_at: datetime | None = Field(description="The knowledge instant asked; null: the latest knowledge.")
    revisions: list[RevisionOut] = Field(description="Oldest first.")


class CatalogueRefOut(BaseModel):
    model_config = _CLOSED
    load_id: int
    recorded_at: datetime
    tree_hash: str = Field(
        description="Fingerprint of the whole catalogue left by that load (versions and gaps)."
    )


class UsedRevisionOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    revision_id: int
    version_hash: str
    verified: bool | None = Field(
        None, description="Replay: rebuilt by revision id and found with this hash."
    )


class ReceiptOut(BaseModel):
    model_config = _example(examples.load("receipt"))
    receipt_id: str
    created_at: datetime
    known_at: datetime = Field(
        description="The knowledge instant of the calculation (known_at asked, else its instant)."
    )
    catalogue: CatalogueRefOut
    revisions: list[UsedRevisionOut] = Field(
        description="The revisions used: versions cited or compared, kept by an open clause, "
        "and what they rely on."
    )
    request_hash: str
    response_hash: str = Field(description="sha256 of the response body as it was answered, byte for byte.")
    software_version: str = Field(description="The package version (pyproject.toml) that computed it.")
    code_commit: str | None = Field(
        description="git commit of the code that computed it (« +dirty »: with uncommitted changes; « unknown » "
        "without git; null for receipts kept before it was recorded)."
    )
    catalogue_commit: str | None = Field(description="The last git commit of versions/ when it was computed.")
    request: dict[str, Any]
    response: dict[str, Any]
    links: dict[str, str]


class ReplayRunOut(BaseModel):
    model_config = _CLOSED
    known_at: datetime
    catalogue: CatalogueRefOut
    revisions: list[UsedRevisionOut]
    total_amount: str | None
    response_hash: str
    identical_to_receipt: bool = Field(description="The response is byte for byte the one of the receipt.")
    differences: list[dict[str, Any]] = Field(
        description="Each field that differs from the receipt's response: {path, from, to}."
    )
    response: dict[str, Any]


class ReplayReceiptOut(BaseModel):
    model_config = _CLOSED
    known_at: datetime
    catalogue: CatalogueRefOut
    total_amount: str | None
    response_hash: str
    software_version: str


class ReplayOut(BaseModel):
    model_config = _example(examples.load("replay"))
    receipt_id: str
    replayed_at: datetime
    receipt: ReplayReceiptOut
    same_revisions: ReplayRunOut = Field(
        description="Recomputed with the revisions of the receipt, verified by hash."
    )
    today: ReplayRunOut = Field(description="Recomputed with the latest knowledge.")
    today_differs: bool
    links: dict[str, str]


class AdminVersionIn(BaseModel):
    """A correction: the two files of a version folder, and why."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [examples.load("admin_version_in")]},
    )
    version_toml: str = Field(
        min_length=1,
        max_length=200_000,
        description="The content of the folder's version.toml (its id names the version).",
    )
    text: str = Field(
        min_length=1, max_length=1_000_000, description="The content of text.txt: the verbatim wording."
    )
    reason: str = Field(
        min_length=1, max_length=1000, description="Why: recorded with the load (its origin)."
    )
    accept_moves: list[str] = Field(
        default_factory=list,
        max_length=10_000,
        description=(
            "The ids of the stored regression cases this correction is accepted to move. The stored case corpus "
            "is run with the catalogue before and after the correction; if a case's answer moves (amount, "
            "eligible, version, status, paragraph, kept_by) and its id is not listed here, the correction is "
            "refused with 409 and the moved cases (id, scheme, field, before → after). Default: none accepted."
        ),
    )


class VersionChangeOut(BaseModel):
    model_config = _CLOSED
    version_id: str
    change: Literal["added", "superseded", "removed", "unchanged"]
    old_hash: str | None
    new_hash: str | None


class LoadReportOut(BaseModel):
    model_config = _example(examples.load("correction"))
    origin: str
    changed: bool
    load_id: int | None
    recorded_at: datetime | None
    tree_hash: str
    counts: dict[str, int]
    versions: list[VersionChangeOut]
