"""Table profiles, one per table type: the poker and tiles games and how a table plays."""
