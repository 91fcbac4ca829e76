"""Every number proved against its text: a parameter's value must be written in its quote.

The texts write numbers their own way, and the unit says which way:

- digits with the French grouping of thousands: ``7000``, ``7 000`` (space, no-break space U+00A0 or narrow
  no-break space U+202F), and the decimal comma: ``0,5``, ``8,25``;
- a rate (a fraction) as a percentage: 0.27 is ``27 %`` (``27%``, ``27 pour cent``), 0.0825 is ``8,25 %``;
- a period with its unit word, in digits or in words: 6 months is ``6 mois`` or ``six mois``, 24 months is
  also ``deux ans`` / ``24 mois``, 12 months ``un an`` / ``une année``; 15 years ``quinze ans``; two numbers may
  share the unit word (``entre trois et douze mois``: 3 months and 12 months);
- a calendar year in four digits without grouping (``2001``); the ordinal ``1er`` / ``premier`` for 1.

A number is matched whole: 200 is not found in « 1 200 euros » nor 6 in « 6 000 euros ». Pure: no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal

from legislation.enums import ParameterUnit

# Spaces that group thousands or separate a number from its sign in the texts.
SPACES = "[ \u00a0\u202f]"
_UNITS_WORDS = [
    *("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"),
    *("onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"),
]
_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}

# Units whose number is a period: it must be followed by its unit word (digits or words).
PERIOD_WORDS: dict[ParameterUnit, str] = {
    ParameterUnit.MONTH: "mois",
    ParameterUnit.YEAR: "(?:ans?|années?)",
    ParameterUnit.DAY: "jours?",
}


def french_words(n: int) -> set[str]:
    """The ways the texts write ``n`` (0 ≤ n < 1 000 000) in words, with the traditional and 1990 hyphens."""
    if not 0 <= n < 1_000_000:
        return set()
    words = _words(n)
    forms = {words, words.replace(" ", "-")}
    if n == 1:
        forms |= {"une", "premier", "première"}
    return forms


def _words(n: int) -> str:
    if n < 20:
        return _UNITS_WORDS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        if tens in (7, 9):  # soixante-dix, quatre-vingt-dix
            base = "soixante" if tens == 7 else "quatre-vingt"
            return f"{base}{' et ' if n == 71 else '-'}{_UNITS_WORDS[10 + unit]}"
        base = "quatre-vingt" if tens == 8 else _TENS[tens]
        if unit == 0:
            return "quatre-vingts" if tens == 8 else base
        return f"{base}{' et ' if unit == 1 and tens != 8 else '-'}{_UNITS_WORDS[unit]}"
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "cent" if hundreds == 1 else f"{_UNITS_WORDS[hundreds]} cent{'s' if rest == 0 else ''}"
        return head if rest == 0 else f"{head} {_words(rest)}"
    thousands, rest = divmod(n, 1000)
    head = "mille" if thousands == 1 else f"{_words(thousands)} mille"
    return head if rest == 0 else f"{head} {_words(rest)}"


def digit_forms(number: Decimal, *, grouped: bool = True) -> list[str]:
    """Regexes of ``number`` in digits: thousands grouped by a space or not, the decimal comma."""
    text = format(number.normalize(), "f") if number == number.to_integral_value() else format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    wholes = {whole}
    if grouped and len(whole) > 3:
        groups: list[str] = []
        rest = whole
        while len(rest) > 3:
            groups.insert(0, rest[-3:])
            rest = rest[:-3]
        groups.insert(0, rest)
        wholes.add(SPACES.join(groups))
    tail = f"[,.]{fraction}0*" if fraction else "(?:,0+)?"
    return [re.escape(sign) + w + tail for w in sorted(wholes)]


def value_forms(value: Decimal, unit: ParameterUnit) -> list[str]:
    """The regular expressions, any of which proves ``value`` in a quote, for this ``unit``.

    Each is anchored so that a number is only found whole (not inside a larger number or decimal).
    """
    before, after = r"(?<![\d,.])(?<!\d[ \u00a0\u202f])", r"(?!\d)(?![,.]\d)(?![ \u00a0\u202f]\d{3}(?!\d))"
    if unit is ParameterUnit.RATE:
        numbers = [f"{before}{d}{after}" for d in digit_forms(value * 100)]
        return [f"{n}{SPACES}?(?:%|pour{SPACES}cent)" for n in numbers]
    after += rf"(?!{SPACES}?%)(?!{SPACES}pour{SPACES}cent)"  # a percentage is a rate, nothing else
    if unit is ParameterUnit.CALENDAR_YEAR:
        return [f"{before}{d}{after}" for d in digit_forms(value, grouped=False)]
    numbers = [f"{before}{d}{after}" for d in digit_forms(value)]
    if value == 1:
        numbers += [rf"{before}1(?:er|re|ère){after}"]
    if unit not in PERIOD_WORDS:
        return numbers
    forms = _period_forms(numbers, value, unit)
    if unit is ParameterUnit.MONTH and value > 0 and value % 12 == 0:
        years = value / 12
        forms += _period_forms([f"{before}{d}{after}" for d in digit_forms(years)], years, ParameterUnit.YEAR)
    if unit is ParameterUnit.YEAR:
        months = value * 12
        forms += _period_forms([f"{before}{d}{after}" for d in digit_forms(months)], months, ParameterUnit.MONTH)
    return forms


def _period_forms(numbers: list[str], value: Decimal, unit: ParameterUnit) -> list[str]:
    written = list(numbers)
    if value == value.to_integral_value():
        written += [rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in sorted(french_words(int(value)), key=len)]
    # « entre trois et douze mois »: the first of two numbers sharing one unit word is a period too.
    shared = rf"(?:{SPACES}+(?:et|à|ou){SPACES}+[\w-]+)?"
    return [f"(?:{w}){shared}{SPACES}+{PERIOD_WORDS[unit]}(?!\\w)" for w in written]


def value_in_quote(value: Decimal, unit: ParameterUnit, quote: str) -> bool:
    """True when ``quote`` writes ``value`` in one of the forms of its ``unit``."""
    return any(re.search(form, quote, re.IGNORECASE) for form in value_forms(value, unit))


def check_value_in_quote(value: Decimal, unit: ParameterUnit, quote: str) -> str | None:
    """None when the quote proves the value; otherwise why not, in words a reviewer can act on."""
    if value_in_quote(value, unit, quote):
        return None
    return f"{value} ({unit.value}) is not written in its quote {quote!r}; " + _expected(value, unit)


def _expected(value: Decimal, unit: ParameterUnit) -> str:
    if unit is ParameterUnit.RATE:
        shown = format((value * 100).normalize(), "f").replace(".", ",")
        return f"a rate is written as a percentage (« {shown} % »)"
    if unit in PERIOD_WORDS:
        return f"a period is written with its unit word, in digits or words (« {value} {unit.value} »)"
    return "the number is looked for whole, in digits, thousands grouped or not (« 7 000 », « 0,5 »)"


__all__ = ["check_value_in_quote", "digit_forms", "french_words", "value_forms", "value_in_quote"]
