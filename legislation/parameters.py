"""A parameter's history: its value in every version on file, grouped by what the law means by it.

A parameter is named per version (« ev_cap » in 2017, « ev_cap_natural » in 2020); its **notion** (``notion`` in
version.toml, default: its name) is the same wherever the law means the same number. A dotted notion is a part
of a notion the texts split (« ev_cap.natural_person » and « ev_cap.legal_person » of « ev_cap »): the history
of a part includes the whole it continues, the history of a whole includes its parts, and the answer says
where the texts split or merge it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from legislation.enums import ParameterUnit, Provenance, Scheme
from legislation.timeline import Catalogue
from legislation.versions import Parameter, Version


@dataclass(frozen=True, slots=True, kw_only=True)
class ParameterValue:
    """One parameter of one version: its value over the version's ``[valid_from, valid_until)``."""

    notion: str
    name: str
    value: Decimal
    unit: ParameterUnit
    valid_from: date
    valid_until: date | None
    version: Version
    paragraph: str
    quote: str
    changed: bool  # the value differs from the previous value of the same notion (False for the first)

    @property
    def provenance(self) -> Provenance:
        return self.version.provenance


@dataclass(frozen=True, slots=True, kw_only=True)
class ParameterHistory:
    """The values of a notion across every version on file, oldest first, and what the texts did to it."""

    query: str
    notion: str
    values: tuple[ParameterValue, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class NotionSummary:
    """One notion of the catalogue: the names it has had, where, and in how many versions."""

    notion: str
    names: tuple[str, ...]
    schemes: tuple[Scheme | None, ...]
    units: tuple[ParameterUnit, ...]
    versions: int
    first_from: date
    last_until: date | None


def _parameters(catalogue: Catalogue, scheme: Scheme | None) -> list[tuple[Version, Parameter]]:
    found = [
        (v, p)
        for v in catalogue.versions.values()
        if scheme is None or v.scheme in (scheme, None)
        for p in v.parameters.values()
    ]
    return sorted(found, key=lambda vp: (vp[0].valid_from, vp[0].id, vp[1].notion_key, vp[1].name))


def related(query: str, key: str) -> bool:
    """The notion ``key`` belongs to the history of ``query``: the same, a part of it, or the whole it continues."""
    return key == query or key.startswith(query + ".") or query.startswith(key + ".")


def parameter_history(catalogue: Catalogue, name: str, scheme: Scheme | None = None) -> ParameterHistory | None:
    """The history of a notion, or of the notion of a parameter named ``name``; None when nothing matches."""
    found = _parameters(catalogue, scheme)
    keys = {p.notion_key for _, p in found}
    notion = name if name in keys else next((p.notion_key for _, p in found if p.name == name), None)
    if notion is None:
        return None
    chosen = [(v, p) for v, p in found if related(notion, p.notion_key)]
    values: list[ParameterValue] = []
    last: dict[str, Decimal] = {}
    for version, parameter in chosen:
        key = parameter.notion_key
        previous = last.get(key, _whole_value(key, last))
        values.append(
            ParameterValue(
                notion=key,
                name=parameter.name,
                value=parameter.value,
                unit=parameter.unit,
                valid_from=version.valid_from,
                valid_until=version.valid_until,
                version=version,
                paragraph=parameter.paragraph,
                quote=parameter.quote,
                changed=previous is not None and previous != parameter.value,
            )
        )
        last[key] = parameter.value
    return ParameterHistory(query=name, notion=notion, values=tuple(values), notes=tuple(_splits(values, notion)))


def _whole_value(key: str, last: dict[str, Decimal]) -> Decimal | None:
    """The last value of the whole a part continues (« ev_cap » for « ev_cap.natural_person »)."""
    while "." in key:
        key = key.rsplit(".", 1)[0]
        if key in last:
            return last[key]
    return None


def _splits(values: Iterable[ParameterValue], notion: str) -> list[str]:
    """« split » where a version gives parts of a notion the previous version of its article gave whole, and
    « merged » the other way round."""
    by_article: dict[str, list[tuple[Version, set[str], list[ParameterValue]]]] = {}
    for value in values:
        rows = by_article.setdefault(value.version.article, [])
        if not rows or rows[-1][0] is not value.version:
            rows.append((value.version, set(), []))
        rows[-1][1].add(value.notion)
        rows[-1][2].append(value)
    notes: list[str] = []
    for rows in by_article.values():
        for (_, before, _), (version, after, parts) in zip(rows, rows[1:], strict=False):
            split = sorted(k for k in after if any(k.startswith(b + ".") for b in before))
            merged = sorted(k for k in after if any(b.startswith(k + ".") for b in before))
            when = f"from {version.valid_from} ({version.id}, {version.source.decree})"
            if split:
                names = ", ".join(f"{v.notion} = {v.name}" for v in parts if v.notion in split)
                whole = sorted(b for b in before if any(k.startswith(b + ".") for k in split))
                notes.append(f"{when} the text splits {', '.join(whole)} into {names}")
            if merged:
                parts_before = sorted(b for b in before if any(b.startswith(k + ".") for k in merged))
                notes.append(f"{when} the text merges {', '.join(parts_before)} into {', '.join(merged)}")
    if "." in notion:
        notes.append(
            f"{notion} is a part of {notion.rsplit('.', 1)[0]}: where a text does not split it, the whole's value "
            "is given (it applies to this part too)"
        )
    return notes


def notions(catalogue: Catalogue, scheme: Scheme | None = None) -> list[NotionSummary]:
    """Every notion on file, by name."""
    groups: dict[str, list[tuple[Version, Parameter]]] = {}
    for version, parameter in _parameters(catalogue, scheme):
        groups.setdefault(parameter.notion_key, []).append((version, parameter))
    summaries = []
    for key, items in sorted(groups.items()):
        ends = [v.valid_until for v, _ in items]
        summaries.append(
            NotionSummary(
                notion=key,
                names=tuple(dict.fromkeys(p.name for _, p in items)),
                schemes=tuple(dict.fromkeys(v.scheme for v, _ in items)),
                units=tuple(dict.fromkeys(p.unit for _, p in items)),
                versions=len({v.id for v, _ in items}),
                first_from=min(v.valid_from for v, _ in items),
                last_until=None if None in ends else max(e for e in ends if e is not None),
            )
        )
    return summaries


__all__ = ["NotionSummary", "ParameterHistory", "ParameterValue", "notions", "parameter_history", "related"]
