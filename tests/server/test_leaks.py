"""Nothing hidden leaves the server, by any route.

The test enumerates the application's routes, so that a route added later is covered
without anyone remembering to add it here: during seeded random games of every variant it
calls every GET route and opens every WebSocket route, for the game, as each seat (by its
token) and as a spectator, and checks that no answer holds anything that viewer may not
see: another seat's concealed tiles, an event it sees redacted, the seed before the end,
another seat's token. Each seat is a signed-in account (seat 0's profile private), so the
accounts' pages are asked for as their owners and as everyone else: a private profile
shows nothing to others, and no profile, "my games" or leaderboard counts a game in play.
A route that changes a game by another method must be added to the checks below, or the
test fails: the rematch (POST) is one, checked by :func:`check_rematch`. Chat (server/chat)
is checked by :func:`check_chat`: its messages hold nothing hidden, and during play a
players' line reaches no spectator by any route (nor a spectator's a seat).
"""

from __future__ import annotations

import copy
import json
import random
import re
import time
from typing import Any

import pytest
from fastapi.routing import APIWebSocketRoute
from sqlalchemy import func, select
from starlette.routing import Mount, WebSocketRoute

from tests.server.accounts_helpers import csrf_of, sign_up
from tests.server.cluster_client import live_table
from tests.server.conftest import on_services, service_urls
from tests.server.drive import Players
from tests.server.helpers import make_client
from twinrack.engine import GameState, legal_actions, view
from twinrack.engine.record import record_for
from twinrack.narration import LABELS, narrate
from twinrack.server.accounts.models import GameStatRow, RatingRow
from twinrack.server.hub import token_hash
from twinrack.server.table.wire import PROTOCOL, legal_objects, names_for
from twinrack.tiles import format_tiles


def secrets_of(state: GameState, viewer: int | None, tokens: dict[int, str],
               names: list[str]) -> set[str]:
    """What ``viewer`` may not see now, as text that would betray it: in notation and as
    the narrated log would say it."""
    out: set[str] = set()
    if not state.over:
        out.add(state.seed.hex())
        shown = names_for(names, viewer)
        for e in state.events:
            seen = e.seen_by(viewer)
            if seen != e:
                out.add(str(e))
                said = narrate(e, shown, words=LABELS)
                if said != narrate(seen, shown, words=LABELS):  # the words tell the secret
                    out.add(said)
        for s in range(len(state.players)):
            hand = view(state, s).hand
            assert hand is not None
            concealed = sorted(t for rack in hand for t in rack)
            if s != viewer and len(concealed) >= 5:
                out.update({format_tiles(concealed), LABELS.tiles(concealed)})
    for s, t in tokens.items():
        if s != viewer:
            out.update({t, token_hash(t)})
    return out


#: the routes that act on a game by another method than GET, each checked below
POSTED = {"/t/{game_id}/join", "/t/{game_id}/rematch", "/room/t/{game_id}/seat"}


def game_routes(app: Any) -> tuple[list[str], list[str]]:
    """Every GET path and WebSocket path of the app, with ``{game_id}`` and the other
    parameters left in place."""
    gets, sockets = [], []
    for r in flat_routes(app.routes):
        if isinstance(r, Mount):
            assert r.path == "/static", f"a new mount {r.path}: check what it serves"
        elif isinstance(r, APIWebSocketRoute | WebSocketRoute):
            sockets.append(r.path)
        elif "GET" in (r.methods or ()):
            gets.append(r.path)
        else:
            assert "{game_id}" not in r.path or r.path in POSTED, \
                f"{r.methods} {r.path} acts on a game: cover it in this test"
    return gets, sockets


def flat_routes(routes: list[Any], prefix: str = "") -> list[Any]:
    """Every route, with those of included routers (FastAPI keeps an included router as one
    entry) given their full path."""
    out = []
    for r in routes:
        inner = getattr(r, "original_router", None)
        if inner is not None:
            out += flat_routes(inner.routes, prefix + (r.include_context.prefix or ""))
        else:
            if prefix:
                r = copy.copy(r)
                r.path = prefix + r.path
            out.append(r)
    return out


def fill(path: str, game_id: str, name: str = "x") -> str:
    path = path.replace("{game_id}", game_id).replace("{name}", name)
    return re.sub(r"\{[^}]+\}", "x", path)


def sign_up_seats(players: Players) -> dict[int, tuple[str, str]]:
    """An account for each seat (its name and session cookie); seat 0's profile is
    private. The seats become the accounts' when the check opens their table pages."""
    client = players.client
    accounts = {}
    for seat in players.tokens:
        client.cookies.clear()
        sign_up(client, f"seat{seat}-{players.game_id[:6]}")
        accounts[seat] = (f"seat{seat}-{players.game_id[:6]}",
                          client.cookies["twinrack_session"])
    client.cookies.clear()
    client.cookies.set("twinrack_session", accounts[0][1])
    r = client.post("/account/settings", data={"private": "on",
                                               "csrf": csrf_of(client, "/account")})
    assert r.status_code == 200
    client.cookies.clear()
    return accounts


def check_accounts(players: Players, accounts: dict[int, tuple[str, str]],
                   viewer: int | None) -> None:
    """The accounts' pages, as ``viewer``: the private profile (seat 0's) shows its owner
    only, and during play no profile, "my games" or leaderboard holds more of the game
    than its id (no rating moves, no statistic is counted before the end)."""
    client = players.client
    over = players.over
    private = client.get(f"/u/{accounts[0][0]}")
    if viewer == 0:
        assert private.status_code == 200 and "Your profile is private" in private.text
    else:
        assert private.status_code == 404 and accounts[0][0] not in private.text
    pages = [client.get(f"/u/{name}").text for name, _ in accounts.values()]
    pages.append(client.get("/leaderboard").text)
    if not over:
        assert not [p for p in pages if players.game_id in p]
        with client.app.state.hub.db.reading() as s:
            assert s.scalar(select(func.count()).select_from(RatingRow)) == 0
            assert s.scalar(select(func.count()).select_from(GameStatRow)) == 0


def other_secrets(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    """The same game but for what ``viewer`` cannot see: one concealed tile of another
    seat exchanged with an unseen wall tile (None when there is no such pair)."""
    others = [s for s, p in enumerate(state.players)
              if s != viewer and p.declared is None and p.concealed]
    rest = range(state.wall_pos, len(state.wall))
    if not others or not rest:
        return None
    alt = state.copy()
    p = alt.players[rng.choice(others)]
    rack = rng.choice([r for r in p.racks if sum(r.arranged)])
    mine = rng.choice([t for t, n in enumerate(rack.arranged) if n])
    spots = [i for i in rest if alt.wall[i] != mine]
    if not spots:
        return None
    i = rng.choice(spots)
    theirs = alt.wall[i]
    alt.wall = list(alt.wall)
    alt.wall[i] = mine
    for counts in (p.pool, rack.arranged):
        counts[mine] -= 1
        counts[theirs] += 1
    return alt


def check_blind(state: GameState, viewer: int, rng: random.Random) -> None:
    """What the table sends a seat, its view and its actions with the words that come with
    them (an exposure that kills its rack, what a claim would do), is the same whatever the
    other seats conceal and the wall holds."""
    for _ in range(2):
        alt = other_secrets(state, viewer, rng)
        if alt is None:
            return
        assert view(alt, viewer) == view(state, viewer)
        assert legal_objects(alt, viewer) == legal_objects(state, viewer)


def settled(table: Any) -> GameState:
    """The table's game once the passes it owes at once are made (right after the deal the
    table passes for the seats that cannot declare: its queue may still hold them)."""
    deadline = time.monotonic() + 10
    while table._silent() and time.monotonic() < deadline:  # bounded: the table is busy
        time.sleep(0.02)
    state: GameState = table.state
    return state


def check_every_route(players: Players, rng: random.Random,
                      accounts: dict[int, tuple[str, str]] | None = None) -> int:
    """Every route as every viewer (each seat signed in to its account, when ``accounts``
    are given; routes with a ``{name}`` are asked for every account's name)."""
    client = players.client
    accounts = accounts or {}
    names = [name for name, _ in accounts.values()] or ["x"]
    table = live_table(client, players.game_id)
    state = settled(table)
    gets, sockets = game_routes(client.app)
    viewers: list[int | None] = [None, *players.tokens]
    calls = 0
    for viewer in viewers:
        token = players.tokens.get(viewer) if viewer is not None else None
        hidden = secrets_of(state, viewer, players.tokens, [s.name for s in table.seats])
        if not state.over:  # chat: the players' lines are for the players during play
            hidden.add(PLAYERS_LINE if viewer is None else RAIL_LINE)
        query = f"?token={token}" if token else ""
        client.cookies.clear()  # each viewer is a browser of its own
        if viewer in accounts:
            client.cookies.set("twinrack_session", accounts[viewer][1])
        for path in gets:
            for name in names if "{name}" in path else ["x"]:
                r = client.get(fill(path, players.game_id, name) + query)
                leaked = [s for s in hidden if s in r.text]
                assert not leaked, f"GET {path} as {viewer}: {leaked[:3]}"
                calls += 1
        if accounts:
            check_accounts(players, accounts, viewer)
        for path in sockets:
            speaks = f"?protocol={PROTOCOL}" + (f"&token={token}" if token else "")
            with client.websocket_connect(fill(path, players.game_id) + speaks) as ws:
                first = ws.receive_text()
            leaked = [s for s in hidden if s in first]
            assert not leaked, f"WS {path} as {viewer}: {leaked[:3]}"
            # and what it sends is the engine's view and this viewer's own actions
            msg = json.loads(first)
            assert msg["type"] == "state" and msg["view"] == view(state, viewer).to_dict()
            # every hand is shown only at the end; the rematch link is the seat's own
            assert (msg["view"]["revealed"] == []) == (not state.over)
            assert msg["rematch"] is None or (viewer is not None and re.fullmatch(
                r"/t/\w+", msg["rematch"]) is not None)
            legal = legal_actions(state, viewer) if viewer is not None else []
            assert [x["text"] for x in msg["legal"]] == [a.body() for a in legal]
            if viewer is not None and not state.over:  # at the end every hand is shown
                check_blind(state, viewer, rng)
            calls += 1
        # an invited player's name, refused (too long): the refusal says nothing hidden
        r = client.post(f"/t/{players.game_id}/join", data={"token": token or "",
                                                            "name": "n" * 41})
        leaked = [s for s in hidden if s in r.text]
        assert not leaked, f"POST /t/{{game_id}}/join as {viewer}: {leaked[:3]}"
        calls += 1
        # and the record is exactly what the engine says this viewer may see
        rec = client.get(f"/api/games/{players.game_id}/record{query}").json()
        expected = record_for(state, viewer)
        expected["card"]["source"] = table.card.source
        assert rec == expected
    return calls


#: lines said at the start by seat 0 and by a spectator: during play neither may reach
#: the other side by any route (after the game everyone reads both)
PLAYERS_LINE = "players only: 7c1e"
RAIL_LINE = "spectators only: 9d0f"


def check_chat(players: Players, rng: random.Random) -> None:
    """Chat over the table channel, as every viewer: the line it says comes back to it,
    and nothing it receives meanwhile holds what it may not see (a spectator never gets
    the players' lines during play, nor a seat the spectators')."""
    client = players.client
    table = live_table(client, players.game_id)
    state = settled(table)
    for viewer in [None, *players.tokens]:
        token = players.tokens.get(viewer) if viewer is not None else None
        hidden = secrets_of(state, viewer, players.tokens, [s.name for s in table.seats])
        if not state.over:
            hidden.add(PLAYERS_LINE if viewer is None else RAIL_LINE)
        text = f"chat check {rng.randrange(10**6)}"
        speaks = f"?protocol={PROTOCOL}" + (f"&token={token}" if token else "")
        got = []
        with client.websocket_connect(f"/ws/{players.game_id}{speaks}") as ws:
            ws.send_json({"type": "chat", "text": text})
            for _ in range(200):  # bounded: the line comes back after the states
                got.append(ws.receive_text())
                msg = json.loads(got[-1])
                if msg["type"] in ("chat", "error"):
                    break
        assert msg["type"] == "chat" and msg["line"]["text"] == text, msg
        leaked = [s for s in hidden if any(s in g for g in got)]
        assert not leaked, f"chat as {viewer}: {leaked[:3]}"


def check_room_seat(players: Players) -> None:
    """The room's "take a seat" (server/room): a table the room did not open is not in it,
    whoever asks and whatever seat, and the refusal tells nothing of the game."""
    client = players.client
    table = live_table(client, players.game_id)
    hidden = secrets_of(settled(table), None, players.tokens, [s.name for s in table.seats])
    client.cookies.clear()
    for seat in ("0", "1"):
        r = client.post(f"/room/t/{players.game_id}/seat",
                        data={"seat": seat, "csrf": csrf_of(client, "/room")})
        assert r.status_code == 404 and "not in the room" in r.text
        assert not [s for s in hidden if s in r.text]


def check_rematch(players: Players) -> None:
    """The rematch route: refused during play and to a spectator or a wrong token; once the
    game is over each seat is sent to its own seat of the one new table (with its own
    token), and neither the answers nor the old table's messages show a seat another
    seat's token."""
    client = players.client
    url = f"/t/{players.game_id}/rematch"
    client.cookies.clear()
    assert client.post(url, data={"token": "not-a-token"}).status_code == 403
    assert client.post(url).status_code == 403  # a spectator
    if not players.over:
        assert client.post(url, data={"token": players.tokens[0]}).status_code == 409
        assert live_table(client, players.game_id).rematch is None
        return
    places, kept = {}, {}
    for seat, token in players.tokens.items():
        client.cookies.clear()
        r = client.post(url, data={"token": token}, follow_redirects=False)
        assert r.status_code == 303
        places[seat] = r.headers["location"]
        kept[seat] = r.cookies  # the seat's token, in its cookie at the rematch
    # the finished game, loaded where the rematch was asked (in a cluster: this worker)
    table = client.app.state.hub.tables[players.game_id]
    assert table.rematch is not None
    new_tokens = players.tokens
    # every seat goes to the same clean address (issue 26: a token in the address bar
    # hands the seat to whoever is sent the address), its own token in its own cookie
    assert places == {s: f"/t/{table.rematch}" for s in new_tokens}
    assert {s: c.get(f"twinrack_seat_{table.rematch}") for s, c in kept.items()} == new_tokens
    for viewer in [None, *players.tokens]:
        query = f"&token={players.tokens[viewer]}" if viewer is not None else ""
        with client.websocket_connect(f"/ws/{players.game_id}?protocol={PROTOCOL}{query}") as ws:
            first = ws.receive_text()
        others = [t for s, t in new_tokens.items() if s != viewer]
        assert not [t for t in others if t in first], f"a rematch link leaked to {viewer}"


@pytest.mark.parametrize(("service_url", "variant", "players", "seed"), on_services(
    service_urls(),
    [("siamese", "2", 21), ("royale", "3", 22), ("royale", "4", 23), ("imperial", "2", 24),
     ("american", "4", 25), ("american", "3", 26)],
    also={("siamese", "2", 21), ("royale", "4", 23), ("american", "4", 25)}),
    indirect=["service_url"])
def test_no_route_shows_a_viewer_what_it_may_not_see(service_url: str, variant: str,
                                                     players: str, seed: int) -> None:
    rng = random.Random(seed)
    with make_client(service_url) as client:
        table = Players.at_new_table(client, variant=variant, players=players)
        with table:
            accounts = sign_up_seats(table)
            table.socks[0].send_json({"type": "chat", "text": PLAYERS_LINE})
            with table.client.websocket_connect(
                    f"/ws/{table.game_id}?protocol={PROTOCOL}") as rail:
                rail.send_json({"type": "chat", "text": RAIL_LINE})
                for _ in range(200):  # bounded: the line comes back after the state
                    if json.loads(rail.receive_text())["type"] == "chat":
                        break
            check_chat(table, rng)
            calls = check_every_route(table, rng, accounts)
            steps = 0
            while not table.over and steps < 400:
                table.step(rng)
                steps += 1
                # and often during the Charleston, while some passes are chosen and
                # others not (what a seat chose is seen by it alone until the tiles move)
                charleston = table.states[0]["view"]["phase"] == "charleston"
                if steps % 100 == 0 or (charleston and steps % 3 == 1):
                    calls += check_every_route(table, rng, accounts)
                if steps == 30:
                    check_rematch(table)
                    check_room_seat(table)
            calls += check_every_route(table, rng, accounts)
            check_chat(table, rng)
            check_rematch(table)
            calls += check_every_route(table, rng, accounts)
    assert calls > 50


def test_the_record_during_play_holds_no_hidden_tile(service_url: str) -> None:
    """The defect this test keeps away: the record route answered everyone, during play,
    with every seat's deal and every picked tile."""
    with make_client(service_url) as client:
        with Players.at_new_table(client) as table:
            rng = random.Random(3)
            for _ in range(6):
                table.step(rng)
        game_id = table.game_id
        state = live_table(client, game_id).state
        spectator = client.get(f"/api/games/{game_id}/record").json()
        assert spectator["seed"] is None and "actions" not in spectator
        assert [e for e in spectator["events"] if e.startswith("deal")] == [
            "deal 0 27", "deal 1 27"]
        mine = client.get(f"/api/games/{game_id}/record?token={table.tokens[1]}").json()
        assert mine["events"] == [str(e.seen_by(1)) for e in state.events]
        assert any(e.startswith("deal 1 27: ") for e in mine["events"])
        assert "deal 0 27" in mine["events"]
        bad = client.get(f"/api/games/{game_id}/record?token=not-a-token")
        assert bad.status_code == 403
