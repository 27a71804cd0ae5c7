"""The game told in words from the referee's ``game/event`` bodies, as the demo tells it.

:class:`Narrator` keeps the events by index (a recount replaces those from its
``since``), says each one as it comes ("Ben 5C (15): fifteen two: Ben pegs 2 to
2"), and gives the end of the run its summary: every card played, the verdicts
proved, the alerts still open.

>>> n = Narrator("cribbage", names=("Anna", "Ben"))
>>> n.take({"type": "event", "index": 5, "event": {"type": "play", "seat": 1, "card": "10H"},
...         "pegged": [], "verdicts": [], "notes": []})
['Ben plays 10H']
>>> n.take({"type": "event", "index": 6, "event": {"type": "play", "seat": 0, "card": "5C"},
...         "pegged": [{"seat": 0, "points": 2, "score": 2,
...                     "items": [{"kind": "fifteen", "points": 2, "cards": []}]}],
...         "verdicts": [], "notes": []})
['Anna plays 5C: fifteen two: Anna pegs 2 to 2']
>>> n.plays()
[{'seat': 1, 'card': '10H'}, {'seat': 0, 'card': '5C'}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.cards import Card
from rules.cribbage.scoring import ScoreItem
from rules.cribbage.speech import say_item
from rules.errors import quoted

__all__ = ["Narrator"]

NAMES = ("Anna", "Ben", "Clara", "David", "Emil", "Frieda")


def _say_pegged(p: Mapping[str, Any], names: Sequence[str]) -> str:
    items = []
    for item in p.get("items", []):
        try:
            cards = tuple(Card.parse(c) for c in item.get("cards", []))
            items.append(say_item(ScoreItem(item["kind"], int(item["points"]), cards)))
        except (KeyError, ValueError):
            items.append(str(item.get("kind", "points")))
    who = names[int(p["seat"])] if 0 <= int(p["seat"]) < len(names) else f"seat {p['seat']}"
    return f"{', '.join(items)}: {who} pegs {p['points']} to {p['score']}"


#: The most of a reason or a note's text told (a 60 KB note was held and sent whole)
SAID_CHARS = 500


def _clipped(text: Any) -> str:
    said = str(text)
    return said if len(said) <= SAID_CHARS else said[:SAID_CHARS] + "…"


def _whole(value: Any) -> bool:
    """A whole number, 0 or more (JSON's ``true`` is none)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _problem(body: Mapping[str, Any]) -> str | None:
    """What is wrong with an event body's shape, for the kinds :class:`Narrator`
    tells, or ``None``."""
    kind = body.get("type")
    if kind == "event":
        index = body.get("index")
        if not _whole(index):
            return f"event: index {quoted(str(index), 40)} is no whole number"
        event = body.get("event")
        if not isinstance(event, Mapping):
            return "event: event is not an object"
        if event.get("type") == "play" and not (
            isinstance(event.get("seat"), int) and isinstance(event.get("card"), str)
        ):
            return "event: a play without its seat and card"
        if event.get("type") == "correct" and not isinstance(event.get("index"), int):
            return "event: a correction without the index of the event it corrects"
        for key in ("pegged", "verdicts", "notes"):
            if not isinstance(body.get(key, []), list):
                return f"event: {key} is not a list"
        for key in ("pegged", "verdicts"):
            if not all(isinstance(item, Mapping) for item in body.get(key, [])):
                return f"event: {key} holds something not an object"
        for p in body.get("pegged", []):
            if not isinstance(p.get("seat"), int) or not isinstance(p.get("items", []), list):
                return "event: pegged holds no seat or items"
            if not all(isinstance(item, Mapping) for item in p.get("items", [])):
                return "event: pegged items hold something not an object"
        if body.get("result") is not None and not isinstance(body.get("result"), Mapping):
            return "event: result is not an object"
    elif kind == "alert":
        alert = body.get("alert")
        if not isinstance(alert, Mapping) or not isinstance(alert.get("kind"), str):
            return "alert: alert is no object with a kind"
    elif kind in ("refused", "error") and not isinstance(body.get("reason"), str):
        return f"{kind}: no reason"
    elif kind == "recount" and not _whole(body.get("since", 0)):
        return "recount: since is no whole number"
    return None


class Narrator:
    """Follows one table's events; :meth:`take` returns the lines to print for one."""

    def __init__(self, game: str, names: Sequence[str] = NAMES) -> None:
        self.game = game
        self.names = tuple(names)
        self.events: dict[int, dict[str, Any]] = {}
        self.alerts: dict[str, dict[str, Any]] = {}
        self.last_scored = ""

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def take(self, body: Mapping[str, Any]) -> list[str]:
        """The lines for one ``game/event`` body. One not as the referee sends it (the
        event schema leaves bodies free: a wrongly typed ``verdicts``, an alert that
        is no object) raises :class:`ValueError` naming what is wrong, and no other
        error, and is not kept (it was a traceback in the web view, and garbage shown
        to spectators)."""
        problem = _problem(body)
        if problem is not None:
            raise ValueError(problem)
        kind = body.get("type")
        if kind == "recount":
            since = int(body.get("since", 0))
            self.events = {i: e for i, e in self.events.items() if i < since}
            return [f"(recounted from event {since})"]
        if kind == "new_match":
            self.events = {}
            return ["A new match."]
        if kind == "alert":
            alert = dict(body.get("alert", {}))
            self.alerts[str(alert.get("id"))] = alert
            return [f"ALERT {alert.get('kind')}: {alert.get('detail')}"]
        if kind == "alert_cleared":
            self.alerts.pop(str(body.get("id")), None)
            return []
        if kind in ("refused", "error"):
            return [f"{kind}: {_clipped(body.get('reason'))}"]
        if kind == "note":
            return [f"  ({_clipped(body.get('text'))})"]
        if kind != "event":
            return []
        try:  # kept only once told (a body that could not be told was kept, and broke
            # the run's summary after it)
            said = self._say(body)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"event: not told: {type(exc).__name__}: {exc}"[:200]) from None
        self.events[int(body["index"])] = dict(body)
        return said

    def _say(self, body: Mapping[str, Any]) -> list[str]:
        e = body.get("event", {})
        t = e.get("type")
        who = self.name(e.get("seat"))
        line = ""
        if t == "play":
            line = f"{who} plays {e.get('card')}"
        elif t == "go":
            line = f"{who}: go"
        elif t == "starter":
            line = f"Starter: {e.get('card')}"
        elif t == "show":
            whose = f"{who}'s crib" if e.get("crib") else who
            line = f"{whose} shows {' '.join(e.get('cards', []))}"
        elif t == "deal":
            line = "A new deal."
        elif t == "cut":
            line = "Cut for deal: " + ", ".join(
                f"{self.name(s)} {c}" for s, c in enumerate(e.get("cards", []))
            )
        elif t == "declare":
            line = f"{who} declares {e.get('game')}" + (" hand" if e.get("hand") else "")
        elif t == "correct":
            line = f"event {e.get('index')}: {e.get('old')} corrected to {e.get('new')}"
        pegs = [_say_pegged(p, self.names) for p in body.get("pegged", [])]
        if pegs:
            self.last_scored = "; ".join(pegs)
            line = f"{line}: {self.last_scored}" if line else self.last_scored
        out = [line] if line else []
        for v in body.get("verdicts", []):
            out.append(f"VERDICT {v.get('kind')}: {v.get('detail')}")
        for note in body.get("notes", []):
            out.append(f"  {note}")
        result = body.get("result")
        if result:
            out.append(f"  {self.say_result(result)}")
        return out

    def say_result(self, r: Mapping[str, Any]) -> str:
        """A deal's result in words: who played what, won or lost, for how much."""
        if r.get("declarer") is None or r.get("won") is None:
            changes = r.get("changes")
            return f"the deal: {r.get('kind', 'over')}" + (f", {changes}" if changes else "")
        words = [
            f"{self.name(r['declarer'])} played {r.get('name') or r.get('game')}",
            "and won" if r["won"] else "and lost",
        ]
        if r.get("value") is not None:
            words.append(f"{r['value']:+d}")
        if r.get("points") is not None:
            words.append(f"with {r['points']} card points")
        if r.get("decided_by"):
            words.append(f"(decided by {r['decided_by']})")
        return " ".join(words)

    # The run's summary ---------------------------------------------------------------

    def _in_order(self) -> list[dict[str, Any]]:
        return [self.events[i] for i in sorted(self.events)]

    def plays(self) -> list[dict[str, Any]]:
        """Every card played, in order, with corrections of earlier deals applied."""
        out: list[dict[str, Any]] = []
        at: dict[int, int] = {}
        for body in self._in_order():
            e = body["event"]
            if e.get("type") == "play":
                at[int(body["index"])] = len(out)
                out.append({"seat": e["seat"], "card": e["card"]})
            elif e.get("type") == "correct" and int(e.get("index", -1)) in at:
                k = at[int(e["index"])]
                if out[k]["card"] == e.get("old"):
                    out[k] = {"seat": out[k]["seat"], "card": e.get("new")}
        return out

    def verdicts(self) -> list[dict[str, Any]]:
        """The verdicts proved, each ``{"kind", "seat", "trick"}`` with its evidence."""
        out = []
        for body in self._in_order():
            for v in body.get("verdicts", []):
                out.append(
                    {
                        "kind": v.get("kind"),
                        "seat": v.get("seat"),
                        "trick": v.get("trick"),
                        "event": v.get("event"),
                        "cards": v.get("cards", []),
                        "detail": v.get("detail", ""),
                    }
                )
        return out
