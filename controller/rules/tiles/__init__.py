"""Pai Gow tiles' rules: the dominoes, hands, settings, house ways, settlement."""
