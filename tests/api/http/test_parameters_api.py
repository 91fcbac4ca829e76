"""A parameter's history (GET /v1/parameters…, `vigueur parameter`), every version of every article, the diff
across a codification."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.catalogue.diff import word_diff
from tests.api.http.test_timeline_api import full_catalogue_client  # noqa: F401  (the fixture « client »)


def test_the_electric_car_cap_has_its_history_across_every_version_with_each_decree(client: TestClient) -> None:
    doc = client.get("/v1/parameters/ev_cap_natural?scheme=bonus").json()
    rows = [(v["version_id"], v["parameter"], v["value"], v["changed"], v["decree"][:26]) for v in doc["values"]]
    assert rows == [
        ("decret-2014-1672-art3.2015-01-01", "car_zero_cap", "6300", False, "Décret n° 2014-1672 du 30 "),
        ("D251-7.2016-01-04", "ev_cap", "6300", False, "Décret n° 2015-1928 du 31 "),
        ("D251-7.2017-01-01", "ev_cap", "6000", True, "Décret n° 2016-1980 du 30 "),
        ("D251-7.2017-02-19", "ev_cap", "6000", False, "Décret n° 2017-196 du 16 f"),
        ("D251-7.2018-01-01", "ev_cap", "6000", False, "Décret n° 2017-1851 du 29 "),
        ("D251-7.2019-01-01", "ev_cap", "6000", False, "Décret n° 2018-1318 du 28 "),
        ("D251-7.2020-01-01", "ev_cap_natural", "6000", False, "Décret n° 2019-1526 du 30 "),
        ("D251-7.2020-06-01", "ev_cap_natural", "7000", True, "Décret n° 2020-656 du 30 m"),
        ("D251-7.2021-01-21", "ev_cap_natural", "7000", False, "Décret n° 2021-37 du 19 ja"),
        ("D251-7.2021-07-01", "ev_cap_natural", "6000", True, "Décret n° 2020-1526 du 7 d"),
        ("D251-7.2021-07-26", "ev_cap_natural", "6000", False, "Décret n° 2021-977 du 23 j"),
        ("D251-7.2022-07-01", "ev_cap_natural", "6000", False, "Décret n° 2022-960 du 29 j"),
        ("D251-7.2022-07-31", "ev_cap_natural", "6000", False, "Décret du 29 juillet 2022 "),
        # 2023–2025 (D. 251-1 II): 5 000 € (2023), the same with the score, 4 000 € above 15 400 € of RFR/part
        # (2024-102), then the cap of the highest incomes, 2 000 € (2024-1084, 3°).
        ("D251-1.2023-01-01", "ev_cap_natural", "5000", True, "Décret n° 2022-1761 du 30 "),
        ("D251-1.2023-12-16", "ev_cap_natural", "5000", False, "Décret n° 2023-886 du 19 s"),
        ("D251-1.2024-02-14", "ev_cap_natural", "4000", True, "Décret n° 2024-102 du 12 f"),
        ("D251-1.2024-12-02", "band3_cap", "2000", True, "Décret n° 2024-1084 du 29 "),
    ]
    assert doc["notion"] == "ev_cap.natural_person"
    assert any("splits ev_cap into ev_cap.natural_person = ev_cap_natural" in n for n in doc["notes"])
    first = doc["values"][0]
    assert first["unit"] == "euro" and first["paragraph"] == "1° b)" and first["provenance"] == "seed"
    assert (first["valid_from"], first["valid_until"]) == ("2015-01-01", "2016-01-01")


def test_the_whole_notion_lists_both_parts_after_the_split(client: TestClient) -> None:
    doc = client.get("/v1/parameters/ev_cap").json()
    assert {v["parameter"] for v in doc["values"]} == {
        "car_zero_cap",
        "ev_cap",
        "ev_cap_natural",
        "ev_cap_legal",
        # 2023–2025: the low-income cap and the caps by RFR/part of décret 2024-1084 are parts of the cap too
        "ev_cap_low_income",
        "band1_cap",
        "band2_cap",
        "band3_cap",
    }
    listed = {p["name"]: p for p in client.get("/v1/parameters").json()["parameters"]}
    assert listed["ev_cap"]["names"] == ["car_zero_cap", "ev_cap"] and "ev_cap.natural_person" in listed
    missing = client.get("/v1/parameters/no_such_thing")
    assert missing.status_code == 404 and "/v1/parameters" in missing.json()["errors"][0]["message"]


def test_every_version_of_every_article_is_listed_and_filtered(client: TestClient) -> None:
    everything = client.get("/v1/versions").json()["versions"]
    assert {v["role"] for v in everything} >= {"amounts", "conditions", "management"}
    on = client.get("/v1/versions?scheme=bonus&on=2015-03-31").json()["versions"]
    assert "decret-2014-1672-art3.2015-01-01" in {v["version_id"] for v in on}
    assert all(v["scheme"] == "bonus" for v in on)
    amounts = client.get("/v1/versions?role=amounts&provenance=official").json()["versions"]
    assert amounts and all(v["role"] == "amounts" and v["provenance"] == "official" for v in amounts)
    article = client.get("/v1/articles/D251-7/versions").json()["versions"]
    assert [v["version_id"] for v in article] == [
        "D251-7.2016-01-04", "D251-7.2017-01-01", "D251-7.2017-02-19", "D251-7.2018-01-01", "D251-7.2019-01-01",
        "D251-7.2020-01-01", "D251-7.2020-06-01", "D251-7.2021-01-21", "D251-7.2021-07-01", "D251-7.2021-07-26",
        "D251-7.2022-07-01", "D251-7.2022-07-31",
    ]
    assert client.get("/v1/articles/D999/versions").status_code == 404
    assert client.get("/v1/versions?on=2015-02-30").json()["errors"][0]["field"] == "on"


def test_the_404_of_an_unknown_version_names_an_endpoint_that_lists_it(client: TestClient) -> None:
    hint = client.get("/v1/versions/D251-10.2099-01-01").json()["errors"][0]["message"]
    assert "GET /v1/versions" in hint
    listed = {v["version_id"] for v in client.get("/v1/versions").json()["versions"]}
    assert "D251-10.2017-01-01" in listed  # a conditions text: not on any scheme timeline, listed here


def test_the_diff_works_across_a_codification(client: TestClient) -> None:
    response = client.get("/v1/versions/decret-2014-1672-art3.2015-01-01/diff/D251-7.2017-01-01")
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["codification"]["to_article"] == "D251-7"
    cap = next(p for p in doc["parameters"] if p.get("notion") == "ev_cap")
    assert (cap["from_name"], cap["name"], cap["from"], cap["to"]) == ("car_zero_cap", "ev_cap", "6300", "6000")
    refused = client.get("/v1/versions/D251-7.2017-01-01/diff/D251-8.2017-01-01")
    assert refused.status_code == 422 or refused.status_code == 400


def test_a_pure_whitespace_change_is_no_change() -> None:
    segments = word_diff("le montant  est fixé à\n7 000 euros", "le montant est fixé à 7 000 euros")
    assert [s["op"] for s in segments] == ["equal"] * len(segments)
    assert [s["op"] for s in word_diff("à 7 000 euros", "à  6 000 euros") if s["op"] != "equal"] == ["replace"]
