"""Plots as inline SVG drawn here (no script, no external files): bar charts with a reference
line, which is all the audit needs."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH = 640
HEIGHT = 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 12, 24, 48


def _number(value: float, prefix: str = "", suffix: str = "") -> str:
    sign = "-" if value < 0 else ""
    text = f"{abs(value):,.0f}" if abs(value) >= 100 else f"{abs(value):.3g}"
    return f"{sign}{prefix}{text}{suffix}"


def bar_chart(title: str, labels: Sequence[str], values: Sequence[float],
              reference: Sequence[float] | None = None, prefix: str = "",
              suffix: str = "") -> str:
    """A bar per label (negative values hang below zero); ``reference`` draws a tick per bar
    (an expected count, say); values print as ``prefix`` number ``suffix``.  Returns an
    ``<svg>`` element as text."""
    if len(labels) != len(values) or (reference is not None and len(reference) != len(values)):
        raise ValueError(f"{len(labels)} labels, {len(values)} values and "
                         f"{len(reference or [])} reference points do not line up")
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    points = [*values, *(reference or []), 0.0]
    high, low = max(points), min(points)
    span = (high - low) or 1.0
    step = plot_w / max(len(values), 1)

    def y(value: float) -> float:
        return _TOP + (high - value) / span * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{WIDTH}" '
             f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text x="{_LEFT}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
             f'<line x1="{_LEFT}" y1="{y(0):.1f}" x2="{WIDTH - _RIGHT}" y2="{y(0):.1f}" '
             f'stroke="#444"/>',
             f'<text x="{_LEFT - 4}" y="{y(high) + 4:.1f}" font-size="10" text-anchor="end">'
             f'{escape(_number(high, prefix, suffix))}</text>',
             f'<text x="{_LEFT - 4}" y="{y(low) + 4:.1f}" font-size="10" text-anchor="end">'
             f'{escape(_number(low, prefix, suffix))}</text>']
    every = max(1, len(labels) // 20)
    chars = max(3, int(step * every / 6.5))  # what fits under a bar (or a run of bars)
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = _LEFT + i * step
        top, bottom = sorted((y(value), y(0)))
        parts.append(f'<rect x="{x + step * 0.1:.1f}" y="{top:.1f}" width="{step * 0.8:.1f}" '
                     f'height="{max(bottom - top, 0.5):.1f}" fill="#3b6ea8">'
                     f'<title>{escape(label)}: {escape(_number(value, prefix, suffix))}</title>'
                     f'</rect>')
        if reference is not None:
            ry = y(reference[i])
            parts.append(f'<line x1="{x:.1f}" y1="{ry:.1f}" x2="{x + step:.1f}" y2="{ry:.1f}" '
                         f'stroke="#c0392b" stroke-width="2"/>')
        if i % every == 0:
            parts.append(f'<text x="{x + step / 2:.1f}" y="{HEIGHT - _BOTTOM + 14}" '
                         f'font-size="10" text-anchor="middle">{escape(_fit(label, chars))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _fit(label: str, chars: int) -> str:
    """A label cut to ``chars`` characters, keeping its end (``...no_pair``)."""
    return label if len(label) <= chars else "…" + label[-(chars - 1):]
