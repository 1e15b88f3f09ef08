"""Pai Gow Poker odds: house-way tables, exact distributions, simulation."""
