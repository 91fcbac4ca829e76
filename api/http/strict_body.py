"""Duplicate keys refused in every JSON body the routes read, not only in a request of the contract.

``POST /v1/resolve|calculate`` read their body with :func:`api.purchase.request.parse_request`, which refuses a key
given twice. The bodies FastAPI reads itself (case-run filters, a correction, a case import in JSON) go
through Python's ``json.loads``, where the last of two equal keys wins silently: this dependency of the
application reads such a body first (it is cached for the route) and answers 422 naming the key.
Batch bodies (JSON Lines, checked line by line) and bodies over the size limit (413 from the route) are
left to their routes.
"""

from __future__ import annotations

from fastapi import Request

from api.purchase.json_strict import duplicate_keys
from api.purchase.request import RequestError
from api.settings import MAX_BODY_BYTES

BATCH_SUFFIX = "/batch"


async def refuse_duplicate_keys(request: Request) -> None:
    if request.method not in ("POST", "PUT", "PATCH") or request.url.path.endswith(BATCH_SUFFIX):
        return
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json" and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        return
    declared = request.headers.get("content-length", "")
    if not declared.isdigit() or int(declared) > MAX_BODY_BYTES:
        return
    errors = duplicate_keys(await request.body())
    if errors:
        raise RequestError(errors)
