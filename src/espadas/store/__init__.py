"""Persistence: tables' event logs and players, on SQLite (default) or PostgreSQL."""
