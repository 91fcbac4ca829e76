"""Examples of the knowledge-time and audit answers, shown in the OpenAPI document (the tests check each
against its model). Generated from the catalogue of versions/ loaded on 2024-03-01, a receipt made on
2024-04-02, and an example correction of the cap of D. 251-7 (2020) recorded on 2024-05-06 (not a real
erratum; texts shortened: « […] »). Regenerate when the contract changes."""

# ruff: noqa: E501 - generated data

from __future__ import annotations

from typing import Any

REVISIONS: dict[str, Any] = {
    "version_id": "D251-7.2020-06-01",
    "known_at": None,
    "revisions": [
        {
            "revision_id": 7,
            "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
            "recorded_at": "2024-03-01T09:00:00+00:00",
            "superseded_at": "2024-05-06T14:00:00+00:00",
            "current": False,
            "removed": False,
            "recorded_by": {
                "load_id": 1,
                "recorded_at": "2024-03-01T09:00:00+00:00",
                "origin": "versions",
            },
            "superseded_by": {
                "load_id": 2,
                "recorded_at": "2024-05-06T14:00:00+00:00",
                "origin": "POST /v1/admin/versions: example: the cap of 1° corrected (JORF erratum)",
            },
            "valid_from": "2020-06-01",
            "valid_until": "2021-01-21",
            "changes": None,
        },
        {
            "revision_id": 19,
            "version_hash": "sha256:d4e24934678ba22e67fdb87b5e7b0b0b955f30ec55882bba60f26b9beac4065b",
            "recorded_at": "2024-05-06T14:00:00+00:00",
            "superseded_at": None,
            "current": True,
            "removed": False,
            "recorded_by": {
                "load_id": 2,
                "recorded_at": "2024-05-06T14:00:00+00:00",
                "origin": "POST /v1/admin/versions: example: the cap of 1° corrected (JORF erratum)",
            },
            "superseded_by": None,
            "valid_from": "2020-06-01",
            "valid_until": "2021-01-21",
            "changes": {
                "from_revision_id": 7,
                "fields": ["text", "parameters.ev_cap_natural"],
                "summary": ["text, 1°: « 7 000 » → « 7 500 »", "parameters.ev_cap_natural (1°): 7000 → 7500"],
                "identical_text": False,
                "unified_diff": "--- D251-7.2020-06-01\n"
                "+++ D251-7.2020-06-01\n"
                "@@ -1,5 +1,5 @@\n"
                " Le montant de l'aide prévue à l'article D. 251-1 est fixé c "
                "[…]",
                "changes": [
                    {
                        "op": "replace",
                        "from": "7 000",
                        "to": "7 500",
                        "context_before": "prise en location, dans la limite de ",
                        "context_after": " euros si le véhicule est acquis ou",
                        "line": 2,
                        "paragraph": "1°",
                    }
                ],
                "parameters": [{"name": "ev_cap_natural", "from": "7000", "to": "7500", "paragraph": "1°"}],
                "metadata": [],
            },
        },
    ],
}

RECEIPT: dict[str, Any] = {
    "receipt_id": "8b2021abea0443a2a4da14ebe1c2f5ca",
    "created_at": "2024-04-02T08:30:00+00:00",
    "known_at": "2024-04-02T08:30:00+00:00",
    "catalogue": {
        "load_id": 1,
        "recorded_at": "2024-03-01T09:00:00+00:00",
        "tree_hash": "sha256:8c21be6faf020ae3857e2d5a1f156a1be0e0839b40338e4b97f64ff37180e350",
    },
    "revisions": [
        {
            "version_id": "D251-7.2020-06-01",
            "revision_id": 7,
            "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
        }
    ],
    "request_hash": "sha256:9a917ba0acf1827dc7960d9a9319ae29b186e65b1ed4f5a537514f093d4a3d90",
    "response_hash": "sha256:dcc226ad9cd0848f7b95da492bf139f8fcfcde2882c1550e6559877e85ec7340",
    "software_version": "0.1.0",
    "code_commit": "7f97112c5d0b6e4a8f1e2d3c4b5a69788796a5b4",
    "catalogue_commit": "2b1eb6a999f9d85b88fc563c7a90985363ef6361",
    "request": {
        "acquisition": "purchase",
        "order_date": "2020-06-10",
        "invoice_date": "2020-07-15",
        "vehicle": {
            "category": "passenger_car",
            "energy": "electric",
            "co2_g_per_km": 0,
            "acquisition_cost": "32000.00",
        },
        "buyer": {"person_kind": "natural_person"},
        "schemes": ["bonus"],
    },
    "response": {
        "results": [
            {
                "scheme": "bonus",
                "version_id": "D251-7.2020-06-01",
                "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
                "citation": "C. énergie, art. D. 251-7",
                "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
                "provenance": "seed",
                "valid_from": "2020-06-01",
                "valid_until": "2021-01-21",
                "last_day_in_force": "2021-01-20",
                "decisive_date": "2020-07-15",
                "decided_by": "invoice_date",
                "transitional_clauses": [
                    {
                        "id": "decret-2019-1526-art2",
                        "paragraph": "décret n° 2019-1526 du 30 décembre 2019, "
                        "art. 2 (rédaction en vigueur depuis le "
                        "1er juin 2020)",
                        "keeps": "more_favourable",
                        "order_test": "ordered_before",
                        "order_limit": "2020-01-01",
                        "decisive_on_or_before": "2020-09-23",
                        "deadline_basis": "explicit",
                        "deadline_reading": "« dans leur rédaction antérieure à "
                        "l'entrée en vigueur du présent "
                        "décret … commandés ou dont le "
                        "contrat de location a ét […]",
                        "wording": "Lorsqu'elles sont plus avantageuses, les "
                        "dispositions de l'article D. 251-7 du code "
                        "de l'énergie dans leur rédaction ant […]",
                        "kept_version_id": None,
                        "kept_version_label": "D. 251-7 dans sa rédaction "
                        "antérieure au décret n° "
                        "2019-1526 (version 2019-01-01 → "
                        "2019-12-31, décret n° 2018-1318)",
                        "new_vehicles_only": True,
                        "source": {
                            "decree": "Décret n° 2019-1526 du 30 "
                            "décembre 2019 relatif aux aides à "
                            "l'acquisition ou à la location "
                            "des véhicules peu polluants",
                            "decree_date": "2019-12-30",
                            "jorf": "JORF du 31 décembre 2019",
                            "jorf_date": "2019-12-31",
                            "nor": None,
                            "eli": None,
                            "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                            "legiarti": None,
                            "jorftext": None,
                            "confidence": "confirmed",
                            "notes": "Art. 2 in its version « En vigueur "
                            "depuis le 1er juin 2020 », "
                            "verbatim from lexbase "
                            "(shared/legal/texts/decret-2019-1526 "
                            "[…]",
                        },
                        "open": False,
                        "test": "ordered 2020-06-10 < 2020-01-01: no; decisive 2020-07-15 ≤ 2020-09-23: yes",
                        "missing_fact": None,
                    }
                ],
                "notes": [],
                "nearest_versions": None,
                "message": None,
                "status": "computed",
                "amount": "7000.00",
                "amount_is_lower_bound": False,
                "eligible": True,
                "reason": "≤ 20 g/km and cost 32000.00 € < 45 000 €: 27 % capped at 7000 € (natural person)",
                "paragraph": "C. énergie, art. D. 251-7, 1°",
                "steps": [
                    {
                        "citation": "C. énergie, art. D. 251-7, 8°",
                        "text": "CO2 0 g/km, taken as the rate deemed to meet article 1007 bis "
                        "of the CGI (8°)",
                        "amount": None,
                    },
                    {
                        "citation": "C. énergie, art. D. 251-7, 1°",
                        "text": "27 % × cost incl. battery 32000.00 € = 8640.00 €",
                        "amount": "8640.00",
                    },
                    {
                        "citation": "C. énergie, art. D. 251-7, 1°",
                        "text": "cap for a natural person: 8640.00 € > 7000 €, the cap applies",
                        "amount": "7000.00",
                    },
                ],
                "alternatives": [],
                "assumptions": [
                    "The vehicle meets the conditions of D. 251-1 (new, registered in "
                    "France, its 5°, 6° or 7° as its category requires): tha […]"
                ],
                "readings": [],
                "missing_facts": [],
                "compared": [],
                "kept_by": None,
                "claim_deadline": None,
                "claim_deadline_citation": None,
                "warnings": ["no claim-deadline text on file for 2020-07-15"],
            }
        ],
        "total_amount": "7000.00",
        "total_is_lower_bound": False,
        "total_unknown_for": [],
    },
    "links": {
        "self": "/v1/receipts/8b2021abea0443a2a4da14ebe1c2f5ca",
        "replay": "/v1/receipts/8b2021abea0443a2a4da14ebe1c2f5ca/replay",
    },
}

REPLAY: dict[str, Any] = {
    "receipt_id": "8b2021abea0443a2a4da14ebe1c2f5ca",
    "replayed_at": "2024-06-01T12:00:00+00:00",
    "receipt": {
        "known_at": "2024-04-02T08:30:00+00:00",
        "catalogue": {
            "load_id": 1,
            "recorded_at": "2024-03-01T09:00:00+00:00",
            "tree_hash": "sha256:8c21be6faf020ae3857e2d5a1f156a1be0e0839b40338e4b97f64ff37180e350",
        },
        "total_amount": "7000.00",
        "response_hash": "sha256:dcc226ad9cd0848f7b95da492bf139f8fcfcde2882c1550e6559877e85ec7340",
        "software_version": "0.1.0",
    },
    "same_revisions": {
        "known_at": "2024-04-02T08:30:00+00:00",
        "catalogue": {
            "load_id": 1,
            "recorded_at": "2024-03-01T09:00:00+00:00",
            "tree_hash": "sha256:8c21be6faf020ae3857e2d5a1f156a1be0e0839b40338e4b97f64ff37180e350",
        },
        "revisions": [
            {
                "version_id": "D251-7.2020-06-01",
                "revision_id": 7,
                "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
                "verified": True,
            }
        ],
        "total_amount": "7000.00",
        "response_hash": "sha256:dcc226ad9cd0848f7b95da492bf139f8fcfcde2882c1550e6559877e85ec7340",
        "identical_to_receipt": True,
        "differences": [],
        "response": {
            "results": [
                {
                    "scheme": "bonus",
                    "version_id": "D251-7.2020-06-01",
                    "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
                    "citation": "C. énergie, art. D. 251-7",
                    "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
                    "provenance": "seed",
                    "valid_from": "2020-06-01",
                    "valid_until": "2021-01-21",
                    "last_day_in_force": "2021-01-20",
                    "decisive_date": "2020-07-15",
                    "decided_by": "invoice_date",
                    "transitional_clauses": [
                        {
                            "id": "decret-2019-1526-art2",
                            "paragraph": "décret n° 2019-1526 du "
                            "30 décembre 2019, art. "
                            "2 (rédaction en "
                            "vigueur depuis le 1er "
                            "juin 2020)",
                            "keeps": "more_favourable",
                            "order_test": "ordered_before",
                            "order_limit": "2020-01-01",
                            "decisive_on_or_before": "2020-09-23",
                            "deadline_basis": "explicit",
                            "deadline_reading": "« dans leur "
                            "rédaction "
                            "antérieure à "
                            "l'entrée en "
                            "vigueur du "
                            "présent décret "
                            "… commandés ou "
                            "dont le contrat "
                            "de location a "
                            "ét […]",
                            "wording": "Lorsqu'elles sont plus "
                            "avantageuses, les "
                            "dispositions de "
                            "l'article D. 251-7 du "
                            "code de l'énergie dans "
                            "leur rédaction ant […]",
                            "kept_version_id": None,
                            "kept_version_label": "D. 251-7 dans "
                            "sa rédaction "
                            "antérieure au "
                            "décret n° "
                            "2019-1526 "
                            "(version "
                            "2019-01-01 → "
                            "2019-12-31, "
                            "décret n° "
                            "2018-1318)",
                            "new_vehicles_only": True,
                            "source": {
                                "decree": "Décret n° "
                                "2019-1526 du "
                                "30 décembre "
                                "2019 relatif "
                                "aux aides à "
                                "l'acquisition "
                                "ou à la "
                                "location des "
                                "véhicules peu "
                                "polluants",
                                "decree_date": "2019-12-30",
                                "jorf": "JORF du 31 décembre 2019",
                                "jorf_date": "2019-12-31",
                                "nor": None,
                                "eli": None,
                                "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                                "legiarti": None,
                                "jorftext": None,
                                "confidence": "confirmed",
                                "notes": "Art. 2 in its "
                                "version « En "
                                "vigueur depuis "
                                "le 1er juin "
                                "2020 », "
                                "verbatim from "
                                "lexbase "
                                "(shared/legal/texts/decret-2019-1526 "
                                "[…]",
                            },
                            "open": False,
                            "test": "ordered 2020-06-10 < "
                            "2020-01-01: no; decisive "
                            "2020-07-15 ≤ 2020-09-23: "
                            "yes",
                            "missing_fact": None,
                        }
                    ],
                    "notes": [],
                    "nearest_versions": None,
                    "message": None,
                    "status": "computed",
                    "amount": "7000.00",
                    "amount_is_lower_bound": False,
                    "eligible": True,
                    "reason": "≤ 20 g/km and cost 32000.00 € < 45 000 €: 27 % "
                    "capped at 7000 € (natural person)",
                    "paragraph": "C. énergie, art. D. 251-7, 1°",
                    "steps": [
                        {
                            "citation": "C. énergie, art. D. 251-7, 8°",
                            "text": "CO2 0 g/km, taken as the rate deemed to "
                            "meet article 1007 bis of the CGI (8°)",
                            "amount": None,
                        },
                        {
                            "citation": "C. énergie, art. D. 251-7, 1°",
                            "text": "27 % × cost incl. battery 32000.00 € = 8640.00 €",
                            "amount": "8640.00",
                        },
                        {
                            "citation": "C. énergie, art. D. 251-7, 1°",
                            "text": "cap for a natural person: 8640.00 € > 7000 €, the cap applies",
                            "amount": "7000.00",
                        },
                    ],
                    "alternatives": [],
                    "assumptions": [
                        "The vehicle meets the conditions of D. 251-1 "
                        "(new, registered in France, its 5°, 6° or 7° "
                        "as its category requires): tha […]"
                    ],
                    "readings": [],
                    "missing_facts": [],
                    "compared": [],
                    "kept_by": None,
                    "claim_deadline": None,
                    "claim_deadline_citation": None,
                    "warnings": ["no claim-deadline text on file for 2020-07-15"],
                }
            ],
            "total_amount": "7000.00",
        },
    },
    "today": {
        "known_at": "2024-06-01T12:00:00+00:00",
        "catalogue": {
            "load_id": 2,
            "recorded_at": "2024-05-06T14:00:00+00:00",
            "tree_hash": "sha256:b22068f9eb33cefa754bce447b8a4bbbfb2b4f9b52fdb8d1e1abd7024806d1e6",
        },
        "revisions": [
            {
                "version_id": "D251-7.2020-06-01",
                "revision_id": 19,
                "version_hash": "sha256:d4e24934678ba22e67fdb87b5e7b0b0b955f30ec55882bba60f26b9beac4065b",
            }
        ],
        "total_amount": "7500.00",
        "response_hash": "sha256:50e8dccb5e8cd104a42a2751883beb54d9916cd1f5ed92502b26c9bca3ab8bbd",
        "identical_to_receipt": False,
        "differences": [
            {
                "path": "results[0].version_hash",
                "from": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
                "to": "sha256:d4e24934678ba22e67fdb87b5e7b0b0b955f30ec55882bba60f26b9beac4065b",
            },
            {"path": "results[0].amount", "from": "7000.00", "to": "7500.00"},
            {
                "path": "results[0].reason",
                "from": "≤ 20 g/km and cost 32000.00 € < 45 000 €: 27 % capped at 7000 € (natural person)",
                "to": "≤ 20 g/km and cost 32000.00 € < 45 000 €: 27 % capped at 7500 € (natural person)",
            },
            {
                "path": "results[0].steps[2].text",
                "from": "cap for a natural person: 8640.00 € > 7000 €, the cap applies",
                "to": "cap for a natural person: 8640.00 € > 7500 €, the cap applies",
            },
        ],
        "response": {
            "results": [
                {
                    "scheme": "bonus",
                    "version_id": "D251-7.2020-06-01",
                    "version_hash": "sha256:d4e24934678ba22e67fdb87b5e7b0b0b955f30ec55882bba60f26b9beac4065b",
                    "citation": "C. énergie, art. D. 251-7",
                    "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
                    "provenance": "seed",
                    "valid_from": "2020-06-01",
                    "valid_until": "2021-01-21",
                    "last_day_in_force": "2021-01-20",
                    "decisive_date": "2020-07-15",
                    "decided_by": "invoice_date",
                    "transitional_clauses": [
                        {
                            "id": "decret-2019-1526-art2",
                            "paragraph": "décret n° 2019-1526 du 30 "
                            "décembre 2019, art. 2 "
                            "(rédaction en vigueur depuis le "
                            "1er juin 2020)",
                            "keeps": "more_favourable",
                            "order_test": "ordered_before",
                            "order_limit": "2020-01-01",
                            "decisive_on_or_before": "2020-09-23",
                            "deadline_basis": "explicit",
                            "deadline_reading": "« dans leur rédaction "
                            "antérieure à l'entrée en "
                            "vigueur du présent "
                            "décret … commandés ou "
                            "dont le contrat de "
                            "location a ét […]",
                            "wording": "Lorsqu'elles sont plus "
                            "avantageuses, les dispositions de "
                            "l'article D. 251-7 du code de "
                            "l'énergie dans leur rédaction ant "
                            "[…]",
                            "kept_version_id": None,
                            "kept_version_label": "D. 251-7 dans sa "
                            "rédaction antérieure "
                            "au décret n° 2019-1526 "
                            "(version 2019-01-01 → "
                            "2019-12-31, décret n° "
                            "2018-1318)",
                            "new_vehicles_only": True,
                            "source": {
                                "decree": "Décret n° 2019-1526 du "
                                "30 décembre 2019 "
                                "relatif aux aides à "
                                "l'acquisition ou à la "
                                "location des véhicules "
                                "peu polluants",
                                "decree_date": "2019-12-30",
                                "jorf": "JORF du 31 décembre 2019",
                                "jorf_date": "2019-12-31",
                                "nor": None,
                                "eli": None,
                                "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                                "legiarti": None,
                                "jorftext": None,
                                "confidence": "confirmed",
                                "notes": "Art. 2 in its version « "
                                "En vigueur depuis le 1er "
                                "juin 2020 », verbatim "
                                "from lexbase "
                                "(shared/legal/texts/decret-2019-1526 "
                                "[…]",
                            },
                            "open": False,
                            "test": "ordered 2020-06-10 < 2020-01-01: no; "
                            "decisive 2020-07-15 ≤ 2020-09-23: "
                            "yes",
                            "missing_fact": None,
                        }
                    ],
                    "notes": [],
                    "nearest_versions": None,
                    "message": None,
                    "status": "computed",
                    "amount": "7500.00",
                    "amount_is_lower_bound": False,
                    "eligible": True,
                    "reason": "≤ 20 g/km and cost 32000.00 € < 45 000 €: 27 % capped at "
                    "7500 € (natural person)",
                    "paragraph": "C. énergie, art. D. 251-7, 1°",
                    "steps": [
                        {
                            "citation": "C. énergie, art. D. 251-7, 8°",
                            "text": "CO2 0 g/km, taken as the rate deemed to meet "
                            "article 1007 bis of the CGI (8°)",
                            "amount": None,
                        },
                        {
                            "citation": "C. énergie, art. D. 251-7, 1°",
                            "text": "27 % × cost incl. battery 32000.00 € = 8640.00 €",
                            "amount": "8640.00",
                        },
                        {
                            "citation": "C. énergie, art. D. 251-7, 1°",
                            "text": "cap for a natural person: 8640.00 € > 7500 €, the cap applies",
                            "amount": "7500.00",
                        },
                    ],
                    "alternatives": [],
                    "assumptions": [
                        "The vehicle meets the conditions of D. 251-1 (new, "
                        "registered in France, its 5°, 6° or 7° as its category "
                        "requires): tha […]"
                    ],
                    "readings": [],
                    "missing_facts": [],
                    "compared": [],
                    "kept_by": None,
                    "claim_deadline": None,
                    "claim_deadline_citation": None,
                    "warnings": ["no claim-deadline text on file for 2020-07-15"],
                }
            ],
            "total_amount": "7500.00",
        },
    },
    "today_differs": True,
    "links": {
        "self": "/v1/receipts/8b2021abea0443a2a4da14ebe1c2f5ca",
        "replay": "/v1/receipts/8b2021abea0443a2a4da14ebe1c2f5ca/replay",
    },
}

CORRECTION: dict[str, Any] = {
    "origin": "POST /v1/admin/versions: example: the cap of 1° corrected (JORF erratum)",
    "changed": True,
    "load_id": 2,
    "recorded_at": "2024-05-06T14:00:00+00:00",
    "tree_hash": "sha256:b22068f9eb33cefa754bce447b8a4bbbfb2b4f9b52fdb8d1e1abd7024806d1e6",
    "counts": {
        "added": 0,
        "superseded": 1,
        "removed": 0,
        "unchanged": 17,
        "gaps_added": 0,
        "gaps_removed": 0,
    },
    "versions": [
        {
            "version_id": "D251-7.2020-06-01",
            "change": "superseded",
            "old_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
            "new_hash": "sha256:d4e24934678ba22e67fdb87b5e7b0b0b955f30ec55882bba60f26b9beac4065b",
        }
    ],
}

ADMIN_VERSION_IN: dict[str, Any] = {
    "version_toml": "# Code de l'énergie, art. D. 251-7 (bonus écologique amounts), wording of décret n° "
    "2020-656. Seed 000.\n"
    'id = "D251-7.202 […]',
    "text": "Le montant de l'aide prévue à l'article D. 251-1 est fixé comme suit :\n"
    "1° Pour les véhicules mentionnés au 5° de l'artic […]",
    "reason": "example: the cap of 1° corrected (JORF erratum)",
}
