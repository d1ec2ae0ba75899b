"""Shared fixtures of the suite. The test folders follow the layers (engine, robots,
tables, store, server, web, cli); the helpers they share live beside this file
(``engine_helpers``, ``server_helpers``) and import from here as plain modules."""
