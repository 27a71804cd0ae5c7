"""`kiebitz demo`: a whole game of cribbage between two automatic players.

Until the camera and the peg board are connected, the demo is the main job on
embedded defaults: two simple automatic players (fixed seed) play a complete
game through the rules engine, and every deal is told the way players at the
table say it: the cut, the lay-out, the starter, the play with its pegs, the
show ("fifteen two, fifteen four and a pair is six"), the pegs after each deal,
and the end of the game with lurch or skunk and the games won. It finishes by
rebuilding the game from its JSON event log and checking it equals the live one.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable
from typing import TextIO

from rules.cards import Card
from rules.cribbage.autoplay import play_game
from rules.cribbage.events import Cut, Deal, Discard, Go, Play, Show, Starter
from rules.cribbage.game import CribbageGame, Outcome
from rules.cribbage.scoring import pip_value, score_show
from rules.cribbage.speech import number_words, say_item
from rules.cribbage.variants import CribbageRules

NAMES = ("Anna", "Ben", "Clara", "David")


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def event_dealer(game: CribbageGame) -> int:
    assert game.dealer is not None
    return game.dealer


def run(
    *, seed: int = 2026, game_to: int = 121, variant: str = "six-card", out: TextIO = sys.stdout
) -> int:
    """Play and print one game; return the exit status (0 when the game is sound)."""
    rules = CribbageRules(variant=variant, game_to=game_to)
    game = CribbageGame(rules)
    names = NAMES[: rules.players]

    def say(text: str = "", indent: int = 0) -> None:
        print("  " * indent + text, file=out)

    def pegs(outcome: Outcome) -> str:
        moves = []
        for p in outcome.pegged:
            what = ", ".join(say_item(i) for i in p.items)
            moves.append(f"{what}: {names[p.seat]} pegs {p.points} to {p.score}")
        return "; ".join(moves)

    say(f"Kiebitz demo: {variant} cribbage, two players, game to {game_to} (seed {seed})")
    deal_no = running = 0
    for event, outcome in play_game(game, random.Random(seed)):
        if isinstance(event, Cut):
            cuts = ", ".join(f"{names[s]} cuts {c}" for s, c in enumerate(event.cut))
            if game.phase == "deal" and game.dealer is not None:
                result = f"{names[game.dealer]} cuts lowest and deals."
            else:
                result = "A tie: they cut again."
            say(f"Cut for deal: {cuts}. {result}")
        elif isinstance(event, Deal):
            deal_no += 1
            assert event.dealer is not None
            say()
            say(f"Deal {deal_no}: {names[event.dealer]} deals.")
            if outcome.pegged:
                say(pegs(outcome) + ".", 1)
        elif isinstance(event, Discard):
            say(f"{names[event.seat]} lays out {_cards(event.crib_cards)} for the crib.", 1)
        elif isinstance(event, Starter):
            line = f"Starter: {event.card}."
            if outcome.pegged:
                line += f" {names[event_dealer(game)]} pegs two for his heels."
            say(line, 1)
            say("The play:", 1)
        elif isinstance(event, Play):
            running += pip_value(event.card)
            line = f"{names[event.seat]} {event.card} ({running})"
            say(line + (f": {pegs(outcome)}" if outcome.pegged else ""), 2)
            running = game.count
        elif isinstance(event, Go):
            line = f"{names[event.seat]}: go"
            say(line + (f"; {pegs(outcome)}" if outcome.pegged else ""), 2)
            running = game.count
        elif isinstance(event, Show):
            deal = game.state.deal
            assert deal is not None and deal.starter is not None
            counted = score_show(event.shown, deal.starter, crib=event.crib)
            whose = f"{names[event.seat]}'s crib" if event.crib else names[event.seat]
            if not event.crib and event.seat == (deal.dealer + 1) % rules.players:
                say("The show:", 1)
            total = f" ({counted.total})" if counted.total else ""
            peg_to = f"; {names[event.seat]} pegs to {game.scores[event.seat]}" if total else ""
            say(
                f"{whose}: {_cards(event.shown)} with {deal.starter}: "
                f"{counted.speech()}{total}{peg_to}.",
                2,
            )
        for verdict in outcome.verdicts:
            say(f"VERDICT {verdict.kind}: {verdict.detail}", 2)
        if game.phase in ("deal", "over") and isinstance(event, (Show, Play, Go, Starter)):
            board = ", ".join(
                f"{names[t]} {front} (back peg {back})"
                for t, (front, back) in enumerate(
                    zip(game.state.scores, game.state.back_pegs, strict=True)
                )
            )
            say(f"Pegs: {board}.", 1)

    st = game.state
    assert st.winner is not None
    loser = max(s for t, s in enumerate(st.scores) if t != st.winner)
    games = st.games_won[st.winner]
    say()
    say(
        f"{names[st.winner]} wins, {st.scores[st.winner]} to {loser}: "
        f"{'the game' if st.result == 'game' else f'a {st.result}'}, "
        f"{number_words(games)} game{'s' if games > 1 else ''} on the games-won pegs."
    )
    rebuilt = CribbageGame.from_json(json.loads(json.dumps(game.to_json())))
    same = rebuilt.state == game.state
    say(
        f"{len(game.events)} events; {len(game.verdicts)} verdicts; rebuilt from its JSON log: "
        f"{'identical' if same else 'DIFFERENT'}."
    )
    return 0 if same and not game.verdicts else 1
