"""Test support for the store and the API: a small versions/ tree, engines (SQLite, PostgreSQL), snapshots.

The fixture tree is built from the repository's reference version (D. 251-7, 2020-06-01) and a
successor made for the tests only: the same wording with the natural-person cap « 7 000 euros » turned
into « 6 000 euros » and one transitional clause; plus a text-only conditions version. Its values are
known here, whatever versions other work adds to versions/.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from api.catalogue.db import create_tables, make_engine
from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.catalogue.tables import AUDIT_TABLES

REFERENCE = "D251-7.2020-06-01"
SUCCESSOR = "D251-7.2021-01-21"
CONDITIONS = "D251-1.2020-06-01"
CLAUSE_WORDING = (
    "Les dispositions du présent article dans leur rédaction antérieure demeurent applicables aux "
    "véhicules commandés avant le 21 janvier 2021 et facturés au plus tard le 20 avril 2021."
)
NO_POSTGRES = (
    "TEST_DATABASE_URL is not set: no PostgreSQL for this run (.ci/run sets it when a server answers "
    "on 127.0.0.1:5432)"
)

SUCCESSOR_CLAUSE = f'''
[[transitional]]
id = "orders-before-2021-01-21"
keeps = "previous"
kept_version_id = "{REFERENCE}"
order_test = "ordered_before"
order_limit = 2021-01-21
decisive_on_or_before = 2021-04-20
deadline_basis = "explicit"
deadline_reading = "fixture: the date is written in the clause"
paragraph = "dernier alinéa"
wording = "{CLAUSE_WORDING}"
'''

CONDITIONS_TOML = f'''id = "{CONDITIONS}"
role = "conditions"
article = "D251-1"
citation = "C. énergie, art. D. 251-1"
title = "Conditions d'attribution (fixture des tests)"
valid_from = 2020-06-01
provenance = "seed"
period_confidence = "guess"

[source]
decree = "Fixture decree of the store tests"
confidence = "guess"
'''

CATALOGUE_TOML = """[[gaps]]
scheme = "bonus"
start = 2019-01-01
end = 2020-06-01
reason = "fixture gap: the 2019 wordings are not on file"
"""


KEPT_2019 = 'kept_version_id = "D251-7.2019-01-01"\n'
RELIES_D251_1_1 = 'relies_on = ["D251-1-1.2020-12-09"]\n'


def alone(toml_text: str) -> str:
    """D251-7.2020-06-01's version.toml without its links to versions absent from a fixture tree: the 2019 wording
    its clause keeps, and D. 251-1-1 (the used-vehicle bonus from 2020-12-09) its calculator applies."""
    return sub(sub(toml_text, KEPT_2019, ""), RELIES_D251_1_1, "")


def without_kept_2019(version_dir: Path) -> None:
    """A lone copy of D251-7.2020-06-01: its clause keeps D251-7.2019-01-01 and its calculator applies
    D251-1-1.2020-12-09, both absent from the copy's tree."""
    toml = version_dir / "version.toml"
    toml.write_text(alone(toml.read_text(encoding="utf-8")), encoding="utf-8")


def sub(text: str, old: str, new: str) -> str:
    assert old in text, f"the reference version no longer contains {old!r}: update tests/api/support.py"
    return text.replace(old, new)


def build_tree(root: Path) -> Path:
    """Write the fixture tree under ``root`` and return it."""
    root.mkdir(parents=True, exist_ok=True)
    source = DEFAULT_VERSIONS_DIR / REFERENCE
    shutil.copytree(source, root / REFERENCE)
    text = (source / "text.txt").read_bytes().decode("utf-8")
    # The fixture holds neither the 2019 wording its clause keeps nor the versions before it: the clause keeps a
    # version not on file here.
    meta = alone((source / "version.toml").read_text(encoding="utf-8"))
    (root / REFERENCE / "version.toml").write_text(meta, encoding="utf-8")
    (root / SUCCESSOR).mkdir()
    (root / SUCCESSOR / "text.txt").write_bytes(
        (sub(text, "7 000 euros", "6 000 euros") + "\n" + CLAUSE_WORDING).encode()
    )
    meta = sub(meta, f'id = "{REFERENCE}"', f'id = "{SUCCESSOR}"')
    meta = sub(meta, "valid_from = 2020-06-01", "valid_from = 2021-01-21")
    meta = sub(meta, "valid_until = 2021-01-21", "valid_until = 2021-07-01")
    meta = sub(meta, 'ev_cap_natural = { value = "7000"', 'ev_cap_natural = { value = "6000"')
    meta = sub(meta, "7 000 euros", "6 000 euros")
    (root / SUCCESSOR / "version.toml").write_text(meta + SUCCESSOR_CLAUSE, encoding="utf-8")
    (root / CONDITIONS).mkdir()
    (root / CONDITIONS / "version.toml").write_text(CONDITIONS_TOML, encoding="utf-8")
    (root / CONDITIONS / "text.txt").write_bytes(b"Texte des conditions (fixture des tests du store).")
    (root / "catalogue.toml").write_text(CATALOGUE_TOML, encoding="utf-8")
    return root


def raise_successor_cap(tree: Path) -> None:
    """The successor's natural-person cap « 6 000 euros » becomes « 6 100 euros », in the text and its number."""
    text = tree / SUCCESSOR / "text.txt"
    text.write_text(sub(text.read_text(encoding="utf-8"), "6 000 euros", "6 100 euros"), encoding="utf-8")
    toml = tree / SUCCESSOR / "version.toml"
    meta = sub(toml.read_text(encoding="utf-8"), 'ev_cap_natural = { value = "6000"', 'ev_cap_natural = { value = "6100"')  # noqa: E501
    toml.write_text(meta.replace("6 000 euros", "6 100 euros"), encoding="utf-8")


def copy_tree(tree: Path, destination: Path) -> Path:
    shutil.copytree(tree, destination)
    return destination


def sqlite_engine() -> Engine:
    """An in-memory SQLite database (one connection shared by every session: StaticPool), migrated."""
    engine = make_engine("sqlite://")
    create_tables(engine)
    return engine


@contextmanager
def postgres_engine(migrate: bool = True) -> Iterator[Engine]:
    """A PostgreSQL engine on a schema of its own (dropped afterwards), so runs never collide; migrated to
    the head revision unless ``migrate`` is false (an empty schema)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(NO_POSTGRES)
    schema = f"vigueur_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(url)
    with admin.begin() as connection:
        # The migrations create btree_gist where it is missing: here, once and for all in « public », never
        # in a test schema (dropping that schema would drop the extension under the others).
        ensure_btree_gist(connection)
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    try:
        if migrate:
            create_tables(engine)  # the migrations, in the test's own schema
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def ensure_btree_gist(connection: sa.Connection) -> None:
    connection.execute(sa.text("SELECT pg_advisory_xact_lock(4242)"))  # two test runs at once
    connection.execute(sa.text("CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public"))


@contextmanager
def engine_for(backend: str) -> Iterator[Engine]:
    if backend == "postgresql":
        with postgres_engine() as engine:
            yield engine
        return
    engine = sqlite_engine()
    try:
        yield engine
    finally:
        engine.dispose()


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def snapshot(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every catalogue table, sorted: two equal snapshots mean nothing changed."""
    out = {}
    with engine.connect() as connection:
        for model in AUDIT_TABLES:
            table = model.__table__  # type: ignore[attr-defined]
            rows = connection.execute(sa.select(table)).all()
            out[table.name] = sorted((tuple(r) for r in rows), key=repr)
    return out
