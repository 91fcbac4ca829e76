"""Which stored cases a correction of the catalogue moves (``POST /v1/admin/versions``).

The cases of the database (:mod:`api.cases.store`) are computed with the catalogue before and after the
correction, inside the correction's transaction, by the logic of ``vigueur cases moved``
(:func:`api.cases.moves.moved_cases`). The HTTP route refuses (409) a correction that moves a case its
request's ``accept_moves`` does not list; nothing is recorded then.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from api.cases.moves import Moved, moved_cases
from api.cases.store import current_rows, to_case
from api.catalogue import store
from api.catalogue.tables import LoadRow


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


def not_accepted(moved: list[Moved], accepted: list[str]) -> list[str]:
    """The ids of the moved cases that ``accepted`` does not list."""
    listed = set(accepted)
    return [m.case.id for m in moved if m.case.id not in listed]


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


__all__ = ["moved_json", "moves_of_correction", "not_accepted"]
