"""The auction, validated in order (seed 000 Laws 33-37; the ISkO alike).

Positions are 0 Vorhand, 1 Mittelhand, 2 Hinterhand. "Mittelhand must bid to
Vorhand, and Vorhand must either undertake as good a game as that offered him, or
pass. If Vorhand passes, Hinterhand bids to Mittelhand ... If Mittelhand passes,
when bidding to Vorhand, Hinterhand must bid to Vorhand: but Hinterhand is not
allowed to say anything until either Mittelhand or Vorhand has passed" (Law 34).
"Any figure once named cannot be recalled. A player having once passed, cannot
come into the bidding again" (Law 35). If Mittelhand and Hinterhand both pass
without a bid, Vorhand may still bid (ISkO) or "undertake to play any game" (Law
37) — a ``hold`` with no figure named; else all have passed.

What is wrong is returned as a reason (the game turns it into a verdict) and the
wrong call is left out of the auction, so the auction goes on as the laws run it.

>>> from rules.skat.rulesets import SkatRules
>>> b = Bidding(SkatRules())
>>> [b.call(pos, what) for pos, what in [(1, 18), (0, "hold"), (1, 20), (0, "pass")]]
[None, None, None, None]
>>> b.call(1, 22)                      # Mittelhand's turn is over: Hinterhand bids to him
('bid-out-of-turn', 'position 2 is to bid (Law 34)')
>>> b.call(2, "pass"), b.done, b.declarer, b.value
(None, True, 1, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.skat.rulesets import SkatRules
from rules.skat.values import bid_values

__all__ = ["POSITION_NAMES", "Bidding"]

POSITION_NAMES = ("Vorhand", "Mittelhand", "Hinterhand")

#: A reason a call is wrong: (verdict kind, sentence).
Wrong = tuple[str, str]


@dataclass(slots=True)
class Bidding:
    """The state of the auction; :meth:`call` takes each call in order."""

    rules: SkatRules
    value: int = 0
    #: The position holding the highest figure named or held.
    high: int | None = None
    passed: list[bool] = field(default_factory=lambda: [False, False, False])
    debarred: list[bool] = field(default_factory=lambda: [False, False, False])
    bidder: int = 1
    listener: int = 0
    awaiting: str = "bid"  # "bid" from the bidder, "answer" from the listener
    stage: int = 1
    done: bool = False
    declarer: int | None = None
    calls: list[tuple[int, Any]] = field(default_factory=list)
    #: The figures allowed (:func:`~rules.skat.values.bid_values`), given by the game.
    allowed: frozenset[int] = frozenset()

    def clone(self) -> Bidding:
        return Bidding(
            self.rules,
            self.value,
            self.high,
            list(self.passed),
            list(self.debarred),
            self.bidder,
            self.listener,
            self.awaiting,
            self.stage,
            self.done,
            self.declarer,
            list(self.calls),
            self.allowed,
        )

    @property
    def to_call(self) -> int | None:
        """The position whose call it is."""
        if self.done:
            return None
        return self.bidder if self.awaiting == "bid" else self.listener

    def debar(self, position: int) -> None:
        """Law 24/27: a player who saw or took up the skat is "debarred from bidding
        that deal": he counts as having passed."""
        self.debarred[position] = True
        if self.done or self.passed[position]:
            return
        if position in (self.bidder, self.listener):
            self.calls.append((position, "pass"))
            self._pass(position)
        else:
            self.passed[position] = True

    def call(self, position: int, what: int | str) -> Wrong | None:
        """One call: a figure (``int``), ``"hold"`` or ``"pass"``. Returns what is
        wrong with it, or ``None``; a wrong call changes nothing."""
        if self.done:
            return ("out-of-phase", "the bidding is over")
        if self.passed[position]:
            why = "was debarred (Laws 24, 27)" if self.debarred[position] else "has passed"
            return ("bid-after-pass", f"{POSITION_NAMES[position]} {why} (Law 35)")
        expected = self.to_call
        if position != expected:
            return ("bid-out-of-turn", f"position {expected} is to {self._verb()} (Law 34)")
        if what == "pass":
            self.calls.append((position, "pass"))
            self._pass(position)
            return None
        if self.awaiting == "answer":
            if what != "hold":
                return ("bid-out-of-turn", f"{POSITION_NAMES[position]} answers: hold or pass")
            self.calls.append((position, "hold"))
            self.high = position
            self.awaiting = "bid"
            return None
        if what == "hold":
            if self.stage == 3:
                # Law 37: Vorhand "will ... undertake to play any game" without a bid.
                self.calls.append((position, "hold"))
                self._finish(position)
                return None
            return ("bid-out-of-turn", f"{POSITION_NAMES[position]} is to bid a figure or pass")
        assert isinstance(what, int)
        if what <= self.value:
            return ("bid-too-low", f"{what} is not above {self.value} (Law 35)")
        self.calls.append((position, what))
        self.value = what
        self.high = position
        wrong: Wrong | None = None
        if what not in (self.allowed or bid_values(self.rules)):
            wrong = (
                "invalid-bid",
                f"{what} is not the value of any game "
                f"(Law 33; the lowest bid is {self.rules.lowest_bid})",
            )
        if self.stage == 3:
            self._finish(position)
        else:
            self.awaiting = "answer"
        return wrong

    def _verb(self) -> str:
        return "bid" if self.awaiting == "bid" else "answer"

    def _pass(self, position: int) -> None:
        self.passed[position] = True
        if self.stage == 1:
            survivor = self.listener if position == self.bidder else self.bidder
            self.stage = 2
            self.bidder, self.listener = 2, survivor
            self.awaiting = "bid"
            if self.passed[2]:
                self._pass(2)
            return
        if self.stage == 2:
            survivor = self.listener if position == self.bidder else self.bidder
            if self.value > 0:
                self._finish(survivor)
            elif survivor == 0 and not self.passed[0]:
                self.stage = 3  # nobody bid: Vorhand may still play (ISkO) or undertake (Law 37)
                self.bidder = self.listener = 0
                self.awaiting = "bid"
            else:
                self._finish(None)
            return
        self._finish(None)

    def _finish(self, declarer: int | None) -> None:
        self.done = True
        self.declarer = declarer
        self.awaiting = "done"
