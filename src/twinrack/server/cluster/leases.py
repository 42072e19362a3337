"""Leases in the database: who owns each game, with which epoch (the fencing token).

A game's lease row names its owner and an epoch raised by one at every change of owner;
every stored action carries its owner's epoch and a trigger refuses any other (migration
0005). A worker's leases all run out together: ``lease_holders`` has one row per worker,
renewed with one write, and a lease whose owner's row has run out may be taken by anyone.
Times are the database's clock, so the workers' clocks never need to agree.

Each function runs on the database's threads (:meth:`Database.run`), in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, text

from twinrack.server.db import Database

#: the database's clock in seconds (PostgreSQL: the cluster needs it)
NOW = "EXTRACT(EPOCH FROM clock_timestamp())"


@dataclass(frozen=True)
class Renewal:
    """What one renewal learnt: the leases this worker holds (game -> epoch) and the
    workers whose leases still run."""

    owned: dict[str, int]
    alive: set[str]


def renew(db: Database, worker: str, seconds: float) -> Renewal:
    """Extend every lease of ``worker`` by ``seconds`` (one row), and read which games it
    owns now: a game taken over while it was silent is no longer among them."""
    with db.core() as conn:
        done = conn.execute(text(f"UPDATE lease_holders SET expires_at = {NOW} + :s "
                                 "WHERE worker = :w"), {"s": seconds, "w": worker})
        if done.rowcount == 0:
            conn.execute(text(f"INSERT INTO lease_holders (worker, expires_at) "
                              f"VALUES (:w, {NOW} + :s)"), {"s": seconds, "w": worker})
        owned = {r.game_id: r.epoch for r in conn.execute(
            text("SELECT l.game_id, l.epoch FROM leases l JOIN games g ON g.id = l.game_id "
                 "WHERE l.owner = :w AND g.status = 'playing'"), {"w": worker})}
        alive = {r.worker for r in conn.execute(
            text(f"SELECT worker FROM lease_holders WHERE expires_at > {NOW}"))}
    return Renewal(owned, alive)


def take_expired(db: Database, worker: str, limit: int) -> dict[str, int]:
    """Take up to ``limit`` unfinished games that nobody holds (no owner, or an owner whose
    leases ran out), raising each one's epoch; returns game -> new epoch. Rows locked by a
    write in flight are skipped (taken at the next look), as are those another worker is
    taking at the same moment."""
    with db.core() as conn:
        rows = conn.execute(text(
            "UPDATE leases SET owner = :w, epoch = epoch + 1 WHERE game_id IN ("
            " SELECT l.game_id FROM leases l JOIN games g ON g.id = l.game_id"
            " WHERE g.status = 'playing' AND (l.owner IS NULL OR NOT EXISTS ("
            f"  SELECT 1 FROM lease_holders h WHERE h.worker = l.owner AND h.expires_at > {NOW}"
            " )) LIMIT :n FOR UPDATE OF l SKIP LOCKED) RETURNING game_id, epoch"),
            {"w": worker, "n": limit}).all()
    return {r.game_id: r.epoch for r in rows}


def hand_over(db: Database, worker: str, moves: dict[str, str | None]) -> dict[str, int]:
    """Give games of ``worker`` to other workers (None: to whoever takes them first),
    raising their epochs; returns game -> new epoch for those it still held."""
    out: dict[str, int] = {}
    with db.core() as conn:
        for game_id, to in moves.items():
            row = conn.execute(text("UPDATE leases SET owner = :to, epoch = epoch + 1 "
                                    "WHERE game_id = :g AND owner = :w RETURNING epoch"),
                               {"to": to, "g": game_id, "w": worker}).first()
            if row is not None:
                out[game_id] = row.epoch
    return out


def leave(db: Database, worker: str) -> None:
    """A worker that stops: its row goes (its games were handed over before)."""
    with db.core() as conn:
        conn.execute(text("DELETE FROM lease_holders WHERE worker = :w"), {"w": worker})


def games_by_owner(db: Database, limit: int) -> dict[str, list[str]]:
    """The games in play of each owner (at most ``limit`` in all), as /healthz lists them."""
    with db.core() as conn:
        rows = conn.execute(text(
            "SELECT l.owner, l.game_id FROM leases l JOIN games g ON g.id = l.game_id "
            "WHERE g.status = 'playing' AND l.owner IS NOT NULL "
            "ORDER BY l.owner, l.game_id LIMIT :n"), {"n": limit}).all()
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(r.owner, []).append(r.game_id)
    return out


@dataclass(frozen=True)
class Holder:
    """A game's owner (None: nobody), its epoch, whether the game is still being played,
    and whether the owner's leases still run."""

    owner: str | None
    epoch: int
    playing: bool
    alive: bool


def holders(db: Database, game_ids: list[str]) -> dict[str, Holder]:
    """The lease of each game (games that do not exist are left out)."""
    if not game_ids:
        return {}
    with db.core() as conn:
        rows = conn.execute(text(
            "SELECT g.id, g.status, l.owner, l.epoch, h.expires_at > "
            f"{NOW} AS alive FROM games g JOIN leases l ON l.game_id = g.id "
            "LEFT JOIN lease_holders h ON h.worker = l.owner WHERE g.id IN :ids")
            .bindparams(bindparam("ids", expanding=True)), {"ids": game_ids}).all()
    return {r.id: Holder(r.owner, r.epoch, r.status == "playing", bool(r.alive))
            for r in rows}
