"""The end of an aid as data (role « ended »): décret 2025-606 ends the bonus, décret 2024-1084 the prime.

Expected values come from the texts: the ending dates (2025-07-01, 2024-12-02), the clause of 2025-606 (orders
before 2025-07-01, invoiced or first rent « au plus tard le 30 septembre 2025 », new vehicles, no « plus
avantageuses ») and the clause of 2024-1084 as the history reports it (orders before 2024-12-02, invoiced by
2025-02-14).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.catalogue.loader import DEFAULT_VERSIONS_DIR, load_catalogue
from api.catalogue.store import CACHE, load_tree
from api.http.app import create_app
from api.http.deps import get_session
from legislation import Catalogue, Scheme
from legislation.coverage import measure
from legislation.enums import Acquisition
from legislation.errors import CatalogueError
from legislation.fast.engine import Engine, explained_outcome
from legislation.resolver import ENDED, KEPT_NOT_ON_FILE, calculate, resolve
from legislation.row import Row
from tests.api.support import sqlite_engine

BONUS, PRIME = Scheme.BONUS, Scheme.CONVERSION_PREMIUM
BONUS_END, PRIME_END = "decret-2025-606.2025-07-01", "decret-2024-1084.2024-12-02"


def _row(scheme: Scheme, invoice: date, order: date | None = None, registered: bool | None = False) -> Row:
    return Row(
        acquisition=Acquisition.PURCHASE,
        invoice_date=invoice,
        order_date=order,
        vehicle_previously_registered=registered,
        schemes=(scheme,),
    )


@pytest.mark.parametrize(
    ("scheme", "invoice", "ending"),
    [
        (BONUS, date(2025, 7, 1), BONUS_END),  # the first day of décret 2025-606
        (BONUS, date(2026, 12, 1), BONUS_END),
        (PRIME, date(2024, 12, 2), PRIME_END),  # the first day of décret 2024-1084
        (PRIME, date(2025, 7, 1), PRIME_END),
    ],
)
def test_after_the_end_the_answer_is_ended_naming_the_text_and_the_day(
    catalogue: Catalogue, scheme: Scheme, invoice: date, ending: str
) -> None:
    result = calculate(catalogue, _row(scheme, invoice), scheme)
    assert result.status == ENDED
    assert result.amount is None  # never 0.00
    version = result.resolution.version
    assert version is not None and version.id == ending
    assert version.valid_from == {BONUS_END: date(2025, 7, 1), PRIME_END: date(2024, 12, 2)}[ending]
    note = result.resolution.notes[0]
    assert f"ended on {version.valid_from.isoformat()}" in note and version.source.decree in note
    # Both ending texts are graded secondary (their abolishing words are not on file): the answer says so.
    assert any("graded secondary" in w for w in result.warnings)


def test_the_bonus_end_names_the_cee_replacement_as_a_note_only(catalogue: Catalogue) -> None:
    result = calculate(catalogue, _row(BONUS, date(2025, 7, 1)), BONUS)
    assert "« coup de pouce véhicules particuliers électriques »" in result.resolution.notes[0]
    assert "hors du champ" in result.resolution.notes[0]
    assert result.award is None and result.amount is None


def test_the_last_day_before_the_end_is_not_ended(catalogue: Catalogue) -> None:
    assert calculate(catalogue, _row(BONUS, date(2025, 6, 30)), BONUS).status != ENDED
    assert calculate(catalogue, _row(PRIME, date(2024, 12, 1)), PRIME).status != ENDED


@pytest.mark.parametrize(
    ("order", "invoice", "registered", "opens"),
    [
        (date(2025, 6, 30), date(2025, 9, 30), False, True),  # ordered the day before, invoiced on the deadline
        (date(2025, 6, 30), date(2025, 10, 1), False, False),  # the day after « au plus tard le 30 septembre »
        (date(2025, 7, 1), date(2025, 7, 2), False, False),  # not « avant la date d'entrée en vigueur »
        (date(2025, 6, 30), date(2025, 9, 30), True, False),  # a vehicle registered before: not a new one
    ],
)
def test_the_2025_606_clause_keeps_the_previous_wording_whatever_its_amount(
    catalogue: Catalogue, order: date, invoice: date, registered: bool, opens: bool
) -> None:
    resolution = resolve(catalogue, _row(BONUS, invoice, order, registered), BONUS)
    (check,) = resolution.clauses
    assert check.clause.id == "decret-2025-606-transitoire" and check.open is opens
    assert check.clause.keeps.value == "previous"  # no « lorsqu'elles sont plus avantageuses »
    assert check.clause.rules_date == date(2025, 6, 30)  # « antérieure à la date d'entrée en vigueur »
    result = calculate(catalogue, _row(BONUS, invoice, order, registered), BONUS)
    if not opens:
        assert result.status == ENDED
        return
    assert result.kept_by == "decret-2025-606-transitoire" or result.status == KEPT_NOT_ON_FILE
    kept = catalogue.timeline(BONUS).find(date(2025, 6, 30))
    if kept is None:  # the version in force on 2025-06-30 is not on file: the amount is not known
        assert result.status == KEPT_NOT_ON_FILE and result.amount is None
    else:
        assert result.award is not None and result.award.version_id == kept.id


def test_the_2025_606_clause_without_an_order_date_is_not_evaluated(catalogue: Catalogue) -> None:
    result = calculate(catalogue, _row(BONUS, date(2025, 8, 1)), BONUS)
    assert result.status == ENDED
    assert result.resolution.clauses[0].open is None
    assert any("order_date" in n for n in result.resolution.notes)


def test_the_2024_1084_clause_opens_for_orders_before_2024_12_02_invoiced_by_2025_02_14(catalogue: Catalogue) -> None:
    opened = resolve(catalogue, _row(PRIME, date(2025, 2, 14), date(2024, 12, 1)), PRIME).clauses[0]
    late = resolve(catalogue, _row(PRIME, date(2025, 2, 15), date(2024, 12, 1)), PRIME).clauses[0]
    assert (opened.open, late.open) == (True, False)
    assert calculate(catalogue, _row(PRIME, date(2025, 2, 15), date(2024, 12, 1)), PRIME).status == ENDED


@pytest.mark.parametrize(
    ("scheme", "invoice", "order"),
    [
        (BONUS, date(2025, 7, 1), None),
        (BONUS, date(2025, 9, 30), date(2025, 6, 30)),
        (BONUS, date(2025, 10, 1), date(2025, 6, 30)),
        (PRIME, date(2024, 12, 2), None),
        (PRIME, date(2025, 2, 14), date(2024, 12, 1)),
        (PRIME, date(2026, 1, 1), date(2025, 12, 1)),
    ],
)
def test_the_fast_path_agrees_after_the_end(
    catalogue: Catalogue, scheme: Scheme, invoice: date, order: date | None
) -> None:
    row = _row(scheme, invoice, order)
    assert Engine(catalogue).outcomes(row) == [explained_outcome(catalogue, row, scheme)]


def test_coverage_counts_the_days_after_the_end(catalogue: Catalogue) -> None:
    # The prime ended on 2024-12-02: 2024-12-02 → 2025-06-30 inclusive = 30 (2–31 December) + 31 + 28 + 31 + 30
    # + 31 + 30 = 211 days, inside the measured history (→ 2025-06-30). The bonus ends after it (2025-07-01).
    assert measure(catalogue.timeline(PRIME)).in_ended == 211
    assert measure(catalogue.timeline(BONUS)).in_ended == 0
    # 2025-07-01 → 2025-12-31 inclusive: 31 + 31 + 30 + 31 + 30 + 31 = 184 days after the bonus's end.
    assert measure(catalogue.timeline(BONUS), date(2025, 7, 1), date(2025, 12, 31)).in_ended == 184


def test_an_ending_text_keeps_an_earlier_wording_outright(tmp_path: Path) -> None:
    # « lorsqu'elles sont plus avantageuses » compared with no aid at all always keeps the earlier wording: an
    # ending text's clause must say so with keeps = previous; more_favourable is refused, naming the field.
    import shutil

    tree = tmp_path / "versions"
    shutil.copytree(DEFAULT_VERSIONS_DIR, tree)
    toml = tree / BONUS_END / "version.toml"
    toml.write_text(toml.read_text().replace('keeps = "previous"', 'keeps = "more_favourable"'))
    with pytest.raises(CatalogueError, match=r"transitional\[0\]\.keeps"):
        load_catalogue(tree)


def test_an_ending_text_has_no_end(tmp_path: Path) -> None:
    import shutil

    tree = tmp_path / "versions"
    shutil.copytree(DEFAULT_VERSIONS_DIR, tree)
    toml = tree / BONUS_END / "version.toml"
    toml.write_text(
        toml.read_text().replace("valid_from = 2025-07-01\n", "valid_from = 2025-07-01\nvalid_until = 2026-01-01\n")
    )
    with pytest.raises(CatalogueError, match="valid_until"):
        load_catalogue(tree)


def test_a_hole_before_the_end_must_be_declared(catalogue: Catalogue) -> None:
    # The ending text tiles the timeline like a version: the days between the last version and it are a
    # declared gap (or versions), never silently bridged.
    from api.catalogue.loader import check_catalogue

    gaps = [
        g
        for t in catalogue.timelines.values()
        for g in t.gaps
        if not (g.scheme is PRIME and g.end == date(2024, 12, 2))
    ]
    last = catalogue.timeline(PRIME).versions[-1]
    if last.valid_until == date(2024, 12, 2):
        pytest.skip("the prime is on file up to its end: no gap before it")
    with pytest.raises(CatalogueError, match="undeclared gap in conversion_premium"):
        check_catalogue(list(catalogue.versions.values()), gaps, "versions")


@pytest.fixture
def real_client() -> TestClient:
    engine = sqlite_engine()
    session = Session(engine)
    load_tree(session, DEFAULT_VERSIONS_DIR)
    session.commit()
    app = create_app()
    app.dependency_overrides[get_session] = lambda: session
    CACHE.clear()
    yield TestClient(app)
    CACHE.clear()
    session.close()
    engine.dispose()


def test_in_force_today_answers_200_with_the_ended_status(real_client: TestClient) -> None:
    for scheme, ending, start in (("bonus", BONUS_END, "2025-07-01"), ("conversion_premium", PRIME_END, "2024-12-02")):
        response = real_client.get(f"/v1/schemes/{scheme}/in-force")
        assert response.status_code == 200, response.text
        doc = response.json()
        assert doc["on_is_today"] is True and doc["status"] == "ended"
        assert doc["version"]["version_id"] == ending and doc["version"]["role"] == "ended"
        assert doc["version"]["valid_from"] == start and doc["version"]["provenance"] == "secondary"
        assert f"ended on {start}" in doc["message"]
    before = real_client.get("/v1/schemes/bonus/in-force", params={"on": "2020-07-15"}).json()
    assert before["status"] == "in_force" and before["message"] is None


def test_calculate_after_the_end_over_http(real_client: TestClient) -> None:
    body = {"acquisition": "purchase", "invoice_date": "2025-08-01", "vehicle": {"category": "passenger_car"}}
    response = real_client.post("/v1/calculate", json=body)
    assert response.status_code == 200, response.text
    bonus, prime = response.json()["results"]
    assert (bonus["status"], bonus["amount"], bonus["version_id"]) == ("ended", None, BONUS_END)
    assert (prime["status"], prime["amount"], prime["version_id"]) == ("ended", None, PRIME_END)
    assert bonus["valid_from"] == "2025-07-01" and "ended on 2025-07-01" in bonus["message"]
    assert response.json()["total_amount"] is None


def test_replace_keeps_the_clause_model(catalogue: Catalogue) -> None:
    clause = catalogue.get(BONUS_END).transitional[0]
    assert clause.kept_day(date(2025, 8, 1)) == date(2025, 6, 30)
    assert clause.computed_as_of(date(2025, 8, 1)) == date(2025, 8, 1)  # its own invoice date
    assert replace(clause, rules_date=None).kept_day(date(2025, 8, 1)) is None


def test_the_amount_timeline_and_its_advice_reach_the_end(catalogue: Catalogue) -> None:
    from legislation.advice import timeline_advice
    from legislation.enums import Energy, PersonKind, VehicleCategory
    from legislation.segments import amount_timeline

    row = Row(
        acquisition=Acquisition.PURCHASE,
        order_date=date(2025, 6, 1),
        invoice_date=date(2025, 6, 1),
        vehicle_category=VehicleCategory.PASSENGER_CAR,
        vehicle_energy=Energy.ELECTRIC,
        vehicle_acquisition_cost=3_000_000,
        vehicle_mass_kg=1500,
        vehicle_previously_registered=False,
        vehicle_environmental_score_eligible=True,
        buyer_person_kind=PersonKind.NATURAL_PERSON,
        buyer_reference_income_per_share=2_000_000,
        buyer_bonus_in_last_three_years=False,
        schemes=(BONUS,),
    )
    timeline = amount_timeline(catalogue, row, date(2025, 6, 1), date(2025, 12, 1))
    segments = timeline.segments[BONUS]
    # 2025-06-01 → 2025-09-30: 3 000 € (RFR/part 20 000 € in ]16 300, 26 200]: 2°, 27 % × 30 000 = 8 100 → 3 000), by
    # D251-1.2024-12-02 to 2025-06-30 then kept by décret 2025-606's clause to 2025-09-30; from 2025-10-01: ended.
    assert [(s.start, s.last_day, s.status, s.amount) for s in segments][-1] == (
        date(2025, 10, 1),
        date(2025, 11, 30),
        ENDED,
        None,
    )
    assert all(s.amount == 3000 for s in segments[:-1]) and segments[0].start == date(2025, 6, 1)
    assert segments[-2].last_day == date(2025, 9, 30) and segments[-2].kept_version_id == "D251-1.2024-12-02"
    advice = [a.en for a in timeline_advice(timeline)]
    assert "Invoice on or before 2025-09-30 to keep 3 000 €" in advice[0]
    assert advice[-1].startswith("From 2025-10-01: the aid has ended")


def test_the_batch_output_says_ended_and_names_the_ending_text(tmp_path: Path) -> None:
    import csv
    import io

    from typer.testing import CliRunner

    from api.cli.main import app as cli

    lines = [
        "id,acquisition,order_date,invoice_date,schemes,vehicle_category,vehicle_energy,vehicle_acquisition_cost,"
        "vehicle_mass_kg,vehicle_previously_registered,vehicle_environmental_score_eligible,buyer_person_kind,"
        "buyer_reference_income_per_share",
        # after the end of both aids
        "e1,purchase,,2025-07-01,bonus|conversion_premium,passenger_car,electric,30000.00,1500,false,true,"
        "natural_person,20000.00",
        # ordered before 2025-07-01, invoiced by 2025-09-30: the 2025-06-30 wording, 2°: 27 % × 30 000 → 3 000 €
        "e2,purchase,2025-06-30,2025-09-30,bonus,passenger_car,electric,30000.00,1500,false,true,natural_person,20000.00",
    ]
    path = tmp_path / "in.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["batch", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    out = {(r["id"], r["scheme"]): r for r in csv.DictReader(io.StringIO(result.stdout))}
    bonus, prime = out[("e1", "bonus")], out[("e1", "conversion_premium")]
    assert (bonus["status"], bonus["amount"], bonus["version_id"]) == ("ended", "", BONUS_END)
    assert (prime["status"], prime["amount"], prime["version_id"]) == ("ended", "", PRIME_END)
    kept = out[("e2", "bonus")]
    assert (kept["status"], kept["amount"], kept["version_id"], kept["kept_version_id"]) == (
        "computed",
        "3000.00",
        BONUS_END,
        "D251-1.2024-12-02",
    )
