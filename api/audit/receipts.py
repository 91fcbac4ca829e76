"""Receipts: a calculation kept for audit, and its replay.

A receipt holds the request (canonical: re-serialised once validated, see :mod:`api.audit.policy`), the
response as answered (byte for byte the JSON of ``vigueur calculate``), the knowledge instant, the
catalogue load that was the latest knowledge then (its tree hash fingerprints every version and gap), and
the revisions the calculation used (each version it cites, the versions a transitional clause kept, the
texts they rely on) with their ids and content hashes.

A replay recomputes the request twice: with the same revisions — the catalogue as that load left it,
rebuilt from the store row by row and verified hash by hash — and with today's catalogue; it shows both and,
where they differ from the receipt, a diff field by field. A replay records nothing: a receipt is never
changed (the database refuses it).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime
from typing import Any

from sqlmodel import Session

from api.audit.policy import canonical_request
from api.catalogue import store
from api.catalogue.store import KnownCatalogue, StoreIntegrityError
from api.catalogue.tables import LoadRow, ReceiptRow
from api.purchase.render import calculate_document
from api.purchase.request import dumps, parse_request
from api.versioning import catalogue_commit, code_commit, software_version
from legislation import Catalogue

RECEIPT_ID_LENGTH = 32


class UnknownReceipt(Exception):
    def __init__(self, receipt_id: str) -> None:
        super().__init__(f"no receipt with id {receipt_id!r}")
        self.receipt_id = receipt_id


def sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def used_versions(doc: dict[str, Any], catalogue: Catalogue) -> list[str]:
    """The versions a calculation used: cited, compared, kept by an open clause, and what they rely on."""
    found: list[str] = []
    for result in doc["results"]:
        found += [result["version_id"]] if result["version_id"] else []
        found += [c["version_id"] for c in result["compared"]]
        found += [
            c["kept_version_id"]
            for c in result["transitional_clauses"]
            if c["open"] and c["kept_version_id"] is not None
        ]
    seen: list[str] = []
    while found:
        version_id = found.pop(0)
        if version_id in seen or version_id not in catalogue.versions:
            continue
        seen.append(version_id)
        found += list(catalogue.versions[version_id].relies_on)
    return sorted(seen)


def record(
    session: Session, known: KnownCatalogue, request: bytes, response: str, *, now: datetime
) -> ReceiptRow:
    """Store a receipt of ``response`` (computed from ``request`` with ``known``) and commit it."""
    rows = store.revisions_at(session, known.load)
    revisions = []
    for version_id in used_versions(json.loads(response), known.catalogue):
        row = rows[version_id]
        if row.content_hash != known.catalogue.versions[version_id].content_hash:
            raise StoreIntegrityError(
                f"revision {row.revision_id} of {version_id} is not the version computed"
            )
        revisions.append(
            {"version_id": version_id, "revision_id": row.revision_id, "version_hash": row.content_hash}
        )
    text = canonical_request(request)  # never the raw body: a receipt is kept for good (api/audit/policy.py)
    receipt = ReceiptRow(
        receipt_id=uuid.uuid4().hex,
        created_at=now,
        known_at=known.known_at or now,
        load_id=known.load_id,
        tree_hash=known.load.tree_hash,
        request=text,
        request_hash=sha256(text),
        response=response,
        response_hash=sha256(response),
        revisions=revisions,
        software_version=software_version(),
        code_commit=code_commit(),
        catalogue_commit=catalogue_commit(),
    )
    session.add(receipt)
    session.commit()
    return receipt


def get(session: Session, receipt_id: str) -> ReceiptRow:
    row = session.get(ReceiptRow, receipt_id) if _well_formed(receipt_id) else None
    if row is None:
        raise UnknownReceipt(receipt_id)
    return row


def _well_formed(receipt_id: str) -> bool:
    return len(receipt_id) == RECEIPT_ID_LENGTH and all(c in "0123456789abcdef" for c in receipt_id)


def document(session: Session, receipt: ReceiptRow) -> dict[str, Any]:
    """What ``GET /v1/receipts/{id}`` and ``vigueur receipts show`` answer."""
    load = session.get(LoadRow, receipt.load_id)
    assert load is not None  # a foreign key
    return {
        "receipt_id": receipt.receipt_id,
        "created_at": receipt.created_at.isoformat(),
        "known_at": receipt.known_at.isoformat(),
        "catalogue": _catalogue(load),
        "revisions": receipt.revisions,
        "request_hash": receipt.request_hash,
        "response_hash": receipt.response_hash,
        "software_version": receipt.software_version,
        "code_commit": receipt.code_commit,
        "catalogue_commit": receipt.catalogue_commit,
        "request": json.loads(receipt.request),
        "response": json.loads(receipt.response),
        "links": links(receipt.receipt_id),
    }


def links(receipt_id: str) -> dict[str, str]:
    return {"self": f"/v1/receipts/{receipt_id}", "replay": f"/v1/receipts/{receipt_id}/replay"}


def _catalogue(load: LoadRow) -> dict[str, Any]:
    return {"load_id": load.id, "recorded_at": load.recorded_at.isoformat(), "tree_hash": load.tree_hash}


def replay(session: Session, receipt: ReceiptRow, *, now: datetime) -> dict[str, Any]:
    """Recompute the receipt's request with the same revisions and with today's catalogue."""
    request = parse_request(receipt.request)
    recorded = json.loads(receipt.response)
    load = session.get(LoadRow, receipt.load_id)
    assert load is not None
    then = store.KnownCatalogue(store.rebuild_catalogue(session, load), load, receipt.known_at)
    verified = _verify(session, receipt, then)
    today = store.read_known(session)
    runs = {}
    for name, known in (("same_revisions", then), ("today", today)):
        doc = calculate_document(known.catalogue, request)
        text = dumps(doc)
        runs[name] = {
            "known_at": (known.known_at or now).isoformat(),
            "catalogue": _catalogue(known.load),
            "revisions": verified if known is then else _revisions(session, known, doc),
            "total_amount": doc["total_amount"],
            "response_hash": sha256(text),
            "identical_to_receipt": text == receipt.response,
            "differences": json_diff(recorded, doc),
            "response": doc,
        }
    return {
        "receipt_id": receipt.receipt_id,
        "replayed_at": now.isoformat(),
        "receipt": {
            "known_at": receipt.known_at.isoformat(),
            "catalogue": _catalogue(load),
            "total_amount": recorded["total_amount"],
            "response_hash": receipt.response_hash,
            "software_version": receipt.software_version,
        },
        "same_revisions": runs["same_revisions"],
        "today": runs["today"],
        "today_differs": not runs["today"]["identical_to_receipt"],
        "links": links(receipt.receipt_id),
    }


def _verify(session: Session, receipt: ReceiptRow, then: KnownCatalogue) -> list[dict[str, Any]]:
    """Each revision of the receipt, rebuilt by its id and checked: the same content hash, current then."""
    current = store.revisions_at(session, then.load)
    out = []
    for r in receipt.revisions:
        version = store.rebuild_revision(session, r["revision_id"])  # raises when its rows lost their hash
        row = current.get(r["version_id"])
        if (
            version.id != r["version_id"]
            or version.content_hash != r["version_hash"]
            or row is None
            or row.revision_id != r["revision_id"]
            or then.catalogue.versions[version.id].content_hash != r["version_hash"]
        ):
            raise StoreIntegrityError(
                f"receipt {receipt.receipt_id}: revision {r['revision_id']} of {r['version_id']} does not "
                f"rebuild to {r['version_hash']} in the catalogue of load {receipt.load_id}"
            )
        out.append(r | {"verified": True})
    return out


def _revisions(session: Session, known: KnownCatalogue, doc: dict[str, Any]) -> list[dict[str, Any]]:
    rows = store.revisions_at(session, known.load)
    return [
        {"version_id": v, "revision_id": rows[v].revision_id, "version_hash": rows[v].content_hash}
        for v in used_versions(doc, known.catalogue)
    ]


def json_diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """Every leaf that differs between two JSON documents, by path (« results[0].amount »)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in list(old) + [k for k in new if k not in old]:
            out += json_diff(old.get(key), new.get(key), f"{path}.{key}" if path else key)
        return out
    if isinstance(old, list) and isinstance(new, list):
        out = []
        for i in range(max(len(old), len(new))):
            out += json_diff(
                old[i] if i < len(old) else None, new[i] if i < len(new) else None, f"{path}[{i}]"
            )
        return out
    return [] if old == new else [{"path": path, "from": old, "to": new}]
