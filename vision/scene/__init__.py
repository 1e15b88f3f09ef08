"""Rendered table scenes with ground truth, for tests, benchmarks and the simulated table.

API (stable; ``vision.tiles`` and ``vision.dice`` build on it):

- ``Scene(size=(1280, 720), felt=Felt(), shadow=0.35)``: an empty felt.
- ``Scene.place(image_bgra, Pose(x, y, angle=0, scale=1), label, kind="card")``: put an item
  image on top of the stack. ``x, y``: centre in scene pixels; ``angle``: degrees
  counter-clockwise; ``scale``: output pixels per item-image pixel. ``label`` is the ground
  truth (a card code, a tile such as ``"2-4"``, a die face ``"5"``); ``kind`` is an
  ``Item.kind``. BGR images are taken as opaque; give BGRA for rounded or round items.
- ``Scene.render(rng, camera=None) -> (frame_bgr, [Placement, ...])``: the frame as the
  camera sees it and, per item bottom to top, its ``label``, ``kind``, image ``corners``
  (top-left, top-right, bottom-right, bottom-left of the item image), ``center``,
  ``visible`` fraction and ``z``.
- ``Camera(tilt, light, glare, blur, noise, tint)``: the shared augmentation pipeline
  (perspective, uneven light, glare, blur, noise); ``Camera().shoot(frame, rng)`` applies it
  to any frame, and ``augment.perspective``, ``uneven_light``, ``glare``, ``noise`` are the
  single effects.
- ``hands.table_scene(faces, rng)``: seven spread Pai Gow hands; ``hands.loose_scene``:
  single cards at any rotation.

Randomness comes only from the ``numpy.random.Generator`` handed in: same seed, same scene.
"""

from .augment import Camera, CameraShot
from .felt import Felt
from .scene import Placement, Pose, Scene

__all__ = ["Camera", "CameraShot", "Felt", "Placement", "Pose", "Scene"]
