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
import logging
import os
import socket
import sys
from typing import Any

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.supervisors import multiprocess

from api.catalogue import live


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


class CoalescingTransport:
    """A transport whose writes of one turn of the event loop leave in one system call (issue 15).

    uvicorn writes a response in two writes, the status line and headers, then the body; with TCP_NODELAY each
    is a ``send`` and a segment of its own, and the client wakes up twice. Here the writes are gathered and
    written together at the end of the turn (``call_soon``): one ``send``, one segment for a small answer.
    ``close`` writes what is gathered first; everything else is the wrapped transport's.
    """

    def __init__(self, transport: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._gathered: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._gathered:
            self._loop.call_soon(self._flush)
        self._gathered.append(bytes(data))

    def _flush(self) -> None:
        if not self._gathered:
            return
        data = b"".join(self._gathered)
        self._gathered.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]  # uvicorn's "auto" choice
    """uvicorn's ``http="auto"`` protocol (httptools if installed, else h11) with TCP_NODELAY on its socket,
    and a deadline for a request's headers: uvicorn has none (its keep-alive timeout stops at the first byte),
    so a client that sends half a request line held its connection for ever. The connection is closed when the
    headers are not complete ``header_timeout()`` seconds after the connection, or after the first byte of a
    next request on a kept-alive one. The body and the response are not bounded here."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        set_nodelay(transport)
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
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


# -- balanced workers (issue 15) ---------------------------------------------------------------------------
#
# uvicorn's ``--workers N`` binds one listening socket in the supervisor and hands it to every worker: the
# workers race for each connection, and the one that is awake takes them all (keep-alive connections then stay
# on it: splits of 8/0 and 31/1 were measured). Here each worker binds a socket of its own on the same port
# with SO_REUSEPORT, and the kernel spreads the incoming connections over the workers' sockets (by a hash of
# the connection's addresses). The supervisor binds one too, without listening: the port is checked, and kept,
# before any worker starts; a socket that does not listen receives no connection.

WORKER_HEADER = "X-Vigueur-Worker"  # on every answer: the process that answered (load tests measure the split)


def reuseport_supported() -> bool:
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def reuseport_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` with SO_REUSEPORT (not listening yet)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def worker_header(config: Config) -> None:
    """Add ``X-Vigueur-Worker: <pid>`` to the headers uvicorn sends on every answer of this process (before the
    server starts: uvicorn encodes them then)."""
    kept = [(k, v) for k, v in config.headers if k.lower() != WORKER_HEADER.lower()]
    config.headers = [*kept, (WORKER_HEADER, str(os.getpid()))]  # encoded by Config.load(), in the worker


class ReusePortProcess(multiprocess.Process):
    """A uvicorn worker that listens on a SO_REUSEPORT socket of its own instead of the supervisor's."""

    def target(self, sockets: list[socket.socket] | None = None) -> None:  # pragma: no cover - in the worker
        try:
            own = reuseport_socket(self.config.host, self.config.port)
        except OSError as exc:
            where = f"{self.config.host}:{self.config.port}"
            logging.getLogger("uvicorn.error").error("worker cannot bind %s: %s", where, exc)
            sys.exit(STARTUP_FAILURE)
        worker_header(self.config)
        live.FREEZE_AFTER_READ = True
        super().target([own])


def run_reuseport(config: Config) -> None:
    """uvicorn's multiprocess supervisor (health checks, restarts, signals, graceful stop) with workers that
    each listen on a SO_REUSEPORT socket of their own (see above)."""
    try:
        reservation = reuseport_socket(config.host, config.port)  # the port is ours, or an error before any worker
    except OSError as exc:  # as uvicorn says it: the address in use, say
        logging.getLogger("uvicorn.error").error(exc)
        sys.exit(STARTUP_FAILURE)
    config.port = reservation.getsockname()[1]  # --port 0: the workers take the port the supervisor got
    # uvicorn's supervisor makes its workers with the module's ``Process``: ours, in this (supervisor) process.
    multiprocess.Process = ReusePortProcess  # type: ignore[misc]
    try:
        multiprocess.Multiprocess(config, sockets=[]).run()
    finally:
        reservation.close()


def serve_app(app: str, *, workers: int, **options: Any) -> None:
    """What `vigueur serve` runs: uvicorn with ``options``; with several workers on Linux, each on a
    SO_REUSEPORT socket of its own (:func:`run_reuseport`). Every answer says its worker (``X-Vigueur-Worker``)
    except with several workers where SO_REUSEPORT is missing (uvicorn's own shared socket, and no header)."""
    import uvicorn

    if workers > 1 and reuseport_supported():
        run_reuseport(uvicorn.Config(app, workers=workers, **options))
        return
    headers = [(WORKER_HEADER, str(os.getpid()))] if workers == 1 else []
    live.FREEZE_AFTER_READ = workers == 1  # this process serves (with several, uvicorn's workers are new processes)
    uvicorn.run(app, workers=workers, headers=headers, **options)
