"""Auditable hashes: ``text_hash`` and ``version_hash`` recomputed from the two files of each version folder,
independently of the code (tomllib, hashlib and the rfc8785 package only, as the README shows)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from datetime import date
from pathlib import Path
from typing import Any

import rfc8785
from sqlmodel import Session
from typer.testing import CliRunner

from api.catalogue.loader import DEFAULT_VERSIONS_DIR
from api.cli.main import app
from tests.api.support import sqlite_engine

# The documented fields (README, « Auditable hashes ») and the defaults of the keys a file may leave out.
FIELDS = ("id", "scheme", "role", "article", "citation", "title", "valid_from", "valid_until", "source",
          "provenance", "period_confidence", "calculator", "parameters", "transitional", "relies_on",
          "claim_deadline_months", "claim_deadline_paragraph", "notes")  # fmt: skip
DEFAULTS: dict[str, Any] = {"scheme": None, "valid_until": None, "calculator": None, "parameters": {},
                            "transitional": [], "relies_on": [], "claim_deadline_months": None,
                            "claim_deadline_paragraph": "", "notes": ""}  # fmt: skip
SOURCE = ("decree", "decree_date", "jorf", "jorf_date", "nor", "eli", "url", "legiarti", "jorftext", "confidence",
          "notes")  # fmt: skip
CLAUSE = {"source": None, "kept_version_id": None, "kept_version_label": "", "new_vehicles_only": False,
          "branches": []}  # fmt: skip


def plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def source(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: plain(raw.get(k)) for k in SOURCE}


def recompute(folder: Path) -> tuple[str, str]:
    text = (folder / "text.txt").read_bytes()
    meta = tomllib.loads((folder / "version.toml").read_text(encoding="utf-8"))
    doc = {k: plain(meta.get(k, DEFAULTS.get(k))) for k in FIELDS}
    doc["source"] = source(meta["source"])
    doc["parameters"] = {n: {**spec, "value": str(spec["value"])} for n, spec in doc["parameters"].items()}
    doc["transitional"] = [
        plain({**CLAUSE, **c, "source": source(c["source"]) if "source" in c else None})
        for c in meta.get("transitional", [])
    ]
    # Keys that enter the object only when the file gives them a value other than their default (README).
    if meta.get("decisive_event", "invoice_or_first_rent") != "invoice_or_first_rent":
        doc["decisive_event"] = meta["decisive_event"]
    for clause, raw in zip(doc["transitional"], meta.get("transitional", []), strict=True):
        clause.pop("rules_date", None), clause.pop("yearly", None)
        clause.update({"rules_date": plain(raw["rules_date"])} if raw.get("rules_date") is not None else {})
        clause.update({"yearly": True} if raw.get("yearly") else {})
    doc["text_sha256"] = hashlib.sha256(text).hexdigest()
    return "sha256:" + hashlib.sha256(text).hexdigest(), "sha256:" + hashlib.sha256(rfc8785.dumps(doc)).hexdigest()


def test_both_hashes_recompute_from_the_files_of_every_version() -> None:
    runner = CliRunner()
    folders = sorted(p for p in DEFAULT_VERSIONS_DIR.iterdir() if (p / "version.toml").is_file())
    assert folders
    for folder in folders:
        shown = json.loads(runner.invoke(app, ["show", folder.name, "--json"]).stdout)
        assert (shown["text_hash"], shown["version_hash"]) == recompute(folder), folder.name


def test_revisions_recorded_with_the_former_hash_still_rebuild_and_a_load_supersedes_them(
    fixture_tree: Path, monkeypatch: Any
) -> None:
    from api.catalogue import hashing, loader, store

    engine = sqlite_engine()
    with monkeypatch.context() as patched:  # a database recorded before RFC 8785 hashes
        patched.setattr(hashing, "version_hash", hashing.legacy_version_hash)
        first = store.load_into(engine, fixture_tree)
    second = store.load_into(engine, fixture_tree)
    assert {v.change for v in second.versions} == {"superseded"}  # new revisions, history kept: append-only
    assert all(v.old_hash != v.new_hash for v in second.versions)
    with Session(engine) as session:
        then = session.get(store.LoadRow, first.load_id)
        old = store.rebuild_catalogue(session, then)  # verified against the hashes recorded then
        now = store.rebuild_catalogue(session)
    fresh = loader.load_catalogue(fixture_tree)
    current = {i: v.content_hash for i, v in fresh.versions.items()}
    assert {i: v.content_hash for i, v in now.versions.items()} == current
    recorded_then = {c.version_id: c.new_hash for c in first.versions}
    assert {i: v.content_hash for i, v in old.versions.items()} == recorded_then
