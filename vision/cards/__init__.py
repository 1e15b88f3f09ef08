"""Playing cards: learn a deck from one image per face, then read every card in a frame.

``calibrate(load_faces(DIR))`` makes a ``Deck`` (``Deck.save`` / ``Deck.load``);
``CardReader(deck).read(frame) -> list[Item]`` finds each card by its corner index, also in
spread hands where only the index shows, and names it only when sure (``code=None`` when
not). ``check_deck`` and ``check_packet`` are the round-level checks. The pipeline:
``ink`` (marks and candidate indices) -> ``patch`` (upright rank and suit cuts) -> ``model``
(discriminants learned per deck by ``samples``) -> ``naming`` (which candidates are read,
and as what) -> ``reader``; ``strips`` finds faces without an index.
"""

from .calibrate import calibrate
from .checks import DeckCheck, PacketCheck, check_deck, check_packet
from .codes import CODES, JOKER, normalize
from .deck import Deck
from .faces import card_face, load_faces, read_image
from .reader import CardReader
from .verdict import Thresholds

__all__ = [
    "CODES", "JOKER", "CardReader", "Deck", "DeckCheck", "PacketCheck", "Thresholds",
    "calibrate", "card_face", "check_deck", "check_packet", "load_faces", "normalize",
    "read_image",
]
