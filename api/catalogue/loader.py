"""The strict loader of ``versions/``: one folder per version (``version.toml`` + ``text.txt``).

Every rule is checked and reported with the file and the field: unknown keys, missing keys, bad
types, overlapping periods, gaps that are not declared, a version without a source, an amounts
version without a calculator, a parameter or clause whose words are not in the text. Each version
gets a content hash of its text and metadata.
"""

from __future__ import annotations

import os
import stat
import tomllib
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from api.catalogue import DEFAULT_VERSIONS_DIR
from api.catalogue.schema import ParameterFile, SourceFile, TransitionalFile, VersionFile, read_version_file
from legislation.calculators import CALCULATORS
from legislation.enums import KeepMode, ParameterUnit, Role, Scheme
from legislation.errors import CatalogueError
from legislation.quotes import check_value_in_quote
from legislation.timeline import TIMELINE_ROLES, Catalogue, Gap
from legislation.versions import Parameter, Source, TransitionalClause, Version

MAX_TEXT_BYTES = 1_048_576  # a text.txt above 1 MiB is refused (the longest text on file is a few kB)
MAX_TOML_BYTES = 1_048_576
CATALOGUE_KEYS = {"gaps": False}
GAP_KEYS = {"scheme": True, "start": True, "end": True, "reason": True}


def load_catalogue(root: Path | None = None) -> Catalogue:
    """Load and validate the whole ``versions/`` tree."""
    root = root or DEFAULT_VERSIONS_DIR
    if not root.is_dir():
        raise CatalogueError(str(root), "-", "the versions folder does not exist")
    check_tree(root)
    versions = [load_version(folder) for folder in sorted(p for p in root.iterdir() if p.is_dir())]
    gaps = _load_gaps(root / "catalogue.toml")
    check_catalogue(versions, gaps, str(root))
    return Catalogue(versions, gaps)


def check_tree(root: Path) -> None:
    """Refuse a symbolic link or a non-regular file (fifo, device, socket) anywhere under ``root``.

    A link could publish any file of the machine as a text (``text.txt`` → ``/proc/self/environ``).
    """
    for entry in sorted(root.iterdir()):  # never follows a link: a link is refused before it is entered
        _check_entry(entry)
        if entry.is_dir():
            check_tree(entry)


def _check_entry(path: Path) -> None:
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        raise CatalogueError(
            str(path), "-", "a symbolic link is refused in the versions tree (copy the file into the folder)"
        )
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise CatalogueError(str(path), "-", "not a regular file (a fifo, socket or device is refused)")


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file that is not a symbolic link, refused above ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        _check_entry(path)  # a link or a special file: say so
        raise CatalogueError(str(path), "-", f"cannot be read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CatalogueError(str(path), "-", "not a regular file (a fifo, socket or device is refused)")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise CatalogueError(str(path), "-", f"larger than {limit} bytes: refused (a text is at most {limit} bytes)")
    return data


def load_version(folder: Path) -> Version:
    """Load one version folder; the folder's name is the version's id."""
    meta_path, text_path = folder / "version.toml", folder / "text.txt"
    where = str(meta_path)
    if not meta_path.is_file() and not meta_path.is_symlink():
        raise CatalogueError(where, "-", "missing version.toml")
    if not text_path.is_file() and not text_path.is_symlink():
        raise CatalogueError(str(text_path), "-", "missing text.txt (the verbatim text)")
    meta_bytes = read_regular(meta_path, MAX_TOML_BYTES)
    text_bytes = read_regular(text_path, MAX_TEXT_BYTES)
    try:
        raw = tomllib.loads(meta_bytes.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(where, "-", f"not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise CatalogueError(where, "-", "not UTF-8") from None
    try:
        text = text_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogueError(str(text_path), "-", "not UTF-8") from None
    model = read_version_file(raw, where)
    if model.id != folder.name:
        raise CatalogueError(where, "id", f"{model.id!r} differs from the folder name {folder.name!r}")
    version = _build_version(model, text, where)
    return with_hash(version, text_bytes)


def _build_version(raw: VersionFile, text: str, where: str) -> Version:
    role = raw.role
    calculator = raw.calculator
    parameters = {name: _parameter(name, spec, text, where) for name, spec in raw.parameters.items()}
    clauses = tuple(_clause(c, text, where, i) for i, c in enumerate(raw.transitional))
    valid_from, valid_until = raw.valid_from, raw.valid_until
    if valid_until is not None and valid_until <= valid_from:
        raise CatalogueError(where, "valid_until", f"{valid_until} is not after valid_from {valid_from}")
    _check_calculator(role, calculator, parameters, where)
    months = raw.claim_deadline_months
    if months is not None:
        quote = raw.claim_deadline_quote
        if quote is None:
            raise CatalogueError(where, "claim_deadline_quote", "must be a non-empty string")
        if quote not in text:
            raise CatalogueError(where, "claim_deadline_quote", f"{quote!r} is not in text.txt")
        if problem := check_value_in_quote(Decimal(months), ParameterUnit.MONTH, quote):
            raise CatalogueError(where, "claim_deadline_months", problem)
    scheme = raw.scheme
    if role in (Role.AMOUNTS, Role.ENDED) and scheme is None:
        raise CatalogueError(where, "scheme", f"an {role.value} version belongs to one scheme")
    if role is Role.ENDED and valid_until is not None:
        raise CatalogueError(where, "valid_until", "the text that ends an aid stays in force: no valid_until")
    for i, clause in enumerate(clauses):
        if role is Role.ENDED and clause.keeps in (KeepMode.INLINE, KeepMode.MORE_FAVOURABLE):
            raise CatalogueError(
                where,
                f"transitional[{i}].keeps",
                "a clause of the text that ends an aid keeps an earlier wording outright (previous or in_force_on): "
                "compared with no aid at all, « lorsqu'elles sont plus avantageuses » always keeps it (state that "
                "reading in deadline_reading)",
            )
    return Version(
        id=raw.id,
        scheme=scheme,
        role=role,
        article=raw.article,
        citation=raw.citation,
        title=raw.title,
        valid_from=valid_from,
        valid_until=valid_until,
        text=text,
        source=_source(raw.source),
        provenance=raw.provenance,
        period_confidence=raw.period_confidence,
        calculator=calculator,
        parameters=parameters,
        transitional=clauses,
        relies_on=tuple(raw.relies_on),
        notes=raw.notes,
        claim_deadline_months=months,
        claim_deadline_paragraph=raw.claim_deadline_paragraph,
        decisive_event=raw.decisive_event,
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
    # The parameters a calculator reads are declared once, in version.toml: a number the calculator asks for
    # and the version lacks is a CatalogueError naming both (kit.Numbers); tests/property/test_parameters.py
    # proves on the case corpus that every parameter of every version is read and none is missing.


def _parameter(name: str, spec: ParameterFile, text: str, where: str) -> Parameter:
    field = f"parameters.{name}"
    value = Decimal(str(spec.value))
    if spec.quote not in text:
        raise CatalogueError(where, f"{field}.quote", f"{spec.quote!r} is not in text.txt")
    if problem := check_value_in_quote(value, spec.unit, spec.quote):
        raise CatalogueError(where, f"{field}.value", f"parameter {name}: {problem}")
    return Parameter(
        name=name, value=value, paragraph=spec.paragraph, quote=spec.quote, unit=spec.unit, notion=spec.notion
    )


def _clause(raw: TransitionalFile, text: str, where: str, index: int) -> TransitionalClause:
    field = f"transitional[{index}]"
    source = _source(raw.source) if raw.source is not None else None
    if source is None and raw.wording not in text:
        raise CatalogueError(
            where, f"{field}.wording", "not in text.txt (give the clause's own source if it is elsewhere)"
        )
    if raw.keeps is KeepMode.INLINE and not raw.branches:
        raise CatalogueError(where, f"{field}.branches", "an inline clause names the calculator branches it opens")
    if raw.keeps is KeepMode.IN_FORCE_ON and (raw.rules_date is None) == (not raw.yearly):
        raise CatalogueError(
            where, f"{field}.rules_date", "an in_force_on clause gives either rules_date or yearly = true"
        )
    if raw.category_deadlines and raw.yearly:
        raise CatalogueError(where, f"{field}.category_deadlines", "a yearly clause has one deadline a year")
    if raw.keeps is not KeepMode.IN_FORCE_ON and raw.yearly:
        raise CatalogueError(where, f"{field}.keeps", "yearly belongs to an in_force_on clause")
    if raw.keeps is KeepMode.INLINE and raw.rules_date is not None:
        raise CatalogueError(where, f"{field}.rules_date", "an inline clause keeps no other version")
    if raw.keeps in (KeepMode.PREVIOUS, KeepMode.MORE_FAVOURABLE) and (
        raw.rules_date is not None and raw.kept_version_id is not None
    ):
        raise CatalogueError(
            where,
            f"{field}.kept_version_id",
            "a previous / more_favourable clause names the version it keeps by kept_version_id or by rules_date "
            "(« dans leur rédaction en vigueur au … »: the version in force on that date), not both",
        )
    return TransitionalClause(
        id=raw.id,
        keeps=raw.keeps,
        order_test=raw.order_test,
        order_limit=raw.order_limit,
        decisive_on_or_before=raw.decisive_on_or_before,
        deadline_basis=raw.deadline_basis,
        deadline_reading=raw.deadline_reading,
        paragraph=raw.paragraph,
        wording=raw.wording,
        source=source,
        kept_version_id=raw.kept_version_id,
        kept_version_label=raw.kept_version_label,
        new_vehicles_only=raw.new_vehicles_only,
        branches=tuple(raw.branches),
        rules_date=raw.rules_date,
        yearly=raw.yearly,
        category_deadlines=tuple(sorted(raw.category_deadlines.items(), key=lambda item: item[0].value)),
    )


def _source(raw: SourceFile) -> Source:
    return Source(
        decree=raw.decree,
        decree_date=raw.decree_date,
        jorf=raw.jorf,
        jorf_date=raw.jorf_date,
        nor=raw.nor,
        eli=raw.eli,
        url=raw.url,
        legiarti=raw.legiarti,
        jorftext=raw.jorftext,
        confidence=raw.confidence,
        notes=raw.notes,
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
    for scheme in Scheme:  # the amounts versions and the text that ends the aid tile one timeline
        by_article[f"amounts of {scheme.value}"] = [
            v for v in versions if v.scheme is scheme and v.role in TIMELINE_ROLES
        ]
    for group, members in by_article.items():
        _check_no_overlap(sorted(members, key=lambda v: v.valid_from), group, where)
    _check_same_numbers_per_calculator(versions, where)
    for scheme in Scheme:
        amounts = sorted(
            (v for v in versions if v.scheme is scheme and v.role in TIMELINE_ROLES), key=lambda v: v.valid_from
        )
        _check_gaps_declared(scheme, amounts, [g for g in gaps if g.scheme is scheme], where)


def _check_same_numbers_per_calculator(versions: list[Version], where: str) -> None:
    """Versions computed by the same calculator give the same parameters (only their values and words differ).

    Parameters are declared once, in version.toml; a calculator does not list them. A version that lacks a
    number its calculator reads is refused here when another version of the same calculator gives it, and
    otherwise named by a CatalogueError when a calculation reaches it (tests/property/test_parameters.py proves
    on the case corpus that the versions on file lack none).
    """
    by_calculator: dict[str, list[Version]] = {}
    for v in versions:
        if v.calculator is not None:
            by_calculator.setdefault(v.calculator, []).append(v)
    for key, members in by_calculator.items():
        # A calculator may declare families of parameters whose length varies between versions (the bands of a
        # barème table, décret 2007-1873 art. 3): ``VARIABLE_PARAMETERS``, a pattern; they are not compared.
        variable = getattr(CALCULATORS[key], "VARIABLE_PARAMETERS", None)
        names = {n for n in set().union(*(v.parameters for v in members)) if not (variable and variable.match(n))}
        for v in members:
            if missing := sorted(names - v.parameters.keys()):
                others = ", ".join(m.id for m in members if missing[0] in m.parameters)
                raise CatalogueError(
                    f"{where}/{v.id}/version.toml",
                    f"parameters.{missing[0]}",
                    f"calculator {key} reads it ({others} gives it); missing: {missing}",
                )


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
    from dataclasses import replace

    from api.catalogue.hashing import version_hash  # canonical JSON (RFC 8785) over documented fields

    return replace(version, content_hash=version_hash(version, text_bytes))


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


def _list(raw: dict[str, Any], key: str, where: str, prefix: str = "") -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise CatalogueError(where, prefix + key, "must be a list")
    return value
