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
import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on a TCP transport's socket (a Unix socket or a pipe is left alone)."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return
    with contextlib.suppress(OSError):  # a connection already reset by the peer: nothing to speed up
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]  # uvicorn's "auto" choice
    """uvicorn's ``http="auto"`` protocol (httptools if installed, else h11) with TCP_NODELAY on its socket."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        set_nodelay(transport)
        super().connection_made(transport)
