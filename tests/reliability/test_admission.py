"""api/http/admission.py: the computing endpoints are admitted a few at a time, the probes never wait."""

from __future__ import annotations

import asyncio
from typing import Any

from api.http.admission import ADMITTED, Admission


def _scope(path: str) -> dict[str, Any]:
    return {"type": "http", "path": path, "method": "GET"}


def test_the_probes_pass_while_every_slot_is_taken_and_the_next_request_waits() -> None:
    async def scenario() -> None:
        release = asyncio.Event()
        entered: list[str] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            entered.append(scope["path"])
            if scope["path"] != "/healthz":
                await release.wait()

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Any) -> None:
            return None

        middleware = Admission(app)
        busy = [asyncio.create_task(middleware(_scope("/v1/calculate"), receive, send)) for _ in range(ADMITTED)]
        waiting = asyncio.create_task(middleware(_scope("/v1/schemes/bonus/versions"), receive, send))
        await asyncio.sleep(0.05)
        assert entered == ["/v1/calculate"] * ADMITTED  # the next one waits for a slot
        await asyncio.wait_for(middleware(_scope("/healthz"), receive, send), 1)  # the probe does not
        release.set()
        await asyncio.wait_for(asyncio.gather(*busy, waiting), 5)
        assert entered[-1] == "/v1/schemes/bonus/versions"

    asyncio.run(scenario())


def test_a_body_still_arriving_holds_no_slot() -> None:
    async def scenario() -> None:
        arrived = asyncio.Event()
        bodies: list[bytes] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            body = b""
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
            bodies.append(body)

        async def slow() -> dict[str, Any]:
            await arrived.wait()  # a client that never finishes its body (until the test says so)
            return {"type": "http.request", "body": b"}", "more_body": False}

        first = [{"type": "http.request", "body": b"{", "more_body": True}]

        async def slow_receive() -> dict[str, Any]:
            return first.pop(0) if first else await slow()

        async def fast_receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"{}", "more_body": False}

        async def send(message: Any) -> None:
            return None

        middleware = Admission(app)
        stalled = [asyncio.create_task(middleware(_scope("/v1/calculate"), slow_receive, send)) for _ in range(20)]
        await asyncio.sleep(0.05)
        await asyncio.wait_for(middleware(_scope("/v1/calculate"), fast_receive, send), 1)
        assert bodies == [b"{}"]
        arrived.set()
        await asyncio.wait_for(asyncio.gather(*stalled), 5)

    asyncio.run(scenario())
