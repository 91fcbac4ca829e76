"""Knowledge time and audit: a version's revisions, receipts and their replay, corrections (admin only).

Nothing here, nor anywhere in the API, updates or deletes a row: a correction is recorded as a new
revision that supersedes the current one; a receipt is written once by ``POST /v1/calculate?receipt=true``
and never changed; a replay recomputes and records nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from fastapi.responses import Response
from pydantic import ValidationError
from sqlmodel import col, select

from api.audit import receipts
from api.cases.corrections import moved_json, moves_of_correction, not_accepted
from api.cases.moves import Moved
from api.catalogue import store
from api.catalogue.diff import diff_versions
from api.catalogue.tables import LoadRow, VersionRow
from api.http import openapi as docs
from api.http.auth import require_admin
from api.http.deps import BodyDep, KnownAtDep, LiveDep, NowDep, SessionDep
from api.http.problems import ProblemError
from api.http.public.catalogue import AdminVersionIn
from api.http.routes.purchase import VersionPath
from api.purchase.request import field_error, json_response
from legislation import Version
from legislation.errors import CatalogueError, UnknownVersion

router = APIRouter()
MOVES_PROBLEM = "urn:vigueur:problem:correction-moves-cases"
SUMMARY_CHARS = 160

ReceiptPath = Annotated[
    str,
    Path(
        max_length=64,
        description="A receipt id (32 hexadecimal digits), as given by POST /v1/calculate?receipt=true.",
        examples=["0f1e2d3c4b5a69788796a5b4c3d2e1f0"],
    ),
]


_json = json_response


@router.get(
    "/v1/versions/{version_id}/revisions",
    tags=["catalogue"],
    summary="A version's revisions in knowledge time, and what changed",
    responses=docs.responses("RevisionsOut", 404, 422),
)
def revisions(version_id: VersionPath, session: SessionDep, known_at: KnownAtDep) -> Response:
    """Every revision of the version the catalogue recorded (up to ``known_at``), oldest first: when it was
    recorded and superseded, by which load, and what changed from the previous revision (fields, text diff
    summary, numbers). A version removed from the catalogue keeps its history here."""
    load = store.load_known_at(session, known_at)
    rows = store.version_revisions(session, version_id, until=load.recorded_at)
    if not rows:
        raise UnknownVersion(version_id)
    load_ids = {r.load_id for r in rows} | {r.superseded_by_load_id for r in rows if r.superseded_by_load_id}
    loads = {row.id: row for row in session.exec(select(LoadRow).where(col(LoadRow.id).in_(load_ids)))}
    out = []
    previous: tuple[VersionRow, Version] | None = None
    for row in rows:
        version = store.rebuild_revision(session, row.revision_id or 0)
        closed = row.superseded_at is not None and row.superseded_at <= load.recorded_at
        successor = closed and any(r.recorded_at == row.superseded_at for r in rows)
        out.append(
            {
                "revision_id": row.revision_id,
                "version_hash": row.content_hash,
                "recorded_at": row.recorded_at.isoformat(),
                "superseded_at": row.superseded_at.isoformat() if closed and row.superseded_at else None,
                "current": not closed,
                "removed": closed and not successor,
                "recorded_by": _load(loads[row.load_id]),
                "superseded_by": _load(loads[row.superseded_by_load_id])
                if closed and row.superseded_by_load_id
                else None,
                "valid_from": version.valid_from.isoformat(),
                "valid_until": version.valid_until.isoformat() if version.valid_until else None,
                "changes": _changes(*previous, version) if previous else None,
            }
        )
        previous = (row, version)
    return _json(
        {
            "version_id": version_id,
            "known_at": known_at.isoformat() if known_at else None,
            "revisions": out,
        }
    )


def _load(row: LoadRow) -> dict[str, Any]:
    return {"load_id": row.id, "recorded_at": row.recorded_at.isoformat(), "origin": row.origin}


def _changes(before_row: VersionRow, before: Version, after: Version) -> dict[str, Any]:
    diff = diff_versions(before, after)
    fields = (["text"] if not diff["identical_text"] else []) + [f"parameters.{p['name']}" for p in diff["parameters"]]
    fields += [m["field"] for m in diff["metadata"]]
    summary = [
        _short(f"text, {c['paragraph'] or 'line ' + str(c['line'])}: « {c['from'] or ''} » → « {c['to'] or ''} »")
        for c in diff["changes"]
    ]
    summary += [f"parameters.{p['name']} ({p['paragraph']}): {p['from']} → {p['to']}" for p in diff["parameters"]]
    summary += [_short(f"{m['field']}: {m['from']!r} → {m['to']!r}") for m in diff["metadata"]]
    return {
        "from_revision_id": before_row.revision_id,
        "fields": fields,
        "summary": summary,
        "identical_text": diff["identical_text"],
        "unified_diff": diff["unified_diff"],
        "changes": diff["changes"],
        "parameters": diff["parameters"],
        "metadata": diff["metadata"],
    }


def _short(line: str) -> str:
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1] + "…"


@router.get(
    "/v1/receipts/{receipt_id}",
    tags=["audit"],
    summary="A receipt: the request, the response, the revisions used, the knowledge instant",
    responses=docs.responses("ReceiptOut", 404, 422),
)
def get_receipt(receipt_id: ReceiptPath, session: SessionDep) -> Response:
    """The receipt as it was recorded (it never changes): request and response (the response is the body
    that was answered; ``response_hash`` is the sha256 of its bytes), the catalogue load known then (tree
    hash), and each revision used with its id and hash."""
    return _json(receipts.document(session, receipts.get(session, receipt_id)))


@router.post(
    "/v1/receipts/{receipt_id}/replay",
    tags=["audit"],
    summary="Recompute a receipt: with the same revisions, and with today's catalogue",
    responses=docs.responses("ReplayOut", 404, 422),
)
def replay_receipt(receipt_id: ReceiptPath, session: SessionDep, now: NowDep) -> Response:
    """Recomputes the receipt's request twice: with the catalogue as it was known then (every revision
    rebuilt from the store by id and verified by its hash) and with the latest knowledge; each run says
    whether it is byte for byte the receipt's response and lists the fields that differ. Records nothing."""
    return _json(receipts.replay(session, receipts.get(session, receipt_id), now=now))


@router.post(
    "/v1/admin/versions",
    tags=["admin"],
    summary="Record a correction of a version (bearer token)",
    status_code=201,
    dependencies=[Depends(require_admin)],
    responses=docs.admin_responses(),
    openapi_extra=docs.admin_request_body(),
)
def record_version(body: BodyDep, session: SessionDep, now: NowDep, latest: LiveDep) -> Response:
    """A version folder's two files as JSON (``version_toml``, ``text``) and the ``reason``: validated by
    the loader's strict rules and against the catalogue as recorded (overlaps per article and per scheme,
    declared gaps), then recorded as a new revision that supersedes the current one — never an update.
    Each parameter's value must be written in its quote (422 naming ``version_toml.parameters.<name>.value``).
    The stored case corpus is run before and after: a correction that moves cases is refused (409, the moved
    cases listed: id, scheme, field, before → after) unless ``accept_moves`` lists every moved case's id.
    201 with what was recorded; 200 when it equals the current revision (nothing written)."""
    try:
        given = AdminVersionIn.model_validate_json(body)
    except ValidationError as exc:
        errors = [field_error(e) for e in exc.errors(include_url=False)]
        raise ProblemError(422, "Invalid request", errors=errors) from None
    try:
        version = store.version_from_files(given.version_toml, given.text)
        report = store.record_correction(session, version, origin=f"POST /v1/admin/versions: {given.reason}", now=now)
        _refuse_unaccepted_moves(moves_of_correction(session, report), given.accept_moves)
    except CatalogueError as exc:
        session.rollback()
        raise _refused(exc) from None
    except BaseException:
        session.rollback()
        raise
    session.commit()
    latest.invalidate()  # this process serves the correction at once (the others within a check interval)
    doc = report.to_json(unchanged=False)
    if not report.changed:
        return _json(doc, 200)
    return _json(doc, 201, {"Location": f"/v1/versions/{version.id}/revisions"})


def _refuse_unaccepted_moves(moved: list[Moved], accepted: list[str]) -> None:
    """409 when the correction moves a stored case that ``accept_moves`` does not list (nothing recorded)."""
    if missing := not_accepted(moved, accepted):
        raise ProblemError(
            409,
            "Correction moves cases",
            type_=MOVES_PROBLEM,
            detail=(
                f"nothing was recorded: the correction moves {len(moved)} stored case(s), "
                f"{len(missing)} not accepted; read them and list their ids in accept_moves to record it"
            ),
            errors=[{"field": "accept_moves", "message": f"case {i} moves and is not accepted"} for i in missing],
            moved=[moved_json(m) for m in moved],
        )


def _refused(exc: CatalogueError) -> ProblemError:
    reason = str(exc).split(f"{exc.path}: {exc.field}: ", 1)[-1]
    field = "version_toml" if exc.field == "-" or exc.path.endswith("catalogue.toml") else f"version_toml.{exc.field}"
    return ProblemError(
        422,
        "Correction refused",
        type_="urn:vigueur:problem:correction-refused",
        detail=f"nothing was recorded: {reason}",
        errors=[{"field": field, "message": reason}],
    )
