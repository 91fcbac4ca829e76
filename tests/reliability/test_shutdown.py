"""Issue 10, the lower defects of a serving process: SIGTERM on a busy server took from 20 s to minutes,
workers outlived their master's SIGKILL, and unfinished headers were held for ever.

Each test runs a real `vigueur serve` and talks to it over raw sockets; every wait is bounded.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

from tests.reliability.support import EXAMPLE_REQUEST, serving

GRACE = 3  # --graceful-timeout of these servers
BOUND = 30.0  # how long a test waits for what must happen well before


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    sock.settimeout(BOUND)
    return sock


def _headers(length: int) -> bytes:
    return (
        f"POST /v1/calculate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def _read_response(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds`` (reads and drops what it sends)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
    return False


def test_sigterm_finishes_the_request_in_flight_and_cuts_a_stuck_one_after_the_grace(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path, "--graceful-timeout", str(GRACE)) as server:
        in_flight, stuck = _connect(server.port), _connect(server.port)
        half = len(EXAMPLE_REQUEST) // 2
        for sock in (in_flight, stuck):  # both requests started: headers and half their body sent
            sock.sendall(_headers(len(EXAMPLE_REQUEST)) + EXAMPLE_REQUEST[:half])
        time.sleep(0.5)
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        in_flight.sendall(EXAMPLE_REQUEST[half:])  # the first one completes after SIGTERM: it is answered
        answer = _read_response(in_flight)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b'"amount"' in answer
        # The second never completes: the server still exits, once the grace has run out.
        server.process.wait(BOUND)
        assert time.monotonic() - signalled < GRACE + 15, "the server outlived its graceful-shutdown timeout"
        in_flight.close()
        stuck.close()


def test_unfinished_headers_are_cut_after_the_header_timeout(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path, "--header-timeout", "1") as server:
        silent, slow = _connect(server.port), _connect(server.port)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
        assert _closed_within(slow, 10), "a connection with unfinished headers was held"
        assert _closed_within(silent, 10), "a connection that never sent a byte was held"
        kept = _connect(server.port)  # a kept-alive connection starting a second request and stalling
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert _read_response(kept).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert _closed_within(kept, 10)
        fine = _connect(server.port)  # a complete request is answered as always
        fine.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert _read_response(fine).startswith(b"HTTP/1.1 200")
        for sock in (silent, slow, kept, fine):
            sock.close()


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children = (task / "children").read_text().split() if (task / "children").exists() else []
        found.update(int(c) for c in children)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_the_workers_exit_when_their_master_is_killed(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'v.db'}", tmp_path, "--workers", "2") as server:
        workers: set[int] = set()
        for _ in range(200):  # both workers started (the supervisor starts them one after the other)
            workers = _children(server.process.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, workers
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(BOUND)
        deadline = time.monotonic() + BOUND
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        survivors = [w for w in workers if _alive(w)]
        for w in survivors:  # do not leave them behind, whatever the verdict
            os.kill(w, signal.SIGKILL)
        assert not survivors, f"workers {survivors} outlived their master"
