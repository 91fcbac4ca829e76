"""Protection of the write endpoints: a bearer token configured by environment variable.

The public API is read-only. Writes (recording a correction, importing cases) need
``Authorization: Bearer <token>`` where the token is ``VIGUEUR_ADMIN_TOKEN``; when that variable is unset
or empty the write endpoints are off and answer 404, as if they did not exist. Tokens are compared in
constant time (``hmac.compare_digest``) and never logged nor echoed in an answer.
"""

from __future__ import annotations

import hmac
import os
from typing import Annotated

from fastapi import Depends, Request

from api.http.problems import ProblemError

ADMIN_TOKEN_ENV = "VIGUEUR_ADMIN_TOKEN"


def configured_admin_token() -> str | None:
    """The admin token of this process, read from the environment when a write is attempted."""
    token = os.environ.get(ADMIN_TOKEN_ENV, "").strip()  # a trailing newline from a secrets file is not part of it
    return token or None


async def require_admin(request: Request) -> None:
    """Dependency of every write endpoint: 404 when writes are off, 401 without or with a wrong token."""
    expected = configured_admin_token()
    if expected is None:
        raise ProblemError(404, "Not Found", detail=f"write endpoints are off: {ADMIN_TOKEN_ENV} is not configured")
    scheme, _, presented = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not presented:
        raise ProblemError(401, "Unauthorized", detail="this endpoint needs « Authorization: Bearer <token> »",
                           headers={"WWW-Authenticate": 'Bearer realm="vigueur-admin"'})
    if not hmac.compare_digest(presented.strip().encode("utf-8"), expected.encode("utf-8")):
        raise ProblemError(401, "Unauthorized", detail="the bearer token is not valid",
                           headers={"WWW-Authenticate": 'Bearer realm="vigueur-admin", error="invalid_token"'})


AdminDep = Annotated[None, Depends(require_admin)]
