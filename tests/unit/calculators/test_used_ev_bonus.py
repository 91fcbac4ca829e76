"""D. 251-1-1 (bonus for a used electric vehicle, 2020-12-09 → 2022-06-30): which D. 251-7 versions apply it, and
the citation the awards carry (the resolver names the grade of the text whose citation decided the amount)."""

from __future__ import annotations

from datetime import date

from legislation import Catalogue
from legislation.calculators._d251_1_new_vehicle import D251_1_1, USED_EV_BONUS_FROM, USED_EV_ID


def test_the_award_citation_is_the_versions(catalogue: Catalogue) -> None:
    assert catalogue.versions[USED_EV_ID].citation == D251_1_1
    assert catalogue.versions[USED_EV_ID].valid_from == USED_EV_BONUS_FROM == date(2020, 12, 9)


def test_the_bonus_versions_in_force_with_it_rely_on_it(catalogue: Catalogue) -> None:
    """Every D. 251-7 version whose period meets 2020-12-09 → 2022-06-30 applies D. 251-1-1; none other does."""
    text = catalogue.versions[USED_EV_ID]
    assert text.valid_until == date(2022, 7, 1)
    relying = sorted(v.id for v in catalogue.versions.values() if USED_EV_ID in v.relies_on)
    meeting = sorted(
        v.id
        for v in catalogue.versions.values()
        if v.article == "D251-7"
        and v.valid_from < date(2022, 7, 1)
        and (v.valid_until is None or v.valid_until > text.valid_from)
    )
    assert relying == meeting == ["D251-7.2020-06-01", "D251-7.2021-01-21", "D251-7.2021-07-01", "D251-7.2021-07-26"]
