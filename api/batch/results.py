"""The outcomes of a block of `vigueur batch` as arrays, the columns derived from them, and the three writers.

Whichever engine computed a row (the columns, or the row engine for suspect and fallback rows), its outcomes land
in one :class:`Outcomes` — per scheme and row: status, amount in cents (known or not), eligible, version, kept
version, paragraph — and every output is made from it, so CSV, Parquet and JSON Lines say the same thing.

The columns the row engine's outcome tuple does not hold are taken from the explained path's own functions,
never from a second copy of a rule (:mod:`legislation.resolver`, as the HTTP answer renders them):

- ``reason`` and ``missing_facts``: the explained answer's (``award.reason``, or the answer's message when no
  calculator ran — no version on file, the aid ended), for the results that are not « computed »; an answer that
  depends only on the scheme, version and date is explained once per such key (dictionary-encoded);
- ``claim_deadline``: :func:`legislation.resolver.claim_deadline_for` of the scheme and the decisive day, once per
  distinct pair, for the results the explained answer gives one (every status but no version, ended, invalid,
  and a kept wording not on file after the end of the aid);
- ``provenance``: the grade of the version in force, of the kept version, and of a text relied on that decided
  the award when it is graded secondary (the explained answer's warnings), once per distinct triple.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from legislation import Catalogue, Scheme
from legislation.award import Award
from legislation.calculators.kit import Outcome
from legislation.columnar import Numbering
from legislation.enums import Acquisition, Provenance, Role
from legislation.errors import InvalidFacts
from legislation.resolver import (
    COMPUTED,
    ENDED,
    KEPT_NOT_ON_FILE,
    MISSING_FACTS,
    NO_VERSION,
    NOT_COVERED,
    calculate,
    claim_deadline_for,
    relied_secondary_warnings,
    version_for,
)
from legislation.row import ALL_SCHEMES, SCHEME_TUPLES, Row

INVALID = "invalid"
STATUSES: tuple[str, ...] = (COMPUTED, MISSING_FACTS, NO_VERSION, KEPT_NOT_ON_FILE, NOT_COVERED, INVALID, ENDED)
_STATUS = {s: i for i, s in enumerate(STATUSES)}
_SCHEME = {s: k for k, s in enumerate(ALL_SCHEMES)}
_EXPLAINED = np.array([s in (MISSING_FACTS, NOT_COVERED, KEPT_NOT_ON_FILE) for s in STATUSES])
_BY_KEY = np.array([s in (NO_VERSION, ENDED) for s in STATUSES])
_DEADLINE = np.array([s in (COMPUTED, MISSING_FACTS, NOT_COVERED, KEPT_NOT_ON_FILE) for s in STATUSES])
# each row's schemes (index in SCHEME_TUPLES) → the scheme index of its result j (-1: none)
_SLOTS = np.full((len(SCHEME_TUPLES), len(ALL_SCHEMES)), -1, dtype=np.int64)
for _t, _schemes in enumerate(SCHEME_TUPLES):
    _SLOTS[_t, : len(_schemes)] = [_SCHEME[s] for s in _schemes]
_COUNTS = (_SLOTS >= 0).sum(axis=1)

OUTPUT_COLUMNS = (
    "line",
    "id",
    "scheme",
    "status",
    "amount",
    "eligible",
    "version_id",
    "paragraph",
    "kept_version_id",
    "error",
    "reason",
    "missing_facts",
    "claim_deadline",
    "provenance",
)


class Tables:
    """What the outcome arrays index: the catalogue's version ids (sorted, as the columnar path's) and the
    paragraphs met so far in this process."""

    def __init__(self, catalogue: Catalogue, engine: Any = None) -> None:
        self.catalogue = catalogue
        self.version_ids: tuple[str, ...] = tuple(sorted(catalogue.versions))
        self.version_index = {v: i for i, v in enumerate(self.version_ids)}
        self.numbering = Numbering()  # the paragraphs met so far in this process
        self.paragraphs: list[str] = self.numbering.texts
        self._deadlines: dict[tuple[int, int], str | None] = {}
        self._provenance: dict[tuple[int, int, int], str] = {}
        self._explained: dict[tuple[int, ...], tuple[str | None, str | None]] = {}
        self._eventful: dict[tuple[int, int, int, int], int] = {}
        from legislation.fast.engine import Engine

        engine = Engine(catalogue) if engine is None else engine
        # a lease dated before this day may be decided by another event (décret 2007-1873; as the row engine)
        self.eventful_until: date = engine.eventful_until if engine.eventful else date.min

    def deadline(self, k: int, day: int, version: int, status: int) -> str | None:
        """The claim deadline the explained answer gives (ISO date), or None."""
        if day < 0 or not _DEADLINE[status]:
            return None
        ended = version >= 0 and self.catalogue.versions[self.version_ids[version]].role is Role.ENDED
        if STATUSES[status] == KEPT_NOT_ON_FILE and ended:
            return None  # after the end of the aid, a kept wording not on file: no claim deadline stated
        key = (k, day)
        if key not in self._deadlines:
            try:
                found, _ = claim_deadline_for(self.catalogue, ALL_SCHEMES[k], date.fromordinal(day), [])
            except (ValueError, OverflowError):  # a deadline past year 9999
                found = None
            self._deadlines[key] = found.isoformat() if found is not None else None
        return self._deadlines[key]

    def provenance(self, version: int, kept: int, paragraph: int) -> str | None:
        """The grade of the version in force (``official``, ``seed``, ``derived``, ``secondary``), then the kept
        version's and a secondary text relied on, when they answered: « seed; kept D251-7.2017: secondary »."""
        if version < 0:
            return None
        key = (version, kept, paragraph)
        found = self._provenance.get(key)
        if found is None:
            versions = self.catalogue.versions
            current = versions[self.version_ids[version]]
            parts = [current.provenance.value]
            answering = current
            if kept >= 0 and kept != version:
                answering = versions[self.version_ids[kept]]
                parts.append(f"kept {answering.id}: {answering.provenance.value}")
            if paragraph >= 0:
                stub = Award(
                    version_id=answering.id, amount=None, eligible=None, reason="", paragraph=self.paragraphs[paragraph]
                )
                # the explained answer's warnings for a secondary text relied on that decided the award
                for warning in relied_secondary_warnings(self.catalogue, stub):
                    parts.append(f"relies on {warning.split(' is graded ')[0]}: {Provenance.SECONDARY.value}")
            found = self._provenance[key] = "; ".join(parts)
        return found

    @staticmethod
    def explained_key(k: int, status: int, version: int, kept: int, day: int) -> tuple[int, ...] | None:
        """The key of an explanation that depends only on the scheme, status, versions and date (None: per row)."""
        return (k, status, version, kept, day) if _BY_KEY[status] else None

    def known(self, key: tuple[int, ...]) -> bool:
        return key in self._explained

    def eventful_day(self, k: int, rent: int, invoice: int, order: int) -> int:
        """The decisive day of a lease whose version is picked by its own event (décret 2007-1873):
        :func:`legislation.resolver.version_for` on the row's dates, once per scheme and dates."""
        key = (k, rent, invoice, order)
        found = self._eventful.get(key)
        if found is None:
            dates = [date.fromordinal(d) if d > 0 else None for d in (rent, invoice, order)]
            stub = Row(
                acquisition=Acquisition.LEASE, first_rent_date=dates[0], invoice_date=dates[1], order_date=dates[2]
            )
            try:
                found = version_for(self.catalogue.timeline(ALL_SCHEMES[k]), stub)[1].toordinal()
            except (InvalidFacts, ArithmeticError, ValueError):
                found = -1
            self._eventful[key] = found
        return found

    def explained(
        self, k: int, status: int, version: int, kept: int, day: int, facts: Row | None
    ) -> tuple[str | None, str | None]:
        """(reason, missing facts) of the explained answer (:func:`legislation.resolver.calculate`)."""
        key = self.explained_key(k, status, version, kept, day)
        if key is not None and key in self._explained:
            return self._explained[key]
        found: tuple[str | None, str | None] = (None, None)
        if facts is not None:
            try:
                result = calculate(self.catalogue, facts, ALL_SCHEMES[k])
            except (InvalidFacts, ArithmeticError, ValueError):
                result = None
            if result is not None:
                award = result.award
                if award is not None:
                    found = (award.reason, "|".join(award.missing_facts) or None)
                else:  # no calculator ran: the answer's message (no version on file, the aid ended) and warnings
                    from api.purchase.render import resolved_fields

                    message = resolved_fields(result.resolution)["message"]
                    found = ("; ".join(x for x in (message, *result.warnings) if x) or None, None)
        if key is not None:
            self._explained[key] = found
        return found


class Outcomes:
    """The outcomes of ``n`` rows: ``[k, i]`` is scheme ``ALL_SCHEMES[k]`` of row ``i`` (see the module)."""

    def __init__(self, n: int) -> None:
        k = len(ALL_SCHEMES)
        self.n = n
        self.status = np.zeros((k, n), dtype=np.int8)
        self.amount = np.zeros((k, n), dtype=np.int64)
        self.known = np.zeros((k, n), dtype=np.bool_)
        self.eligible = np.full((k, n), -1, dtype=np.int8)
        self.version = np.full((k, n), -1, dtype=np.int16)
        self.kept = np.full((k, n), -1, dtype=np.int16)
        self.paragraph = np.full((k, n), -1, dtype=np.int32)
        self.row_schemes = np.zeros(n, dtype=np.int8)
        # leases whose decisive day the resolver picks per version (décret 2007-1873: resolver.version_for)
        self.eventful = np.zeros(n, dtype=np.bool_)
        self.dates = np.full((3, n), -1, dtype=np.int64)  # first rent, invoice, order (ordinals) of eventful rows
        self.invalid = np.zeros(n, dtype=np.bool_)
        self.errors: dict[int, str] = {}
        self.day = np.full(n, -1, dtype=np.int64)
        self.rows: dict[int, Row] = {}  # rows the row path built (their explanation needs them)
        self.fallbacks = 0  # results computed by the row engine

    def store(self, tables: Tables, i: int, row: Row, outcomes: list[Outcome]) -> None:
        """Row ``i``'s outcomes from the row engine."""
        self.row_schemes[i] = SCHEME_TUPLES.index(row.schemes) if row.schemes in SCHEME_TUPLES else 0
        self.rows[i] = row
        until = tables.eventful_until
        lease = row.acquisition is Acquisition.LEASE
        dates = (row.first_rent_date, row.invoice_date, row.order_date)
        self.eventful[i] = lease and any(d is not None and d < until for d in dates)
        if self.eventful[i]:
            self.dates[:, i] = [-1 if d is None else d.toordinal() for d in dates]
        day = row.first_rent_date if lease else row.invoice_date
        self.day[i] = day.toordinal() if day is not None else -1
        for outcome in outcomes:
            scheme, status, value, eligible, vid, paragraph, kept = outcome
            k = _SCHEME[Scheme(scheme)]
            self.status[k, i] = _STATUS[status]
            self.known[k, i] = value is not None
            self.amount[k, i] = value or 0
            self.eligible[k, i] = -1 if eligible is None else int(eligible)
            self.version[k, i] = tables.version_index[vid] if vid is not None else -1
            self.kept[k, i] = tables.version_index[kept] if kept is not None else -1
            self.paragraph[k, i] = tables.numbering.number(paragraph)
        self.fallbacks += len(outcomes)

    def refuse(self, i: int, reason: str) -> None:
        self.invalid[i] = True
        self.status[:, i] = _STATUS[INVALID]
        self.errors[i] = reason

    def take_columnar(
        self, tables: Tables, positions: npt.NDArray[np.intp], result: Any, reason: Callable[[Exception], str]
    ) -> None:
        """The arrays of a :class:`legislation.columnar.ColumnarResult` computed for rows ``positions``."""
        self.status[:, positions] = result.status
        self.amount[:, positions] = result.amount
        self.known[:, positions] = result.amount_known
        self.eligible[:, positions] = result.eligible
        self.version[:, positions] = result.version
        self.kept[:, positions] = result.kept
        remap = np.array([tables.numbering.number(p) for p in result.paragraphs] + [-1], dtype=np.int32)
        given = result.requested & (result.paragraph >= 0) & (result.paragraph < len(result.paragraphs))
        self.paragraph[:, positions] = np.where(given, remap[np.where(given, result.paragraph, -1)], -1)
        self.row_schemes[positions] = result.row_schemes
        left = result.fallback & result.requested  # results the row engine computed (a refused row gives none)
        if result.errors:
            left[:, list(result.errors)] = False
        self.fallbacks += int(left.sum())
        for i, exc in result.errors.items():
            self.refuse(int(positions[i]), reason(exc))


class Records:
    """One record per result of each row (one per invalid row), in input order: the derived columns."""

    def __init__(
        self,
        outcomes: Outcomes,
        tables: Tables,
        lines: npt.NDArray[np.int64],
        ids: list[str] | None,
        rows_of: Callable[[list[int]], dict[int, Row]],
        *,
        explain_all: bool = True,
    ) -> None:
        o = outcomes
        counts = np.where(o.invalid, 1, _COUNTS[o.row_schemes])
        total = int(counts.sum())
        row = np.repeat(np.arange(o.n), counts)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        slot = np.arange(total) - first
        k = np.where(o.invalid[row], -1, _SLOTS[o.row_schemes[row], slot])
        kk = np.maximum(k, 0)
        self.row, self.k, self.total = row, k, total
        self.line = lines[row]
        self.ids = ids
        valid = k >= 0
        self.status = np.where(valid, o.status[kk, row], _STATUS[INVALID]).astype(np.int8)
        self.amount = o.amount[kk, row]
        self.known = valid & o.known[kk, row]
        self.eligible = np.where(valid, o.eligible[kk, row], -1)
        self.version = np.where(valid, o.version[kk, row], -1).astype(np.int64)
        self.kept = np.where(valid, o.kept[kk, row], -1).astype(np.int64)
        self.paragraph = np.where(valid, o.paragraph[kk, row], -1).astype(np.int64)
        self.errors = {int(r): text for r, text in o.errors.items()}
        self.tables = tables
        # claim deadline, provenance, reason: once per distinct key
        day = o.day[row].copy()
        eventful = np.flatnonzero(valid & o.eventful[row] & _DEADLINE[self.status])
        for j in eventful.tolist():  # the decisive day the resolver picks (another event than the first rent)
            i = int(row[j])
            day[j] = tables.eventful_day(int(k[j]), int(o.dates[0, i]), int(o.dates[1, i]), int(o.dates[2, i]))
        self.deadline = _encode(
            [(kk, 3), (day, 23), (self.version, 14), (self.status.astype(np.int64), 4)],
            lambda key: tables.deadline(*key),
            valid,
        )
        self.provenance = _encode(
            [(self.version, 14), (self.kept, 14), (self.paragraph, 30)], lambda key: tables.provenance(*key), valid
        )
        reasons: list[str | None] = [None] * total
        missing: list[str | None] = [None] * total
        explain = _EXPLAINED if explain_all else np.zeros_like(_EXPLAINED)
        wanted = np.flatnonzero(valid & (explain[self.status] | _BY_KEY[self.status]))
        if wanted.size:
            keys = [
                tables.explained_key(
                    int(k[j]), int(self.status[j]), int(self.version[j]), int(self.kept[j]), int(day[j])
                )
                for j in wanted.tolist()
            ]
            needed = sorted(
                {
                    int(row[j])
                    for j, key in zip(wanted.tolist(), keys, strict=True)
                    if key is None or not tables.known(key)
                }
                - set(o.rows)
            )
            built = {**o.rows, **rows_of(needed)} if needed else o.rows
            for j in wanted.tolist():
                reasons[j], missing[j] = tables.explained(
                    int(k[j]),
                    int(self.status[j]),
                    int(self.version[j]),
                    int(self.kept[j]),
                    int(day[j]),
                    built.get(int(row[j])),
                )
        self.reasons, self.missing = reasons, missing

    # -- to Arrow ---------------------------------------------------------------------------------------------

    def arrow(self, *, text: bool) -> dict[str, pa.Array]:
        """The output columns as Arrow arrays: typed (Parquet), or CSV fields (``text``: quoted where needed)."""
        t = self.tables
        quote = _csv_field if text else (lambda s: s)
        scheme_names = [quote(s.value) for s in ALL_SCHEMES]
        columns: dict[str, pa.Array] = {}
        columns["line"] = pa.array(self.line, pa.int64())
        if text:
            columns["line"] = pc.cast(columns["line"], pa.string())
        if self.ids is None:
            columns["id"] = pa.nulls(self.total, pa.string())
        else:  # each row's id once (quoted where a CSV field needs it), then taken per record (in C)
            row_ids = [None if x is None else quote(x) for x in self.ids] if text else self.ids
            columns["id"] = pa.array(row_ids, pa.string()).take(pa.array(self.row))
        columns["scheme"] = _dictionary(np.where(self.k >= 0, self.k, -1), scheme_names)
        columns["status"] = _dictionary(self.status.astype(np.int64), list(STATUSES))
        columns["amount"] = _euros(self.amount, self.known, text=text)
        if text:
            columns["eligible"] = _dictionary(self.eligible.astype(np.int64), ["false", "true"])
        else:
            columns["eligible"] = pa.array(self.eligible == 1, mask=self.eligible < 0)
        columns["version_id"] = _dictionary(self.version, [quote(v) for v in t.version_ids])
        paragraphs = [quote(p) for p in t.paragraphs]
        columns["paragraph"] = _dictionary(self.paragraph, paragraphs)
        columns["kept_version_id"] = _dictionary(self.kept, [quote(v) for v in t.version_ids])
        errors: list[str | None] = [None] * self.total
        if self.errors:
            invalid_records = np.flatnonzero(self.k < 0)
            for j in invalid_records.tolist():
                message = self.errors.get(int(self.row[j]))
                errors[j] = quote(message) if message is not None else None
        columns["error"] = pa.array(errors, pa.string())
        columns["reason"] = pa.array([None if r is None else quote(r) for r in self.reasons], pa.string())
        columns["missing_facts"] = pa.array([None if r is None else quote(r) for r in self.missing], pa.string())
        deadline_codes, deadline_values = self.deadline
        if text:
            columns["claim_deadline"] = _dictionary(deadline_codes, deadline_values)
        else:
            days = [None if v is None else date.fromisoformat(v) for v in deadline_values]
            columns["claim_deadline"] = _dictionary(deadline_codes, days, pa.date32())
        codes, values = self.provenance
        columns["provenance"] = _dictionary(codes, [v if v is None else quote(v) for v in values])
        return columns

    def csv_bytes(self, header: bool = False) -> bytes:
        columns = self.arrow(text=True)
        joined = pc.binary_join_element_wise(*columns.values(), ",", null_handling="replace", null_replacement="")
        lines = pc.binary_join_element_wise(joined, "", "\n")
        data = _values(lines)
        return ((",".join(OUTPUT_COLUMNS) + "\n").encode() if header else b"") + data

    def table(self) -> pa.Table:
        columns = self.arrow(text=False)
        return pa.table(columns)

    def json_lines(self) -> bytes:
        columns = self.arrow(text=False)
        records = pa.table(columns).to_pylist()
        out = []
        for record in records:
            record["eligible"] = record["eligible"]
            amount = record["amount"]
            record["amount"] = None if amount is None else f"{amount:.2f}"
            deadline = record["claim_deadline"]
            record["claim_deadline"] = None if deadline is None else deadline.isoformat()
            out.append(json.dumps(record, ensure_ascii=False) + "\n")
        return "".join(out).encode()

    # -- the expected amounts ---------------------------------------------------------------------------------

    def totals(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], list[str]]:
        """Each row's computed total (cents), whether every one of its amounts is known, its versions."""
        n = int(self.row.max()) + 1 if self.total else 0
        total = np.bincount(self.row, weights=np.where(self.known, self.amount, 0), minlength=n).astype(np.int64)
        unknown = np.bincount(self.row, weights=(~self.known).astype(np.int64), minlength=n)
        versions: list[list[str]] = [[] for _ in range(n)]
        ids = self.tables.version_ids
        for r, v, kp in zip(self.row.tolist(), self.version.tolist(), self.kept.tolist(), strict=True):
            chosen = kp if kp >= 0 else v
            if chosen >= 0:
                versions[r].append(ids[chosen])
        return total, unknown == 0, ["|".join(v) for v in versions]


def _csv_field(text: str) -> str:
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def _dictionary(codes: npt.NDArray[Any], values: list[Any], kind: pa.DataType | None = None) -> pa.Array:
    """The values at ``codes`` (-1: null), decoded from a dictionary array (C speed)."""
    kind = kind or pa.string()
    if not values:
        return pa.nulls(len(codes), kind)
    indices = pa.array(codes.astype(np.int32), mask=codes < 0)
    return pa.DictionaryArray.from_arrays(indices, pa.array(values, kind)).dictionary_decode()


def _encode(
    parts: list[tuple[npt.NDArray[np.int64], int]],
    value: Callable[[tuple[int, ...]], Any],
    valid: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], list[Any]]:
    """A per-record value computed once per distinct key (``parts``: (integers from -1 to 2^bits - 2, bits), 62
    bits at most): (codes for every record, -1 where not ``valid`` or the value is None; the values)."""
    codes = np.full(len(valid), -1, dtype=np.int64)
    key = np.zeros(len(valid), dtype=np.int64)
    for part, bits in parts:
        key = (key << bits) + (part.astype(np.int64) + 1)
    key = key[valid]
    if not len(key):
        return codes, []
    encoded = pc.dictionary_encode(pa.array(key))
    distinct = encoded.dictionary.to_numpy()
    fields, shift = [], 0
    for _, bits in reversed(parts):  # the last part in the lowest bits: unpacked for every distinct key at once
        fields.append((((distinct >> shift) & ((1 << bits) - 1)) - 1).tolist())
        shift += bits
    values = [value(key) for key in zip(*reversed(fields), strict=True)]
    table = np.array([-1 if v is None else j for j, v in enumerate(values)], dtype=np.int64)
    codes[valid] = table[encoded.indices.to_numpy()]
    return codes, values


def _euros(cents: npt.NDArray[np.int64], known: npt.NDArray[np.bool_], *, text: bool) -> pa.Array:
    """Amounts: « 5400.00 » (CSV) or decimal128(16, 2) (Parquet, JSON); null where not known."""
    if text:
        whole = pa.array(cents // 100)
        fraction = pc.utf8_lpad(pc.cast(pa.array(cents % 100), pa.string()), 2, "0")
        joined = pc.binary_join_element_wise(pc.cast(whole, pa.string()), fraction, ".")
        return pc.if_else(pa.array(known), joined, pa.scalar(None, pa.string()))
    pairs = np.zeros((len(cents), 2), dtype=np.int64)
    pairs[:, 0] = cents
    pairs[:, 1] = np.where(cents < 0, -1, 0)  # two's complement of a 128-bit integer, little-endian
    validity = pa.array(known).buffers()[1]
    return pa.Array.from_buffers(
        pa.decimal128(16, 2), len(cents), [validity, pa.py_buffer(pairs.tobytes())], null_count=int((~known).sum())
    )


def _values(lines: pa.Array) -> bytes:
    """The characters of a string array, concatenated (its data buffer between the first and last offsets)."""
    if len(lines) == 0:
        return b""
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)[lines.offset : lines.offset + len(lines) + 1]
    start = int(offsets[0])
    return lines.buffers()[2].slice(start, int(offsets[-1]) - start).to_pybytes()  # one copy: the slice is a view


def euros(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def as_decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)
