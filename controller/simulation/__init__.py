"""The simulation, apart from the product: what ``paigow demo`` and the tests play with.

- ``players``: ``SimPlayers`` and ``SimDealer`` (the ``Players`` and ``Dealer`` the table loop,
  ``controller.table.runner``, is handed), their ``Habits`` and ``make_rng``.
- ``demo``: one rules-level round with no devices (``play_round``) for the journal's tests and
  ``bench/bench_journal.py``.

The product's real path (``paigow run``: ``controller.table.runner``, ``devices``, the
command's module) imports none of it at module level (``tests/test_layers.py``).
"""
