"""What the peg board shows for the referee's retained ``game/state`` body.

Pure. :func:`board_state` never raises on a state from the bus: a value of the
wrong type is taken as missing, one the board cannot show (a peg past the game
hole, a seat with no track, a score too wide for the displays) is clipped, and
each is logged on ``kiebitz.table`` at warning level.

* cribbage: the pegs and games won per track (a side: ``seat % teams``), the
  dealer's and the turn's side, the scores on the displays;
* Skat and Frog: no pegs (``show_pegs=False``), each seat's score on its display
  (Skat's pad may be negative), dealer and turn where the seat has a track;
* All Fours: the side's score as its front peg, the back peg at its score before
  (from ``previous``, the board state shown before), the scores on the displays.

Alerts: a ``revoke`` verdict that came with the last event flashes the
offender's track; an open alert about the cards (``missing-card``,
``duplicate-card``, ``not-in-pack``, ``out-of-turn``, ``hand-mismatch``) flashes
``dispute`` on its seat's track (all tracks when it names no seat); a finished
game (``phase == "over"``) flashes ``win``.

>>> s = board_state({"game": "cribbage", "events": 9, "dealer": 1, "turn": 0,
...                  "scores": [14, 9], "pegs": [{"front": 14, "back": 8},
...                  {"front": 9, "back": 5}], "games_won": [1, 0],
...                  "verdicts": [{"kind": "revoke", "event": 8, "seat": 1}]}, tracks=2)
>>> s.pegs, s.games_won, s.dealer, s.turn, s.alert, s.alert_tracks, s.scores
(((14, 8), (9, 5)), (1, 0), 1, 0, 'revoke', (1,), (14, 9))
>>> board_state({"game": "skat", "scores": [-48, 23, 0], "turn": 2}, tracks=2).show_pegs
False
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from controller.board.model import BoardState

__all__ = ["DISPUTE_KINDS", "board_state"]

log = logging.getLogger("kiebitz.table")
#: (game, what, why) of the warnings given, so that each is given once.
_WARNED: set[tuple[str, str, str]] = set()

#: Alert kinds the board shows as a dispute.
DISPUTE_KINDS = frozenset(
    {
        "missing-card",
        "duplicate-card",
        "not-in-pack",
        "out-of-turn",
        "led-out-of-turn",
        "hand-mismatch",
    }
)
_DISPLAY = 32767  # the displays show -32767..32767
_DISPLAYS = 16  # at most this many displays in a STATE frame
_GAMES_WON = 255
_TRICK_GAMES = frozenset({"skat", "frog"})
_ALL_FOURS = frozenset({"allfours", "all-fours"})


class _Reader:
    """Reads a state's values; what has the wrong type is logged and taken as missing."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state = state if isinstance(state, Mapping) else {}
        self.game = self.state.get("game")

    def warn(self, what: str, value: Any, why: str) -> None:
        # Each kind of trouble is said once: a state comes with every card played.
        key = (self.game, what, why)
        if key in _WARNED:
            log.debug("state of %s: %s %r %s", self.game, what, value, why)
            return
        if len(_WARNED) < 256:
            _WARNED.add(key)
        log.warning("state of %s: %s %r %s", self.game, what, value, why)

    def integer(self, value: Any, what: str) -> int | None:
        if value is None:
            return None
        if type(value) is bool or not isinstance(value, int | float) or value != value:
            self.warn(what, value, "is not a number: ignored")
            return None
        if isinstance(value, float):
            if value in (float("inf"), float("-inf")):
                self.warn(what, value, "is not finite: ignored")
                return None
            value = int(value)
        return int(value)

    def key(self, name: str) -> int | None:
        return self.integer(self.state.get(name), name)

    def items(self, name: str) -> list[Any]:
        value = self.state.get(name)
        if value is None:
            return []
        if not isinstance(value, Sequence) or isinstance(value, str | bytes):
            self.warn(name, value, "is not a list: ignored")
            return []
        return list(value)

    def objects(self, name: str) -> list[Mapping[str, Any]]:
        out = []
        for i, item in enumerate(self.items(name)):
            if isinstance(item, Mapping):
                out.append(item)
            else:
                self.warn(f"{name}[{i}]", item, "is not an object: ignored")
        return out

    def numbers(self, name: str) -> list[int | None]:
        return [self.integer(v, f"{name}[{i}]") for i, v in enumerate(self.items(name))]

    def clip(self, value: int, low: int, high: int, what: str) -> int:
        if value < low or value > high:
            clipped = min(high, max(low, value))
            self.warn(what, value, f"cannot be shown: clipped to {clipped}")
            return clipped
        return value


def _track(seat: int | None, sides: int, tracks: int, r: _Reader, what: str) -> int | None:
    """The track of ``seat``'s side, or None when it has none on this board."""
    if seat is None or seat < 0:
        return None
    side = seat % sides if sides > 0 else seat
    if side >= tracks:
        r.warn(what, seat, f"has no track on a board of {tracks}: not shown")
        return None
    return side


def _scores(r: _Reader) -> tuple[int | None, ...]:
    scores = r.numbers("scores")
    if len(scores) > _DISPLAYS:
        r.warn("scores", len(scores), f"are more than {_DISPLAYS} displays: cut")
        scores = scores[:_DISPLAYS]
    return tuple(
        None if s is None else r.clip(s, -_DISPLAY, _DISPLAY, f"scores[{i}]")
        for i, s in enumerate(scores)
    )


def _peg(r: _Reader, value: int | None, game_hole: int | None, what: str) -> int:
    if value is None:
        return 0
    return r.clip(value, 0, game_hole if game_hole is not None else 255, what)


def _pegs(
    r: _Reader, pairs: Sequence[tuple[int | None, int | None]], tracks: int, hole: int | None
) -> tuple[tuple[int, int], ...]:
    if len(pairs) > tracks:
        r.warn("pegs", len(pairs), f"sides for a board of {tracks} tracks: the rest not shown")
        pairs = pairs[:tracks]
    return tuple(
        (_peg(r, f, hole, f"pegs[{i}].front"), _peg(r, b, hole, f"pegs[{i}].back"))
        for i, (f, b) in enumerate(pairs)
    )


def _alert(r: _Reader, sides: int, tracks: int) -> tuple[str, tuple[int, ...]]:
    every = tuple(range(tracks))

    def where(seat: Any, what: str) -> tuple[int, ...]:
        track = _track(r.integer(seat, what), sides, tracks, r, what)
        return every if track is None else (track,)

    events = r.key("events")
    if events is not None:
        for i, verdict in enumerate(r.objects("verdicts")):
            event = r.integer(verdict.get("event"), f"verdicts[{i}].event")
            if verdict.get("kind") == "revoke" and event == events - 1:
                return "revoke", where(verdict.get("seat"), f"verdicts[{i}].seat")
    for i, alert in enumerate(r.objects("alerts")):
        if alert.get("kind") in DISPUTE_KINDS:
            return "dispute", where(alert.get("seat"), f"alerts[{i}].seat")
    if r.state.get("phase") == "over":
        winner = r.key("winner")
        if winner is None:
            scores = r.numbers("scores")
            known = [s for s in scores if s is not None]
            if known and scores.count(max(known)) == 1:
                winner = scores.index(max(known))
        return "win", where(winner, "winner")
    return "none", ()


def board_state(
    state: Mapping[str, Any],
    *,
    tracks: int,
    game_hole: int | None = None,
    previous: BoardState | None = None,
) -> BoardState:
    """The board state for the referee's retained state body ``state``.

    ``tracks``: how many tracks the board has for this game; ``game_hole``: the
    board's last hole (pegs past it are clipped; ``None``: only to 0..255);
    ``previous``: the board state shown before, for All Fours' back pegs.

    >>> prev = board_state({"game": "allfours", "scores": [3, 1]}, tracks=2)
    >>> prev.pegs
    ((3, 3), (1, 1))
    >>> board_state({"game": "allfours", "scores": [5, 1]}, tracks=2, previous=prev).pegs
    ((5, 3), (1, 1))
    >>> board_state({"game": "cribbage", "pegs": [{"front": 140, "back": 118}]},
    ...             tracks=2, game_hole=121).pegs
    ((121, 118),)
    """
    if tracks < 1:
        raise ValueError(f"tracks must be >= 1, not {tracks}")
    r = _Reader(state)
    game = r.game
    scores = _scores(r)
    games_won: tuple[int, ...] = ()
    show_pegs = True
    if game == "cribbage":
        raw = r.objects("pegs")
        sides = len(raw) or len(scores) or tracks
        pegs = _pegs(
            r,
            [
                (r.integer(p.get("front"), f"pegs[{i}].front"), r.integer(p.get("back"), "back"))
                for i, p in enumerate(raw)
            ],
            tracks,
            game_hole,
        )
        games_won = tuple(
            r.clip(g or 0, 0, _GAMES_WON, f"games_won[{i}]")
            for i, g in enumerate(r.numbers("games_won")[:tracks])
        )
    elif game in _ALL_FOURS:
        sides = len(scores) or tracks
        pairs: list[tuple[int | None, int | None]] = []
        for i, score in enumerate(scores):
            back = score
            if previous is not None and i < len(previous.pegs) and score is not None:
                before_front, before_back = previous.pegs[i]
                if score == before_front:
                    back = before_back
                elif score > before_front:
                    back = before_front
                else:  # the score went down (an undo): the back peg no further than it
                    back = min(before_back, score)
            pairs.append((score, back))
        pegs = _pegs(r, pairs, tracks, game_hole)
    else:
        if game not in _TRICK_GAMES:
            r.warn("game", game, "is not a game the board knows: scores only")
        sides = len(scores) or tracks
        pegs = ()
        show_pegs = False
    alert, alert_tracks = _alert(r, sides, tracks)
    return BoardState(
        pegs=pegs,
        games_won=games_won,
        dealer=_track(r.key("dealer"), sides, tracks, r, "dealer"),
        turn=_track(r.key("turn"), sides, tracks, r, "turn"),
        alert=alert,
        alert_tracks=alert_tracks,
        scores=scores,
        show_pegs=show_pegs,
    )
