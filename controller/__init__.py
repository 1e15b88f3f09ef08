"""paigow-table's controller: the rules core, the round engine, the journal and the display.

Importing the package sets one default before numpy loads anywhere in the process: OpenBLAS,
OpenMP and MKL run one thread unless the operator's environment says otherwise.  The camera's
many small matrix products ran ten times slower with the thread pool on a busy two-core table
host (``bench/bench_table.py``), and the rules core needs no threads.
"""

import os as _os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")
