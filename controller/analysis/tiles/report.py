"""``paigow analyze tiles`` output: a short table for people, one JSON object for machines."""

from __future__ import annotations

from controller.rules.tiles.setting import RankedTileSetting

from ..outcome import Outcome
from .differences import WayDifferences
from .odds import DEALER_HANDS, PLAYER_HANDS, TileOdds
from .ways import OPTIMAL


def _player_name(odds: TileOdds) -> str:
    return f"{OPTIMAL} (best response to {odds.way})" if odds.vs == OPTIMAL else odds.vs


def odds_json(odds: TileOdds, seconds: float) -> dict[str, object]:
    """Fractions and the exact counts, from the analysed side (the banker with ``--banking``)."""
    out = odds.outcome
    win, loss, push = out.fractions()
    return {
        "game": "tiles", "way": odds.way, "vs": odds.vs, "banking": odds.banking,
        "side": odds.side, "commission": float(odds.commission),
        "win": win, "loss": loss, "push": push, "house_edge": float(odds.house_edge),
        "counts": {"win": out.win, "loss": out.loss, "push": out.push},
        "matchups": out.total,
        "other_side": {"side": "player" if odds.banking else "banker",
                       "house_edge": float(odds.other_edge)},
        "seconds": round(seconds, 3),
    }


def _row(label: str, out: Outcome, edge: float) -> str:
    win, loss, push = out.fractions()
    return f"{label:<8} {win:>8.3%} {loss:>8.3%} {push:>8.3%} {edge:>11.3%}"


def odds_text(odds: TileOdds, seconds: float) -> str:
    """Win / loss / push and the house edge for the player and the banker."""
    out = odds.outcome
    bank = "the player banks" if odds.banking else "the dealer banks"
    player_out = out.mirrored() if odds.banking else out
    player_edge, bank_edge = ((odds.other_edge, odds.house_edge) if odds.banking
                              else (odds.house_edge, odds.other_edge))
    lines = [
        f"Pai Gow tiles: {out.total:,} matchups ({PLAYER_HANDS:,} player hands x "
        f"{DEALER_HANDS:,} dealer hands) in {seconds:.1f} s",
        f"dealer plays {odds.way}; player plays {_player_name(odds)}",
        f"{bank}; {float(odds.commission * 100):g}% commission on wins",
        f"{'':<8} {'win':>8} {'loss':>8} {'push':>8} {'house edge':>11}",
        _row("player", player_out, float(player_edge)) + ("" if odds.banking else "  <- analysed"),
        _row("banker", player_out.mirrored(), float(bank_edge))
        + ("  <- analysed" if odds.banking else ""),
        f"counts ({odds.side}): win {out.win:,}  loss {out.loss:,}  push {out.push:,}",
    ]
    lines.append("(the banker's edge: a player banking in these same matchups)" if not odds.banking
                 else "(the player's edge: the dealer's hand played against this bank)")
    return "\n".join(lines)


def _setting_text(ranked: RankedTileSetting) -> str:
    low, high = ranked.words()
    return f"{ranked.setting} ({low} / {high})"


def differences_json(result: WayDifferences, seconds: float) -> dict[str, object]:
    """Both runs' figures and every class set differently, with its gain as a fraction."""
    return {
        "game": "tiles", "way": result.base.way, "vs": result.other.vs,
        "banking": result.base.banking, "side": result.base.side,
        "commission": float(result.base.commission),
        "house_edge": {"way": float(result.base.house_edge),
                       "vs": float(result.other.house_edge)},
        "gain": float(result.gain), "classes": len(result.differences), "hands": result.hands,
        "differences": [{
            "tiles": [str(t) for t in d.hand], "hands": d.hands,
            "way": {"low": [str(t) for t in d.base.setting.low],
                    "high": [str(t) for t in d.base.setting.high], "rule": d.base_rule},
            "vs": {"low": [str(t) for t in d.other.setting.low],
                   "high": [str(t) for t in d.other.setting.high], "rule": d.other_rule},
            "gain": float(d.gain),
        } for d in result.differences],
        "seconds": round(seconds, 3),
    }


def differences_text(result: WayDifferences, seconds: float) -> str:
    """The hands set differently, largest gain first, and what they are worth in all."""
    base, other = result.base, result.other
    who = "the player banks" if base.banking else "the dealer banks"
    lines = [
        f"Pai Gow tiles: hands {_player_name(other)} sets differently from {base.way}, "
        f"against a dealer playing {base.way} ({who}; {float(base.commission * 100):g}% "
        f"commission), in {seconds:.1f} s",
        f"{len(result.differences)} face classes, {result.hands:,} of {PLAYER_HANDS:,} hands; "
        f"house edge ({base.side}) {float(base.house_edge):.4%} with {base.way}, "
        f"{float(other.house_edge):.4%} with {other.vs}: {other.vs} gains "
        f"{float(result.gain):+.4%}",
        "gain = the difference's share of the edge change, over all matchups",
        f"{'tiles':<16} {'hands':>5} {'gain':>9}  {base.way} -> {other.vs}",
    ]
    for d in result.differences:
        lines.append(f"{' '.join(map(str, d.hand)):<16} {d.hands:>5} {float(d.gain):>+9.5%}  "
                     f"{_setting_text(d.base)} [{d.base_rule}] -> {_setting_text(d.other)} "
                     f"[{d.other_rule}]")
    return "\n".join(lines)
