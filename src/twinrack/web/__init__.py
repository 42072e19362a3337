"""The web table: static assets (tile art, vendored ES modules) and, later, the server."""
