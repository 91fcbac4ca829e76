"""Where output goes and how it looks: rich consoles that never hard-wrap a line when the output is a pipe or a
file (CI logs keep each failure on its line), and the one test of « is this a terminal »."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

PIPE_WIDTH = 1000  # rich's width when the output is not a terminal: long enough that tables are not folded


def is_terminal(stream: str = "stdout") -> bool:
    """True when ``stream`` (stdout or stderr) is a terminal: tables and colours; else JSON and plain lines."""
    handle = sys.stdout if stream == "stdout" else sys.stderr
    isatty = getattr(handle, "isatty", None)
    return bool(isatty and isatty())


def console(*, stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr): soft-wrapped, no hard line breaks, when it is not a terminal."""
    from rich.console import Console

    if is_terminal("stderr" if stderr else "stdout"):
        return Console(stderr=stderr, highlight=False)
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=PIPE_WIDTH)


__all__ = ["PIPE_WIDTH", "console", "is_terminal"]
