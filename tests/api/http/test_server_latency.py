"""TCP_NODELAY on the connections `vigueur serve` accepts (api/http/server.py), on the path ``--workers N`` takes.

No timing: the tests read the socket option of the accepted connection inside a real uvicorn server. That
`vigueur serve` hands uvicorn this protocol: tests/api/cli/test_cli_store.py.
"""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from api.http.server import NoDelayHTTPProtocol


async def _hello(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


def _accepted_nodelay(protocol: type[asyncio.Protocol], listener: socket.socket, loop: str = "auto") -> int:
    """Serve ``_hello`` with ``protocol`` on ``listener`` (as uvicorn's workers do with the supervisor's socket),
    make one keep-alive request; TCP_NODELAY of the accepted socket once the protocol has it."""
    seen: list[int] = []

    class Probe(protocol):  # type: ignore[misc,valid-type]
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    server = uvicorn.Server(uvicorn.Config(_hello, http=Probe, lifespan="off", log_level="warning", loop=loop))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        for _ in range(600):  # a bound on the wait for the start, not a measure
            if server.started or not thread.is_alive():
                break
            threading.Event().wait(0.05)
        assert server.started, "uvicorn did not start"
        host, port = listener.getsockname()[:2]
        connection = http.client.HTTPConnection(host, port, timeout=30)
        connection.request("GET", "/")
        answer = connection.getresponse()
        assert (answer.status, answer.read()) == (200, b"hello")  # the protocol still speaks HTTP
        connection.close()
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    assert len(seen) == 1
    return seen[0]


def _supervisor_socket() -> socket.socket:
    """The listening socket as uvicorn's ``--workers N`` supervisor binds it (``Config.bind_socket``)."""
    return uvicorn.Config(_hello, host="127.0.0.1", port=0).bind_socket()


def _proto_zero_socket() -> socket.socket:
    """A listening TCP socket with ``proto`` 0, which asyncio does not recognise as TCP."""
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    return listener


def test_a_connection_on_the_supervisors_socket_has_tcp_nodelay() -> None:
    with _supervisor_socket() as listener:
        assert _accepted_nodelay(NoDelayHTTPProtocol, listener) != 0


def test_a_connection_on_a_proto_zero_socket_has_tcp_nodelay() -> None:
    with _proto_zero_socket() as listener:
        assert _accepted_nodelay(NoDelayHTTPProtocol, listener) != 0


def test_control_uvicorns_own_protocol_leaves_nagle_on_there() -> None:
    """What api/http/server.py is for. If this fails, asyncio (or uvicorn) sets TCP_NODELAY on such sockets itself
    now: NoDelayHTTPProtocol is then redundant (still harmless). On asyncio's loop: uvloop (uvicorn's
    ``standard`` extras, which `vigueur serve` uses since issue 15) sets it on every TCP connection itself."""
    with _proto_zero_socket() as listener:
        assert _accepted_nodelay(AutoHTTPProtocol, listener, loop="asyncio") == 0
