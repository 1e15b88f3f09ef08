"""What a run of the table did: one ``RoundResult`` per round, and the ``RunSummary``.

Money is in integer cents and printed as dollars; a settled round carries the house's net and
the commission taken, a voided one its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round ended: settled with the house's net and commission, or voided."""

    round_id: str
    game: str
    dice: str
    seats: int
    settled: bool
    house_net: int = 0
    commission: int = 0
    deviation: str | None = None
    fouls: int = 0
    void_reason: str | None = None
    faults: tuple[str, ...] = ()
    note: str | None = None  # what else the round did (home play: where the pot went)

    def line(self) -> str:
        """The round in one line."""
        head = f"{self.round_id} {self.game:<5} dice {self.dice:<5} {self.seats} seat(s)"
        if not self.settled:
            body = f"VOID: {self.void_reason}"
        else:
            body = f"house {self.house_net / 100:+.2f} commission {self.commission / 100:.2f}"
            if self.fouls:
                body += f", {self.fouls} foul(s)"
            if self.note:
                body += f", {self.note}"
            if self.deviation:
                body += f", DEVIATION: dealer set {self.deviation}"
        if self.faults:
            body += f" [faults: {', '.join(self.faults)}]"
        return f"{head}  {body}"


@dataclass
class RunSummary:
    """Every round this run finished, and where its draws came from."""

    randomness: str
    results: list[RoundResult] = field(default_factory=list)
    stopped: bool = False
    halted: str | None = None  # why the table stopped by itself (a device that stays lost)

    @property
    def settled(self) -> int:
        """Rounds settled."""
        return sum(1 for r in self.results if r.settled)

    @property
    def voids(self) -> int:
        """Rounds voided."""
        return sum(1 for r in self.results if not r.settled)

    @property
    def deviations(self) -> int:
        """Rounds where the dealer's deviation from the house way was flagged."""
        return sum(1 for r in self.results if r.deviation)

    @property
    def house_net(self) -> int:
        """The house's net over the settled rounds, in cents."""
        return sum(r.house_net for r in self.results)

    @property
    def commission(self) -> int:
        """Commission taken over the settled rounds, in cents."""
        return sum(r.commission for r in self.results)

    def text(self) -> str:
        """The summary printed at the end of a run."""
        fouls = sum(r.fouls for r in self.results)
        return "\n".join([
            f"{len(self.results)} round(s){' (stopped)' if self.stopped else ''}: "
            f"{self.settled} settled, {self.voids} voided",
            f"deviations flagged: {self.deviations}; player fouls: {fouls}",
            f"house net {self.house_net / 100:+.2f}, commission {self.commission / 100:.2f}",
            f"randomness: {self.randomness}",
            *([f"HALTED: {self.halted}"] if self.halted else []),
        ])


__all__ = ["RoundResult", "RunSummary"]
