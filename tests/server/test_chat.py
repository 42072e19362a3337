"""Chat (server/chat, docs/protocol.md "Chat"): lines refused whole when too long, empty or
not printable; at most 5 lines per sender in 10 s; the text sent back as it was written
(JSON, shown as text by the page); players' and spectators' lines apart during play and
shown to all after it; the quiet table's fixed phrases; mutes per account; reports, listed
by ``twinrack accounts reports``; the room's channel over HTTP."""

from __future__ import annotations

import random
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.server.accounts_helpers import sign_up
from tests.server.cluster_harness import PG_URL as CLUSTER_PG
from tests.server.cluster_harness import REDIS_URL, WHY_NOT
from tests.server.drive import Players
from tests.server.helpers import create_table, make_client, play_to_end, ws_path
from twinrack.server.chat.rules import MAX_CHARS, ChatRefused, RateWindow, check_text
from twinrack.server.deps import COOKIE

CLUSTER_READY = bool(CLUSTER_PG and REDIS_URL)

JSON = {"Content-Type": "application/json"}


def said(ws: Any, limit: int = 400) -> dict[str, Any]:
    """The next chat line, quiet switch or error that socket gets (states skipped)."""
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] in ("chat", "chat_quiet", "error"):
            return dict(m)
    raise AssertionError("no chat message came")


def say(ws: Any, text: Any, msg_id: str = "c1") -> dict[str, Any]:
    ws.send_json({"type": "chat", "text": text, "msg_id": msg_id})
    return said(ws)


def lines(client: Any, game_id: str, token: str | None = None) -> list[tuple[str, str]]:
    q = f"?token={token}" if token else ""
    got = client.get(f"/api/chat/t/{game_id}/lines{q}").json()
    return [(x["from"], x["text"]) for x in got["lines"]]


# ---------------------------------------------------------------------- the rules


def test_a_line_is_refused_whole_never_cut() -> None:
    assert check_text("  hello  ") == "hello"
    assert check_text("x" * MAX_CHARS) == "x" * MAX_CHARS
    for text, code in [("x" * (MAX_CHARS + 1), "chat_too_long"), ("   ", "chat_empty"),
                       ("two\nlines", "chat_bad_text"), ("bell\x07", "chat_bad_text"),
                       ("hidden\u200bmark", "chat_bad_text"), (42, "bad_message")]:
        with pytest.raises(ChatRefused) as err:
            check_text(text)
        assert err.value.code == code, text


def test_a_quiet_table_takes_the_fixed_phrases_only() -> None:
    assert check_text("good game!", quiet=True) == "Good game"
    assert check_text("WELL PLAYED.", quiet=True) == "Well played"
    with pytest.raises(ChatRefused) as err:
        check_text("good game, you got lucky", quiet=True)
    assert err.value.code == "chat_quiet"
    assert err.value.extra["phrases"] == ["Good game", "Thank you", "Good luck", "Well played"]


def test_five_lines_in_ten_seconds_then_wait() -> None:
    rate = RateWindow()
    for i in range(5):
        rate.check("s0", now=100.0 + i)
    with pytest.raises(ChatRefused) as err:
        rate.check("s0", now=105.0)
    assert err.value.code == "chat_rate_limited" and err.value.extra["retry_after_ms"] == 5001
    rate.check("s1", now=105.0)  # another sender is not held back
    rate.check("s0", now=110.0)  # the first line is 10 s old: one more may go


def test_the_shared_rate_limit_falls_back_to_the_worker_s_own_while_redis_is_away() -> None:
    import asyncio

    from redis.asyncio import Redis

    from tests.server.server_process import free_port
    from twinrack.server.chat.rate import RedisRate

    async def run() -> list[str]:
        nowhere = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=1,
                                 socket_connect_timeout=1)
        rate, got = RedisRate(nowhere), []
        try:
            for sender in ["g:a"] * 6 + ["g:b"]:
                try:
                    await rate.check("room", sender)
                    got.append("ok")
                except ChatRefused as err:
                    got.append(err.code)
        finally:
            await nowhere.aclose()
        return got

    assert asyncio.run(run()) == ["ok"] * 5 + ["chat_rate_limited", "ok"]


# ---------------------------------------------------------------------- at a table


def test_players_and_spectators_are_apart_during_play(service_url: str) -> None:
    with make_client(service_url) as client, Players.at_new_table(client) as table:
        p0, p1 = table.socks[0], table.socks[1]
        with client.websocket_connect(ws_path(table.game_id)) as watcher:
            line = say(p0, "<b>Hi</b> & good luck")["line"]
            assert line["text"] == "<b>Hi</b> & good luck"  # as written: the page shows text
            assert (line["from"], line["seat"], line["key"], line["audience"]) == \
                ("Ann", 0, "s0", "players")
            assert said(p1)["line"] == line
            mine = say(watcher, "from the rail")["line"]
            assert (mine["seat"], mine["audience"]) == (None, "spectators")
            assert mine["from"].startswith("Guest ")
            # the players' next chat message is seat 1's line: the spectator's never came
            assert say(p1, "thanks", "c2")["line"]["text"] == "thanks"
            assert said(p0)["line"]["text"] == "thanks"
            assert say(watcher, "again", "c3")["line"]["text"] == "again"  # not "thanks"
        assert lines(client, table.game_id, table.tokens[1]) == \
            [("Ann", "<b>Hi</b> & good luck"), ("Friend 2", "thanks")]
        assert [t for _, t in lines(client, table.game_id)] == ["from the rail", "again"]


def test_limits_and_the_rate_at_the_table(service_url: str) -> None:
    with make_client(service_url) as client, Players.at_new_table(client) as table:
        p0 = table.socks[0]
        err = say(p0, "x" * (MAX_CHARS + 1))
        assert (err["type"], err["code"], err["msg_id"]) == ("error", "chat_too_long", "c1")
        assert say(p0, "   ")["code"] == "chat_empty"
        assert say(p0, {"no": "text"})["code"] == "bad_message"
        assert lines(client, table.game_id, table.tokens[0]) == []  # nothing stored
        for i in range(5):
            assert say(p0, f"line {i}", f"m{i}")["type"] == "chat"
        err = say(p0, "one too many", "m5")
        assert err["code"] == "chat_rate_limited" and 0 < err["retry_after_ms"] <= 10_001
        assert len(lines(client, table.game_id, table.tokens[0])) == 5


def test_the_host_makes_the_table_quiet(service_url: str) -> None:
    with make_client(service_url) as client, Players.at_new_table(client) as table:
        p0, p1 = table.socks[0], table.socks[1]
        p1.send_json({"type": "chat_quiet", "on": True})
        assert said(p1)["code"] == "not_host"
        p0.send_json({"type": "chat_quiet", "on": True})
        assert said(p0) == said(p1) == {"type": "chat_quiet", "on": True}
        assert say(p1, "you will lose")["code"] == "chat_quiet"
        assert say(p1, "good luck!")["line"]["text"] == "Good luck"
        assert client.get(f"/api/chat/t/{table.game_id}/lines").json()["quiet"] is True
        p0.send_json({"type": "chat_quiet", "on": False})
        assert said(p1) == {"type": "chat_quiet", "on": False}
        assert say(p1, "you will lose", "c2")["line"]["text"] == "you will lose"


def test_after_the_game_every_line_reaches_everyone(database_url: str) -> None:
    with make_client(database_url) as client:
        game_id, tokens = create_table(client, seat1="random")
        with client.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            assert say(ws, "before the end")["line"]["audience"] == "players"
            play_to_end(ws, random.Random(3), [])
            with client.websocket_connect(ws_path(game_id)) as watcher:
                line = say(watcher, "well played", "c2")["line"]
                assert line["audience"] == "all"
                assert said(ws)["line"] == line
        assert [t for _, t in lines(client, game_id)] == ["before the end", "well played"]


# ---------------------------------------------------------------------- mutes and reports


def test_mutes_are_kept_for_a_signed_in_player(database_url: str) -> None:
    with make_client(database_url) as client:
        assert client.get("/api/chat/mutes?channel=t:x").json() == {"signed_in": False,
                                                                    "mutes": []}
        mute = {"channel": "t:abc", "key": "s1", "on": True}
        assert client.post("/api/chat/mutes", json=mute).status_code == 401
        sign_up(client, "muriel")
        assert client.post("/api/chat/mutes", content=b"channel=t:abc",
                           headers={"Content-Type": "application/x-www-form-urlencoded"}
                           ).status_code == 400  # a form another site could send
        assert client.post("/api/chat/mutes", json=mute,
                           headers={"Origin": "http://elsewhere.example"}).status_code == 403
        assert client.post("/api/chat/mutes", json=mute).json()["muted"] is True
        assert client.post("/api/chat/mutes", json={**mute, "key": "g:1234"}).status_code == 200
        assert client.get("/api/chat/mutes?channel=t:abc").json()["mutes"] == ["g:1234", "s1"]
        client.post("/api/chat/mutes", json={**mute, "on": False})
        assert client.get("/api/chat/mutes?channel=t:abc").json()["mutes"] == ["g:1234"]


def _reports(database_url: str) -> tuple[int, str]:
    from twinrack.cli import app

    result = CliRunner().invoke(app, ["accounts", "reports", "--database-url", database_url])
    return result.exit_code, result.output


def test_a_report_is_stored_once_and_the_operator_lists_it(database_url: str) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the command line opens the database itself")
    with make_client(database_url) as client, Players.at_new_table(client) as table:
        assert _reports(database_url) == (0, "No chat line has been reported.\n")
        line = say(table.socks[0], 'rude "words"')["line"]
        report = {"line": line["id"], "token": table.tokens[1]}
        client.cookies.clear()
        # a spectator cannot read (so cannot report) a players' line during play
        r = client.post("/api/chat/report", json={"line": line["id"]})
        assert (r.status_code, r.json()["code"]) == (404, "no_line")
        assert client.post("/api/chat/report", json={**report, "token": "nope"}
                           ).status_code == 404
        assert client.post("/api/chat/report", json=report).json() == \
            {"reported": line["id"], "already": False}
        assert client.post("/api/chat/report", json=report).json()["already"] is True
        code, out = _reports(database_url)
    assert code == 0, out
    head, first, second = out.splitlines()
    assert head == "1 report(s), newest first:"
    assert f"game {table.game_id}: line {line['id']} reported by Friend 2 (seat 2) [g:" in first
    assert second.strip().startswith("Ann, seat 1 [s0, to players]: ")
    assert second.endswith('"rude \\"words\\""')


# ---------------------------------------------------------------------- the room's channel


def test_the_room_channel_over_http(database_url: str) -> None:
    with make_client(database_url) as client:
        client.get("/")  # the browser's id cookie
        assert client.get("/api/chat/c/nowhere/lines").status_code == 404
        first = client.post("/api/chat/c/room/lines", json={"text": "anyone for Royale?"})
        assert first.status_code == 200, first.text
        line = first.json()["line"]
        assert (line["channel"], line["audience"], line["seat"]) == ("room", "all", None)
        got = client.get("/api/chat/c/room/lines").json()
        assert got["me"] == line["key"] and [x["text"] for x in got["lines"]] == \
            ["anyone for Royale?"]
        assert client.get(f"/api/chat/c/room/lines?after={line['id']}").json()["lines"] == []
        r = client.post("/api/chat/c/room/lines", content=b'{"text": "' + b"z" * 3000 + b'"}',
                        headers=JSON)
        assert (r.status_code, r.json()["code"]) == (413, "message_too_large")
        r = client.post("/api/chat/c/room/lines", json={"text": "y" * 201})
        assert (r.status_code, r.json()["code"]) == (400, "chat_too_long")
        for i in range(4):
            assert client.post("/api/chat/c/room/lines", json={"text": f"{i}"}).status_code \
                == 200
        r = client.post("/api/chat/c/room/lines", json={"text": "sixth"})
        assert (r.status_code, r.json()["code"]) == (429, "chat_rate_limited")
        assert client.post("/api/chat/report", json={"line": line["id"]}).json()[
            "reported"] == line["id"]


def _room_line(client: Any, text: str) -> dict[str, Any]:
    r = client.post("/api/chat/c/room/lines", json={"text": text})
    assert r.status_code == 200, r.text
    return dict(r.json()["line"])


def test_deleting_an_account_deletes_its_own_lines_and_keeps_its_seats_as_a_former_player(
        database_url: str) -> None:
    """The person's lines in the room and from the rail go (as the account, and as the
    guest of the browser it is deleted from), with the reports of them; a line said from
    their seat stays with the game, said by "a former player"; their reports stay,
    anonymised; mutes of them and by them go; the room names them no more."""
    from sqlalchemy import select

    from tests.server.accounts_helpers import PASSWORD, csrf_of
    from twinrack.server.chat.models import ChatLineRow, ChatMuteRow, ChatReportRow

    with make_client(database_url) as kate, make_client(database_url) as ben:
        kate.get("/")
        as_guest = _room_line(kate, "hello, still a guest")
        sign_up(kate, "kate")
        sign_up(ben, "ben")
        in_room = _room_line(kate, "anyone for Royale?")
        bens = _room_line(ben, "me!")
        kate.post("/room/quick", data={"variant": "siamese", "players": "2",
                                       "csrf": csrf_of(kate, "/room")})
        assert "kate" in ben.get("/room").text  # in the room, and hosting a table there
        game_id, tokens = create_table(kate, name="Kate", seat1="human")
        kate.get(f"/t/{game_id}?token={tokens[0]}")  # the seat is the account's
        with kate.websocket_connect(ws_path(game_id, tokens[0])) as seat, \
                kate.websocket_connect(ws_path(game_id)) as rail:
            from_seat = say(seat, "good luck")["line"]
            from_rail = say(rail, "watching myself")["line"]
        assert (from_seat["key"], from_rail["key"]) == ("s0", "a:kate")
        for line in (as_guest, in_room):  # ben reports kate's lines, kate reports ben's
            assert ben.post("/api/chat/report", json={"line": line["id"]}).status_code == 200
        assert kate.post("/api/chat/report", json={"line": bens["id"]}).status_code == 200
        mutes = [(ben, in_room["key"]), (kate, bens["key"])]
        for who, key in mutes:
            assert who.post("/api/chat/mutes", json={"channel": "room", "key": key,
                                                     "on": True}).status_code == 200
        r = kate.post("/account/delete", data={"password": PASSWORD,
                                               "csrf": csrf_of(kate, "/account")})
        assert r.status_code == 200 and "Account deleted" in r.text
        with kate.app.state.hub.db.reading() as s:
            kept = s.execute(select(ChatLineRow.channel, ChatLineRow.sender_key,
                                    ChatLineRow.sender_name, ChatLineRow.text)
                             .order_by(ChatLineRow.id)).all()
            reports = s.execute(select(ChatReportRow.line_id, ChatReportRow.reporter_key,
                                       ChatReportRow.reporter_name)).all()
            assert s.scalars(select(ChatMuteRow)).all() == []
        assert [tuple(r) for r in kept] == [
            ("room", bens["key"], "ben", "me!"),
            (f"t:{game_id}", "s0", "a former player", "good luck")]
        assert [tuple(r) for r in reports] == [(bens["id"], "former", "a former player")]
        assert [x["text"] for x in ben.get("/api/chat/c/room/lines").json()["lines"]] == \
            ["me!"]
        room = ben.get("/room").text  # nor named in the room any more
        assert "kate" not in room.lower() and "a former player <span" in room


@pytest.mark.postgres
@pytest.mark.skipif(not CLUSTER_READY, reason=WHY_NOT)
def test_the_rate_limit_holds_across_the_workers_of_a_cluster() -> None:
    """Two app instances (workers w1 and w2) on one PostgreSQL and one Redis: a sender
    whose lines go to both may say no more than through one; another sender is not held
    back."""
    assert CLUSTER_PG is not None
    with make_client("cluster:" + CLUSTER_PG) as w1:
        w2 = w1.peer
        w1.get("/")  # the browser's id cookie: the same browser on both workers
        w2.cookies.set(COOKIE, w1.cookies[COOKIE])
        for i in range(5):
            worker = (w1, w2)[i % 2]
            r = worker.post("/api/chat/c/room/lines", json={"text": f"line {i}"})
            assert r.status_code == 200, r.text
        for worker in (w1, w2):
            r = worker.post("/api/chat/c/room/lines", json={"text": "one too many"})
            assert (r.status_code, r.json()["code"]) == (429, "chat_rate_limited")
            assert 0 < r.json()["retry_after_ms"] <= 10_001
        got = w2.get("/api/chat/c/room/lines").json()["lines"]
        assert [x["text"] for x in got] == [f"line {i}" for i in range(5)]
        w2.cookies.delete(COOKIE)
        w2.get("/")  # another browser: its own window
        assert w2.post("/api/chat/c/room/lines", json={"text": "hello"}).status_code == 200


def test_the_migration_matches_the_models_and_downgrades(tmp_path: Any) -> None:
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.config import Config
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine, inspect

    from twinrack.server.chat import models  # noqa: F401  (the tables, on Base.metadata)
    from twinrack.server.db import MIGRATIONS, make_engine, migrate
    from twinrack.server.models import Base

    tables = {"chat_lines", "chat_reports", "chat_mutes", "chat_settings"}
    url = f"sqlite:///{tmp_path}/m.db"
    engine = make_engine(url)
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert [d for d in diff if any(t in repr(d) for t in tables)] == []
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0009")
    assert not tables & set(inspect(create_engine(url)).get_table_names())
    engine.dispose()
