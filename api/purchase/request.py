"""The JSON contract shared by the CLI and the HTTP API: the request models (validated strictly from JSON
text) and the one serializer, so the same request gives byte for byte the same JSON everywhere."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from api.output import dumps
from api.purchase.json_strict import duplicate_keys, without_bom
from legislation import (
    Acquisition,
    CritAir,
    Energy,
    EuroStandard,
    PersonKind,
    PowerBasis,
    Scheme,
    VanClass,
    VehicleCategory,
)

if TYPE_CHECKING:
    from fastapi import Response

Money = Annotated[Decimal, Field(ge=0, max_digits=14, decimal_places=2, allow_inf_nan=False)]
Quantity = Annotated[Decimal, Field(ge=0, max_digits=12, decimal_places=3, allow_inf_nan=False)]
_STRICT = ConfigDict(extra="forbid", strict=True)


class VehicleIn(BaseModel):
    """The vehicle acquired or leased (« véhicule acquis ou loué »)."""

    model_config = _STRICT

    category: VehicleCategory | None = Field(
        None,
        description=(
            "« catégorie » au sens de l'article R. 311-1 du code de la route: passenger_car = « voiture particulière » (M1), "
            "van = « camionnette » (N1), two_three_wheeler = « véhicule à moteur à deux ou trois roues et quadricycle à moteur » (L), "
            "electric_bicycle = « cycle à pédalage assisté », light_m2_n2 = « catégories M2 ou N2 … poids total autorisé en charge "
            "inférieur ou égal à 3,5 tonnes » (D. 251-1 1° c), 2019–2021); m2, m3 = « catégories M2 ou M3 » (autobus, "
            "autocars), n2, n3 = « catégories N2 ou N3 » (camions) (D. 251-1 1° c) and D. 251-7 from 2021-01-21)."
        ),
    )
    energy: Energy | None = Field(
        None,
        description=(
            "« source d'énergie » / « motorisation »: electric = « électricité », hydrogen = « hydrogène », *_electric_hybrid = "
            "« combine l'énergie électrique et une motorisation thermique à l'essence, au gazole, au gaz de pétrole liquéfié ou au gaz "
            "naturel véhicules »."
        ),
    )
    co2_g_per_km: int | None = Field(
        None, ge=0, le=1000, description="« taux d'émission de dioxyde de carbone », grammes par kilomètre (integer)."
    )
    acquisition_cost: Money | None = Field(
        None, description="« coût d'acquisition toutes taxes comprises », euros TTC, incl. a purchased battery."
    )
    battery_rental_cost: Money = Field(
        Decimal("0"), description="« coût de la batterie si celle-ci est prise en location », euros TTC."
    )
    electric_motor_power_30min_kw: Quantity | None = Field(
        None, description="« puissance maximale sur 30 minutes » of the electric motor, kW."
    )
    net_max_power_kw: Quantity | None = Field(None, description="« puissance maximale nette du moteur », kW.")
    power_basis: PowerBasis | None = Field(
        None, description=("Instrument of the power measure: « règlement (UE) 168/2013 » or « directive 2002/24/CE ».")
    )
    uses_lead_battery: bool | None = Field(None, description="« utilise une batterie au plomb ».")
    battery_energy_kwh: Quantity | None = Field(None, description="« énergie de la batterie », kilowattheures.")
    city_electric_range_km: Quantity | None = Field(
        None, description="« autonomie équivalente en mode tout électrique en ville », km."
    )
    euro_standard: EuroStandard | None = Field(None, description="« norme Euro » (règlement (CE) n° 715/2007).")
    critair: CritAir | None = Field(
        None, description="« classé » under the arrêté of article R. 318-2 du code de la route (Crit'Air)."
    )
    van_class: VanClass | None = Field(
        None, description="« classe I, II ou III » au sens de l'annexe 1 du règlement (CE) n° 715/2007."
    )
    previously_registered: bool | None = Field(
        None, description="« a fait l'objet précédemment d'une première immatriculation en France ou à l'étranger »."
    )
    first_registration_date: date | None = Field(None, description="« date de première immatriculation ».")
    new_registration_system: bool | None = Field(
        None, description="« relève du nouveau dispositif d'immatriculation » (CGI art. 1007, 4°)."
    )
    wheelchair_accessible: bool | None = Field(None, description="« accessible en fauteuil roulant ».")
    mass_kg: int | None = Field(
        None,
        ge=0,
        le=9999,
        description="« masse en ordre de marche », kg (integer): the bonus from 2023 requires « inférieure à 2,4 "
        "tonnes » (2 400 kg).",
    )
    environmental_score_eligible: bool | None = Field(
        None,
        description="« inscrit sur la liste des modèles éligibles » (score environnemental, arrêté du 14 décembre "
        "2023): the car bonus from 2023-12-16 requires it.",
    )
    demonstration: bool | None = Field(
        None,
        description=(
            "« véhicule affecté à la démonstration »: a dealer's demonstration vehicle, bought or leased from it "
            "(décret 2014-1672, art. 2, 2e alinéa: eligible if « sa cession ou sa location intervient dans un délai "
            "d'un an suivant la date de sa première immatriculation », which first_registration_date gives)."
        ),
    )


class BuyerIn(BaseModel):
    """The buyer or lessee (« acquéreur ou locataire »)."""

    model_config = _STRICT

    person_kind: PersonKind | None = Field(
        None,
        description=(
            "natural_person = « personne physique », legal_person = « personne morale », state_administration = "
            "« administration de l'Etat »."
        ),
    )
    reference_income_per_share: Money | None = Field(
        None, description="« revenu fiscal de référence par part », euros."
    )
    income_tax_nil: bool | None = Field(
        None,
        description=("« cotisation d'impôt sur le revenu de l'année précédant l'acquisition ou la location … nulle »."),
    )
    home_work_distance_km: Quantity | None = Field(
        None, description="« distance entre son domicile et son lieu de travail », km."
    )
    professional_km_per_year: Quantity | None = Field(
        None,
        description=(
            "« kilomètres par an dans le cadre de son activité professionnelle avec son véhicule personnel »."
        ),
    )
    leases_out_months: int | None = Field(
        None,
        ge=0,
        le=600,
        description=(
            "« le donne en location dans le cadre d'un contrat d'une durée de … »: the buyer (« une entreprise ») "
            "leases the vehicle out, for this many months; 0 = it does not lease it out (décret 2014-1672, art. 2, "
            "1er alinéa: excluded from 24 months)."
        ),
    )
    dealer_demonstration: bool | None = Field(
        None,
        description=(
            "« concessionnaires et agents de marques de véhicules … qu'ils affectent à la démonstration »: the buyer "
            "is a dealer or brand agent assigning the vehicle to demonstration (décret 2014-1672, art. 2, 2e alinéa)."
        ),
    )
    overseas: bool | None = Field(
        None,
        description=(
            "« domicilié / établi en outre-mer »: a natural person domiciled, or a legal person established, in an "
            "overseas territory (Guadeloupe, Guyane, Martinique, La Réunion, Mayotte…): the bonus for a new vehicle "
            "is increased by 1 000 € from 2021-01-21 (décret 2021-37)."
        ),
    )
    bonus_in_last_three_years: bool | None = Field(
        None,
        description="« a déjà bénéficié du bonus … au cours des trois années précédentes »: one car bonus per person "
        "every three years (from 2023).",
    )


class ScrappedVehicleIn(BaseModel):
    """The vehicle withdrawn from circulation for destruction (« retrait de la circulation, à des fins de destruction »)."""

    model_config = _STRICT

    energy: Energy | None = Field(
        None, description="« carburant principal » of the scrapped vehicle (diesel = « gazole »)."
    )
    category: VehicleCategory | None = Field(
        None, description="« catégorie » of the scrapped vehicle (R. 311-1 du code de la route)."
    )
    first_registration_date: date | None = Field(
        None, description="« date de première immatriculation » on the registration certificate."
    )
    owned_since: date | None = Field(None, description="« acquis depuis »: date the beneficiary acquired it.")
    destruction_date: date | None = Field(None, description="« remise pour destruction » to an approved centre (VHU).")


# The resolver's first rule, stated in the schema: a purchase is decided by its invoice date, a lease by its
# first rent (design.md, « The resolver », 1.). The order of the dates (no invoice before the order) is not
# expressible in JSON Schema: it is answered 422 « Invalid dates ». One rule for `vigueur schema` and /openapi.json.
DECISIVE_DATE_RULES = [
    {
        "if": {"properties": {"acquisition": {"const": kind}}, "required": ["acquisition"]},
        "then": {"required": [field], "properties": {field: {"type": "string", "format": "date"}}},
    }
    for kind, field in (("purchase", "invoice_date"), ("lease", "first_rent_date"))
]


class CalculationRequest(BaseModel):
    """A purchase or lease to resolve and compute (the request of `vigueur resolve|calculate` and `POST /v1/…`)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"allOf": DECISIVE_DATE_RULES})

    acquisition: Acquisition = Field(
        description="purchase = « acquisition », lease = « location d'une durée supérieure ou égale à deux ans »."
    )
    order_date: date | None = Field(
        None,
        description=(
            "« date de commande » or, for a lease, « date de signature du contrat de location »; only transitional clauses use it."
        ),
    )
    invoice_date: date | None = Field(None, description="« date de facturation »: decides the version for a purchase.")
    first_rent_date: date | None = Field(
        None, description="« date de versement du premier loyer »: decides the version for a lease."
    )
    lease_duration_months: int | None = Field(
        None, ge=1, le=600, description="« durée du contrat de location », months."
    )
    schemes: list[Scheme] | None = Field(
        None,
        min_length=1,
        description=(
            "Aids to compute: bonus = « bonus écologique », conversion_premium = « prime à la conversion ». Default: both."
        ),
    )
    vehicle: VehicleIn = Field(default_factory=VehicleIn)
    buyer: BuyerIn = Field(default_factory=BuyerIn)
    scrapped_vehicle: ScrappedVehicleIn | None = Field(
        None, description="The vehicle scrapped with the purchase, if any (prime à la conversion)."
    )
    bonus_ecologique_amount: Money | None = Field(
        None,
        description=(
            "« bonus écologique » granted for the same vehicle, deducted by some primes (« bonus écologique déduit »)."
        ),
    )


class RequestError(Exception):
    """A request that does not validate; ``errors`` name each failing field by its path."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__("; ".join(f"{e['field']}: {e['message']}" for e in errors))
        self.errors = errors


def parse_request(raw: str | bytes) -> CalculationRequest:
    """Validate a JSON request strictly; errors name the field path (« vehicle.acquisition_cost »)."""
    raw = without_bom(raw)
    try:
        request = CalculationRequest.model_validate_json(raw)
    except ValidationError as exc:
        raise RequestError([field_error(e) for e in exc.errors(include_url=False)]) from None
    duplicates = duplicate_keys(raw)
    if duplicates:
        raise RequestError(duplicates)
    return request


def field_error(e: Any) -> dict[str, str]:
    path = ".".join(str(p) for p in e["loc"]) or "(body)"
    message = e["msg"]
    if e["type"] == "extra_forbidden":
        message = "unknown field (not part of the request contract)"
    elif e["type"] == "json_invalid":
        message = f"the body is not valid JSON: {e.get('ctx', {}).get('error', e['msg'])}"
    return {"field": path, "message": message}


def json_response(document: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """An HTTP answer carrying :func:`dumps` of ``document``: the same bytes the CLI prints."""
    from fastapi import Response  # here: the command line imports this module without the HTTP layer

    return Response(dumps(document), status_code=status, media_type="application/json", headers=headers)
