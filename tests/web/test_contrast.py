"""The palette of the pages meets WCAG 2.2 contrast: text 4.5:1 (SC 1.4.3), shapes that carry meaning 3:1
(SC 1.4.11: the timeline's segments, the chart's lines). Computed from the colours style.css declares."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STYLE = Path(__file__).resolve().parents[2] / "api" / "web" / "static" / "style.css"
VARIABLE = re.compile(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;")

# (foreground, background): every pair the stylesheet puts text on.
TEXT_PAIRS = [
    ("ink", "paper"), ("muted", "paper"), ("link", "paper"), ("ink", "soft"), ("link", "soft"),
    ("on-grade", "official"), ("on-grade", "seed"), ("on-grade", "derived"), ("on-grade", "secondary"),
    ("ink", "mark"), ("ink", "cited"), ("del-ink", "del-bg"), ("ins-ink", "ins-bg"),
    ("pass", "paper"), ("fail", "paper"), ("paper", "link"), ("paper", "ink"), ("ink", "warn-bg"),
    ("link", "warn-bg"), ("muted", "soft"), ("bonus", "paper"), ("premium", "paper"),
]  # fmt: skip
# (shape, background): segments of the timeline bar and chart lines against the page; the focus ring.
SHAPE_PAIRS = [
    ("official", "paper"), ("seed", "paper"), ("derived", "paper"), ("secondary", "paper"), ("gap", "paper"),
    ("ended", "paper"), ("line", "paper"), ("bonus", "paper"), ("premium", "paper"), ("focus", "paper"),
    ("focus", "soft"),
]  # fmt: skip


def palette() -> dict[str, str]:
    return dict(VARIABLE.findall(STYLE.read_text(encoding="utf-8")))


def luminance(hex_colour: str) -> float:
    """Relative luminance (WCAG 2.2, « relative luminance »)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_of_known_pairs() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the classic AA grey
    assert contrast("#777777", "#ffffff") < 4.5


@pytest.mark.parametrize(("fg", "bg"), TEXT_PAIRS)
def test_text_is_readable(fg: str, bg: str) -> None:
    colours = palette()
    assert contrast(colours[fg], colours[bg]) >= 4.5, f"--{fg} on --{bg}"


@pytest.mark.parametrize(("shape", "bg"), SHAPE_PAIRS)
def test_shapes_stand_out(shape: str, bg: str) -> None:
    colours = palette()
    assert contrast(colours[shape], colours[bg]) >= 3.0, f"--{shape} on --{bg}"


def test_every_colour_of_the_palette_is_checked() -> None:
    checked = {name for pair in TEXT_PAIRS + SHAPE_PAIRS for name in pair}
    assert set(palette()) <= checked, f"colours never checked: {set(palette()) - checked}"
