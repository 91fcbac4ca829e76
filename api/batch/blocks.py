"""Blocks of `vigueur batch`: input lines to records, records to outcomes, outcomes to output text.

A CSV line is validated cell by cell with the rules of the request contract (:mod:`api.batch.csv_rows`) and
becomes a flat :class:`legislation.fast.Row` directly — no pydantic model and no ``Purchase`` per row,
which would cost more than the calculation. A JSON Lines row *is* a request of the contract and goes
through :func:`api.purchase.request.parse_request`. Either way a row that does not validate becomes one output
record with status ``invalid``, its line number and the reason, and the run goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from api.batch.csv_rows import CSV_COLUMNS, CsvPlan, Invalid
from api.batch.lines import CONTROL, cells, check_id, needs_checks, undecodable
from api.batch.lines import csv_lines as input_lines
from legislation.errors import InvalidFacts
from legislation.fast import Engine, Outcome, Row

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


def records(data: bytes, first_line: int, *, csv_quotes: bool = False) -> Iterator[tuple[int, str | bytes]]:
    """(line number, text) of each non-empty line of a block; one line is one record (a CSV field may not
    hold a line break); a line that is not UTF-8 comes as its bytes, for the caller to report."""
    del csv_quotes  # one line, one record, in both formats
    return input_lines(data, first_line)


def run_csv_chunk(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """Validate and compute a block of CSV lines (``first_line`` is the number of its first line)."""
    if b'"' not in data and b"\r" not in data:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return run_any_csv(engine, plan, first_line, data)
        if not needs_checks(text):
            return run_plain_csv(engine, plan, first_line, text)
    return run_any_csv(engine, plan, first_line, data)


def run_any_csv(engine: Engine, plan: CsvPlan, first_line: int, data: bytes) -> ChunkResult:
    """Quoted fields, carriage returns, bytes that are not UTF-8, control characters: the checked reading
    (:mod:`api.batch.lines`: one line is one record, whatever its quotes)."""
    result, out, before = ChunkResult(), [], engine.fallbacks
    append, id_index, outcomes_of, row_of = out.append, plan.id_index, engine.outcomes, plan.row
    for line, record in input_lines(data, first_line):
        result.rows += 1
        ident = ""
        try:
            if isinstance(record, bytes):
                raise undecodable(record, plan.header)
            fields = cells(record, plan.header)
            if id_index is not None and id_index < len(fields):
                ident = fields[id_index]
                check_id(ident)
            outcomes = outcomes_of(row_of(fields))
        except (Invalid, InvalidFacts, ArithmeticError, ValueError) as exc:
            reason = reason_of(exc)
            result.error(line, reason)
            append(csv_invalid(line, CONTROL.sub("\ufffd", ident), reason))
            continue
        result.results += len(outcomes)
        append(csv_lines(line, ident, outcomes))
    result.text, result.fallbacks = "".join(out), engine.fallbacks - before
    return result


def run_plain_csv(engine: Engine, plan: CsvPlan, first_line: int, data: bytes | str) -> ChunkResult:
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
    text = data if isinstance(data, str) else data.decode("utf-8")  # the caller checked it decodes
    for line, record in enumerate(text.split("\n"), first_line):
        if not record:
            continue
        rows += 1
        cells = record.split(",")
        try:
            outcomes = outcomes_of(row_of(cells))
        except (Invalid, InvalidFacts, ArithmeticError, ValueError) as exc:
            ident = cells[id_index] if id_index is not None and id_index < len(cells) else ""
            reason = reason_of(exc)
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
        if not text.strip():  # a blank line (bytes that are not UTF-8 are never blank)
            continue
        result.rows += 1
        try:
            if isinstance(text, bytes):
                raise RequestError([{"field": "(line)", "message": "not valid UTF-8; the input must be UTF-8"}])
            request = parse_request(text)  # the request's fields bear the Purchase's names: no Purchase built
            outcomes = engine.outcomes(Row.from_facts(request, request_schemes(request)))
        except RequestError as exc:
            reason = "; ".join(f"{e['field']}: {e['message']}" for e in exc.errors)
        except (InvalidFacts, ArithmeticError, ValueError) as exc:
            reason = reason_of(exc)
        else:
            result.results += len(outcomes)
            out.extend(json_record(line, o) for o in outcomes)
            continue
        result.error(line, reason)
        out.append(json_record(line, None, reason))
    result.text, result.fallbacks = "".join(t + "\n" for t in out), engine.fallbacks - before
    return result


def reason_of(exc: Exception) -> str:
    if isinstance(exc, InvalidFacts):
        return f"{exc.field}: {exc}"
    if isinstance(exc, Invalid):
        return str(exc)
    return f"cannot be computed: {exc}"  # e.g. a date whose legal period runs past year 9999


__all__ = [
    "CSV_COLUMNS",
    "ChunkResult",
    "CsvPlan",
    "Invalid",
    "records",
    "run_csv_chunk",
    "run_jsonl_chunk",
]
