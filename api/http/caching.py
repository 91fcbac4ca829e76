"""ETag and Cache-Control on the catalogue's texts (issue 15): versions, diffs, lists of versions, timelines.

The ETag is a content hash: the SHA-256 of the answer's bytes (its first 128 bits, hex), so it changes
exactly when the answer does (a correction makes a new revision, new bytes, a new tag) and is the same on
every worker and every server of one catalogue. ``If-None-Match`` naming it (or ``*``) is answered
``304 Not Modified`` with no body (RFC 9110 § 13.1.2, weak comparison).

``Cache-Control``: the latest knowledge may change with the next load, so ``public, no-cache`` (a cache may
keep the answer and must ask again, which costs a 304). The catalogue as known at an instant older than
``SETTLED`` never changes (knowledge time is never rewritten; a load's transaction lasts far less), so with
such a ``known_at``: ``public, max-age=31536000, immutable``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from api.output import dumps_bytes

SETTLED = timedelta(hours=1)
LATEST = "public, no-cache"
SETTLED_CACHE = "public, max-age=31536000, immutable"


def etag(content: bytes) -> str:
    return '"' + hashlib.sha256(content).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, tag: str) -> bool:
    """``If-None-Match`` names ``tag`` (weak comparison: a ``W/`` prefix is ignored) or is ``*``."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == tag:
            return True
    return False


def cache_control(known_at: datetime | None, now: datetime) -> str:
    return SETTLED_CACHE if known_at is not None and known_at <= now - SETTLED else LATEST


def cached_json(
    request: Request, document: Any, headers: dict[str, str], known_at: datetime | None, now: datetime
) -> Response:
    """The JSON answer with its ETag and Cache-Control, or 304 when the client holds these bytes already."""
    content = dumps_bytes(document)
    tag = etag(content)
    headers = headers | {"ETag": tag, "Cache-Control": cache_control(known_at, now)}
    if matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)


NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {
        "description": "Not Modified: ``If-None-Match`` names this answer's ETag (the SHA-256 of its bytes); "
        "no body. Every 200 carries ``ETag`` and ``Cache-Control``.",
        "headers": {
            "ETag": {"description": "The answer's content hash, as in the 200.", "schema": {"type": "string"}},
            "Cache-Control": {"description": "As in the 200.", "schema": {"type": "string"}},
        },
    }
}
