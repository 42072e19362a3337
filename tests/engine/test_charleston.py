"""The Charleston of the American game (docs/rules.md, section 3): its stages, hidden
simultaneous choices, blind passes, the vote, the courtesy pass, and what each seat sees."""

from __future__ import annotations

import pytest

from tests.engine.helpers import R, legal_texts, play, rig
from twinrack.engine import GameState, apply, legal_actions, parse_action, view
from twinrack.engine.charleston_plan import kept_tiles, plan
from twinrack.engine.view import events_for
from twinrack.errors import IllegalActionError
from twinrack.tiles import parse_tiles

HANDS = ["1B 2B 3B 4B 5B 6B J", "1C 2C 3C 4C 5C 6C", "1D 2D 3D 4D 5D 6D", "N N E E W W"]


def refused(game: GameState, text: str) -> str:
    before = [str(e) for e in game.events]
    with pytest.raises(IllegalActionError) as err:
        apply(game, parse_action(text))
    assert [str(e) for e in game.events] == before
    return err.value.code


def game(players: int = 4) -> GameState:
    return rig(R("american", players), HANDS[:players])


def all_pass(g: GameState, *texts: str) -> list[str]:
    """Every seat's choice for one stage, in seat order."""
    return play(g, *(f"{s}: {t}" for s, t in enumerate(texts)))


FIRST = ("charleston 1B 2B 3B", "charleston 1C 2C 3C", "charleston 1D 2D 3D",
         "charleston N E W")


# after FIRST: seat 0 holds N E W, seat 1 1B 2B 3B, seat 2 1C 2C 3C, seat 3 1D 2D 3D more
ACROSS = ("charleston N E W", "charleston 1B 2B 3B", "charleston 4D 5D 6D",
          "charleston N E W")
# after ACROSS: seat 0 holds 4D 5D 6D, seat 1 N E W, seat 2 N E W, seat 3 1B 2B 3B more


def test_the_stages_for_four_and_for_three_players() -> None:
    assert [s.name for s in plan(4)] == [
        "first-right", "first-across", "first-left", "vote", "second-left",
        "second-across", "second-right", "offer", "courtesy"]
    assert [s.name for s in plan(3)] == [
        "first-right", "first-left", "vote", "second-left", "second-right"]
    assert [s.name for s in plan(4) if s.blind] == ["first-left", "second-right"]
    assert [(s.direction(3), s.shift) for s in plan(3) if s.kind == "charleston"] == [
        ("right", 1), ("left", 2), ("left", 2), ("right", 1)]


def test_the_first_pass_goes_right_once_everyone_has_chosen() -> None:
    g = game()
    assert g.phase == "charleston" and g.to_act() == [0, 1, 2, 3]
    assert view(g, 2).charleston is not None
    assert (view(g, 2).charleston.stage, view(g, 2).charleston.direction,  # type: ignore[union-attr]
            view(g, 2).charleston.to) == ("first-right", "right", 3)  # type: ignore[union-attr]
    assert play(g, "0: charleston 1B 2B 3B") == ["chosen 0 charleston: 1B 2B 3B"]
    assert g.players[1].pool == rig(R("american"), HANDS).players[1].pool  # nothing moved
    events = play(g, "1: charleston 1C 2C 3C", "2: charleston 1D 2D 3D", "3: charleston N E W")
    assert events[-5:] == ["passed first-right", "receive 0 3: N E W",
                           "receive 1 3: 1B 2B 3B", "receive 2 3: 1C 2C 3C",
                           "receive 3 3: 1D 2D 3D"]
    assert view(g, 0).charleston.stage == "first-across"  # type: ignore[union-attr]


def test_choices_are_secret_until_resolved_and_tiles_seen_by_their_two_seats() -> None:
    g = game()
    play(g, "0: charleston 1B 2B 3B")
    seen = view(g, 1).charleston
    assert seen is not None and seen.chosen == (0,) and seen.mine is None
    assert view(g, 0).charleston.mine == "charleston 1B 2B 3B"  # type: ignore[union-attr]
    assert [str(e) for e in events_for(g, 1)][-1] == "chosen 0 charleston"
    play(g, "1: charleston 1C 2C 3C", "2: charleston 1D 2D 3D", "3: charleston N E W")
    assert [str(e) for e in events_for(g, 2)][-4:] == [
        "receive 0 3", "receive 1 3", "receive 2 3: 1C 2C 3C", "receive 3 3"]
    assert "1B" not in " ".join(str(e) for e in events_for(g, 3))


def test_a_joker_is_never_passed_and_other_refusals() -> None:
    g = game()
    assert not [t for t in legal_texts(g, 0) if " J" in t]
    assert refused(g, "0: charleston 1B 2B J") == "joker_not_passed"
    assert refused(g, "0: charleston 1B 2B") == "pass_three"
    assert refused(g, "0: charleston 1B 2B blind 1") == "no_blind_pass"
    assert refused(g, "1: charleston 1B 2B 3B") == "tile_not_held"
    assert refused(g, "0: discard 1B") == "charleston_phase"
    assert refused(g, "0: vote stop") == "not_this_stage"
    play(g, "0: charleston 1B 2B 3B")
    assert refused(g, "0: charleston 4B 5B 6B") == "already_chosen"
    assert refused(g, "7: charleston 4B 5B 6B") == "no_such_seat"


def test_a_blind_pass_forwards_tiles_unseen() -> None:
    g = game()
    all_pass(g, *FIRST)
    all_pass(g, *ACROSS)
    assert view(g, 0).charleston.blind  # type: ignore[union-attr]
    # first-left: seat s passes to s - 1. Seat 1 forwards one of the three it gets from
    # seat 2, seat 3 all three of those from seat 0
    events = all_pass(g, "charleston 4D 5D 6D", "charleston N E blind 1",
                      "charleston 1C 2C 3C", "charleston blind 3")
    assert events[-4:] == ["passed first-left blind 0 1 0 3",
                           "receive 0 3: 1C N E",  # seat 1's two, then seat 2's first
                           "receive 1 2: 2C 3C",  # seat 2's last two
                           "receive 2 3: 4D 5D 6D",  # seat 0's three, forwarded by seat 3
                           ]
    assert g.players[3].concealed == 13  # seat 3 gave and kept none of its own


def test_kept_tiles_of_a_pass_that_comes_round_to_its_sender() -> None:
    # three players passing left (seat s to s + 2): seat 0 passes one own tile and two
    # blind, the others all three blind: the tile comes back to seat 0
    assert kept_tiles([[7], [], []], [2, 3, 3], lambda s: (s + 1) % 3) == [[7], [], []]
    assert kept_tiles([[], [], []], [3, 3, 3], lambda s: (s + 1) % 3) is None


def test_when_every_seat_forwards_all_three_nothing_moves() -> None:
    g = game()
    all_pass(g, *FIRST)
    all_pass(g, *ACROSS)
    before = [list(p.pool) for p in g.players]
    events = all_pass(g, *["charleston blind 3"] * 4)
    assert events[-1] == "passed first-left blind 3 3 3 3"
    assert [list(p.pool) for p in g.players] == before


def _to_the_vote(g: GameState) -> None:
    all_pass(g, *FIRST)
    all_pass(g, *ACROSS)
    all_pass(g, "charleston 4D 5D 6D", "charleston N E W", "charleston 1C 2C 3C",
             "charleston 1B 2B 3B")


def test_one_stop_vote_stops_the_second_charleston() -> None:
    g = game()
    _to_the_vote(g)
    assert legal_texts(g, 2) == ["2: vote again", "2: vote stop"]
    play(g, "0: vote again", "1: vote again", "2: vote stop")
    assert view(g, 0).charleston.votes == ()  # type: ignore[union-attr]
    assert play(g, "3: vote again")[-1] == "votes again again stop again"
    seen = view(g, 1).charleston
    assert seen is not None and seen.stage == "offer" and seen.votes == (
        "again", "again", "stop", "again")


def test_the_second_charleston_goes_left_across_right() -> None:
    g = game()
    _to_the_vote(g)
    all_pass(g, *["vote again"] * 4)
    stage = view(g, 0).charleston
    assert stage is not None and (stage.stage, stage.direction, stage.to) == (
        "second-left", "left", 3)
    for name in ("second-left", "second-across", "second-right"):
        assert view(g, 0).charleston.stage == name  # type: ignore[union-attr]
        for s in range(4):
            apply(g, legal_actions(g, s)[0])
    assert view(g, 0).charleston.stage == "offer"  # type: ignore[union-attr]


def test_the_courtesy_pass_takes_the_lower_offer_across() -> None:
    g = game()
    _to_the_vote(g)
    all_pass(g, "vote stop", "vote again", "vote again", "vote again")
    assert play(g, "0: offer 3") == ["chosen 0 offer: 3"]
    assert view(g, 2).charleston.offers == (None, None, None, None)  # type: ignore[union-attr]
    assert view(g, 0).charleston.offers[0] == 3  # type: ignore[union-attr]
    assert play(g, "2: offer 1") == ["chosen 2 offer: 1", "offers 0 3 2 1"]
    assert play(g, "1: offer 0", "3: offer 2")[-1] == "offers 1 0 3 2"
    assert g.to_act() == [0, 2]  # seats 1 and 3 agreed on none
    assert view(g, 0).charleston.owed == 1  # type: ignore[union-attr]
    assert refused(g, "0: courtesy 4B 5B") == "courtesy_count"
    assert refused(g, "1: courtesy 4B") == "already_chosen"
    events = play(g, f"0: courtesy {legal_texts(g, 0)[0].split()[-1]}",
                  f"2: courtesy {legal_texts(g, 2)[0].split()[-1]}")
    assert events[-1] == "charleston over"
    assert (g.phase, g.current, g.acquired) == ("turn", 0, None)
    assert [p.concealed for p in g.players] == [14, 13, 13, 13]


def test_no_courtesy_pass_when_both_pairs_offer_none() -> None:
    g = game()
    _to_the_vote(g)
    all_pass(g, *["vote stop"] * 4)
    assert all_pass(g, *["offer 0"] * 4)[-1] == "charleston over"
    assert g.phase == "turn"


def test_three_players_pass_right_then_left_and_have_no_courtesy() -> None:
    g = game(3)
    events = all_pass(g, "charleston 1B 2B 3B", "charleston 1C 2C 3C", "charleston 1D 2D 3D")
    assert events[-4:] == ["passed first-right", "receive 0 3: 1D 2D 3D",
                           "receive 1 3: 1B 2B 3B", "receive 2 3: 1C 2C 3C"]
    stage = view(g, 0).charleston
    assert stage is not None and (stage.stage, stage.direction, stage.to) == (
        "first-left", "left", 2)
    all_pass(g, "charleston 4B 5B 6B", "charleston 4C 5C 6C", "charleston 4D 5D 6D")
    assert all_pass(g, "vote again", "vote again", "vote stop")[-2:] == [
        "votes again again stop", "charleston over"]


def test_the_chosen_tiles_are_the_seats_own() -> None:
    g = game()
    one = parse_action("0: charleston 1B 2B 3B")
    assert one in legal_actions(g, 0)
    assert parse_tiles("1B 2B 3B") == list(one.tiles)  # type: ignore[attr-defined]


def test_what_a_seat_chose_changes_nothing_another_sees() -> None:
    one, other = game(), game()
    play(one, "0: charleston 1B 2B 3B")
    play(other, "0: charleston 4B 5B 6B")
    for seat in (1, 2, 3, None):
        assert view(one, seat) == view(other, seat)
        assert events_for(one, seat) == events_for(other, seat)
    assert view(one, 0) != view(other, 0)
    # once passed, the tiles are seen by the seat that keeps them, and by nobody else
    for g in (one, other):
        play(g, "1: charleston 1C 2C 3C", "2: charleston 1D 2D 3D", "3: charleston N E W")
    for seat in (2, 3, None):
        assert events_for(one, seat) == events_for(other, seat)
    assert view(one, 1) != view(other, 1)


def test_a_record_with_its_charleston_replays_and_verifies() -> None:
    import random

    from twinrack.bots import RandomBot
    from twinrack.engine import new_game
    from twinrack.engine.record import record_for, record_of, verify

    g = new_game(R("american", dice_cut=True), seed=11)
    bot, rng = RandomBot(), random.Random(11)
    while not g.over:
        seat = g.to_act()[0]
        apply(g, bot.choose(view(g, seat), legal_actions(g, seat), rng))
    rec = record_of(g)
    assert any(a.startswith("1: charleston ") for a in rec["actions"])
    assert verify(rec, g.card).ok
    at = next(i for i, a in enumerate(rec["actions"]) if a.startswith("2: charleston "))
    changed = dict(rec, actions=list(rec["actions"]))
    changed["actions"][at] = "2: charleston blind 3"
    assert not verify(changed, g.card).ok
    during = new_game(R("american"), seed=11)
    apply(during, legal_actions(during, 0)[0])
    seen = record_for(during, 1)
    assert "actions" not in seen and seen["events"][-1] == "chosen 0 charleston"
