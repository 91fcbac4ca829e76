"""``VIGUEUR_RECEIPTS_TOKEN``: when set, keeping a receipt (``POST /v1/calculate?receipt=true``) needs
``Authorization: Bearer <token>``; calculating without a receipt stays open. Why: :mod:`api.audit.policy`."""

from __future__ import annotations

import hmac
import os

from fastapi import Request

from api.http.problems import ProblemError

RECEIPTS_TOKEN_ENV = "VIGUEUR_RECEIPTS_TOKEN"


def configured_receipts_token() -> str | None:
    token = os.environ.get(RECEIPTS_TOKEN_ENV, "").strip()
    return token or None


async def require_receipt_token(request: Request) -> None:
    """Dependency of ``POST /v1/calculate``: with ``receipt=true`` and a token configured, 401 without it."""
    expected = configured_receipts_token()
    if expected is None or request.query_params.get("receipt", "").lower() not in ("true", "1", "yes", "on"):
        return
    scheme, _, presented = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(presented.strip().encode(), expected.encode()):
        raise ProblemError(
            401,
            "Unauthorized",
            detail=f"keeping a receipt needs « Authorization: Bearer <token> » ({RECEIPTS_TOKEN_ENV})",
            errors=[{"field": "receipt", "message": "a receipt is kept only with the receipts token"}],
            headers={"WWW-Authenticate": 'Bearer realm="vigueur-receipts"'},
        )
