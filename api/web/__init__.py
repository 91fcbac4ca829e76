"""The auditors' web interface: server-rendered pages on the API's own services (``vigueur serve``, at ``/``).

Jinja2 templates (``templates/``) and the stylesheets and the one small script (``static/``) ship in the
package and are served by the application itself: no CDN, the pages work offline.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from api.web import catalogue_pages, purchase_pages, reference_pages
from api.web.render import STATIC, STATIC_URL


def install(app: FastAPI) -> None:
    """Mount the pages and their static files on ``app``."""
    app.mount(STATIC_URL, StaticFiles(directory=STATIC), name="web-assets")
    app.include_router(catalogue_pages.router)
    app.include_router(purchase_pages.router)
    app.include_router(reference_pages.router)
