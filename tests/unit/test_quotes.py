"""Every number proved against its text: the forms of a value in its quote (legislation/quotes.py)."""

from __future__ import annotations

import tomllib
from decimal import Decimal

import pytest

from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from legislation.enums import ParameterUnit as U
from legislation.quotes import check_value_in_quote, french_words, value_in_quote


def _quote(version: str, name: str) -> str:
    raw = tomllib.loads((DEFAULT_VERSIONS_DIR / version / "version.toml").read_text(encoding="utf-8"))
    return str(raw["parameters"][name]["quote"])


# (version, parameter, value, unit): real quotes of versions/, each in the text's own way of writing numbers.
FOUND = [
    ("D251-7.2020-06-01", "ev_cap_natural", "7000", U.EURO),  # « 7 000 euros »
    ("D251-7.2020-06-01", "ev_rate", "0.27", U.RATE),  # « 27 % »
    ("D251-7.2020-06-01", "phev_amount", "2000", U.EURO),  # « 2000 euros », not grouped
    ("D251-7.2020-06-01", "l_per_kwh", "250", U.EURO_PER_KWH),
    ("D251-7.2020-06-01", "l_min_kw_regulation", "2", U.KW),
    ("D251-7.2017-02-19", "l_small_rate", "0.20", U.RATE),  # « 20 % »
    ("decret-2014-1672-art3.2015-01-01", "transitional_hybrid_rate", "0.0825", U.RATE),  # « 8,25 % »
    ("decret-2014-1672-art3.2015-01-01", "hybrid_rate", "0.05", U.RATE),
    ("D251-8.2021-07-26", "professional_km_min", "12000", U.KM_PER_YEAR),  # « 12 000 kilomètres par an »
    ("D251-8.2021-07-26", "c3_recent_months", "6", U.MONTH),  # « six mois »
    ("decret-2014-1672-art1.2015-01-01", "lease_min_months", "24", U.MONTH),  # « deux ans »
    ("decret-2014-1672-art4.2015-01-01", "scrapped_min_age_years", "15", U.YEAR),  # « quinze ans »
    ("decret-2014-1672-art4.2015-01-01", "scrapped_owned_min_months", "6", U.MONTH),
    ("decret-2014-1672-art4.2015-04-01", "scrapped_owned_min_months", "12", U.MONTH),  # « un an »
    ("decret-2014-1672-art4.2015-04-01", "scrapped_registered_before_year", "2001", U.CALENDAR_YEAR),
]


@pytest.mark.parametrize(("version", "name", "value", "unit"), FOUND)
def test_a_real_quote_proves_its_value(version: str, name: str, value: str, unit: U) -> None:
    assert check_value_in_quote(Decimal(value), unit, _quote(version, name)) is None


@pytest.mark.parametrize(
    ("value", "unit", "quote"),
    [
        ("7500", U.EURO, "dans la limite de 7 000 euros"),  # the example
        ("700", U.EURO, "dans la limite de 7 000 euros"),  # a part of a number is not the number
        ("6", U.EURO, "sans être supérieur à 6 000 euros"),
        ("200", U.EURO, "dans la limite de 1 200 euros"),
        ("0.27", U.EURO, "fixé à 27 % du coût"),  # a rate needs its unit: 0.27 is not written
        ("27", U.RATE, "fixé à 27 % du coût"),  # 27 as a fraction is 2 700 %
        ("0.28", U.RATE, "fixé à 27 % du coût"),
        ("8.25", U.EURO, "fixé à 8,25 % du coût"),  # written, but as a percentage: not euros
        ("2", U.MONTH, "une durée supérieure ou égale à deux ans"),
        ("6", U.YEAR, "dans les six mois"),
        ("6", U.MONTH, "le 6 du mois"),  # a period needs its unit word
        ("2001", U.CALENDAR_YEAR, "avant le 1er janvier 2 001"),  # a year is not grouped
    ],
)
def test_a_value_not_written_in_the_quote_is_refused(value: str, unit: U, quote: str) -> None:
    problem = check_value_in_quote(Decimal(value), unit, quote)
    assert problem is not None and quote in problem and value in problem


@pytest.mark.parametrize(
    ("value", "unit", "quote"),
    [
        ("7000", U.EURO, "7\u00a0000 euros"),  # no-break space
        ("7000", U.EURO, "7\u202f000 euros"),  # narrow no-break space
        ("7000", U.EURO, "7000 euros"),
        ("0.5", U.EURO, "0,5 euro"),
        ("1000.00", U.EURO, "1 000 euros"),
        ("0.0825", U.RATE, "8,25 %"),
        ("0.27", U.RATE, "27%"),
        ("0.4", U.RATE, "40 pour cent"),
        ("24", U.MONTH, "24 mois"),
        ("3", U.MONTH, "trois mois"),
        ("2", U.YEAR, "deux années"),
        ("1", U.YEAR, "un an"),
        ("30", U.DAY, "trente jours"),
        ("1", U.DAY, "le 1er jour"),
        ("2000", U.EURO, "2 000 euros"),
    ],
)
def test_the_forms_the_texts_use(value: str, unit: U, quote: str) -> None:
    assert value_in_quote(Decimal(value), unit, quote)


def test_number_words() -> None:
    assert "deux" in french_words(2) and "quinze" in french_words(15)
    assert {"vingt et un", "vingt-et-un"} <= french_words(21)
    assert "soixante-dix" in french_words(70) and "quatre-vingts" in french_words(80)
    assert "quatre-vingt-dix-neuf" in french_words(99) and "deux cents" in french_words(200)
    assert "mille" in french_words(1000) and "un" in french_words(1)
