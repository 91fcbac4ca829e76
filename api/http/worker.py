"""A worker of `vigueur serve --workers N` exits when its supervisor dies (issue 10: workers outlived their
master's SIGKILL, holding the port and their database connections).

Linux: ``prctl(PR_SET_PDEATHSIG, SIGTERM)``, so the kernel sends the worker SIGTERM (uvicorn's graceful
shutdown) when its parent dies. Elsewhere: a daemon thread that watches the parent's pid.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0


def exit_with_parent() -> None:
    """In a worker process (started by multiprocessing): be stopped when the parent dies. Else: nothing."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid is None:
        return  # `vigueur serve` with one worker, or a test: the process is its own master
    if not _set_pdeathsig():
        threading.Thread(target=_watch, args=(parent.pid,), daemon=True, name="vigueur-parent-watch").start()
    if os.getppid() != parent.pid:  # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)


def _set_pdeathsig() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    return False


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)
