"""Pai Gow Poker's rules: cards, hands, settings, house ways, settlement."""
