"""The web table service: FastAPI, WebSockets, SQLAlchemy (SQLite by default, PostgreSQL)."""
