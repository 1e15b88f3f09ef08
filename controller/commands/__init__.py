"""Subcommands of the ``paigow`` command line, one module per group, each with ``add_parsers``."""
