"""What lies on a table's felt at one moment, region by region, as data with a JSON form.

A ``TableState`` names, for each region of a layout that holds something, what it holds:

- ``Hand(codes)``: cards (``"As"``, ``"Jk"``) or tiles (``"2-4"``) face up, in a seat's or
  the dealer's low or high box;
- ``Packet(count)``: a face-down packet of cards or a stack of tiles, in a low or high box
  (where the dealer lays what a position receives);
- ``Dice(values)``: the dice, in the dice area;
- ``Chips(count)``: a stack of chips on a bet circle (nothing the camera reads: a distractor).

A region not named holds nothing. The JSON form is one object per state,
``{"game": "poker", "regions": {"seat2.high": {"hand": ["As", "Kd"]}, "dice": {"dice": [3,
5, 6]}, "seat2.bet": {"chips": 3}, "seat3.high": {"packet": 7}}}``, the truth file a rendered
recording keeps beside its frames. ``check(layout)`` refuses a state the layout cannot show:
an unknown region, a content in the wrong kind of region, a hand of the wrong size, a card or
tile that is no code or shows more often than a deck or set holds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..cards.codes import CODES as CARD_CODES
from ..errors import VisionError
from ..layout import DICE, Layout
from ..tiles.faces import copies

Game = Literal["poker", "tiles"]
GAMES: tuple[Game, ...] = ("poker", "tiles")
# Cards (tiles) in a low and a high hand, and in a packet (stack), per game.
HAND_SIZES: dict[Game, dict[str, int]] = {"poker": {"low": 2, "high": 5},
                                          "tiles": {"low": 2, "high": 2}}
PACKET_SIZES: dict[Game, int] = {"poker": 7, "tiles": 4}
DICE_COUNT = 3
MOST_CHIPS = 20  # a stack taller than this topples; the renderer draws it from above anyway


class StateError(VisionError, ValueError):
    """A table state that is malformed or that its layout cannot show."""


@dataclass(frozen=True)
class Hand:
    """Cards or tiles face up, in the order they are laid (the first at the bottom)."""

    codes: tuple[str, ...]


@dataclass(frozen=True)
class Packet:
    """A face-down packet of ``count`` cards, or stack of ``count`` tiles."""

    count: int


@dataclass(frozen=True)
class Dice:
    """The dice as they came to rest: their top faces."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Chips:
    """A stack of ``count`` chips on a bet circle."""

    count: int


Content = Hand | Packet | Dice | Chips
_KEYS: dict[str, type[Content]] = {"hand": Hand, "packet": Packet, "dice": Dice, "chips": Chips}


@dataclass(frozen=True)
class TableState:
    """The felt of a ``game`` at one moment: each region that holds something, sorted by name."""

    game: Game
    regions: tuple[tuple[str, Content], ...] = ()

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise StateError(f"game {self.game!r}: expected one of {', '.join(GAMES)}")
        names = [n for n, _ in self.regions]
        if len(set(names)) != len(names):
            twice = sorted(n for n, k in Counter(names).items() if k > 1)
            raise StateError(f"region {twice[0]!r} is named twice in one state")
        object.__setattr__(self, "regions", tuple(sorted(self.regions, key=lambda r: r[0])))

    @classmethod
    def of(cls, game: Game, regions: Mapping[str, Content]) -> TableState:
        """The state holding ``regions`` (region name to content)."""
        return cls(game, tuple(regions.items()))

    def at(self, region: str) -> Content | None:
        """What ``region`` holds, or ``None``."""
        return dict(self.regions).get(region)

    def put(self, region: str, content: Content | None) -> TableState:
        """The same state with ``region`` holding ``content`` (``None``: cleared)."""
        held = dict(self.regions)
        held.pop(region, None)
        if content is not None:
            held[region] = content
        return TableState.of(self.game, held)

    def changed(self, other: TableState) -> tuple[str, ...]:
        """The regions whose content differs between this state and ``other``, sorted."""
        mine, theirs = dict(self.regions), dict(other.regions)
        return tuple(sorted(n for n in set(mine) | set(theirs) if mine.get(n) != theirs.get(n)))

    def hands(self) -> dict[str, tuple[str, ...]]:
        """Each region holding a face-up hand, and its codes."""
        return {n: c.codes for n, c in self.regions if isinstance(c, Hand)}

    def check(self, layout: Layout) -> None:
        """A ``StateError`` naming the first region ``layout`` cannot show as this state says."""
        names = {n for n, _ in layout.regions}
        seen: Counter[str] = Counter()
        for name, content in self.regions:
            if name not in names:
                raise StateError(f"layout {layout.name!r} has no region {name!r}")
            _check_content(self.game, name, content)
            if isinstance(content, Hand):
                seen.update(content.codes)
        for code, count in seen.items():
            most = 1 if self.game == "poker" else copies(code)
            if count > most:
                raise StateError(f"{code!r} lies {count} times on the felt; a "
                                 f"{'deck' if self.game == 'poker' else 'set'} holds {most}")

    def to_json(self) -> dict[str, Any]:
        """The state as a JSON-ready object (the module docstring shows it)."""
        out: dict[str, Any] = {}
        for name, c in self.regions:
            if isinstance(c, Hand):
                out[name] = {"hand": list(c.codes)}
            elif isinstance(c, Dice):
                out[name] = {"dice": list(c.values)}
            else:
                out[name] = {"packet" if isinstance(c, Packet) else "chips": c.count}
        return {"game": self.game, "regions": out}

    @classmethod
    def from_json(cls, data: Any) -> TableState:
        """The state back from ``to_json``'s object; a ``StateError`` naming what is wrong."""
        if not isinstance(data, dict) or set(data) != {"game", "regions"}:
            raise StateError(f"a table state is an object with 'game' and 'regions', "
                             f"got {data!r}")
        regions = data["regions"]
        if not isinstance(regions, dict):
            raise StateError(f"'regions' must be an object, got {regions!r}")
        return cls.of(data["game"], {name: _content(name, value)
                                     for name, value in regions.items()})


def _content(name: str, value: Any) -> Content:
    if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in _KEYS:
        raise StateError(f"region {name!r}: expected one of {{'hand': [...]}}, {{'packet': "
                         f"N}}, {{'dice': [...]}}, {{'chips': N}}, got {value!r}")
    key, body = next(iter(value.items()))
    if key in ("hand", "dice"):
        kind = str if key == "hand" else int
        if not isinstance(body, list) or not all(
                isinstance(v, kind) and not isinstance(v, bool) for v in body):
            raise StateError(f"region {name!r}: {key!r} must list "
                             f"{'codes' if key == 'hand' else 'whole numbers'}, got {body!r}")
        return Hand(tuple(body)) if key == "hand" else Dice(tuple(body))
    if isinstance(body, bool) or not isinstance(body, int):
        raise StateError(f"region {name!r}: {key!r} must be a whole number, got {body!r}")
    return Packet(body) if key == "packet" else Chips(body)


def _check_content(game: Game, name: str, content: Content) -> None:
    part = name.rpartition(".")[2]
    if isinstance(content, Dice):
        if name != DICE:
            raise StateError(f"dice lie in the {DICE!r} area, not in {name!r}")
        if len(content.values) != DICE_COUNT or not all(1 <= v <= 6 for v in content.values):
            raise StateError(f"{name!r}: {DICE_COUNT} dice of 1..6, got {list(content.values)}")
    elif isinstance(content, Chips):
        if part != "bet":
            raise StateError(f"chips lie on a bet circle, not in {name!r}")
        if not 1 <= content.count <= MOST_CHIPS:
            raise StateError(f"{name!r}: 1..{MOST_CHIPS} chips, got {content.count}")
    elif part not in HAND_SIZES[game]:
        raise StateError(f"{'hands' if isinstance(content, Hand) else 'packets'} lie in a low "
                         f"or high box, not in {name!r}")
    elif isinstance(content, Packet):
        if content.count != PACKET_SIZES[game]:
            raise StateError(f"{name!r}: a {game} packet holds {PACKET_SIZES[game]}, "
                             f"got {content.count}")
    else:
        size = HAND_SIZES[game][part]
        if len(content.codes) != size:
            raise StateError(f"{name!r}: a {game} {part} hand holds {size}, got "
                             f"{list(content.codes)}")
        for code in content.codes:
            good = code in CARD_CODES if game == "poker" else _is_tile(code)
            if not good:
                raise StateError(f"{name!r}: {code!r} is not a "
                                 f"{'card' if game == 'poker' else 'tile'} code")


def _is_tile(code: str) -> bool:
    a, sep, b = code.partition("-")
    return bool(sep) and a.isdigit() and b.isdigit() and int(a) <= int(b) and copies(code) > 0
