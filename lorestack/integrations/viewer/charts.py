"""Inline SVG drawn on the server: the budget bar per tier and an item's retention curve.

Only numbers and escaped labels go into the markup, so a chart can never carry script.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from html import escape

from markupsafe import Markup

from lorestack.core.settings import DecaySettings

TIER_COLOURS = {"resident": "#4c6ef5", "catalog": "#12b886", "topk": "#f59f00"}


def tier_bar(name: str, used: int, budget: int, total_budget: int, width: int = 520) -> Markup:
    """One horizontal bar: the tier's share of the whole budget, filled by what it used."""
    total = max(total_budget, 1)
    room = max(0, min(budget, total)) / total * width
    filled = max(0, min(used, total)) / total * width
    colour = TIER_COLOURS.get(name, "#868e96")
    label = escape(f"{name}: {used} of {budget} tokens")
    return Markup(
        f'<svg class="bar" role="img" aria-label="{label}" width="{width}" height="18" '
        f'viewBox="0 0 {width} 18" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{label}</title>"
        f'<rect x="0" y="2" width="{width}" height="14" fill="#f1f3f5"/>'
        f'<rect x="0" y="2" width="{room:.1f}" height="14" fill="{colour}" fill-opacity="0.25"/>'
        f'<rect x="0" y="2" width="{filled:.1f}" height="14" fill="{colour}"/></svg>'
    )


@dataclass
class CurvePoint:
    day: float
    retention: float


def retention_points(
    item_type: str,
    anchor: datetime,
    now: datetime,
    settings: DecaySettings,
    *,
    access_count: int,
    human_confirmed: bool,
    horizon_days: float | None = None,
    steps: int = 60,
) -> tuple[list[CurvePoint], float]:
    """The curve from the last review (update or access) on, and today's position on it."""
    from lorestack.retrieval.decay import retention, strength_days

    strength = strength_days(item_type, settings, access_count)
    age_now = max(0.0, (now - anchor).total_seconds() / 86400.0)
    horizon = horizon_days or max(30.0, age_now * 1.5, (strength or 30.0) * 3)
    points = []
    for i in range(steps + 1):
        day = horizon * i / steps
        value = retention(
            item_type,
            anchor,
            anchor + timedelta(days=day),
            settings,
            access_count=access_count,
            human_confirmed=human_confirmed,
        )
        points.append(CurvePoint(day, value))
    return points, age_now


def retention_curve(
    points: list[CurvePoint], age_now: float, width: int = 520, height: int = 160
) -> Markup:
    pad_l, pad_b, pad_t, pad_r = 34, 22, 8, 8
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    horizon = points[-1].day or 1.0

    def xy(day: float, value: float) -> tuple[float, float]:
        return pad_l + day / horizon * plot_w, pad_t + (1 - value) * plot_h

    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(p.day, p.retention) for p in points))
    now_x = xy(min(age_now, horizon), 0)[0]
    label = escape(f"retention over {horizon:.0f} days; today is day {age_now:.0f}")
    parts = [
        f'<svg class="curve" role="img" aria-label="{label}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg"><title>{label}</title>',
        f'<rect x="{pad_l}" y="{pad_t}" width="{plot_w}" height="{plot_h}" fill="#f8f9fa"/>',
    ]
    for value in (0.0, 0.5, 1.0):
        _, y = xy(0, value)
        parts.append(
            f'<line x1="{pad_l}" y1="{y:.1f}" x2="{pad_l + plot_w}" y2="{y:.1f}" '
            f'stroke="#dee2e6"/><text x="{pad_l - 4}" y="{y + 4:.1f}" font-size="10" '
            f'text-anchor="end">{value:.1f}</text>'
        )
    parts.append(f'<polyline fill="none" stroke="#4c6ef5" stroke-width="2" points="{line}"/>')
    parts.append(
        f'<line x1="{now_x:.1f}" y1="{pad_t}" x2="{now_x:.1f}" y2="{pad_t + plot_h}" '
        f'stroke="#e03131" stroke-dasharray="4 3"/>'
    )
    parts.append(
        f'<text x="{now_x + 3:.1f}" y="{pad_t + 10}" font-size="10" fill="#e03131">today</text>'
    )
    parts.append(f'<text x="{pad_l}" y="{height - 6}" font-size="10">0 d</text>')
    parts.append(
        f'<text x="{pad_l + plot_w}" y="{height - 6}" font-size="10" '
        f'text-anchor="end">{horizon:.0f} d</text></svg>'
    )
    return Markup("".join(parts))
