"""The pieces of the pages, without a browser: the highlighted text, the form ↔ request, the citations' targets,
the charts' shapes, the euros."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from functools import cache
from urllib.parse import urlencode

import pytest
from starlette.datastructures import QueryParams

from api.catalogue.loader import DEFAULT_VERSIONS_DIR, load_catalogue
from api.purchase.request import RequestError, parse_request
from api.web import charts, forms, highlight
from api.web.citations import find_cited
from api.web.render import euros
from legislation import Catalogue


@cache
def catalogue() -> Catalogue:
    return load_catalogue(DEFAULT_VERSIONS_DIR)


def test_the_highlighted_runs_are_the_verbatim_text_byte_for_byte() -> None:
    for version in catalogue().versions.values():
        runs = highlight.runs(version, cited="1°")
        assert "".join(r.text for r in runs) == version.text, version.id


def test_every_quote_is_highlighted_whole_under_its_parameter() -> None:
    for version in catalogue().versions.values():
        runs = highlight.runs(version)
        for name, parameter in version.parameters.items():
            covered = "".join(r.text for r in runs if name in r.parameters)
            assert covered == parameter.quote, (version.id, name)
            assert sum(name in r.starts for r in runs) == 1  # one anchor, one keyboard stop


def test_a_cited_paragraph_marks_the_quotes_of_its_parameters() -> None:
    version = catalogue().get("decret-2014-1672-art3.2015-01-01")
    runs = highlight.runs(version, cited="1° a), 2e alinéa")
    cited = "".join(r.text for r in runs if r.cited)
    assert "8,25 %" in cited and "sans être inférieur à 1 650 euros" in cited
    assert "fixé à 5 %" not in cited  # the 1st alinéa's rate is not cited
    assert sum(r.first_cited for r in runs) == 1


def test_a_cited_paragraph_without_parameters_marks_its_line() -> None:
    text_only = next(v for v in catalogue().versions.values() if not v.parameters and "\n2° " in v.text)
    runs = highlight.runs(text_only, cited="2°")
    assert [r.text for r in runs if r.cited][0].lstrip().startswith("2°")


@pytest.mark.parametrize(
    ("paragraph", "marks"),
    [("1° a), 2e alinéa", ["1°", "a)"]), ("2°", ["2°"]), ("I, 1°", ["I", "1°"]), ("3e alinéa", [])],
)
def test_paragraph_marks(paragraph: str, marks: list[str]) -> None:
    assert highlight.paragraph_marks(paragraph) == marks


def test_a_step_citation_points_to_its_version_and_paragraph() -> None:
    found = find_cited(
        catalogue(), "décret n° 2014-1672, art. 3, 1° a), 2e alinéa", ["decret-2014-1672-art3.2015-01-01"]
    )
    assert found is not None
    assert (found.version_id, found.paragraph) == ("decret-2014-1672-art3.2015-01-01", "1° a), 2e alinéa")
    by_date = find_cited(catalogue(), "décret n° 2014-1672, art. 9", [], date(2015, 3, 31))
    assert by_date is not None and by_date.version_id.startswith("decret-2014-1672-art9")
    assert find_cited(catalogue(), "a text not on file, art. 1", [], date(2015, 3, 31)) is None


def test_the_form_gives_back_the_request_it_was_filled_with() -> None:
    request = forms.README_REQUEST
    query = QueryParams(urlencode(forms.from_request(request)))
    rebuilt = parse_request(forms.to_request_json(forms.given(query)))
    assert rebuilt == parse_request(json.dumps(request))


def test_the_form_names_the_field_of_a_bad_value() -> None:
    with pytest.raises(RequestError) as caught:
        forms.to_request_json({"acquisition": ["purchase"], "vehicle.co2_g_per_km": ["95,5"]})
    assert caught.value.errors == [{"field": "vehicle.co2_g_per_km", "message": "'95,5' is not a whole number"}]
    with pytest.raises(RequestError) as refused:  # the API's parser: the same path
        parse_request(forms.to_request_json({"acquisition": ["purchase"], "vehicle.energy": ["steam"]}))
    assert refused.value.errors[0]["field"] == "vehicle.energy"


def test_a_french_decimal_comma_is_read() -> None:
    doc = json.loads(forms.to_request_json({"vehicle.acquisition_cost": ["30 000,50"]}))
    assert doc == {"vehicle": {"acquisition_cost": "30000.50"}}


def test_every_field_quotes_its_french_term() -> None:
    assert all(f.term for f in forms.FIELDS), [f.path for f in forms.FIELDS if not f.term]
    assert forms.BY_PATH["vehicle.co2_g_per_km"].term == "taux d'émission de dioxyde de carbone"


def test_an_unknown_amount_is_a_hatched_band_never_a_zero() -> None:
    steps = (
        charts.Step(start=date(2015, 1, 1), until=date(2015, 4, 1), value=Decimal("2475"), title="a"),
        charts.Step(start=date(2015, 4, 1), until=date(2015, 7, 1), value=None, title="unknown"),
        charts.Step(start=date(2015, 7, 1), until=date(2016, 1, 1), value=Decimal("1500"), title="b"),
    )
    chart = charts.step_chart([charts.Series(label="bonus", css="s-bonus", steps=steps)], date(2015, 1, 1),
                              date(2016, 1, 1))  # fmt: skip
    assert [line["label"] for line in chart.lines] == ["2\u202f475\u00a0€", "1\u202f500\u00a0€"]
    assert len(chart.unknown) == 1 and chart.unknown[0]["title"] == "unknown"
    assert chart.unknown[0]["band"] == "unknown"
    assert chart.risers == []  # no line is drawn across the unknown months
    plot = chart.plot
    assert chart.lines[0]["x1"] == plot["x"] and chart.lines[1]["x2"] == plot["x"] + plot["w"]
    assert chart.lines[0]["y"] < chart.lines[1]["y"] < plot["bottom"]  # higher amount, higher line


def test_a_period_on_the_bar() -> None:
    first, end = date(2008, 1, 1), date(2018, 1, 1)  # 3 653 days
    assert charts.position(date(2008, 1, 1), date(2013, 1, 1), first, end) == (0.0, round(100 * 1827 / 3653, 3))
    last = (round(100 * 3288 / 3653, 3), round(100 * 365 / 3653, 3))  # 2017-01-01 is day 3 288; 365 days on
    assert charts.position(date(2017, 1, 1), None, first, end) == last
    assert charts.position(date(2019, 1, 1), None, first, end) is None


@pytest.mark.parametrize(
    ("amount", "text"),
    [("2475.00", "2\u202f475,00\u00a0€"), ("0.00", "0,00\u00a0€"), ("1000000.50", "1\u202f000\u202f000,50\u00a0€")],
)
def test_euros_are_written_the_french_way(amount: str, text: str) -> None:
    assert euros(amount) == text


def test_the_end_of_a_scheme_is_drawn_when_the_catalogue_gives_it() -> None:
    from api.web.catalogue_pages import ended_on, scheme_bar
    from legislation import Scheme

    timeline = catalogue().timeline(Scheme.CONVERSION_PREMIUM)
    end = date(2026, 1, 1)
    bar = scheme_bar(timeline, date(2008, 1, 1), end, None)
    endings = getattr(timeline, "endings", ())
    if not endings:  # a catalogue without the « ended » role: nothing drawn, nothing invented
        assert ended_on(timeline) is None and not any(s["kind"] == "ended" for s in bar["segments"])
        return
    first = min(v.valid_from for v in endings)
    assert ended_on(timeline) == first
    drawn = [s for s in bar["segments"] if s["kind"] == "ended"]
    assert len(drawn) == len(endings) and drawn[0]["left"] == charts.position(first, end, date(2008, 1, 1), end)[0]
