"""The calculator, its receipts (kept, shown, replayed) and what the date changes.

The form's values are turned into the request's JSON and go through the API's own parser and services:
:func:`api.purchase.render.calculate_document` (the answer of ``POST /v1/calculate``, byte for byte),
:func:`api.audit.receipts.record` / :func:`~api.audit.receipts.replay`, and
:func:`api.purchase.timeline.timeline_document` (``POST /v1/timeline``).
"""

from __future__ import annotations

import hmac
from datetime import date
from decimal import Decimal
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import QueryParams

from api.audit import receipts
from api.catalogue import documents
from api.http.deps import KnownDep, NowDep, SessionDep, TodayDep
from api.http.problems import ProblemError
from api.http.receipts_token import RECEIPTS_TOKEN_ENV, configured_receipts_token
from api.purchase.render import calculate_document, resolve_document
from api.purchase.request import RequestError, dumps, parse_request
from api.purchase.timeline import timeline_document
from api.web import charts, forms
from api.web.catalogue_pages import parse_day
from api.web.citations import find_cited, used_ids
from api.web.render import HtmlRoute, Links, page
from legislation import Catalogue
from legislation.errors import InvalidFacts

router = APIRouter(route_class=HtmlRoute, include_in_schema=False)
MAX_FORM_BYTES = 64_000
SCHEME_CSS = {"bonus": "s-bonus", "conversion_premium": "s-premium"}


def needed_facts(catalogue: Catalogue, request_json: str) -> tuple[set[str], list[str]]:
    """The request paths the versions of the request's dates read (their ``facts``), and those versions."""
    resolved = resolve_document(catalogue, parse_request(request_json))
    facts: set[str] = set()
    version_ids: list[str] = []
    for result in resolved["results"]:
        for version_id in result["versions_to_compute"]:
            version = catalogue.versions.get(version_id)
            if version is None or version_id in version_ids:
                continue
            version_ids.append(version_id)
            doc_facts = documents.version_document(version)["facts"]
            facts |= set(doc_facts["resolution"]) | set(doc_facts["calculator"])
    return facts, version_ids


def linked_results(catalogue: Catalogue, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Each scheme's result with, for every citation, the version and paragraph it points to."""
    out = []
    for result in doc["results"]:
        used = used_ids(result)
        on = _date(result.get("decisive_date"))

        def cite(citation: str | None, used: list[str] = used, on: Any = on) -> dict[str, Any] | None:
            found = find_cited(catalogue, citation, used, on) if citation else None
            return {"version_id": found.version_id, "paragraph": found.paragraph} if found else None

        out.append(
            result
            | {
                "paragraph_link": cite(result.get("paragraph")),
                "steps_linked": [(s, cite(s["citation"])) for s in result["steps"]],
                "alternatives_linked": [(s, cite(s["citation"])) for s in result["alternatives"]],
                "deadline_link": cite(result.get("claim_deadline_citation")),
            }
        )
    return out


def _date(value: Any) -> Any:
    return date.fromisoformat(value) if isinstance(value, str) else None


@router.get("/calculate", response_class=HTMLResponse)
async def calculator(request: Request, known: KnownDep) -> Response:
    """The form (the dates, then the facts the versions read) and, once valid, the answer with its citations."""
    return _calculator(request, known, forms.given(request.query_params))


def _calculator(request: Request, known: Any, values: dict[str, list[str]], status: int = 200) -> Response:
    catalogue = known.catalogue
    context: dict[str, Any] = {
        "values": values,
        "dates_fields": forms.dates_fields(),
        "fact_fields": [],
        "facts_versions": [],
        "errors": [],
        "doc": None,
        "results": [],
        "known": known,
        "query_items": [(k, v) for k, vs in values.items() for v in vs],
        "token_needed": configured_receipts_token() is not None,
    }
    if values:
        try:
            body = forms.to_request_json(values)
            facts, context["facts_versions"] = needed_facts(catalogue, body)
            context["fact_fields"] = forms.needed_paths(facts, values)
            doc = calculate_document(catalogue, parse_request(body))
            context["doc"] = doc
            context["results"] = linked_results(catalogue, doc)
        except RequestError as exc:
            context["errors"] = exc.errors
        except InvalidFacts as exc:
            context["errors"] = [{"field": exc.field or "", "message": str(exc)}]
        if context["errors"]:
            status = 422
            if not context["fact_fields"]:
                context["fact_fields"] = forms.needed_paths(set(), values)
    return page(request, "calculator.html", context, status=status)


async def _form(request: Request) -> dict[str, list[str]]:
    """The posted form (application/x-www-form-urlencoded), at most ``MAX_FORM_BYTES``."""
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise ProblemError(413, "Content Too Large", detail=f"a form is at most {MAX_FORM_BYTES} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemError(422, "Invalid request", errors=[{"field": "(body)", "message": "not UTF-8"}]) from None
    return {"token": [v for k, v in parse_qsl(text) if k == "receipts_token"]} | forms.given(
        QueryParams(text)
    )


@router.post("/receipts", response_class=HTMLResponse)
async def keep_receipt(request: Request, known: KnownDep, session: SessionDep, now: NowDep) -> Response:
    """« Keep a receipt »: the calculation of the form, recorded as ``POST /v1/calculate?receipt=true`` does."""
    values = await _form(request)
    token = values.pop("token", [])
    expected = configured_receipts_token()
    if expected is not None and not (token and hmac.compare_digest(token[-1].encode(), expected.encode())):
        raise ProblemError(
            401,
            "Unauthorized",
            detail=f"keeping a receipt needs the receipts token ({RECEIPTS_TOKEN_ENV})",
            errors=[{"field": "receipts_token", "message": "a receipt is kept only with the receipts token"}],
        )
    try:
        body = forms.to_request_json(values).encode("utf-8")
        text = dumps(calculate_document(known.catalogue, parse_request(body)))
    except (RequestError, InvalidFacts):
        return _calculator(request, known, values)  # the same errors as the form shows
    kept = await run_in_threadpool(receipts.record, session, known, body, text, now=now)
    return RedirectResponse(Links(request)(f"/receipts/{kept.receipt_id}"), status_code=303)


ReceiptId = Annotated[str, Path(max_length=64)]


@router.get("/receipts/{receipt_id}", response_class=HTMLResponse)
def receipt_page(request: Request, receipt_id: ReceiptId, session: SessionDep, known: KnownDep) -> Response:
    """The receipt as recorded, printable, with its replay and the calculator filled in with its request."""
    doc = receipts.document(session, receipts.get(session, receipt_id))
    return page(
        request,
        "receipt.html",
        {
            "receipt": doc,
            "results": linked_results(known.catalogue, doc["response"]),
            "request_items": forms.from_request(doc["request"]),
        },
    )


@router.get("/receipts/{receipt_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, receipt_id: ReceiptId, session: SessionDep, now: NowDep) -> Response:
    """The replay of ``POST /v1/receipts/{id}/replay``: the same revisions, and today's catalogue. Records nothing."""
    doc = receipts.replay(session, receipts.get(session, receipt_id), now=now)
    return page(request, "replay.html", {"replay": doc})


@router.get("/timeline", response_class=HTMLResponse)
async def date_change(
    request: Request,
    known: KnownDep,
    today: TodayDep,
    from_: Annotated[str | None, Query(alias="from", max_length=10)] = None,
    until: Annotated[str | None, Query(max_length=10)] = None,
) -> Response:
    """A purchase's amounts across invoice dates (segments, chart) and the advice, citing their texts."""
    values = forms.given(request.query_params)
    context: dict[str, Any] = {"values": values, "doc": None, "charts": [], "errors": [], "known": known,
                               "query_items": [(k, v) for k, vs in values.items() for v in vs],
                               "start": from_ or "", "until": until or ""}  # fmt: skip
    if values:
        try:
            request_model = parse_request(forms.to_request_json(values))
            doc = timeline_document(
                known.catalogue, request_model, today=today, start=parse_day(from_, "from"),
                until=parse_day(until, "until"),
            )  # fmt: skip
        except (RequestError, InvalidFacts) as exc:
            errors = exc.errors if isinstance(exc, RequestError) else [{"field": exc.field or "", "message": str(exc)}]
            context["errors"] = errors
            return page(request, "timeline.html", context, status=422)
        context["doc"] = doc
        context["chart"] = amount_chart(doc, Links(request))
        context["advice"] = [_advice(a, known.catalogue, doc) for a in doc["advice"]]
    return page(request, "timeline.html", context)


def amount_chart(doc: dict[str, Any], link: Links) -> charts.Chart:
    """The step chart of each scheme's amount over the window (a hatched band where the amount is not known)."""
    window = doc["window"]
    series = []
    for scheme in doc["schemes"]:
        steps = tuple(
            charts.Step(
                start=_date(s["from"]),
                until=_date(s["until"]),
                value=_decimal(s["amount"]),
                title=f"{s['from']} → {s['last_day']}: {s['amount'] or s['status']}",
                href=link(f"/versions/{s['version_id']}") if s["version_id"] else None,
                band="ended" if s["status"] == "ended" else "unknown",
            )
            for s in scheme["segments"]
        )
        css = SCHEME_CSS.get(scheme["scheme"], "s-other")
        series.append(charts.Series(label=scheme["scheme"], css=css, steps=steps))
    return charts.step_chart(series, _date(window["from"]), _date(window["until"]))


def _decimal(value: str | None) -> Decimal | None:
    return Decimal(value) if value is not None else None


def _advice(advice: dict[str, Any], catalogue: Catalogue, doc: dict[str, Any]) -> dict[str, Any]:
    used = [s["version_id"] for sc in doc["schemes"] for s in sc["segments"] if s["version_id"]]
    found = find_cited(catalogue, advice["citation"], used, _date(advice["date"])) if advice.get("citation") else None
    return advice | {"link": {"version_id": found.version_id, "paragraph": found.paragraph} if found else None}
