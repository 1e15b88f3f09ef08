"""paigow-table's controller: the rules core, the round engine, the journal and the display.

Importing it changes nothing in the process: the ``paigow`` command sets the process-wide
settings itself, first of all (``controller.commands.startup``).
"""
