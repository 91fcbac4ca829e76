"""Charts drawn on the server: step charts of a value against a date, as shapes for an inline SVG template
(``templates/_chart.svg``), and the positions of a scheme's timeline bar. No JavaScript, no external library:
the page prints and works offline. Every chart has its data beside it as a table (the accessible form)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

WIDTH = 760
HEIGHT = 260
LEFT = 64  # room for the amounts' labels
RIGHT = 16
TOP = 16
BOTTOM = 36  # room for the years' labels


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """A value over ``[start, until)``; None: not known there (drawn as a hatched band, never as 0)."""

    start: date
    until: date
    value: Decimal | None
    title: str
    href: str | None = None
    band: str = "unknown"  # a step without a value: « unknown » (hatched) or « ended » (the aid has ended)


@dataclass(frozen=True, slots=True, kw_only=True)
class Series:
    label: str
    css: str  # the class that colours it (style.css)
    steps: tuple[Step, ...]


@dataclass(slots=True)
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    lines: list[dict[str, object]] = field(default_factory=list)  # each step: x1, x2, y, css, title, href, label
    risers: list[dict[str, object]] = field(default_factory=list)  # vertical joins between steps of a series
    unknown: list[dict[str, object]] = field(default_factory=list)  # hatched bands: x, width, title
    x_ticks: list[dict[str, object]] = field(default_factory=list)
    y_ticks: list[dict[str, object]] = field(default_factory=list)
    legend: list[dict[str, str]] = field(default_factory=list)
    plot: dict[str, int] = field(default_factory=dict)


def step_chart(series: list[Series], start: date, until: date, unit: str = "€") -> Chart:
    """The shapes of a step chart over ``[start, until)`` with a 0-based value axis."""
    chart = Chart()
    span = max((until - start).days, 1)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    chart.plot = {"x": LEFT, "y": TOP, "w": plot_w, "h": plot_h, "bottom": TOP + plot_h}
    top_value = max((s.value for one in series for s in one.steps if s.value is not None), default=Decimal(0))
    scale_max = _nice(top_value)

    def x(day: date) -> float:
        clipped = min(max(day, start), until)
        return round(LEFT + plot_w * (clipped - start).days / span, 1)

    def y(value: Decimal) -> float:
        return round(TOP + plot_h - float(plot_h * value / scale_max), 1) if scale_max else TOP + plot_h

    for one in series:
        chart.legend.append({"label": one.label, "css": one.css})
        previous: tuple[float, float] | None = None
        for step in one.steps:
            x1, x2 = x(step.start), x(step.until)
            if step.value is None:
                chart.unknown.append(
                    {"x": x1, "width": max(x2 - x1, 1), "title": step.title, "href": step.href, "band": step.band}
                )
                previous = None
                continue
            level = y(step.value)
            chart.lines.append(
                {"x1": x1, "x2": x2, "y": level, "css": one.css, "title": step.title, "href": step.href,
                 "label": _short(step.value, unit), "wide": x2 - x1 > 56}
            )  # fmt: skip
            if previous is not None and previous[0] == x1 and previous[1] != level:
                chart.risers.append({"x": x1, "y1": previous[1], "y2": level, "css": one.css})
            previous = (x2, level)
    chart.y_ticks = [{"y": y(v), "label": _short(v, unit)} for v in _y_ticks(scale_max)]
    chart.x_ticks = [{"x": x(d), "label": label} for d, label in date_ticks(start, until)]
    return chart


def _nice(value: Decimal) -> Decimal:
    """A round maximum above ``value`` (1, 2, 2.5 or 5 × 10^n), so that the ticks read well."""
    if value <= 0:
        return Decimal(1)
    magnitude = Decimal(10) ** (len(str(int(value))) - 1) if value >= 1 else Decimal("0.01")
    for factor in (1, 2, Decimal("2.5"), 5, 10):
        if value * Decimal("1.1") <= magnitude * factor:
            return magnitude * factor
    return magnitude * 10


def _y_ticks(scale_max: Decimal) -> list[Decimal]:
    return [scale_max * i / 4 for i in range(5)]


def _short(value: Decimal, unit: str) -> str:
    text = f"{value.normalize():f}" if value == value.to_integral_value() else f"{value:f}".rstrip("0")
    whole, _, fraction = text.partition(".")
    grouped = f"{int(whole):,}".replace(",", "\u202f") if whole.lstrip("-").isdigit() else whole
    number = grouped + ("," + fraction if fraction else "")
    return f"{number}\u00a0{unit}" if unit else number


def date_ticks(start: date, until: date) -> list[tuple[date, str]]:
    """Ticks on 1 January (every year, or every 2, 5 years on a long span), or on each month's first on a short one."""
    days = (until - start).days
    if days <= 550:
        ticks = []
        month = date(start.year, start.month, 1)
        step = 1 if days <= 200 else 3
        while month < until:
            if month >= start and (month.month - 1) % step == 0:
                ticks.append((month, month.strftime("%Y-%m")))
            month = (month.replace(day=28) + timedelta(days=4)).replace(day=1)
        return ticks
    every = 1 if days <= 366 * 9 else 2 if days <= 366 * 20 else 5
    return [(date(year, 1, 1), str(year)) for year in range(start.year, until.year + 1)
            if start <= date(year, 1, 1) < until and year % every == 0]  # fmt: skip


def position(start: date, until: date | None, first: date, end: date) -> tuple[float, float] | None:
    """Left and width (per cent of the bar ``[first, end)``) of a period, clipped; None when outside."""
    span = (end - first).days
    last = min(until or end, end)
    begin = max(start, first)
    if last <= begin or span <= 0:
        return None
    return round(100 * (begin - first).days / span, 3), round(100 * (last - begin).days / span, 3)
