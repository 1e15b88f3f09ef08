"""``paigow analyze tiles`` output: a short table for people, one JSON object for machines."""

from __future__ import annotations

from .tiles_odds import DEALER_HANDS, PLAYER_HANDS, Outcome, TileOdds
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
