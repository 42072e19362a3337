"""The desk's forms (docs/score-keeper.md): what a submitted form says, read into the
results and tournaments the desk model takes, and a stored result read back into a form
(for a correction). Nothing here is stored; the model refuses what it does not take, with
its own messages.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.datastructures import FormData

from twinrack.desk.keeper import DEFAULT_MAX_VALUE
from twinrack.desk.movement import parse_moves
from twinrack.desk.tournament import MAX_VALUE_LIMIT, DeskError, Tournament
from twinrack.engine.rules import REVISIONS

#: how many event lines the Siamese game-sheet form offers
SHEET_LINES = 6
FOUR_FLAGS = ("self_picked", "singles_and_pairs", "jokerless", "misnamed", "quint_two_exposures")
SHEET_FLAGS = ("jokerless", "closed", "self_picked", "singles_and_pairs", "double", "misnamed")
PENALTY_ROWS = 2
MAX_NAMES = 200
MAX_NAME_LENGTH = 60
MAX_REASON_LENGTH = 500


class Prefill:
    """What a form shows: the values just submitted, or those of a stored result."""

    def __init__(self, data: dict[str, list[str]] | None = None) -> None:
        self.data = data or {}

    @classmethod
    def of(cls, form: FormData) -> Prefill:
        data: dict[str, list[str]] = {}
        for k, v in form.multi_items():
            if isinstance(v, str):
                data.setdefault(k, []).append(v)
        return cls(data)

    def get(self, key: str, default: str = "") -> str:
        vals = self.data.get(key)
        return vals[0] if vals else default

    def getlist(self, key: str) -> list[str]:
        return list(self.data.get(key, []))

    def on(self, key: str) -> bool:
        return any(v not in ("", "0", "false", "off") for v in self.data.get(key, []))

    def has(self, key: str, value: str) -> bool:
        return value.lower() in (v.lower() for v in self.data.get(key, []))

    def set(self, key: str, *values: Any) -> None:
        self.data[key] = [str(v) for v in values]


def number_field(text: str, field: str, what: str) -> Any:
    """A whole number from a form field; anything else is passed on for the model to refuse
    with its own message."""
    s = text.strip()
    if not s:
        raise DeskError("bad_value", f"{field}: enter {what}")
    if re.fullmatch(r"[+-]?\d{1,9}", s):
        return int(s)
    return s


def four_seat_result(f: Prefill) -> dict[str, Any]:
    """A 4-seat table's result (the section 11 tournament sheet) from the entry form."""
    end = f.get("end", "mahjongg")
    res: dict[str, Any] = {}
    if end == "mahjongg":
        winners = [w for w in f.getlist("winner") if w.strip()]
        if not winners:
            raise DeskError("bad_result", "winner: choose who made Mah Jongg, or choose "
                                          "wall game")
        res["winner"] = winners[0] if len(winners) == 1 else winners
        res["value"] = number_field(f.get("value"), "value", "the card value of the winning hand")
        for flag in FOUR_FLAGS:
            if f.on(flag):
                res[flag] = True
        if f.get("discarder").strip():
            res["discarder"] = f.get("discarder")
        exposures = f.get("winner_exposures", "0").strip()
        if exposures not in ("", "0"):
            res["winner_exposures"] = number_field(exposures, "winner_exposures",
                                              "the winner's exposures")
    elif end == "wall":
        res["wall_game"] = True
    elif end == "error":
        if not f.get("in_error").strip():
            raise DeskError("bad_result", "in_error: choose who declared Mah Jongg in error")
        res["in_error"] = f.get("in_error")
        destroyed = [x for x in f.getlist("wall_destroyed_by") if x.strip()]
        exposed = [x for x in f.getlist("exposed") if x.strip()]
        if destroyed:
            res["wall_destroyed_by"] = destroyed
        if exposed:
            res["exposed"] = exposed
    else:
        raise DeskError("bad_result", "end: a game ends with a Mah Jongg, a wall game or a "
                                      "Mah Jongg in error")
    dead = [x for x in f.getlist("dead") if x.strip()]
    if dead:
        res["dead"] = dead
    penalties = _penalty_rows(f)
    if penalties:
        res["penalties"] = penalties
    return res


def _penalty_rows(f: Prefill) -> list[dict[str, str]]:
    out = []
    for i in range(1, PENALTY_ROWS + 1):
        who, kind = f.get(f"pen{i}_player").strip(), f.get(f"pen{i}_kind").strip()
        if who or kind:
            if not who or not kind:
                raise DeskError("bad_result", f"penalty {i}: choose both the player and the "
                                              "penalty")
            out.append({"player": who, "kind": kind})
    return out


def sheet_result(f: Prefill, names: list[str]) -> tuple[dict[str, Any], list[int]]:
    """A 2-seat table's game sheet from the entry form, and the form line of each event."""
    events: list[dict[str, Any]] = []
    lines: list[int] = []
    for i in range(1, SHEET_LINES + 1):
        kind = f.get(f"ev{i}_kind").strip()
        if not kind:
            continue
        who = f.get(f"ev{i}_player").strip()
        if not who:
            raise DeskError("bad_result", f"line {i}: choose the player")
        rack = f.get(f"ev{i}_rack", "1")
        ev: dict[str, Any]
        if kind == "mahjongg":
            ev = {"mahjongg": who, "rack": number_field(rack, f"line {i}: rack", "the rack"),
                  "value": number_field(f.get(f"ev{i}_value"), f"line {i}: value",
                                   "the card value of the hand")}
            for flag in SHEET_FLAGS:
                if f.on(f"ev{i}_{flag}"):
                    ev[flag] = True
            if f.on(f"ev{i}_claimed"):
                others = [n for n in names if n.lower() != who.lower()]
                if len(others) == 1:
                    ev["discarder"] = others[0]
        elif kind == "dead":
            ev = {"dead": who, "rack": number_field(rack, f"line {i}: rack", "the rack"),
                  "cause": f.get(f"ev{i}_cause", "other") or "other"}
        elif kind == "wrong_tile_count":
            ev = {"wrong_tile_count": who}
        elif kind == "penalty":
            ev = {"penalty": f.get(f"ev{i}_penalty"), "player": who}
        else:
            raise DeskError("bad_result", f"line {i}: unknown kind of event {kind!r}")
        events.append(ev)
        lines.append(i)
    if f.on("wall_game"):
        events.append({"wall_game": True})
        lines.append(SHEET_LINES + 1)
    return {"events": events}, lines


#: the keeper's and the results' words for a file (JSON fields), as a volunteer at the
#: desk's forms reads them (issue 26: the desk showed ``{"wall_game": true}``)
FORM_WORDS = (
    (r'\{"wall_game": true\}', "a wall game"),
    (r"\{player, kind\}", "a player and a kind of penalty"),
    (r"\bwall_game: true\b", "a wall game"),
    (r"\bwinner_exposures\b", "the winner's exposures"),
    (r"\bin_error\b", "a Mah Jongg in error"),
    (r"(?<![.\w])wall_game\b", "a wall game"),
    (r"\ba mahjongg\b", "a Mah Jongg"),
    (r"`([a-z]+)`", r"\1"),
)


def form_words(message: str) -> str:
    """A refusal of the desk's core in the words of its forms, not its file fields."""
    for pattern, words in FORM_WORDS:
        message = re.sub(pattern, words, message)
    return message


def sheet_message(message: str, lines: list[int]) -> str:
    """The keeper names ``events[k]``; the form has numbered lines (and words, not JSON:
    :func:`form_words`)."""
    def repl(m: re.Match[str]) -> str:
        k = int(m.group(1))
        if k < len(lines):
            return "wall game" if lines[k] > SHEET_LINES else f"line {lines[k]}"
        return m.group(0)
    return form_words(re.sub(r"events\[(\d+)\]", repl, message))


def result_prefill(t: Tournament, result: dict[str, Any]) -> Prefill:
    """The entry form filled in with a stored result (for a correction)."""
    def name(who: Any) -> str:
        try:
            return t.player(str(who)).name
        except (DeskError, AttributeError):
            return str(who)

    def names(v: Any) -> list[str]:
        return [name(x) for x in ([v] if isinstance(v, str) else v or [])]

    f = Prefill()
    if t.seats == 4:
        if result.get("winner") is not None:
            f.set("end", "mahjongg")
            f.set("winner", *names(result["winner"]))
            f.set("value", result.get("value", ""))
            f.set("discarder", name(result["discarder"]) if result.get("discarder") else "")
            f.set("winner_exposures", result.get("winner_exposures", 0))
            for flag in FOUR_FLAGS:
                if result.get(flag):
                    f.set(flag, "on")
        elif result.get("in_error") is not None:
            f.set("end", "error")
            f.set("in_error", name(result["in_error"]))
            f.set("wall_destroyed_by", *names(result.get("wall_destroyed_by")))
            f.set("exposed", *names(result.get("exposed")))
        else:
            f.set("end", "wall")
        f.set("dead", *names(result.get("dead")))
        for i, p in enumerate(result.get("penalties") or [], start=1):
            if isinstance(p, dict):
                f.set(f"pen{i}_player", name(p.get("player")))
                f.set(f"pen{i}_kind", p.get("kind", ""))
        return f
    line = 0
    for ev in result.get("events") or []:
        if not isinstance(ev, dict):
            continue
        if ev.get("wall_game"):
            f.set("wall_game", "on")
            continue
        line += 1
        for kind in ("mahjongg", "dead", "wrong_tile_count"):
            if kind in ev:
                f.set(f"ev{line}_kind", kind)
                f.set(f"ev{line}_player", name(ev[kind]))
        if "penalty" in ev:
            f.set(f"ev{line}_kind", "penalty")
            f.set(f"ev{line}_player", name(ev.get("player")))
            f.set(f"ev{line}_penalty", ev["penalty"])
        f.set(f"ev{line}_rack", ev.get("rack", 1))
        if "value" in ev:
            f.set(f"ev{line}_value", ev["value"])
        if "cause" in ev:
            f.set(f"ev{line}_cause", ev["cause"])
        for flag in SHEET_FLAGS:
            if ev.get(flag):
                f.set(f"ev{line}_{flag}", "on")
        if ev.get("discarder"):
            f.set(f"ev{line}_claimed", "on")
    return f


def seen_of(f: Prefill) -> str:
    """What page a form came from: every form carries it, and a form without it is refused
    (it could not be checked for being out of date)."""
    seen = f.get("seen").strip()
    if not seen:
        raise DeskError("no_seen", "This form is missing what page it came from (seen), so it "
                                   "cannot be checked against the sheet as it is now. Nothing "
                                   "was saved: reload the page and submit again.")
    return seen


def whole_number(text: str) -> int | None:
    s = text.strip()
    return int(s) if re.fullmatch(r"\d{1,9}", s) else None


def json_result(raw: str) -> dict[str, Any]:
    try:
        result = json.loads(raw)
    except json.JSONDecodeError as err:
        raise DeskError("bad_result", f"result (JSON): not valid JSON: {err.msg} (column "
                                      f"{err.colno})") from None
    if not isinstance(result, dict):
        raise DeskError("bad_result", "result (JSON): an object of fields")
    if result.get("card") not in (None, "practice"):
        raise DeskError("bad_result", "card: on the web desk only \"practice\" (or give each "
                                      "hand's value)")
    return result


def new_tournament(f: Prefill) -> Tournament:
    name = f.get("name").strip()
    if not name:
        raise DeskError("bad_name", "name: the tournament needs a name")
    if len(name) > 120:
        raise DeskError("bad_name", "name: at most 120 characters")
    seats = whole_number(f.get("seats", "4"))
    if seats not in (2, 4):
        raise DeskError("bad_seats", "seats: 4 (standard tables) or 2 (Siamese tables)")
    rounds = whole_number(f.get("rounds", "4"))
    if rounds is None or not 1 <= rounds <= 30:
        raise DeskError("bad_rounds", "rounds: a whole number from 1 to 30")
    minutes = whole_number(f.get("minutes", "50"))
    if minutes is None or not 1 <= minutes <= 600:
        raise DeskError("bad_minutes", "minutes: a whole number from 1 to 600")
    revision = f.get("revision", "2024")
    if revision not in REVISIONS:
        raise DeskError("bad_revision", "revision: 2024 or 2019")
    moves = parse_moves(f.get("moves").replace(",", " ").split())
    max_value = whole_number(f.get("max_value", str(DEFAULT_MAX_VALUE)))
    if max_value is None or not 1 <= max_value <= MAX_VALUE_LIMIT:
        raise DeskError("bad_max_value", "highest card value: a whole number from 1 to "
                                         f"{MAX_VALUE_LIMIT}")
    t = Tournament(name, seats, rounds, minutes, revision, moves=moves, max_value=max_value)
    _ = t.movement  # checks the movement
    return t
