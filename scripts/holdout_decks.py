"""Hold-out card decks for the card reader's bench: public artworks the reader was not tuned on.

Issue 33 wants the card reader measured on decks nobody tuned it on. Each deck here is public
card artwork in a package of a registry this project already uses (licence and origin in
``docs/sources.md``, "Hold-out card decks"): an npm package fetched at a pinned version with
``npm pack`` and its tarball checked against a pinned SHA-512, or a Debian package fetched at a
pinned version with ``apt-get download`` and the artwork file in it checked against a pinned
SHA-256. Its faces are drawn into the per-user assets cache at the test deck's width, named as
the test deck's faces are (``As.png`` ... ``Kd.png``, ``Jk.png`` where the deck has a joker)::

    ASSETS/holdout/<deck>/<code>.png     ASSETS/holdout/<deck>/.stamp

SVG faces are drawn with ``rsvg-convert -w WIDTH`` (as ``controller.table.artwork`` draws the
test deck); PNG faces are scaled to ``WIDTH`` with ``cv2.INTER_AREA``; a sheet of faces (one
SVG, each face a group whose first child places the card's outline) is drawn whole at the scale
that makes a card ``WIDTH`` wide and each face cut out; a deck of named faces (one SVG, each face
an element whose id names it, ``1_club``, ``king_heart``, as KDE's card decks are) has each face
drawn alone (``rsvg-convert --export-id``) at twice ``WIDTH``, cut to its card and scaled to
``WIDTH`` with ``cv2.INTER_AREA``. The artwork is never copied into the
repository. ``scripts/test_assets.sh`` runs ``python scripts/holdout_decks.py``;
``bench/bench_vision.py`` and ``tests/vision/test_cards_holdout.py`` read the folders
(``deck_dir``) and skip a deck whose folder is not drawn. Idempotent: a deck whose stamp
matches is neither fetched nor drawn again.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import itertools
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from controller.config.locations import assets_dir  # noqa: E402

WIDTH = 250
"""The width in pixels each face is drawn at: the test deck's (``controller.table.artwork``)."""

RANKS = {"1": "A", "A": "A", "10": "T", "T": "T", "11": "J", "J": "J", "12": "Q", "Q": "Q",
         "13": "K", "K": "K", "JACK": "J", "QUEEN": "Q", "KING": "K",
         **{str(n): str(n) for n in range(2, 10)}}
"""A package's rank spellings -> the rank letter of our codes."""

SUITS = {"S": "s", "H": "h", "D": "d", "C": "c", "SPADE": "s", "HEART": "h", "DIAMOND": "d",
         "CLUB": "c"}
"""A package's suit spellings -> the suit letter of our codes."""


def _rank_suit(stem: str) -> str | None:
    """``10C`` / ``13h`` (rank then suit letter) -> ``Tc`` / ``Kh``; None for another file."""
    found = re.fullmatch(r"(\d+|[AJQKT])([SHDC])", stem.upper())
    if not found or found[1] not in RANKS:
        return None
    return RANKS[found[1]] + SUITS[found[2]]


def _suit_rank(stem: str) -> str | None:
    """``club_10`` / ``heart_king`` (suit_rank) -> ``Tc`` / ``Kh``; None for another file."""
    found = re.fullmatch(r"(SPADE|HEART|DIAMOND|CLUB)_(\d+|JACK|QUEEN|KING)", stem.upper())
    if not found or found[2] not in RANKS:
        return None
    return RANKS[found[2]] + SUITS[found[1]]


def _rank_of_suit(stem: str) -> str | None:
    """``1_club`` / ``king_heart`` (rank_suit, KDE's ids) -> ``Ac`` / ``Kh``; None otherwise."""
    found = re.fullmatch(r"(\d+|JACK|QUEEN|KING)_(SPADE|HEART|DIAMOND|CLUB)", stem.upper())
    if not found or found[1] not in RANKS:
        return None
    return RANKS[found[1]] + SUITS[found[2]]


@dataclass(frozen=True)
class HoldoutDeck:
    """One hold-out deck: the package holding it (``origin`` ``npm`` or ``deb``), where its
    faces lie in the package (a folder of faces, or one sheet file: ``named`` when its faces
    are elements found by id rather than groups on a grid), and how a face's name becomes our
    code (``joker``: the name taken as ``Jk``; None for a deck without one)."""

    name: str
    origin: str
    package: str
    version: str
    digest: str
    """npm: the tarball's SHA-512, base64 (``dist.integrity`` without ``sha512-``); deb: the
    SHA-256 (hex) of the ``source`` file, the same on every architecture."""
    source: str
    suffix: str
    code: Callable[[str], str | None]
    joker: str | None
    named: bool = False

    @property
    def spec(self) -> str:
        """The package and version as its client takes them (``name@1.0`` / ``name=1.0``)."""
        return f"{self.package}{'@' if self.origin == 'npm' else '='}{self.version}"

    @property
    def stamp(self) -> str:
        """What the deck's ``.stamp`` holds once drawn with the current settings."""
        drawn = f" scale={NAMED_SCALE} opaque={OPAQUE}" if self.named else ""
        return f"{self.origin}:{self.spec} {self.digest} width={WIDTH}{drawn}"


DECKS = (
    HoldoutDeck("bellot", "npm", "svg-cards", "4.0.2",
                "YQVC0+bVQtvGbKoQZAHPgVSrKUymPK+aG9NQjJul9jp/a+lFcm8aWKh7YmKVinSjpaBTbogTLKAPi5YQEFRYLg==",
                "package/png/2x", ".png", _suit_rank, "joker_red"),
    HoldoutDeck("aguilar", "npm", "cardsJS", "1.1.1",
                "S8J1GsZp9Wimj1jBu6jhH8pHNuOvkA7uryP7YeeaMP8o02g86rdTkXes0rAb/y8ShdCx5JDwg116/hMEGtAuJw==",
                "package/cards", ".svg", _rank_suit, None),
    HoldoutDeck("aguilar-lite", "npm", "@younestouati/playing-cards-standard-deck", "3.0.0",
                "w+hMe//3YLu5XR1dmq6Xi/BoMcqEMKeIlg+4QUiF7y5PymeSGeT7ozKV1fADmmuFBBVbjB2pCcR5EKKC9qIVOQ==",
                "package/cards", ".svg", _rank_suit, "joker"),
    HoldoutDeck("bonded", "deb", "aisleriot", "1:3.22.23-1",
                "fcccb59b46310019a7a2a400bb8a07e8c634aa15fce9809aba5dcae76c5f08c3",
                "usr/share/aisleriot/cards/bonded.svgz", ".svgz", _suit_rank, "joker_red"),
    HoldoutDeck("nicu-white", "deb", "kdegames-card-data-kf5", "4:22.12.3-1",
                "2c8936441e742b61d5a2a0ba636cf096f8ba7b9e70320c76fcca9547fb9d37ef",
                "usr/share/carddecks/svg-nicu-white/white.svgz", ".svgz", _rank_of_suit,
                "red_joker", named=True),
    HoldoutDeck("kde-standard", "deb", "kdegames-card-data-kf5", "4:22.12.3-1",
                "b932e756ecc49423c6fcc1d0cadf2db589443e4f9a3bd5b7efc45e692628c2d7",
                "usr/share/carddecks/svg-standard/standard.svgz", ".svgz", _rank_of_suit,
                None, named=True),
    HoldoutDeck("tigullio", "deb", "kdegames-card-data-kf5", "4:22.12.3-1",
                "004af9928d1a80870429fbbbceeaf5bb2cf28637ad5ebc51ced624ee3a8a1fb7",
                "usr/share/carddecks/svg-tigullio-international/tigullio-international.svgz",
                ".svgz", _rank_of_suit, "red_jocker", named=True),
    HoldoutDeck("dondorf", "deb", "kdegames-card-data-kf5", "4:22.12.3-1",
                "e0d842da00e6b363a1e0df31391f23d444f493089d4349bcc509661d02486ab9",
                "usr/share/carddecks/svg-dondorf/dondorf.svgz", ".svgz", _rank_of_suit,
                "joker", named=True),
)
"""The hold-out decks (``docs/sources.md`` says where each came from and under what licence)."""


class HoldoutError(RuntimeError):
    """A hold-out deck could not be fetched or drawn; the message names the deck and step."""


def deck_dir(name: str, assets: Path | None = None) -> Path | None:
    """The folder of hold-out deck ``name``'s faces, or None while it is not drawn."""
    spec = next((d for d in DECKS if d.name == name), None)
    if spec is None:
        raise KeyError(f"no hold-out deck {name!r} (known: {', '.join(d.name for d in DECKS)})")
    folder = (assets or assets_dir()) / "holdout" / name
    try:
        drawn = (folder / ".stamp").read_text(encoding="utf-8").strip() == spec.stamp
    except OSError:
        return None
    return folder if drawn else None


def _run(argv: list[str], cwd: Path | None = None) -> None:
    """Run one step; HoldoutError names it and its last error line."""
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise HoldoutError(f"{' '.join(argv[:3])!r} failed ({last})")


def _tool(name: str, hint: str) -> str:
    """The path of a program a step needs; HoldoutError names what to install."""
    path = shutil.which(name)
    if path is None:
        raise HoldoutError(f"{name} missing: {hint}")
    return path


def _unpack_npm(deck: HoldoutDeck, cache: Path, into: Path) -> Path:
    """Fetch the npm tarball into ``cache`` once, check its SHA-512, unpack it into ``into``;
    the folder of faces."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{deck.package.lstrip('@').replace('/', '-')}-{deck.version}.tgz"
    if not tarball.is_file():
        print(f"==> fetching {deck.spec} (npm pack)", file=sys.stderr, flush=True)
        _run([_tool("npm", "install npm (Debian: apt-get install npm)"), "pack", "--silent",
              deck.spec], cwd=cache)
    if not tarball.is_file():
        raise HoldoutError(f"npm pack {deck.spec} made no {tarball.name!r} in {str(cache)!r}")
    digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != deck.digest:
        tarball.unlink()
        raise HoldoutError(f"{tarball.name}: SHA-512 {digest} is not the pinned {deck.digest}")
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")
    return into / deck.source


def _kept(deck: HoldoutDeck, cache: Path) -> Path:
    """Where a Debian deck's ``source`` file is kept in ``cache`` once taken out."""
    return cache / f"{deck.package}-{deck.version.replace(':', '_')}-{Path(deck.source).name}"


def _unpack_deb(deck: HoldoutDeck, cache: Path, into: Path) -> Path:
    """Fetch the Debian package into ``cache`` once (``apt-get download``, no root needed),
    take out its ``source`` file and check its SHA-256; the file (kept in ``cache``). The
    other decks' files in the same package are taken out too (checked when they are drawn),
    so a package holding several decks is fetched once."""
    cache.mkdir(parents=True, exist_ok=True)
    kept = _kept(deck, cache)
    if not kept.is_file():
        print(f"==> fetching {deck.spec} (apt-get download)", file=sys.stderr, flush=True)
        _run([_tool("apt-get", "a Debian system is needed"), "download", "-q", deck.spec],
             cwd=into)
        debs = list(into.glob(f"{deck.package}_*.deb"))
        if len(debs) != 1:
            raise HoldoutError(f"apt-get download {deck.spec} made {len(debs)} packages")
        _run([_tool("dpkg-deb", "a Debian system is needed"), "-x", str(debs[0]),
              str(into / "root")])
        found = into / "root" / deck.source
        if not found.is_file():
            raise HoldoutError(f"{deck.spec} has no {deck.source!r}")
        shutil.copyfile(found, kept)
        for other in DECKS:
            beside = into / "root" / other.source
            if (other.origin, other.spec) == (deck.origin, deck.spec) and beside.is_file() \
                    and not _kept(other, cache).is_file():
                shutil.copyfile(beside, _kept(other, cache))
    digest = hashlib.sha256(kept.read_bytes()).hexdigest()
    if digest != deck.digest:
        kept.unlink()
        raise HoldoutError(f"{deck.source} of {deck.spec}: SHA-256 {digest} is not the pinned "
                           f"{deck.digest}")
    return kept


def _draw_face(source: Path, target: Path) -> None:
    """Draw one face ``WIDTH`` pixels wide: SVG with rsvg-convert, PNG scaled with OpenCV."""
    if source.suffix == ".svg":
        _run([_tool("rsvg-convert", "install librsvg2-bin"), "-w", str(WIDTH), str(source),
              "-o", str(target)])
        return
    image = cv2.imread(str(source), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise HoldoutError(f"{str(source)!r} is not an image OpenCV reads")
    height = round(image.shape[0] * WIDTH / image.shape[1])
    scaled = cv2.resize(image, (WIDTH, height), interpolation=cv2.INTER_AREA)
    if not cv2.imwrite(str(target), np.asarray(scaled)):
        raise HoldoutError(f"could not write {str(target)!r}")


FACE_GROUP = re.compile(r'<g id="(\w+)"><use x="([\d.]+)" y="([\d.]+)" xlink:href="#\w+"/>')
"""A face of a sheet: its group's id and the place of the card outline the group starts with."""


def _pitch(values: set[float]) -> float:
    """The grid's step: the least gap between the faces' places along one axis."""
    ordered = sorted(values)
    gaps = [b - a for a, b in itertools.pairwise(ordered) if b - a > 1]
    if not gaps:
        raise HoldoutError(f"a sheet's faces lie on no grid (places {ordered})")
    return min(gaps)


def _draw_sheet(deck: HoldoutDeck, sheet: Path, work: Path) -> None:
    """Cut the faces out of a gzipped SVG sheet whose faces lie on a grid, one card a cell:
    the sheet is drawn whole at the scale that makes a cell ``WIDTH`` wide."""
    text = gzip.decompress(sheet.read_bytes()).decode("utf-8")
    size = re.search(r'<svg[^>]* width="([\d.]+)"', text)
    groups = [(face, float(x), float(y)) for face, x, y in FACE_GROUP.findall(text)]
    if size is None or not groups:
        raise HoldoutError(f"{sheet.name}: not a sheet of faces (no width or no face groups)")
    cell_w = _pitch({x for _, x, _ in groups})
    cell_h = _pitch({y for _, _, y in groups})
    scale = WIDTH / cell_w
    svg, png = work / "sheet.svg", work / "sheet.png"
    svg.write_text(text, encoding="utf-8")
    try:
        _run([_tool("rsvg-convert", "install librsvg2-bin"), "-w",
              str(round(float(size[1]) * scale)), str(svg), "-o", str(png)])
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    finally:
        svg.unlink(missing_ok=True)
        png.unlink(missing_ok=True)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise HoldoutError(f"{sheet.name}: rsvg-convert drew no BGRA sheet")
    height = round(cell_h * scale)
    for face, x, y in groups:
        code = "Jk" if face == deck.joker else deck.code(face)
        if code is None:
            continue
        left, top = round(x * scale), round(y * scale)
        cut = image[top:top + height, left:left + WIDTH]
        if cut.shape[:2] != (height, WIDTH):
            raise HoldoutError(f"{sheet.name}: face {face!r} lies outside the sheet")
        if not cv2.imwrite(str(work / f"{code}.png"), np.ascontiguousarray(cut)):
            raise HoldoutError(f"could not write {str(work / f'{code}.png')!r}")


NAMED_SCALE = 2
"""A named face is drawn this many times ``WIDTH`` wide, then scaled down to ``WIDTH``: its card
is found in the drawing (the size rsvg-convert gives an element is not always its card's), and
scaling down by an area average keeps its lines as sharp as a drawing at ``WIDTH``."""

OPAQUE = 192
"""The alpha from which a drawn pixel is the card (75 %): a card is opaque but for its edges'
smoothing, while a drop shadow some decks draw beside the card is half transparent (alpha 127
in KDE's Nicu White) and must not widen the cut."""


def _card_box(image: np.ndarray) -> tuple[int, int, int, int]:
    """The bounding box (left, top, width, height) of the opaque pixels of a drawn element."""
    if image.ndim != 3 or image.shape[2] != 4:
        raise HoldoutError("rsvg-convert drew no BGRA face")
    points = cv2.findNonZero((image[:, :, 3] >= OPAQUE).astype(np.uint8))
    if points is None:
        raise HoldoutError("rsvg-convert drew an empty face")
    left, top, width, height = cv2.boundingRect(points)
    return left, top, width, height


def _draw_element(svg: Path, element: str, zoom: float, png: Path) -> np.ndarray:
    """Draw the element with id ``element`` of ``svg`` alone at ``zoom``; its BGRA image."""
    try:
        _run([_tool("rsvg-convert", "install librsvg2-bin"), "-i", element, "-z", f"{zoom:.6f}",
              str(svg), "-o", str(png)])
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    finally:
        png.unlink(missing_ok=True)
    if image is None:
        raise HoldoutError(f"{svg.name}: rsvg-convert drew nothing for {element!r}")
    return np.asarray(image)


ELEMENT_ID = re.compile(r'\bid="([\w-]+)"')
"""An element's id in an SVG file."""


def _draw_named(deck: HoldoutDeck, sheet: Path, work: Path) -> None:
    """Draw each face of an SVG whose faces are elements named by id: alone, at the zoom that
    makes the first face's card ``NAMED_SCALE * WIDTH`` wide (one zoom for the deck, so faces
    keep their relative sizes), cut to its card and scaled to ``WIDTH`` wide."""
    text = gzip.decompress(sheet.read_bytes()).decode("utf-8")
    faces: dict[str, str] = {}
    for element in ELEMENT_ID.findall(text):
        code = "Jk" if element == deck.joker else deck.code(element)
        if code is not None:
            faces.setdefault(code, element)
    if not faces:
        raise HoldoutError(f"{sheet.name}: no element named as a face")
    svg, png = work / "sheet.svg", work / "face.png"
    svg.write_text(text, encoding="utf-8")
    try:
        first = next(iter(faces.values()))
        zoom = NAMED_SCALE * WIDTH / _card_box(_draw_element(svg, first, 1.0, png))[2]
        for code, element in faces.items():
            image = _draw_element(svg, element, zoom, png)
            left, top, width, height = _card_box(image)
            cut = image[top:top + height, left:left + width]
            scaled = cv2.resize(cut, (WIDTH, round(height * WIDTH / width)),
                                interpolation=cv2.INTER_AREA)
            if not cv2.imwrite(str(work / f"{code}.png"), np.ascontiguousarray(scaled)):
                raise HoldoutError(f"could not write {str(work / f'{code}.png')!r}")
    finally:
        svg.unlink(missing_ok=True)


def draw(deck: HoldoutDeck, assets: Path) -> Path:
    """Fetch and draw ``deck`` into ``assets/holdout/<name>`` unless its stamp matches (built
    aside, then moved into place, so a half-drawn deck is never read)."""
    done = deck_dir(deck.name, assets)
    if done is not None:
        return done
    target = assets / "holdout" / deck.name
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{deck.name}-", dir=target.parent))
    try:
        with tempfile.TemporaryDirectory() as unpacked:
            if deck.origin == "npm":
                source = _unpack_npm(deck, assets / "npm", Path(unpacked))
            else:
                source = _unpack_deb(deck, assets / "deb", Path(unpacked))
            print(f"==> drawing hold-out deck {deck.name} ({deck.spec}) to {target}",
                  file=sys.stderr, flush=True)
            if source.is_file() and deck.named:
                _draw_named(deck, source, work)
            elif source.is_file():
                _draw_sheet(deck, source, work)
            elif source.is_dir():
                for face in sorted(source.glob(f"*{deck.suffix}")):
                    code = "Jk" if face.stem == deck.joker else deck.code(face.stem)
                    if code is not None:
                        _draw_face(face, work / f"{code}.png")
            else:
                raise HoldoutError(f"{deck.spec} has no {deck.source!r}")
        count = len(list(work.glob("*.png")))
        want = 52 + (deck.joker is not None)
        if count != want:
            raise HoldoutError(f"{deck.spec}: drew {count} faces, expected {want}")
        (work / ".stamp").write_text(deck.stamp + "\n", encoding="utf-8")
        shutil.rmtree(target, ignore_errors=True)
        work.rename(target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    """``python scripts/holdout_decks.py [DIR]``: draw every hold-out deck into DIR (default
    the per-user assets cache); a deck that fails is named on one line and the others are
    still drawn; exit status 2 when any failed."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: python scripts/holdout_decks.py [DIR]", file=sys.stderr)
        return 2
    assets = Path(args[0]) if args else assets_dir()
    failed = 0
    for deck in DECKS:
        try:
            print(draw(deck, assets))
        except (HoldoutError, OSError) as err:
            print(f"holdout_decks: {deck.name}: {err}", file=sys.stderr)
            failed += 1
    return 2 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
