"""Knowledge time through the API, on SQLite and PostgreSQL: the issue's scenario.

Load v1, compute (with a receipt), correct the text, load again: ``known_at`` before the correction gives
the old text and amount, after it the new; the receipt replays to the old amount and reports the
difference with today's. The clock of the requests is frozen (freezegun); loads are given their instant.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api.catalogue.store import CACHE, load_into
from api.http.app import create_app
from api.http.deps import get_session
from api.http.public import catalogue as public
from tests.api.support import BACKENDS, REFERENCE, SUCCESSOR, copy_tree, engine_for, snapshot

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)  # v1 loaded
COMPUTED = "2024-04-01T10:00:00+00:00"  # the dossier computed, with a receipt
T1 = datetime(2024, 5, 1, 8, 0, tzinfo=UTC)  # the correction loaded
TODAY = "2024-06-01T12:00:00+00:00"
BEFORE = "2024-04-15T12:00:00+02:00"  # knowledge instants between the two loads, and after the second
AFTER = "2024-05-01T10:00:01+02:00"  # = 08:00:01Z, one second after the correction
NEVER = "2024-03-01T09:59:59+01:00"  # = 08:59:59Z, one second before the first load

# An electric car (0 g/km) bought by a natural person, ordered after the successor's transitional window:
# C. énergie D. 251-7 (fixture successor, 2021-01-21), 1°: 27 % of the cost, « dans la limite de 6 000
# euros » → 27 % × 32 000 = 8 640 € > 6 000 €: 6 000 €. Corrected to « 6 300 euros »: 6 300 €.
REQUEST: dict[str, Any] = {
    "acquisition": "purchase",
    "order_date": "2021-02-10",
    "invoice_date": "2021-03-01",
    "vehicle": {
        "category": "passenger_car",
        "energy": "electric",
        "co2_g_per_km": 0,
        "acquisition_cost": "32000",
    },
    "buyer": {"person_kind": "natural_person"},
    "schemes": ["bonus"],
}
OLD_AMOUNT, NEW_AMOUNT = "6000.00", "6300.00"
GETS = (
    "/v1/schemes",
    "/v1/schemes/bonus/versions",
    "/v1/schemes/bonus/in-force?on=2021-03-01",
    f"/v1/versions/{SUCCESSOR}",
    f"/v1/versions/{REFERENCE}/diff/{SUCCESSOR}",
    f"/v1/versions/{SUCCESSOR}/revisions",
)
POSTS = ("/v1/resolve", "/v1/calculate")


def corrected(tree: Path, destination: Path) -> Path:
    """The successor's cap corrected from « 6 000 euros » to « 6 300 euros » (text and parameter)."""
    copy = copy_tree(tree, destination)
    text = copy / SUCCESSOR / "text.txt"
    text.write_bytes(text.read_bytes().replace(b"6 000 euros", b"6 300 euros"))
    meta = copy / SUCCESSOR / "version.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8")
        .replace("6 000 euros", "6 300 euros")
        .replace('value = "6000"', 'value = "6300"'),
        encoding="utf-8",
    )
    return copy


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    CACHE.clear()
    with engine_for(request.param) as engine:
        yield engine
    CACHE.clear()


def client_of(engine: Engine) -> TestClient:
    app = create_app()

    def session() -> Iterator[Session]:
        with Session(engine) as s:
            yield s

    app.dependency_overrides[get_session] = session
    return TestClient(app)


def post(client: TestClient, path: str, body: Any = REQUEST) -> Any:
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


def with_known_at(path: str, instant: str) -> str:
    from urllib.parse import quote

    return f"{path}{'&' if '?' in path else '?'}known_at={quote(instant)}"


def test_known_at_before_the_correction_gives_the_old_text_and_amount_and_the_receipt_replays_it(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(COMPUTED):
        computed = post(client, "/v1/calculate?receipt=true")
        plain = post(client, "/v1/calculate")
        before = {p: client.get(p).content for p in GETS} | {p: post(client, p).content for p in POSTS}
    assert computed.status_code == 201, computed.text
    assert computed.content == plain.content  # the receipt changes nothing in the body
    assert computed.json()["total_amount"] == OLD_AMOUNT
    receipt_id = computed.headers["x-vigueur-receipt"]
    assert computed.headers["location"] == f"/v1/receipts/{receipt_id}"

    report = load_into(engine, corrected(fixture_tree, tmp_path / "versions"), now=T1)
    assert [(v.version_id, v.change) for v in report.versions if v.change != "unchanged"] == [
        (SUCCESSOR, "superseded")
    ]
    with freeze_time(TODAY):
        old = client.get(with_known_at(f"/v1/versions/{SUCCESSOR}", BEFORE))
        new = client.get(with_known_at(f"/v1/versions/{SUCCESSOR}", AFTER))
        latest = client.get(f"/v1/versions/{SUCCESSOR}")
        assert "6 000 euros" in old.json()["text"] and "6 300 euros" not in old.json()["text"]
        assert "6 300 euros" in new.json()["text"] and new.content == latest.content
        assert (
            old.headers["x-vigueur-catalogue-load"] == "1" and new.headers["x-vigueur-catalogue-load"] == "2"
        )
        assert old.headers["x-vigueur-known-at"] == "2024-04-15T10:00:00+00:00"
        assert post(client, with_known_at("/v1/calculate", BEFORE)).json()["total_amount"] == OLD_AMOUNT
        assert post(client, with_known_at("/v1/calculate", AFTER)).json()["total_amount"] == NEW_AMOUNT
        assert post(client, "/v1/calculate").json()["total_amount"] == NEW_AMOUNT
        # Every catalogue answer at the instant of the computation is, byte for byte, the one given then.
        for path in GETS:
            then = client.get(with_known_at(path, COMPUTED)).content
            if path.endswith("/revisions"):  # the one document that states the instant asked
                assert json.loads(then) == json.loads(before[path]) | {"known_at": COMPUTED}
                continue
            assert then == before[path], path
        for path in POSTS:
            assert post(client, with_known_at(path, COMPUTED)).content == before[path], path

        replay = client.post(f"/v1/receipts/{receipt_id}/replay")
    assert replay.status_code == 200, replay.text
    public.ReplayOut.model_validate_json(replay.content)
    doc = replay.json()
    same, today = doc["same_revisions"], doc["today"]
    assert doc["receipt"]["total_amount"] == OLD_AMOUNT
    assert same["total_amount"] == OLD_AMOUNT and same["identical_to_receipt"] and same["differences"] == []
    assert same["response"] == computed.json()
    assert all(r["verified"] for r in same["revisions"]) and same["catalogue"]["load_id"] == 1
    assert today["total_amount"] == NEW_AMOUNT and not today["identical_to_receipt"] and doc["today_differs"]
    assert today["catalogue"]["load_id"] == 2 and today["known_at"] == TODAY
    differences = {d["path"]: (d["from"], d["to"]) for d in today["differences"]}
    assert differences["results[0].amount"] == (OLD_AMOUNT, NEW_AMOUNT)
    assert differences["total_amount"] == (OLD_AMOUNT, NEW_AMOUNT)
    assert "results[0].version_hash" in differences
    assert [r["version_id"] for r in today["revisions"]] == [SUCCESSOR]
    assert today["revisions"][0]["revision_id"] != same["revisions"][0]["revision_id"]


def test_the_receipt_keeps_the_request_the_response_and_the_revisions_used(
    engine: Engine, fixture_tree: Path
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    body = json.dumps(REQUEST, indent=1)  # kept canonical: re-serialised, without its whitespace
    with freeze_time(COMPUTED):
        computed = client.post(
            "/v1/calculate?receipt=1", content=body, headers={"content-type": "application/json"}
        )
    receipt = client.get(f"/v1/receipts/{computed.headers['x-vigueur-receipt']}")
    assert receipt.status_code == 200, receipt.text
    public.ReceiptOut.model_validate_json(receipt.content)
    doc = receipt.json()
    from api.audit.policy import canonical_request
    from api.audit.receipts import sha256

    assert doc["request"] == REQUEST and doc["response"] == computed.json()
    assert doc["response_hash"] == sha256(computed.text)
    assert doc["request_hash"] == sha256(canonical_request(body)) != sha256(body)
    assert doc["known_at"] == doc["created_at"] == COMPUTED
    assert doc["catalogue"]["load_id"] == 1 and doc["catalogue"]["recorded_at"] == T0.isoformat()
    assert [(r["version_id"], r["version_hash"]) for r in doc["revisions"]] == [
        (SUCCESSOR, computed.json()["results"][0]["version_hash"])
    ]


def test_a_receipt_under_an_open_transitional_clause_keeps_both_versions(
    engine: Engine, fixture_tree: Path
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    # Ordered before 2021-01-21 and invoiced by 2021-04-20: the successor's clause keeps the reference.
    request = REQUEST | {"order_date": "2021-01-10"}
    with freeze_time(COMPUTED):
        computed = post(client, "/v1/calculate?receipt=true", request)
        known = post(client, with_known_at("/v1/calculate?receipt=true", "2024-03-15T00:00:00Z"), request)
    doc = client.get(f"/v1/receipts/{computed.headers['x-vigueur-receipt']}").json()
    assert [r["version_id"] for r in doc["revisions"]] == [REFERENCE, SUCCESSOR]
    assert (
        client.get(f"/v1/receipts/{known.headers['x-vigueur-receipt']}").json()["known_at"]
        == "2024-03-15T00:00:00+00:00"
    )


def test_known_at_before_the_first_load_says_the_catalogue_held_nothing_then(
    engine: Engine, fixture_tree: Path
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(TODAY):
        answers = [client.get(with_known_at(p, NEVER)) for p in GETS] + [
            post(client, with_known_at(p, NEVER)) for p in POSTS
        ]
        at_the_load = client.get(with_known_at("/v1/schemes", "2024-03-01T09:00:00Z"))
    for answer in answers:
        assert answer.status_code == 404, answer.text
        doc = answer.json()
        assert doc["type"] == "urn:vigueur:problem:nothing-known-then"
        assert doc["errors"][0]["field"] == "known_at" and "held nothing" in doc["detail"]
        assert doc["first_recorded_at"] == T0.isoformat()
    assert at_the_load.status_code == 200  # the load's own instant: known


def test_a_database_never_loaded_is_a_503_with_or_without_known_at(engine: Engine) -> None:
    client = client_of(engine)
    with freeze_time(TODAY):
        for path in ("/v1/schemes", with_known_at("/v1/schemes", BEFORE)):
            assert client.get(path).status_code == 503


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2024-04-15T12:00:00", "has no timezone"),
        ("2024-04-15", "has no timezone"),
        ("yesterday", "is not an ISO 8601 instant"),
        ("2024-13-01T00:00:00Z", "is not an ISO 8601 instant"),
        ("2030-01-01T00:00:00Z", "later than now"),
        ("", "is not an ISO 8601 instant"),
        ("0001-01-01T00:00:00.0+00:01", "out of the range of instants"),  # before year 1 in UTC (schemathesis)
        ("9999-12-31T23:59:59-01:00", "out of the range of instants"),  # after year 9999 in UTC
    ],
)
def test_a_naive_malformed_or_future_known_at_is_a_422_naming_it(
    engine: Engine, fixture_tree: Path, value: str, message: str
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(TODAY):
        answers = [client.get(with_known_at(p, value)) for p in GETS] + [
            post(client, with_known_at(p, value)) for p in POSTS
        ]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        (error,) = answer.json()["errors"]
        assert error["field"] == "known_at" and message in error["message"]


def test_an_unencoded_plus_of_the_offset_is_read_as_a_plus(engine: Engine, fixture_tree: Path) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(TODAY):
        answer = client.get("/v1/schemes?known_at=2024-04-15T12:00:00+02:00")  # « + » arrives as a space
    assert answer.status_code == 200, answer.text
    assert answer.headers["x-vigueur-known-at"] == "2024-04-15T10:00:00+00:00"


def test_revisions_list_what_changed_and_what_was_known_then(
    engine: Engine, fixture_tree: Path, tmp_path: Path
) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    load_into(engine, corrected(fixture_tree, tmp_path / "versions"), now=T1)
    with freeze_time(TODAY):
        now = client.get(f"/v1/versions/{SUCCESSOR}/revisions")
        then = client.get(with_known_at(f"/v1/versions/{SUCCESSOR}/revisions", BEFORE))
        unknown = client.get("/v1/versions/D251-7.1999-01-01/revisions")
        not_yet = client.get(with_known_at(f"/v1/versions/{SUCCESSOR}/revisions", NEVER))
    public.RevisionsOut.model_validate_json(now.content)
    doc = now.json()
    first, second = doc["revisions"]
    assert (first["current"], first["superseded_at"], first["recorded_by"]["load_id"]) == (
        False,
        T1.isoformat(),
        1,
    )
    assert first["superseded_by"]["load_id"] == 2 and first["changes"] is None and not first["removed"]
    assert (second["current"], second["superseded_at"], second["recorded_at"]) == (True, None, T1.isoformat())
    changes = second["changes"]
    assert changes["from_revision_id"] == first["revision_id"]
    assert changes["fields"] == ["text", "parameters.ev_cap_natural"]
    assert any("« 6 000 » → « 6 300 »" in line for line in changes["summary"])
    assert "-" in changes["unified_diff"] and "6 300 euros" in changes["unified_diff"]
    assert changes["parameters"] == [
        {"name": "ev_cap_natural", "from": "6000", "to": "6300", "paragraph": "1°"}
    ]
    public.RevisionsOut.model_validate_json(then.content)
    old = then.json()
    assert old["known_at"] == "2024-04-15T10:00:00+00:00"
    assert [(r["revision_id"], r["current"], r["superseded_at"]) for r in old["revisions"]] == [
        (first["revision_id"], True, None)
    ]
    assert unknown.status_code == 404 and not_yet.status_code == 404


def test_a_version_removed_keeps_its_revisions(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    import shutil

    from tests.api.support import CONDITIONS

    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    smaller = copy_tree(fixture_tree, tmp_path / "versions")
    shutil.rmtree(smaller / CONDITIONS)
    load_into(engine, smaller, now=T1)
    with freeze_time(TODAY):
        assert client.get(f"/v1/versions/{CONDITIONS}").status_code == 404
        assert client.get(with_known_at(f"/v1/versions/{CONDITIONS}", BEFORE)).status_code == 200
        (revision,) = client.get(f"/v1/versions/{CONDITIONS}/revisions").json()["revisions"]
    assert revision["removed"] and not revision["current"] and revision["superseded_by"]["load_id"] == 2


def test_receipts_unknown_or_malformed_are_404(engine: Engine, fixture_tree: Path) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    for receipt_id in ("0" * 32, "not-a-receipt", "../../etc/passwd"):
        for answer in (
            client.get(f"/v1/receipts/{receipt_id}"),
            client.post(f"/v1/receipts/{receipt_id}/replay"),
        ):
            assert answer.status_code == 404, (receipt_id, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"


def test_a_replay_records_nothing(engine: Engine, fixture_tree: Path, tmp_path: Path) -> None:
    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(COMPUTED):
        receipt_id = post(client, "/v1/calculate?receipt=true").headers["x-vigueur-receipt"]
    load_into(engine, corrected(fixture_tree, tmp_path / "versions"), now=T1)
    before = snapshot(engine)
    with freeze_time(TODAY):
        first = client.post(f"/v1/receipts/{receipt_id}/replay")
        second = client.post(f"/v1/receipts/{receipt_id}/replay")
    assert first.content == second.content
    assert snapshot(engine) == before


def test_a_tampered_revision_makes_the_replay_fail_loudly(engine: Engine, fixture_tree: Path) -> None:
    import sqlalchemy as sa

    from api.catalogue.tables import VersionRow

    client = client_of(engine)
    load_into(engine, fixture_tree, now=T0)
    with freeze_time(COMPUTED):
        receipt_id = post(client, "/v1/calculate?receipt=true").headers["x-vigueur-receipt"]
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("ALTER TABLE version_revision DISABLE TRIGGER USER"))
        else:
            connection.execute(sa.text("DROP TRIGGER version_revision_supersede_only"))
        connection.execute(
            sa.update(VersionRow)
            .where(VersionRow.version_id == SUCCESSOR)
            .values(text="6 300 euros, altered")
        )
    CACHE.clear()
    answer = TestClient(client.app, raise_server_exceptions=False).post(f"/v1/receipts/{receipt_id}/replay")
    assert answer.status_code == 500
    assert answer.json()["type"] == "urn:vigueur:problem:store-integrity"
