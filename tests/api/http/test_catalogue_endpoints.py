"""GET endpoints of the catalogue: schemes, timeline, in force on a date, one version, diff."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from freezegun import freeze_time
from httpx2 import Response
from pydantic import BaseModel

from api.http.public import catalogue as public
from api.purchase.inputs import calculator_facts
from tests.api.support import CLAUSE_WORDING, CONDITIONS, REFERENCE, SUCCESSOR


def ok(response: Response, model: type[BaseModel]) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    model.model_validate_json(response.content)
    return response.json()


def problem(response: Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    doc = response.json()
    public.Problem.model_validate(doc)
    assert doc["status"] == status
    return doc


def test_schemes_give_coverage_and_declared_gaps(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes"), public.SchemesOut)
    bonus, premium = doc["schemes"]
    assert bonus["scheme"] == "bonus" and bonus["name"] == "bonus écologique"
    assert bonus["coverage"] == {
        "first_day": "2020-06-01",
        "last_day": "2021-06-30",
        "open_ended": False,
        "versions": 2,
    }
    assert bonus["gaps"] == [
        {
            "start": "2019-01-01",
            "end": "2020-06-01",
            "last_day": "2020-05-31",
            "reason": "fixture gap: the 2019 wordings are not on file",
        }
    ]
    assert premium["coverage"] == {"first_day": None, "last_day": None, "open_ended": False, "versions": 0}


def test_schemes_measure_the_days_answered_from_2008_to_mid_2025(client: TestClient) -> None:
    bonus, premium = ok(client.get("/v1/schemes"), public.SchemesOut)["schemes"]
    measured = bonus["measured"]
    # 2008-01-01 → 2025-06-30 inclusive = 6 391 days. Versions 2020-06-01 → 2021-07-01: June–December 2020 (214)
    # + January–June 2021 (181) = 395. Gap 2019-01-01 → 2020-06-01: 365 + 152 (January–May 2020, leap) = 517.
    # Nothing: 6 391 − 395 − 517 = 5 479 (2008-01-01 → 2018-12-31 and 2021-07-01 → 2025-06-30).
    assert (measured["from"], measured["to"], measured["days"]) == ("2008-01-01", "2025-06-30", 6391)
    assert measured["in_versions"]["days"] == 395 == sum(measured["in_versions"]["by_provenance"].values())
    assert measured["in_declared_gaps"] == {"days": 517, "share": "8.0"}  # 517 / 6 391 = 8.08 %
    assert measured["with_nothing"]["days"] == 5479
    first, last = measured["with_nothing"]["periods"]
    assert (first["start"], first["last_day"]) == ("2008-01-01", "2018-12-31")
    assert first["nearest_versions"]["before"] is None
    assert first["nearest_versions"]["after"]["version_id"] == REFERENCE
    assert (last["start"], last["nearest_versions"]["before"]["version_id"]) == ("2021-07-01", SUCCESSOR)
    assert premium["measured"]["with_nothing"]["days"] == 6391


def test_versions_give_the_timeline_in_date_order(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes/bonus/versions"), public.TimelineOut)
    assert [v["version_id"] for v in doc["versions"]] == [REFERENCE, SUCCESSOR]
    assert doc["versions"][1]["last_day_in_force"] == "2021-06-30"
    assert doc["versions"][0]["href"] == f"/v1/versions/{REFERENCE}"
    assert [(s["kind"], s["start"], s["end"]) for s in doc["timeline"]] == [
        ("gap", "2019-01-01", "2020-06-01"),
        ("version", "2020-06-01", "2021-01-21"),
        ("version", "2021-01-21", "2021-07-01"),
    ]


def test_versions_of_an_unknown_scheme_is_422_naming_the_path_parameter(client: TestClient) -> None:
    doc = problem(client.get("/v1/schemes/bonus_ecologique/versions"), 422)
    assert doc["errors"][0]["field"] == "scheme"


def test_in_force_on_a_date_gives_the_version_with_its_verbatim_text_and_source(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes/bonus/in-force", params={"on": "2021-01-21"}), public.InForceOut)
    assert doc["on"] == "2021-01-21" and doc["on_is_today"] is False
    version = doc["version"]
    assert version["version_id"] == SUCCESSOR and "6 000 euros" in version["text"]
    assert version["source"]["nor"] == "TRER2013154D"


def test_in_force_on_the_last_day_of_a_version(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes/bonus/in-force?on=2021-01-20"), public.InForceOut)
    assert doc["version"]["version_id"] == REFERENCE


@freeze_time("2020-07-15T12:00:00Z")
def test_in_force_without_a_date_is_today(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes/bonus/in-force"), public.InForceOut)
    assert (doc["on"], doc["on_is_today"], doc["version"]["version_id"]) == ("2020-07-15", True, REFERENCE)


@freeze_time("2021-01-20T23:30:00Z")
def test_in_force_today_is_the_day_in_paris_not_in_utc(client: TestClient) -> None:
    # 23:30 UTC on 20 January is 00:30 on 21 January in Paris (UTC+1 in winter): the new version applies.
    doc = ok(client.get("/v1/schemes/bonus/in-force"), public.InForceOut)
    assert (doc["on"], doc["version"]["version_id"]) == ("2021-01-21", SUCCESSOR)


@freeze_time("2021-01-20T22:59:59Z")
def test_in_force_today_just_before_midnight_in_paris(client: TestClient) -> None:
    doc = ok(client.get("/v1/schemes/bonus/in-force"), public.InForceOut)
    assert (doc["on"], doc["version"]["version_id"]) == ("2021-01-20", REFERENCE)


def test_in_force_in_a_declared_gap_is_404_naming_the_gap_and_the_nearest_versions(
    client: TestClient,
) -> None:
    doc = problem(client.get("/v1/schemes/bonus/in-force?on=2019-06-01"), 404)
    public.NoVersionProblem.model_validate(doc)
    assert doc["type"] == "urn:vigueur:problem:no-version-on-file"
    assert doc["detail"].startswith("no version of the bonus amounts on file for 2019-06-01")
    assert doc["declared_gap"]["reason"] == "fixture gap: the 2019 wordings are not on file"
    assert doc["nearest_versions"]["before"] is None
    assert doc["nearest_versions"]["after"]["version_id"] == REFERENCE


def test_in_force_after_the_last_version_is_404_naming_the_one_before(client: TestClient) -> None:
    doc = problem(client.get("/v1/schemes/bonus/in-force?on=2021-07-01"), 404)
    assert doc["declared_gap"] is None
    assert doc["nearest_versions"] == {
        "before": {
            "version_id": SUCCESSOR,
            "citation": "C. énergie, art. D. 251-7",
            "valid_from": "2021-01-21",
            "valid_until": "2021-07-01",
        },
        "after": None,
    }


@freeze_time("2024-05-01")
def test_in_force_today_with_no_version_is_404_with_todays_date(client: TestClient) -> None:
    doc = problem(client.get("/v1/schemes/conversion_premium/in-force"), 404)
    assert doc["on"] == "2024-05-01"
    assert doc["nearest_versions"] == {"before": None, "after": None}


def test_in_force_with_a_malformed_date_is_422_naming_on(client: TestClient) -> None:
    for bad in ("2020-02-30", "15/07/2020", "20200715", "2020-W29-3", "", "2020-07-15T00:00:00"):
        doc = problem(client.get("/v1/schemes/bonus/in-force", params={"on": bad}), 422)
        assert doc["errors"][0]["field"] == "on", bad


def test_version_gives_text_source_provenance_clauses_hash_and_facts(client: TestClient) -> None:
    doc = ok(client.get(f"/v1/versions/{SUCCESSOR}"), public.VersionOut)
    assert doc["text"].endswith(CLAUSE_WORDING)
    assert doc["provenance"] == "seed" and doc["version_hash"].startswith("sha256:")
    assert doc["parameters"]["ev_cap_natural"]["value"] == "6000"
    clauses = {c["id"]: c for c in doc["transitional_clauses"]}  # the fixture's own, after the reference's
    assert clauses["orders-before-2021-01-21"]["kept_version_id"] == REFERENCE
    assert clauses["orders-before-2021-01-21"]["wording"] == CLAUSE_WORDING
    new_only = (
        ["vehicle.previously_registered"] if any(c["new_vehicles_only"] for c in clauses.values()) else []
    )
    assert doc["facts"]["resolution"] == [
        "acquisition",
        "invoice_date",
        "first_rent_date",
        "order_date",
        *new_only,
    ]
    assert doc["facts"]["calculator"] == list(
        calculator_facts("bonus_2020_06_01")
    )  # its list: test_codec_and_facts
    assert {"vehicle.category", "vehicle.co2_g_per_km", "vehicle.acquisition_cost"} <= set(
        doc["facts"]["calculator"]
    )


def test_version_text_is_byte_for_byte_the_file(client: TestClient, fixture_tree) -> None:  # noqa: ANN001
    doc = ok(client.get(f"/v1/versions/{REFERENCE}"), public.VersionOut)
    assert doc["text"].encode("utf-8") == (fixture_tree / REFERENCE / "text.txt").read_bytes()


def test_a_text_only_version_has_no_calculator_facts(client: TestClient) -> None:
    doc = ok(client.get(f"/v1/versions/{CONDITIONS}"), public.VersionOut)
    assert (doc["role"], doc["scheme"], doc["calculator"], doc["facts"]["calculator"]) == (
        "conditions",
        None,
        None,
        [],
    )
    assert doc["valid_until"] is None


def test_unknown_version_is_404_naming_the_field(client: TestClient) -> None:
    doc = problem(client.get("/v1/versions/D251-7.1999-01-01"), 404)
    assert doc["type"] == "urn:vigueur:problem:unknown-version"
    assert doc["errors"][0]["field"] == "version_id" and "D251-7.1999-01-01" in doc["detail"]


def test_diff_shows_the_changed_amount_word_by_word(client: TestClient) -> None:
    doc = ok(client.get(f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}"), public.DiffOut)
    assert doc["from"]["version_id"] == REFERENCE and doc["to"]["version_id"] == SUCCESSOR
    assert doc["identical_text"] is False
    first = doc["changes"][0]
    assert (first["op"], first["from"], first["to"], first["paragraph"]) == (
        "replace",
        "7 000",
        "6 000",
        "1°",
    )
    assert first["context_after"].startswith(" euros si le véhicule")
    assert doc["changes"][1]["op"] == "insert" and doc["changes"][1]["to"].strip() == CLAUSE_WORDING
    assert doc["parameters"] == [{"name": "ev_cap_natural", "from": "7000", "to": "6000", "paragraph": "1°"}]
    fields = [m["field"] for m in doc["metadata"]]
    assert fields == ["valid_from", "valid_until", "transitional_clauses"]


def test_diff_words_rebuild_both_texts(client: TestClient) -> None:
    doc = client.get(f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}").json()
    old = "".join(s.get("text") or s.get("from") or "" for s in doc["words"])
    new = "".join(s.get("text") or s.get("to") or "" for s in doc["words"])
    assert old == client.get(f"/v1/versions/{REFERENCE}").json()["text"]
    assert new == client.get(f"/v1/versions/{SUCCESSOR}").json()["text"]


def test_diff_has_a_unified_diff_of_the_lines(client: TestClient) -> None:
    unified = client.get(f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}").json()["unified_diff"]
    assert unified.startswith(f"--- {REFERENCE}\n+++ {SUCCESSOR}\n@@")
    assert "\n-1° Pour les véhicules" in unified and "\n+1° Pour les véhicules" in unified
    assert f"\n+{CLAUSE_WORDING}" in unified


def test_diff_of_a_version_with_itself_is_empty(client: TestClient) -> None:
    doc = ok(client.get(f"/v1/versions/{REFERENCE}/diff/{REFERENCE}"), public.DiffOut)
    assert (
        doc["identical_text"],
        doc["unified_diff"],
        doc["changes"],
        doc["parameters"],
        doc["metadata"],
    ) == (True, "", [], [], [])


def test_diff_of_two_articles_is_422(client: TestClient) -> None:
    doc = problem(client.get(f"/v1/versions/{REFERENCE}/diff/{CONDITIONS}"), 422)
    assert doc["type"] == "urn:vigueur:problem:different-articles"
    assert doc["errors"][0]["field"] == "b"


def test_diff_with_an_unknown_version_is_404(client: TestClient) -> None:
    problem(client.get(f"/v1/versions/{REFERENCE}/diff/D251-7.1999-01-01"), 404)
    problem(client.get(f"/v1/versions/D251-7.1999-01-01/diff/{REFERENCE}"), 404)
