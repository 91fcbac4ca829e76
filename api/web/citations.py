"""From a citation in an answer (« décret n° 2014-1672, art. 3, 1° a), 2e alinéa ») to the version that says it
and the paragraph to highlight on its page.

A step cites its version's citation followed by the paragraph. The version is found among those the answer
used (the version computed, the versions compared or kept, what they rely on), else among the versions in force
on the decisive date; the longest citation that starts the step's wins (« art. D. 251-7 » over « art. D. 251 »).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from legislation import Catalogue, Version


@dataclass(frozen=True, slots=True, kw_only=True)
class Cited:
    version_id: str
    paragraph: str | None  # None: the citation names the whole text


def split_citation(citation: str, version: Version) -> str | None | bool:
    """The paragraph after the version's citation; None for the whole text; False when it is not this version's."""
    if citation == version.citation:
        return None
    prefix = version.citation + ", "
    if citation.startswith(prefix):
        return citation[len(prefix) :].strip() or None
    return False


def find_cited(catalogue: Catalogue, citation: str, used: Iterable[str], on: date | None = None) -> Cited | None:
    """The version and paragraph ``citation`` points to, or None when no version on file is cited so."""
    preferred: list[Version] = []
    for version_id in used:
        version = catalogue.versions.get(version_id)
        if version is not None and version not in preferred:
            preferred.append(version)
            preferred += [catalogue.versions[r] for r in version.relies_on if r in catalogue.versions]
    pools = [preferred]
    if on is not None:
        pools.append(sorted(catalogue.in_force_texts(on), key=lambda v: v.id))
    for pool in pools:
        best: tuple[int, Cited] | None = None
        for version in pool:
            paragraph = split_citation(citation, version)
            if paragraph is False:
                continue
            size = len(version.citation)
            if best is None or size > best[0]:
                best = (size, Cited(version_id=version.id, paragraph=paragraph if isinstance(paragraph, str) else None))
        if best is not None:
            return best[1]
    return None


def used_ids(result: dict[str, object]) -> list[str]:
    """The versions one scheme's result names: computed, compared, kept by an open clause."""
    found: list[str] = []
    version_id = result.get("version_id")
    if isinstance(version_id, str):
        found.append(version_id)
    for key in ("compared", "transitional_clauses"):
        items = result.get(key)
        if isinstance(items, list):
            for item in items:
                if not isinstance(item, dict):
                    continue
                candidate = item.get("version_id") if key == "compared" else item.get("kept_version_id")
                if isinstance(candidate, str):
                    found.append(candidate)
    return found
