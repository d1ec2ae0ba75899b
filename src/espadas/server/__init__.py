"""The web server: JSON API, live updates over WebSocket, robots in a process pool."""
