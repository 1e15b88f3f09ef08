"""What both games' settlement reports share: the bank's totals (``--json``) and the closing
lines of the dealer's table (the co-bank's share, the house's commission)."""

from __future__ import annotations

from typing import Any

from ..rules.bank import Settlement
from ..rules.money import format_money


def bank_totals(result: Settlement[Any]) -> dict[str, object]:
    """The bank's side of a settlement, in cents: commission, co-banking, net by position."""
    return {
        "banker_commission": result.banker_commission,
        "commission_total": result.commission_total,
        "co_banked": result.co_banked,
        "banker_share": result.banker_share,
        "net_by_position": {str(k): v for k, v in sorted(result.net_by_position().items())},
    }


def bank_lines(result: Settlement[Any]) -> list[str]:
    """The dealer's table's last lines: a co-bank's share, then the house's commission."""
    lines = []
    if result.co_banked:
        lines.append(f"co-bank: the bank's {format_money(result.banker_gross)} is shared, position "
                     f"{result.banker} {format_money(result.banker_share)} (commission "
                     f"{format_money(result.banker_commission)}), the house the rest")
    lines.append(f"commission to the house: {format_money(result.commission_total)}")
    return lines


__all__ = ["bank_lines", "bank_totals"]
