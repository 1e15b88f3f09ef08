"""How a table plays, from a profile's ``[play]`` and ``[pot]`` tables, validated once.

``[play]``: ``mode`` (``bank``: players against a bank, the default; ``pot``: home play, no bank,
``rules.home_pot``), ``banking`` (``house``: the house banks unless a supervisor approves a
player, the default; ``rotation``: the bank is offered to each player in turn,
``rules.rotation``) and ``repeat_wager`` (``true``: "Deal" repeats a position's last wager unless
it is changed, [D4] l.19).  ``[pot]`` (only with ``mode = "pot"``): ``ante_cents`` and the
pot's ``foul`` policy.  Unknown keys and bad values are ConfigErrors naming them
(``docs/table_profiles.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..errors import ConfigError
from ..rules.config_check import check_keys
from ..rules.errors import RulesError
from ..rules.poker.home_pot import PotRules


class PlayMode(StrEnum):
    """Against a bank, or the home game's pot."""

    BANK = "bank"
    POT = "pot"


class Banking(StrEnum):
    """Who banks: the house (a player only when approved), or each player in turn."""

    HOUSE = "house"
    ROTATION = "rotation"


@dataclass(frozen=True, slots=True)
class TablePlay:
    """A validated ``[play]`` (and ``[pot]``) section."""

    mode: PlayMode = PlayMode.BANK
    banking: Banking = Banking.HOUSE
    repeat_wager: bool = False
    pot: PotRules | None = None  # set exactly when mode is "pot"

    @property
    def rotation(self) -> bool:
        """True when the bank is offered to each player in turn."""
        return self.banking is Banking.ROTATION


_PLAY_KEYS = ("mode", "banking", "repeat_wager")


def _choice(data: Mapping[str, object], key: str, kind: type[StrEnum], default: StrEnum,
            where: str) -> str:
    value = data.get(key, default.value)
    known = [m.value for m in kind]
    if value not in known:
        raise ConfigError(f"{where}: [play] {key} {value!r} is not one of {known}")
    return str(value)


def parse_play(play: Mapping[str, object], pot: Mapping[str, object] | None, where: str,
               game: str) -> TablePlay:
    """Validate a profile's ``[play]`` table and its ``[pot]`` table (None when absent)."""
    check_keys(play, _PLAY_KEYS, ConfigError, where, what="[play] key")
    mode = PlayMode(_choice(play, "mode", PlayMode, PlayMode.BANK, where))
    banking = Banking(_choice(play, "banking", Banking, Banking.HOUSE, where))
    repeat = play.get("repeat_wager", False)
    if not isinstance(repeat, bool):
        raise ConfigError(f"{where}: [play] repeat_wager {repeat!r} must be true or false")
    if mode is PlayMode.BANK:
        if pot is not None:
            raise ConfigError(f"{where}: a [pot] table needs [play] mode = 'pot'")
        return TablePlay(mode, banking, repeat)
    if game != "poker":
        raise ConfigError(f"{where}: [play] mode 'pot' (home play) is a Pai Gow Poker game, "
                          f"not {game!r}")
    if banking is not Banking.HOUSE:
        raise ConfigError(f"{where}: [play] banking {banking.value!r}: a pot game has no bank")
    if pot is None or "ante_cents" not in pot:
        raise ConfigError(f"{where}: [play] mode 'pot' needs [pot] ante_cents")
    try:
        rules = PotRules.from_mapping(pot)
    except RulesError as err:
        raise ConfigError(f"{where}: {err}") from err
    return TablePlay(mode, banking, repeat, rules)
