"""What changed between two versions of the same article: text (unified and word by word), numbers, metadata.

The same article includes its codification: two texts of the same scheme and role are wordings of one provision
(décret 2014-1672 art. 3 → C. énergie D. 251-7, both the bonus amounts), and their numbers are matched by
notion (« car_zero_cap » → « ev_cap »). Pure whitespace changes (spaces, line breaks) are not changes.

Words are compared as tokens that keep French numbers whole: « 6 300 » (thousands separated by a space,
a no-break or a narrow no-break space) is one token, so a change reads « 6 300 → 6 000 », not « 300 → 000 ».
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from api.catalogue.documents import version_metadata
from legislation import Version

TOKEN = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d+)?|\d+(?:,\d+)?|\w+|\s+|[^\w\s]", re.UNICODE)
PARAGRAPH = re.compile(r"^\s*((?:\d+°(?: bis| ter)?|[IVX]+\.|[a-z]\)))")
CONTEXT_WORDS = 8
NOT_METADATA = {"version_id", "version_hash", "parameters", "text", "last_day_in_force"}


class DifferentArticles(Exception):
    """The two versions are not wordings of the same article: there is no meaningful diff."""

    def __init__(self, a: Version, b: Version) -> None:
        super().__init__(
            f"{a.id} is a version of {a.article} ({a.citation}) and {b.id} of {b.article} ({b.citation}); "
            "a diff compares two versions of the same article, or of its codification (the same scheme and role)"
        )
        self.a = a
        self.b = b


def diff_versions(a: Version, b: Version) -> dict[str, Any]:
    """The diff document of ``GET /v1/versions/{a}/diff/{b}`` (from ``a`` to ``b``)."""
    if not is_same_provision(a, b):
        raise DifferentArticles(a, b)
    segments = word_diff(a.text, b.text)
    return {
        "article": b.article,
        "citation": b.citation,
        "codification": None if a.article == b.article else {"from_article": a.article, "to_article": b.article,
                                                               "from_citation": a.citation, "to_citation": b.citation},
        "from": _ref(a),
        "to": _ref(b),
        "identical_text": _blank_free(a.text) == _blank_free(b.text),
        "unified_diff": unified_diff(a, b),
        "changes": changes(segments, b.text),
        "words": segments,
        "parameters": parameter_changes(a, b),
        "metadata": metadata_changes(a, b),
    }


def is_same_provision(a: Version, b: Version) -> bool:
    """The same article, or its codification: another article with the same scheme and role."""
    return a.article == b.article or (a.scheme is b.scheme and a.role is b.role)


def _blank_free(text: str) -> str:
    return " ".join(text.split())


def _ref(version: Version) -> dict[str, Any]:
    return {
        "version_id": version.id,
        "citation": version.citation,
        "valid_from": version.valid_from.isoformat(),
        "valid_until": version.valid_until.isoformat() if version.valid_until else None,
        "version_hash": version.content_hash,
    }


def unified_diff(a: Version, b: Version) -> str:
    old = [_blank_free(line) for line in a.text.splitlines() if line.strip()]
    new = [_blank_free(line) for line in b.text.splitlines() if line.strip()]
    lines = difflib.unified_diff(old, new, fromfile=a.id, tofile=b.id, lineterm="")
    return "\n".join(lines) + "\n" if old != new else ""


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def word_diff(old: str, new: str) -> list[dict[str, Any]]:
    """The texts as segments: ``equal`` (text), ``replace`` (from, to), ``delete`` (from), ``insert`` (to)."""
    a, b = tokens(old), tokens(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    segments: list[dict[str, Any]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        before, after = "".join(a[i1:i2]), "".join(b[j1:j2])
        if op == "equal" or not (before.strip() or after.strip()):  # a pure whitespace change is no change
            if after:
                segments.append({"op": "equal", "text": after})
            continue
        if op == "replace":
            segments.append({"op": "replace", "from": before, "to": after})
        elif op == "delete":
            segments.append({"op": "delete", "from": before})
        else:
            segments.append({"op": "insert", "to": after})
    return _merge(segments)


def _merge(segments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fold a change, the blanks after it and the next change into one: « 7 000 euros » → « 6 000 € »."""
    merged: list[dict[str, Any]] = []
    for seg in segments:
        if (
            merged
            and seg["op"] != "equal"
            and len(merged) >= 2
            and merged[-2]["op"] != "equal"
            and merged[-1]["op"] == "equal"
            and not merged[-1]["text"].strip()
        ):
            blank = merged.pop()["text"]
            last = merged.pop()
            seg = {
                "op": "replace",
                "from": last.get("from", "") + blank + seg.get("from", ""),
                "to": last.get("to", "") + blank + seg.get("to", ""),
            }
            seg = _normalized(seg)
        merged.append(seg)
    return merged


def _normalized(seg: dict[str, Any]) -> dict[str, Any]:
    if not seg["from"].strip():
        return {"op": "insert", "to": seg["to"]}
    if not seg["to"].strip():
        return {"op": "delete", "from": seg["from"]}
    return seg


def changes(segments: list[dict[str, Any]], new_text: str) -> list[dict[str, Any]]:
    """The changed segments, each with a few words of context and its line (paragraph) in the new text."""
    out = []
    position = 0  # offset in the new text
    for i, seg in enumerate(segments):
        if seg["op"] == "equal":
            position += len(seg["text"])
            continue
        before = segments[i - 1]["text"] if i > 0 and segments[i - 1]["op"] == "equal" else ""
        after = segments[i + 1]["text"] if i + 1 < len(segments) and segments[i + 1]["op"] == "equal" else ""
        inserted = seg.get("to", "")
        at = (
            position + len(inserted) - len(inserted.lstrip())
        )  # an insert « \n\n3° … » is on the line of its 3°
        line_start = new_text.rfind("\n", 0, at) + 1
        line_end = new_text.find("\n", at)
        marker = PARAGRAPH.match(new_text[line_start : line_end if line_end >= 0 else len(new_text)])
        out.append(
            {
                "op": seg["op"],
                "from": seg.get("from"),
                "to": seg.get("to"),
                "context_before": _last_words(before),
                "context_after": _first_words(after),
                "line": new_text.count("\n", 0, at) + 1,
                "paragraph": marker.group(1) if marker else None,
            }
        )
        position += len(seg.get("to", ""))
    return out


def _last_words(text: str) -> str:
    words = text.rsplit("\n", 1)[-1].split(" ")
    return " ".join(words[-CONTEXT_WORDS:])


def _first_words(text: str) -> str:
    words = text.split("\n", 1)[0].split(" ")
    return " ".join(words[:CONTEXT_WORDS])


def parameter_changes(a: Version, b: Version) -> list[dict[str, Any]]:
    """The numbers of the barème that differ (null where a version does not have the parameter)."""
    out = []
    by_a = {p.notion_key: p for p in a.parameters.values()}
    by_b = {p.notion_key: p for p in b.parameters.values()}
    for notion in sorted(by_a.keys() | by_b.keys()):
        pa, pb = by_a.get(notion), by_b.get(notion)
        old = str(pa.value) if pa else None
        new = str(pb.value) if pb else None
        where = pb or pa
        if old != new and where is not None:
            change = {"name": where.name, "from": old, "to": new, "paragraph": where.paragraph}
            if pa is not None and pb is not None and pa.name != pb.name:
                change |= {"notion": notion, "from_name": pa.name}
            out.append(change)
    return out


def metadata_changes(a: Version, b: Version) -> list[dict[str, Any]]:
    """Fields other than the text and the numbers that differ: dates, source, calculator, clauses…"""
    ra, rb = version_metadata(a), version_metadata(b)
    return [
        {"field": k, "from": ra[k], "to": rb[k]} for k in ra if k not in NOT_METADATA and ra[k] != rb.get(k)
    ]
