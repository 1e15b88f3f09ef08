"""Pai Gow tiles odds: exact enumeration of every hand against every dealer hand."""
