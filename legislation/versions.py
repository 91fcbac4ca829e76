"""A version of a legal text: its wording, its period in force, its source and its data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from legislation.enums import (
    DeadlineBasis,
    DecisiveEvent,
    KeepMode,
    OrderTest,
    ParameterUnit,
    Provenance,
    Role,
    Scheme,
    VehicleCategory,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """Where the wording comes from: the amending decree, its publication, and the links."""

    decree: str  # « Décret n° 2014-1672 du 30 décembre 2014 »
    decree_date: date | None = None
    jorf: str | None = None  # « JORF n° 0302 du 31 décembre 2014 »
    jorf_date: date | None = None
    nor: str | None = None
    eli: str | None = None
    url: str | None = None
    legiarti: str | None = None
    jorftext: str | None = None
    confidence: str = "likely"  # confirmed | likely | guess (legal/README.md)
    notes: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    """A number of the text: value, the paragraph that fixes it and the words that say it."""

    name: str
    value: Decimal
    paragraph: str
    quote: str  # verbatim words of the text; the loader checks they are in it
    unit: ParameterUnit  # what the number counts; the loader checks the value is written in the quote
    # What the law means by it, the same across versions whose parameters are named differently (« ev_cap » in
    # 2017, « ev_cap_natural » in 2020); a dotted notion is a part of a split one (« ev_cap.natural_person »).
    notion: str | None = None

    @property
    def notion_key(self) -> str:
        """The notion, or the name when the version gives none."""
        return self.notion or self.name


@dataclass(frozen=True, slots=True, kw_only=True)
class TransitionalClause:
    """« Dispositions transitoires » as data.

    Open iff an order date passes ``order_test`` against ``order_limit`` and the decisive date is
    on or before ``decisive_on_or_before``.
    """

    id: str
    keeps: KeepMode
    order_test: OrderTest
    order_limit: date
    decisive_on_or_before: date
    deadline_basis: DeadlineBasis
    deadline_reading: str  # how the deadline was read from the words (stated in every answer)
    paragraph: str  # where the clause is: « art. 3, 1° a), 2e alinéa » or « décret 2020-1526, art. 4 »
    wording: str  # verbatim
    source: Source | None = None  # the clause's own source when it is not in this version's text
    kept_version_id: str | None = None  # previous / more_favourable: the version it keeps
    kept_version_label: str = ""  # how the text names the kept wording
    new_vehicles_only: bool = False  # « qui n'ont pas fait l'objet précédemment d'une première immatriculation »
    branches: tuple[str, ...] = ()  # inline: which calculator branches it opens
    # in_force_on: the date D whose version the clause keeps (« … facturation au plus tard le 31 décembre 2009 »),
    # computed as of D. previous / more_favourable: the kept version named by a date instead of an id (« dans leur
    # rédaction en vigueur au 31 décembre 2023 », décret 2024-102 art. 2; « antérieure à la date d'entrée en
    # vigueur », décret 2025-606): the version of the scheme in force on that date, computed for the purchase's
    # own decisive date.
    rules_date: date | None = None
    # A clause that repeats every year (« au plus tard le 31 décembre d'une année considérée … au plus tard le 31
    # mars de l'année suivante »): ``order_limit`` and ``decisive_on_or_before`` are its first occurrence; for a
    # purchase decided in year N + 1 they move to year N and N + 1, and D is 31 December N.
    yearly: bool = False
    # A deadline that depends on the vehicle's category (décret 2022-1761 art. 2: « a) Le 31 décembre 2023 si le
    # véhicule appartient aux catégories M2, M3, N2 ou N3 … b) Le 30 juin 2023 dans les autres cas »): the listed
    # categories' deadlines; ``decisive_on_or_before`` is the deadline « dans les autres cas ».
    category_deadlines: tuple[tuple[VehicleCategory, date], ...] = ()

    def deadline_for(self, category: VehicleCategory | None) -> date | None:
        """The decisive-date deadline for a vehicle of ``category`` (None: it depends on the category, unknown)."""
        if not self.category_deadlines:
            return self.decisive_on_or_before
        if category is None:
            return None
        return dict(self.category_deadlines).get(category, self.decisive_on_or_before)

    @property
    def deadlines(self) -> tuple[date, ...]:
        """Every decisive-date deadline the clause can have (one, or one per category group)."""
        return (self.decisive_on_or_before, *(d for _, d in self.category_deadlines))

    @property
    def latest_deadline(self) -> date:
        return max(self.deadlines)

    def limits(self, decisive: date) -> tuple[date, date] | None:
        """The order limit and the decisive-date deadline that apply to a purchase decided on ``decisive``
        (None: a yearly clause has no occurrence for it — its year N = the decisive year − 1 precedes the first)."""
        if not self.yearly:
            return self.order_limit, self.decisive_on_or_before
        shift = decisive.year - 1 - self.order_limit.year
        if shift < 0:
            return None
        return (
            self.order_limit.replace(year=self.order_limit.year + shift),
            self.decisive_on_or_before.replace(year=self.decisive_on_or_before.year + shift),
        )

    def kept_day(self, decisive: date) -> date | None:
        """The day whose version the clause keeps when it names it by a date (None: by ``kept_version_id``)."""
        if self.keeps is KeepMode.IN_FORCE_ON:
            return self.kept_rules_date(decisive)
        return self.rules_date if self.keeps is not KeepMode.INLINE else None

    def computed_as_of(self, decisive: date) -> date:
        """The decisive date the kept version is computed for: D for « in force on D », else the purchase's own."""
        if self.keeps is KeepMode.IN_FORCE_ON:
            return self.kept_rules_date(decisive) or decisive
        return decisive

    def kept_rules_date(self, decisive: date) -> date | None:
        """in_force_on: the date D whose version is kept (a yearly clause: 31 December of the year before the
        decisive date, « l'année considérée »)."""
        if self.yearly:
            return date(decisive.year - 1, 12, 31)
        return self.rules_date


@dataclass(frozen=True, slots=True, kw_only=True)
class Version:
    """The wording of one text in force on ``[valid_from, valid_until)``."""

    id: str
    scheme: Scheme | None  # None for a text shared by both schemes (management articles)
    role: Role
    article: str  # stable key of the text: « decret-2014-1672-art3 », « D251-7 »
    citation: str  # how an answer cites it: « décret n° 2014-1672, art. 3 »
    title: str
    valid_from: date
    valid_until: date | None  # exclusive; None = still open or end not known
    text: str
    source: Source
    provenance: Provenance
    period_confidence: str
    calculator: str | None  # None for a text-only version
    parameters: dict[str, Parameter] = field(default_factory=dict)
    transitional: tuple[TransitionalClause, ...] = ()
    relies_on: tuple[str, ...] = ()  # ids of other versions the calculator applies (conditions)
    decisive_event: DecisiveEvent = DecisiveEvent.INVOICE_OR_FIRST_RENT  # which date picks this version
    claim_deadline_months: int | None = None  # management text: « dans les six mois suivant … »
    claim_deadline_paragraph: str = ""
    notes: str = ""
    content_hash: str = ""

    def is_in_force(self, day: date) -> bool:
        """True when ``valid_from <= day < valid_until``."""
        return self.valid_from <= day and (self.valid_until is None or day < self.valid_until)

    @property
    def last_day(self) -> date | None:
        """The last day in force (``valid_until`` − 1 day), or None when open."""
        if self.valid_until is None:
            return None
        return date.fromordinal(self.valid_until.toordinal() - 1)

    def param(self, name: str) -> Decimal:
        """The value of a parameter of this version."""
        return self.parameters[name].value
