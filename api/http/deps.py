"""Dependencies of the routes: a database session per request, the catalogue (as known now or at
``known_at``), the clock, today, the raw JSON body.

Every dependency is ``async def`` (issue 15): FastAPI runs a plain ``def`` dependency in AnyIO's thread pool,
and those hops were a third of a request's CPU time. None of them blocks: the catalogue comes from memory
(api/catalogue/live.py), and what reads the database goes to a thread itself."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api.catalogue import live, store
from api.http.problems import ProblemError
from api.settings import MAX_BODY_BYTES, TIMEZONE
from legislation import Catalogue

JSON_TYPES = ("application/json",)


async def get_engine(request: Request) -> Engine:
    engine: Engine | None = getattr(request.app.state, "engine", None)
    if engine is None:  # pragma: no cover - the lifespan always sets it
        raise RuntimeError("the application was started without its lifespan (no database engine)")
    return engine


async def get_session(engine: Annotated[Engine, Depends(get_engine)]) -> AsyncIterator[Session]:
    """A session per request; made and closed without a thread of the request pool (see api/catalogue/live.py)."""
    session = Session(engine)
    try:
        yield session
    finally:
        await live.close_session(session)


SessionDep = Annotated[Session, Depends(get_session)]


async def get_now() -> datetime:
    """The instant of the request (UTC): « now » of knowledge time. Tests freeze it."""
    return datetime.now(UTC)


NowDep = Annotated[datetime, Depends(get_now)]
KNOWN_AT_EXAMPLE = "2021-03-02T10:00:00+01:00"
_SPACE_FOR_PLUS = re.compile(r"^(.*\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}(?::?\d{2})?)$")


def parse_known_at(value: str, now: datetime) -> datetime:
    """An ISO 8601 instant with its offset; 422 naming ``known_at`` when naive, malformed, out of range or to come.

    A « + » of the offset sent unencoded in a query string arrives as a space: it is read as the « + ».
    """
    text = value.strip()
    fixed = _SPACE_FOR_PLUS.match(text)
    if fixed:
        text = f"{fixed.group(1)}+{fixed.group(2)}"
    try:
        instant = datetime.fromisoformat(text)
    except ValueError:
        raise _known_at_error(
            f"{value!r} is not an ISO 8601 instant such as {KNOWN_AT_EXAMPLE} or 2021-03-02T09:00:00Z"
        ) from None
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise _known_at_error(
            f"{value!r} has no timezone: an instant needs its offset ({KNOWN_AT_EXAMPLE}, or Z for UTC)"
        )
    try:
        instant = instant.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+00:01, 9999-12-31T23:59-01:00: no such instant in UTC
        raise _known_at_error(
            f"{value!r} is out of the range of instants (years 1 to 9999, in UTC): {KNOWN_AT_EXAMPLE}, say"
        ) from None
    if instant > now:
        raise _known_at_error(
            f"{value!r} is later than now ({now.isoformat()}): the catalogue cannot say what it will know"
        )
    return instant


def _known_at_error(message: str) -> ProblemError:
    return ProblemError(422, "Invalid request", errors=[{"field": "known_at", "message": message}])


async def get_known_at(
    now: NowDep,
    known_at: Annotated[
        str | None,
        Query(
            max_length=64,
            description="Knowledge time: answer as the catalogue stood at this instant (ISO 8601 with its "
            "offset, e.g. 2021-03-02T10:00:00+01:00 or …Z; URL-encode « + » as %2B). Default: the latest "
            "knowledge. Before the first load: 404. An instant later than now is refused (422).",
            examples=[KNOWN_AT_EXAMPLE],
            json_schema_extra={"format": "date-time"},
        ),
    ] = None,
) -> datetime | None:
    return parse_known_at(known_at, now) if known_at is not None else None


KnownAtDep = Annotated[datetime | None, Depends(get_known_at)]


async def get_live(request: Request) -> live.LiveCatalogue:
    latest: live.LiveCatalogue = request.app.state.live
    return latest


LiveDep = Annotated[live.LiveCatalogue, Depends(get_live)]


async def get_known(session: SessionDep, known_at: KnownAtDep, latest: LiveDep) -> store.KnownCatalogue:
    """The catalogue as known at ``known_at`` (default: the latest knowledge, from memory), with its load."""
    if known_at is None:
        return await latest.latest(session)
    return await run_in_threadpool(live.read_known_at, session, known_at)


KnownDep = Annotated[store.KnownCatalogue, Depends(get_known)]


async def get_catalogue(session: SessionDep, latest: LiveDep) -> Catalogue:
    """The latest catalogue (no ``known_at``), from memory."""
    return (await latest.latest(session)).catalogue


CatalogueDep = Annotated[Catalogue, Depends(get_catalogue)]


def known_headers(known: store.KnownCatalogue, now: datetime) -> dict[str, str]:
    """Which knowledge answered: the instant asked (or now) and the catalogue load behind the answer."""
    return {
        "X-Vigueur-Known-At": (known.known_at or now).isoformat(),
        "X-Vigueur-Catalogue-Load": str(known.load_id),
        "X-Vigueur-Catalogue-Recorded-At": known.load.recorded_at.isoformat(),
        "X-Vigueur-Catalogue-Tree-Hash": known.load.tree_hash,
    }


def get_today() -> date:
    """Today in Europe/Paris: the day of the French legal calendar, whatever the server's timezone."""
    return datetime.now(UTC).astimezone(ZoneInfo(TIMEZONE)).date()


async def today() -> date:
    return get_today()


TodayDep = Annotated[date, Depends(today)]


async def json_body(request: Request) -> bytes:
    """The request's raw JSON body (at most ``MAX_BODY_BYTES``), for :func:`api.purchase.request.parse_request`."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type not in JSON_TYPES and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        raise ProblemError(
            415,
            "Unsupported Media Type",
            detail="send the request as JSON with the header « Content-Type: application/json »",
            errors=[{"field": "(body)", "message": f"content type {media_type or '(none)'!r} is not JSON"}],
        )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise _too_large()
    return bytes(body)


def _too_large() -> ProblemError:
    return ProblemError(
        413,
        "Content Too Large",
        detail=f"a request is at most {MAX_BODY_BYTES} bytes",
        errors=[{"field": "(body)", "message": "too large"}],
    )


BodyDep = Annotated[bytes, Depends(json_body)]
