"""Espadas: a Spanish-first Spades club. See the README for what is here."""

__version__ = "0.1.0"
