"""Examples of every answer, shown in the OpenAPI document (the tests check each against its model).

Generated from the catalogue of versions/ (texts shortened: « […] »); regenerate when the contract changes.
"""

# ruff: noqa: E501 - generated data: long quoted texts are wrapped by the formatter, not by hand

from __future__ import annotations

from typing import Any

from api.http.examples.audit import ADMIN_VERSION_IN, CORRECTION, RECEIPT, REPLAY, REVISIONS  # noqa: F401

SCHEMES: dict[str, Any] = {
    "schemes": [
        {
            "scheme": "bonus",
            "name": "bonus écologique",
            "coverage": {
                "first_day": "2015-01-01",
                "last_day": "2021-01-20",
                "open_ended": False,
                "versions": 4,
            },
            "gaps": [
                {
                    "start": "2016-01-01",
                    "end": "2017-01-01",
                    "last_day": "2016-12-31",
                    "reason": "C. énergie D. 251-7 as codified by décret 2015-1823 (2016-01-01) and "
                    "amended by décret 2015-1928 (20 […]",
                },
                {
                    "start": "2018-01-01",
                    "end": "2020-06-01",
                    "last_day": "2020-05-31",
                    "reason": "D. 251-7 versions of 2018 (2017-1851), 2019 (2018-1318) and 2020-01-01 "
                    "(2019-1526): not on file",
                },
            ],
            "links": {"versions": "/v1/schemes/bonus/versions", "in_force": "/v1/schemes/bonus/in-force"},
        },
        {
            "scheme": "conversion_premium",
            "name": "prime à la conversion",
            "coverage": {
                "first_day": "2015-01-01",
                "last_day": "2021-12-30",
                "open_ended": False,
                "versions": 5,
            },
            "gaps": [
                {
                    "start": "2016-01-01",
                    "end": "2017-01-01",
                    "last_day": "2016-12-31",
                    "reason": "C. énergie D. 251-8 of 2016 (décrets 2015-1823 and 2015-1928): no "
                    "verbatim text on file",
                },
                {
                    "start": "2018-01-01",
                    "end": "2021-07-26",
                    "last_day": "2021-07-25",
                    "reason": "D. 251-8 versions from 2018-01-01 to 2021-07-25 (décrets 2017-1851, "
                    "2018-1318, 2019-737, 2019-1526, […]",
                },
            ],
            "links": {
                "versions": "/v1/schemes/conversion_premium/versions",
                "in_force": "/v1/schemes/conversion_premium/in-force",
            },
        },
    ]
}

TIMELINE: dict[str, Any] = {
    "scheme": "bonus",
    "name": "bonus écologique",
    "coverage": {"first_day": "2015-01-01", "last_day": "2021-01-20", "open_ended": False, "versions": 4},
    "versions": [
        {
            "version_id": "decret-2014-1672-art3.2015-01-01",
            "citation": "décret n° 2014-1672, art. 3",
            "title": "Montant de l'aide à l'acquisition et à la location des véhicules peu polluants (2015)",
            "valid_from": "2015-01-01",
            "valid_until": "2016-01-01",
            "last_day_in_force": "2015-12-31",
            "provenance": "seed",
            "period_confidence": "likely",
            "calculator": "bonus_2015_01_01",
            "source_decree": "Décret n° 2014-1672 du 30 décembre 2014 instituant une aide à l'acquisition "
            "et à la location des véhicules peu polluants",
            "version_hash": "sha256:5939ad00ff58e47599c614e57eb6f2ac2fad5ee7bdd071d7ee5e272f9f80c44b",
            "href": "/v1/versions/decret-2014-1672-art3.2015-01-01",
        },
        {
            "version_id": "D251-7.2017-01-01",
            "citation": "C. énergie, art. D. 251-7",
            "title": "Montant du bonus écologique (rédaction du décret n° 2016-1980 du 30 décembre 2016)",
            "valid_from": "2017-01-01",
            "valid_until": "2017-02-19",
            "last_day_in_force": "2017-02-18",
            "provenance": "seed",
            "period_confidence": "confirmed",
            "calculator": "bonus_2017_01_01",
            "source_decree": "Décret n° 2016-1980 du 30 décembre 2016 relatif aux aides à l'achat ou à la "
            "location des véhicules peu polluants",
            "version_hash": "sha256:eb1edcf95ce6462bbfcdf47b87bc997a771ca7dcc0e6879aa829985fab6e6f91",
            "href": "/v1/versions/D251-7.2017-01-01",
        },
        {
            "version_id": "D251-7.2017-02-19",
            "citation": "C. énergie, art. D. 251-7",
            "title": "Montant du bonus écologique (rédaction du décret n° 2017-196 du 16 février 2017)",
            "valid_from": "2017-02-19",
            "valid_until": "2018-01-01",
            "last_day_in_force": "2017-12-31",
            "provenance": "official",
            "period_confidence": "confirmed",
            "calculator": "bonus_2017_02_19",
            "source_decree": "Décret n° 2017-196 du 16 février 2017 relatif aux aides à l'achat ou à la "
            "location des véhicules peu polluants",
            "version_hash": "sha256:c083c73aa07ca3da7cdb1dd2a8ca2d58522454c7627b32bad6ce52d77bfd0ce6",
            "href": "/v1/versions/D251-7.2017-02-19",
        },
        {
            "version_id": "D251-7.2020-06-01",
            "citation": "C. énergie, art. D. 251-7",
            "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
            "valid_from": "2020-06-01",
            "valid_until": "2021-01-21",
            "last_day_in_force": "2021-01-20",
            "provenance": "seed",
            "period_confidence": "confirmed",
            "calculator": "bonus_2020_06_01",
            "source_decree": "Décret n° 2020-656 du 30 mai 2020 relatif aux aides à l'acquisition ou à la "
            "location des véhicules peu polluants",
            "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
            "href": "/v1/versions/D251-7.2020-06-01",
        },
    ],
    "gaps": [
        {
            "start": "2016-01-01",
            "end": "2017-01-01",
            "last_day": "2016-12-31",
            "reason": "C. énergie D. 251-7 as codified by décret 2015-1823 (2016-01-01) and amended by décret "
            "2015-1928 (20 […]",
        },
        {
            "start": "2018-01-01",
            "end": "2020-06-01",
            "last_day": "2020-05-31",
            "reason": "D. 251-7 versions of 2018 (2017-1851), 2019 (2018-1318) and 2020-01-01 (2019-1526): "
            "not on file",
        },
    ],
    "timeline": [
        {
            "kind": "version",
            "start": "2015-01-01",
            "end": "2016-01-01",
            "version_id": "decret-2014-1672-art3.2015-01-01",
            "reason": None,
        },
        {
            "kind": "gap",
            "start": "2016-01-01",
            "end": "2017-01-01",
            "version_id": None,
            "reason": "C. énergie D. 251-7 as codified by décret 2015-1823 (2016-01-01) and amended by "
            "décret 2015-1928 (20 […]",
        },
        {
            "kind": "version",
            "start": "2017-01-01",
            "end": "2017-02-19",
            "version_id": "D251-7.2017-01-01",
            "reason": None,
        },
        {
            "kind": "version",
            "start": "2017-02-19",
            "end": "2018-01-01",
            "version_id": "D251-7.2017-02-19",
            "reason": None,
        },
        {
            "kind": "gap",
            "start": "2018-01-01",
            "end": "2020-06-01",
            "version_id": None,
            "reason": "D. 251-7 versions of 2018 (2017-1851), 2019 (2018-1318) and 2020-01-01 "
            "(2019-1526): not on file",
        },
        {
            "kind": "version",
            "start": "2020-06-01",
            "end": "2021-01-21",
            "version_id": "D251-7.2020-06-01",
            "reason": None,
        },
    ],
}

VERSION: dict[str, Any] = {
    "version_id": "D251-7.2020-06-01",
    "scheme": "bonus",
    "role": "amounts",
    "article": "D251-7",
    "citation": "C. énergie, art. D. 251-7",
    "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
    "valid_from": "2020-06-01",
    "valid_until": "2021-01-21",
    "last_day_in_force": "2021-01-20",
    "provenance": "seed",
    "period_confidence": "confirmed",
    "source": {
        "decree": "Décret n° 2020-656 du 30 mai 2020 relatif aux aides à l'acquisition ou à la location "
        "des véhicules peu polluants",
        "decree_date": "2020-05-30",
        "jorf": "JORF n° 0133 du 31 mai 2020",
        "jorf_date": "2020-05-31",
        "nor": "TRER2013154D",
        "eli": "https://www.legifrance.gouv.fr/eli/decret/2020/5/30/TRER2013154D/jo/texte",
        "url": "https://securibase.com/securibase/public/fiche/26037/29684",
        "legiarti": None,
        "jorftext": None,
        "confidence": "confirmed",
        "notes": "Decree, date, NOR and entry-into-force rule confirmed (securibase reproduction of the "
        "JORF notice). The ELI is built fro […]",
    },
    "calculator": "bonus_2020_06_01",
    "relies_on": [],
    "parameters": {
        "ev_co2_max": {
            "value": "20",
            "paragraph": "1°",
            "quote": "inférieur ou égal à 20 grammes par kilomètre et dont le coût "
            "d'acquisition est inférieur à 45 000 euros",
        },
        "ev_low_price_limit": {
            "value": "45000",
            "paragraph": "1°",
            "quote": "inférieur à 45 000 euros toutes taxes comprises",
        },
        "ev_rate": {
            "value": "0.27",
            "paragraph": "1°",
            "quote": "le montant de l'aide est fixé à 27 % du coût d'acquisition toutes "
            "taxes comprises, augmenté le cas échéant du coût de la batterie si "
            "celle-ci est prise en location, dans la limite de 7 000 euros",
        },
    },
    "transitional_clauses": [
        {
            "id": "decret-2019-1526-art2",
            "paragraph": "décret n° 2019-1526 du 30 décembre 2019, art. 2 (rédaction en "
            "vigueur depuis le 1er juin 2020)",
            "keeps": "more_favourable",
            "order_test": "ordered_before",
            "order_limit": "2020-01-01",
            "decisive_on_or_before": "2020-09-23",
            "deadline_basis": "explicit",
            "deadline_reading": "« dans leur rédaction antérieure à l'entrée en vigueur du "
            "présent décret … commandés ou dont le contrat de location a "
            "été signé avant cette date »: « cette date » is the entry "
            "into force of décret n° 2019-1526, 2020-01-01, so ordered or "
            "lease signed before 2020-01-01. « au plus tard le 23 "
            "septembre 2020 »: invoice or first rent on or before "
            "2020-09-23, a date written in the text. This wording of the "
            "clause is in force from 2020-06-01, i.e. during this "
            "version.",
            "wording": "Lorsqu'elles sont plus avantageuses, les dispositions de l'article D. "
            "251-7 du code de l'énergie dans leur rédaction antérieure à l'entrée "
            "en vigueur du présent décret restent applicables aux véhicules, qui "
            "n'ont pas fait l'objet précédemment d'une première immatriculation en "
            "France et à l'étranger, commandés ou dont le contrat de location a "
            "été signé avant cette date, à condition que leur facturation ou le "
            "versement du premier loyer intervienne au plus tard le 23 septembre "
            "2020.",
            "kept_version_id": None,
            "kept_version_label": "D. 251-7 dans sa rédaction antérieure au décret n° "
            "2019-1526 (version 2019-01-01 → 2019-12-31, décret n° "
            "2018-1318)",
            "new_vehicles_only": True,
            "source": {
                "decree": "Décret n° 2019-1526 du 30 décembre 2019 relatif aux aides à "
                "l'acquisition ou à la location des véhicules peu polluants",
                "decree_date": "2019-12-30",
                "jorf": "JORF du 31 décembre 2019",
                "jorf_date": "2019-12-31",
                "nor": None,
                "eli": None,
                "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                "legiarti": None,
                "jorftext": None,
                "confidence": "confirmed",
                "notes": "Art. 2 in its version « En vigueur depuis le 1er juin 2020 "
                "», verbatim from lexbase "
                "(shared/legal/texts/decret-2019-1526-art2-v2020-06-01.txt; "
                "history/era-2017-2020.md §1 V5: confirmed); the amending "
                "text (probably décret n° 2020-656, art. 2) was not seen. "
                "JORF date per faceaurisque; NOR not seen. Per "
                "history/era-2017-2020.md (likely), the 2019 barème gave an "
                "electric car 27 % capped at 6 000 € for every buyer, without "
                "price bands: more favourable than this version for a legal "
                "person or above 45 000 €.",
            },
        }
    ],
    "claim_deadline_months": None,
    "notes": "Period: décret 2020-656 declared this wording « en vigueur du 1er juin au 31 décembre 2020 » and "
    "the\n"
    "earlier one applicable again from 1 January 2021, but the Légifrance consolidation (doctrine.fr\n"
    "chr […]",
    "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
    "text_hash": "sha256:97f0cf5d20366c76a1ccefc9278d4a7accce1a27c8cb82e2e6e8a072441934d8",
    "text": "Le montant de l'aide prévue à l'article D. 251-1 est fixé comme suit :\n"
    "1° Pour les véhicules mentionnés au 5° de l'article D. 251-1, dont le taux d'émission de dioxyde "
    "de carbone est inférieur ou égal à 20 grammes par kilomètre et dont le coût d'acquisition est "
    "inférieur à 45 000 euros toutes taxes […]",
    "facts": {
        "resolution": [
            "acquisition",
            "invoice_date",
            "first_rent_date",
            "order_date",
            "vehicle.previously_registered",
        ],
        "calculator": [
            "buyer.person_kind",
            "vehicle.acquisition_cost",
            "vehicle.battery_energy_kwh",
            "vehicle.battery_rental_cost",
            "vehicle.category",
            "vehicle.city_electric_range_km",
            "vehicle.co2_g_per_km",
            "vehicle.energy",
            "vehicle.net_max_power_kw",
            "vehicle.power_basis",
            "vehicle.uses_lead_battery",
        ],
    },
}

IN_FORCE: dict[str, Any] = {
    "scheme": "bonus",
    "on": "2020-07-15",
    "on_is_today": False,
    "version": {
        "version_id": "D251-7.2020-06-01",
        "scheme": "bonus",
        "role": "amounts",
        "article": "D251-7",
        "citation": "C. énergie, art. D. 251-7",
        "title": "Montant du bonus écologique (rédaction du décret n° 2020-656 du 30 mai 2020)",
        "valid_from": "2020-06-01",
        "valid_until": "2021-01-21",
        "last_day_in_force": "2021-01-20",
        "provenance": "seed",
        "period_confidence": "confirmed",
        "source": {
            "decree": "Décret n° 2020-656 du 30 mai 2020 relatif aux aides à l'acquisition ou à "
            "la location des véhicules peu polluants",
            "decree_date": "2020-05-30",
            "jorf": "JORF n° 0133 du 31 mai 2020",
            "jorf_date": "2020-05-31",
            "nor": "TRER2013154D",
            "eli": "https://www.legifrance.gouv.fr/eli/decret/2020/5/30/TRER2013154D/jo/texte",
            "url": "https://securibase.com/securibase/public/fiche/26037/29684",
            "legiarti": None,
            "jorftext": None,
            "confidence": "confirmed",
            "notes": "Decree, date, NOR and entry-into-force rule confirmed (securibase "
            "reproduction of the JORF notice). The ELI is built fro […]",
        },
        "calculator": "bonus_2020_06_01",
        "relies_on": [],
        "parameters": {
            "ev_co2_max": {
                "value": "20",
                "paragraph": "1°",
                "quote": "inférieur ou égal à 20 grammes par kilomètre et dont le "
                "coût d'acquisition est inférieur à 45 000 euros",
            },
            "ev_low_price_limit": {
                "value": "45000",
                "paragraph": "1°",
                "quote": "inférieur à 45 000 euros toutes taxes comprises",
            },
            "ev_rate": {
                "value": "0.27",
                "paragraph": "1°",
                "quote": "le montant de l'aide est fixé à 27 % du coût d'acquisition "
                "toutes taxes comprises, augmenté le cas échéant du coût de "
                "la batterie si celle-ci est prise en location, dans la "
                "limite de 7 000 euros",
            },
        },
        "transitional_clauses": [
            {
                "id": "decret-2019-1526-art2",
                "paragraph": "décret n° 2019-1526 du 30 décembre 2019, art. 2 "
                "(rédaction en vigueur depuis le 1er juin 2020)",
                "keeps": "more_favourable",
                "order_test": "ordered_before",
                "order_limit": "2020-01-01",
                "decisive_on_or_before": "2020-09-23",
                "deadline_basis": "explicit",
                "deadline_reading": "« dans leur rédaction antérieure à l'entrée en "
                "vigueur du présent décret … commandés ou dont le "
                "contrat de location a été signé avant cette date "
                "»: « cette date » is the entry into force of "
                "décret n° 2019-1526, 2020-01-01, so ordered or "
                "lease signed before 2020-01-01. « au plus tard "
                "le 23 septembre 2020 »: invoice or first rent on "
                "or before 2020-09-23, a date written in the "
                "text. This wording of the clause is in force "
                "from 2020-06-01, i.e. during this version.",
                "wording": "Lorsqu'elles sont plus avantageuses, les dispositions de "
                "l'article D. 251-7 du code de l'énergie dans leur "
                "rédaction antérieure à l'entrée en vigueur du présent "
                "décret restent applicables aux véhicules, qui n'ont pas "
                "fait l'objet précédemment d'une première immatriculation "
                "en France et à l'étranger, commandés ou dont le contrat "
                "de location a été signé avant cette date, à condition que "
                "leur facturation ou le versement du premier loyer "
                "intervienne au plus tard le 23 septembre 2020.",
                "kept_version_id": None,
                "kept_version_label": "D. 251-7 dans sa rédaction antérieure au "
                "décret n° 2019-1526 (version 2019-01-01 → "
                "2019-12-31, décret n° 2018-1318)",
                "new_vehicles_only": True,
                "source": {
                    "decree": "Décret n° 2019-1526 du 30 décembre 2019 relatif "
                    "aux aides à l'acquisition ou à la location des "
                    "véhicules peu polluants",
                    "decree_date": "2019-12-30",
                    "jorf": "JORF du 31 décembre 2019",
                    "jorf_date": "2019-12-31",
                    "nor": None,
                    "eli": None,
                    "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                    "legiarti": None,
                    "jorftext": None,
                    "confidence": "confirmed",
                    "notes": "Art. 2 in its version « En vigueur depuis le 1er "
                    "juin 2020 », verbatim from lexbase "
                    "(shared/legal/texts/decret-2019-1526-art2-v2020-06-01.txt; "
                    "history/era-2017-2020.md §1 V5: confirmed); the "
                    "amending text (probably décret n° 2020-656, art. "
                    "2) was not seen. JORF date per faceaurisque; NOR "
                    "not seen. Per history/era-2017-2020.md (likely), "
                    "the 2019 barème gave an electric car 27 % capped "
                    "at 6 000 € for every buyer, without price bands: "
                    "more favourable than this version for a legal "
                    "person or above 45 000 €.",
                },
            }
        ],
        "claim_deadline_months": None,
        "notes": "Period: décret 2020-656 declared this wording « en vigueur du 1er juin au 31 décembre "
        "2020 » and the\n"
        "earlier one applicable again from 1 January 2021, but the Légifrance consolidation "
        "(doctrine.fr\n"
        "chr […]",
        "version_hash": "sha256:e4ef8aa47bf7c13cabe895aa4d69632115b504bdf8698874006a0fcafd31b84d",
        "text_hash": "sha256:97f0cf5d20366c76a1ccefc9278d4a7accce1a27c8cb82e2e6e8a072441934d8",
        "text": "Le montant de l'aide prévue à l'article D. 251-1 est fixé comme suit :\n"
        "1° Pour les véhicules mentionnés au 5° de l'article D. 251-1, dont le taux d'émission "
        "de dioxyde de carbone est inférieur ou égal à 20 grammes par kilomètre et dont le coût "
        "d'acquisition est inférieur à 45 000 euros toutes taxes […]",
        "facts": {
            "resolution": [
                "acquisition",
                "invoice_date",
                "first_rent_date",
                "order_date",
                "vehicle.previously_registered",
            ],
            "calculator": [
                "buyer.person_kind",
                "vehicle.acquisition_cost",
                "vehicle.battery_energy_kwh",
                "vehicle.battery_rental_cost",
                "vehicle.category",
                "vehicle.city_electric_range_km",
                "vehicle.co2_g_per_km",
                "vehicle.energy",
                "vehicle.net_max_power_kw",
                "vehicle.power_basis",
                "vehicle.uses_lead_battery",
            ],
        },
    },
}

DIFF: dict[str, Any] = {
    "article": "D251-7",
    "citation": "C. énergie, art. D. 251-7",
    "from": {
        "version_id": "D251-7.2017-01-01",
        "citation": "C. énergie, art. D. 251-7",
        "valid_from": "2017-01-01",
        "valid_until": "2017-02-19",
        "version_hash": "sha256:eb1edcf95ce6462bbfcdf47b87bc997a771ca7dcc0e6879aa829985fab6e6f91",
    },
    "to": {
        "version_id": "D251-7.2017-02-19",
        "citation": "C. énergie, art. D. 251-7",
        "valid_from": "2017-02-19",
        "valid_until": "2018-01-01",
        "version_hash": "sha256:c083c73aa07ca3da7cdb1dd2a8ca2d58522454c7627b32bad6ce52d77bfd0ce6",
    },
    "identical_text": False,
    "unified_diff": "--- D251-7.2017-01-01\n"
    "+++ D251-7.2017-02-19\n"
    "@@ -11,3 +11,5 @@\n"
    " a) 27 % du coût d'acquisition toutes taxes comprises, augmenté le cas échéant du coût de "
    "la batterie si celle-ci est prise en location ;\n"
    " \n"
    " b) 1 000 euros.\n"
    "+\n"
    "+3° Pour les véhicules mentionnés au 6° du même article qui n'utilisent pas de batterie au "
    "plomb et dont la puissance maximale nette du moteur est inférieure à 3 kilowatts, le "
    "montant de l'aide est fixé à 20 % du coût d'acquisition toutes taxes comprises, sans être "
    "supérieur à 200 euros.\n",
    "changes": [
        {
            "op": "insert",
            "from": None,
            "to": "\n"
            "\n"
            "3° Pour les véhicules mentionnés au 6° du même article qui n'utilisent pas de batterie "
            "au plomb et dont la puissance maximale nette du moteur est inférieure à 3 kilowatts, le "
            "montant de l'aide est fixé à 20 % du coût d'acquisition toutes taxes comprises, sans "
            "être supérieur à 200 euros.",
            "context_before": "b) 1 000 euros.",
            "context_after": "",
            "line": 15,
            "paragraph": "3°",
        }
    ],
    "words": [
        {
            "op": "equal",
            "text": "Le montant de l'aide prévue à l'article D. 251-1 est fixé comme suit :\n\n1° Pour […]",
        },
        {
            "op": "insert",
            "to": "\n"
            "\n"
            "3° Pour les véhicules mentionnés au 6° du même article qui n'utilisent pas de batterie au "
            "plomb et dont la puissance maximale nette du moteur est inférieure à 3 kilowatts, le "
            "montant de l'aide est fixé à 20 % du coût d'acquisition toutes taxes comprises, sans être "
            "supérieur à 200 euros.",
        },
    ],
    "parameters": [
        {"name": "l_small_cap", "from": None, "to": "200", "paragraph": "3°"},
        {"name": "l_small_rate", "from": None, "to": "0.20", "paragraph": "3°"},
    ],
    "metadata": [
        {
            "field": "title",
            "from": "Montant du bonus écologique (rédaction du décret n° 2016-1980 du 30 décembre 2016)",
            "to": "Montant du bonus écologique (rédaction du décret n° 2017-196 du 16 février 2017)",
        },
        {"field": "valid_from", "from": "2017-01-01", "to": "2017-02-19"},
        {"field": "valid_until", "from": "2017-02-19", "to": "2018-01-01"},
        {"field": "calculator", "from": "bonus_2017_01_01", "to": "bonus_2017_02_19"},
    ],
}

READY: dict[str, Any] = {
    "status": "ready",
    "database": "sqlite",
    "catalogue": {
        "load_id": 1,
        "recorded_at": "2026-11-29T18:08:54.334015+00:00",
        "tree_hash": "sha256:53bbf10358f0ac575b4fd9848cb260a4d6df719c9d30d6f559c7fd089e71e68e",
        "versions": 18,
    },
}

PROBLEM_NO_VERSION: dict[str, Any] = {
    "type": "urn:vigueur:problem:no-version-on-file",
    "title": "No version on file",
    "status": 404,
    "detail": "no version of the bonus amounts on file for 2018-07-15 (declared gap: D. 251-7 versions of 2018 "
    "(2017-1851), 2019 (2018-1318) and 2020-01-01 (2019-1526): not on file)",
    "scheme": "bonus",
    "on": "2018-07-15",
    "declared_gap": {
        "start": "2018-01-01",
        "end": "2020-06-01",
        "last_day": "2020-05-31",
        "reason": "D. 251-7 versions of 2018 (2017-1851), 2019 (2018-1318) and 2020-01-01 "
        "(2019-1526): not on file",
    },
    "nearest_versions": {
        "before": {
            "version_id": "D251-7.2017-02-19",
            "citation": "C. énergie, art. D. 251-7",
            "valid_from": "2017-02-19",
            "valid_until": "2018-01-01",
        },
        "after": {
            "version_id": "D251-7.2020-06-01",
            "citation": "C. énergie, art. D. 251-7",
            "valid_from": "2020-06-01",
            "valid_until": "2021-01-21",
        },
    },
}

PROBLEM_404: dict[str, Any] = {
    "type": "urn:vigueur:problem:unknown-version",
    "title": "Unknown version",
    "status": 404,
    "detail": "no version with id 'D251-7.2019-01-01' on file",
    "errors": [
        {"field": "version_id", "message": "no such version; GET /v1/schemes/{scheme}/versions lists them"}
    ],
}

PROBLEM_422: dict[str, Any] = {
    "type": "about:blank",
    "title": "Invalid request",
    "status": 422,
    "errors": [
        {"field": "vehicle.acquisition_cost", "message": "Input should be greater than or equal to 0"}
    ],
}

PROBLEM_415: dict[str, Any] = {
    "type": "about:blank",
    "title": "Unsupported Media Type",
    "status": 415,
    "detail": "send the request as JSON with the header « Content-Type: application/json »",
    "errors": [{"field": "(body)", "message": "content type 'text/plain' is not JSON"}],
}

CALCULATE: dict[str, Any] = {
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
                    "paragraph": "décret n° 2019-1526 du 30 décembre 2019, art. 2 "
                    "(rédaction en vigueur depuis le 1er juin 2020)",
                    "keeps": "more_favourable",
                    "order_test": "ordered_before",
                    "order_limit": "2020-01-01",
                    "decisive_on_or_before": "2020-09-23",
                    "deadline_basis": "explicit",
                    "deadline_reading": "« dans leur rédaction antérieure à l'entrée en "
                    "vigueur du présent décret … commandés ou dont "
                    "le contrat de location a été signé avant cette "
                    "date »: « cette date » is the entry into force "
                    "of décret n° 2019-1526, 2020-01-01, so ordered "
                    "or lease signed before 2020-01-01. « au plus "
                    "tard le 23 septembre 2020 »: invoice or first "
                    "rent on or before 2020-09-23, a date written in "
                    "the text. This wording of the clause is in "
                    "force from 2020-06-01, i.e. during this "
                    "version.",
                    "wording": "Lorsqu'elles sont plus avantageuses, les dispositions de "
                    "l'article D. 251-7 du code de l'énergie dans leur "
                    "rédaction antérieure à l'entrée en vigueur du présent "
                    "décret restent applicables aux véhicules, qui n'ont pas "
                    "fait l'objet précédemment d'une première immatriculation "
                    "en France et à l'étranger, commandés ou dont le contrat "
                    "de location a été signé avant cette date, à condition "
                    "que leur facturation ou le versement du premier loyer "
                    "intervienne au plus tard le 23 septembre 2020.",
                    "kept_version_id": None,
                    "kept_version_label": "D. 251-7 dans sa rédaction antérieure au "
                    "décret n° 2019-1526 (version 2019-01-01 → "
                    "2019-12-31, décret n° 2018-1318)",
                    "new_vehicles_only": True,
                    "source": {
                        "decree": "Décret n° 2019-1526 du 30 décembre 2019 "
                        "relatif aux aides à l'acquisition ou à la "
                        "location des véhicules peu polluants",
                        "decree_date": "2019-12-30",
                        "jorf": "JORF du 31 décembre 2019",
                        "jorf_date": "2019-12-31",
                        "nor": None,
                        "eli": None,
                        "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                        "legiarti": None,
                        "jorftext": None,
                        "confidence": "confirmed",
                        "notes": "Art. 2 in its version « En vigueur depuis le "
                        "1er juin 2020 », verbatim from lexbase "
                        "(shared/legal/texts/decret-2019-1526-art2-v2020-06-01.txt; "
                        "history/era-2017-2020.md §1 V5: confirmed); the "
                        "amending text (probably décret n° 2020-656, "
                        "art. 2) was not seen. JORF date per "
                        "faceaurisque; NOR not seen. Per "
                        "history/era-2017-2020.md (likely), the 2019 "
                        "barème gave an electric car 27 % capped at 6 "
                        "000 € for every buyer, without price bands: "
                        "more favourable than this version for a legal "
                        "person or above 45 000 €.",
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
                    "text": "CO2 0 g/km, taken as the rate deemed to meet article 1007 bis of the CGI (8°)",
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
                "The vehicle meets the conditions of D. 251-1 (new, registered in France, its "
                "5°, 6° or 7° as its category requires): that article is not on file for this "
                "period; the request asserts them."
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
}

RESOLVE: dict[str, Any] = {
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
                    "paragraph": "décret n° 2019-1526 du 30 décembre 2019, art. 2 "
                    "(rédaction en vigueur depuis le 1er juin 2020)",
                    "keeps": "more_favourable",
                    "order_test": "ordered_before",
                    "order_limit": "2020-01-01",
                    "decisive_on_or_before": "2020-09-23",
                    "deadline_basis": "explicit",
                    "deadline_reading": "« dans leur rédaction antérieure à l'entrée en "
                    "vigueur du présent décret … commandés ou dont "
                    "le contrat de location a été signé avant cette "
                    "date »: « cette date » is the entry into force "
                    "of décret n° 2019-1526, 2020-01-01, so ordered "
                    "or lease signed before 2020-01-01. « au plus "
                    "tard le 23 septembre 2020 »: invoice or first "
                    "rent on or before 2020-09-23, a date written in "
                    "the text. This wording of the clause is in "
                    "force from 2020-06-01, i.e. during this "
                    "version.",
                    "wording": "Lorsqu'elles sont plus avantageuses, les dispositions de "
                    "l'article D. 251-7 du code de l'énergie dans leur "
                    "rédaction antérieure à l'entrée en vigueur du présent "
                    "décret restent applicables aux véhicules, qui n'ont pas "
                    "fait l'objet précédemment d'une première immatriculation "
                    "en France et à l'étranger, commandés ou dont le contrat "
                    "de location a été signé avant cette date, à condition "
                    "que leur facturation ou le versement du premier loyer "
                    "intervienne au plus tard le 23 septembre 2020.",
                    "kept_version_id": None,
                    "kept_version_label": "D. 251-7 dans sa rédaction antérieure au "
                    "décret n° 2019-1526 (version 2019-01-01 → "
                    "2019-12-31, décret n° 2018-1318)",
                    "new_vehicles_only": True,
                    "source": {
                        "decree": "Décret n° 2019-1526 du 30 décembre 2019 "
                        "relatif aux aides à l'acquisition ou à la "
                        "location des véhicules peu polluants",
                        "decree_date": "2019-12-30",
                        "jorf": "JORF du 31 décembre 2019",
                        "jorf_date": "2019-12-31",
                        "nor": None,
                        "eli": None,
                        "url": "https://www.lexbase.fr/index/source-document/17209833-decret-20201526-07122020",
                        "legiarti": None,
                        "jorftext": None,
                        "confidence": "confirmed",
                        "notes": "Art. 2 in its version « En vigueur depuis le "
                        "1er juin 2020 », verbatim from lexbase "
                        "(shared/legal/texts/decret-2019-1526-art2-v2020-06-01.txt; "
                        "history/era-2017-2020.md §1 V5: confirmed); the "
                        "amending text (probably décret n° 2020-656, "
                        "art. 2) was not seen. JORF date per "
                        "faceaurisque; NOR not seen. Per "
                        "history/era-2017-2020.md (likely), the 2019 "
                        "barème gave an electric car 27 % capped at 6 "
                        "000 € for every buyer, without price bands: "
                        "more favourable than this version for a legal "
                        "person or above 45 000 €.",
                    },
                    "open": False,
                    "test": "ordered 2020-06-10 < 2020-01-01: no; decisive 2020-07-15 ≤ 2020-09-23: yes",
                    "missing_fact": None,
                }
            ],
            "notes": [],
            "nearest_versions": None,
            "message": None,
            "status": "resolved",
            "versions_to_compute": ["D251-7.2020-06-01"],
            "warnings": [],
        }
    ]
}
PROBLEM_413: dict[str, Any] = {
    "type": "about:blank",
    "title": "Content Too Large",
    "status": 413,
    "detail": "a request is at most 1000000 bytes",
    "errors": [{"field": "(body)", "message": "too large"}],
}
PROBLEM_503: dict[str, Any] = {
    "type": "urn:vigueur:problem:database-unavailable",
    "title": "Database unavailable",
    "status": 503,
    "detail": "the catalogue database does not answer; the request was not processed, retry later",
}
PROBLEM_500: dict[str, Any] = {
    "type": "urn:vigueur:problem:bug",
    "title": "Internal Server Error",
    "status": 500,
    "detail": "an unexpected error; it was logged. This is a bug of vigueur, not of the request",
}
HEALTH: dict[str, Any] = {"status": "ok"}
PROBLEM_401: dict[str, Any] = {
    "type": "about:blank",
    "title": "Unauthorized",
    "status": 401,
    "detail": "the bearer token is not valid",
}
PROBLEM_WRITES_OFF: dict[str, Any] = {
    "type": "about:blank",
    "title": "Not Found",
    "status": 404,
    "detail": "write endpoints are off: VIGUEUR_ADMIN_TOKEN is not configured",
}

SUCCESS: dict[str, dict[str, Any]] = {
    "SchemesOut": SCHEMES,
    "TimelineOut": TIMELINE,
    "InForceOut": IN_FORCE,
    "VersionOut": VERSION,
    "DiffOut": DIFF,
    "HealthOut": HEALTH,
    "ReadyOut": READY,
    "CalculationResponse": CALCULATE,
    "ResolveResponse": RESOLVE,
    "RevisionsOut": REVISIONS,
    "ReceiptOut": RECEIPT,
    "ReplayOut": REPLAY,
    "LoadReportOut": CORRECTION,
}

REQUESTS: dict[str, dict[str, Any]] = {
    "electric_car_2020": {
        "summary": "An electric car bought by a natural person in July 2020 (examples/request.json)",
        "value": {
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
    },
    "lease_plug_in_hybrid_2020": {
        "summary": "A plug-in hybrid leased for 3 years by a company, first rent in September 2020",
        "value": {
            "acquisition": "lease",
            "order_date": "2020-08-01",
            "first_rent_date": "2020-09-01",
            "lease_duration_months": 36,
            "vehicle": {
                "category": "passenger_car",
                "energy": "petrol_electric_hybrid",
                "co2_g_per_km": 35,
                "acquisition_cost": "45000.00",
                "city_electric_range_km": "60",
            },
            "buyer": {"person_kind": "legal_person"},
            "schemes": ["bonus"],
        },
    },
    "conversion_premium_2021": {
        "summary": "A used petrol car bought in August 2021 with an old diesel scrapped (both schemes)",
        "value": {
            "acquisition": "purchase",
            "invoice_date": "2021-08-20",
            "vehicle": {
                "category": "passenger_car",
                "energy": "petrol",
                "co2_g_per_km": 120,
                "acquisition_cost": "15000.00",
                "critair": "1",
                "new_registration_system": True,
                "previously_registered": True,
                "first_registration_date": "2019-03-01",
            },
            "buyer": {"person_kind": "natural_person", "reference_income_per_share": "12000.00"},
            "scrapped_vehicle": {
                "energy": "diesel",
                "category": "passenger_car",
                "first_registration_date": "2005-05-01",
                "owned_since": "2015-01-01",
                "destruction_date": "2021-08-25",
            },
        },
    },
    "missing_facts": {
        "summary": "Too few facts: the answer names the fields the text needs",
        "value": {
            "acquisition": "purchase",
            "invoice_date": "2020-07-15",
            "vehicle": {"category": "passenger_car"},
        },
    },
}
