"""Database table of the tournament desk: one row per tournament, its whole state as JSON.

The desk model (:mod:`twinrack.desk.tournament`) is pure and serializes to one JSON document,
so a tournament is stored as that document plus its keys. ``version`` counts the commands
taken and is checked on every write (SQLAlchemy's ``version_id_col``): a write based on an
older document fails instead of overwriting a newer one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column

from twinrack.server.models import Base


class TournamentRow(Base):
    __tablename__ = "tournaments"

    #: short random id, part of every link
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True),
                                                 server_default=func.now())
    #: sha256 of the director's secret key (the key itself is only in the director's link)
    director_key_hash: Mapped[str] = mapped_column(String(64))
    #: table number (as text) -> sha256 of that table's score-entry key; each key is
    #: derived from the director's key, so only the director's requests can (re)write these
    table_key_hashes: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    #: ``Tournament.to_json()``
    doc: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy reads it)
