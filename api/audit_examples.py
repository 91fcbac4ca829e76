"""Examples of the knowledge-time and audit answers (generated; regenerate when the contract changes)."""

from __future__ import annotations

from typing import Any

REVISIONS: dict[str, Any] = {}
RECEIPT: dict[str, Any] = {}
REPLAY: dict[str, Any] = {}
CORRECTION: dict[str, Any] = {}
ADMIN_VERSION_IN: dict[str, Any] = {}
