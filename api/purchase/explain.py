"""Readable French/English traces of the JSON answers (`--explain`)."""

from __future__ import annotations

from typing import Any

SCHEME_NAMES = {"bonus": "bonus écologique", "conversion_premium": "prime à la conversion"}


def explain_calculation(doc: dict[str, Any]) -> str:
    lines: list[str] = []
    for r in doc["results"]:
        lines += _header(r)
        if r["status"] == "no_version_on_file":
            lines.append("")
            continue
        lines.append("  Étapes / Steps:")
        lines += [f"    • {s['citation']}: {s['text']}" for s in r["steps"]]
        verdict = {
            True: "éligible / eligible",
            False: "non éligible / not eligible",
            None: "indéterminé / undetermined",
        }
        lines.append(f"  Montant / Amount: {_amount(r)} — {verdict[r['eligible']]} ({r['paragraph']})")
        lines.append(f"  Motif / Reason: {r['reason']}")
        lines += [
            f"  Autre cas non retenu / Other case not kept: {a['citation']}: {a['text']} ({a['amount']} €)"
            for a in r["alternatives"]
        ]
        lines += [
            f"  Comparé / Compared: {c['version_id']}: " + (f"{c['amount']} €" if c["amount"] is not None else UNKNOWN)
            for c in r["compared"]
        ]
        lines += [f"  Fait manquant / Missing fact: {m}" for m in r["missing_facts"]]
        lines += [f"  Hypothèse / Assumption: {a}" for a in r["assumptions"]]
        lines += [f"  Lecture retenue / Reading: {x['text']}" for x in r["readings"]]
        if r["claim_deadline"]:
            lines.append(
                f"  Demande au plus tard le / Claim by: {r['claim_deadline']} ({r['claim_deadline_citation']})"
            )
        lines += [f"  Attention / Warning: {w}" for w in r["warnings"]]
        lines.append("")
    lines.append(f"Total: {_total(doc)}")
    return "\n".join(lines) + "\n"


UNKNOWN = "inconnu / not known"


def _amount(r: dict[str, Any]) -> str:
    if r["amount"] is None:
        return f"{UNKNOWN} ({r['status']})"
    if r.get("amount_is_lower_bound"):
        return f"≥ {r['amount']} € (minimum / lower bound: {r['status']})"
    return f"{r['amount']} €"


def _total(doc: dict[str, Any]) -> str:
    if doc["total_amount"] is None:
        return f"{UNKNOWN} (" + ", ".join(doc["total_unknown_for"]) + ")"
    if doc["total_is_lower_bound"]:
        return f"≥ {doc['total_amount']} € (minimum / lower bound)"
    return f"{doc['total_amount']} €"


def explain_resolution(doc: dict[str, Any]) -> str:
    lines: list[str] = []
    for r in doc["results"]:
        lines += _header(r)
        if r["versions_to_compute"]:
            lines.append(f"  Versions à calculer / Versions to compute: {', '.join(r['versions_to_compute'])}")
        lines += [f"  Attention / Warning: {w}" for w in r["warnings"]]
        lines.append("")
    return "\n".join(lines)


def _header(r: dict[str, Any]) -> list[str]:
    name = SCHEME_NAMES.get(r["scheme"], r["scheme"])
    lines = [f"{name} ({r['scheme']})", f"  Date décisive / Decisive date: {r['decisive_date']} ({r['decided_by']})"]
    if r["version_id"] is None:
        near = r["nearest_versions"] or {}
        lines.append(f"  Aucune version au catalogue / No version on file: {r['message']}")
        for side in ("before", "after"):
            if near.get(side):
                lines.append(f"  Version la plus proche / Nearest ({side}): {near[side]['version_id']}")
        lines += [f"  Note: {n}" for n in r["notes"]]
        return lines
    until = r["last_day_in_force"] or "…"
    lines.append(
        f"  Texte / Text: {r['citation']} — {r['version_id']} (en vigueur / in force {r['valid_from']} → {until}; "
        f"provenance: {r['provenance']})"
    )
    for c in r["transitional_clauses"]:
        state = {True: "OUVERTE / OPEN", False: "fermée / closed", None: "non évaluée / not evaluated"}[c["open"]]
        lines.append(
            f"  Clause transitoire / Transitional clause {c['id']} ({c['paragraph']}, {c['keeps']}): "
            f"{state} — {c['test']}"
        )
        lines.append(
            f"    Échéance / Deadline: {c['decisive_on_or_before']} ({c['deadline_basis']}: {c['deadline_reading']})"
        )
    lines += [f"  Note: {n}" for n in r["notes"]]
    return lines
