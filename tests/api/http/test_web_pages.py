"""The auditors' pages in process (no browser): the same answers as the JSON API, HTML errors with the API's
status and field, the language, the receipts' token. The browser tests are tests/web/test_browser.py."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from api.http.receipts_token import RECEIPTS_TOKEN_ENV
from api.web.forms import from_request
from tests.api.support import REFERENCE, SUCCESSOR

REQUEST = {  # examples/request.json
    "acquisition": "purchase", "order_date": "2020-06-10", "invoice_date": "2020-07-15",
    "vehicle": {"category": "passenger_car", "energy": "electric", "co2_g_per_km": 0, "acquisition_cost": "32000.00"},
    "buyer": {"person_kind": "natural_person"}, "schemes": ["bonus"],
}  # fmt: skip
CALCULATE = "/calculate?" + urlencode(from_request(REQUEST))


def test_pages_speak_french_by_default_english_when_asked(client: TestClient) -> None:
    assert '<html lang="fr">' in client.get("/").text
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).text
    assert '<html lang="en">' in client.get("/?lang=en", headers={"Accept-Language": "fr"}).text
    assert '<html lang="fr">' in client.get("/?lang=xx", headers={"Accept-Language": "de"}).text
    english = client.get("/?lang=en").text
    assert f'href="/versions/{REFERENCE}?lang=en"' in english  # a chosen language stays in the links


def test_the_version_page_highlights_every_quote(client: TestClient) -> None:
    page = client.get(f"/versions/{REFERENCE}")
    assert page.status_code == 200
    version = client.get(f"/v1/versions/{REFERENCE}").json()
    for name in version["parameters"]:
        assert f'id="q-{name}"' in page.text and f'id="param-{name}"' in page.text
    assert f'href="/versions/{SUCCESSOR}"' in page.text  # the next version


def test_the_calculator_shows_the_answer_of_the_api(client: TestClient) -> None:
    page = client.get(CALCULATE)
    answer = client.post("/v1/calculate", json=REQUEST).json()
    assert page.status_code == 200
    amount = answer["results"][0]["amount"]
    assert amount is not None and f'data-amount="{amount}"' in page.text
    assert answer["results"][0]["version_id"] == REFERENCE


@pytest.mark.parametrize(
    ("url", "status", "field"),
    [
        ("/?on=2020-13-01", 422, "on"),
        ("/versions/D251-7.1999-01-01", 404, "version_id"),
        (f"/versions/{REFERENCE}?known_at=2020-01-01", 422, "known_at"),
        ("/calculate?acquisition=purchase&invoice_date=2020-07-15&vehicle.co2_g_per_km=lots", 422,
         "vehicle.co2_g_per_km"),
        ("/calculate?acquisition=purchase&order_date=2020-08-01&invoice_date=2020-07-15", 422, "invoice_date"),
        ("/parameters/no_such_number", 404, "name"),
        ("/receipts/0123", 404, None),
    ],
)  # fmt: skip
def test_a_bad_request_is_an_html_page_naming_the_field(client: TestClient, url: str, status: int, field: str) -> None:
    page = client.get(url)
    assert page.status_code == status and page.headers["content-type"].startswith("text/html")
    assert "Traceback" not in page.text
    if field is not None:
        assert f"<code>{field}</code>" in page.text


def test_a_receipt_is_kept_shown_and_replayed(client: TestClient) -> None:
    kept = client.post("/receipts", data=dict(from_request(REQUEST)), follow_redirects=False)
    assert kept.status_code == 303
    address = kept.headers["location"]
    receipt_id = re.fullmatch(r"/receipts/([0-9a-f]{32})", address).group(1)  # type: ignore[union-attr]
    stored = client.get(f"/v1/receipts/{receipt_id}").json()
    assert stored["request"] == REQUEST
    shown = client.get(address)
    assert shown.status_code == 200 and stored["response_hash"] in shown.text
    replay = client.get(f"{address}/replay")
    assert replay.status_code == 200 and replay.text.count('class="verdict same"') == 2


def test_with_a_receipts_token_the_page_needs_it(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RECEIPTS_TOKEN_ENV, "s3cret")
    assert 'id="receipts_token"' in client.get(CALCULATE).text
    refused = client.post("/receipts", data=dict(from_request(REQUEST)), follow_redirects=False)
    assert refused.status_code == 401 and "<code>receipts_token</code>" in refused.text
    form = dict(from_request(REQUEST)) | {"receipts_token": "s3cret"}
    assert client.post("/receipts", data=form, follow_redirects=False).status_code == 303


def test_the_diff_page_and_its_form(client: TestClient) -> None:
    chosen = client.get(f"/diff?a={REFERENCE}&b={SUCCESSOR}&lang=en", follow_redirects=False)
    assert chosen.status_code == 303 and chosen.headers["location"] == f"/versions/{REFERENCE}/diff/{SUCCESSOR}?lang=en"
    page = client.get(chosen.headers["location"])
    assert "<del>7 000</del>" in page.text and "<ins>6 000</ins>" in page.text
