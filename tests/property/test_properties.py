"""Properties that hold for any purchase: bounds of the amounts, one version per date, stable history."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from legislation import (
    Acquisition,
    Buyer,
    Catalogue,
    CritAir,
    Energy,
    EuroStandard,
    PersonKind,
    PowerBasis,
    Purchase,
    Scheme,
    ScrappedVehicle,
    VanClass,
    Vehicle,
    VehicleCategory,
    calculate,
)

FIRST, LAST = date(2014, 10, 1), date(2022, 3, 1)
money = st.decimals(min_value=0, max_value=150000, places=2, allow_nan=False, allow_infinity=False)
small = st.decimals(min_value=0, max_value=40, places=1, allow_nan=False, allow_infinity=False)
days = st.integers(min_value=FIRST.toordinal(), max_value=LAST.toordinal()).map(date.fromordinal)


def opt(strategy):  # type: ignore[no-untyped-def]
    return st.one_of(st.none(), strategy)


vehicles = st.builds(
    Vehicle,
    category=opt(st.sampled_from(VehicleCategory)),
    energy=opt(st.sampled_from(Energy)),
    co2_g_per_km=opt(st.integers(min_value=0, max_value=200)),
    acquisition_cost=opt(money),
    battery_rental_cost=st.sampled_from([Decimal("0"), Decimal("1500.00")]),
    electric_motor_power_30min_kw=opt(small),
    net_max_power_kw=opt(small),
    power_basis=opt(st.sampled_from(PowerBasis)),
    uses_lead_battery=opt(st.booleans()),
    battery_energy_kwh=opt(small),
    city_electric_range_km=opt(st.decimals(min_value=0, max_value=120, places=0)),
    euro_standard=opt(st.sampled_from(EuroStandard)),
    critair=opt(st.sampled_from(CritAir)),
    van_class=opt(st.sampled_from(VanClass)),
    previously_registered=opt(st.booleans()),
    first_registration_date=opt(days),
    new_registration_system=opt(st.booleans()),
    wheelchair_accessible=opt(st.booleans()),
)
buyers = st.builds(
    Buyer,
    person_kind=opt(st.sampled_from(PersonKind)),
    reference_income_per_share=opt(st.decimals(min_value=0, max_value=40000, places=0)),
    income_tax_nil=opt(st.booleans()),
    overseas=opt(st.booleans()),
    home_work_distance_km=opt(st.decimals(min_value=0, max_value=60, places=0)),
    professional_km_per_year=opt(st.decimals(min_value=0, max_value=30000, places=0)),
)
scrapped = opt(
    st.builds(
        ScrappedVehicle,
        energy=opt(st.sampled_from(Energy)),
        category=opt(st.sampled_from(VehicleCategory)),
        first_registration_date=opt(st.dates(date(1985, 1, 1), date(2015, 1, 1))),
        owned_since=opt(st.dates(date(1990, 1, 1), date(2015, 1, 1))),
        destruction_date=opt(days),
    )
)


@st.composite
def purchases(draw):  # type: ignore[no-untyped-def]
    decisive = draw(days)
    order = draw(opt(st.integers(min_value=0, max_value=200).map(lambda n: decisive - timedelta(days=n))))
    lease = draw(st.booleans())
    return Purchase(
        acquisition=Acquisition.LEASE if lease else Acquisition.PURCHASE,
        order_date=order,
        invoice_date=None if lease else decisive,
        first_rent_date=decisive if lease else None,
        vehicle=draw(vehicles),
        buyer=draw(buyers),
        scrapped_vehicle=draw(scrapped),
        bonus_ecologique_amount=draw(opt(st.decimals(min_value=0, max_value=7000, places=0))),
    )


def highest_amount(catalogue: Catalogue, version_id: str) -> Decimal:
    """The largest number of euros the version's text writes (caps, flat amounts — and price ceilings, so this
    is an outer bound: the exact amounts are the regression corpus's business)."""
    version = catalogue.get(version_id)
    return max(p.value for p in version.parameters.values())


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(purchase=purchases(), scheme=st.sampled_from(Scheme))
def test_amount_is_between_zero_and_the_versions_highest_amount(
    catalogue: Catalogue, purchase: Purchase, scheme: Scheme
) -> None:
    result = calculate(catalogue, purchase, scheme)
    if result.award is None:
        assert result.status == "no_version_on_file"
        return
    award = result.award
    if award.amount is None:  # not known: never shown as 0.00
        assert result.amount is None and award.eligible is None
        assert result.status in ("missing_facts", "not_covered_on_file")
        return
    assert Decimal("0") <= award.amount <= highest_amount(catalogue, award.version_id)
    assert award.amount == award.amount.quantize(Decimal("0.01"))
    if award.eligible is not True:
        assert award.amount == 0
    for other in result.compared:
        assert other.amount is None or other.amount <= award.amount or result.kept_by is not None or other is award


RATE_PARAGRAPHS_2020 = {"1°": "ev_rate", "6°": "m2n2_rate", "5°": "l_small_rate"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(purchase=purchases())
def test_never_above_the_stated_rate_times_the_cost_2020(catalogue: Catalogue, purchase: Purchase) -> None:
    version = catalogue.get("D251-7.2020-06-01")
    decisive = purchase.first_rent_date or purchase.invoice_date
    if decisive is None or not version.is_in_force(decisive) or purchase.vehicle.acquisition_cost is None:
        return
    award = calculate(catalogue, purchase, Scheme.BONUS).award
    assert award is not None
    paragraph = award.paragraph.rsplit(", ", 1)[-1]
    base = purchase.vehicle.acquisition_cost + purchase.vehicle.battery_rental_cost
    if paragraph in RATE_PARAGRAPHS_2020 and award.eligible:
        assert award.amount <= (version.param(RATE_PARAGRAPHS_2020[paragraph]) * base).quantize(Decimal("0.01"))
    if paragraph == "4°" and award.eligible:  # capped at the lower of 27 % of the cost and 900 €
        assert award.amount <= (version.param("l_rate") * base).quantize(Decimal("0.01"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(purchase=purchases(), scheme=st.sampled_from(Scheme))
def test_adding_a_version_never_changes_results_before_its_start(
    catalogue: Catalogue, purchase: Purchase, scheme: Scheme
) -> None:
    timeline = catalogue.timeline(scheme)
    if not timeline.versions:
        return
    newest = timeline.versions[-1]
    without = Catalogue(
        [v for v in catalogue.versions.values() if v.id != newest.id],
        [g for t in catalogue.timelines.values() for g in t.gaps],
    )
    decisive = purchase.first_rent_date or purchase.invoice_date
    if decisive is None or decisive >= newest.valid_from:
        return
    a, b = calculate(catalogue, purchase, scheme), calculate(without, purchase, scheme)
    assert (a.status, a.award) == (b.status, b.award)
