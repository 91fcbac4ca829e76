"""Parameters (every notion, one notion's history as a step chart and a table) and the regression cases by version.

The history is :func:`legislation.parameters.parameter_history` rendered by
:func:`api.catalogue.parameters.history_document` (``GET /v1/parameters/{name}``); the cases are run by the
runner of ``vigueur cases run`` and ``POST /v1/cases/run`` (:mod:`api.cases`): the stored corpus when the
database holds one, else the case files of the repository (``tests/regression``), and the page says which.
"""

from __future__ import annotations

import json
import time
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import exc as sa_exc

from api.cases import report as case_report
from api.cases.files import NO_VERSION, case_files, load_cases, run_case
from api.cases.store import current_rows, run_rows
from api.catalogue.parameters import history_document, parameters_document
from api.http.deps import KnownDep, SessionDep
from api.http.problems import ProblemError
from api.web import charts, forms
from api.web.render import HtmlRoute, Links, page
from legislation import Catalogue, Scheme
from legislation.parameters import parameter_history

router = APIRouter(route_class=HtmlRoute, include_in_schema=False)
CASES_DIR = Path(__file__).resolve().parents[2] / "tests" / "regression"
UNIT_SIGNS = {"euro": "€", "rate": "", "month": "mois", "year": "ans", "day": "j"}


@router.get("/parameters", response_class=HTMLResponse)
async def parameters(request: Request, known: KnownDep, scheme: Annotated[Scheme | None, Query()] = None) -> Response:
    """Every parameter of the catalogue, by notion."""
    return page(request, "parameters.html", {"doc": parameters_document(known.catalogue, scheme), "known": known})


@router.get("/parameters/{name}", response_class=HTMLResponse)
async def parameter(
    request: Request,
    known: KnownDep,
    name: Annotated[str, PathParam(max_length=200)],
    scheme: Annotated[Scheme | None, Query()] = None,
) -> Response:
    """One notion's value in every version: a step chart (drawn on the server) and the table."""
    history = parameter_history(known.catalogue, name, scheme)
    if history is None:
        raise ProblemError(
            404, "Unknown parameter", detail=f"no parameter or notion {name!r} on file",
            errors=[{"field": "name", "message": "no such parameter; /parameters lists them"}],
        )  # fmt: skip
    doc = history_document(history, scheme)
    return page(request, "parameter.html", {"doc": doc, "chart": value_chart(doc, Links(request)), "known": known})


def value_chart(doc: dict[str, Any], link: Links) -> charts.Chart:
    """One series per part of the notion (a split notion has several), each value over its version's period."""
    values = doc["values"]
    starts = [date.fromisoformat(v["valid_from"]) for v in values]
    ends = [date.fromisoformat(v["valid_until"]) for v in values if v["valid_until"]]
    first = min(starts)
    last = max([*ends, max(starts) + timedelta(days=365)])
    series: dict[str, list[charts.Step]] = {}
    for v in values:
        until = date.fromisoformat(v["valid_until"]) if v["valid_until"] else last
        series.setdefault(v["notion"], []).append(
            charts.Step(
                start=date.fromisoformat(v["valid_from"]),
                until=until,
                value=Decimal(v["value"]),
                title=f"{v['parameter']} = {v['value']} ({v['version_id']}, {v['paragraph']})",
                href=link(f"/versions/{v['version_id']}", p=v["paragraph"]) + f"#q-{v['parameter']}",
            )
        )
    unit = UNIT_SIGNS.get(values[0]["unit"] or "", "") if values else ""
    return charts.step_chart(
        [charts.Series(label=n, css=f"s-{i % 4}", steps=tuple(s)) for i, (n, s) in enumerate(series.items())],
        first,
        last,
        unit,
    )


@router.get("/cases", response_class=HTMLResponse)
async def cases(
    request: Request,
    known: KnownDep,
    session: SessionDep,
    version: Annotated[str | None, Query(max_length=200, description="Only the cases of this version")] = None,
) -> Response:
    """The regression corpus run against the catalogue: pass or fail, by version; the cases of one version, and
    every case that does not pass, are listed, each opening in the calculator with its facts filled in."""
    report, source = await run_in_threadpool(corpus_report, request, known.catalogue, known.load.tree_hash, session)
    wanted = NO_VERSION if version == "" else version
    listed = [c for c in report["cases"] if wanted in c["versions"] or c["outcome"] != "passed"]
    context = {"report": report, "source": source, "known": known, "listed": listed, "version": version}
    return page(request, "cases.html", context)


def corpus_report(request: Request, catalogue: Catalogue, tree_hash: str, session: Any) -> tuple[dict[str, Any], str]:
    """The run's report, with each case's request as the calculator's query; kept per catalogue and corpus."""
    try:
        rows = current_rows(session)
    except sa_exc.SQLAlchemyError:  # no case table in this database: the repository's files
        session.rollback()
        rows = []
    if rows:
        key = (tree_hash, "db", tuple(sorted((r.case_id, r.content_hash) for r in rows)))
    else:
        paths = case_files([CASES_DIR]) if CASES_DIR.is_dir() else []
        key = (tree_hash, "files", tuple((str(p), p.stat().st_mtime_ns) for p in paths))
    cache: dict[Any, tuple[dict[str, Any], str]] = request.app.state.__dict__.setdefault("web_cases", {})
    if key in cache:
        return cache[key]
    started = time.perf_counter()
    if rows:
        results = run_rows(catalogue, rows)
    else:
        results = [run_case(catalogue, c) for c in load_cases(paths)] if paths else []
    report = case_report.report(results, time.perf_counter() - started)
    requests = {r.case.id: forms.from_request(json.loads(r.case.request_json)) for r in results}
    versions = {r.case.id: r.case.versions for r in results}
    for case in report["cases"]:
        case["query"] = requests.get(case["id"], [])
        case["versions"] = versions.get(case["id"], ())
    if len(cache) > 8:
        cache.clear()
    cache[key] = (report, "db" if rows else "files")
    return cache[key]
