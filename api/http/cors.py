"""CORS, off by default: ``VIGUEUR_CORS_ORIGINS`` lists the origins a browser may call the API from.

The list is read from the settings when the first request arrives (settings are never read at import time);
with none configured the application answers exactly as without this middleware: no ``Access-Control-*``
header, a preflight ``OPTIONS`` answered as any unknown method. The API is read-only for the public and takes
no cookie: credentials are not allowed; the admin bearer token goes in ``Authorization``, allowed as a header.
"""

from __future__ import annotations

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from api.settings import Settings, get_settings

ALLOWED_METHODS = ("GET", "POST")
ALLOWED_HEADERS = ("Authorization", "Content-Type")
EXPOSED_HEADERS = (
    "Location",
    "X-Vigueur-Receipt",
    "X-Vigueur-Known-At",
    "X-Vigueur-Catalogue-Load",
    "X-Vigueur-Catalogue-Recorded-At",
    "X-Vigueur-Catalogue-Tree-Hash",
    "Vigueur-Batch-Rows",
)


class ConfiguredCORS:
    """An ASGI middleware: Starlette's CORSMiddleware over the configured origins, or nothing at all."""

    def __init__(self, app: ASGIApp, settings: Settings | None = None) -> None:
        self.app = app
        self.settings = settings
        self.inner: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.inner is None:
            origins = (self.settings or get_settings()).cors_origins
            self.inner = (
                CORSMiddleware(
                    self.app,
                    allow_origins=list(origins),
                    allow_methods=list(ALLOWED_METHODS),
                    allow_headers=list(ALLOWED_HEADERS),
                    expose_headers=list(EXPOSED_HEADERS),
                )
                if origins
                else self.app
            )
        await self.inner(scope, receive, send)
