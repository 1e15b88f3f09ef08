"""Output of the poker analyses: short tables for people, one JSON object for machines."""

from __future__ import annotations

from collections.abc import Sequence

from controller.rules.poker.hands import CATEGORY_NAMES

from .distribution import Distribution
from .ev import SettingValue
from .simulation import Simulation


def distribution_json(dist: Distribution, seconds: float) -> dict[str, object]:
    """Exact counts: ``high`` by category, ``low`` by two ranks (``A-A`` .. ``3-2``)."""
    return {"game": "poker", "way": dist.way, "hands": dist.hands, "classes": dist.classes,
            "high": dist.high, "low": dist.low, "seconds": round(seconds, 3)}


def distribution_text(dist: Distribution, seconds: float) -> str:
    """The high hands by category and the low hands by pair or top card."""
    n = dist.hands
    lines = [f"house way {dist.way}: {n:,} hands ({dist.classes:,} classes) in {seconds:.1f} s",
             "high hand (five cards)"]
    for name, (key, count) in zip(CATEGORY_NAMES, dist.high.items(), strict=True):
        lines.append(f"  {name:<16} {count:>12,} {count / n:>10.4%}   {key}")
    lines.append("low hand (two cards; --json for every hand)")
    pairs = [(k, c) for k, c in dist.low.items() if k[0] == k[2]]
    lines += [f"  pair {k:<11} {c:>12,} {c / n:>10.4%}" for k, c in pairs]
    for top in "AKQJT98765432":
        count = sum(c for k, c in dist.low.items() if k[0] == top and k[2] != top)
        if count:
            lines.append(f"  {top}-high{'':<10} {count:>12,} {count / n:>10.4%}")
    return "\n".join(lines)


def simulation_json(sim: Simulation, seconds: float) -> dict[str, object]:
    """Fractions, counts, the house edge with its 95 % interval, and the seed."""
    c = sim.counts
    win, loss, push = c.fractions()
    low, high = c.edge_interval(sim.commission)
    return {
        "game": "poker", "way": sim.way, "vs": sim.vs, "banking": sim.banking,
        "side": "banker" if sim.banking else "player", "rounds": c.total,
        "commission": float(sim.commission), "win": win, "loss": loss, "push": push,
        "house_edge": float(c.house_edge(sim.commission)), "ci95": [low, high],
        "standard_error": c.standard_error(sim.commission),
        "counts": {"win": c.win, "loss": c.loss, "push": c.push},
        "copies": {"low": sim.low_copies, "high": sim.high_copies},
        "seed": sim.seed, "seeded": sim.seeded, "seconds": round(seconds, 3),
    }


def simulation_text(sim: Simulation, seconds: float) -> str:
    """Win / loss / push and the house edge with its confidence interval."""
    c = sim.counts
    win, loss, push = c.fractions()
    low, high = c.edge_interval(sim.commission)
    side = "the player banks" if sim.banking else "the dealer banks"
    how = "given" if sim.seeded else "drawn from secrets"
    return "\n".join([
        f"Pai Gow Poker: {c.total:,} simulated rounds in {seconds:.1f} s "
        f"({c.total / max(seconds, 1e-9):,.0f} a second)",
        f"dealer plays {sim.way}; player plays {sim.vs}; {side}; "
        f"{float(sim.commission * 100):g}% commission on wins",
        f"{'banker' if sim.banking else 'player'}: win {win:.3%}  loss {loss:.3%}  "
        f"push {push:.3%}",
        f"house edge {float(c.house_edge(sim.commission)):.3%}  "
        f"(95% interval {low:.3%} .. {high:.3%})",
        f"copies: low hands {sim.low_copies / c.total:.3%}, high hands "
        f"{sim.high_copies / c.total:.3%}",
        f"seed {sim.seed} ({how}; --seed {sim.seed} repeats this run)",
    ])


def _setting_obj(value: SettingValue, chosen: bool) -> dict[str, object]:
    low_words, high_words = value.setting.words()
    s = value.setting.setting
    c = value.counts
    return {
        "low": [str(x) for x in s.low], "high": [str(x) for x in s.high],
        "low_rank": low_words, "high_rank": high_words,
        "ev": float(value.ev), "ev_exact": str(value.ev),
        "win": c.win, "loss": c.loss, "push": c.push, "house_way": chosen,
    }


def ev_json(hand: str, vs: str, values: Sequence[SettingValue], chosen: int | None,
            seconds: float) -> dict[str, object]:
    """Every legal setting, best first, with exact counts over the dealer's hands."""
    return {"game": "poker", "hand": hand.split(), "vs": vs,
            "dealer_hands": values[0].counts.total if values else 0,
            "settings": [_setting_obj(v, i == chosen) for i, v in enumerate(values)],
            "seconds": round(seconds, 3)}


def ev_text(hand: str, vs: str, values: Sequence[SettingValue], chosen: int | None,
            seconds: float) -> str:
    """One line per legal setting, best first; the house way's own setting marked."""
    total = values[0].counts.total if values else 0
    lines = [f"{hand}: {len(values)} legal settings against {total:,} dealer hands set by {vs} "
             f"({seconds:.1f} s)",
             f"{'low':<6} {'high':<15} {'EV':>8} {'win':>8} {'loss':>8} {'push':>8}"]
    for i, v in enumerate(values):
        s = v.setting.setting
        win, loss, push = v.counts.fractions()
        mark = f"  <- house way {vs}" if i == chosen else ""
        lines.append(f"{' '.join(map(str, s.low)):<6} {' '.join(map(str, s.high)):<15} "
                     f"{float(v.ev):>+8.4f} {win:>8.3%} {loss:>8.3%} {push:>8.3%}{mark}")
    return "\n".join(lines)
