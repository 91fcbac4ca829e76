"""The HTTP protocol `vigueur serve` gives uvicorn: uvicorn's own, with TCP_NODELAY set on every connection.

Why it is needed: with ``--workers`` above 1 uvicorn binds the listening socket itself (``Config.bind_socket``,
``socket.socket(family=...)``, so ``proto`` 0) and hands it to its worker processes. Accepted sockets inherit
``proto`` 0, and asyncio only sets TCP_NODELAY on a TCP transport whose socket says ``proto ==
IPPROTO_TCP`` (``asyncio.base_events._set_nodelay``): Nagle's algorithm stays on. uvicorn writes a response in
two writes (the headers, then the body), so the body waited for the client's acknowledgement of the headers,
which Linux clients delay by up to 40 ms: ~48 ms per keep-alive request instead of ~5 (seen with strace: no
``setsockopt(TCP_NODELAY)`` after ``accept4`` in the workers, where ``--workers 1`` has one). Upstream:
https://github.com/Kludex/uvicorn/issues/3149 (open for uvicorn 0.54). Setting the option again where asyncio
already did is harmless, so this stays correct once uvicorn or asyncio fix it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on a TCP transport's socket (a Unix socket or a pipe is left alone)."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return
    with contextlib.suppress(OSError):  # a connection already reset by the peer: nothing to speed up
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


HEADER_TIMEOUT_ENV = "VIGUEUR_HEADER_TIMEOUT_SECONDS"  # set by `vigueur serve` for its workers
HEADER_TIMEOUT_SECONDS = 10.0


def header_timeout() -> float:
    """How long a connection may take to send a request's headers (issue 10: unfinished headers were held)."""
    try:
        return float(os.environ.get(HEADER_TIMEOUT_ENV, HEADER_TIMEOUT_SECONDS))
    except ValueError:
        return HEADER_TIMEOUT_SECONDS


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]  # uvicorn's "auto" choice
    """uvicorn's ``http="auto"`` protocol (httptools if installed, else h11) with TCP_NODELAY on its socket,
    and a deadline for a request's headers: uvicorn has none (its keep-alive timeout stops at the first byte),
    so a client that sends half a request line held its connection for ever. The connection is closed when the
    headers are not complete ``header_timeout()`` seconds after the connection, or after the first byte of a
    next request on a kept-alive one. The body and the response are not bounded here."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        set_nodelay(transport)
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._arm_header_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._waits_for_headers():
            self._arm_header_deadline()
        elif self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None
        super().connection_lost(exc)

    def _waits_for_headers(self) -> bool:
        cycle = getattr(self, "cycle", None)
        return cycle is None or bool(cycle.response_complete)

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(header_timeout(), self._headers_too_late)

    def _headers_too_late(self) -> None:
        self._header_deadline = None
        if self._waits_for_headers() and not self.transport.is_closing():
            self.transport.close()
