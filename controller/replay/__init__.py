"""Replay: re-run what a table recorded through the same engine, without hardware."""
