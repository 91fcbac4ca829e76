"""A correction (``POST /v1/admin/versions``) runs the stored case corpus and refuses to move cases silently.

The cases of the database (``api.case_store``) are computed with the catalogue before and after the
correction, inside the correction's transaction, by the logic of ``vigueur cases moved``
(:func:`api.case_moves.moved_cases`). A correction that moves cases is refused (409, each moved case with
its scheme, field, before and after) unless the request's ``accept_moves`` lists every moved case's id:
the reviewer has read them. Nothing is recorded on a refusal.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from api import store
from api.case_moves import Moved, moved_cases
from api.case_store import current_rows, to_case
from api.problems import ProblemError
from api.tables import LoadRow

PROBLEM_TYPE = "urn:vigueur:problem:correction-moves-cases"
PROBLEM_409: dict[str, Any] = {  # the OpenAPI example of the refusal (tests/api/test_writes.py gives it live)
    "type": PROBLEM_TYPE,
    "title": "Correction moves cases",
    "status": 409,
    "detail": "nothing was recorded: the correction moves 1 stored case(s), 1 not accepted; read them and list "
    "their ids in accept_moves to record it",
    "errors": [{"field": "accept_moves", "message": "case cap-2021-natural-person moves and is not accepted"}],
    "moved": [
        {
            "id": "cap-2021-natural-person",
            "changes": [{"scheme": "bonus", "field": "amount", "before": "6000.00", "after": "6300.00"}],
        }
    ],
}


def moves_of_correction(session: Session, report: store.LoadReport) -> list[Moved]:
    """The stored cases whose answer the just-recorded (uncommitted) correction moves."""
    if not report.changed:
        return []
    rows = current_rows(session)
    if not rows:
        return []
    loads = list(session.exec(select(LoadRow).order_by(col(LoadRow.id).desc()).limit(2)))
    if len(loads) < 2:  # pragma: no cover - a correction always follows a load
        return []
    before = store.rebuild_catalogue(session, loads[1])
    after = store.rebuild_catalogue(session)
    return moved_cases(before, after, [to_case(row) for row in rows])


def refuse_unaccepted(moved: list[Moved], accepted: list[str]) -> None:
    """Raise the 409 problem when a moved case is not in ``accepted``."""
    missing = [m.case.id for m in moved if m.case.id not in set(accepted)]
    if not missing:
        return
    raise ProblemError(
        409,
        "Correction moves cases",
        type_=PROBLEM_TYPE,
        detail=(
            f"nothing was recorded: the correction moves {len(moved)} stored case(s), "
            f"{len(missing)} not accepted; read them and list their ids in accept_moves to record it"
        ),
        errors=[
            {"field": "accept_moves", "message": f"case {case_id} moves and is not accepted"} for case_id in missing
        ],
        moved=[moved_json(m) for m in moved],
    )


def moved_json(moved: Moved) -> dict[str, Any]:
    """A moved case as the 409 lists it: id, and each change (scheme, field, before → after)."""
    return {
        "id": moved.case.id,
        "changes": [
            {"scheme": c.scheme, "field": c.field, "before": _plain(c.before), "after": _plain(c.after)}
            for c in moved.changes
        ],
    }


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, str | bool | int | float) else str(value)


__all__ = ["PROBLEM_TYPE", "moved_json", "moves_of_correction", "refuse_unaccepted"]
