"""Documents of a parameter's history (``GET /v1/parameters…``, `vigueur parameter`) and of the versions of every
article (``GET /v1/versions``, ``GET /v1/articles/{article}/versions``). Translate, never decide."""

from __future__ import annotations

from datetime import date
from typing import Any

from api.catalogue.documents import summary
from api.output import as_json
from legislation import Catalogue, Provenance, Role, Scheme, Version
from legislation.parameters import ParameterHistory, ParameterValue, notions


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


def parameters_document(catalogue: Catalogue, scheme: Scheme | None = None) -> dict[str, Any]:
    """Every notion on file: the names it has had, its schemes and units, where it is in force."""
    return {
        "parameters": [
            {
                "name": n.notion,
                "names": list(n.names),
                "schemes": [s.value if s is not None else None for s in n.schemes],
                "units": [u.value for u in n.units],
                "versions": n.versions,
                "valid_from": n.first_from.isoformat(),
                "valid_until": _iso(n.last_until),
                "href": f"/v1/parameters/{n.notion}",
            }
            for n in notions(catalogue, scheme)
        ]
    }


def history_document(history: ParameterHistory, scheme: Scheme | None) -> dict[str, Any]:
    """The value of one notion across every version on file, with the decree of each change."""
    return {
        "name": history.query,
        "notion": history.notion,
        "scheme": scheme.value if scheme is not None else None,
        "values": [_value(v) for v in history.values],
        "notes": list(history.notes),
    }


def _value(v: ParameterValue) -> dict[str, Any]:
    version = v.version
    return {
        "notion": v.notion,
        "parameter": v.name,
        "value": str(v.value),
        "unit": v.unit.value if v.unit is not None else None,
        "valid_from": v.valid_from.isoformat(),
        "valid_until": _iso(v.valid_until),
        "version_id": version.id,
        "scheme": version.scheme.value if version.scheme is not None else None,
        "citation": version.citation,
        "paragraph": v.paragraph,
        "quote": v.quote,
        "provenance": v.provenance.value,
        "changed": v.changed,
        "decree": version.source.decree,
        "decree_date": _iso(version.source.decree_date),
        "href": f"/v1/versions/{version.id}",
    }


def versions_document(
    catalogue: Catalogue,
    *,
    scheme: Scheme | None = None,
    article: str | None = None,
    role: Role | None = None,
    provenance: Provenance | None = None,
    on: date | None = None,
) -> dict[str, Any]:
    """Every version of every article (amounts, conditions, management, transitional), filtered, in date order."""
    chosen = [
        v
        for v in catalogue.versions.values()
        if (scheme is None or v.scheme is scheme)
        and (article is None or v.article == article)
        and (role is None or v.role is role)
        and (provenance is None or v.provenance is provenance)
        and (on is None or v.is_in_force(on))
    ]
    chosen.sort(key=lambda v: (v.article, v.valid_from))
    return {
        "filters": {
            "scheme": scheme.value if scheme else None,
            "article": article,
            "role": role.value if role else None,
            "provenance": provenance.value if provenance else None,
            "on": _iso(on),
        },
        "versions": [listed(v) for v in chosen],
    }


def listed(v: Version) -> dict[str, Any]:
    head = {"article": v.article, "scheme": v.scheme.value if v.scheme else None, "role": v.role.value}
    return head | as_json(summary(v))


def articles(catalogue: Catalogue) -> list[str]:
    return sorted({v.article for v in catalogue.versions.values()})
