"""Online tables: games at a table, their verifiable deals and their records."""
