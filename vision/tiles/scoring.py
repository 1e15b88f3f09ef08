"""Score reads against rendered ground truth: right, unknown, wrong, missed, extra."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from vision.items import Item


def score(items: Sequence[Item], truths: Sequence[tuple[str | None, tuple[float, float]]],
          radius: float = 25.0) -> Counter[str]:
    """Match each truth (code, centre) to the nearest unused item within ``radius`` pixels.

    A truth whose code is None (a face-down tile, a cocked die) counts as ``right`` when its
    item is unknown and ``wrong`` when the item names a code.
    """
    counts: Counter[str] = Counter()
    used: set[int] = set()
    for code, (x, y) in truths:
        best, best_d = -1, radius
        for i, item in enumerate(items):
            d = ((item.center[0] - x) ** 2 + (item.center[1] - y) ** 2) ** 0.5
            if i not in used and d <= best_d:
                best, best_d = i, d
        if best < 0:
            counts["missed"] += 1
            continue
        used.add(best)
        read = items[best].code
        if read is None:
            counts["right" if code is None else "unknown"] += 1
        else:
            counts["right" if read == code else "wrong"] += 1
    counts["extra"] += len(items) - len(used)
    counts["total"] += len(truths)
    return counts
