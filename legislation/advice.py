"""Advice in words from a purchase's amount timeline, in English and French, each piece citing its text.

- « Invoice on or before 2015-03-31 to keep 2 475 € (…) »: the last day of a segment followed by a lower or
  unknown amount;
- « From 2015-04-01: 1 500 € (…) »: each change of amount or status after the window's first day;
- the order-date what-ifs (an option): for each transitional clause of a version in force in the window whose
  order test the purchase fails, the same timeline with the order date moved to the last day the clause
  accepts — « An order placed before 2015-01-01 would keep 2 475 € until 2015-03-31 (…) », or « The aid ends
  for orders from … » when that order would be paid and the purchase's is not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal

from legislation.enums import OrderTest, Scheme
from legislation.facts import Purchase
from legislation.fast.engine import Engine
from legislation.resolver import order_passes
from legislation.row import Row
from legislation.segments import PurchaseTimeline, Segment, amount_timeline
from legislation.timeline import Catalogue
from legislation.versions import TransitionalClause

KEEP_UNTIL, FROM, ORDER_BEFORE, ENDS_FOR_ORDERS = "keep_until", "from", "order_before", "ends_for_orders"


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """One piece of advice: what to do by when, what it gives, and the text that says so."""

    kind: str  # keep_until | from | order_before | ends_for_orders
    scheme: Scheme
    day: date  # the day the advice is about (last day to invoice, first day of a change, order limit)
    amount: Decimal | None
    citation: str
    en: str
    fr: str
    until: date | None = None  # order what-ifs: the last decisive day the earlier order keeps the amount


def euros(amount: Decimal | None) -> str:
    """« 2 475 € », « 5 400,27 € » in French style grouping; « amount not known » when None."""
    if amount is None:
        return "?"
    whole = amount == amount.to_integral_value()
    text = f"{amount:,.0f}" if whole else f"{amount:,.2f}"
    return text.replace(",", " ") + " €"


def _what(segment: Segment, french: bool) -> str:
    if segment.amount is not None:
        bound = (" au moins" if french else " at least") if segment.amount_is_lower_bound else ""
        return f"{bound.strip()} {euros(segment.amount)}".strip()
    if segment.status == "ended":
        return "l'aide a pris fin" if french else "the aid has ended"
    if segment.status == "no_version_on_file":
        return "pas de version du texte sur fichier" if french else "no version of the text on file"
    if segment.status == "missing_facts":
        return "montant inconnu : un fait manque" if french else "amount not known: a fact is missing"
    return "montant inconnu" if french else "amount not known"


def _citation(segment: Segment) -> str:
    return segment.paragraph or segment.version_id or ""


def _cited(citation: str) -> str:
    return f" ({citation})" if citation else ""


def timeline_advice(timeline: PurchaseTimeline) -> list[Advice]:
    """« Invoice on or before … to keep … » and « From …: … » for each scheme, in date order."""
    lease = timeline.decided_by == "first_rent_date"
    act_en = "Pay the first rent" if lease else "Invoice"
    act_fr = "Verser le premier loyer" if lease else "Facturer"
    found: list[Advice] = []
    for scheme, segments in timeline.segments.items():
        for before, after in zip(segments, segments[1:], strict=False):
            if before.amount == after.amount and before.status == after.status:
                continue
            # A gap of the catalogue (« no version on file ») is not a loss: the amount there is not known. The end
            # of the aid (« ended ») is one: nothing is due after it.
            lower = before.amount is not None and (
                (after.amount is not None and after.amount < before.amount)
                or (after.status == "ended" and before.amount > 0)
            )
            if lower:
                last, cite = before.last_day, _citation(before)
                found.append(
                    Advice(
                        kind=KEEP_UNTIL, scheme=scheme, day=last, amount=before.amount, citation=cite,
                        en=f"{act_en} on or before {last} to keep {_what(before, False)} ({cite})",
                        fr=f"{act_fr} au plus tard le {last} pour conserver {_what(before, True)} ({cite})",
                    )
                )  # fmt: skip
            cite = _citation(after)
            found.append(
                Advice(
                    kind=FROM, scheme=scheme, day=after.start, amount=after.amount, citation=cite,
                    en=f"From {after.start}: {_what(after, False)}{_cited(cite)}",
                    fr=f"À partir du {after.start} : {_what(after, True)}{_cited(cite)}",
                )
            )  # fmt: skip
    return found


def last_accepted_order(clause: TransitionalClause) -> date:
    """The last order day the clause's order test accepts."""
    if clause.order_test is OrderTest.ORDERED_BEFORE:
        return clause.order_limit - timedelta(days=1)
    return clause.order_limit


def order_what_ifs(
    catalogue: Catalogue,
    purchase: Purchase | Row,
    timeline: PurchaseTimeline,
    engine: Engine | None = None,
) -> list[Advice]:
    """The same computation with the order date moved to the last day each missed clause accepts.

    One what-if per scheme and order day (clauses of one text often share their limit): the advice gives the
    first stretch of decisive days on which the earlier order would be paid more, and its paragraph.
    """
    found: list[Advice] = []
    for scheme, segments in timeline.segments.items():
        limits: dict[date, TransitionalClause] = {}
        for segment in segments:
            version = catalogue.versions.get(segment.version_id or "")
            for clause in version.transitional if version is not None else ():
                order = timeline.order_date
                if order is None or not order_passes(clause, order):
                    limits.setdefault(last_accepted_order(clause), clause)
        for moved_order, clause in sorted(limits.items(), key=lambda item: item[0], reverse=True):
            advice = _what_if(catalogue, purchase, timeline, scheme, moved_order, clause, engine)
            if advice is not None:
                found.append(advice)
    return found


def _what_if(
    catalogue: Catalogue,
    purchase: Purchase | Row,
    timeline: PurchaseTimeline,
    scheme: Scheme,
    moved_order: date,
    clause: TransitionalClause,
    engine: Engine | None,
) -> Advice | None:
    moved = replace(purchase, order_date=moved_order, schemes=(scheme,))
    if isinstance(moved, Row):
        moved = replace(moved, source=None)
    start = max(timeline.start, moved_order)
    if timeline.until <= start:
        return None
    other = amount_timeline(catalogue, moved, start, timeline.until, engine)
    actual = timeline.segments[scheme]
    better = [s for s in other.segments[scheme] if _pays_more(s, _at(actual, s.start))]
    if not better:
        return None
    first = better[0]
    last = first
    for segment in better[1:]:
        if segment.start != last.until or segment.amount != first.amount:
            break
        last = segment
    return _order_advice(scheme, clause, first, last.last_day, _at(actual, first.start))


def _pays_more(segment: Segment, now: Segment | None) -> bool:
    if segment.amount is None or not segment.open_clauses:
        return False
    return now is None or now.amount is None or now.amount < segment.amount


def _at(segments: tuple[Segment, ...], day: date) -> Segment | None:
    return next((s for s in segments if s.start <= day < s.until), None)


def _order_advice(
    scheme: Scheme, clause: TransitionalClause, segment: Segment, until: date, now: Segment | None
) -> Advice:
    before = clause.order_test is OrderTest.ORDERED_BEFORE
    sign_en, sign_fr = ("before", "avant le") if before else ("on or before", "au plus tard le")
    limit = clause.order_limit
    first_refused = limit if before else limit + timedelta(days=1)
    label = f" ({clause.kept_version_label})" if clause.kept_version_label else ""
    cite = _citation(segment)
    if segment.kept_version_id is not None and clause.paragraph not in cite:
        cite = f"{clause.paragraph}; {cite}"
    amount_en, amount_fr = _what(segment, False), _what(segment, True)
    if now is not None and now.amount == 0:
        return Advice(
            kind=ENDS_FOR_ORDERS, scheme=scheme, day=first_refused, amount=segment.amount, citation=cite,
            until=until,
            en=f"The aid ends for orders from {first_refused}: an order placed {sign_en} {limit} would keep "
            f"{amount_en}{label} until {until} ({cite})",
            fr=f"L'aide prend fin pour les commandes à partir du {first_refused} : une commande passée {sign_fr} "
            f"{limit} conserverait {amount_fr}{label} jusqu'au {until} ({cite})",
        )  # fmt: skip
    return Advice(
        kind=ORDER_BEFORE, scheme=scheme, day=limit, amount=segment.amount, citation=cite, until=until,
        en=f"An order placed {sign_en} {limit} would keep {amount_en}{label} until {until} ({cite})",
        fr=f"Une commande passée {sign_fr} {limit} conserverait {amount_fr}{label} jusqu'au {until} ({cite})",
    )  # fmt: skip


__all__ = ["Advice", "euros", "last_accepted_order", "order_what_ifs", "timeline_advice"]
