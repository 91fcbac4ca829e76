"""The report of a run of cases: counts per version, the JSON report and the JUnit XML report.

The same report answers `vigueur cases run --json` and `POST /v1/cases/run`.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api.cases.files import CaseResult


def per_version(results: list[CaseResult]) -> dict[str, Counter[str]]:
    """passed / failed / error counts for each version a case expects (a case counts once per version)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        for version in result.case.versions:
            table[version][result.outcome] += 1
    return dict(sorted(table.items()))


def report(results: list[CaseResult], elapsed: float) -> dict[str, Any]:
    """The JSON report: totals, per-version counts, and each case with its checks."""
    from api.cases.files import NO_VERSION

    counts = Counter(r.outcome for r in results)
    return {
        "summary": {
            "cases": len(results),
            "passed": counts["passed"],
            "failed": counts["failed"],
            "errors": counts["error"],
            "seconds": round(elapsed, 3),
        },
        "per_version": [
            {
                "version_id": None if v == NO_VERSION else v,
                "cases": sum(c.values()),
                "passed": c["passed"],
                "failed": c["failed"],
                "errors": c["error"],
            }
            for v, c in per_version(results).items()
        ],
        "cases": [_case_report(r) for r in results],
    }


def _case_report(result: CaseResult) -> dict[str, Any]:
    case = result.case
    doc: dict[str, Any] = {
        "id": case.id,
        "title": case.title,
        "file": case.file,
        "line": case.line,
        "paragraph": case.paragraph,
        "outcome": result.outcome,
        "error": result.error,
        "checks": [
            {"scheme": c.scheme, "field": c.field, "expected": c.expected, "got": c.got, "ok": c.ok}
            for c in result.checks
        ],
    }
    if result.outcome == "failed" and result.document is not None:
        doc["steps"] = {r["scheme"]: r.get("steps", []) for r in result.document["results"]}
    return doc


def write_json(path: Path, results: list[CaseResult], elapsed: float) -> None:
    path.write_text(
        json.dumps(report(results, elapsed), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


def write_junit(path: Path, results: list[CaseResult], elapsed: float) -> None:
    """JUnit XML: a testsuite per case file, a testcase per case (classname = file stem, name = case id)."""
    root = ET.Element("testsuites", name="vigueur cases", tests=str(len(results)), time=f"{elapsed:.3f}")
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_file[result.case.file].append(result)
    for file, items in by_file.items():
        counts = Counter(r.outcome for r in items)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=file,
            tests=str(len(items)),
            failures=str(counts["failed"]),
            errors=str(counts["error"]),
            time=f"{sum(r.seconds for r in items):.3f}",
        )
        for result in items:
            case = result.case
            node = ET.SubElement(
                suite,
                "testcase",
                classname=Path(file).stem,
                name=case.id,
                file=file,
                line=str(case.line),
                time=f"{result.seconds:.4f}",
            )
            if result.outcome == "failed":
                diff = "; ".join(
                    f"{c.scheme}.{c.field}: expected {c.expected!r}, got {c.got!r}" for c in result.failures
                )
                failure = ET.SubElement(node, "failure", message=f"{case.id}: {diff}", type="mismatch")
                failure.text = _failure_text(result)
            elif result.outcome == "error":
                ET.SubElement(
                    node, "error", message=f"{case.id}: {result.error}", type="error"
                ).text = result.error
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _failure_text(result: CaseResult) -> str:
    lines = [result.case.title, f"source: {result.case.paragraph}"]
    lines += [f"{c.scheme}.{c.field}: expected {c.expected!r}, got {c.got!r}" for c in result.failures]
    for doc in (result.document or {}).get("results", []):
        lines.append(f"[{doc['scheme']}] {doc.get('version_id')} {doc.get('status')}: {doc.get('reason')}")
        lines += [f"  {s['citation']}: {s['text']}" for s in doc.get("steps", [])]
    lines += ["notes:", result.case.notes]
    return "\n".join(lines)
