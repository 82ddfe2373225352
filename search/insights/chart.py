"""Searches per day as an SVG bar chart, rendered on the server: no script, no CDN, no library.

Pure: counts in, markup out. Every bar carries a <title> (the browser's tooltip, and what a
screen reader reads); the chart as a whole is role="img" with a label. Colours are the admin's
own (its CSS variables), so the chart follows the dark theme; text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

from search.insights.insights import DayCount

WIDTH = 760
HEIGHT = 220
LEFT = 44  # room for the y axis' labels
RIGHT = 8
TOP = 12
BOTTOM = 28  # room for the date labels


def _nice_ceiling(value: int) -> int:
    """The smallest 1, 2 or 5 x 10^n at or above `value` (at least 1): the y axis' top."""
    if value <= 1:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def daily_chart_svg(days: Sequence[DayCount], *, label: str = "Searches per day") -> SafeString:
    """Bars of searches per day, the part that found nothing drawn over each in another colour."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = _nice_ceiling(max((d.searches for d in days), default=0))
    slot = plot_w / max(len(days), 1)
    bar = max(slot * 0.8, 1.0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="insights-chart" id="insights-chart" role="img" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" aria-label="{escape(label)}">',
             f"<title>{escape(label)}</title>"]
    for fraction in (0, 0.5, 1):  # gridlines and y labels at 0, half, top
        y = TOP + plot_h * (1 - fraction)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="axis">'
                     f"{int(top * fraction) if fraction < 1 or top >= 1 else top}</text>")
    label_every = max(1, math.ceil(len(days) / 8))
    for i, day in enumerate(days):
        x = LEFT + i * slot + (slot - bar) / 2
        height = plot_h * day.searches / top
        zero_height = plot_h * day.zero_results / top
        tip = escape(f"{day.day.isoformat()}: {day.searches} searches, {day.zero_results} with no results")
        parts.append(f'<g class="day" data-day="{day.day.isoformat()}" data-searches="{day.searches}" '
                     f'data-zero="{day.zero_results}"><title>{tip}</title>')
        parts.append(f'<rect x="{x:.1f}" y="{TOP + plot_h - height:.1f}" width="{bar:.1f}" height="{height:.1f}" '
                     f'class="bar"/>')
        if day.zero_results:
            parts.append(f'<rect x="{x:.1f}" y="{TOP + plot_h - zero_height:.1f}" width="{bar:.1f}" '
                         f'height="{zero_height:.1f}" class="bar-zero"/>')
        parts.append("</g>")
        if i % label_every == 0 or i == len(days) - 1 and len(days) <= 8:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" class="axis">'
                         f"{day.day.strftime('%m-%d')}</text>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every interpolated text is escaped above
