"""The facts of a purchase or lease that the texts test. Each field names its French legal term."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from legislation.enums import (
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Vehicle:
    """The vehicle acquired or leased (« véhicule acquis ou loué »)."""

    category: VehicleCategory | None = None
    energy: Energy | None = None
    co2_g_per_km: int | None = None  # taux d'émission de dioxyde de carbone
    acquisition_cost: Decimal | None = None  # coût d'acquisition toutes taxes comprises
    battery_rental_cost: Decimal = Decimal("0")  # coût de la batterie prise en location
    electric_motor_power_30min_kw: Decimal | None = None  # puissance maximale sur 30 minutes du moteur électrique
    net_max_power_kw: Decimal | None = None  # puissance maximale nette du moteur
    power_basis: PowerBasis | None = None
    uses_lead_battery: bool | None = None  # batterie au plomb
    battery_energy_kwh: Decimal | None = None  # énergie de la batterie (kWh)
    city_electric_range_km: Decimal | None = None  # autonomie équivalente en mode tout électrique en ville
    euro_standard: EuroStandard | None = None  # norme « Euro »
    critair: CritAir | None = None  # classement (arrêté de l'article R. 318-2 du code de la route)
    van_class: VanClass | None = None  # classe I, II, III (règlement (CE) n° 715/2007, annexe 1)
    previously_registered: bool | None = None  # a fait l'objet précédemment d'une première immatriculation
    first_registration_date: date | None = None  # date de première immatriculation
    new_registration_system: bool | None = None  # relève du nouveau dispositif d'immatriculation (CGI 1007, 4°)
    wheelchair_accessible: bool | None = None  # accessible en fauteuil roulant
    demonstration: bool | None = None  # véhicule affecté à la démonstration (décret 2014-1672, art. 2)
    mass_kg: int | None = None  # masse en ordre de marche, kg (bonus 2023: « inférieure à 2,4 tonnes »)
    environmental_score_eligible: bool | None = None  # inscrit sur la liste des modèles éligibles (score env.)


@dataclass(frozen=True, slots=True, kw_only=True)
class Buyer:
    """The buyer or lessee (« acquéreur ou locataire »)."""

    person_kind: PersonKind | None = None
    reference_income_per_share: Decimal | None = None  # revenu fiscal de référence par part
    income_tax_nil: bool | None = None  # cotisation d'impôt sur le revenu de l'année précédente nulle
    home_work_distance_km: Decimal | None = None  # distance entre le domicile et le lieu de travail
    professional_km_per_year: Decimal | None = None  # kilomètres par an pour l'activité professionnelle
    leases_out_months: int | None = None  # le donne en location: durée du contrat, mois (0: non)
    dealer_demonstration: bool | None = None  # concessionnaire ou agent de marque qui l'affecte à la démonstration
    overseas: bool | None = None  # domicilié / établi en outre-mer (majoration de 1 000 €, décret 2021-37)
    bonus_in_last_three_years: bool | None = None  # a déjà bénéficié du bonus au cours des trois années précédentes


@dataclass(frozen=True, slots=True, kw_only=True)
class ScrappedVehicle:
    """The vehicle withdrawn from circulation for destruction (« retiré de la circulation »)."""

    energy: Energy | None = None  # carburant principal
    category: VehicleCategory | None = None
    first_registration_date: date | None = None
    owned_since: date | None = None  # acquis depuis
    destruction_date: date | None = None  # remise pour destruction (centre VHU)


@dataclass(frozen=True, slots=True, kw_only=True)
class Purchase:
    """One acquisition or lease with its dates and facts: what the resolver and calculators read."""

    acquisition: Acquisition
    order_date: date | None = None  # date de commande / signature du contrat de location
    invoice_date: date | None = None  # date de facturation
    first_rent_date: date | None = None  # date de versement du premier loyer
    lease_duration_months: int | None = None  # durée du contrat de location
    vehicle: Vehicle = field(default_factory=Vehicle)
    buyer: Buyer = field(default_factory=Buyer)
    scrapped_vehicle: ScrappedVehicle | None = None
    bonus_ecologique_amount: Decimal | None = None  # bonus écologique accordé (deducted by some primes)
    schemes: tuple[Scheme, ...] = (Scheme.BONUS, Scheme.CONVERSION_PREMIUM)
