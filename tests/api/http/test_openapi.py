"""The OpenAPI document is complete (examples everywhere, references resolve) and /docs works offline."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from api.http import examples
from api.http.openapi import EXAMPLES, MODELS
from api.http.public import catalogue as public
from api.purchase.request import parse_request

OPERATIONS = {
    ("/v1/schemes", "get"),
    ("/v1/schemes/{scheme}/versions", "get"),
    ("/v1/schemes/{scheme}/in-force", "get"),
    ("/v1/versions/{version_id}", "get"),
    ("/v1/versions/{a}/diff/{b}", "get"),
    ("/v1/resolve", "post"),
    ("/v1/calculate", "post"),
    ("/healthz", "get"),
    ("/readyz", "get"),
    # issue 4 (api/http/routes/audit.py)
    ("/v1/versions/{version_id}/revisions", "get"),
    ("/v1/receipts/{receipt_id}", "get"),
    ("/v1/receipts/{receipt_id}/replay", "post"),
    ("/v1/admin/versions", "post"),
    # issue 5 (api/http/routes/cases.py, api/http/routes/batch.py)
    ("/v1/cases", "get"),
    ("/v1/cases/{case_id}", "get"),
    ("/v1/cases/import", "post"),
    ("/v1/cases/run", "post"),
    ("/v1/calculate/batch", "post"),
    # issue 13 (api/http/routes/timeline.py, api/http/routes/parameters.py)
    ("/v1/timeline", "post"),
    ("/v1/parameters", "get"),
    ("/v1/parameters/{name}", "get"),
    ("/v1/versions", "get"),
    ("/v1/articles/{article}/versions", "get"),
}


def spec(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_document_lists_every_endpoint(client: TestClient) -> None:
    paths = spec(client)["paths"]
    assert {(p, m) for p, ops in paths.items() for m in ops} == OPERATIONS


def test_every_answer_of_every_endpoint_has_an_example(client: TestClient) -> None:
    for path, operations in spec(client)["paths"].items():
        for method, operation in operations.items():
            assert operation.get("summary") and operation.get("description"), (path, method)
            for status, answer in operation["responses"].items():
                if status == "304":  # Not Modified has no body (RFC 9110 § 15.4.5): nothing to show
                    assert "content" not in answer and "ETag" in answer["headers"], (path, method)
                    continue
                contents = answer["content"]
                assert all("example" in c or c.get("examples") for c in contents.values()), (path, method, status)
                if status.startswith(("4", "5")):
                    assert list(contents) == ["application/problem+json"], (path, method, status)


def test_every_reference_resolves(client: TestClient) -> None:
    document = spec(client)
    schemas = document["components"]["schemas"]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref is not None:
                assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    assert "HTTPValidationError" not in schemas  # every 422 is documented as a problem document


def test_the_request_body_is_the_cli_contract_with_valid_examples(client: TestClient) -> None:
    for path in ("/v1/resolve", "/v1/calculate"):
        body = spec(client)["paths"][path]["post"]["requestBody"]
        content = body["content"]["application/json"]
        assert body["required"] and content["schema"] == {"$ref": "#/components/schemas/CalculationRequest"}
        assert set(content["examples"]) == set(examples.load("requests"))
    for example in examples.load("requests").values():
        parse_request(json.dumps(example["value"]))


def test_the_request_examples_compute(client: TestClient) -> None:
    for name, example in examples.load("requests").items():
        response = client.post("/v1/calculate", json=example["value"])
        assert response.status_code == 200, (name, response.text)


def test_the_examples_match_their_models() -> None:
    for name, model in MODELS.items():
        for example in [examples.load(EXAMPLES[name])] if name in EXAMPLES else []:
            model.model_validate(example)
    for name in examples.names("calculate."):
        MODELS["CalculationResponse"].model_validate(examples.load(name))
    for name in examples.names("problem_"):
        public.Problem.model_validate(examples.load(name))
    public.NoVersionProblem.model_validate(examples.load("problem_no_version"))


def test_docs_pages_load_their_assets_from_the_server_not_a_cdn(client: TestClient) -> None:
    for page, assets in (
        ("/docs", ("/static/docs/swagger-ui-bundle.js", "/static/docs/swagger-ui.css")),
        ("/redoc", ("/static/docs/redoc.standalone.js",)),
    ):
        html = client.get(page)
        assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
        assert "cdn" not in html.text.lower() and "fonts.googleapis" not in html.text
        for asset in assets:
            assert f'"{asset}"' in html.text or f"'{asset}'" in html.text
            served = client.get(asset)
            assert served.status_code == 200 and len(served.content) > 10_000, asset
    assert client.get("/static/docs/favicon.png").status_code == 200


def test_the_root_is_the_auditors_home_and_links_to_the_docs(client: TestClient) -> None:
    response = client.get("/", follow_redirects=False)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert 'href="/docs"' in response.text  # the API's interactive docs stay at /docs, one click away


OPERATION_IDS = {
    ("/v1/schemes", "get"): "list_schemes",
    ("/v1/schemes/{scheme}/versions", "get"): "list_versions",
    ("/v1/schemes/{scheme}/in-force", "get"): "in_force",
    ("/v1/versions/{version_id}", "get"): "get_version",
    ("/v1/versions/{a}/diff/{b}", "get"): "diff_versions",
    ("/v1/resolve", "post"): "resolve",
    ("/v1/calculate", "post"): "calculate",
    ("/healthz", "get"): "health",
    ("/readyz", "get"): "ready",
    ("/v1/versions/{version_id}/revisions", "get"): "list_revisions",
    ("/v1/receipts/{receipt_id}", "get"): "get_receipt",
    ("/v1/receipts/{receipt_id}/replay", "post"): "replay_receipt",
    ("/v1/admin/versions", "post"): "record_version",
    ("/v1/cases", "get"): "list_cases",
    ("/v1/cases/{case_id}", "get"): "get_case",
    ("/v1/cases/import", "post"): "import_cases",
    ("/v1/cases/run", "post"): "run_cases",
    ("/v1/calculate/batch", "post"): "calculate_batch",
    ("/v1/timeline", "post"): "calculate_timeline",
    ("/v1/parameters", "get"): "list_parameters",
    ("/v1/parameters/{name}", "get"): "get_parameter",
    ("/v1/versions", "get"): "list_all_versions",
    ("/v1/articles/{article}/versions", "get"): "list_article_versions",
}


def test_operation_ids_are_readable(client: TestClient) -> None:
    found = {(p, m): op["operationId"] for p, ops in spec(client)["paths"].items() for m, op in ops.items()}
    assert found == OPERATION_IDS


def _response_models(document: dict[str, Any]) -> set[str]:
    """Every schema reachable from a documented answer (responses, not request bodies)."""
    schemas = document["components"]["schemas"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref is not None and ref.rsplit("/", 1)[1] not in found:
                found.add(ref.rsplit("/", 1)[1])
                walk(schemas[ref.rsplit("/", 1)[1]])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for operations in document["paths"].values():
        for operation in operations.values():
            walk(operation["responses"])
    return found


def test_every_property_of_every_response_model_is_described(client: TestClient) -> None:
    document = spec(client)
    models = _response_models(document)
    assert {"CalculationResponse", "SchemeResultOut", "VersionOut", "ReceiptOut", "Problem"} <= models
    undescribed = [
        f"{name}.{prop}"
        for name in sorted(models)
        for prop, definition in document["components"]["schemas"][name].get("properties", {}).items()
        if not definition.get("description")
    ]
    assert not undescribed, f"describe them (Field(description=…) or api/http/glossary.py): {undescribed}"
