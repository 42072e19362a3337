"""A rating's history as a small line chart: plain SVG made on the server (no script)."""

from __future__ import annotations

from markupsafe import Markup

WIDTH, HEIGHT, PAD = 320, 120, 24


def rating_chart(points: list[int], title: str) -> Markup:
    """The ratings after each game, oldest first, as an SVG line (its lowest and highest
    values written at the left)."""
    low, high = min(points), max(points)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def xy(i: int, v: int) -> str:
        x = PAD + i * step
        y = HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD)
        return f"{x:.1f},{y:.1f}"

    line = " ".join(xy(i, v) for i, v in enumerate(points))
    label = f"{title}: rating from {points[0]} to {points[-1]} over {len(points) - 1} games"
    return Markup(
        f'<svg class="rating-chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}"><title>{Markup.escape(label)}</title>'
        f'<text x="2" y="{PAD}" font-size="10">{high}</text>'
        f'<text x="2" y="{HEIGHT - PAD + 10}" font-size="10">{low}</text>'
        f'<polyline fill="none" stroke="#2e7d32" stroke-width="2" points="{line}"/></svg>')
