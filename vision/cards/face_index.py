"""Where a face prints its corner index, found on a clean render of it: the index's place
on the card (``index_position``, ``corner_index``), the width of its rank's strokes
(``stroke``), and whether the deck prints it at the other top corner too (``twin_corner``).
Calibration (``calibrate``) learns a deck's geometry from these before it lays its faces in
spreads.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from ..scene import Camera, Felt, Pose, Scene
from . import patch
from .ink import Groups, Limits, find_groups
from .pyramid import Pyramid

Image = NDArray[np.uint8]

# A face is measured upright, REFERENCE_WIDTH pixels wide (within the training sheets' 86-165),
# through a QUIET camera: where its index lies is the artwork's, not the camera's.
QUIET = Camera(tilt=0.0, light=(1.0, 1.0), glare=(0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0),
               tint=0.0)
REFERENCE_WIDTH = 150.0
# A deck prints its index at the other top corner too (``twin_corner``) where at least
# TWIN_SHARE of its faces with an index show, in their top-right corner, a group whose rank
# and suit patches correlate with their top-left index's by TWIN_ALIKE or more. Bonded's
# faces with a whole index all show one, correlating 0.97-1.0; the tuning decks, Aguilar's
# and the photographed deck's faces show none.
TWIN_SHARE, TWIN_ALIKE = 0.5, 0.8


def rendered(face: Image, angle: float, width: float, camera: Camera, rng: np.random.Generator
             ) -> tuple[Image, Pose]:
    """``face`` alone on the felt, turned by ``angle``, ``width`` pixels wide, as ``camera``
    sees it, and where it lies."""
    side = int(width * 2.0) + 8
    scene = Scene(size=(side, side), felt=Felt(), shadow=0.0)
    pose = Pose(side / 2 + rng.uniform(-2, 2), side / 2 + rng.uniform(-2, 2), angle,
                width / face.shape[1])
    scene.place(face, pose, "face")
    image, _ = scene.render(rng, camera)
    return image, pose


def references(faces: Mapping[str, Image]) -> list[tuple[Image, Pose]]:
    """Each face upright, ``REFERENCE_WIDTH`` wide, as a quiet camera sees it."""
    return [rendered(face, 0.0, REFERENCE_WIDTH, QUIET, np.random.default_rng(0))
            for face in faces.values()]


def stroke(image: Image, pose: Pose, face: Image, limits: Limits) -> float | None:
    """The width of the strokes of the rank glyph in the top-left index of a face rendered
    upright (``rendered``), in card widths: twice its ink's area over its outline's length;
    None where the face shows no index."""
    found = top_left(find_groups(image, limits), pose, face)
    if found is None or found.mark_map is None:
        return None
    mark_map = found.mark_map
    marks = [int(k) for k in found.members[0] if k >= 0]
    rows = [float(np.nonzero(mark_map.shows([k]))[0].mean()) for k in marks]
    rank = mark_map.shows([k for k, row in zip(marks, rows, strict=True) if row < max(rows)])
    outline = cv2.findContours(rank.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[-2]
    length = float(sum(cv2.arcLength(c, True) for c in outline))
    return 2.0 * float(rank.sum()) / max(length, 1.0) / float(pose.scale * face.shape[1])


def top_left(groups: Groups, pose: Pose, face: Image, parts: bool = False) -> Groups | None:
    """The candidate nearest the top-left corner of a face rendered upright that may be its
    index (upright, in the corner's quarter): a whole group where one is, else with
    ``parts`` a part of a group (``ink.Groups.variant``). Where a deck prints its index
    close to the pips (the small ranks of many real decks), the index joins the nearest pip
    into one group, not upright, and only its part of rank over suit is the index, as the
    reader too offers it (``link.candidates``). Choosing the link and the sharpening looks
    at whole groups only, as before parts were sought: parts of a joker's picture would
    sway them."""
    w = pose.scale * face.shape[1]
    half_h = pose.scale * face.shape[0] / 2 / w
    gx = (groups.cx - pose.x) / w
    gy = (groups.cy - pose.y) / w
    upright = np.abs(np.cos(groups.theta)) < 0.5
    corner = (gx < -0.18) & (gy < -half_h + 0.45) & upright
    dist = (gx + 0.5) ** 2 + (gy + half_h) ** 2
    for kind in (~groups.variant, groups.variant) if parts else (~groups.variant,):
        if (corner & kind).any():
            return groups.take(np.array([int(np.argmin(np.where(corner & kind, dist, np.inf)))]))
    return None


def _top_right(groups: Groups, pose: Pose, face: Image) -> Groups | None:
    """The whole group nearest the top-right corner of a face rendered upright, upright and
    in the corner's quarter (``top_left`` mirrored): where a deck prints its index at that
    corner too."""
    w = pose.scale * face.shape[1]
    half_h = pose.scale * face.shape[0] / 2 / w
    gx = (groups.cx - pose.x) / w
    gy = (groups.cy - pose.y) / w
    corner = (gx > 0.18) & (gy < -half_h + 0.45) & (np.abs(np.cos(groups.theta)) < 0.5) & (
        ~groups.variant)
    if not corner.any():
        return None
    dist = (gx - 0.5) ** 2 + (gy + half_h) ** 2
    return groups.take(np.array([int(np.argmin(np.where(corner, dist, np.inf)))]))


def _upright(group: Groups) -> int:
    """The sense of a group's axis in which its suit lies below its rank (an upright index)."""
    return 0 if group.ends[0, 0, 1, 1] > group.ends[0, 0, 0, 1] else 1


def _alike(image: Image, a: Groups, b: Groups) -> float:
    """How alike two upright groups of one image are: the least over rank and suit of the
    correlation of their patches (``patch.cut``, each in its upright sense)."""
    pyramid = Pyramid(image)
    both = [patch.cut(pyramid, g, _upright(g)) for g in (a, b)]
    least = 1.0
    for k in (0, 1):
        u, v = (both[0][k][0].astype(np.float64), both[1][k][0].astype(np.float64))
        u, v = u - u.mean(), v - v.mean()
        least = min(least, float(u @ v / max(np.sqrt((u @ u) * (v @ v)), 1e-9)))
    return least


def twin_corner(faces: Mapping[str, Image], link: float,
                renders: list[tuple[Image, Pose]] | None = None) -> tuple[float, float]:
    """Where a deck prints its index a second time, at the other top corner (and so, turned,
    at the other bottom one): the offset from the top-left index's centroid to the
    top-right one's, in card widths (across, down), the median over the faces whose
    top-right corner holds a group like their top-left index (``TWIN_ALIKE``); (0, 0) where
    fewer than ``TWIN_SHARE`` of the faces with an index do (a deck printing two corners)."""
    renders = renders or references(faces)
    plain = Limits(link=link)
    offsets, indexed = [], 0
    for (image, pose), face in zip(renders, faces.values(), strict=True):
        groups = find_groups(image, plain)
        left = top_left(groups, pose, face)
        if left is None:
            continue
        indexed += 1
        right = _top_right(groups, pose, face)
        if right is None or int(right.marks[0]) != int(left.marks[0]):
            continue
        if _alike(image, left, right) < TWIN_ALIKE:
            continue
        w = pose.scale * face.shape[1]
        offsets.append(((float(right.cx[0] - left.cx[0]) / w),
                        float(right.cy[0] - left.cy[0]) / w))
    if not indexed or len(offsets) < TWIN_SHARE * indexed:
        return 0.0, 0.0
    dx, dy = np.median(np.array(offsets), axis=0)
    return float(dx), float(dy)


def index_position(face: Image, limits: Limits, render: tuple[Image, Pose] | None = None
                   ) -> tuple[float, float] | None:
    """The top-left index's ink centroid relative to the card centre, in card widths;
    ``rendered``: the face's ``references`` render, made here when not given."""
    found = corner_index(face, limits, render)
    return None if found is None else found[0]


def corner_index(face: Image, limits: Limits, render: tuple[Image, Pose] | None = None
                 ) -> tuple[tuple[float, float], bool] | None:
    """``index_position``, and whether the index is a part of a larger group of marks (it
    joins a pip printed close to it: ``top_left``)."""
    image, pose = render or rendered(face, 0.0, REFERENCE_WIDTH, QUIET, np.random.default_rng(0))
    found = top_left(find_groups(image, limits), pose, face, parts=True)
    if found is None:
        return None
    w = pose.scale * face.shape[1]
    return (float((found.cx[0] - pose.x) / w), float((found.cy[0] - pose.y) / w)), bool(
        found.variant[0])
