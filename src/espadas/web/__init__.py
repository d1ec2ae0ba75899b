"""The browser interface: pages, ES modules, CSS and SVG served by ``espadas serve``."""
