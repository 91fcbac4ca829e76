"""Errors of the layers below the routes that are not « the database does not answer».

* A full disk: SQLite says « database or disk is full » (SQLITE_FULL), PostgreSQL raises SQLSTATE class 53
  (insufficient resources: 53100 disk full) or « No space left on device ». Nothing was written; the
  answer is 507 « storage full », not 503 « does not answer » (retrying soon will not help).
* A 405 names in ``Allow`` the methods of every route of the path, not only those of the first route
  that matched it (``/v1/cases/{case_id}`` answers GET, ``/v1/cases/run`` POST: OPTIONS on the second
  said « Allow: GET »).
* FastAPI answers 400 « There was an error parsing the body » when a JSON body cannot be read at all (not
  UTF-8, …): the API answers 422 naming ``(body)``, as for every other invalid body.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Match

BODY_NOT_PARSED = "There was an error parsing the body"
BODY_NOT_JSON = {"field": "(body)", "message": "the body is not valid JSON (in UTF-8)"}
_FULL_MESSAGES = ("database or disk is full", "no space left on device", "disk full")


def is_storage_full(exc: BaseException) -> bool:
    """Whether a database error says the disk is full (SQLite or PostgreSQL)."""
    original = getattr(exc, "orig", None) or exc
    code = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None) or ""
    if isinstance(code, str) and code.startswith("53"):
        return True
    text = str(original).lower()
    return any(message in text for message in _FULL_MESSAGES)


def allowed_methods(request: Request) -> str:
    """The methods of every route whose path matches the request's, for the ``Allow`` of a 405."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches({**request.scope, "method": "GET"})
        route_methods = getattr(route, "methods", None)
        if match is not Match.NONE and route_methods and _same_path(route, request):
            methods |= set(route_methods)
    return ", ".join(sorted(methods))


def _same_path(route: object, request: Request) -> bool:
    regex = getattr(route, "path_regex", None)
    return regex is not None and regex.match(request.url.path) is not None
