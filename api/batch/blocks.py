"""Blocks of `vigueur batch`: input lines to records, records to outcomes, outcomes to output text.

A CSV line is validated cell by cell with the rules of the request contract (:mod:`api.batch.csv_rows`) and
becomes a flat :class:`legislation.fast.Row` directly — no pydantic model and no ``Purchase`` per row,
which would cost more than the calculation. A JSON Lines row *is* a request of the contract and goes
through :func:`api.purchase.request.parse_request`. Either way a row that does not validate becomes one output
record with status ``invalid``, its line number and the reason, and the run goes on.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

from api.batch.csv_rows import CSV_COLUMNS, CsvPlan, Invalid
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Outcome, Row

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
)
INVALID = "invalid"

# -- outcomes to records ---------------------------------------------------------------------------

_AMOUNTS: dict[int, str] = {}


def euros(cents: int) -> str:
    """« 700000 » cents → « 7000.00 » (the JSON contract's amount string)."""
    text = _AMOUNTS.get(cents)
    if text is None:
        text = f"{cents // 100}.{cents % 100:02d}"
        if len(_AMOUNTS) < 100_000:
            _AMOUNTS[cents] = text
    return text


_ELIGIBLE = {True: "true", False: "false", None: ""}
_FIELDS: dict[str | None, str] = {None: ""}  # a text as a CSV field (quoted when it must be), remembered


def csv_field(text: str | None) -> str:
    """``text`` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote or a newline."""
    field = _FIELDS.get(text)
    if field is None:
        assert text is not None
        field = text
        if "," in text or '"' in text or "\n" in text or "\r" in text:
            field = '"' + text.replace('"', '""') + '"'
        if len(_FIELDS) < 10_000:
            _FIELDS[text] = field
    return field


def _quoted(text: str) -> str:
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


_TAILS: dict[
    Outcome, str
] = {}  # an outcome's output after « line,id, » (outcomes repeat: fixed amounts, refusals)


def csv_lines(line: int, ident: str, outcomes: list[Outcome]) -> str:
    """One output line per scheme (the csv module's quoting, written out: 3× faster than csv.writer here)."""
    head = f"{line},{_quoted(ident)},"
    return "".join(head + (_TAILS.get(outcome) or _tail(outcome)) for outcome in outcomes)


def _tail(outcome: Outcome) -> str:
    """An outcome's output after « line,id, », remembered (outcomes repeat: fixed amounts, refusals)."""
    scheme, status, amount, eligible, version_id, paragraph, kept = outcome
    tail = (
        f"{scheme},{status},{'' if amount is None else euros(amount)},{_ELIGIBLE[eligible]},"
        f"{csv_field(version_id)},{csv_field(paragraph)},{csv_field(kept)},\n"
    )
    if len(_TAILS) < 50_000:
        _TAILS[outcome] = tail
    return tail


def csv_invalid(line: int, ident: str, reason: str) -> str:
    return f"{line},{_quoted(ident)},,{INVALID},,,,,,{_quoted(reason)}\n"


def json_record(line: int, outcome: Outcome | None, error: str | None = None) -> str:
    """One JSON Lines record: ``{"line": …, "scheme": …, …}`` (``outcome`` None: an invalid row)."""
    if outcome is None:
        doc: dict[str, Any] = {
            "line": line,
            "scheme": None,
            "status": INVALID,
            "amount": None,
            "eligible": None,
            "version_id": None,
            "paragraph": None,
            "kept_version_id": None,
            "error": error,
        }
        return json.dumps(doc, ensure_ascii=False)
    return f'{{"line": {line}, {_JSON_TAILS.get(outcome) or _json_tail(outcome)}'


_JSON_TAILS: dict[Outcome, str] = {}  # an outcome's record after « {"line": N, » (outcomes repeat)


def _json_tail(outcome: Outcome) -> str:
    scheme, status, amount, eligible, version_id, paragraph, kept = outcome
    doc = {
        "scheme": scheme,
        "status": status,
        "amount": None if amount is None else euros(amount),
        "eligible": eligible,
        "version_id": version_id,
        "paragraph": paragraph,
        "kept_version_id": kept,
        "error": None,
    }
    tail = json.dumps(doc, ensure_ascii=False)[1:]  # json.dumps of the whole record, less « {"line": N, »
    if len(_JSON_TAILS) < 50_000:
        _JSON_TAILS[outcome] = tail
    return tail


# -- one chunk of input lines to output text ---------------------------------------------------------


class ChunkResult:
    """What a chunk gave: the output text and the counts for the summary."""

    __slots__ = ("text", "data", "rows", "results", "invalid", "fallbacks", "first_error")

    def __init__(self) -> None:
        self.text = ""
        self.data = b""  # the text encoded, when a worker process hands it back (bytes cross cheaper)
        self.rows = self.results = self.invalid = self.fallbacks = 0
        self.first_error: str | None = None

    def error(self, line: int, reason: str) -> None:
        self.invalid += 1
        if self.first_error is None:
            self.first_error = f"line {line}: {reason}"


def records(data: bytes, first_line: int, *, csv_quotes: bool) -> Iterator[tuple[int, str]]:
    """(line number, record text) of a block of whole lines; a CSV record runs on while a quote is open."""
    number, start, pending = first_line - 1, 0, ""
    for text in data.decode("utf-8", "replace").split("\n"):
        number += 1
        if pending:
            pending += "\n" + text
            if pending.count('"') % 2 == 0:
                yield start, pending
                pending = ""
        elif csv_quotes and '"' in text and text.count('"') % 2:
            start, pending = number, text
        elif text:
            yield number, text
    if pending:
        yield start, pending


def _cells(record: str) -> list[str]:
    """The fields of one CSV record: a plain split when it has no quote (the usual case), else csv."""
    if '"' not in record:
        return record.rstrip("\r").split(",")
    try:
        return next(csv.reader((record,)), [])
    except csv.Error as exc:
        raise Invalid(f"not a CSV line: {exc}") from None


def run_csv_chunk(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """Validate and compute a block of CSV lines (``first_line`` is the number of its first line)."""
    if b'"' not in data and b"\r" not in data:
        return run_plain_csv(engine, plan, first_line, data)
    return run_any_csv(engine, plan, first_line, data)


def run_any_csv(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """Quoted fields (a record may run over several lines), carriage returns: the general reading."""
    result, out, before = ChunkResult(), [], engine.fallbacks
    append, id_index, outcomes_of, row_of = out.append, plan.id_index, engine.outcomes, plan.row
    for line, record in records(data, first_line, csv_quotes=True):
        result.rows += 1
        ident = ""
        try:
            cells = _cells(record)
            if id_index is not None and id_index < len(cells):
                ident = cells[id_index]
            outcomes = outcomes_of(row_of(cells))
        except (Invalid, InvalidFacts, ArithmeticError, ValueError) as exc:
            reason = _reason(exc)
            result.error(line, reason)
            append(csv_invalid(line, ident, reason))
            continue
        result.results += len(outcomes)
        append(csv_lines(line, ident, outcomes))
    result.text, result.fallbacks = "".join(out), engine.fallbacks - before
    return result


def run_plain_csv(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """:func:`run_csv_chunk` for a block with no quote and no carriage return (the usual block): one line
    is one record, its fields a plain split, nothing to quote in an id; the same output, 20 % sooner."""
    result, out, before = ChunkResult(), [], engine.fallbacks
    append, id_index, outcomes_of, row_of, tails = (
        out.append,
        plan.id_index,
        engine.outcomes,
        plan.row,
        _TAILS,
    )
    rows = results = 0
    for line, record in enumerate(data.decode("utf-8", "replace").split("\n"), first_line):
        if not record:
            continue
        rows += 1
        cells = record.split(",")
        try:
            outcomes = outcomes_of(row_of(cells))
        except (Invalid, InvalidFacts, ArithmeticError, ValueError) as exc:
            ident = cells[id_index] if id_index is not None and id_index < len(cells) else ""
            reason = _reason(exc)
            result.error(line, reason)
            append(csv_invalid(line, ident, reason))
            continue
        head = f"{line},{cells[id_index] if id_index is not None else ''},"
        for outcome in outcomes:
            append(head)
            append(tails.get(outcome) or _tail(outcome))
        results += len(outcomes)
    result.rows, result.results = rows, results
    result.text, result.fallbacks = "".join(out), engine.fallbacks - before
    return result


def run_jsonl_chunk(engine: Engine, first_line: int, data: bytes) -> ChunkResult:
    """Validate (with the request contract) and compute a block of JSON Lines."""
    from api.purchase.render import request_schemes
    from api.purchase.request import RequestError, parse_request  # pydantic: only JSON Lines need it

    result, out, before = ChunkResult(), [], engine.fallbacks
    for line, text in records(data, first_line, csv_quotes=False):
        if not text.strip():
            continue
        result.rows += 1
        try:
            request = parse_request(text)  # the request's fields bear the Purchase's names: no Purchase built
            outcomes = engine.outcomes(Row.from_facts(request, request_schemes(request)))
        except RequestError as exc:
            reason = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        except (InvalidFacts, ArithmeticError, ValueError) as exc:
            reason = _reason(exc)
        else:
            result.results += len(outcomes)
            out.extend(json_record(line, o) for o in outcomes)
            continue
        result.error(line, reason)
        out.append(json_record(line, None, reason))
    result.text, result.fallbacks = "".join(t + "\n" for t in out), engine.fallbacks - before
    return result


def _reason(exc: Exception) -> str:
    if isinstance(exc, InvalidFacts):
        return f"{exc.field}: {exc}"
    if isinstance(exc, Invalid):
        return str(exc)
    return f"cannot be computed: {exc}"  # e.g. a date whose legal period runs past year 9999


__all__ = [
    "CSV_COLUMNS",
    "OUTPUT_COLUMNS",
    "ChunkResult",
    "CsvPlan",
    "Invalid",
    "records",
    "run_csv_chunk",
    "run_jsonl_chunk",
]
