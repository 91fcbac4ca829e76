"""What a calculator returns: the amount, eligibility and the steps that cite their paragraphs."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One applied rule: the paragraph it comes from and what it gave."""

    citation: str
    text: str
    amount: Decimal | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """An interpretation of an ambiguous text that the calculator applied."""

    id: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Award:
    """The result of one version's calculator for one purchase.

    ``amount`` is None when it is not known: a fact the text needs is missing (``missing_facts``), or the
    text on file does not cover the vehicle while a text not on file may (``not_covered``). A refusal is an
    amount of 0.00 with ``eligible`` False: the text on file says nothing is due.
    """

    version_id: str
    amount: Decimal | None
    eligible: bool | None  # None when the text on file cannot decide
    reason: str
    paragraph: str  # the paragraph that decided the amount (or the refusal)
    steps: tuple[Step, ...] = ()
    assumptions: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()
    missing_facts: tuple[str, ...] = ()
    alternatives: tuple[Step, ...] = ()  # other paragraphs the purchase met, not kept
    not_covered: bool = False  # the text on file does not cover this vehicle; another text, not on file, may
