"""The rendering helpers and the rack arrangement of the terminal game."""

from __future__ import annotations

from types import SimpleNamespace

from twinrack.card.exposure import Exposure
from twinrack.engine import Discard, Expose, MahJongg, RuleSet, new_game, score, view
from twinrack.engine.events import (
    Claimed,
    Discarded,
    Ended,
    Exposed,
    MahJonggDeclared,
    Moved,
    Passed,
    Picked,
    RackDead,
)
from twinrack.engine.scoring import Score, ScoreLine
from twinrack.tiles import INDEX, JOKER, parse_tiles
from twinrack.tui import render
from twinrack.tui.arrangement import Arrangement

NAMES = ["You", "Bot"]


def T(text: str) -> list[int]:
    return parse_tiles(text)


def test_tile_colours_follow_the_suits_and_keep_the_notation() -> None:
    assert render.tile_style(INDEX["5B"]) == "green"
    assert render.tile_style(INDEX["5C"]) == "red"
    assert "blue" in render.tile_style(INDEX["5D"])
    assert render.tile_style(JOKER) == "bold yellow"
    assert render.tile_text(INDEX["7C"]).plain == "7C"
    assert render.tiles_text(T("2B 0 F J")).plain == "2B 0 F J"


def test_rack_line_frames_the_cursor_and_stars_the_new_tile() -> None:
    tiles = T("1B 2B 3B")
    assert render.rack_line(tiles).plain == " 1B 2B 3B"
    assert render.rack_line(tiles, cursor=1).plain == " 1B[2B]3B"
    assert render.rack_line(tiles, cursor=2).plain == " 1B 2B[3B]"
    assert render.rack_line(tiles, cursor=0, fresh=2).plain == "[1B]2B 3B*"
    assert "no concealed tile" in render.rack_line([]).plain


def test_exposures_and_dead_racks_read_without_colour() -> None:
    x = Exposure(INDEX["6C"], 3, 1)
    assert render.exposure_text(x).plain == "[6C 6C J]"
    assert render.exposure_text(x, killer=True).plain == "(6C 6C J)!"


def test_the_table_as_seat_0_sees_it() -> None:
    game = new_game(RuleSet(declared_hands=False), seed=11)
    v = view(game, 0)
    opp = render.opponents_text(v, NAMES).plain
    assert "Bot (West, seat 1) · 27 concealed" in opp
    assert "R1 no exposure" in opp and "R2 no exposure" in opp
    hand = v.hand
    assert hand is not None
    text = render.hand_text(v, hand, (0, 0), None).plain
    assert text.startswith(f"Rack 1 ({len(hand[0])}) [")
    assert f"Rack 2 ({len(hand[1])})" in text
    assert "none yet" in render.discards_text(v, NAMES).plain


def test_siamese_seats_are_east_and_west_as_on_the_web_table_and_the_desk() -> None:
    assert render.seat_words(0, 2) == "East, seat 0"
    assert render.seat_words(1, 2) == "West, seat 1"
    assert [render.seat_words(s, 4) for s in range(4)] == [
        "East, seat 0", "South, seat 1", "West, seat 2", "North, seat 3"]
    assert render.seat_words(2, 3) == "West, seat 2"


def test_the_latest_discard_is_marked() -> None:
    game = new_game(RuleSet(declared_hands=False), seed=11)
    from twinrack.engine import apply, legal_actions

    discard = next(a for a in legal_actions(game, 0) if isinstance(a, Discard))
    apply(game, discard)
    text = render.discards_text(view(game, 0), NAMES).plain
    assert text.splitlines()[0] == \
        f"Discards (1), latest >{render.tile_text(discard.tile).plain}< by You"


def test_the_discard_pool_is_grouped_by_tile_and_by_player() -> None:
    pool = SimpleNamespace(discards=[(0, INDEX[t]) if i % 2 == 0 else (1, INDEX[t])
                                     for i, t in enumerate(
                                         ["N", "5B", "1B", "F", "5B", "5B", "N", "1B", "3C"])])
    assert render.discards_text(pool, NAMES).plain.splitlines() == [  # type: ignore[arg-type]
        "Discards (9), latest >3C< by You",
        "By tile:   1B x2 · 5B x3 · 3C · N x2 · F",
        "By player: You N 1B 5B N 3C · Bot 5B F 5B 1B"]
    three = SimpleNamespace(discards=[(2, INDEX["R"]), (0, INDEX["R"])])
    names = ["You", "Bot 1", "Bot 2"]
    assert render.discards_text(three, names).plain.splitlines() == [  # type: ignore[arg-type]
        "Discards (2), latest >R< by You",
        "By tile:   R x2",
        "By player: You R · Bot 1 none · Bot 2 R"]


def test_narration_speaks_to_the_player() -> None:
    five_b = INDEX["5B"]
    assert render.narrate(Picked(0, five_b), NAMES) == "You pick 5B"
    assert render.narrate(Picked(1), NAMES) == "Bot picks a tile"
    assert render.narrate(Discarded(1, five_b), NAMES) == "Bot discards 5B"
    assert render.narrate(Passed(1), NAMES) == "  Bot passes"
    assert render.narrate(Passed(0), NAMES, declaring=True) == \
        "You declare no Atomic-style hand"
    assert render.narrate(Claimed(0, "expose"), NAMES) == "  You call for an exposure"
    assert render.narrate(Exposed(1, 1, (five_b,) * 3), NAMES) == \
        "Bot exposes 5B 5B 5B on rack 2"
    assert render.narrate(RackDead(0, 0, "exposure"), NAMES) == \
        "Your rack 1 is DEAD: its exposures fit no line"
    assert render.narrate(Moved(1, 0, 1), NAMES) == "Bot moves a tile from rack 1 to rack 2"
    assert "MAH JONGG on rack 1: Kongs-1 (jokerless)" in render.narrate(
        MahJonggDeclared(1, 0, "Kongs-1", True, False, ()), NAMES)
    assert render.narrate(Ended("wall"), NAMES) == "GAME OVER: the wall is spent"
    assert render.narrate(Ended("mahjongg", 0), NAMES) == \
        "GAME OVER: You win with a Mah Jongg on every rack"


def test_choice_labels_say_rack_jokers_line_and_kill() -> None:
    game = new_game(RuleSet(declared_hands=False), seed=11)
    v = view(game, 0)
    six_c = INDEX["6C"]
    assert render.action_label(Expose(0, 1, (six_c, six_c, JOKER)), NAMES, v) == \
        "rack 2: expose 6C 6C J (1 Joker)"
    assert render.action_label(Expose(0, 0, (six_c,) * 3), NAMES, v, kills=(0,)) == \
        "rack 1: expose 6C 6C 6C (no Joker)  !! KILLS rack 1"
    made = MahJonggDeclared(0, 0, "2468-3", False, True, ())
    line = render.line_words(made, 25)
    assert line == "2468-3 (value 25, closed)"
    assert render.action_label(MahJongg(0, 0, (six_c,)), NAMES, v, line=line) == \
        "rack 1 -> 2468-3 (value 25, closed): 6C"


def test_score_text_is_itemized_with_the_engine_totals() -> None:
    sc = Score(2, (ScoreLine(0, 50, "winning Mah Jongg x2 on rack 2: Kongs-1"),
                   ScoreLine(1, -25, "threw the tile claimed for an opponent's winning "
                                     "Mah Jongg")))
    text = render.score_text(sc, NAMES, "mahjongg", 0).plain
    assert "You win" in text
    assert "+50  winning Mah Jongg x2 on rack 2: Kongs-1" in text
    assert "-25  threw the tile" in text
    assert render.totals_line(sc.totals, NAMES) in text
    assert "Totals: You +50 · Bot -25" in text
    game = new_game(RuleSet(declared_hands=False), seed=11)
    assert "no points scored" in render.score_text(score(game), NAMES, "wall", None).plain


def test_hints_panel_reads_the_hints_dictionary() -> None:
    h = {"racks": [{"rack": 1, "lines": [{"id": "2468-3", "section": "2468", "away": 3,
                                          "needs": [{"tile": "8C", "count": 1, "unseen": 3},
                                                    {"tile": "S", "count": 2, "unseen": 0}],
                                          "value": 25, "concealed": False}]}],
         "discard": {"tile": "N", "reason": "no line needs it"}, "plans": []}
    text = render.hints_text(h).plain
    assert "2468-3 3 away · 25 pts" in text
    assert "needs 8C x1, 3 unseen; S x2, 0 unseen" in text
    assert "Discard: N  no line needs it" in text
    assert "not installed" in render.hints_text(None, "not installed").plain
    # the coach's words come first, as on the web table, with the discard's warning
    h.update(summary="Best plan: 2468-3.", action={"verb": "claim", "reason": "Claim 8 Crak."},
             warnings=[{"tile": "N", "seat": 1, "text": "Careful: N may help {who}."},
                       {"tile": "8C", "seat": 1, "text": "not this one"}])
    lines = render.hints_text(h).plain.split("\n")
    # the seat is named by its wind, as on the table and the desk (West across two seats)
    assert lines[1:4] == ["Best plan: 2468-3.", "Coach: Claim 8 Crak.",
                          "Careful: N may help West."]
    assert "Careful: N may help South." in render.hints_text(h, players=4).plain
    assert "not this one" not in render.hints_text(h).plain


def test_arrangement_follows_the_engine_and_keeps_the_players_order() -> None:
    a = Arrangement([T("1B 2B 3B"), T("N N")])
    assert a.tile == INDEX["1B"]
    a.right()
    a.right()
    a.right()  # on to rack 2
    assert (a.rack, a.index) == (1, 0)
    a.left()
    assert (a.rack, a.index) == (0, 2)
    a.shift(-1)
    assert a.racks[0] == T("1B 3B 2B")
    # a picked tile joins the end of its rack; sorting puts it in place
    a.follow([T("1B 2B 3B 1B"), T("N N")])
    assert a.racks[0] == T("1B 3B 2B 1B")
    a.go_to(INDEX["1B"])
    assert (a.rack, a.index) == (0, 3)
    a.sort()
    assert a.racks[0] == T("1B 1B 2B 3B")
    # the discarded tile under the cursor is the one that goes
    a.rack, a.index = 0, 3
    a.follow([T("1B 1B 2B"), T("N N")], gone=(0, 3))
    assert a.racks[0] == T("1B 1B 2B")
    # a move puts the tile at the end of the other rack
    a.rack, a.index = 0, 0
    a.moved(0, 1)
    assert a.racks == [T("1B 2B"), T("N N 1B")]
    a.follow([T("1B 2B"), T("N N 1B")])
    assert a.racks == [T("1B 2B"), T("N N 1B")]
    # an emptied rack sends the cursor to the other one
    a.rack, a.index = 0, 1
    a.follow([[], T("N N 1B 1B 2B")])
    assert (a.rack, a.index, a.tile) == (1, 1, INDEX["N"])
    a.up()
    assert a.rack == 1
