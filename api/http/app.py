"""The FastAPI application: ``uvicorn api.http.app:app`` or ``vigueur serve``.

Settings are read from the environment when the application starts (its lifespan), not at import.
On start it creates the tables and loads ``versions/`` when the database holds no catalogue yet; a
database that does not answer does not stop it: ``/healthz`` answers, the rest answers 503 until the
database is back.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import Depends, FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import exc as sa_exc

from api import web
from api.catalogue import announce, live, store
from api.catalogue.db import make_engine
from api.http import admission, fast, probes, problems, worker
from api.http import openapi as openapi_docs
from api.http.cors import ConfiguredCORS
from api.http.routes import audit as audit_routes
from api.http.routes import batch as batch_routes
from api.http.routes import cases as case_routes
from api.http.routes import parameters as parameter_routes
from api.http.routes import purchase as purchase_routes
from api.http.routes import timeline as timeline_routes
from api.http.strict_body import refuse_duplicate_keys
from api.settings import Settings, create_data_dir, get_settings, redact_database_url
from api.versioning import provenance, software_version
from legislation.errors import CatalogueError

log = logging.getLogger("vigueur.api")
DOCS_ASSETS = Path(fastapi_offline.__file__).parent / "static"  # Swagger UI 5 and ReDoc, shipped in the wheel
STATIC = "/static/docs"

DESCRIPTION = """\
Which version of the French clean-vehicle aid decrees (**bonus écologique**, **prime à la conversion**)
applied to a purchase, and what it gave — with the text to prove it.

* **Catalogue**: the schemes and their coverage, a scheme's timeline, the version in force on a day,
  one version with its verbatim text, source and content hash, the diff between two versions of an article.
* **Purchase**: `POST /v1/resolve` and `POST /v1/calculate` take the JSON of `vigueur resolve|calculate`
  and answer byte for byte the same JSON.
* **Knowledge time**: every catalogue endpoint and resolve/calculate take `known_at` (an ISO 8601 instant
  with its offset): the answer is the catalogue as it was recorded at that instant; the headers
  `X-Vigueur-Known-At`, `X-Vigueur-Catalogue-Load`, `-Recorded-At`, `-Tree-Hash` say which knowledge
  answered. `GET /v1/versions/{id}/revisions` lists a version's revisions and what changed.
* **Audit**: `POST /v1/calculate?receipt=true` keeps a receipt (201, same body, id in `X-Vigueur-Receipt`
  and `Location`); `GET /v1/receipts/{id}`; `POST /v1/receipts/{id}/replay` recomputes with the same
  revisions and with today's catalogue. Receipts and history are never changed.
* **Admin** (bearer token `VIGUEUR_ADMIN_TOKEN`; off, 404, when unset): `POST /v1/admin/versions` records a
  correction as a new revision.

Dates are ISO 8601 days; amounts are strings in euros with two decimals; errors are RFC 9457 problem
documents (`application/problem+json`) naming the failing field.
"""
TAGS = [
    {"name": "catalogue", "description": "The versions of the texts on file, in valid time."},
    {"name": "purchase", "description": "Resolution and calculation for one purchase or lease."},
    {"name": "audit", "description": "Receipts of calculations, and their replay."},
    {"name": "cases", "description": "The regression case corpus stored in the database, and its runs."},
    {"name": "admin", "description": "Corrections (bearer token; off when VIGUEUR_ADMIN_TOKEN is unset)."},
    {"name": "operations", "description": "Liveness and readiness probes."},
]


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application; ``settings`` default to the environment's, read at start-up."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        current = settings or get_settings()
        worker.exit_with_parent()
        create_data_dir(current.database_url)
        provenance(current.versions_dir)  # git is asked once, at start-up, not while answering a receipt
        engine = make_engine(current.database_url)
        app.state.engine = engine
        # The latest catalogue from memory, read again when a load is announced (api/catalogue/announce.py).
        app.state.live = live.LiveCatalogue(check_seconds=live.CHECK_SECONDS, watch=announce.watch_for(engine))
        try:
            report = store.ensure_loaded(engine, current.versions_dir)
            if report is not None:
                log.info(
                    "catalogue loaded into %s: %s",
                    redact_database_url(current.database_url),
                    report.to_json()["counts"],
                )
        except (sa_exc.OperationalError, sa_exc.InterfaceError) as exc:
            log.warning(
                "database %s unavailable at start-up (%s): answering 503 until it is back",
                redact_database_url(current.database_url),
                str(exc).splitlines()[0],
            )
        except sa_exc.SQLAlchemyError as exc:
            # Several workers started at once on an empty database: one loads, the others lose the race.
            log.warning("start-up load not done by this process (%s)", str(exc).splitlines()[0])
        except CatalogueError as exc:
            log.error(
                "versions/ is invalid, nothing loaded: %s (the API answers 503 until a valid load)", exc
            )
        yield
        app.state.live.close()
        engine.dispose()

    app = FastAPI(
        title="vigueur",
        version=software_version(),
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        generate_unique_id_function=openapi_docs.operation_id,
        dependencies=[Depends(refuse_duplicate_keys)],
    )
    problems.install(app)
    probes.install(app)
    fast.install(app)  # a plain POST /v1/calculate answered without routing (issue 15); inside the admission
    app.add_middleware(admission.Admission)  # the probes never wait behind computing requests (issue 10)
    app.state.live = live.LiveCatalogue()  # without the lifespan (tests): checked on every request
    app.add_middleware(ConfiguredCORS, settings=settings)  # outermost: a preflight is never held
    app.include_router(purchase_routes.router)
    app.include_router(timeline_routes.router)
    app.include_router(parameter_routes.router)
    app.include_router(audit_routes.router)
    app.include_router(case_routes.router)
    app.include_router(batch_routes.router)
    _docs(app)
    web.install(app)  # the auditors' pages: / (issue 14)

    def openapi() -> dict[str, Any]:
        return openapi_docs.build(app)

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise the document
    return app


def _docs(app: FastAPI) -> None:
    """/docs (Swagger UI) and /redoc with their assets served from the package: no CDN, no internet needed."""
    app.mount(STATIC, StaticFiles(directory=DOCS_ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}/openapi.json",
            title="vigueur — API",
            swagger_js_url=f"{root}{STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{root}{STATIC}/favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}/openapi.json",
            title="vigueur — API reference",
            redoc_js_url=f"{root}{STATIC}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{STATIC}/favicon.png",
            with_google_fonts=False,
        )


app = create_app()
