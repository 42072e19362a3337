"""Profiles, "my games" across devices, statistics and ratings: counted once each game is
over (never during play), rated only between signed-in players with the default card (or
one of them against the computer), the leaderboard, private profiles."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from tests.server.accounts_helpers import csrf_of, sign_in, sign_up
from tests.server.drive import Players
from tests.server.helpers import create_table, make_client, play_to_end, ws_path
from twinrack.bots import BOTS
from twinrack.bots.driver import play_out
from twinrack.card import practice_card
from twinrack.engine import RuleSet, new_game
from twinrack.server.accounts import ratings
from twinrack.server.accounts.models import GameStatRow, RatingEventRow, RatingRow
from twinrack.server.accounts.stats import rated_pool, seat_facts
from twinrack.server.writer import result_of


def test_seats_are_ranked_by_their_totals_and_equal_totals_tie() -> None:
    assert ratings.ranks_of([30, -10, -10, -10]) == [1, 2, 2, 2]
    assert ratings.ranks_of([-5, 20, 20, 0]) == [4, 1, 1, 3]
    assert ratings.ranks_of([0, 0]) == [1, 1]


def test_the_winner_gains_what_the_losers_lose_and_a_tie_moves_nobody_apart() -> None:
    new = ratings.start()
    won, lost = ratings.rate([new, new], [25, -25])
    assert won.mu > new.mu > lost.mu and won.sigma < new.sigma
    a, b = ratings.rate([new, new], [0, 0])
    assert a == b
    four = ratings.rate([new] * 4, [40, 10, -20, -30])
    assert [s.mu for s in four] == sorted((s.mu for s in four), reverse=True)


def test_a_computer_level_keeps_its_fixed_rating() -> None:
    me, bot = ratings.start(), ratings.bot_skill("expert")
    after = ratings.rate([me, bot], [-20, 20], fixed={1})
    assert after[1] == bot and after[0].mu < me.mu
    beat_random = ratings.rate([me, ratings.bot_skill("random")], [20, -20], fixed={1})[0]
    beat_expert = ratings.rate([me, bot], [20, -20], fixed={1})[0]
    assert beat_expert.mu > beat_random.mu > me.mu  # beating the stronger counts more


@pytest.mark.parametrize(("kinds", "owners", "card", "pool"), [
    (["human", "human"], {0: 1, 1: 2}, "default", "people:siamese"),
    (["human", "expert"], {0: 1}, "default", "computer:siamese"),
    (["human", "human"], {0: 1}, "default", None),  # a guest at the table
    (["human", "human"], {0: 1, 1: 1}, "default", None),  # one account on both seats
    (["human", "human"], {0: 1, 1: 2}, "uploaded", None),  # not the default card
    (["human", "human", "greedy"], {0: 1, 1: 2}, "default", None),  # people and computer
    (["expert", "greedy"], {}, "default", None),
])
def test_which_games_are_rated(kinds: list[str], owners: dict[int, int], card: str,
                               pool: str | None) -> None:
    sha = practice_card().sha256 if card == "default" else "0" * 64
    assert rated_pool("siamese", sha, kinds, owners) == pool


def _invited(host: object, guest: object) -> tuple[str, dict[int, str]]:
    """A table of two people, each signed in in their own browser, both seats taken."""
    game_id, tokens = create_table(host, seat1="human", call_seconds="120")  # type: ignore[arg-type]
    host.get(f"/t/{game_id}?token={tokens[0]}")  # type: ignore[attr-defined]
    guest.get(f"/t/{game_id}?token={tokens[1]}")  # type: ignore[attr-defined]
    return game_id, tokens


def _play_out(client: object, game_id: str, tokens: dict[int, str], seed: int) -> None:
    with Players(client, game_id, tokens) as players:  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not players.over:
            players.step(rng)


def test_a_rated_game_moves_both_ratings_once_it_is_over(database_url: str) -> None:
    with make_client(database_url) as ann, make_client(database_url) as ben:
        sign_up(ann, "ann")
        sign_up(ben, "ben")
        game_id, tokens = _invited(ann, ben)
        # during play: nothing counted, no rating, nothing on the profile
        assert "Nobody is rated here yet" in ann.get("/leaderboard").text
        assert game_id not in ben.get("/u/ann").text
        _play_out(ann, game_id, tokens, seed=3)
        board = ann.get("/leaderboard?pool=people:siamese").text
        names = re.findall(r'<a href="/u/(\w+)">', board)
        assert sorted(names) == ["ann", "ben"] and board.count("(provisional)") == 2
        hub = ann.app.state.hub
        with hub.db.reading() as s:
            rows = s.scalars(select(RatingRow).order_by(RatingRow.account_id)).all()
            assert [(r.pool, r.games) for r in rows] == [("people:siamese", 1)] * 2
            assert {r.mu for r in rows} != {ratings.start().mu} or rows[0].mu == rows[1].mu
            assert s.scalar(select(func.count()).select_from(GameStatRow)) == 2
        ann.get("/leaderboard")  # counting again counts nothing twice
        with hub.db.reading() as s:
            assert s.scalar(select(func.count()).select_from(RatingEventRow)) == 2
        profile = ben.get("/u/ann").text
        assert "Siamese, against people" in profile and "<svg" in profile
        assert f'href="/t/{game_id}/replay"' in profile and "review" in profile
        assert re.search(r"<td>Siamese</td><td>1</td>", profile)


def test_my_games_are_the_accounts_on_every_device_with_filters(database_url: str) -> None:
    with make_client(database_url) as phone, make_client(database_url) as laptop:
        sign_up(phone, "cleo")
        create_table(phone, name="Cleo")
        assert sign_in(laptop, "cleo").status_code == 303
        game_id, tokens = create_table(laptop, name="Cleo")
        laptop.get(f"/t/{game_id}?token={tokens[0]}")
        first = create_table(phone, name="Cleo")
        phone.get(f"/t/{first[0]}?token={first[1][0]}")
        assert phone.get("/history", follow_redirects=False).headers["location"] == \
            "/account/games"
        for client in (phone, laptop):
            page = client.get("/account/games").text
            assert game_id in page and first[0] in page
        none = phone.get("/account/games?outcome=won").text
        assert game_id not in none and "match these filters" in none
        assert game_id in phone.get("/account/games?outcome=unfinished&variant=siamese"
                                    "&opponent=random").text
    with make_client(database_url) as stranger:
        r = stranger.get("/account/games", follow_redirects=False)
        assert r.headers["location"] == "/signin?next=/account/games"


def test_a_private_profile_shows_nothing_to_others(database_url: str) -> None:
    with make_client(database_url) as dora, make_client(database_url) as eve:
        sign_up(dora, "dora")
        sign_up(eve, "eve")
        game_id, tokens = _invited(dora, eve)
        _play_out(dora, game_id, tokens, seed=5)
        r = dora.post("/account/settings", data={"private": "on",
                                                 "csrf": csrf_of(dora, "/account")})
        assert r.status_code == 200
        mine = dora.get("/u/dora")
        assert mine.status_code == 200 and "Your profile is private" in mine.text
        for viewer in (eve, make_client(database_url)):
            r = viewer.get("/u/dora")
            nobody = viewer.get("/u/nobody-at-all")
            assert r.status_code == nobody.status_code == 404
            assert "dora" not in r.text and game_id not in r.text
        board = eve.get("/leaderboard").text
        assert "/u/eve" in board and "dora" not in board


def test_a_game_against_the_computer_is_rated_in_its_own_pool(database_url: str) -> None:
    with make_client(database_url) as fay:
        sign_up(fay, "fay")
        game_id, tokens = create_table(fay, seat1="random")
        fay.get(f"/t/{game_id}?token={tokens[0]}")
        with fay.websocket_connect(ws_path(game_id, tokens[0])) as ws:
            play_to_end(ws, random.Random(7), [])
        board = fay.get("/leaderboard?pool=computer:siamese").text
        assert "/u/fay" in board
        assert "Nobody is rated" in fay.get("/leaderboard?pool=people:siamese").text
        assert fay.get("/leaderboard?pool=nonsense").status_code == 404


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-200, 200), min_size=2, max_size=4))
def test_among_equal_ratings_the_new_ones_follow_the_totals(totals: list[int]) -> None:
    """Seats that start equal end in the order of their totals, equal totals equal."""
    after = ratings.rate([ratings.start()] * len(totals), totals)
    for i, a in enumerate(totals):
        for j, b in enumerate(totals):
            if a > b:
                assert after[i].mu > after[j].mu
            elif a == b:
                assert after[i].mu == pytest.approx(after[j].mu)


@pytest.mark.parametrize(("variant", "players", "seed", "bot", "doubles", "dead"), [
    ("siamese", 2, 0, "greedy", [0, 0], [0, 0]),
    ("siamese", 2, 2, "expert", [1, 0], [0, 0]),  # a Double Mah Jongg
    ("siamese", 2, 3, "random", [0, 0], [2, 0]),  # dead racks
    ("royale", 3, 6, "expert", [0, 0, 1], [0, 0, 0]),
    ("imperial", 2, 1, "random", [0, 0], [2, 3]),
])
def test_a_finished_games_facts_agree_with_its_score(
        variant: str, players: int, seed: int, bot: str, doubles: list[int],
        dead: list[int]) -> None:
    """Seeded games of bots: each seat's facts, against the itemized score (its total, a
    Mah Jongg line per Mah Jongg naming its card line, a Double Mah Jongg where the score
    says so) and the dead racks of the final state."""
    card = practice_card()
    state = new_game(RuleSet.for_variant(variant, players), seed=seed, card=card)
    play_out(state, [BOTS[bot](card) for _ in range(players)],
             [random.Random(seed + i) for i in range(players)])
    result = result_of(state)
    facts = seat_facts(state)
    assert [f.doubles for f in facts] == doubles and [f.dead_racks for f in facts] == dead
    for f in facts:
        said = [x["reason"] for x in result["lines"] if x["seat"] == f.seat]
        made = [r for r in said if "Mah Jongg" in r and "threw" not in r]
        assert f.points == result["totals"][f.seat]
        assert f.won == (result["winner"] == f.seat)
        assert f.mahjonggs == len(made) == len(f.lines)
        assert all(any(line in r for r in made) for line in f.lines)
        assert f.doubles == int(any(r.startswith("Double Mah Jongg hand") for r in said))
        assert 0 <= f.dead_racks <= f.racks == state.rules.racks
