"""The auditors' pages in a real browser (Debian's Chromium through Playwright): every page is clicked through,
the README's 2015 hybrid is computed from the form, and a receipt is kept, replayed and printed.

The 2015 hybrid (README): ordered 2014-12-20, invoiced 2015-03-31, a petrol hybrid of 95 g CO2/km, 30 000 € TTC,
15 kW over 30 minutes. Décret n° 2014-1672, art. 3, 1° a), 2e alinéa (« A titre transitoire », commande before
2015-01-01, facture within three months): 8,25 % × 30 000 € = 2 475 €, between its floor of 1 650 € and its cap
of 3 300 €: 2 475,00 €. From 2015-04-01 the 1st alinéa applies: 5 % × 30 000 € = 1 500 €, within [1 000, 2 000].
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import PHONE, shoot

pytestmark = pytest.mark.browser

HYBRID_2015 = "/calculate?acquisition=purchase&order_date=2014-12-20&invoice_date=2015-03-31&schemes=bonus"
DECISIVE_CITATION = "décret n° 2014-1672, art. 3, 1° a), 2e alinéa"
LABELS_MISSING = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
  .filter(e => e.labels.length === 0 && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
  .map(e => e.name || e.id)"""


def unlabelled(page: Any) -> list[str]:
    found: list[str] = page.evaluate(LABELS_MISSING)
    return found


def test_home_shows_each_scheme_on_a_timeline_and_answers_a_date(page: Any) -> None:
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator(".scheme .bar").count() == 2
    assert page.locator(".bar a.seg-seed, .bar a.seg-official").count() > 10  # the 2008 → 2021 versions
    schemes = page.request.get("/v1/schemes").json()["schemes"]  # the API's answer on the same data
    assert page.locator(".bar .seg-gap").count() == sum(len(s["gaps"]) for s in schemes)  # every declared gap
    for scheme, figures in zip(schemes, page.locator(".figures").all_inner_texts(), strict=True):
        measured = scheme["measured"]  # `vigueur coverage`
        assert figures.startswith("Couverture mesurée")
        assert f"{measured['in_versions']['days']} jours par une version" in figures
        assert f"{measured['with_nothing']['days']} sans rien" in figures
    page.fill("#on", "2015-03-31")
    page.press("#on", "Enter")  # the keyboard submits the date picker
    page.wait_for_url(re.compile(r"/\?on=2015-03-31"))
    answer = page.locator(".on-date")
    assert answer.get_by_role("link", name="decret-2014-1672-art3.2015-01-01").count() == 1
    assert unlabelled(page) == []
    shoot(page, "home")
    shoot(page, "home-top", full_page=False)
    page.goto("/?lang=en")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", level=1).inner_text() == "Versions on a timeline, per scheme"


def test_version_page_highlights_quotes_and_follows_knowledge_time(page: Any) -> None:
    page.goto("/")
    page.locator('.bar a[href="/versions/decret-2014-1672-art3.2015-01-01"]').click()  # one click from home
    page.wait_for_url("**/versions/decret-2014-1672-art3.2015-01-01")
    quote = page.locator("#q-transitional_hybrid_rate")
    assert "8,25 %" in quote.inner_text()
    quote.focus()  # hover or focus shows the parameter's name and value
    tip = quote.evaluate("e => getComputedStyle(e, '::after').content")
    assert "transitional_hybrid_rate = 0.0825" in tip
    assert page.locator(".verbatim mark.q").count() >= 20
    text = page.locator("#verbatim").inner_text()
    assert "A titre transitoire" in text
    eli = "https://www.legifrance.gouv.fr/eli/decret/2014/12/30/2014-1672/jo/texte"
    assert page.locator(f'a[href="{eli}"]').count() == 1
    assert "DEVR1428150D" in page.locator("body").inner_text()
    clauses = page.locator(".clause h3 small").all_inner_texts()  # the three inline alinéas, and décret 2007-1873's
    assert clauses == ["decret-2014-1672-art3-1a-transitoire", "decret-2014-1672-art3-1b-transitoire",
                       "decret-2014-1672-art1-5a-transitoire", "decret-2007-1873-art10-II"]
    option = page.locator("#known_at option").nth(1)
    instant = option.get_attribute("value")
    page.select_option("#known_at", instant)
    page.get_by_role("button", name="Afficher").click()
    page.wait_for_url(re.compile(r"known_at="))
    assert page.locator(".known").count() == 1  # the knowledge banner names the load
    assert page.locator("#known_at").input_value() == instant
    assert unlabelled(page) == []
    shoot(page, "version")


def test_diff_across_the_codification(page: Any) -> None:
    page.goto("/diff")
    page.select_option("#pick-a", "decret-2014-1672-art3.2015-01-01")
    page.select_option("#pick-b", "D251-7.2017-01-01")
    page.get_by_role("button", name="Comparer").click()
    page.wait_for_url("**/versions/decret-2014-1672-art3.2015-01-01/diff/D251-7.2017-01-01")
    assert page.locator(".sides del").count() > 0 and page.locator(".sides ins").count() > 0
    table = page.locator("#pchanges + .scroll table").inner_text()
    assert "ev_cap" in table and "6300" in table and "6000" in table  # car_zero_cap 6 300 → ev_cap 6 000
    assert page.locator('.sides a[href="/versions/D251-7.2017-01-01"]').count() == 1
    shoot(page, "diff")
    page.evaluate("document.querySelector('.sides').scrollIntoView()")
    shoot(page, "diff-top", full_page=False)


def test_calculator_computes_the_2015_hybrid_and_cites_its_paragraph(page: Any) -> None:
    page.goto("/calculate")
    page.select_option("#in-acquisition", "purchase")
    page.fill("#in-order_date", "2014-12-20")
    page.fill("#in-invoice_date", "2015-03-31")
    page.locator('input[name="schemes"][value="conversion_premium"]').uncheck()
    page.locator("#compute").click()
    # only the facts the 2015 version reads are asked: no scrapped vehicle, no household income
    assert page.locator("#in-vehicle\\.co2_g_per_km").count() == 1
    assert page.locator("#in-scrapped_vehicle\\.destruction_date").count() == 0
    assert "taux d'émission de dioxyde de carbone" in page.locator("#f-vehicle\\.co2_g_per_km .term").inner_text()
    page.select_option("#in-vehicle\\.category", "passenger_car")
    page.select_option("#in-vehicle\\.energy", "petrol_electric_hybrid")
    page.fill("#in-vehicle\\.co2_g_per_km", "95")
    page.fill("#in-vehicle\\.acquisition_cost", "30000.00")
    page.fill("#in-vehicle\\.electric_motor_power_30min_kw", "15")
    page.select_option("#in-buyer\\.person_kind", "natural_person")
    assert unlabelled(page) == []
    page.locator("#compute").click()
    amount = page.locator("#result-bonus .amount")
    assert amount.get_attribute("data-amount") == "2475.00"  # 8,25 % × 30 000 €, within [1 650, 3 300]
    assert page.locator("#result-bonus .clause-state.open").count() >= 1
    shoot(page, "calculator")
    page.evaluate("document.getElementById('result-title').scrollIntoView()")
    shoot(page, "calculator-result-top", full_page=False)
    page.get_by_role("link", name=DECISIVE_CITATION).first.click()
    page.wait_for_url(re.compile(r"/versions/decret-2014-1672-art3\.2015-01-01\?p=.*#cited"))
    cited = page.locator("mark.cited")
    assert cited.count() > 0 and "8,25 %" in " ".join(cited.all_inner_texts())
    page.evaluate("document.getElementById('text-title').scrollIntoView()")
    page.evaluate("document.getElementById('q-transitional_hybrid_rate').focus({preventScroll: true})")
    shoot(page, "version-cited-top", full_page=False)


def test_receipt_is_kept_replayed_and_printed(page: Any) -> None:
    page.goto("/")
    page.get_by_role("link", name="Exemple : l'hybride de 2015 (README)").first.click()  # click 1
    assert page.locator("#result-bonus .amount").get_attribute("data-amount") == "2475.00"
    page.locator("#keep-receipt").click()  # click 2: the printable receipt
    page.wait_for_url(re.compile(r"/receipts/[0-9a-f]{32}$"))
    assert page.locator("#result-bonus .amount").get_attribute("data-amount") == "2475.00"
    assert page.locator(".receipt-meta").inner_text().count("sha256:") >= 2
    pdf = page.pdf(format="A4")  # the print stylesheet applies
    assert pdf.startswith(b"%PDF") and len(pdf) > 5000
    page.emulate_media(media="print")
    assert page.locator("nav").first.is_hidden() and page.locator("#replay").is_hidden()
    shoot(page, "receipt-print-top", full_page=False)
    page.emulate_media(media="screen")
    shoot(page, "receipt")
    page.locator("#replay").click()
    page.wait_for_url(re.compile(r"/replay$"))
    assert page.locator("#run-same_revisions .verdict").inner_text() == "identique au reçu, octet pour octet"
    assert page.locator("#run-today .verdict.same").count() == 1


def test_date_change_chart_and_advice(page: Any) -> None:
    page.goto("/")
    page.get_by_role("link", name=re.compile("Ce que change la date : ")).click()
    svg = page.locator("svg.chart")
    assert svg.count() == 1
    labels = {svg.locator(".step .value").nth(i).text_content() for i in range(svg.locator(".step .value").count())}
    assert labels == {"2\u202f475\u00a0€", "1\u202f500\u00a0€"}  # 2 475 € to 2015-03-31, then 1 500 €
    segments = page.locator("#seg-title ~ .scroll tbody tr td:first-child").all_inner_texts()
    assert segments == ["2014-12-20 → 2014-12-31", "2015-01-01 → 2015-03-31", "2015-04-01 → 2015-12-31"]
    advice = page.locator(".advice").inner_text()
    assert "Facturer au plus tard le 2015-03-31 pour conserver 2 475 €" in advice
    assert page.locator(".advice a.cite").first.get_attribute("href").startswith(
        "/versions/decret-2014-1672-art3.2015-01-01?p="
    )
    shoot(page, "date-change")
    shoot(page, "date-change-top", full_page=False)


def test_parameter_history_step_chart(page: Any) -> None:
    page.goto("/parameters")
    page.get_by_role("link", name="ev_cap", exact=True).click()
    assert page.locator("svg.chart .step line").count() >= 3
    table = page.locator("table").inner_text()
    for value in ("6300", "6000", "7000"):  # décret 2014-1672 art. 3; D. 251-7 2017; décret 2020-656
        assert value in table
    shoot(page, "parameter")
    shoot(page, "parameter-top", full_page=False)


def test_cases_open_in_the_calculator(page: Any) -> None:
    page.goto("/cases", timeout=120_000)  # the first visit runs the whole corpus
    rows = page.locator("#per-version tbody tr")
    assert rows.count() > 10
    assert page.locator("#per-version .fail").count() == 0  # the corpus passes
    rows.filter(has_text="decret-2014-1672-art3.2015-01-01").get_by_role("link").nth(1).click()
    page.wait_for_url(re.compile(r"/cases\?version=decret-2014-1672-art3\.2015-01-01"))
    assert page.locator("#case-list tbody tr").count() >= 1
    page.locator("a.open-case").first.click()
    assert page.locator(".scheme-result").count() >= 1
    assert page.locator("#in-acquisition").input_value() in ("purchase", "lease")


def test_pages_on_a_phone_and_by_keyboard(phone: Any) -> None:
    facts = ("&vehicle.category=passenger_car&vehicle.energy=petrol_electric_hybrid&vehicle.co2_g_per_km=95"
             "&vehicle.acquisition_cost=30000.00&vehicle.electric_motor_power_30min_kw=15"
             "&buyer.person_kind=natural_person")
    pages = [("home", "/"), ("version", "/versions/D251-7.2020-06-01"), ("calculator", HYBRID_2015 + facts),
             ("diff", "/versions/D251-7.2017-01-01/diff/D251-7.2017-02-19"),
             ("date-change", HYBRID_2015.replace("/calculate", "/timeline") + facts + "&from=2014-12-20"),
             ("parameter", "/parameters/ev_cap"), ("cases", "/cases?version=D251-7.2020-06-01")]  # fmt: skip
    for name, url in pages:
        phone.goto(url, timeout=120_000)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, f"{url} scrolls sideways on a phone ({width}px)"
        shoot(phone, f"{name}-phone")
    phone.goto(HYBRID_2015 + facts)
    phone.locator("#keep-receipt").click()
    phone.wait_for_url(re.compile(r"/receipts/[0-9a-f]{32}$"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shoot(phone, "receipt-phone")
    phone.goto("/")
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.className") == "skip"
    phone.keyboard.press("Enter")
    assert phone.evaluate("document.activeElement.id") == "main"
