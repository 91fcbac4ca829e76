"""``versions/<id>/version.toml`` as pydantic models (the case files' models are in :mod:`api.cases.schema`).

The loader reads every ``version.toml`` through :class:`VersionFile` (unknown keys refused, types strict), so
an error names the file and the field path (``parameters.ev_cap.unit``, ``transitional[0].order_limit``). The
rules that need the text or other versions (quotes in the text, numbers in their quotes, overlaps, gaps)
stay in the loader. ``vigueur schema --catalogue`` / ``--cases`` print the JSON Schemas; the committed copies
``versions/version.schema.json`` and ``tests/regression/cases.schema.json`` are what editors use (a test keeps
them equal to these models).
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
)

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
from legislation.errors import CatalogueError

Text = Annotated[StrictStr, Field(min_length=1, pattern=r"\S")]
Day = Annotated[date, Strict(), Field(description="A TOML date, unquoted: 2020-06-01.")]
Confidence = Literal["confirmed", "likely", "guess"]
_CLOSED = ConfigDict(extra="forbid", use_attribute_docstrings=True)


def _decimal(value: str | int) -> str | int:
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite():
        raise ValueError(f"{value!r} is not a decimal written as a string or int")
    return value


class SourceFile(BaseModel):
    """``[source]``: where the wording comes from (« décret modificatif », its publication in the JORF, links)."""

    model_config = _CLOSED
    decree: Text
    """« décret » that gives this wording: « Décret n° 2016-1980 du 30 décembre 2016 … »."""
    decree_date: Day | None = None
    """« date de signature » of the decree."""
    jorf: Text | None = None
    """« Journal officiel de la République française » issue: « JORF n° 0304 du 31 décembre 2016, texte n° 10 »."""
    jorf_date: Day | None = None
    """« date de publication » in the JORF."""
    nor: Text | None = None
    """« numéro NOR » of the text."""
    eli: Text | None = None
    """« European Legislation Identifier » of the text."""
    url: Text | None = None
    """Where it was read (Légifrance)."""
    legiarti: Text | None = None
    """Légifrance id of the « article » version (LEGIARTI…)."""
    jorftext: Text | None = None
    """Légifrance id of the « texte » as published (JORFTEXT…)."""
    confidence: Confidence
    """How sure the source is: confirmed | likely | guess."""
    notes: StrictStr = ""
    """Free notes: how the source was established."""


class ParameterFile(BaseModel):
    """A number of the text: its value, its unit, the « alinéa » that fixes it, and the words that say it."""

    model_config = _CLOSED
    value: Annotated[StrictStr | StrictInt, AfterValidator(_decimal)]
    """The number, as a decimal string (« "0.27" ») or an integer; a rate is a fraction (0.27 = 27 %)."""
    unit: ParameterUnit
    """What it counts: it decides how the quote must write it (27 % for the rate 0.27, « deux ans » for 24 months)."""
    paragraph: Text
    """The « alinéa » / « paragraphe » that fixes it: « 1° a) »."""
    quote: Text
    """The verbatim words of text.txt that say the number (the loader checks both)."""
    notion: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")] | None = None
    """What the law means by the number, the same across versions that name it differently (« ev_cap » in 2017,
    « ev_cap_natural » in 2020: both « ev_cap.natural_person »); a dotted notion is a part of a notion the text
    split (« ev_cap.natural_person », « ev_cap.legal_person » of « ev_cap »). Default: the parameter's name."""


class TransitionalFile(BaseModel):
    """``[[transitional]]``: a « disposition transitoire » that keeps an earlier wording for some orders."""

    model_config = _CLOSED
    id: Text
    """The clause's id, cited in the answers."""
    keeps: KeepMode
    """What it keeps: inline branches, the previous version, or the more favourable of both."""
    order_test: OrderTest
    """How the « date de commande » is compared with order_limit (« avant le … » or « … inclus »)."""
    order_limit: Day
    """The order date of the clause."""
    decisive_on_or_before: Day
    """The last decisive date (« date de facturation » or « versement du premier loyer ») it covers."""
    deadline_basis: DeadlineBasis
    """Whether that deadline is written in the text (explicit) or computed from a period."""
    deadline_reading: Text
    """How the deadline was read from the words (stated in every answer)."""
    paragraph: Text
    """Where the clause is: « art. 3, 1° a), 2e alinéa »."""
    wording: Text
    """The verbatim words (in text.txt unless the clause has its own source)."""
    source: SourceFile | None = None
    """The clause's own source, when it is not in this version's text."""
    kept_version_id: Text | None = None
    """previous / more_favourable: the id of the version it keeps."""
    kept_version_label: StrictStr = ""
    """How the text names the kept wording (« dans sa rédaction antérieure »)."""
    new_vehicles_only: StrictBool = False
    """« qui n'ont pas fait l'objet précédemment d'une première immatriculation »."""
    branches: list[Text] = []
    """inline: the calculator branches it opens."""
    rules_date: Day | None = None
    """in_force_on: the date D of « bénéficient des dispositions relatives aux véhicules qui font l'objet d'une
    facturation au plus tard le D » — the version in force on D is kept, computed as of D. previous /
    more_favourable: the kept version named by a date instead of kept_version_id (« dans leur rédaction en vigueur
    au 31 décembre 2023 », « antérieure à la date d'entrée en vigueur »), computed for the purchase's own date."""
    category_deadlines: dict[VehicleCategory, Day] = {}
    """A deadline that depends on the vehicle's category (« a) Le 31 décembre 2023 si le véhicule appartient aux
    catégories M2, M3, N2 ou N3 … b) Le 30 juin 2023 dans les autres cas »): the last decisive date of each listed
    category; decisive_on_or_before is the deadline « dans les autres cas »."""
    yearly: StrictBool = False
    """A clause that repeats every year (« au plus tard le 31 décembre d'une année considérée … au plus tard le 31
    mars de l'année suivante »): order_limit and decisive_on_or_before are its first occurrence, and the version
    kept is the one in force on 31 December of « l'année considérée »."""


class VersionFile(BaseModel):
    """``versions/<id>/version.toml``: one wording of a text in force on [valid_from, valid_until)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, title="version.toml")
    id: Text
    """The version's id, also its folder's name: « D251-7.2020-06-01 »."""
    scheme: Scheme | None = None
    """The aid: « bonus écologique » or « prime à la conversion »; none for a text of both."""
    role: Role
    """What the text does: fixes the amounts, sets conditions, organises the management, or is transitional."""
    article: Text
    """Stable key of the « article »: « D251-7 », « decret-2014-1672-art3 »."""
    citation: Text
    """How an answer cites it: « C. énergie, art. D. 251-7 »."""
    title: Text
    """A title: « Montant du bonus écologique (rédaction du décret n° …) »."""
    valid_from: Day
    """First day in force (« entrée en vigueur »)."""
    valid_until: Day | None = None
    """First day no longer in force (exclusive); absent while open or unknown."""
    provenance: Provenance
    """How the text is known: official, seed or secondary."""
    period_confidence: Confidence
    """How sure the period is: confirmed | likely | guess."""
    calculator: Text | None = None
    """An amounts version's registered calculator; none for a text-only version."""
    relies_on: list[Text] = []
    """Ids of the other versions whose conditions the calculator applies."""
    notes: StrictStr = ""
    """Free notes: how the text and its period were established."""
    source: SourceFile
    """The source of this wording."""
    parameters: dict[str, ParameterFile] = {}
    """The text's numbers, by the name the calculator uses."""
    transitional: list[TransitionalFile] = []
    """The « dispositions transitoires »."""
    decisive_event: DecisiveEvent = DecisiveEvent.INVOICE_OR_FIRST_RENT
    """Which date picks this version, as its text words it: « date de facturation ou de versement du premier
    loyer » (default), « date de facturation » (a lease too), or « date d'acquisition ou de prise en location »
    (a purchase's invoice, a lease's signature = order_date)."""
    claim_deadline_months: Annotated[StrictInt, Field(gt=0)] | None = None
    """Management text: the « délai » to claim the aid, in months (« dans les six mois suivant … »)."""
    claim_deadline_paragraph: StrictStr = ""
    """Where the claim deadline is written."""
    claim_deadline_quote: Text | None = None
    """The verbatim words of the claim deadline (needed with claim_deadline_months)."""


# -- reading and publishing -------------------------------------------------------------------------------


def read_version_file(raw: dict[str, Any], where: str) -> VersionFile:
    """``raw`` (parsed TOML) as a :class:`VersionFile`; the first error as a CatalogueError naming its field."""
    try:
        return VersionFile.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise CatalogueError(where, field_path(error["loc"]), _message(error)) from None


def field_path(loc: tuple[int | str, ...]) -> str:
    """``("transitional", 0, "order_limit")`` → ``transitional[0].order_limit``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part).startswith(("function-", "constrained-")) and part not in ("str", "int"):
            out += f".{part}" if out else str(part)
    return out or "-"


def _message(error: Any) -> str:
    kind, value = error["type"], error.get("input")
    if kind == "extra_forbidden":
        allowed = _allowed(error["loc"][:-1])
        return f"unknown key (allowed: {', '.join(allowed)})" if allowed else "unknown key"
    if kind == "missing":
        return "required key is missing"
    if kind.startswith("date"):
        return f"{value!r} is not a TOML date (YYYY-MM-DD, unquoted)"
    if kind in ("enum", "literal_error"):
        return f"{value!r} is not one of {error['ctx']['expected']}"
    if kind in ("string_type", "string_too_short", "string_pattern_mismatch"):
        return "must be a non-empty string"
    if kind in ("model_type", "dict_type"):
        return "must be a table"
    if kind == "list_type":
        return "must be a list"
    if kind == "value_error":
        return str(error["ctx"]["error"])
    return f"{error['msg']} (got {value!r})"


def _allowed(loc: tuple[int | str, ...]) -> list[str]:
    """The keys allowed in the table at ``loc``."""
    model: type[BaseModel] = VersionFile
    if loc[:1] == ("parameters",) and len(loc) == 2:
        model = ParameterFile
    elif loc:
        names = [part for part in loc if isinstance(part, str)]
        model = SourceFile if names[-1] == "source" else TransitionalFile
    return sorted(model.model_fields)


def catalogue_schema() -> dict[str, Any]:
    """The JSON Schema of ``version.toml``."""
    return published(VersionFile.model_json_schema(), "version.schema.json")


def published(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": name, **schema}


def schema_text(schema: dict[str, Any]) -> str:
    """The text of a committed schema file (stable: sorted keys, two-space indent, final newline)."""
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


__all__ = [
    "ParameterFile",
    "SourceFile",
    "TransitionalFile",
    "VersionFile",
    "catalogue_schema",
    "field_path",
    "published",
    "read_version_file",
    "schema_text",
]
