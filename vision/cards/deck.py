"""A calibrated deck: what one deck's corner indices look like, saved to and loaded from a file.

Made by ``calibrate.calibrate`` from one image per face. It holds a discriminant for ranks
and one for suits (``model.Lda``, over the vectors of ``patch``), and per face with a corner
index where the card's centre lies from the suit's centroid (in card widths, in the index's
own frame: right, down) and the distance from the rank's centroid to the suit's (in card
widths). A second pair of discriminants, over patches cut at twice the resolution
(``patch.FINE``), settles close calls; a deck saved without them reads without. Decks of
versions 1 and 2 were learned from patches cut whole, before a patch kept only its own
marks' ink: their discriminants do not fit what the reader cuts now, so they are refused
and the deck must be calibrated again.
Faces without a corner index (this artwork's joker) have strip templates instead, and those
printing a mark where the others print their index the mark's templates too. A deck that
prints its index at all four corners knows where the second top one lies (``twin``).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ..errors import CalibrationError
from .blank_corner import CORNER
from .codes import CODES
from .model import Lda

F32 = NDArray[np.float32]
FORMAT = "paigow-deck"
VERSION = 3
READABLE = (3,)  # versions ``load`` reads


@dataclass(frozen=True)
class Deck:
    """One deck's calibration. ``offsets`` and ``lengths`` are indexed like ``codes``."""

    name: str
    aspect: float  # card height / width
    link: float  # how close marks join one index (``ink.Limits.link``)
    codes: tuple[str, ...]
    ranks: Lda
    suits: Lda
    offsets: F32  # (len(codes), 2) card centre from the suit centroid, card widths
    lengths: F32  # (len(codes),) rank-to-suit centroid distance, card widths
    strip_codes: tuple[str, ...] = ()
    strips: F32 = field(default_factory=lambda: np.zeros((0, 0, 0), np.float32))
    strip_accept: float = 1.0  # correlation that names a strip face
    fine_ranks: Lda | None = None
    fine_suits: Lda | None = None
    sharpen: float = 0.0  # unsharp amount before the ink threshold (``ink.Limits.sharpen``)
    # The reader's unsharp amount where it reads the deck's tables better sharpened more
    # than ``reader.READ_SHARPEN`` in the table camera's light (``trial.in_light``); 0
    # where it does not.
    read_sharpen: float = 0.0
    # How far the fine cut may find a read's rank from its class before the read is withdrawn,
    # where the deck's own tables read better held closer than ``naming.FINE_RANK_FIT``
    # (``trial.in_light``); None: ``naming.FINE_RANK_FIT``.
    fine_rank_fit: float | None = None
    # Where the deck prints its index again, at the other top corner: from the top-left
    # index's centroid, in card widths (across, down); (0, 0) for a deck printing it at the
    # top left (and turned, bottom right) alone (``calibrate.twin_corner``, ``corners``).
    twin: tuple[float, float] = (0.0, 0.0)
    split: bool = False  # marks split by the deeper ink are offered (``ink.Limits.split``)
    bays: bool = False  # glyphs joined to the card's outline cut from it (``ink.Limits.bays``)
    pips: bool = False  # glyphs parted from the pips they blur into (``ink.Limits.pips``)
    courts: bool = False  # and from large marks' bodies too (``ink.Limits.courts``)
    # Where every face with an index prints ink and the faces found by their strip show none
    # (``blank_corner.index_box``); calibrations made before it was learned use
    # ``blank_corner.CORNER``.
    blank: tuple[float, float, float, float] = CORNER
    # The faces found by their strip that show a mark where the others print their index
    # (``corner_marks.learn_marks``): named only where the mark shows in ``mark_box``, correlating
    # with its template (two per face: upright, turned) by ``mark_accept`` or more, or by
    # ``mark_both[0]`` where its strip matches by ``mark_both[1]`` too (``corner_marks.both``;
    # calibrations made before it was learned name by the mark alone).
    marked: tuple[str, ...] = ()
    marks: F32 = field(default_factory=lambda: np.zeros((0, 0, 0), np.float32))
    mark_box: tuple[float, float, float, float] = CORNER
    mark_accept: float = 1.0
    mark_both: tuple[float, float] = (1.0, 1.0)

    def __post_init__(self) -> None:
        n = len(self.codes)
        if self.offsets.shape != (n, 2) or self.lengths.shape != (n,):
            raise CalibrationError(f"deck {self.name!r}: arrays do not match its {n} codes")
        unknown = sorted(set(self.codes + self.strip_codes) - set(CODES))
        if unknown:
            raise CalibrationError(f"deck {self.name!r}: unknown card codes {unknown!r}")
        if not set(self.marked) <= set(self.strip_codes) or len(self.marks) != 2 * len(
                self.marked):
            raise CalibrationError(f"deck {self.name!r}: marks do not match its marked faces")

    @property
    def faces(self) -> tuple[str, ...]:
        """Every face the deck knows, with or without a corner index."""
        return self.codes + self.strip_codes

    def save(self, path: str | Path) -> None:
        """Write the calibration to ``path`` (a numpy ``.npz`` archive with a JSON header)."""
        meta = {
            "format": FORMAT, "version": VERSION, "name": self.name, "aspect": self.aspect,
            "link": self.link, "codes": list(self.codes), "strip_codes": list(self.strip_codes),
            "rank_names": list(self.ranks.names), "rank_typical": self.ranks.typical,
            "suit_names": list(self.suits.names), "suit_typical": self.suits.typical,
            "strip_accept": self.strip_accept, "sharpen": self.sharpen,
            "read_sharpen": self.read_sharpen, "fine_rank_fit": self.fine_rank_fit,
            "split": self.split,
            "bays": self.bays, "pips": self.pips, "courts": self.courts,
            "twin": list(self.twin),
            "blank": list(self.blank),
            "marked": list(self.marked), "mark_box": list(self.mark_box),
            "mark_accept": self.mark_accept, "mark_both": list(self.mark_both),
        }
        fine: dict[str, NDArray[np.float32]] = {}
        if self.fine_ranks is not None and self.fine_suits is not None:
            meta["fine_rank_typical"] = self.fine_ranks.typical
            meta["fine_suit_typical"] = self.fine_suits.typical
            fine = {**self.fine_ranks.arrays("fine_rank"), **self.fine_suits.arrays("fine_suit")}
        buf = io.BytesIO()
        arrays: dict[str, NDArray[np.generic]] = {
            "meta": np.array(json.dumps(meta)), "offsets": self.offsets,
            "lengths": self.lengths, "strips": self.strips, "marks": self.marks,
            **self.ranks.arrays("rank"), **self.suits.arrays("suit"), **fine,
        }
        np.savez_compressed(buf, allow_pickle=False, **arrays)
        # Written beside the target and renamed over it: a process loading the path meanwhile
        # (a second service calibrating the same deck into a shared cache) sees the old file
        # or the new one whole, never a part.
        target = Path(path)
        try:
            fd, staging = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(buf.getvalue())
                os.replace(staging, target)
            except OSError:
                Path(staging).unlink(missing_ok=True)
                raise
        except OSError as err:
            raise CalibrationError(f"cannot write deck calibration {str(path)!r}: {err}") from err

    @classmethod
    def load(cls, path: str | Path) -> Deck:
        """Read a calibration written by ``save``; CalibrationError naming the file otherwise."""
        where = str(path)
        if Path(path).is_file() and not zipfile.is_zipfile(path):
            # np.load would try it as a pickle and suggest loading it unsafely
            raise CalibrationError(f"{where!r} is not a deck calibration (not an .npz archive)")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k] for k in data.files if k != "meta"}
            if meta.get("format") != FORMAT or meta.get("version") not in READABLE:
                again = (" (an older calibration: make it again with `paigow vision calibrate "
                         "cards`)") if meta.get("format") == FORMAT and meta.get("version") in (
                             1, 2) else ""
                raise CalibrationError(
                    f"{where!r}: format {meta.get('format')!r} version "
                    f"{meta.get('version')!r}, expected {FORMAT!r} version "
                    f"{' or '.join(map(str, READABLE))}{again}"
                )
            fine = "fine_rank_typical" in meta
            return cls(
                name=str(meta["name"]), aspect=float(meta["aspect"]),
                link=float(meta["link"]), codes=tuple(meta["codes"]),
                ranks=Lda.from_arrays("rank", arrays, meta["rank_names"], meta["rank_typical"]),
                suits=Lda.from_arrays("suit", arrays, meta["suit_names"], meta["suit_typical"]),
                offsets=arrays["offsets"].astype(np.float32),
                lengths=arrays["lengths"].astype(np.float32),
                strip_codes=tuple(meta["strip_codes"]),
                strips=arrays["strips"].astype(np.float32),
                strip_accept=float(meta["strip_accept"]),
                sharpen=float(meta.get("sharpen", 0.0)),
                read_sharpen=float(meta.get("read_sharpen", 0.0)),
                fine_rank_fit=None if meta.get("fine_rank_fit") is None
                else float(meta["fine_rank_fit"]),
                twin=(float(meta.get("twin", [0.0, 0.0])[0]),
                      float(meta.get("twin", [0.0, 0.0])[1])),
                split=bool(meta.get("split", False)),
                bays=bool(meta.get("bays", False)),
                pips=bool(meta.get("pips", False)),
                courts=bool(meta.get("courts", False)),
                blank=_box(meta.get("blank", CORNER), where),
                marked=tuple(meta.get("marked", ())),
                marks=arrays.get("marks", np.zeros((0, 0, 0), np.float32)).astype(np.float32),
                mark_box=_box(meta.get("mark_box", CORNER), where, "mark box"),
                mark_accept=float(meta.get("mark_accept", 1.0)),
                mark_both=_pair(meta.get("mark_both", [1.0, 1.0]), where),
                fine_ranks=Lda.from_arrays("fine_rank", arrays, meta["rank_names"],
                                           meta["fine_rank_typical"]) if fine else None,
                fine_suits=Lda.from_arrays("fine_suit", arrays, meta["suit_names"],
                                           meta["fine_suit_typical"]) if fine else None,
            )
        except FileNotFoundError as err:
            raise CalibrationError(f"no deck calibration at {where!r}") from err
        except CalibrationError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise CalibrationError(f"{where!r} is not a deck calibration: {err}") from err


def _box(values: object, where: str, what: str = "blank box"
         ) -> tuple[float, float, float, float]:
    """A calibration file's box (``what``: its blank box or mark box), four numbers, or
    CalibrationError naming it and the file ``where``."""
    if not isinstance(values, (list, tuple)) or len(values) != 4:
        raise CalibrationError(f"{where!r}: {what} {values!r} is not four numbers")
    x0, x1, y0, y1 = (float(v) for v in values)
    return (x0, x1, y0, y1)


def _pair(values: object, where: str) -> tuple[float, float]:
    """A calibration file's ``mark_both``, two numbers, or CalibrationError naming it and
    the file ``where``."""
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise CalibrationError(f"{where!r}: mark_both {values!r} is not two numbers")
    return (float(values[0]), float(values[1]))
