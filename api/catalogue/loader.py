"""The strict loader of ``versions/``: one folder per version (``version.toml`` + ``text.txt``).

Every rule is checked and reported with the file and the field: unknown keys, missing keys, bad
types, overlapping periods, gaps that are not declared, a version without a source, an amounts
version without a calculator, a parameter or clause whose words are not in the text. Each version
gets a content hash of its text and metadata.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, fields, is_dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path
from typing import Any

from legislation.calculators import CALCULATORS
from legislation.enums import DeadlineBasis, KeepMode, OrderTest, Provenance, Role, Scheme
from legislation.errors import CatalogueError
from legislation.timeline import Catalogue, Gap
from legislation.versions import Parameter, Source, TransitionalClause, Version

DEFAULT_VERSIONS_DIR = Path(__file__).resolve().parents[2] / "versions"

VERSION_KEYS = {
    "id": True,
    "scheme": False,
    "role": True,
    "article": True,
    "citation": True,
    "title": True,
    "valid_from": True,
    "valid_until": False,
    "provenance": True,
    "period_confidence": True,
    "calculator": False,
    "relies_on": False,
    "notes": False,
    "source": True,
    "parameters": False,
    "transitional": False,
    "claim_deadline_months": False,
    "claim_deadline_paragraph": False,
    "claim_deadline_quote": False,
}
SOURCE_KEYS = {
    "decree": True,
    "decree_date": False,
    "jorf": False,
    "jorf_date": False,
    "nor": False,
    "eli": False,
    "url": False,
    "legiarti": False,
    "jorftext": False,
    "confidence": True,
    "notes": False,
}
PARAMETER_KEYS = {"value": True, "paragraph": True, "quote": True}
CLAUSE_KEYS = {
    "id": True,
    "keeps": True,
    "order_test": True,
    "order_limit": True,
    "decisive_on_or_before": True,
    "deadline_basis": True,
    "deadline_reading": True,
    "paragraph": True,
    "wording": True,
    "source": False,
    "kept_version_id": False,
    "kept_version_label": False,
    "new_vehicles_only": False,
    "branches": False,
}
CATALOGUE_KEYS = {"gaps": False}
GAP_KEYS = {"scheme": True, "start": True, "end": True, "reason": True}
CONFIDENCE = {"confirmed", "likely", "guess"}


def load_catalogue(root: Path | None = None) -> Catalogue:
    """Load and validate the whole ``versions/`` tree."""
    root = root or DEFAULT_VERSIONS_DIR
    if not root.is_dir():
        raise CatalogueError(str(root), "-", "the versions folder does not exist")
    versions = [load_version(folder) for folder in sorted(p for p in root.iterdir() if p.is_dir())]
    gaps = _load_gaps(root / "catalogue.toml")
    check_catalogue(versions, gaps, str(root))
    return Catalogue(versions, gaps)


def load_version(folder: Path) -> Version:
    """Load one version folder; the folder's name is the version's id."""
    meta_path, text_path = folder / "version.toml", folder / "text.txt"
    where = str(meta_path)
    if not meta_path.is_file():
        raise CatalogueError(where, "-", "missing version.toml")
    if not text_path.is_file():
        raise CatalogueError(str(text_path), "-", "missing text.txt (the verbatim text)")
    try:
        raw = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(where, "-", f"not valid TOML: {exc}") from None
    text = text_path.read_bytes().decode("utf-8")
    _check_keys(raw, VERSION_KEYS, where, "")
    if raw["id"] != folder.name:
        raise CatalogueError(where, "id", f"{raw['id']!r} differs from the folder name {folder.name!r}")
    version = _build_version(raw, text, where)
    return with_hash(version, text_path.read_bytes())


def _build_version(raw: dict[str, Any], text: str, where: str) -> Version:
    role = _enum(Role, raw["role"], where, "role")
    calculator = _opt_str(raw, "calculator", where)
    parameters = {name: _parameter(name, spec, text, where) for name, spec in _table(raw, "parameters", where).items()}
    clauses = tuple(_clause(c, text, where, i) for i, c in enumerate(_list(raw, "transitional", where)))
    valid_from = _date(raw["valid_from"], where, "valid_from")
    valid_until = _date(raw["valid_until"], where, "valid_until") if "valid_until" in raw else None
    if valid_until is not None and valid_until <= valid_from:
        raise CatalogueError(where, "valid_until", f"{valid_until} is not after valid_from {valid_from}")
    _check_calculator(role, calculator, parameters, where)
    months = raw.get("claim_deadline_months")
    if months is not None:
        quote = _str(raw, "claim_deadline_quote", where)
        if quote not in text:
            raise CatalogueError(where, "claim_deadline_quote", f"{quote!r} is not in text.txt")
    scheme = _enum(Scheme, raw["scheme"], where, "scheme") if "scheme" in raw else None
    if role is Role.AMOUNTS and scheme is None:
        raise CatalogueError(where, "scheme", "an amounts version belongs to one scheme")
    return Version(
        id=raw["id"],
        scheme=scheme,
        role=role,
        article=_str(raw, "article", where),
        citation=_str(raw, "citation", where),
        title=_str(raw, "title", where),
        valid_from=valid_from,
        valid_until=valid_until,
        text=text,
        source=_source(raw["source"], where, "source"),
        provenance=_enum(Provenance, raw["provenance"], where, "provenance"),
        period_confidence=_confidence(raw["period_confidence"], where, "period_confidence"),
        calculator=calculator,
        parameters=parameters,
        transitional=clauses,
        relies_on=tuple(_list(raw, "relies_on", where)),
        notes=raw.get("notes", ""),
        claim_deadline_months=months,
        claim_deadline_paragraph=raw.get("claim_deadline_paragraph", ""),
    )


def _check_calculator(role: Role, key: str | None, parameters: dict[str, Parameter], where: str) -> None:
    if role is not Role.AMOUNTS:
        if key is not None:
            raise CatalogueError(where, "calculator", f"a {role.value} text is text-only and has no calculator")
        return
    if key is None:
        raise CatalogueError(where, "calculator", "an amounts version needs a calculator")
    if key not in CALCULATORS:
        raise CatalogueError(where, "calculator", f"no calculator registered under {key!r}")
    needed = set(CALCULATORS[key].PARAMETERS)
    if missing := sorted(needed - parameters.keys()):
        raise CatalogueError(where, f"parameters.{missing[0]}", f"calculator {key} needs it (missing: {missing})")
    if extra := sorted(parameters.keys() - needed):
        raise CatalogueError(where, f"parameters.{extra[0]}", f"calculator {key} does not use it")


def _parameter(name: str, spec: Any, text: str, where: str) -> Parameter:
    field = f"parameters.{name}"
    if not isinstance(spec, dict):
        raise CatalogueError(where, field, "must be a table {value, paragraph, quote}")
    _check_keys(spec, PARAMETER_KEYS, where, field + ".")
    try:
        value = Decimal(str(spec["value"])) if isinstance(spec["value"], str | int) else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        raise CatalogueError(where, f"{field}.value", f"{spec['value']!r} is not a decimal written as a string or int")
    quote = _str(spec, "quote", where, field + ".")
    if quote not in text:
        raise CatalogueError(where, f"{field}.quote", f"{quote!r} is not in text.txt")
    return Parameter(name=name, value=value, paragraph=_str(spec, "paragraph", where, field + "."), quote=quote)


def _clause(raw: Any, text: str, where: str, index: int) -> TransitionalClause:
    field = f"transitional[{index}]"
    if not isinstance(raw, dict):
        raise CatalogueError(where, field, "must be a table")
    _check_keys(raw, CLAUSE_KEYS, where, field + ".")
    source = _source(raw["source"], where, f"{field}.source") if "source" in raw else None
    wording = _str(raw, "wording", where, field + ".")
    if source is None and wording not in text:
        raise CatalogueError(
            where, f"{field}.wording", "not in text.txt (give the clause's own source if it is elsewhere)"
        )
    keeps = _enum(KeepMode, raw["keeps"], where, f"{field}.keeps")
    branches = tuple(_list(raw, "branches", where, field + "."))
    if keeps is KeepMode.INLINE and not branches:
        raise CatalogueError(where, f"{field}.branches", "an inline clause names the calculator branches it opens")
    return TransitionalClause(
        id=_str(raw, "id", where, field + "."),
        keeps=keeps,
        order_test=_enum(OrderTest, raw["order_test"], where, f"{field}.order_test"),
        order_limit=_date(raw["order_limit"], where, f"{field}.order_limit"),
        decisive_on_or_before=_date(raw["decisive_on_or_before"], where, f"{field}.decisive_on_or_before"),
        deadline_basis=_enum(DeadlineBasis, raw["deadline_basis"], where, f"{field}.deadline_basis"),
        deadline_reading=_str(raw, "deadline_reading", where, field + "."),
        paragraph=_str(raw, "paragraph", where, field + "."),
        wording=wording,
        source=source,
        kept_version_id=raw.get("kept_version_id"),
        kept_version_label=raw.get("kept_version_label", ""),
        new_vehicles_only=bool(raw.get("new_vehicles_only", False)),
        branches=branches,
    )


def _source(raw: Any, where: str, field: str) -> Source:
    if not isinstance(raw, dict):
        raise CatalogueError(where, field, "must be a table")
    _check_keys(raw, SOURCE_KEYS, where, field + ".")
    if not str(raw["decree"]).strip():
        raise CatalogueError(where, f"{field}.decree", "a version needs its source decree")
    dates = {k: _date(raw[k], where, f"{field}.{k}") for k in ("decree_date", "jorf_date") if k in raw}
    strings = {
        k: _str(raw, k, where, field + ".") for k in ("jorf", "nor", "eli", "url", "legiarti", "jorftext") if k in raw
    }
    return Source(
        decree=raw["decree"],
        confidence=_confidence(raw["confidence"], where, f"{field}.confidence"),
        notes=raw.get("notes", ""),
        **dates,
        **strings,
    )


def _load_gaps(path: Path) -> list[Gap]:
    if not path.is_file():
        return []
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(where, "-", f"not valid TOML: {exc}") from None
    _check_keys(raw, CATALOGUE_KEYS, where, "")
    gaps = []
    for i, g in enumerate(_list(raw, "gaps", where)):
        field = f"gaps[{i}]"
        _check_keys(g, GAP_KEYS, where, field + ".")
        gaps.append(
            Gap(
                scheme=_enum(Scheme, g["scheme"], where, f"{field}.scheme"),
                start=_date(g["start"], where, f"{field}.start"),
                end=_date(g["end"], where, f"{field}.end"),
                reason=_str(g, "reason", where, field + "."),
            )
        )
    return gaps


def check_catalogue(versions: list[Version], gaps: list[Gap], where: str) -> None:
    """Rules across versions: unique ids, no overlap per text or per scheme, gaps declared, links exist."""
    ids = {v.id for v in versions}
    for v in versions:
        for ref in v.relies_on:
            if ref not in ids:
                raise CatalogueError(f"{where}/{v.id}/version.toml", "relies_on", f"no version {ref!r}")
        for c in v.transitional:
            if c.kept_version_id is not None and c.kept_version_id not in ids:
                raise CatalogueError(
                    f"{where}/{v.id}/version.toml",
                    f"transitional.{c.id}.kept_version_id",
                    f"no version {c.kept_version_id!r}",
                )
    by_article: dict[str, list[Version]] = {}
    for v in versions:
        by_article.setdefault(v.article, []).append(v)
    for scheme in Scheme:
        by_article[f"amounts of {scheme.value}"] = [
            v for v in versions if v.scheme is scheme and v.role is Role.AMOUNTS
        ]
    for group, members in by_article.items():
        _check_no_overlap(sorted(members, key=lambda v: v.valid_from), group, where)
    for scheme in Scheme:
        amounts = sorted(
            (v for v in versions if v.scheme is scheme and v.role is Role.AMOUNTS), key=lambda v: v.valid_from
        )
        _check_gaps_declared(scheme, amounts, [g for g in gaps if g.scheme is scheme], where)


def _check_no_overlap(members: list[Version], group: str, where: str) -> None:
    for a, b in zip(members, members[1:], strict=False):
        if a.valid_until is None or a.valid_until > b.valid_from:
            raise CatalogueError(
                f"{where}/{b.id}/version.toml",
                "valid_from",
                f"{b.id} [{b.valid_from}, …) overlaps {a.id} [{a.valid_from}, {a.valid_until or '…'}) ({group})",
            )


def _check_gaps_declared(scheme: Scheme, amounts: list[Version], gaps: list[Gap], where: str) -> None:
    for g in gaps:
        inside = [v.id for v in amounts if v.valid_from < g.end and (v.valid_until is None or v.valid_until > g.start)]
        if inside:
            raise CatalogueError(
                f"{where}/catalogue.toml",
                "gaps",
                f"declared gap {g.start}–{g.end} of {scheme.value} overlaps {inside[0]}",
            )
    for a, b in zip(amounts, amounts[1:], strict=False):
        if a.valid_until is None or a.valid_until >= b.valid_from:
            continue
        covered = a.valid_until
        for g in sorted(gaps, key=lambda g: g.start):
            if g.start <= covered < g.end:
                covered = g.end
        if covered < b.valid_from:
            raise CatalogueError(
                f"{where}/catalogue.toml",
                "gaps",
                f"undeclared gap in {scheme.value} from {covered} to {b.valid_from} "
                f"(between {a.id} and {b.id}); declare it with its reason",
            )


def with_hash(version: Version, text_bytes: bytes) -> Version:
    meta = {f.name: getattr(version, f.name) for f in fields(version) if f.name not in ("text", "content_hash")}
    digest = hashlib.sha256(text_bytes + b"\0" + json.dumps(meta, sort_keys=True, default=_json).encode()).hexdigest()
    from dataclasses import replace

    return replace(version, content_hash=f"sha256:{digest}")


def _json(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(type(value))


# -- small strict readers ------------------------------------------------------------------------


def _check_keys(raw: dict[str, Any], spec: dict[str, bool], where: str, prefix: str) -> None:
    for key in raw:
        if key not in spec:
            raise CatalogueError(where, prefix + key, f"unknown key (allowed: {', '.join(sorted(spec))})")
    for key, required in spec.items():
        if required and key not in raw:
            raise CatalogueError(where, prefix + key, "required key is missing")


def _str(raw: dict[str, Any], key: str, where: str, prefix: str = "") -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogueError(where, prefix + key, "must be a non-empty string")
    return value


def _opt_str(raw: dict[str, Any], key: str, where: str) -> str | None:
    return _str(raw, key, where) if key in raw else None


def _date(value: Any, where: str, field: str) -> date:
    if isinstance(value, date) and not hasattr(value, "hour"):
        return value
    raise CatalogueError(where, field, f"{value!r} is not a TOML date (YYYY-MM-DD, unquoted)")


def _enum(kind: type[Any], value: Any, where: str, field: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise CatalogueError(where, field, f"{value!r} is not one of {allowed}") from None


def _confidence(value: Any, where: str, field: str) -> str:
    if value not in CONFIDENCE:
        raise CatalogueError(where, field, f"{value!r} is not one of {', '.join(sorted(CONFIDENCE))}")
    return str(value)


def _table(raw: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise CatalogueError(where, key, "must be a table")
    return value


def _list(raw: dict[str, Any], key: str, where: str, prefix: str = "") -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise CatalogueError(where, prefix + key, "must be a list")
    return value
