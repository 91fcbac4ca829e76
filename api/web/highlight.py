"""A version's verbatim text cut into runs, each knowing the parameters whose quote covers it.

Quotes overlap (« sans être inférieur à 1 000 euros » lies inside the cap's quote), so the text is cut at every
quote's start and end and each run carries every parameter covering it. The text itself is never changed: the
runs put back together are the verbatim text, byte for byte. A cited paragraph (a calculation step's citation)
is marked too: the quotes of its parameters, or, when no parameter cites it, the line where its marks start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from legislation import Parameter, Version

MARK = re.compile(r"([IVX]+\.|[IVX]+(?=\s|,|$)|\d+°|\d+er|[a-z]\)|[a-z]\s*(?=,|$))")


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """A piece of the text: the parameters quoting it, whether it starts one of their quotes, whether it is cited."""

    text: str
    parameters: tuple[str, ...] = ()
    starts: tuple[str, ...] = ()  # the parameters whose quote starts here (an anchor, a keyboard stop)
    cited: bool = False
    first_cited: bool = False


@dataclass(slots=True)
class _Cuts:
    points: set[int] = field(default_factory=set)
    spans: list[tuple[int, int, str | None]] = field(default_factory=list)  # (start, end, parameter or None: cited)

    def add(self, start: int, end: int, name: str | None) -> None:
        if end > start:
            self.points |= {start, end}
            self.spans.append((start, end, name))


def quote_span(text: str, parameter: Parameter) -> tuple[int, int] | None:
    """Where the parameter's quote is in the text (its first occurrence; the loader proved it is there)."""
    at = text.find(parameter.quote)
    return (at, at + len(parameter.quote)) if at >= 0 and parameter.quote else None


def runs(version: Version, cited: str | None = None) -> list[Run]:
    """The text in runs; ``cited`` is a paragraph (« 1° a), 2e alinéa ») to mark as the one a step cites."""
    text = version.text
    cuts = _Cuts(points={0, len(text)})
    cited_names = set()
    for name, parameter in sorted(version.parameters.items()):
        span = quote_span(text, parameter)
        if span is not None:
            cuts.add(*span, name)
            if cited is not None and parameter.paragraph == cited:
                cited_names.add(name)
    if cited and not cited_names and (line := paragraph_line(text, cited)) is not None:
        cuts.add(*line, None)
    starts_at: dict[int, list[str]] = {}
    for start, _, name in cuts.spans:
        if name is not None:
            starts_at.setdefault(start, []).append(name)
    points = sorted(cuts.points)
    out: list[Run] = []
    seen_cited = False
    for start, end in zip(points, points[1:], strict=False):
        covering = [n for s, e, n in cuts.spans if s <= start and end <= e]
        names = tuple(n for n in covering if n is not None)
        is_cited = None in covering or any(n in cited_names for n in names)
        out.append(
            Run(
                text=text[start:end],
                parameters=names,
                starts=tuple(starts_at.get(start, ())),
                cited=is_cited,
                first_cited=is_cited and not seen_cited,
            )
        )
        seen_cited = seen_cited or is_cited
    return out


def paragraph_marks(paragraph: str) -> list[str]:
    """« 1° a), 2e alinéa » → ["1°", "a)"]: the marks that open the paragraph's lines, outermost first."""
    head = paragraph.split(",")
    marks: list[str] = []
    for part in head:
        part = part.strip()
        if "alinéa" in part or not part:
            continue
        marks += [m.strip() for m in MARK.findall(part)]
    return marks


def paragraph_line(text: str, paragraph: str) -> tuple[int, int] | None:
    """The line where the paragraph's marks start (each mark on or after the previous one's line), or None."""
    marks = paragraph_marks(paragraph)
    if not marks:
        return None
    offset = 0
    found: tuple[int, int] | None = None
    lines = text.splitlines(keepends=True)
    position = 0
    starts = []
    for line in lines:
        starts.append(position)
        position += len(line)
    index = 0
    for mark in marks:
        while index < len(lines) and not lines[index].lstrip().startswith(mark):
            index += 1
        if index == len(lines):
            return found
        offset = starts[index]
        found = (offset, offset + len(lines[index].rstrip("\n")))
    return found
