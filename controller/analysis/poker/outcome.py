"""Who wins a Pai Gow Poker hand against another, vectorised (the counts are ``outcome``'s).

One side wins a round when both its hands beat the other's, loses when both are beaten or
copied, else pushes; copies go to the bank (reference section 1).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def beats(ours: npt.NDArray[np.int32] | np.int32, theirs: npt.NDArray[np.int32],
          banking: bool) -> npt.NDArray[np.bool_]:
    """Our hand beats theirs; a copy goes to us only when we are the bank."""
    return ours >= theirs if banking else ours > theirs
