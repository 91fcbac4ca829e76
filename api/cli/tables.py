"""The documents of the CLI drawn as rich tables for a terminal (the JSON stays the contract when piped)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text


def timelines(doc: dict[str, Any]) -> list[Any]:
    """``GET /v1/schemes/{scheme}/versions`` (one, or several under ``schemes``) as one table per scheme."""
    out: list[Any] = []
    for timeline in doc.get("schemes", [doc]):
        table = Table(title=f"{timeline['name']} ({timeline['scheme']})", title_justify="left")
        for column in ("in force", "version", "provenance", "calculator", "source"):
            table.add_column(column)
        summaries = {v["version_id"]: v for v in timeline["versions"]}
        for segment in timeline["timeline"]:
            period = f"{segment['start']} → {segment['end'] or '…'}"
            if segment["kind"] == "version":
                v = summaries[segment["version_id"]]
                table.add_row(period, v["version_id"], v["provenance"], v["calculator"] or "", v["source_decree"])
            else:
                kind = Text(segment["kind"].replace("_", " "), style="yellow")
                table.add_row(period, kind, "", "", segment["reason"])
        out.append(table)
    return out


def coverage(doc: dict[str, Any]) -> list[Any]:
    """``vigueur coverage``: one row per scheme, days per provenance grade, in declared gaps, with nothing."""
    schemes = doc["schemes"]
    grades = list(schemes[0]["in_versions"]["by_provenance"]) if schemes else []
    table = Table(title=f"coverage {schemes[0]['from']} → {schemes[0]['to']}" if schemes else "coverage")
    columns = ("scheme", "days", *grades, "in versions", "declared gaps", "ended", "nothing", "versions, gaps or ended")
    for column in columns:
        table.add_column(column, justify="left" if column == "scheme" else "right")
    out: list[Any] = [table]
    for s in schemes:
        v, g, e, n = s["in_versions"], s["in_declared_gaps"], s["after_the_end"], s["with_nothing"]
        table.add_row(
            s["scheme"], str(s["days"]), *(str(v["by_provenance"][k]) for k in grades),
            f"{v['days']} ({v['share']} %)", f"{g['days']} ({g['share']} %)", f"{e['days']} ({e['share']} %)",
            f"{n['days']} ({n['share']} %)", f"{s['answered_share']} %",
        )
        for hole in n["periods"]:
            near = hole["nearest_versions"]
            names = " / ".join((near[k] or {}).get("version_id") or "—" for k in ("before", "after"))
            out.append(Text(f"{s['scheme']}: nothing on file {hole['start']} → {hole['last_day']} "
                            f"({hole['days']} days); nearest versions: {names}", style="yellow"))
    return out


def in_force(doc: dict[str, Any]) -> list[Any]:
    """``GET /v1/schemes/{scheme}/in-force`` (one, or several under ``schemes``)."""
    out: list[Any] = []
    for found in doc.get("schemes", [doc]):
        out.append(Text(f"{found['scheme']} on {found['on']}:", style="bold"))
        out += version(found["version"])
    return out


def version(doc: dict[str, Any]) -> list[Any]:
    """``GET /v1/versions/{id}``: its metadata as a two-column table, then the verbatim text."""
    table = Table(show_header=False, title=doc["version_id"], title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    last = doc["last_day_in_force"] or "(open)"
    rows = [
        ("citation", doc["citation"]),
        ("title", doc["title"]),
        ("in force", f"{doc['valid_from']} → {last}"),
        ("provenance", f"{doc['provenance']} ({doc['period_confidence']})"),
        ("calculator", doc["calculator"] or "—"),
        ("source", doc["source"].get("decree") or ""),
        ("url", doc["source"].get("url") or ""),
        ("version_hash", doc["version_hash"]),
        ("text_hash", doc.get("text_hash") or ""),
        ("transitional clauses", str(len(doc["transitional_clauses"]))),
    ]
    for name, value in rows:
        if value:
            table.add_row(name, str(value))
    return [table, Text(doc["text"])]


def calculation(doc: dict[str, Any]) -> list[Any]:
    """``POST /v1/calculate``: one row per scheme, then the total (``--explain`` gives every step)."""
    table = Table(title="calculation", title_justify="left")
    for column in ("scheme", "status", "amount", "eligible", "version", "decisive date", "paragraph"):
        table.add_column(column, justify="right" if column == "amount" else "left")
    for r in doc["results"]:
        eligible = "" if r["eligible"] is None else ("yes" if r["eligible"] else "no")
        decisive = f"{r['decisive_date']} ({r['decided_by']})" if r.get("decisive_date") else ""
        amount = r["amount"] if r["amount"] is not None else "—"
        version = r["version_id"] or "—"
        table.add_row(r["scheme"], r["status"], amount, eligible, version, decisive, r["paragraph"] or "")
    return [table, Text(f"total: {doc['total_amount']} €", style="bold")]


def resolution(doc: dict[str, Any]) -> list[Any]:
    """``POST /v1/resolve``: the version in force per scheme and the transitional clauses examined."""
    table = Table(title="resolution", title_justify="left")
    for column in ("scheme", "status", "decisive date", "in force", "to compute", "open clauses"):
        table.add_column(column)
    for r in doc["results"]:
        opened = [c.get("id") or c.get("paragraph", "") for c in r["transitional_clauses"] if c.get("open")]
        decisive = f"{r['decisive_date']} ({r['decided_by']})" if r.get("decisive_date") else ""
        table.add_row(
            r["scheme"], r["status"], decisive, r["version_id"] or "—", ", ".join(r["versions_to_compute"]),
            ", ".join(str(o) for o in opened),
        )
    return [table]
