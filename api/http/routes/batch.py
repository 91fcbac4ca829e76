"""``POST /v1/calculate/batch``: JSON Lines in, JSON Lines streamed back: `vigueur batch --format jsonl`
over HTTP.

Each line of the body is a request of the contract (the JSON of ``vigueur calculate``). The answer has one
line per scheme of each row, computed by the compiled fast path, carrying the input line number; a row
that does not validate gives one line with status ``invalid`` and the reason, and the batch goes on. The
answer is, byte for byte, what ``vigueur batch --format jsonl`` writes for the same input: the same row
handling (:func:`api.batch.arrow_run.jsonl_piece`) on blocks of the same lines.

Limits (documented in the OpenAPI document and the README): at most ``MAX_ROWS`` non-blank lines and
``MAX_BYTES`` bytes per request; over either → 413 before anything is computed. Bigger inputs go through
``vigueur batch``, or are split.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from api.batch.arrow_run import Settings, jsonl_piece
from api.batch.results import Tables
from api.http import examples
from api.http.deps import CatalogueDep
from api.http.problems import ProblemError, problem_type
from api.http.public import cases as docs
from api.kernel_cache import form_store
from legislation import Catalogue
from legislation.fast import Engine

router = APIRouter()

MAX_ROWS = 10_000  # rows (non-blank lines) per request
MAX_BYTES = 20_000_000  # 2 000 bytes a row on average; a request of the contract is usually under 500
BLOCK_LINES = 500  # lines computed and sent together: the first results leave before the last are computed
MEDIA_TYPE = "application/x-ndjson"
BATCH_TYPES = (
    "application/x-ndjson",
    "application/jsonl",
    "application/x-jsonlines",
    "application/jsonlines",
    "application/json",
)


class _Engines:
    """The compiled engine of each catalogue served (catalogues are cached by tree hash): a few kept."""

    def __init__(self, size: int = 4) -> None:
        self._items: OrderedDict[int, tuple[Catalogue, tuple[Engine, Tables]]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def of(self, catalogue: Catalogue) -> tuple[Engine, Tables]:
        with self._lock:
            found = self._items.get(id(catalogue))
            if found is not None and found[0] is catalogue:
                self._items.move_to_end(id(catalogue))
                return found[1]
            built = Engine(catalogue, form_store())
            engine = (built, Tables(catalogue, built))
            self._items[id(catalogue)] = (catalogue, engine)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
            return engine


ENGINES = _Engines()


def count_rows(body: bytes | bytearray) -> int:
    """Lines with something on them (blank lines are skipped, as `vigueur batch` skips them)."""
    return sum(1 for line in body.split(b"\n") if line.strip())


async def jsonl_body(request: Request) -> bytes:
    """The raw JSON Lines body: an accepted content type, at most MAX_BYTES bytes and MAX_ROWS rows."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type not in BATCH_TYPES:
        raise ProblemError(
            415,
            "Unsupported Media Type",
            detail="send JSON Lines with « Content-Type: application/x-ndjson » (or application/jsonl, "
            "application/json)",
            errors=[
                {"field": "(body)", "message": f"content type {media_type or '(none)'!r} is not JSON Lines"}
            ],
        )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BYTES:
        raise _too_many_bytes()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BYTES:
            raise _too_many_bytes()
    rows = count_rows(body)
    if rows > MAX_ROWS:
        raise ProblemError(
            413,
            "Content Too Large",
            type_=problem_type("too-many-rows"),
            detail=f"a batch is at most {MAX_ROWS} rows (this one has {rows}); "
            "split it, or use `vigueur batch`",
            errors=[{"field": "(body)", "message": f"{rows} rows, at most {MAX_ROWS}"}],
            rows=rows,
            max_rows=MAX_ROWS,
        )
    return bytes(body)


def _too_many_bytes() -> ProblemError:
    return ProblemError(
        413,
        "Content Too Large",
        type_=problem_type("too-many-bytes"),
        detail=f"a batch is at most {MAX_BYTES} bytes; split it, or use `vigueur batch`",
        errors=[{"field": "(body)", "message": "too large"}],
        max_bytes=MAX_BYTES,
    )


def blocks(body: bytes, size: int = BLOCK_LINES) -> Iterator[tuple[int, bytes]]:
    """(number of the first line, whole lines) of ``size`` lines each, as `vigueur batch` cuts its input."""
    lines = body.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the final newline ends the last line, it does not open another
    for start in range(0, len(lines), size):
        yield start + 1, b"".join(line + b"\n" for line in lines[start : start + size])


_SETTINGS = Settings([], out="jsonl")


def stream(engine: tuple[Engine, Tables], body: bytes) -> Iterator[bytes]:
    for first_line, data in blocks(body):
        found = jsonl_piece(*engine, _SETTINGS, first_line, data).data
        if found:
            yield found


BODY_DESCRIPTION = (
    "JSON Lines: one request of the contract (the JSON of `vigueur calculate`, see CalculationRequest) per "
    f"line, UTF-8. At most {MAX_ROWS} rows (non-blank lines) and {MAX_BYTES} bytes. "
    "Content-Type application/x-ndjson, application/jsonl or application/json (the body is read as JSON "
    "Lines whatever the type: a single request on one line is a batch of one)."
)


@router.post(
    "/v1/calculate/batch",
    tags=["purchase"],
    summary=f"Compute many purchases: JSON Lines in, JSON Lines out (at most {MAX_ROWS} rows)",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "One line per scheme of each row, in input order, streamed as they are computed; "
            "an "
            "invalid row gives one line with status « invalid » and the reason. Headers: Vigueur-Batch-Rows "
            "(rows in the body), Vigueur-Batch-Row-Limit.",
            "headers": {
                "Vigueur-Batch-Rows": {
                    "description": "Rows (non-blank lines) in the body.",
                    "schema": {"type": "integer"},
                },
                "Vigueur-Batch-Row-Limit": {
                    "description": "Rows allowed per request.",
                    "schema": {"type": "integer"},
                },
            },
            "content": {
                MEDIA_TYPE: {
                    "schema": {
                        "type": "string",
                        "description": "JSON Lines, each line a BatchRecord.",
                        "x-line-schema": docs.BatchRecordOut.model_json_schema(),
                    },
                    "example": docs.BATCH_RESPONSE_EXAMPLE,
                }
            },
        },
        413: {
            "description": f"More than {MAX_ROWS} rows or {MAX_BYTES} bytes: nothing was computed.",
            "content": {
                "application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"},
                    "example": docs.PROBLEM_BATCH_TOO_MANY_ROWS,
                }
            },
        },
        415: {
            "description": "The body is not sent as JSON Lines.",
            "content": {
                "application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"},
                    "example": docs.PROBLEM_BATCH_415,
                }
            },
        },
        503: {
            "description": "The database does not answer, or holds no catalogue yet.",
            "content": {
                "application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"},
                    "example": examples.load("problem_503"),
                }
            },
        },
        500: {
            "description": "A bug of vigueur (never caused by the request); logged.",
            "content": {
                "application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"},
                    "example": examples.load("problem_500"),
                }
            },
        },
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": BODY_DESCRIPTION,
            "content": {
                media: {"schema": {"type": "string"}, "example": docs.BATCH_REQUEST_EXAMPLE}
                for media in ("application/x-ndjson", "application/jsonl", "application/json")
            },
        }
    },
)
def calculate_batch(
    body: Annotated[bytes, Depends(jsonl_body)], catalogue: CatalogueDep
) -> StreamingResponse:
    """The rows computed by the fast path, each answer line carrying its input line number; the same bytes as
    `vigueur batch --format jsonl` for the same input. Invalid rows never stop the batch."""
    engine = ENGINES.of(catalogue)
    headers: dict[str, Any] = {
        "Vigueur-Batch-Rows": str(count_rows(body)),
        "Vigueur-Batch-Row-Limit": str(MAX_ROWS),
    }
    return StreamingResponse(stream(engine, body), media_type=MEDIA_TYPE, headers=headers)
