"""At most a few requests of the catalogue and purchase endpoints compute at once in a process, so that the
probes never wait behind them (issue 10).

These endpoints run on the event loop (they read the catalogue from memory). Under 500 connections a worker's
loop had hundreds of them ready at once, and one turn of the loop — which a /healthz also waits for — took
up to a second. Here they are admitted ``ADMITTED`` at a time, in arrival order, once their (bounded) body
has arrived: a turn of the loop holds at most that much work, and the others wait without costing anything.
The probes, and the streaming endpoints (batch, cases: their bodies are read as they come), are not held.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from api.settings import MAX_BODY_BYTES

ADMITTED = 8
ADMITTED_PATHS = ("/v1/resolve", "/v1/calculate", "/v1/schemes", "/v1/versions")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_LIMITS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _limit() -> asyncio.Semaphore:
    """The semaphore of the running loop (a semaphore belongs to one loop; tests start several)."""
    loop = asyncio.get_running_loop()
    limit = _LIMITS.get(loop)
    if limit is None:
        limit = _LIMITS[loop] = asyncio.Semaphore(ADMITTED)
    return limit


def is_admitted(scope: Scope) -> bool:
    path: str = scope.get("path", "")
    return scope["type"] == "http" and any(path == p or path.startswith(p + "/") for p in ADMITTED_PATHS)


class Admission:
    """ASGI middleware: the requests of ``ADMITTED_PATHS`` compute ``ADMITTED`` at a time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_admitted(scope):
            await self.app(scope, receive, send)
            return
        arrived = await _body(receive)

        async def replay() -> Message:
            return arrived.pop(0) if arrived else await receive()

        async with _limit():
            await self.app(scope, replay, send)


async def _body(receive: Receive) -> list[Message]:
    """The request's messages up to its end, or up to just over ``MAX_BODY_BYTES`` (the app answers 413)."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages
        size += len(message.get("body", b""))
        if size > MAX_BODY_BYTES:
            return messages
