"""A writer to kill: appends records as fast as it can, printing ``SEQ I`` after each commit.

Run by the crash tests as ``python -m tests.journal.crash_writer URL FIRST COUNT``.
"""

from __future__ import annotations

import sys

from controller.journal import Role, open_journal


def main(argv: list[str]) -> int:
    """Append COUNT records numbered from FIRST; a line on stdout once each is committed."""
    url, first, count = argv[0], int(argv[1]), int(argv[2])
    with open_journal(url) as journal:
        for i in range(first, first + count):
            round_id = f"r{i // 10}"
            event = {"type": "note", "v": 1, "i": i, "pad": "x" * (i % 200)}
            record = journal.append(event, actor="writer", role=Role.SYSTEM, round_id=round_id)
            print(record.seq, i, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
