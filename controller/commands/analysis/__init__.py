"""The analysis commands: ``analyze poker``, ``ev poker``, ``analyze tiles``."""
