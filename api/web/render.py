"""Rendering the pages: the Jinja2 environment, the page's language, stable links, and HTML error pages.

An error of a page is the API's own problem document (the exception handlers of :mod:`api.http.problems`,
one mapping for both), shown as HTML with the same status: nothing a client sends gives a traceback or a 500.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from api.web import i18n
from api.web.forms import README_REQUEST, from_request

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
STATIC_URL = "/static/web"
THIN_SPACE = "\u202f"  # French grouping of thousands
NBSP = "\u00a0"

ENV = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(("html", "svg")),
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,
)


def euros(amount: str | None) -> str:
    """« 2 475,00 € » (French grouping), or an empty string for an unknown amount (the page says « not known »)."""
    if amount is None:
        return ""
    whole, _, cents = amount.partition(".")
    sign = "-" if whole.startswith("-") else ""
    digits = whole.lstrip("-")
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return sign + THIN_SPACE.join(groups) + "," + (cents or "00") + NBSP + "€"


ENV.filters["euros"] = euros
ENV.globals["example2015"] = from_request(README_REQUEST)


class Links:
    """Stable links: a page's path and query; the language is carried only when the visitor chose it (``?lang``)."""

    __slots__ = ("lang",)

    def __init__(self, request: Request) -> None:
        asked = request.query_params.get("lang", "").lower()
        self.lang = asked if asked in i18n.LANGUAGES else None

    def __call__(self, path: str, params: dict[str, Any] | list[tuple[str, Any]] | None = None, **more: Any) -> str:
        items = list(params.items()) if isinstance(params, dict) else list(params or [])
        items += list(more.items())
        if self.lang is not None and not any(k == "lang" for k, _ in items):
            items.append(("lang", self.lang))
        query = urlencode([(k, "" if v is None else str(v)) for k, v in items if v is not None])
        return f"{path}?{query}" if query else path


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """The page ``template`` in the visitor's language."""
    lang = i18n.language(request)
    started = request.scope.get("vigueur.started")
    body = ENV.get_template(template).render(
        **context,
        lang=lang,
        t=i18n.translator(lang),
        link=Links(request),
        static=STATIC_URL,
        path=request.url.path,
        switch_lang=lambda code: _with_lang(request, code),
        query=request.url.query,
        status_words=i18n.STATUS_KEYS,
    )
    headers = {"Content-Language": lang, "Vary": "Accept-Language"}
    if isinstance(started, float):
        headers["Server-Timing"] = f"render;dur={(time.perf_counter() - started) * 1000:.1f}"
    return HTMLResponse(body, status_code=status, headers=headers)


def _with_lang(request: Request, code: str) -> str:
    items = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + [("lang", code)]
    return f"{request.url.path}?{urlencode(items)}"


class HtmlRoute(APIRoute):
    """A page route: an error becomes the API's problem document rendered as an HTML page, same status."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def html_handler(request: Request) -> Response:
            request.scope["vigueur.started"] = time.perf_counter()
            try:
                return await handler(request)
            except Exception as exc:
                problem = await _problem(request, exc)
                if problem is None:
                    raise
                return page(request, "error.html", {"problem": problem}, status=problem["status"])

        return html_handler


async def _problem(request: Request, exc: Exception) -> dict[str, Any] | None:
    """The problem document the API's handlers give for ``exc``; None when no handler knows it (a bug: a 500)."""
    handlers = request.app.exception_handlers
    for kind in type(exc).__mro__:
        found = handlers.get(kind)
        if found is not None and kind is not Exception:
            response = await found(request, exc)
            doc: dict[str, Any] = json.loads(bytes(response.body))
            doc.setdefault("status", response.status_code)
            return doc
    return None
