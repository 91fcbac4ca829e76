"""The codec (version ↔ JSON, exact), the facts each calculator reads, and the settings."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from api.catalogue import codec
from api.catalogue.loader import load_catalogue
from api.purchase.inputs import calculator_facts, is_request_path
from api.purchase.render import to_purchase
from api.settings import Settings, normalize_database_url, redact_database_url
from legislation import Catalogue
from legislation.calculators import CALCULATORS
from legislation.resolver import calculate


def test_every_version_on_file_round_trips_through_json_with_the_same_hash(catalogue: Catalogue) -> None:
    assert catalogue.versions
    for version in catalogue.versions.values():
        doc = json.loads(json.dumps(codec.version_to_json(version)))  # plain JSON, no Python objects left
        rebuilt = codec.version_from_json(doc)
        assert rebuilt == version, version.id
        assert rebuilt.content_hash == version.content_hash, version.id


def test_the_fixture_tree_round_trips_too(fixture_tree: Path) -> None:
    for version in load_catalogue(fixture_tree).versions.values():
        assert codec.version_from_json(codec.version_to_json(version)) == version


decimals = st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(lambda d: d.is_finite())


@settings(max_examples=60, deadline=None)
@given(
    value=decimals, text=st.text(min_size=1), notes=st.text(), valid_from=st.dates(max_value=date(2100, 1, 1))
)
def test_decimals_dates_and_unicode_round_trip_exactly(
    catalogue: Catalogue, value: Decimal, text: str, notes: str, valid_from: date
) -> None:
    from dataclasses import replace

    base = next(iter(catalogue.versions.values()))
    name = next(iter(base.parameters), None)
    parameters = {name: replace(base.parameters[name], value=value)} if name else {}
    version = codec.rehash(
        replace(base, text=text, notes=notes, valid_from=valid_from, valid_until=None, parameters=parameters)
    )
    rebuilt = codec.version_from_json(json.loads(json.dumps(codec.version_to_json(version))))
    assert rebuilt == version and rebuilt.content_hash == version.content_hash
    if name:
        assert str(rebuilt.parameters[name].value) == str(value)  # « 0.270 » stays « 0.270 »


def test_the_reference_calculator_reads_these_facts() -> None:
    # Read from bonus_2020_06_01.py: ctx.need on category, co2, city range, lead battery, power, its basis,
    # kWh; ctx.vehicle.energy (3°); kit.cost_with_battery (cost + battery rental); kit caps (person kind);
    # kit.lease_refusal (acquisition, lease_duration_months: the two-year lease of D. 251-1); the used-vehicle
    # condition of D. 251-1, 2° (previously_registered) and, from 2020-12-09, the used-vehicle bonus of D. 251-1-1
    # (first_registration_date: at least two years before the invoice).
    assert calculator_facts("bonus_2020_06_01") == (
        "acquisition",
        "buyer.person_kind",
        "lease_duration_months",
        "vehicle.acquisition_cost",
        "vehicle.battery_energy_kwh",
        "vehicle.battery_rental_cost",
        "vehicle.category",
        "vehicle.city_electric_range_km",
        "vehicle.co2_g_per_km",
        "vehicle.energy",
        "vehicle.first_registration_date",
        "vehicle.net_max_power_kw",
        "vehicle.power_basis",
        "vehicle.previously_registered",
        "vehicle.uses_lead_battery",
    )


def test_every_calculator_reads_only_request_fields() -> None:
    for key in CALCULATORS:
        facts = calculator_facts(key)
        assert facts, key
        assert all(is_request_path(f) for f in facts), key
    assert calculator_facts("no_such_calculator") == ()


def test_request_paths() -> None:
    assert is_request_path("vehicle.co2_g_per_km") and is_request_path("scrapped_vehicle.energy")
    assert is_request_path("invoice_date") and is_request_path("scrapped_vehicle")
    assert (
        not is_request_path("vehicle.colour")
        and not is_request_path("vehicle")
        and not is_request_path("schemes")
    )


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_missing_fact_named_by_a_calculation_is_among_the_facts_listed(
    catalogue: Catalogue, data: st.DataObject
) -> None:
    from api.purchase.request import CalculationRequest

    amounts = [v for v in catalogue.versions.values() if v.calculator]
    version = data.draw(st.sampled_from(amounts))
    vehicle = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "category": st.sampled_from(
                    ["passenger_car", "van", "two_three_wheeler", "electric_bicycle", "light_m2_n2"]
                ),
                "energy": st.sampled_from(
                    ["electric", "hydrogen", "petrol_electric_hybrid", "petrol", "diesel"]
                ),
                "co2_g_per_km": st.integers(0, 200),
                "acquisition_cost": st.integers(0, 90_000).map(str),
                "uses_lead_battery": st.booleans(),
                "net_max_power_kw": st.integers(0, 10).map(str),
            },
        )
    )
    last = version.last_day or version.valid_from
    request = CalculationRequest.model_validate_json(
        json.dumps(
            {
                "acquisition": "purchase",
                "invoice_date": data.draw(st.dates(version.valid_from, last)).isoformat(),
                "vehicle": vehicle,
                "schemes": [version.scheme.value] if version.scheme else None,
            }
        )
    )
    purchase = to_purchase(request)
    for scheme in purchase.schemes:
        result = calculate(catalogue, purchase, scheme)
        for award in result.compared or ((result.award,) if result.award else ()):
            calculator = catalogue.get(award.version_id).calculator
            assert calculator is not None
            assert set(award.missing_facts) <= set(calculator_facts(calculator)), (
                award.version_id,
                award.missing_facts,
            )


def test_settings_come_from_the_environment_when_asked() -> None:
    assert Settings.from_env({"HOME": "/u"}) == Settings(
        database_url="sqlite:////u/.local/share/vigueur/vigueur.db", versions_dir=None
    )
    found = Settings.from_env(
        {"DATABASE_URL": "postgres://u:p@db:5432/v", "VIGUEUR_VERSIONS_DIR": "/data/versions"}
    )
    assert found.database_url == "postgresql+psycopg://u:p@db:5432/v" and found.versions_dir == Path(
        "/data/versions"
    )


def test_database_urls_are_normalized_and_redacted() -> None:
    assert normalize_database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalize_database_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalize_database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert (
        redact_database_url("postgresql+psycopg://user:s3cr3t@host:5432/db")
        == "postgresql+psycopg://user:***@host:5432/db"
    )
    assert redact_database_url("postgresql+psycopg://user@host/db") == "postgresql+psycopg://user@host/db"
    assert redact_database_url("sqlite:///./vigueur.db") == "sqlite:///./vigueur.db"
