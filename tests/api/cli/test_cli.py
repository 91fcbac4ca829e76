"""The CLI contract: JSON out, problem documents naming the field for bad input, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli.main import app
from api.purchase.models import CalculationResponse, ResolveResponse

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "request.json"
GOOD = {
    "acquisition": "purchase",
    "invoice_date": "2020-07-15",
    "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "32000.00"},
    "buyer": {"person_kind": "natural_person"},
    "schemes": ["bonus"],
}


def run(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_calculate_example_file() -> None:
    result = run("calculate", str(EXAMPLE))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    CalculationResponse.model_validate(doc)
    bonus = doc["results"][0]
    # 27 % × 32 000 = 8 640 > 7 000: the natural-person cap of D. 251-7 1° (2020)
    assert (bonus["amount"], bonus["version_id"], bonus["paragraph"]) == (
        "7000.00",
        "D251-7.2020-06-01",
        "C. énergie, art. D. 251-7, 1°",
    )


def test_calculate_reads_standard_input() -> None:
    result = run("calculate", stdin=json.dumps(GOOD))
    assert result.exit_code == 0 and json.loads(result.stdout)["total_amount"] == "7000.00"


def test_resolve_conforms_to_its_schema() -> None:
    result = run("resolve", stdin=json.dumps(GOOD))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    ResolveResponse.model_validate(doc)
    assert doc["results"][0]["versions_to_compute"] == ["D251-7.2020-06-01"]


def test_explain_is_readable_text() -> None:
    result = run("calculate", "--explain", stdin=json.dumps(GOOD))
    assert result.exit_code == 0
    assert "Montant / Amount: 7000.00 €" in result.stdout and "C. énergie, art. D. 251-7, 1°" in result.stdout


def _bad(mutate) -> dict:  # type: ignore[no-untyped-def]
    request = json.loads(json.dumps(GOOD))
    mutate(request)
    return request


@pytest.mark.parametrize(
    ("mutation", "field"),
    [
        (lambda r: r["vehicle"].update(acquisition_cost="-1"), "vehicle.acquisition_cost"),
        (lambda r: r["vehicle"].update(acquisition_cost="thirty thousand"), "vehicle.acquisition_cost"),
        (lambda r: r["vehicle"].update(acquisition_cost="1e400"), "vehicle.acquisition_cost"),
        (lambda r: r["vehicle"].update(acquisition_cost="NaN"), "vehicle.acquisition_cost"),
        (lambda r: r.update(invoice_date="2015-02-30"), "invoice_date"),
        (lambda r: r.update(invoice_date=20150101), "invoice_date"),
        (lambda r: r["vehicle"].update(category="tractor"), "vehicle.category"),
        (lambda r: r["vehicle"].update(co2_g_per_km=95.5), "vehicle.co2_g_per_km"),
        (lambda r: r["vehicle"].update(co2_g_per_km=-3), "vehicle.co2_g_per_km"),
        (lambda r: r["vehicle"].update(colour="blue"), "vehicle.colour"),
        (lambda r: r.update(discount="10"), "discount"),
        (lambda r: r.update(acquisition="rent"), "acquisition"),
        (lambda r: r.update(schemes=["malus"]), "schemes.0"),
        (lambda r: r["buyer"].update(person_kind="robot"), "buyer.person_kind"),
        (lambda r: r.update(order_date="2020-07-16"), "invoice_date"),  # invoice before order
        (lambda r: r.pop("invoice_date"), "invoice_date"),  # a purchase needs its invoice date
    ],
)
def test_bad_input_names_the_field(mutation, field: str) -> None:  # type: ignore[no-untyped-def]
    result = run("calculate", stdin=json.dumps(_bad(mutation)))
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["status"] == 422
    assert field in [e["field"] for e in problem["errors"]], problem
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "body", ["", "{", "[]", "null", '"text"', '{"acquisition": "purchase", "invoice_date": "2020-07-15",}']
)
def test_malformed_json_is_a_problem_not_a_traceback(body: str) -> None:
    result = run("calculate", stdin=body)
    assert result.exit_code == 2 and json.loads(result.stderr)["status"] == 422


def test_missing_request_file() -> None:
    result = run("calculate", "/nonexistent/request.json")
    assert result.exit_code == 2 and json.loads(result.stderr)["errors"][0]["field"] == "request"


def test_versions_timeline_and_on_date() -> None:
    result = run("versions", "--scheme", "bonus")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    ids = [v["version_id"] for v in doc["versions"]]
    assert "D251-7.2020-06-01" in ids and ids == sorted(ids, key=lambda i: i.split(".")[-1])
    on = json.loads(run("versions", "--scheme", "bonus", "--on", "2020-12-31").stdout)
    assert on["version"]["version_id"] == "D251-7.2020-06-01"
    gap = run("versions", "--scheme", "bonus", "--on", "2016-01-02")  # gap: D. 251-7 as codified by décret 2015-1823
    problem = json.loads(gap.stderr)
    assert gap.exit_code == 4 and gap.stdout == ""
    assert problem["type"] == "urn:vigueur:problem:no-version-on-file" and problem["declared_gap"] is not None
    assert problem["nearest_versions"]["after"] is not None


def test_versions_bad_date() -> None:
    result = run("versions", "--on", "2016-13-01")
    assert result.exit_code == 2 and json.loads(result.stderr)["errors"][0]["field"] == "on"


def test_show_gives_the_verbatim_text() -> None:
    result = run("show", "D251-7.2020-06-01")
    doc = json.loads(result.stdout)
    seed = (Path(__file__).resolve().parents[3] / "versions" / "D251-7.2020-06-01" / "text.txt").read_text(
        encoding="utf-8"
    )
    assert doc["text"] == seed and doc["source"]["nor"] == "TRER2013154D"


def test_show_unknown_version() -> None:
    result = run("show", "D251-7.1999-01-01")
    assert result.exit_code == 4 and json.loads(result.stderr)["status"] == 404


def test_schema_describes_every_vehicle_and_buyer_field_with_its_french_term() -> None:
    doc = json.loads(run("schema").stdout)
    defs = doc["request"]["$defs"]
    for model in ("VehicleIn", "BuyerIn"):
        for name, prop in defs[model]["properties"].items():
            description = prop.get("description", "")
            assert "«" in description, f"{model}.{name} has no French legal term in its description"
    assert "results" in doc["calculate_response"]["properties"]
