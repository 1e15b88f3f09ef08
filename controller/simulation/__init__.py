"""The simulation, apart from the product: what ``paigow demo`` and the tests play with.

- ``runner``: ``TableRunner``, the simulated table's loop: it plays every part, the players'
  bets and settings (through ``seats``: ``Seats``), the dealer's hand and buttons, the
  supervisor's answers to faults;
- ``players``: ``SimPlayers`` and ``SimDealer`` (the ``Players`` and ``Dealer`` the runner is
  handed, protocols of ``controller.table.people``), their ``Habits`` and ``make_rng``;
- ``camera``: the camera that renders what it is told and reads it back; ``table``: a table
  opened with it (``open_simulated_table``);
- ``demo``: one rules-level round with no devices (``play_round``) for the journal's tests and
  ``bench/bench_journal.py``.

The product's path (``paigow run``: ``controller.table`` and its live loop, the live table, the
display, the command's module) imports none of it (``tests/test_layers.py``).
"""
