"""The game options every service command shares: which game, its rules, the dealer,
a trick game's contract (``kiebitz run``, ``kiebitz referee``).

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_game_options(p)
>>> setup = setup_from_args(p.parse_args(["--game", "skat", "--declarer", "0",
...                                       "--contract", "grand", "--hand"]))
>>> setup.game, setup.options, setup.contract.game, setup.contract.hand
('skat', {'rules': 'isko'}, 'grand', True)
>>> setup_from_args(p.parse_args(["--game", "frog", "--players", "9"]))
Traceback (most recent call last):
...
controller.errors.UsageError: --players: players 9: Frog is for three to five
"""

from __future__ import annotations

import argparse
from typing import Any

from controller.errors import UsageError
from rules.cards import parse_card
from rules.errors import InvalidCardError, RulesError
from rules.reading import Contract, TableReading, TableSetup
from rules.reading.games import READERS, engine_for

__all__ = ["CONTRACTS", "add_game_options", "setup_from_args"]

CONTRACTS = (
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "grand",
    "null",  # Skat; a suit is Frog's Chico
    "frog",
    "stand",
    "give",  # Frog, All Fours
)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("the game")
    g.add_argument(
        "--game",
        choices=sorted(READERS),
        help="the game at the table (default: the table layout's, else cribbage)",
    )
    g.add_argument(
        "--variant",
        choices=("five-card", "six-card", "eight-card"),
        help="cribbage: the deal (default six-card)",
    )
    g.add_argument("--players", type=int, help="players at the table (the game's default)")
    g.add_argument("--game-to", type=int, help="cribbage 61 or 121; All Fours 7 or 10")
    g.add_argument(
        "--dealer", type=int, metavar="SEAT", help="the first dealer (cribbage: else cut for deal)"
    )
    g.add_argument(
        "--rules",
        choices=("isko", "foster1906"),
        help="Skat: the ISkO (default) or the 1906 laws",
    )
    c = parser.add_argument_group("a trick game's contract (or later by command)")
    c.add_argument("--declarer", type=int, metavar="SEAT", help="the single player")
    c.add_argument("--contract", choices=CONTRACTS, help="the game declared")
    c.add_argument("--hand", action="store_true", help="Skat: a hand game")
    c.add_argument("--ouvert", action="store_true", help="Skat: open")
    c.add_argument("--schneider", action="store_true", help="Skat: schneider announced")
    c.add_argument("--schwarz", action="store_true", help="Skat: schwarz announced")
    c.add_argument("--bid", type=int, metavar="N", help="Skat: the bid (default the lowest)")
    c.add_argument("--turned", metavar="CARD", help="Skat (1906): the skat card turned")


def setup_from_args(args: argparse.Namespace) -> TableSetup:
    """The match the options describe; a bad combination is a :class:`UsageError`."""
    game: str = args.game or "cribbage"
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    if game == "cribbage" and args.variant:
        options["variant"] = args.variant
    elif args.variant:
        raise UsageError("--variant is for cribbage")
    if args.game_to is not None:
        if game not in ("cribbage", "allfours"):
            raise UsageError("--game-to is for cribbage and All Fours")
        options["game_to"] = args.game_to
    if game == "skat":
        options["rules"] = args.rules or "isko"
    elif args.rules is not None:
        raise UsageError("--rules is for Skat")
    try:
        engine = engine_for(game, options)
    except RulesError as exc:
        which = next((f"--{k.replace('_', '-')}" for k in options if k in str(exc)), "--game")
        raise UsageError(f"{which}: {exc}") from exc
    players = engine.rules.players
    for name in ("dealer", "declarer"):
        seat = getattr(args, name)
        if seat is not None and not 0 <= seat < players:
            raise UsageError(f"--{name} {seat}: seats are 0 to {players - 1}")
    # the contract's details without a contract were dropped without a word
    details = [
        f"--{name}"
        for name in ("hand", "ouvert", "schneider", "schwarz", "bid", "turned")
        if getattr(args, name) not in (None, False)
    ]
    if details and args.contract is None:
        raise UsageError(f"{', '.join(details)}: only with --contract (and --declarer)")
    if args.bid is not None:
        if game != "skat":
            raise UsageError("--bid is for Skat")
        from rules.skat.values import bid_values

        allowed = bid_values(engine.rules)
        if args.bid not in allowed:
            # Law 33: "All bidding shall be by numbers representing the value of
            # some possible game"
            raise UsageError(
                f"--bid {args.bid}: not the value of any game (Law 33; the bids run "
                f"{allowed[0]}, {allowed[1]}, {allowed[2]} … {allowed[-1]})"
            )
    contract = None
    if args.contract is not None or args.declarer is not None:
        if game == "cribbage":
            raise UsageError("--declarer and --contract are for the trick games")
        if args.contract is None or (args.declarer is None and game != "allfours"):
            raise UsageError("give both --declarer and --contract")
        turned = None
        if args.turned:
            try:
                turned = parse_card(args.turned)
            except InvalidCardError as exc:
                raise UsageError(f"--turned: {exc}") from exc
        contract = Contract(
            args.declarer or 0,
            args.contract,
            hand=args.hand,
            ouvert=args.ouvert,
            schneider=args.schneider,
            schwarz=args.schwarz,
            bid=args.bid,
            turned=turned,
        )
    setup = TableSetup(game, options, dealer=args.dealer, contract=contract)
    try:
        TableReading(setup)
    except RulesError as exc:
        raise UsageError(f"--contract: {exc}") from exc
    return setup
