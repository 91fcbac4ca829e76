"""The OpenAPI document: responses with their models and examples, the request body of resolve/calculate,
problem documents under ``application/problem+json``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel

from api.http import examples, glossary
from api.http.openapi_contract import refine
from api.http.public import catalogue as public
from api.purchase.models import CalculationResponse, ResolveResponse
from api.purchase.request import DECISIVE_DATE_RULES, BuyerIn, CalculationRequest, VehicleIn

MODELS: dict[str, type[BaseModel]] = {
    "SchemesOut": public.SchemesOut,
    "TimelineOut": public.TimelineOut,
    "InForceOut": public.InForceOut,
    "VersionOut": public.VersionOut,
    "DiffOut": public.DiffOut,
    "HealthOut": public.HealthOut,
    "ReadyOut": public.ReadyOut,
    "CalculationResponse": CalculationResponse,
    "ResolveResponse": ResolveResponse,
    "RevisionsOut": public.RevisionsOut,
    "ReceiptOut": public.ReceiptOut,
    "ReplayOut": public.ReplayOut,
    "LoadReportOut": public.LoadReportOut,
}
SUCCESS = {
    "SchemesOut": "The schemes and their coverage.",
    "TimelineOut": "The scheme's versions and gaps in date order.",
    "InForceOut": "The version in force on the day, with its verbatim text.",
    "VersionOut": "The version.",
    "DiffOut": "The differences, from the first version to the second.",
    "HealthOut": "The process answers.",
    "ReadyOut": "The database answers and holds a catalogue.",
    "CalculationResponse": "One result per scheme and the total.",
    "ResolveResponse": "One resolution per scheme.",
    "RevisionsOut": "The revisions, oldest first, each with what changed from the previous one.",
    "ReceiptOut": "The receipt, as recorded.",
    "ReplayOut": "Both recomputations, and how each differs from the receipt.",
    "LoadReportOut": "Equal to the current revision: nothing was recorded.",
}
EXAMPLES = {  # the example file (api/http/examples/<name>.json) of each model's answer
    "SchemesOut": "schemes",
    "TimelineOut": "timeline",
    "InForceOut": "in_force",
    "VersionOut": "version",
    "DiffOut": "diff",
    "HealthOut": "health",
    "ReadyOut": "ready",
    "ResolveResponse": "resolve",
    "RevisionsOut": "revisions",
    "ReceiptOut": "receipt",
    "ReplayOut": "replay",
    "LoadReportOut": "correction",
}
PROBLEMS: dict[int, tuple[str, str, dict[str, Any]]] = {
    401: ("No bearer token, or not the configured one.", "Problem", examples.load("problem_401")),
    404: (
        "Unknown version, or no version on file for the date (the problem names the nearest versions); "
        "or known_at before the first load (nothing known then).",
        "NoVersionProblem",
        examples.load("problem_no_version"),
    ),
    413: ("The body is larger than 1 MB.", "Problem", examples.load("problem_413")),
    415: ("The body is not sent as application/json.", "Problem", examples.load("problem_415")),
    422: ("Invalid input: each failing field is named by its path.", "Problem", examples.load("problem_422")),
    503: ("The database does not answer, or holds no catalogue yet.", "Problem", examples.load("problem_503")),
}

# Readable operation ids (client generators name their methods after them): the route function's name, but
# where that name says less than the operation.
RENAMED_OPERATIONS = {
    "scheme_versions": "list_versions",
    "diff": "diff_versions",
    "revisions": "list_revisions",
    "healthz": "health",
    "readyz": "ready",
    "import_case_file": "import_cases",
}


def operation_id(route: APIRoute) -> str:
    """The operationId of a route: ``calculate``, ``resolve``, ``in_force``, ``list_versions``, …"""
    return RENAMED_OPERATIONS.get(route.name, route.name)


def responses(model: str, *statuses: int, db: bool = True) -> dict[int | str, dict[str, Any]]:
    """The documented answers of a route: its model with an example, and its problem documents."""
    out: dict[int | str, dict[str, Any]] = {
        200: {
            "model": MODELS[model],
            "description": SUCCESS[model],
            "content": {"application/json": success_examples(model)},
        }
    }
    for status in (*statuses, *((503,) if db else ())):
        description, schema, example = PROBLEMS[status]
        if status == 404 and model != "InForceOut":
            schema, example = "Problem", examples.load("problem_404")
        out[status] = {
            "description": description,
            "content": {
                "application/problem+json": {
                    "schema": {"$ref": f"#/components/schemas/{schema}"},
                    "example": example,
                }
            },
        }
    out[500] = {
        "description": "A bug of vigueur (never caused by the request); logged.",
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": examples.load("problem_500"),
            }
        },
    }
    return out


def success_examples(model: str) -> dict[str, Any]:
    """``example`` (one generated answer), or ``examples`` for ``calculate`` (one per request example)."""
    if model != "CalculationResponse":
        return {"example": examples.load(EXAMPLES[model])}
    requests = examples.load("requests")
    return {
        "examples": {
            name: {"summary": requests[name]["summary"], "value": examples.load(f"calculate.{name}")}
            for name in requests
        }
    }


def receipt_created() -> dict[int | str, dict[str, Any]]:
    """The 201 of ``POST /v1/calculate?receipt=true``: the same body, the receipt in the headers."""
    return {
        201: {
            "description": "receipt=true: the same body as the 200, byte for byte; the receipt was recorded.",
            "headers": {
                "X-Vigueur-Receipt": {"description": "The receipt id.", "schema": {"type": "string"}},
                "Location": {"description": "/v1/receipts/{receipt_id}", "schema": {"type": "string"}},
            },
            "content": {"application/json": success_examples("CalculationResponse")},
        }
    }


PROBLEM_409: dict[str, Any] = {  # a correction that moves a stored case (tests/api/http/test_writes.py, live)
    "type": "urn:vigueur:problem:correction-moves-cases",
    "title": "Correction moves cases",
    "status": 409,
    "detail": "nothing was recorded: the correction moves 1 stored case(s), 1 not accepted; read them and list "
    "their ids in accept_moves to record it",
    "errors": [{"field": "accept_moves", "message": "case cap-2021-natural-person moves and is not accepted"}],
    "moved": [
        {
            "id": "cap-2021-natural-person",
            "changes": [{"scheme": "bonus", "field": "amount", "before": "6000.00", "after": "6300.00"}],
        }
    ],
}


def admin_responses() -> dict[int | str, dict[str, Any]]:
    """The answers of ``POST /v1/admin/versions``."""
    out = responses("LoadReportOut", 401, 413, 415, 422)
    out[201] = {
        "description": "Recorded: the new revision supersedes the current one (Location: its revisions).",
        "content": {"application/json": {"example": examples.load("correction")}},
    }
    out[409] = {
        "description": (
            "The correction moves stored regression cases that `accept_moves` does not list: nothing was "
            "recorded; `moved` lists each moved case (id, and per change: scheme, field, before, after)."
        ),
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": PROBLEM_409,
            }
        },
    }
    out[404] = {
        "description": "Writes are off: VIGUEUR_ADMIN_TOKEN is not configured.",
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "example": examples.load("problem_writes_off"),
            }
        },
    }
    return out


def admin_request_body() -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "description": "The two files of the version's folder, as strings, and the correction's reason.",
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/AdminVersionIn"},
                    "example": examples.load("admin_version_in"),
                }
            },
        },
        "security": [{"bearer": []}],
    }


def request_body(kind: str) -> dict[str, Any]:
    """The request of ``POST /v1/resolve`` and ``/v1/calculate``: the strict CalculationRequest, examples."""
    return {
        "requestBody": {
            "required": True,
            "description": f"The purchase or lease to {kind}: the JSON of `vigueur {kind} request.json`. "
            "Unknown "
            "fields are refused; amounts are strings or numbers with at most two decimals.",
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/CalculationRequest"},
                    "examples": examples.load("requests"),
                }
            },
        }
    }


def build(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the models referenced by hand (request, problems) in its components."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for model in (CalculationRequest, public.Problem, public.NoVersionProblem, public.AdminVersionIn):
        found = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in found.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components[model.__name__] = found
    components["CalculationRequest"]["allOf"] = DECISIVE_DATE_RULES
    refine(schema, (CalculationRequest, VehicleIn, BuyerIn))
    glossary.describe(components)
    schema["components"]["securitySchemes"] = {
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "VIGUEUR_ADMIN_TOKEN; the write endpoints are off (404) when it is unset.",
        }
    }
    app.openapi_schema = schema
    return schema
