"""Regression cases: the strict parser of case files and the runner that checks them against the catalogue.

A case file is YAML (``tests/regression/*.yaml``)::

    cases:
      - id: bonus-2020-ev-cap-natural          # unique across every file run together
        title: Electric car, 30 000 €, natural person: the 7 000 € cap binds
        source: {paragraph: "C. énergie, art. D. 251-7, 1°", url: "https://…"}   # url optional
        request: {…}                            # the request of `vigueur calculate` / POST /v1/calculate
        expected:
          bonus: {amount: "7000.00", eligible: true, version_id: D251-7.2020-06-01, status: computed}
        tolerance: "0"                          # optional, euros, default 0
        notes: |                                # the arithmetic, from the text
          27 % × 30 000 = 8 100 > 7 000 → 7 000.

Each scheme under ``expected`` needs the three keys ``amount``, ``eligible``, ``version_id`` (``null`` where
the answer has none, e.g. no version on file) and may add ``status`` (checked only when given), ``kept_by``
(the transitional clause whose kept version gave the amount) and ``missing_facts``. The schemes listed must
be exactly the schemes the request computes. Anything else is an error naming the file, the case and the field.

Why YAML: a case is reviewed legal material. YAML keeps the multi-line arithmetic of ``notes`` readable,
allows comments next to a fact, and reads as the request JSON does (JSON is a subset of YAML's flow style).
Decimals written unquoted (``6300.00``) are read as exact decimals, never as binary floats.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from api.purchase.render import calculate_document
from api.purchase.request import CalculationRequest, RequestError, parse_request
from legislation import Catalogue, Scheme
from legislation.errors import VigueurError

CASE_KEYS = {
    "id": True,
    "title": True,
    "source": True,
    "request": True,
    "expected": True,
    "tolerance": False,
    "notes": True,
}
SOURCE_KEYS = {"paragraph": True, "url": False}
EXPECTED_KEYS = {
    "amount": True,
    "eligible": True,
    "version_id": True,
    "status": False,
    "kept_by": False,
    "missing_facts": False,
}
STATUSES = (
    "computed", "missing_facts", "no_version_on_file", "kept_version_not_on_file", "not_covered_on_file", "ended"
)
FILE_SUFFIXES = (".yaml", ".yml", ".json")  # JSON is YAML: {"cases": [...]} reads the same
NO_VERSION = "(no version on file)"


class CaseFileError(Exception):
    """A case file that does not follow the format: names the file, the case and the field."""

    def __init__(self, file: str, case_id: str | None, field: str, message: str) -> None:
        where = f"{file}" + (f", case {case_id}" if case_id else "") + (f", field {field}" if field else "")
        super().__init__(f"{where}: {message}")
        self.file = file
        self.case_id = case_id
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class Expected:
    """What one scheme of a case must give."""

    amount: Decimal | None
    eligible: bool | None
    version_id: str | None
    status: str | None = None  # None: the case does not say, the status is not checked
    kept_by: str | None = None
    missing_facts: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One historical or boundary case: a request and what each scheme must give."""

    id: str
    title: str
    paragraph: str
    url: str | None
    request: CalculationRequest
    request_json: str
    expected: dict[Scheme, Expected]
    tolerance: Decimal
    notes: str
    file: str
    line: int

    @property
    def versions(self) -> tuple[str, ...]:
        """The versions this case exercises (one per expected scheme), for per-version summaries."""
        return tuple(dict.fromkeys(e.version_id or NO_VERSION for e in self.expected.values()))


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    """One field of one scheme compared: expected against what the catalogue gave."""

    scheme: str
    field: str
    expected: Any
    got: Any
    ok: bool


@dataclass(slots=True, kw_only=True)
class CaseResult:
    """The outcome of one case: ``passed``, ``failed`` (a check differs) or ``error`` (it could not run)."""

    case: Case
    outcome: str
    checks: list[Check] = field(default_factory=list)
    error: str | None = None
    document: dict[str, Any] | None = None
    seconds: float = 0.0

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


# -- reading -----------------------------------------------------------------------------------------------


class CaseLoader(yaml.SafeLoader):
    """YAML's safe loader, with exact decimals for numbers with a fraction and no duplicate keys."""


def _decimal(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Decimal:
    text = str(loader.construct_scalar(node)).replace("_", "")
    try:
        value = Decimal(text)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite():
        raise yaml.constructor.ConstructorError(None, None, f"{text!r} is not a finite number", node.start_mark)
    return value


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return dict(loader.construct_pairs(node, deep=True))


CaseLoader.add_constructor("tag:yaml.org,2002:float", _decimal)
CaseLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The case files named, folders searched recursively for ``*.yaml`` / ``*.yml``, in a stable order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix in FILE_SUFFIXES and not p.name.endswith(".schema.json")
                )
            )  # ``cases.schema.json`` is the JSON Schema of the files, not a case file
        elif path.is_file():
            found.append(path)
        else:
            raise CaseFileError(str(path), None, "", "no such file or folder")
    return list(dict.fromkeys(found))


def load_cases(paths: Iterable[str | Path]) -> list[Case]:
    """Every case of the files and folders given; case ids must be unique across them."""
    cases: list[Case] = []
    where: dict[str, str] = {}
    for path in case_files(paths):
        for case in load_case_file(path):
            if case.id in where:
                raise CaseFileError(case.file, case.id, "id", f"duplicate case id (also in {where[case.id]})")
            where[case.id] = f"{case.file}:{case.line}"
            cases.append(case)
    return cases


def load_case_file(path: str | Path) -> list[Case]:
    """Parse one case file strictly."""
    file = str(path)
    try:
        loader = CaseLoader(Path(path).read_text(encoding="utf-8"))
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CaseFileError(file, None, "", f"not valid YAML: {exc}") from None
    if not isinstance(data, dict) or set(data) != {"cases"}:
        raise CaseFileError(file, None, "", "a case file is a mapping with the single key `cases` (a list)")
    if not isinstance(data["cases"], list) or not data["cases"]:
        raise CaseFileError(file, None, "cases", "must be a non-empty list of cases")
    assert root is not None
    items = next(v for k, v in root.value if k.value == "cases").value
    return [
        parse_case(raw, file, node.start_mark.line + 1, i)
        for i, (raw, node) in enumerate(zip(data["cases"], items, strict=True))
    ]


def parse_case(raw: Any, file: str, line: int, index: int) -> Case:
    if not isinstance(raw, dict):
        raise CaseFileError(file, f"#{index + 1} (line {line})", "", "a case must be a mapping")
    case_id = raw.get("id")
    if not isinstance(case_id, str) or not case_id.strip():
        raise CaseFileError(file, f"#{index + 1} (line {line})", "id", "required, a non-empty string")
    _keys(raw, CASE_KEYS, file, case_id, "")
    for name in ("title", "notes"):
        if not isinstance(raw[name], str) or not raw[name].strip():
            raise CaseFileError(file, case_id, name, "required, a non-empty string")
    paragraph, url = _source(raw["source"], file, case_id)
    request, request_json = _request(raw["request"], file, case_id)
    expected = _expected_all(raw["expected"], request, file, case_id)
    tolerance = _money(raw.get("tolerance", 0), file, case_id, "tolerance", allow_none=False)
    assert tolerance is not None
    return Case(
        id=case_id,
        title=raw["title"].strip(),
        paragraph=paragraph,
        url=url,
        request=request,
        request_json=request_json,
        expected=expected,
        tolerance=tolerance,
        notes=raw["notes"].rstrip(),
        file=file,
        line=line,
    )


def _keys(raw: dict[str, Any], allowed: dict[str, bool], file: str, case_id: str, prefix: str) -> None:
    for key in raw:
        if key not in allowed:
            known = ", ".join(allowed)
            raise CaseFileError(file, case_id, f"{prefix}{key}", f"unknown key (allowed: {known})")
    for key, required in allowed.items():
        if required and key not in raw:
            raise CaseFileError(file, case_id, f"{prefix}{key}", "required key missing")


def _source(raw: Any, file: str, case_id: str) -> tuple[str, str | None]:
    if not isinstance(raw, dict):
        raise CaseFileError(file, case_id, "source", "must be a mapping {paragraph, url?}")
    _keys(raw, SOURCE_KEYS, file, case_id, "source.")
    if not isinstance(raw["paragraph"], str) or not raw["paragraph"].strip():
        raise CaseFileError(file, case_id, "source.paragraph", "required, a non-empty string")
    url = raw.get("url")
    if url is not None and not (isinstance(url, str) and url.startswith(("http://", "https://"))):
        raise CaseFileError(file, case_id, "source.url", "must be an http(s) URL")
    return raw["paragraph"].strip(), url


def _request(raw: Any, file: str, case_id: str) -> tuple[CalculationRequest, str]:
    if not isinstance(raw, dict):
        raise CaseFileError(file, case_id, "request", "must be a mapping (the request of `vigueur calculate`)")
    text = json.dumps(_jsonable(raw), ensure_ascii=False)
    try:
        return parse_request(text), text
    except RequestError as exc:
        first = exc.errors[0]
        more = f" (and {len(exc.errors) - 1} more: {exc})" if len(exc.errors) > 1 else ""
        raise CaseFileError(file, case_id, f"request.{first['field']}", f"{first['message']}{more}") from None


def _jsonable(value: Any) -> Any:
    """YAML values as the JSON of the request contract: dates in ISO form, decimals as strings."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _expected_all(raw: Any, request: CalculationRequest, file: str, case_id: str) -> dict[Scheme, Expected]:
    if not isinstance(raw, dict) or not raw:
        raise CaseFileError(
            file, case_id, "expected", "must be a mapping {<scheme>: {amount, eligible, version_id, status}}"
        )
    computed = list(dict.fromkeys(request.schemes)) if request.schemes else list(Scheme)
    out: dict[Scheme, Expected] = {}
    for key, value in raw.items():
        try:
            scheme = Scheme(key)
        except ValueError:
            raise CaseFileError(
                file,
                case_id,
                f"expected.{key}",
                f"unknown scheme (allowed: {', '.join(s.value for s in Scheme)})",
            ) from None
        if scheme not in computed:
            raise CaseFileError(
                file,
                case_id,
                f"expected.{key}",
                "the request does not compute this scheme (see request.schemes)",
            )
        out[scheme] = _expected(value, file, case_id, f"expected.{key}.")
    missing = [s.value for s in computed if s not in out]
    if missing:
        raise CaseFileError(
            file,
            case_id,
            f"expected.{missing[0]}",
            "the request computes this scheme but the case expects nothing of it "
            "(add its expectation or restrict request.schemes)",
        )
    return out


def _expected(raw: Any, file: str, case_id: str, prefix: str) -> Expected:
    if not isinstance(raw, dict):
        raise CaseFileError(
            file, case_id, prefix.rstrip("."), "must be a mapping {amount, eligible, version_id, status}"
        )
    _keys(raw, EXPECTED_KEYS, file, case_id, prefix)
    status = raw.get("status")
    if status is not None and status not in STATUSES:
        raise CaseFileError(file, case_id, f"{prefix}status", f"{status!r} is not one of {', '.join(STATUSES)}")
    eligible = raw["eligible"]
    if eligible is not None and not isinstance(eligible, bool):
        raise CaseFileError(file, case_id, f"{prefix}eligible", "must be true, false or null")
    version_id = raw["version_id"]
    if version_id is not None and not isinstance(version_id, str):
        raise CaseFileError(file, case_id, f"{prefix}version_id", "must be a version id string or null")
    kept_by = raw.get("kept_by")
    if kept_by is not None and not isinstance(kept_by, str):
        raise CaseFileError(file, case_id, f"{prefix}kept_by", "must be a transitional clause id string")
    missing = raw.get("missing_facts")
    if missing is not None and not (isinstance(missing, list) and all(isinstance(m, str) for m in missing)):
        raise CaseFileError(file, case_id, f"{prefix}missing_facts", "must be a list of field paths")
    return Expected(
        amount=_money(raw["amount"], file, case_id, f"{prefix}amount", allow_none=True),
        eligible=eligible,
        version_id=version_id,
        status=status,
        kept_by=kept_by,
        missing_facts=tuple(missing) if missing is not None else None,
    )


def _money(raw: Any, file: str, case_id: str, name: str, *, allow_none: bool) -> Decimal | None:
    if raw is None and allow_none:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | str | Decimal):
        raise CaseFileError(file, case_id, name, 'must be an amount in euros, e.g. "6300.00"')
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise CaseFileError(file, case_id, name, f"{raw!r} is not an amount in euros") from None
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
        raise CaseFileError(file, case_id, name, f"{raw!r}: a non-negative amount to the cent is required")
    return value


# -- running -----------------------------------------------------------------------------------------------


def run_case(catalogue: Catalogue, case: Case) -> CaseResult:
    """Compute the case's request and compare each expected scheme with the answer."""
    try:
        document = calculate_document(catalogue, case.request)
    except VigueurError as exc:
        return CaseResult(case=case, outcome="error", error=f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 - a broken calculator is reported as the case's error, never a crash of the run
        return CaseResult(case=case, outcome="error", error=f"{type(exc).__name__}: {exc}")
    by_scheme = {r["scheme"]: r for r in document["results"]}
    checks: list[Check] = []
    for scheme, expected in case.expected.items():
        checks.extend(compare(scheme.value, expected, by_scheme[scheme.value], case.tolerance))
    outcome = "passed" if all(c.ok for c in checks) else "failed"
    return CaseResult(case=case, outcome=outcome, checks=checks, document=document)


def compare(scheme: str, expected: Expected, got: dict[str, Any], tolerance: Decimal) -> list[Check]:
    """One scheme's checks: amount (within the tolerance), eligible, version, status, the optional ones."""
    amount = Decimal(got["amount"]) if got.get("amount") is not None else None
    if expected.amount is None or amount is None:
        amount_ok = expected.amount is None and amount is None
    else:
        amount_ok = abs(amount - expected.amount) <= tolerance
    checks = [
        Check(scheme=scheme, field="amount", expected=_str(expected.amount), got=got.get("amount"), ok=amount_ok),
        *(
            Check(
                scheme=scheme,
                field=name,
                expected=getattr(expected, name),
                got=got.get(name),
                ok=getattr(expected, name) == got.get(name),
            )
            for name in ("eligible", "version_id")
        ),
    ]
    if expected.status is not None:
        checks.append(
            Check(
                scheme=scheme,
                field="status",
                expected=expected.status,
                got=got.get("status"),
                ok=expected.status == got.get("status"),
            )
        )
    if expected.kept_by is not None:
        checks.append(
            Check(
                scheme=scheme,
                field="kept_by",
                expected=expected.kept_by,
                got=got.get("kept_by"),
                ok=expected.kept_by == got.get("kept_by"),
            )
        )
    if expected.missing_facts is not None:
        found = list(got.get("missing_facts") or [])
        checks.append(
            Check(
                scheme=scheme,
                field="missing_facts",
                expected=list(expected.missing_facts),
                got=found,
                ok=sorted(expected.missing_facts) == sorted(found),
            )
        )
    return checks


def _str(value: Decimal | None) -> str | None:
    return None if value is None else str(value)
