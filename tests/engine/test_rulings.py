"""Rulings on situations a referee checked: a Mah Jongg made of exposures only, a Double
claim beside an exposed rack, Jokers of a rack in error, withdrawing a claim, the last
discard (rules sections 4 to 9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.engine.helpers import R, legal_texts, lines, play, rig
from twinrack.bots import BOTS
from twinrack.card import practice_card
from twinrack.engine import (
    Claim,
    GameState,
    MahJongg,
    Pass,
    RuleSet,
    Withdraw,
    apply,
    legal_actions,
    new_game,
    parse_action,
    parse_event,
    score,
    view,
)
from twinrack.engine.events import MahJonggDeclared, Withdrawn
from twinrack.errors import IllegalActionError
from twinrack.narration import narrate
from twinrack.tiles import CANONICAL, FLOWER, JOKER, format_tiles, tile_index

CARD = practice_card()

# ------------------------------------------------------------------ all exposed


def all_exposed_game(strict: bool):  # type: ignore[no-untyped-def]
    """Seat 0 exposes F F F F, N N N, S S S and R R R R on rack 1 with four claimed
    discards of seat 1: Honors-5 "FFFF NNN SSS DDDDa" (30) with every tile exposed."""
    g = rig(R(strict=strict), ["F F F N N S S R R R", "F N S R"], picks="2B 3B 4B 5B 6B")
    play(g, "0: discard 2B", "1: pass", "1: discard F", "0: claim expose",
         "0: expose 1 F F F F", "0: discard 1C", "1: pass", "1: discard N", "0: claim expose",
         "0: expose 1 N N N", "0: discard 9C", "1: pass", "1: discard S", "0: claim expose",
         "0: expose 1 S S S", "0: discard 1D", "1: pass", "1: discard R", "0: claim expose",
         "0: expose 1 R R R R")
    return g


@pytest.mark.parametrize("strict", [False, True])
def test_a_mahjongg_of_exposures_only_is_declared_with_no_tile(strict: bool) -> None:
    g = all_exposed_game(strict)
    assert g.players[0].racks[0].exposed == 14 and any(g.players[0].racks[0].arranged)
    assert [t for t in legal_texts(g, 0) if "mahjongg" in t] == ["0: mahjongg 1"]
    assert play(g, "0: mahjongg 1") == ["mahjongg 0 1 Honors-5 jokerless:"]
    p = g.players[0]
    assert p.concealed == 14 and sum(p.racks[1].arranged) == 14 and p.racks[0].dead is None
    assert play(g, "0: discard 3D")[0] == "discard 0 3D"
    assert lines(g) == ["seat 0: +60  Mah Jongg on rack 1: Honors-5 (card value 30; "
                        "jokerless x2)"]


# ------------------------------------------------------------------ Double with an exposure

# 2468-1 "2222a 44a 66b 8888b NN" (25) in Bams/Craks without one 8C
B13 = "2B 2B 2B 2B 4B 4B 6C 6C 8C 8C 8C N N"
# Honors-3 "EEEE WWWW RR GG 00" (35) less the E E E E exposed with a claimed E
H10 = "W W W W R R G G 0 0"
# 2468-3 "FFF 2222a 666a 8888b" (25) without one 8C
A13 = "F F F 2B 2B 2B 2B 6B 6B 6B 8C 8C 8C"


def exposed_double_game():  # type: ignore[no-untyped-def]
    """Royale: seat 2 claims East's E for E E E E on rack 1 (Honors-3 then complete), seat
    1 waits on 8C for a single Mah Jongg, and East throws 8C two turns later."""
    g = rig(R("royale", 4), ["E 8C", A13, "E E E " + H10 + " " + B13], picks="1D 2D 3D")
    play(g, "0: discard E", "1: pass", "3: pass", "2: claim expose", "2: expose 1 E E E E",
         "2: discard S", "3: pass", "0: pass", "1: pass", "3: discard 2D", "0: pass",
         "1: pass", "2: pass", "0: discard 8C")
    return g


def test_double_claim_beside_a_rack_complete_with_an_exposure() -> None:
    g = exposed_double_game()
    assert [t for t in legal_texts(g, 2) if "claim" in t] == ["2: claim double",
                                                          "2: claim expose"]
    assert [t for t in legal_texts(g, 1) if "claim" in t] == ["1: claim mahjongg",
                                                          "1: claim expose"]
    assert play(g, "1: claim mahjongg", "2: claim double", "3: pass")[-1] == \
        "grant 2 double 8C from 0"
    play(g, "2: mahjongg 2 2B 2B 2B 2B 4B 4B 6C 6C 8C 8C 8C 8C N N",
         f"2: mahjongg 1 {H10}")
    assert g.end_reason == "mahjongg" and g.winner == 2
    assert lines(g) == [
        "seat 2: +140  Double Mah Jongg hand x2 on rack 1: Honors-3 (card value 35; "
        "jokerless x2)",
        "seat 2: +100  Double Mah Jongg hand x2 on rack 2: 2468-1 (card value 25; "
        "jokerless x2)",
        "seat 2: +10  closed hand on rack 2: 2468-1",
        "seat 0: -25  threw the tile claimed for an opponent's Double Mah Jongg"]


# ------------------------------------------------------------------ Jokers of a rack in error


def rack_holds(g: GameState, seat: int, rack: int, n: int) -> None:
    """Move concealed tiles so that rack ``rack`` (from 1) holds exactly ``n`` of them."""
    racks = g.players[seat].racks
    src, dst = (rack, 3 - rack) if sum(racks[rack - 1].arranged) > n else (3 - rack, rack)
    while sum(racks[rack - 1].arranged) != n:
        t = next(k for k in range(36) if racks[src - 1].arranged[k])
        play(g, f"{seat}: move {CANONICAL[t]} {src}>{dst}")


def test_jokers_exposed_before_a_mahjongg_in_error_may_be_exchanged() -> None:
    g = rig(R(strict=True), ["6C 6C", "6C J 1D"], picks="4D 5D 7D")
    play(g, "0: discard 6C", "1: claim expose", "1: expose 1 6C 6C J")
    rack_holds(g, 1, 1, 11)
    ev = play(g, "1: mahjongg 1")
    assert ev[0].startswith("error 1 1: ") and ev[1:] == ["dead 1 1 error"]
    play(g, "1: discard 1D", "0: pass")
    assert "0: exchange 6C from 1:1:1" in legal_texts(g, 0)
    assert play(g, "0: exchange 6C from 1:1:1") == ["exchange 0 6C from 1:1:1"]
    assert str(g.players[1].racks[0].exposures[0]) == "6C 6C 6C"
    assert g.players[0].pool[JOKER] == 1


# ------------------------------------------------------------------ withdrawing a claim


def refused(g: GameState, text: str) -> str:
    before = [str(e) for e in g.events]
    with pytest.raises(IllegalActionError) as err:
        apply(g, parse_action(text))
    assert [str(e) for e in g.events] == before
    return err.value.code


def test_a_false_mahjongg_claim_with_no_group_must_give_the_tile_back() -> None:
    g = rig(R(strict=True), ["9D"], picks="1D 2D")
    play(g, "0: discard 9D")
    assert play(g, "1: claim mahjongg") == ["claim 1 mahjongg", "grant 1 mahjongg 9D from 0",
                                            "error 1 claim"]
    assert legal_texts(g, 1) == ["1: withdraw"]  # never a discard: the tile is not kept
    assert refused(g, "1: discard 9D") == "must_expose"
    assert play(g, "1: withdraw") == ["withdraw 1 9D", "pick 1 2D"]
    assert g.discards == [(0, 9 + 9 + 8)] and g.players[1].pool[26] == 0
    assert g.players[1].concealed == 28 and lines(g) == []


def test_a_false_claimer_exposes_the_group_of_the_discard_or_withdraws() -> None:
    g = rig(R(strict=True), ["8C", "8C 8C"], picks="5D")
    play(g, "0: discard 8C", "1: claim mahjongg")
    assert legal_texts(g, 1) == ["1: expose 1 8C 8C 8C", "1: expose 2 8C 8C 8C",
                                 "1: withdraw"]
    play(g, "1: expose 2 8C 8C 8C")
    assert "1: withdraw" not in legal_texts(g, 1)
    assert refused(g, "1: withdraw") == "cannot_withdraw"


def test_withdrawing_hands_the_tile_to_a_farther_mahjongg_in_royale() -> None:
    # seat 1, nearer, claims for Mah Jongg with a real one (2468-3 less 8C) and withdraws;
    # seat 3's real Mah Jongg claim waits behind it and takes the tile
    g = rig(R("royale", 4, strict=True), ["8C", A13, "", A13], picks="1D 2D")
    play(g, "0: discard 8C")
    ev = play(g, "1: claim mahjongg", "2: pass", "3: claim mahjongg")
    assert ev[-1] == "grant 1 mahjongg 8C from 0"
    assert view(g, 2).waiting == ((3, "mahjongg"),)
    assert view(g, None).to_dict()["waiting"] == [[3, "mahjongg"]]
    assert play(g, "1: withdraw") == ["withdraw 1 8C", "grant 3 mahjongg 8C from 0"]
    assert view(g, 2).waiting == () and g.obligation == "mahjongg"


def test_an_exposure_claim_may_be_withdrawn_in_casual_play() -> None:
    g = rig(R(), ["6C", "6C J 1D"], picks="4D 5D")
    play(g, "0: discard 6C", "1: claim expose")
    assert legal_texts(g, 1)[-1] == "1: withdraw"
    assert refused(g, "0: withdraw") == "not_your_turn"
    assert play(g, "1: withdraw") == ["withdraw 1 6C", "pick 1 5D"]
    assert refused(g, "1: withdraw") == "cannot_withdraw"
    assert g.discards == [(0, 14)]


def test_a_withdrawn_last_discard_ends_the_game() -> None:
    g = rig(R(strict=True), ["9D"], picks="1D")
    g.wall_pos = len(g.wall)  # the wall is spent after East's pick
    play(g, "0: discard 9D", "1: claim mahjongg")
    assert play(g, "1: withdraw") == ["withdraw 1 9D", "end wall"]


def test_after_a_mahjongg_claim_only_a_rack_holding_the_tile_is_declared_as_arranged() -> None:
    g = rig(R(strict=True), ["8C", A13], picks="1D 2D 3D")
    play(g, "0: discard 1D", "1: pass", "1: move 8C 2>1", "1: move 8C 2>1", "1: move 2D 1>2")
    rack_holds(g, 1, 2, 15)
    assert g.players[1].racks[1].arranged[16] == 0  # no 8C on rack 2
    play(g, "1: discard 2D", "0: pass", "0: discard 8C", "1: claim mahjongg")
    assert [sum(r.arranged) for r in g.players[1].racks] == [14, 14]
    arranged = [t for t in legal_texts(g, 1) if t in ("1: mahjongg 1", "1: mahjongg 2")]
    assert arranged == ["1: mahjongg 1"]  # rack 2 lacks the claimed 8C


def test_withdraw_text_forms_and_narration() -> None:
    assert str(parse_action("withdraw", seat=1)) == "1: withdraw"
    assert parse_action("1: withdraw") == Withdraw(1)
    assert parse_event("withdraw 1 8C") == Withdrawn(1, 16)
    assert narrate(Withdrawn(1, 16), ["You", "Bot"]) == \
        "Bot withdraws the claim: 8C goes back to the discards"
    assert narrate(Withdrawn(0, 16), ["You", "Bot"]) == \
        "You withdraw the claim: 8C goes back to the discards"


# ------------------------------------------------------------------ properties

#: every way of a line that may be exposed (not concealed, not declared) and is made of
#: groups of 3 or more only: such a rack can be exposed in full
FULL_WAYS = [(h, w) for h in CARD.hands if not (h.concealed or h.declared) for w in h.ways
             if all(g.size >= 3 for g in w.groups)]


@st.composite
def exposed_way(draw: st.DrawFn) -> tuple[str, list[list[int]]]:
    """A line made of groups of 3 or more and its groups as tiles, with Jokers drawn in
    (enough where the set has too few of a tile, never more than its 8 Jokers)."""
    hand, way = draw(st.sampled_from(FULL_WAYS))
    groups: list[list[int]] = []
    naturals: Counter[int] = Counter()
    for g in way.groups:
        least = max(0, g.size - (8 if g.tile == FLOWER else 4) + naturals[g.tile])
        j = draw(st.integers(least, min(g.size, least + 2)))
        naturals[g.tile] += g.size - j
        groups.append([g.tile] * (g.size - j) + [JOKER] * j)
    assume(sum(grp.count(JOKER) for grp in groups) <= 8)
    return hand.id, groups


@settings(max_examples=40, deadline=None)
@given(line=exposed_way(), rack=st.integers(1, 2), strict=st.booleans())
def test_any_rack_exposed_in_full_is_declared_and_scored(line: tuple[str, list[list[int]]],
                                                        rack: int, strict: bool) -> None:
    own, groups = line
    tiles = [t for grp in groups for t in grp]
    pick = next(t for t in ("1D", "9B", "N") if tile_index(t) not in tiles)
    g = rig(R(strict=strict, expose_any_time=True), [format_tiles(tiles)], picks=pick)
    for grp in groups:
        play(g, f"0: expose {rack} {format_tiles(grp)}")
    offered = [t for t in legal_texts(g, 0) if t.startswith(f"0: mahjongg {rack}")]
    assert offered == [f"0: mahjongg {rack}"]
    (ev,) = apply(g, MahJongg(0, rack - 1, ()))
    assert isinstance(ev, MahJonggDeclared) and ev.tiles == () and ev.rack == rack - 1
    assert ev.jokerless == (JOKER not in tiles) and not ev.closed and not ev.arranged
    hand = next(h for h in CARD.hands if h.id == ev.hand)
    points = hand.value * (2 if ev.jokerless else 1)
    assert score(g).totals == (points, 0)
    assert points >= next(h for h in CARD.hands if h.id == own).value


def full_rack(g: GameState, a: MahJongg) -> bool:
    return g.players[a.seat].racks[a.rack].exposed == 14


def declare_all(g: GameState, seat: int) -> None:
    """Declare every Mah Jongg offered (the first each time) while the turn lasts; each
    must be honoured."""
    while not g.over and g.phase == "turn" and g.current == seat:
        mjs = [a for a in legal_actions(g, seat)
               if isinstance(a, MahJongg) and (a.tiles or full_rack(g, a))]
        if not mjs:
            return
        assert isinstance(apply(g, mjs[0])[0], MahJonggDeclared)


def check_claims(g: GameState) -> int:
    """Every Mah Jongg or Double claim offered, granted alone, is honoured and scored as
    claimed: a Double iff claimed as one. Returns how many claims were checked."""
    assert g.window is not None
    checked = 0
    for s in g.window.pending:
        for claim in legal_actions(g, s):
            if not (isinstance(claim, Claim) and claim.kind in ("mahjongg", "double")):
                continue
            h = g.copy()
            assert h.window is not None
            h.window.answers.clear()  # the claim alone
            apply(h, claim)
            while h.phase == "window":
                assert h.window is not None
                apply(h, Pass(h.window.pending[0]))
            assert h.current == s and h.claim_kind == claim.kind
            if h.obligation == "error":  # a claim in error: strict only
                assert g.rules.strict and claim.kind == "mahjongg"
                continue
            declare_all(h, s)
            doubled = any("Double Mah Jongg" in x.reason for x in score(h).lines)
            assert doubled == (claim.kind == "double"), (str(claim), score(h).lines)
            assert claim.kind != "double" or (h.end_reason, h.winner) == ("mahjongg", s)
            checked += 1
    return checked


def check_declarations(g: GameState) -> None:
    """Every Mah Jongg offered on a turn (with its tiles, or on a rack exposed in full) is
    honoured; in casual play every one offered is."""
    seat = g.current
    for a in legal_actions(g, seat):
        if isinstance(a, MahJongg) and (a.tiles or full_rack(g, a) or not g.rules.strict):
            assert isinstance(apply(g.copy(), a)[0], MahJonggDeclared), str(a)


@pytest.mark.parametrize(("variant", "players", "level", "seeds"),
                         [("siamese", 2, "expert", 6), ("royale", 4, "greedy", 2),
                          ("imperial", 2, "greedy", 1)])
def test_claims_and_declarations_offered_are_honoured_and_scored(
        variant: str, players: int, level: str, seeds: int) -> None:
    checked = 0
    for seed in range(seeds):
        rules = RuleSet.for_variant(variant, players, strict=seed % 2 == 1)
        g = new_game(rules, seed=seed, card=CARD)
        bots = [BOTS[level](CARD) for _ in range(players)]
        rng = random.Random(seed)
        while not g.over:
            if g.phase == "window":
                checked += check_claims(g)
            elif g.phase == "turn":
                check_declarations(g)
            s = g.to_act()[0]
            apply(g, bots[s].choose(view(g, s), legal_actions(g, s), rng))
    assert checked
