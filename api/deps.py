"""Dependencies of the routes: a database session per request, the catalogue, today, the raw JSON body."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api import store
from api.problems import ProblemError
from api.settings import MAX_BODY_BYTES, TIMEZONE
from legislation import Catalogue

JSON_TYPES = ("application/json",)


def get_engine(request: Request) -> Engine:
    engine: Engine | None = getattr(request.app.state, "engine", None)
    if engine is None:  # pragma: no cover - the lifespan always sets it
        raise RuntimeError("the application was started without its lifespan (no database engine)")
    return engine


def get_session(engine: Annotated[Engine, Depends(get_engine)]) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


def get_catalogue(session: SessionDep) -> Catalogue:
    return store.read_catalogue(session)


CatalogueDep = Annotated[Catalogue, Depends(get_catalogue)]


def get_today() -> date:
    """Today in Europe/Paris: the day of the French legal calendar, whatever the server's timezone."""
    return datetime.now(UTC).astimezone(ZoneInfo(TIMEZONE)).date()


TodayDep = Annotated[date, Depends(get_today)]


async def json_body(request: Request) -> bytes:
    """The request's raw JSON body (at most ``MAX_BODY_BYTES``), for :func:`api.contract.parse_request`."""
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
