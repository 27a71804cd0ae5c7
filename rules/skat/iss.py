"""Game records of the International Skat Server (ISS): read, write, replay.

One record is one deal of three-hand Skat, written on one line::

    (;GM[Skat]PC[International Skat Server]...P0[a]P1[b]P2[c]...
     MV[w <32 cards> 1 p 2 18 0 p 2 s w H8.CK 2 D.ST.H8 0 SA 1 S7 ...]
     R[d:2 loss v:-54 m:-2 bidok p:59 t:4 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0] ;)

``P0``/``P1``/``P2`` are Vorhand, Mittelhand, Hinterhand (seats 0, 1, 2; Hinterhand
deals). Cards are suit then rank: ``CJ`` (jack of clubs), ``HT`` (ten of hearts).
``MV`` is a list of moves ``WHO WHAT``; ``WHO`` is ``w`` (the world: the deal, the
skat shown to the player) or a seat. ``WHAT`` is the deal (30 + 2 cards), a
figure, ``y`` (hold), ``p`` (pass), ``s`` (the player takes up the skat), a game
``G``/``C``/``S``/``H``/``D``/``N`` with ``O`` (ouvert), ``H`` (hand), ``S``
(schneider announced), ``Z`` (schwarz announced), then ``.`` and the two cards
laid away and, in an open game, the hand shown; a card; ``RE`` (resign); ``SC``
(the player shows his cards, a claim); ``TI.n`` (seat n ran out of time); ``LE.n``
(seat n left). ``R`` is ``passed`` or ``d:`` declarer, ``win``/``loss`` (or
``penalty``), ``v:`` value, ``m:`` matadors (negative: without), ``bidok`` or
``overbid``, ``p:`` the player's card points, ``t:`` his tricks, ``s:`` schneider,
``z:`` schwarz, then penalties, who left, who timed out, ``r:`` resigned.

What the record format is, as understood here, and its limits: ``docs/records.md``.

>>> rec = parse_record("(;GM[Skat]P0[a]P1[b]P2[c]MV[w CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8."
...     "SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK.HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8.C7.D7 1 p 2 p 0 18 "
...     "0 CH 0 CJ 1 SA 2 HT]R[d:0 win v:96 m:4 bidok p:120 t:10 s:1 z:1] ;)")
>>> rec.tags["P0"], len(rec.moves), rec.result["v"]
('a', 8, '96')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.cards import SKAT_DECK, Card, Suit
from rules.errors import InvalidEventError, quoted
from rules.skat.declaration import Declaration
from rules.skat.events import (
    Bid,
    Claim,
    Concede,
    Deal,
    Declare,
    Discard,
    Event,
    Hold,
    Pass,
    PickUp,
    Play,
)
from rules.skat.game import DealResult, SkatGame
from rules.skat.rulesets import SkatRules
from rules.skat.settlement import skat_points
from rules.verdicts import CardNotInHand, DuplicateCard, OutOfPhase, WrongNumberOfCards

__all__ = [
    "IssRecord",
    "Replay",
    "iss_card",
    "parse_iss_card",
    "parse_record",
    "read_records",
    "record_end",
    "record_events",
    "replay",
    "write_record",
]

_SUITS: Final = {"C": Suit.CLUBS, "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS}
_RANKS: Final = {"A": 1, "K": 13, "Q": 12, "J": 11, "T": 10, "9": 9, "8": 8, "7": 7}
_RANK_LETTER: Final = {v: k for k, v in _RANKS.items()}
_TAG: Final = re.compile(r"([A-Z][A-Z0-9]*)\[((?:[^\]\\]|\\.)*)\]")
#: One record's end and the next one's start: ``;)(;``.
_NEXT_RECORD: Final = re.compile(r";?\s*\)\s*\(;")
#: A tag whose value has no closing ``]``.
_OPENED: Final = re.compile(r"([A-Z][A-Z0-9]*)\[(?:[^\]\\]|\\.)*$")
#: The result fields a replay must reproduce, in the order of the ``R`` field.
RESULT_FIELDS: Final = (
    "declarer",
    "won",
    "value",
    "matadors",
    "points",
    "tricks",
    "schneider",
    "schwarz",
    "overbid",
)


#: Result fields that hold whole numbers (seats, values, counts; -1 for none).
_NUMERIC_RESULT: Final = frozenset(
    ("d", "v", "m", "p", "t", "s", "z", "p0", "p1", "p2", "l", "to", "r")
)
_WHOLE: Final = re.compile(r"-?[0-9]{1,6}")
_BID: Final = re.compile(r"[0-9]{1,4}")


def _short(text: str, limit: int = 24, quote: bool = True) -> str:
    """``text`` for an error message, cut to ``limit`` characters (:func:`quoted`)."""
    return quoted(text, limit) if quote else quoted(text, limit)[1:-1]


def parse_iss_card(token: str) -> Card:
    """``CJ`` -> jack of clubs. Anything else raises, naming the token.

    >>> parse_iss_card("HT"), parse_iss_card("D7")
    (Card.parse('10H'), Card.parse('7D'))
    >>> parse_iss_card("JC")
    Traceback (most recent call last):
    ...
    rules.errors.InvalidEventError: bad ISS card 'JC' (suit C S H D, then rank A K Q J T 9 8 7)
    """
    if len(token) != 2 or token[0] not in _SUITS or token[1] not in _RANKS:
        raise InvalidEventError(
            f"bad ISS card {_short(token)} (suit C S H D, then rank A K Q J T 9 8 7)"
        )
    return Card(_RANKS[token[1]], _SUITS[token[0]])


def iss_card(card: Card) -> str:
    """The ISS form of a card: ``Card.parse('10H')`` -> ``'HT'``."""
    return card.suit.value + _RANK_LETTER[card.rank]


def _is_card(token: str) -> bool:
    return len(token) == 2 and token[0] in _SUITS and token[1] in _RANKS


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_iss_card(t) for t in text.split(".")) if text else ()


@dataclass(frozen=True, slots=True)
class IssRecord:
    """One record: its tags (``GM``, ``ID``, ``P0`` …), moves and result fields."""

    tags: dict[str, str]
    moves: tuple[tuple[str, str], ...]
    result: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str | None:
        return self.tags.get("ID")

    @property
    def passed(self) -> bool:
        return "passed" in self.result


def parse_record(text: str) -> IssRecord:
    """Read one record. A malformed record raises :class:`InvalidEventError` naming
    what is wrong with it."""
    body = text.strip()
    if not body.startswith("(;") or not body.endswith(")"):
        raise InvalidEventError("not an ISS record: expected '(;GM[Skat]…;)'")
    inner = body[2:-1].rstrip().removesuffix(";")
    tags: dict[str, str] = {}
    pos, size = 0, len(inner)
    while True:
        # anchored at each tag: one pass over the line, however it is malformed (a
        # search for the next tag from every position was quadratic)
        while pos < size and inner[pos].isspace():
            pos += 1
        if pos == size:
            break
        m = _TAG.match(inner, pos)
        if m is None:
            if _NEXT_RECORD.match(inner, pos):
                raise InvalidEventError("a second record on the line: one record a line")
            opened = _OPENED.match(inner, pos)
            if opened is not None:  # (it was "unexpected text 'MV[w HA.SK…'")
                raise InvalidEventError(
                    f"{opened.group(1)}[ is not closed by ']': the record cut short?"
                )
            raise InvalidEventError(f"unexpected text {_short(inner[pos:])} in the record")
        tags[m.group(1)] = m.group(2).replace("\\]", "]").replace("\\\\", "\\")
        pos = m.end()
    if tags.get("GM") != "Skat":
        raise InvalidEventError(f"not a Skat record: GM[{_short(tags.get('GM', ''), quote=False)}]")
    if "MV" not in tags:
        raise InvalidEventError("the record has no moves (MV)")
    words = tags["MV"].split()
    if len(words) % 2:
        raise InvalidEventError(
            f"moves come in pairs 'WHO WHAT'; {_short(words[-1])} has no partner"
        )
    moves = tuple((words[i], words[i + 1]) for i in range(0, len(words), 2))
    for who, _ in moves:
        if who not in ("w", "0", "1", "2"):
            raise InvalidEventError(f"move by {_short(who)}: expected w, 0, 1 or 2")
    return IssRecord(tags, moves, _parse_result(tags.get("R", "")))


def _parse_result(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    if text.split() == ["unknown"]:
        return out  # the server's word for a game it did not finish: no result given
    for token in text.split():
        if token in ("win", "loss", "penalty", "passed", "bidok", "overbid"):
            out[token] = "1"
        elif ":" in token:
            key, _, value = token.partition(":")
            if key in _NUMERIC_RESULT and not _WHOLE.fullmatch(value):
                raise InvalidEventError(
                    f"result field {_short(key + ':' + value)}: {key} must be a whole number"
                )
            out[key] = value
        else:
            raise InvalidEventError(f"unknown result token {_short(token)}")
    return out


def read_records(lines: Sequence[str] | Iterator[str]) -> Iterator[tuple[int, str]]:
    """The records of a file, with their line numbers: one a line; blank lines and
    lines starting with ``#`` are skipped."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield number, text


def record_events(rec: IssRecord) -> list[Event]:
    """The record's moves as Kiebitz events (Hinterhand, seat 2, deals)."""
    return [event for _, event in _record_moves(rec)]


_TIMES: Final = {2: "twice", 3: "three times"}


def _check_pack(cards: Sequence[Card]) -> None:
    """Every card of the Skat pack once: "an imperfect pack is one in which there are
    duplicate or missing cards" and "there must be a new deal" (Law 19). A record
    dealing one twice was replayed, the referee's verdicts beside its result.

    >>> _check_pack(SKAT_DECK[:1] * 2 + SKAT_DECK[2:])
    Traceback (most recent call last):
    ...
    rules.errors.InvalidEventError: the deal has SA twice and lacks SK (an imperfect pack: Law 19)
    """
    counts = Counter(cards)
    extra = [f"{iss_card(c)} {_TIMES.get(n, f'{n} times')}" for c, n in counts.items() if n > 1]
    missing = [iss_card(c) for c in SKAT_DECK if c not in counts]
    if extra or missing:
        has = f"has {', '.join(extra)}" if extra else ""
        lacks = f"lacks {', '.join(missing)}" if missing else ""
        raise InvalidEventError(
            f"the deal {' and '.join(x for x in (has, lacks) if x)} (an imperfect pack: Law 19)"
        )


def _record_moves(rec: IssRecord) -> list[tuple[str, Event]]:
    """The record's events, each with the move it came from (``"0 CJ"``), to name it."""
    events: list[tuple[str, Event]] = []
    moves = list(rec.moves)
    if not moves or moves[0][0] != "w":
        raise InvalidEventError("the moves must begin with the deal 'w <cards>'")
    deal_text = moves[0][1]
    if "?" in deal_text:
        raise InvalidEventError("a player's view of the deal ('??'): a replay needs the world view")
    groups = deal_text.split("|") if "|" in deal_text else None
    if groups is not None:
        if len(groups) != 4:
            raise InvalidEventError(
                "a deal written with '|' has four parts: three hands and the skat"
            )
        hands = tuple(_cards(g) for g in groups[:3])
        skat = _cards(groups[3])
        sizes = [len(h) for h in hands]
        if sizes != [10, 10, 10] or len(skat) != 2:
            raise InvalidEventError(
                f"the deal has hands of {', '.join(map(str, sizes))} cards and a skat of "
                f"{len(skat)}: expected 10, 10, 10 and 2"
            )
    else:
        cards = _cards(deal_text)
        if len(cards) != 32:
            raise InvalidEventError(f"the deal has {len(cards)} cards, expected 32")
        hands = (cards[0:10], cards[10:20], cards[20:30])
        skat = cards[30:32]
    _check_pack([c for hand in hands for c in hand] + list(skat))
    events.append(("w", Deal(dealer=2, hands=hands, skat=skat)))
    i = 1
    declared = False
    while i < len(moves):
        who, what = moves[i]
        i += 1
        move = f"{who} {_short(what)}"
        if who == "w":
            if what.startswith(("LE.", "TI.")):
                break
            raise InvalidEventError(f"unexpected world move {_short(what)}")
        seat = int(who)
        if what == "y":
            events.append((move, Hold(seat)))
        elif what == "p":
            events.append((move, Pass(seat)))
        elif _BID.fullmatch(what):
            events.append((move, Bid(seat, int(what))))
        elif what.isdigit():  # '18²', a thousand digits: no bid of the record format
            raise InvalidEventError(
                f"move {seat} {_short(what)}: not a bid (digits 0-9, at most 4)"
            )
        elif what == "s":
            shown: tuple[Card, ...] = ()
            if i < len(moves) and moves[i][0] == "w" and re.fullmatch(r"..\...", moves[i][1]):
                shown = _cards(moves[i][1]) if "?" not in moves[i][1] else ()
                i += 1
            events.append((move, PickUp(seat, shown)))
        elif what == "RE":
            events.append((move, Concede(seat)))
        elif what.startswith("SC"):
            events.append((move, Claim(seat, "open", _cards(what[3:]) if len(what) > 2 else ())))
        elif what.startswith(("TI.", "LE.")):
            break
        elif what == "??" and declared:
            # A card the server did not show: in a real record ('0 ?? w LE.1') the
            # game was cut short as it was played. The replay stops before it; any
            # other unknown card leaves the play unknown.
            if _cut_short_from(moves, i):
                break
            raise InvalidEventError(
                f"move {seat} '??': a card the record does not show; a replay needs "
                "every card (the world view)"
            )
        elif _is_card(what) and declared:
            events.append((move, Play(seat, parse_iss_card(what))))
        elif _is_card(what):  # no game code is a card: it said "unknown game code 'CJ'"
            raise InvalidEventError(f"move {seat} {_short(what)}: a card before any game")
        elif not declared:
            code, _, rest = what.partition(".")
            try:
                decl = Declaration.from_iss(code)
            except InvalidEventError as exc:
                why = _short(str(exc), 80, quote=False)
                raise InvalidEventError(f"move {seat} {_short(what)}: {why}") from exc
            listed = _cards(rest)
            # Older records write the two cards laid away as a move of their own.
            if (
                not decl.hand
                and not listed
                and i < len(moves)
                and moves[i][0] == who
                and re.fullmatch(r"..\...", moves[i][1])
            ):
                listed = _cards(moves[i][1])
                i += 1
            if decl.hand:
                events.append((move, Declare.of(seat, decl, listed)))
            else:
                if not listed and _cut_short_from(moves, i):
                    # The game named, the two cards never laid away: the player ran
                    # out of time or left first (a real record: '1 C w TI.1'). The
                    # replay stops before the declaration.
                    break
                if len(listed) < 2:
                    raise InvalidEventError(
                        f"move {seat} {_short(what)}: two cards laid away expected"
                    )
                events.append((move, Discard(seat, listed[:2])))
                events.append((move, Declare.of(seat, decl, listed[2:])))
            declared = True
        else:
            raise InvalidEventError(f"move {seat} {_short(what)}: not a move of the record format")
    return events


_ENDINGS: Final = {"TI": "timeout", "LE": "left"}


def _cut_short_from(moves: Sequence[tuple[str, str]], i: int) -> bool:
    """Whether the moves from ``i`` on are only unknown cards (``??``) and then a
    timeout or a player leaving (``TI.k`` / ``LE.k``)."""
    while i < len(moves) and moves[i][1] == "??":
        i += 1
    return i < len(moves) and moves[i][1].startswith(("TI.", "LE."))


def record_end(rec: IssRecord) -> tuple[str, int | None] | None:
    """How a game that was not played to its end ended: ``("timeout", seat)`` (a
    ``TI.n`` move: seat n ran out of time) or ``("left", seat)`` (``LE.n``), else
    ``None``. Without such a move, the result field's ``to:`` or ``l:`` (a seat, -1
    for none) says it.

    >>> record_end(parse_record("(;GM[Skat]MV[w ?? 1 p 2 TI.2 ]R[d:-1 penalty to:2] ;)"))
    ('timeout', 2)
    >>> record_end(parse_record("(;GM[Skat]MV[w ?? 1 p ]R[d:-1 penalty to:-1 l:0] ;)"))
    ('left', 0)
    """
    for _, what in rec.moves:
        how = _ENDINGS.get(what[:2])
        if how is not None and what[2:3] == ".":
            seat = what[3:]
            if seat not in ("0", "1", "2"):
                raise InvalidEventError(f"move {_short(what)}: the seat must be 0, 1 or 2")
            return how, int(seat)
    for key, how in (("to", "timeout"), ("l", "left")):
        value = rec.result.get(key, "-1")  # a whole number: _parse_result checked it
        if int(value) >= 0:
            return how, int(value)
    return None


def _won_when_cut(game: SkatGame, ender: int) -> bool:
    """Whether the single player wins a game cut short when seat ``ender`` ran out of
    time or left, as the ISkO ends a game at a party's breach and the server scores
    it. A game already decided stays so: the side that has won wins "with the
    points it had" (ISkO 4.1.3; 4.3.3, a defender giving up). Else a defender's
    ending gives the player the rest of the tricks: he wins unless the defenders
    already hold 60, or 31 against schneider announced (30 where schneider is 91),
    or a trick against schwarz announced. The player's own ending leaves him what he
    has: he loses unless he has 61 already, with the skat. A nullo: the side that
    ended it loses (one the player lost was scored at his trick)."""
    d = game.deal
    assert d is not None and d.declarer is not None  # the caller's: a game declared
    if d.declaration is None or d.play is None:
        return ender != d.declarer
    if d.result is not None and d.result.kind == "game":
        return bool(d.result.won)  # decided before its end: a nullo, schwarz, schneider
    decl, play, me = d.declaration, d.play, d.declarer
    if decl.is_null:
        return ender != me
    theirs = sum(p for seat, p in play.points.items() if seat != me)
    if ender != me:
        if decl.schwarz:
            return all(n == 0 for seat, n in play.trick_count.items() if seat != me)
        mine = 120 - theirs  # the rest of the tricks to the player
    else:
        if decl.schwarz:
            return False
        mine = play.points[me] + (skat_points(d) or 0)
    return mine >= (game.rules.schneider_at if decl.schneider else 61)


@dataclass(frozen=True, slots=True)
class Replay:
    """A record replayed: the game, its result, the record's own result, and the
    fields where they differ. ``ended`` is how a game cut short ended (see
    :func:`record_end`): it has no result, only the play up to that move. A record
    without a result field (no ``R[…]``, or an empty one) has nothing to compare:
    ``agrees`` is ``None``, neither true nor false."""

    record: IssRecord
    game: SkatGame
    result: DealResult | None
    expected: dict[str, Any]
    differs: tuple[str, ...]
    ended: tuple[str, int | None] | None = None

    @property
    def agrees(self) -> bool | None:
        """Whether the record's result field agrees; ``None`` where it has none."""
        return (not self.differs) if self.record.result else None

    def to_json(self) -> dict[str, Any]:
        r = self.result
        out: dict[str, Any] = {"id": self.record.id}
        if self.ended is not None:
            # Not a half-game: the game was cut short, and says so.
            how, seat = self.ended
            out.update(dict.fromkeys(RESULT_FIELDS))
            out["kind"] = how
            d = self.game.deal
            play = None if d is None else d.play
            out["ended"] = {
                "by": how,
                "seat": seat,
                "phase": self.game.phase,
                "trick": None if play is None else play.trick_number,
                "cards_played": 0 if play is None else sum(map(len, play.played.values())),
            }
        elif r is None:
            out.update(dict.fromkeys(RESULT_FIELDS))
            out["kind"] = "unfinished"
        else:
            out["kind"] = r.kind
            out.update(
                declarer=r.declarer,
                game=r.game,
                won=r.won,
                value=r.value,
                matadors=r.matadors,
                points=r.points,
                tricks=r.tricks,
                schneider=r.schneider,
                schwarz=r.schwarz,
                overbid=r.overbid,
            )
        out.setdefault("ended", None)
        out["verdicts"] = [
            {"kind": x.kind, "seat": x.seat, "trick": x.trick, "cards": [str(c) for c in x.cards]}
            for x in self.game.verdicts
        ]
        # nothing to compare without a result field: not "agrees"
        out["agrees"] = self.agrees
        out["differs"] = list(self.differs)
        return out


def _expected(rec: IssRecord) -> dict[str, Any]:
    r = rec.result
    if not r or "passed" in r:
        return {"kind": "passed"} if "passed" in r else {}
    if "penalty" in r:
        return {"kind": "penalty"}

    def num(key: str) -> int | None:
        return int(r[key]) if key in r else None

    return {
        "kind": "game",
        "declarer": num("d"),
        "won": "win" in r,
        "value": num("v"),
        "matadors": num("m"),
        "points": num("p"),
        "tricks": num("t"),
        "schneider": r.get("s") == "1",
        "schwarz": r.get("z") == "1",
        "overbid": "overbid" in r,
    }


_MOVE_WORDS: Final = {
    "play": "a card",
    "declare": "a game declared",
    "discard": "the skat laid away",
    "pick_up": "the skat taken up",
    "concede": "a resignation",
    "claim": "a claim",
    "bid": "a bid",
    "hold": "a hold",
    "pass": "a pass",
}
#: When a move came that its phase does not take, for a broken record's message.
_PHASE_WORDS: Final = {
    "bidding": "in the bidding",
    "declaring": "after the bidding, before the game was declared",
    "play": "in the play",
    "over": "after the deal was over",
}


def replay(rec: IssRecord, rules: SkatRules | None = None) -> Replay:
    """Replay a record through :class:`SkatGame` and compare the result fields.

    Null games: ISS writes no matadors (``m:0``), as here.
    """
    game = SkatGame(rules or SkatRules())
    for move, event in _record_moves(rec):
        phase = "no deal" if game.deal is None else game.deal.phase
        outcome = game.apply(event)
        for x in outcome.verdicts:
            if isinstance(x, OutOfPhase):
                # The server takes each move in its phase: a bid in the play, a card
                # after the last trick, is a broken record, not a verdict beside an
                # "agrees" (it was listed, status 0)
                trick = f" (trick {x.trick})" if x.trick and phase == "play" else ""
                when = _PHASE_WORDS.get(phase, f"in phase {phase}")
                what = _MOVE_WORDS.get(event.type, f"a move ({event.type})")
                raise InvalidEventError(f"move {move}{trick}: {what} {when}")
        if isinstance(event, PickUp) and outcome.verdicts:
            # The server lets the player take up the skat once, and shows the two
            # cards dealt there: a second "s" (Law 32), one by another seat, a skat
            # shown that was not dealt, is a broken record (a second was taken
            # without a word, "(agrees)").
            x = outcome.verdicts[0]
            detail = x.detail
            for seen in x.cards:
                detail = detail.replace(str(seen), iss_card(seen))
            raise InvalidEventError(f"move {move}: {detail}")
        if isinstance(event, (Play, Discard, Declare, Claim)):
            # The server deals and plays only cards held, and shows the hand held: a
            # card the player does not hold (or played already), or an open hand of
            # other than his cards (Law 5: "the hand of the single player must be
            # laid face up"), is a broken record, not a verdict to report beside an
            # "agrees".
            for x in outcome.verdicts:
                if isinstance(x, WrongNumberOfCards) and isinstance(event, Declare):
                    raise InvalidEventError(
                        f"move {move}: the open hand shows {len(set(event.shown))} cards, "
                        "not the ten the player holds"
                    )
                if isinstance(x, WrongNumberOfCards) and isinstance(event, Claim):
                    # Laws 49, 50: a claim lays the claimant's cards on the table (it
                    # was a verdict beside "(agrees)")
                    play = game.deal.play if game.deal is not None else None
                    held = "" if play is None else f" the {play.remaining(event.seat)}"
                    raise InvalidEventError(
                        f"move {move} (trick {x.trick}): the hand shown with the claim has "
                        f"{len(set(event.shown))} cards, not{held} seat {event.seat} holds"
                    )
                if isinstance(x, (CardNotInHand, DuplicateCard)):
                    card = iss_card(x.cards[0]) if x.cards else "?"
                    detail = x.detail.replace(str(x.cards[0]), card) if x.cards else x.detail
                    trick = f" (trick {x.trick})" if x.trick is not None else ""
                    raise InvalidEventError(
                        f"move {move}{trick}: seat {event.seat} does not hold {card} ({detail})"
                    )
    result = game.results[-1] if game.results else None
    expected = _expected(rec)
    ended = record_end(rec)
    differs: list[str] = []
    if ended is not None:
        # Cut short. Before a game is declared the server writes 'd:-1 penalty'.
        # After it, real records settle the game (_won_when_cut): mostly the single
        # player who ran out of time or left loses it ('d:1 loss … to:1'), one whose
        # adversary did wins it ('d:2 win … l:1'). The record agrees if it says
        # penalty, or names the same single player and that side; its value, points
        # and matadors are the server's settlement (such as 'm:-11' for a hand
        # never laid away) and are not reproduced.
        if expected.get("kind") == "game":
            declarer = None if game.deal is None else game.deal.declarer
            if expected.get("declarer") != declarer:
                differs.append("declarer")
            elif (
                declarer is not None
                and ended[1] is not None
                and expected.get("won") != _won_when_cut(game, ended[1])
            ):
                differs.append("won")
        elif expected.get("kind") not in (None, "penalty"):
            differs.append("kind")
        key = "to" if ended[0] == "timeout" else "l"
        named = rec.result.get(key)
        if named is not None and ended[1] is not None and named != str(ended[1]):
            differs.append("ended")
        return Replay(rec, game, None, expected, tuple(differs), ended)
    if expected.get("kind") == "game" and result is not None:
        got = result.to_json()
        for key in RESULT_FIELDS:
            if expected.get(key) is not None and expected[key] != got[key]:
                differs.append(key)
    elif expected.get("kind") == "passed":
        if result is None or result.kind != "passed":
            differs.append("kind")
    elif expected.get("kind") == "game":
        differs.append("kind")
    return Replay(rec, game, result, expected, tuple(differs))


def write_record(game: SkatGame, tags: dict[str, str] | None = None) -> str:
    """The last deal of ``game`` as an ISS record (three at the table, the deal known).

    >>> from rules.skat.events import Deal, Pass
    >>> from rules.cards import SKAT_DECK
    >>> g = SkatGame()
    >>> for e in [Deal(dealer=2, hands=(SKAT_DECK[:10], SKAT_DECK[10:20], SKAT_DECK[20:30]),
    ...                skat=SKAT_DECK[30:]), Pass(1), Pass(2), Pass(0)]:
    ...     _ = g.apply(e)
    >>> write_record(g, {"ID": "1"}).endswith(" 1 p 2 p 0 p ]R[passed] ;)")
    True
    """
    if game.rules.players != 3:
        raise InvalidEventError("an ISS record is a deal of three-hand Skat")
    events = list(game.events)
    starts = [i for i, e in enumerate(events) if isinstance(e, Deal)]
    if not starts:
        raise InvalidEventError("no deal to write")
    events = events[starts[-1] :]
    deal = events[0]
    assert isinstance(deal, Deal)
    if deal.hands is None or len(deal.skat) != 2:
        raise InvalidEventError("an ISS record needs the whole deal: the hands and the skat")
    d = game.deal
    assert d is not None
    seat_of = {seat: str(pos) for pos, seat in enumerate(d.seats)}
    cards = [c for hand in deal.hands for c in hand] + list(deal.skat)
    moves = ["w", ".".join(iss_card(c) for c in cards)]
    pending_discard: tuple[Card, ...] = ()
    for e in events[1:]:
        who = seat_of.get(getattr(e, "seat", -1), "w")
        if isinstance(e, Bid):
            moves += [who, str(e.value)]
        elif isinstance(e, Hold):
            moves += [who, "y"]
        elif isinstance(e, Pass):
            moves += [who, "p"]
        elif isinstance(e, PickUp):
            moves += [who, "s"]
            if len(d.skat) == 2:
                moves += ["w", ".".join(iss_card(c) for c in d.skat)]
        elif isinstance(e, Discard):
            pending_discard = e.laid
        elif isinstance(e, Declare):
            parts = [e.declaration.to_iss(), *(iss_card(c) for c in pending_discard)]
            parts += [iss_card(c) for c in e.shown]
            moves += [who, ".".join(parts)]
        elif isinstance(e, Play):
            moves += [who, iss_card(e.card)]
        elif isinstance(e, Concede):
            moves += [who, "RE"]
        elif isinstance(e, Claim):
            moves += [who, ".".join(["SC", *(iss_card(c) for c in e.shown)])]
    all_tags = {"GM": "Skat", "PC": "Kiebitz", **(tags or {})}
    head = "".join(f"{k}[{_escape(v)}]" for k, v in all_tags.items())
    return f"(;{head}MV[{' '.join(moves)} ]R[{_result_text(d.result)}] ;)"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _result_text(r: DealResult | None) -> str:
    if r is None:
        return ""
    if r.kind == "passed":
        return "passed"
    if r.kind != "game" or r.value is None:
        return f"d:{-1 if r.declarer is None else r.declarer} penalty v:0"
    return (
        f"d:{r.declarer} {'win' if r.won else 'loss'} v:{r.value} m:{r.matadors} "
        f"{'overbid' if r.overbid else 'bidok'} p:{r.points} t:{r.tricks} "
        f"s:{int(r.schneider)} z:{int(r.schwarz)} p0:0 p1:0 p2:0 l:-1 to:-1 r:0"
    )
