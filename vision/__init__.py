"""Table camera: frame sources, the scene renderer, card, tile and dice recognisers.

See docs/architecture.md (vision) and each subpackage's docstring; ``vision`` never imports
``controller``.
"""

import os

from .image_size import MAX_IMAGE_PIXELS

# OpenCV reads its decoder's pixel limit once, when it loads: set it before any module here
# imports cv2 (``image_size`` refuses the formats it can read first, with a clearer message).
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))
