"""Schemathesis against the ASGI application, in process: every operation of the OpenAPI document, every
check, and the stateful links between operations — 0 server errors, 0 schema violations.

The application serves the store tests' fixture catalogue from an in-memory SQLite database (one per
module); writes are on (an admin token and a receipts token are configured, and sent). Generation is
derandomized (the same cases every run) and bounded (``EXAMPLES`` per operation; ``VIGUEUR_FUZZ_EXAMPLES``
raises it for a longer campaign), so that the suite stays within a few minutes on a busy 2-core machine.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import checks
from sqlalchemy.engine import Engine
from sqlmodel import Session

from api.catalogue.store import CACHE, load_tree
from api.http.app import create_app
from api.http.auth import ADMIN_TOKEN_ENV
from api.http.deps import get_session
from api.http.receipts_token import RECEIPTS_TOKEN_ENV
from api.settings import Settings
from tests.api.support import build_tree, sqlite_engine

EXAMPLES = int(os.environ.get("VIGUEUR_FUZZ_EXAMPLES", "120"))
TOKEN = "fuzz-token"
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@schemathesis.serializer(
    "application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines"
)
def _json_lines(_: Any, value: Any) -> bytes:
    """A batch body is documented as a string (JSON Lines text): sent as is; anything else as one line."""
    return value.encode("utf-8") if isinstance(value, str) else json.dumps(value).encode("utf-8")


_ENGINE: list[Engine] = []  # built on the first request: importing this module touches no database


def _session() -> Iterator[Session]:
    if not _ENGINE:
        engine = sqlite_engine()
        with Session(engine) as session:
            load_tree(session, build_tree(Path(tempfile.mkdtemp(prefix="vigueur-fuzz-")) / "versions"))
            session.commit()
        _ENGINE.append(engine)
    with Session(_ENGINE[0]) as session:
        yield session


# schemathesis starts the application's lifespan when it loads the schema (at collection, before any fixture):
# it gets a database of its own, never the user's default one (the routes use the override below).
APP = create_app(Settings(database_url="sqlite://"))
APP.dependency_overrides[get_session] = _session
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(autouse=True, scope="module")
def _writes_on() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ADMIN_TOKEN_ENV, TOKEN)
        patch.setenv(RECEIPTS_TOKEN_ENV, TOKEN)
        CACHE.clear()
        yield
    CACHE.clear()
    for engine in _ENGINE:
        engine.dispose()


# Two of schemathesis's checks judge a 4xx against what JSON Schema can say, and are adjusted:
# * positive_data_acceptance (« schema-valid request rejected ») is left out: the contract has rules that
#   JSON Schema cannot state, answered 422 naming the field by design and documented — an invoice before
#   its order, a known_at later than now, a receipt over 64 KB, 120.0 for an integer (JSON Schema calls it
#   an integer, the strict contract does not), a case file whose YAML says what its query does not;
# * negative_data_rejection (« schema-violating request accepted ») also counts 413 as a rejection, and
#   leaves out POST /v1/calculate/batch, which answers 200 with one « invalid » line per bad row by design.
BATCH = "/v1/calculate/batch"


def negative_data_rejected(ctx: Any, response: Any, case: Any) -> bool | None:
    if response.status_code == 413 or case.operation.path == BATCH:
        return None
    return checks.negative_data_rejection(ctx, response, case)


HEADERS = {"Authorization": f"Bearer {TOKEN}"}
EXCLUDED = [checks.positive_data_acceptance, checks.negative_data_rejection]


@schema.parametrize()
@SETTINGS
def test_every_operation_answers_as_documented(case: Any) -> None:
    case.call_and_validate(headers=HEADERS, excluded_checks=EXCLUDED, additional_checks=[negative_data_rejected])


class Workflow(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences of calls following the document's links (a receipt's id from POST /v1/calculate to GET and
    replay, a version id from a timeline to the version, …), each answer checked as above."""

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        return {"headers": HEADERS}

    def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
        case.validate_response(response, excluded_checks=EXCLUDED, additional_checks=[negative_data_rejected])


TestWorkflow = Workflow.TestCase
TestWorkflow.settings = settings(
    max_examples=max(10, EXAMPLES // 4),
    stateful_step_count=6,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
