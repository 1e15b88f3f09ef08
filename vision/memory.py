"""Keep freed memory for the next frame: glibc's ``malloc`` tuned for a frame-reading process.

Reading a 1280 x 720 frame makes some twenty planes of 0.9-3.7 MB (masks, labels, patches)
and frees them. By default glibc gives a block that large its own ``mmap`` and returns it on
``free``, or lets its heap grow and then trims it back, by thresholds it moves as it goes;
the kernel then zero-fills every page of the next frame's planes on first touch: hundreds
of page faults and milliseconds of system time a frame, which kept memory all but removes
(figures in ``docs/benchmarks.md``).

``keep_freed_memory`` fixes both thresholds once, at a process's start: blocks up to
``MMAP_THRESHOLD`` come from the heap, and freed memory at its top is kept up to
``TRIM_THRESHOLD``. The ``paigow`` command (and a command group run alone) and the benches
call it; a library import never does (it is the whole process's allocator). Elsewhere than
glibc it does nothing and says so.
"""

from __future__ import annotations

import ctypes
import sys

# glibc's mallopt parameters (malloc.h) and the largest mmap threshold it takes on a 64-bit
# system (HEAP_MAX_SIZE / 2). TRIM_THRESHOLD is over four times the most that reading one
# seven-hand frame holds at once (13.6 MB of numpy arrays, by ``tracemalloc``), so one
# frame's planes are kept for the next.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20


def keep_freed_memory() -> bool:
    """Fix glibc's thresholds (``MMAP_THRESHOLD``, ``TRIM_THRESHOLD``) for this process;
    True when they were set, False where the C library has no ``mallopt`` (not glibc)."""
    if not sys.platform.startswith("linux"):
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
