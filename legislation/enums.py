"""Closed sets of the domain, each named after the French legal notion it stands for."""

from __future__ import annotations

from enum import StrEnum


class Scheme(StrEnum):
    """The aid: « bonus écologique » or « prime à la conversion »."""

    BONUS = "bonus"
    CONVERSION_PREMIUM = "conversion_premium"


class Acquisition(StrEnum):
    """« acquisition » (purchase) or « location d'une durée supérieure ou égale à deux ans » (lease)."""

    PURCHASE = "purchase"
    LEASE = "lease"


class VehicleCategory(StrEnum):
    """Vehicle category in the sense of article R. 311-1 of the code de la route."""

    PASSENGER_CAR = "passenger_car"  # voiture particulière (M1)
    VAN = "van"  # camionnette (N1)
    TWO_THREE_WHEELER = "two_three_wheeler"  # véhicule à deux ou trois roues, quadricycle (L)
    ELECTRIC_BICYCLE = "electric_bicycle"  # cycle à pédalage assisté
    LIGHT_M2_N2 = "light_m2_n2"  # M2 ou N2 ≤ 3,5 t avec dérogation de poids (D. 251-1 1° c), 2019-2021)
    M2 = "m2"  # M2: transport de personnes, plus de huit places assises, ≤ 5 t (autobus, autocars; bonus 2021-2022)
    M3 = "m3"  # M3: transport de personnes, plus de huit places assises, > 5 t
    N2 = "n2"  # N2: transport de marchandises, > 3,5 t et ≤ 12 t (D. 251-1 1° c) from 2021-01-21)
    N3 = "n3"  # N3: transport de marchandises, > 12 t


class Energy(StrEnum):
    """« source d'énergie » of the vehicle, as the texts distinguish them."""

    ELECTRIC = "electric"
    HYDROGEN = "hydrogen"
    PETROL_ELECTRIC_HYBRID = "petrol_electric_hybrid"
    DIESEL_ELECTRIC_HYBRID = "diesel_electric_hybrid"
    LPG_ELECTRIC_HYBRID = "lpg_electric_hybrid"
    CNG_ELECTRIC_HYBRID = "cng_electric_hybrid"
    PETROL = "petrol"
    DIESEL = "diesel"
    LPG = "lpg"
    CNG = "cng"
    OTHER = "other"

    @property
    def is_hybrid(self) -> bool:
        return self.value.endswith("_electric_hybrid")


class PersonKind(StrEnum):
    """« personne physique », « personne morale » or « administration de l'Etat »."""

    NATURAL_PERSON = "natural_person"
    LEGAL_PERSON = "legal_person"
    STATE_ADMINISTRATION = "state_administration"


class PowerBasis(StrEnum):
    """Which instrument the « puissance maximale nette du moteur » was measured under."""

    REGULATION_EU_168_2013 = "regulation_eu_168_2013"
    DIRECTIVE_2002_24_EC = "directive_2002_24_ec"


class EuroStandard(StrEnum):
    """« norme Euro » of the vehicle (règlement (CE) n° 715/2007)."""

    EURO_4 = "euro_4"
    EURO_5 = "euro_5"
    EURO_6 = "euro_6"


class CritAir(StrEnum):
    """Class under the arrêté of article R. 318-2 of the code de la route (« Crit'Air »)."""

    ELECTRIC = "electric"
    CLASS_1 = "1"
    CLASS_2 = "2"
    CLASS_3 = "3"
    CLASS_4 = "4"
    CLASS_5 = "5"
    UNCLASSIFIED = "unclassified"


class VanClass(StrEnum):
    """« classe » of a light commercial vehicle, annex 1 of règlement (CE) n° 715/2007."""

    I = "I"  # noqa: E741 - the regulation's own name
    II = "II"
    III = "III"


class Provenance(StrEnum):
    """How sure the catalogue is of a version's text."""

    OFFICIAL = "official"  # the text was seen on an official or consolidated source
    SEED = "seed"  # the text is one of the product's seed extracts
    DERIVED = "derived"  # wording not on file; numbers read from a later official text that states them
    SECONDARY = "secondary"  # barème known from secondary sources only


class Role(StrEnum):
    """What a text does: fixes the amounts, sets the conditions, or organises the management."""

    AMOUNTS = "amounts"
    CONDITIONS = "conditions"
    MANAGEMENT = "management"
    TRANSITIONAL = "transitional"
    # The text that ends the aid (« abrogé », « supprimé »): from its first day, no amount is due except what
    # its transitional clauses keep. On a scheme's timeline it follows the last amounts version.
    ENDED = "ended"


class KeepMode(StrEnum):
    """What an open transitional clause keeps."""

    INLINE = "inline"  # branches of this version's own calculator
    PREVIOUS = "previous"  # the previous version, instead of this one
    MORE_FAVOURABLE = "more_favourable"  # both; the higher amount is kept
    # « bénéficient des dispositions relatives aux véhicules qui font l'objet d'une facturation au plus tard le
    # [date D] »: the version in force on D, computed as for a purchase decided on D (the clause's
    # ``rules_date``; for a clause that repeats every year, 31 December of the order's year).
    IN_FORCE_ON = "in_force_on"


class OrderTest(StrEnum):
    """How a transitional clause compares the order date with its limit."""

    ORDERED_BEFORE = "ordered_before"  # « avant le … » (exclusive)
    ORDERED_ON_OR_BEFORE = "ordered_on_or_before"  # « avant le … inclus »


class DecisiveEvent(StrEnum):
    """Which event of a purchase decides the version (design.md, resolver 1), as the version's text words it."""

    # « à la date de sa facturation ou à la date de versement du premier loyer » (2014-06-30 onwards)
    INVOICE_OR_FIRST_RENT = "invoice_or_first_rent"
    # « Année de facturation » / « à la date de sa facturation »: the invoice, for a lease too (2009-01-21 onwards)
    INVOICE = "invoice"
    # « à la date de son acquisition ou de sa prise en location » (décret 2007-1873, initial wording): a purchase
    # by its invoice (the acquisition « réalisée »), a lease by the signature of its contract (``order_date``)
    ACQUISITION_OR_LEASE_SIGNATURE = "acquisition_or_lease_signature"


class DeadlineBasis(StrEnum):
    """Whether a clause's deadline is written in the text or computed from a period."""

    EXPLICIT = "explicit"
    COMPUTED = "computed"


class ParameterUnit(StrEnum):
    """What a parameter's number counts, as its quote says it: it decides how the number is written there."""

    EURO = "euro"  # « 7 000 euros »
    RATE = "rate"  # a fraction: 0.27 is written « 27 % »
    EURO_PER_KWH = "euro_per_kwh"  # « 250 euros par kilowattheure »
    G_CO2_PER_KM = "g_co2_per_km"  # « 20 grammes par kilomètre » (de dioxyde de carbone)
    KW = "kw"  # « 3 kilowatts » (puissance maximale nette)
    KWH = "kwh"  # « kilowattheures » (énergie de la batterie)
    KM = "km"  # « 50 kilomètres » (autonomie, distance domicile-travail)
    KM_PER_YEAR = "km_per_year"  # « 12 000 kilomètres par an »
    MONTH = "month"  # a period: « six mois », « deux ans » (24)
    YEAR = "year"  # a period: « quinze ans », « un an » (1)
    DAY = "day"  # a period: « trente jours »
    TONNE = "tonne"  # a mass: « 2,4 tonnes » (masse en ordre de marche); read in kg as thousandths (ctx.qty)
    CALENDAR_YEAR = "calendar_year"  # a year of the calendar: « avant le 1er janvier 2001 » (written without space)
