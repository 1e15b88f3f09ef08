"""The rules core's exception root and its precise subclasses."""

from __future__ import annotations


class RulesError(ValueError):
    """Root of every error raised by the rules core: the input broke a rule of the game."""


class NotationError(RulesError):
    """A card, tile, setting or dice text that cannot be read."""


class DuplicateCardError(RulesError):
    """The same card appears twice where a deck has it once."""


class CardCountError(RulesError):
    """A hand, setting or deal has the wrong number of cards."""


class FoulError(RulesError):
    """A setting whose two-card hand outranks its five-card hand, where a legal one is required."""


class HouseWayError(RulesError):
    """A house-way definition that is malformed, or that cannot set a hand."""


class ProfileError(RulesError):
    """A table profile value outside what the rules allow."""


class SettlementError(RulesError):
    """Wagers or hands that cannot be settled: bad amounts, over the limits, missing hands."""
