"""``POST /v1/calculate`` answered without FastAPI's routing and dependency solving when it succeeds (issue 15).

A profile of the server put FastAPI's dependency solving at 41 % of a request (inclusive) and the calculation
itself at 1-4 %. This ASGI middleware, inside the admission control (:mod:`api.http.admission`), answers the
plain case itself — ``POST /v1/calculate``, no query string, a JSON content type and a declared length within
the limit — with the very functions of the route (:func:`api.purchase.request.parse_request`,
:func:`api.purchase.render.calculate_document`, :func:`api.output.dumps_bytes`, :func:`known_headers`) and the
same headers in the same order. Anything else, **and any request it cannot answer 200** (a duplicate key, a
field that does not validate, a catalogue not loaded, a database down, ...), goes to the application unchanged,
its body replayed: every error is the route's own, byte for byte. Nothing is written on this path (a receipt
needs ``?receipt=true``, a query string), so answering it twice is never a side effect.

The application's dependency overrides (tests) switch it off, as does an application started without its
lifespan (no engine): the route answers then.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from api.catalogue import live, store
from api.http.admission import ASGIApp, Message, Receive, Scope, Send
from api.http.deps import JSON_TYPES, known_headers
from api.output import dumps_bytes
from api.purchase.render import calculate_document
from api.purchase.request import parse_request
from api.settings import MAX_BODY_BYTES

PATH = "/v1/calculate"
KNOWN_AT = "X-Vigueur-Known-At"  # the one header of known_headers that is not the load's


class FastCalculate:
    """ASGI middleware: a successful plain ``POST /v1/calculate`` answered directly (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _plain(scope):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        body = bytearray()
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False) or len(body) > MAX_BODY_BYTES:
                break
        answer = None
        if messages[-1]["type"] == "http.request" and not messages[-1].get("more_body", False):
            answer = await _answer(scope, bytes(body))
        if answer is None:

            async def replay() -> Message:
                return messages.pop(0) if messages else await receive()

            await self.app(scope, replay, send)
            return
        headers, content = answer
        state = scope["app"].state
        state.fast_calculations = getattr(state, "fast_calculations", 0) + 1  # tests check that it is taken
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def _plain(scope: Scope) -> bool:
    """The request this path may answer: POST /v1/calculate, no query, JSON, a declared length within limits,
    an application with its lifespan and no dependency overrides."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != PATH or scope.get("query_string"):
        return False
    if scope.get("root_path"):
        return False
    app = scope.get("app")
    if app is None or app.dependency_overrides or getattr(app.state, "engine", None) is None:
        return False
    media_type, length = b"", b""
    for name, value in scope["headers"]:
        if name == b"content-type":
            media_type = value
        elif name == b"content-length":
            length = value
    kind = media_type.split(b";", 1)[0].strip().lower().decode("latin-1")
    if kind not in JSON_TYPES and not (kind.startswith("application/") and kind.endswith("+json")):
        return False
    return length.isdigit() and int(length) <= MAX_BODY_BYTES


async def _answer(scope: Scope, body: bytes) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
    """The route's 200 answer (headers, body), or None for anything else (the route answers it)."""
    app = scope["app"]
    try:
        now = datetime.now(UTC)
        latest: live.LiveCatalogue = app.state.live
        known = latest.current()  # from memory, no session made
        if known is None:
            session = Session(app.state.engine)
            try:
                known = await latest.latest(session)
            finally:
                await live.close_session(session)
        # parse_request refuses a key given twice too: the route then answers, its dependency refuse_duplicate_keys
        content = dumps_bytes(calculate_document(known.catalogue, parse_request(body)))
    except Exception:  # every error is the route's own: it answers this request again, from the start
        return None
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in _headers(known, now)]
    headers += [(b"content-length", str(len(content)).encode("latin-1")), (b"content-type", b"application/json")]
    return headers, content


_LOAD_HEADERS: list[tuple[store.KnownCatalogue, list[tuple[str, str]]]] = []


def _headers(known: store.KnownCatalogue, now: datetime) -> list[tuple[str, str]]:
    """:func:`known_headers`, those of the load computed once per load (the instant changes every request)."""
    if not _LOAD_HEADERS or _LOAD_HEADERS[0][0] is not known:
        _LOAD_HEADERS[:] = [(known, list(known_headers(known, now).items()))]
    return [(name, (known.known_at or now).isoformat()) if name == KNOWN_AT else (name, value)
            for name, value in _LOAD_HEADERS[0][1]]  # fmt: skip


def install(app: Any) -> None:
    """Add the middleware (before the admission control, so that it runs inside it)."""
    app.add_middleware(FastCalculate)
