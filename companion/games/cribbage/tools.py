"""CLI tools for ``companion count|advise|stats cribbage ...``; each ``main(argv) -> int``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from companion.cards import Card, CardError, parse_cards
from companion.games.cribbage.events import cards_named
from companion.games.cribbage.scoring import NOTHING, Count, cards_text, show


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so a bad argument is a clear message."""

    def error(self, message: str) -> Any:
        raise ValueError(message)


def _read_hand(words: Sequence[str], starter_text: str | None) -> tuple[list[Card], Card]:
    cards = parse_cards(" ".join(words))
    if starter_text is not None:
        cards.append(Card.parse(starter_text))
    if len(cards) != 5:
        raise ValueError(f"a hand is four cards and a starter, not {len(cards)} cards")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"{card} appears twice")
        seen.add(card)
    return cards[:4], cards[4]


def count_json(hand: Sequence[Card], starter: Card, crib: bool, count: Count) -> dict[str, Any]:
    return {
        "hand": [str(c) for c in hand],
        "starter": str(starter),
        "crib": crib,
        **count.to_json(),
    }


def sentence(hand: Sequence[Card], starter: Card, crib: bool, count: Count) -> str:
    """The count said aloud, as at the table: "Hand, five of hearts, ... with the five of
    clubs: fifteen two, ... and one for his nob is twenty-nine." """
    cards = cards_named([str(c) for c in hand])
    return (f"{'Crib' if crib else 'Hand'}, {cards}, with the {starter.name}:"
            f" {count.spoken(NOTHING)}.")


def _print_count(hand: Sequence[Card], starter: Card, crib: bool, count: Count) -> None:
    label = "crib" if crib else "hand"
    print(f"{label} {cards_text(hand)}  starter {starter}")
    for phrase, running in zip(count.phrases, count.running(), strict=True):
        for item in phrase.items:
            print(f"  {item.kind:<10} {cards_text(item.cards):<16} {item.points:>2}")
        print(f"    {phrase.words} ({phrase.points}) -> {running}")
    print(f"total {count.total}")
    print(count.spoken(NOTHING))


def count_main(argv: list[str], say: Callable[[str], None] | None = None) -> int:
    """``count cribbage 5H 5D 5S JC --starter 5C [--crib] [--json]``; no cards: stdin lines.

    Cards by code or by name ("five of hearts, five of diamonds ..."). ``say``: speak each
    count too (``companion count cribbage ... --voice auto``; the command line gives it)."""
    parser = _Parser(prog="companion count cribbage", description=count_main.__doc__)
    parser.add_argument("cards", nargs="*",
                        help="four cards (5H 10D TD JC AS, suits ♠♥♦♣, or 'five of hearts')")
    parser.add_argument("--starter", help="the starter card")
    parser.add_argument("--crib", action="store_true", help="score as the crib")
    parser.add_argument("--crib-four-flush", action="store_true",
                        help="also count a four-card flush in the crib (not the official rule)")
    parser.add_argument("--json", action="store_true", help="JSON output")
    try:
        args = parser.parse_args(argv)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.cards or args.starter:
        try:
            hand, starter = _read_hand(args.cards, args.starter)
        except (ValueError, CardError) as err:
            print(f"error: {err}", file=sys.stderr)
            if say is not None:
                say(f"{str(err)[:1].upper()}{str(err)[1:]}.")
            return 2
        count = show(hand, starter, crib=args.crib, crib_four_flush=args.crib_four_flush)
        if args.json:
            print(json.dumps(count_json(hand, starter, args.crib, count)))
        else:
            _print_count(hand, starter, args.crib, count)
        if say is not None:
            say(sentence(hand, starter, args.crib, count))
        return 0
    # One hand per line: four cards then the starter. Every input line gets one output line
    # (a blank line a blank line, a bad line its reason), so outputs stay aligned with inputs;
    # a bad line makes the exit status 1.
    status = 0
    for number, line in enumerate(sys.stdin, start=1):
        words = line.replace(",", " ").split()
        if not words:
            print(json.dumps({"line": number, "blank": True}) if args.json else "")
            continue
        try:
            hand, starter = _read_hand(words, None)
        except (ValueError, CardError) as err:
            status = 1
            if args.json:
                print(json.dumps({"line": number, "error": str(err)}))
            else:
                print(f"error: line {number}: {err}")
            if say is not None:
                say(f"Line {number}: {err}.")
            continue
        count = show(hand, starter, crib=args.crib, crib_four_flush=args.crib_four_flush)
        if args.json:
            print(json.dumps(count_json(hand, starter, args.crib, count)))
        else:
            print(count.total)
        if say is not None:
            say(sentence(hand, starter, args.crib, count))
    return status


def advise_main(argv: list[str]) -> int:
    """``advise cribbage 5H 5D JC QS 2C 9H [--dealer|--pone] [--json]``: every discard, best
    first, with the average hand over all starters and the expected crib."""
    from companion.games.cribbage.advise import advise

    parser = _Parser(prog="companion advise cribbage", description=advise_main.__doc__)
    parser.add_argument("cards", nargs="+", help="the six (2 players) or five cards dealt")
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help="the crib is yours: add it")
    role.add_argument("--pone", action="store_true", help="the crib is the dealer's: subtract")
    parser.add_argument("--json", action="store_true", help="JSON output")
    try:
        args = parser.parse_args(argv)
        cards = [Card.parse(c) for c in args.cards]
        who = "dealer" if args.dealer else "pone" if args.pone else None
        choices = advise(cards, who)
    except (ValueError, CardError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({
            "cards": [str(c) for c in cards],
            "role": who,
            "choices": [c.to_json(who) for c in choices],
        }))
        return 0
    net = {"dealer": "hand+crib", "pone": "hand-crib", None: "hand"}[who]
    print(f"{'discard':<10}{'keep':<16}{'hand':>7}{'crib':>7}{net:>11}")
    for c in choices:
        print(f"{cards_text(c.discard):<10}{cards_text(c.keep):<16}"
              f"{c.hand:>7.2f}{c.crib:>7.2f}{c.net(who):>11.2f}")
    print("(hand: average over every starter; crib: expected, other discards taken as random)")
    return 0


def stats_main(argv: list[str]) -> int:
    """``stats cribbage [--json]``: the score distribution of all 12,994,800 hand+starter
    combinations, as a hand and as a crib."""
    from companion.games.cribbage.stats import enumerate_all

    parser = _Parser(prog="companion stats cribbage", description=stats_main.__doc__)
    parser.add_argument("--json", action="store_true", help="JSON output")
    try:
        args = parser.parse_args(argv)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = enumerate_all()
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['combinations']:,} combinations in {result['seconds']:.3f} s")
    print(f"{'score':>5}{'hand':>12}{'crib':>12}")
    for score, n in result["hand"].items():
        print(f"{score:>5}{n:>12,}{result['crib'][score]:>12,}")
    print(f"mean hand {result['mean_hand']:.4f}, mean crib {result['mean_crib']:.4f}")
    return 0
