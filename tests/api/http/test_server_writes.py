"""The writes of one turn of the event loop leave in one ``write`` of the transport (api/http/server.py):
uvicorn's status line and headers, then its body, become one system call; ``close`` sends what is gathered."""

from __future__ import annotations

import asyncio
from typing import Any

from api.http.server import CoalescingTransport


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return f"extra {name}"


def test_the_writes_of_one_turn_are_one_write_in_order() -> None:
    async def run() -> Recorder:
        recorder = Recorder()
        transport = CoalescingTransport(recorder, asyncio.get_running_loop())
        transport.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        transport.write(b"ok")
        assert recorder.writes == []  # not yet: at the end of the turn
        await asyncio.sleep(0)
        transport.write(b"next")
        await asyncio.sleep(0)
        return recorder

    recorder = asyncio.run(run())
    assert recorder.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok", b"next"]


def test_close_sends_what_is_gathered_first_and_the_rest_is_the_transports() -> None:
    async def run() -> Recorder:
        recorder = Recorder()
        transport = CoalescingTransport(recorder, asyncio.get_running_loop())
        transport.write(b"last words")
        transport.close()
        assert transport.get_extra_info("peername") == "extra peername"
        await asyncio.sleep(0)  # the scheduled flush finds nothing left
        return recorder

    recorder = asyncio.run(run())
    assert recorder.writes == [b"last words"] and recorder.closed
