"""The operations probes' machinery, and a database without its tables answered as « no catalogue ».

``/healthz`` is async and touches nothing: it answers as long as the event loop turns. ``/readyz`` asks the
database in a thread pool of its own (never queued behind request work) and gives up after
``READY_TIMEOUT_SECONDS``: a database that hangs makes it 503, never slow.

Issue 10, defect 5: a server started before its database existed, then given an empty database, answered
500 ``relation "catalogue_load" does not exist`` forever. A missing table is now « no catalogue »: 503
« run `vigueur load` », and the next load is seen (api/catalogue/live.py).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from sqlalchemy import exc as sa_exc
from sqlmodel import Session

from api.catalogue import live, store

READY_TIMEOUT_SECONDS = 2.0
_PROBES = ThreadPoolExecutor(max_workers=2, thread_name_prefix="vigueur-probe")


def _readiness(session: Session, latest: live.LiveCatalogue) -> dict[str, Any]:
    known = latest.check(session)  # what the API serves, asked again: /readyz is never stale
    return {
        "status": "ready",
        "database": session.get_bind().dialect.name,
        "catalogue": {
            "load_id": known.load_id,
            "recorded_at": known.load.recorded_at.isoformat(),
            "tree_hash": known.load.tree_hash,
            "versions": len(known.catalogue.versions),
        },
    }


async def readiness(session: Session, latest: live.LiveCatalogue) -> dict[str, Any]:
    """What ``/readyz`` answers; raises what the problem handlers turn into 503s."""
    work = asyncio.get_running_loop().run_in_executor(_PROBES, _readiness, session, latest)
    try:
        return await asyncio.wait_for(work, READY_TIMEOUT_SECONDS)
    except TimeoutError:
        raise sa_exc.TimeoutError(f"the database did not answer within {READY_TIMEOUT_SECONDS} s") from None


def install(app: FastAPI) -> None:
    """After ``problems.install``: a missing table (SQLite, PostgreSQL) is « no catalogue », a 503."""
    unavailable = app.exception_handlers[sa_exc.OperationalError]
    bug = app.exception_handlers[Exception]
    not_loaded = app.exception_handlers[store.CatalogueNotLoaded]

    async def missing_table(request: Request, exc: Exception) -> Response:
        if live.is_missing_table(exc):
            return await not_loaded(request, store.CatalogueNotLoaded(str(exc)))  # type: ignore[no-any-return]
        handler = unavailable if isinstance(exc, sa_exc.OperationalError) else bug
        return await handler(request, exc)  # type: ignore[no-any-return]

    app.add_exception_handler(sa_exc.OperationalError, missing_table)
    app.add_exception_handler(sa_exc.ProgrammingError, missing_table)
