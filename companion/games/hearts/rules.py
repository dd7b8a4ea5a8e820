"""Pure Hearts rules: the deck for n players, card points, who wins a trick, which cards a
player may play, passing directions, and the hand's scores (shooting the moon).

Which cards may be played is one ranking, ``priority(card, ctx)``: a card is legal when no card
in the hand ranks better. With a known hand (deal=read) the legal cards are the best-ranked
ones; with a hidden hand (deal=hidden) a card played shows that the player held no better-ranked
card then, and any such card played later reveals a revoke. One function serves both, so the
two modes cannot disagree about the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.cards import FULL_DECK, RANK_NAMES, RANKS, SUIT_NAMES, Card

QUEEN = "QS"
FIRST_CLUBS = tuple(f"{r}C" for r in ("2", "3", "4", "5", "6"))

# The rulebook's strip for other than four players (no widow).
STRIPPED: dict[int, tuple[str, ...]] = {
    3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "2C", "2S"),
}

_CARDS = {str(c): c for c in FULL_DECK}
# Order of strength in a suit: ace high.
_STRENGTH = {r: (14 if r == 1 else r) for r in range(1, 14)}


def card(text: str) -> Card:
    return _CARDS[text]


def is_card(text: str) -> bool:
    return text in _CARDS


def strength(c: str) -> int:
    return _STRENGTH[_CARDS[c].rank]


def suit(c: str) -> str:
    return c[-1]


def points(c: str) -> int:
    if c == QUEEN:
        return 13
    return 1 if suit(c) == "H" else 0


def is_point(c: str) -> bool:
    return points(c) > 0


def card_name(c: str) -> str:
    return _CARDS[c].name


def rank_word(c: str) -> str:
    return RANK_NAMES[RANKS[_CARDS[c].rank - 1]]


def suit_name(s: str) -> str:
    return SUIT_NAMES[s]


def deck(n: int, widow: bool) -> tuple[str, ...]:
    """The cards in play: the full pack with a widow, else the rulebook's strip."""
    gone = () if widow else STRIPPED[n]
    return tuple(str(c) for c in FULL_DECK if str(c) not in gone)


def widow_size(n: int, widow: bool) -> int:
    return 52 % n if widow else 0


def trick_winner(cards: list[tuple[int, str]]) -> tuple[int, str]:
    """(player, card) taking the trick: the highest card of the suit led."""
    led = suit(cards[0][1])
    return max((pc for pc in cards if suit(pc[1]) == led), key=lambda pc: strength(pc[1]))


@dataclass(frozen=True)
class Context:
    """What the rules need to know about the moment of a play."""

    led: str | None  # the suit led, None when leading
    first_trick: bool
    broken: bool  # hearts broken (option hearts_broken; always True when the option is off)
    opening: str | None  # the club that must open the hand (option two_clubs), when leading
    no_points_first: str  # option first_trick: "allowed", "no-discard", "none"
    queen_waits: bool  # option queen_waits and hearts not broken yet
    lowest_club: bool  # option lowest_club: on the first trick only the lowest club


@lru_cache(maxsize=65536)  # a handful of contexts a hand, 52 cards: called in every play
def priority(c: str, ctx: Context) -> tuple[int, ...]:
    """Smaller is better: a card is legal when the hand holds no card ranked better."""
    point_bar = ctx.first_trick and ctx.no_points_first != "allowed" and is_point(c)
    queen = ctx.queen_waits and c == QUEEN
    if ctx.led is None:
        return (
            int(ctx.opening is not None and c != ctx.opening),
            int(queen),
            int(point_bar and ctx.no_points_first == "none"),
            int(not ctx.broken and suit(c) == "H"),
        )
    off = suit(c) != ctx.led
    club_order = (strength(c) if ctx.first_trick and ctx.lowest_club and ctx.led == "C"
                  and not off else 0)
    return (int(off), int(queen), int(point_bar and off), club_order)


def legal_from(hand: list[str] | tuple[str, ...], ctx: Context) -> list[str]:
    """The cards of a known hand that may be played."""
    if not hand:
        return []
    ranks = {c: priority(c, ctx) for c in hand}
    best = min(ranks.values())
    return [c for c in hand if ranks[c] == best]


def better_than(c: str, candidates: list[str] | tuple[str, ...], ctx: Context) -> list[str]:
    """The candidates ranked better than ``c``: cards the player cannot have held."""
    mine = priority(c, ctx)
    return [x for x in candidates if x != c and priority(x, ctx) < mine]


def reason_for(c: str, better: str, ctx: Context) -> str:
    """Why ``c`` may not be played while ``better`` is held (for refusals and revokes)."""
    mine, other = priority(c, ctx), priority(better, ctx)
    if ctx.led is None:
        texts = (
            f"the hand opens with the {card_name(ctx.opening or '2C')}",
            "the queen of spades waits until hearts are broken",
            "no points may be led on the first trick",
            "hearts cannot be led until hearts are broken",
        )
    else:
        texts = (
            f"{suit_name(ctx.led)} were led and must be followed",
            "the queen of spades waits until hearts are broken",
            "no points may be played on the first trick",
            "only the lowest club may be played on the first trick",
        )
    for i, (a, b) in enumerate(zip(mine, other, strict=True)):
        if a != b:
            return texts[i]
    return "that card may not be played now"


# --------------------------------------------------------------------------- passing

PASS_CHOICES = ("none", "right", "left", "cycle-left", "cycle-right", "alternate-left",
                "alternate-right")


def pass_cycle(option: str, n: int) -> list[int]:
    """Seats to the left (clockwise) each hand passes to, in turn; 0 is a hold hand.

    The rulebook's cycle: left (or right), the opposite, then across, then hold; with six
    players left, right, two left, two right, across, hold. With an odd number of players
    there is no across (three: left, right, hold; five: left, right, two left, two right,
    hold).
    """
    if option == "none":
        return [0]
    if option == "right":
        return [n - 1]
    if option == "left":
        return [1]
    first = 1 if option.endswith("left") else n - 1
    if option.startswith("alternate"):
        return [first, n - first]
    out: list[int] = []
    for d in range(1, (n - 1) // 2 + 1):
        out += [d, n - d] if first == 1 else [n - d, d]
    if n % 2 == 0:
        out.append(n // 2)
    return [*out, 0]


def pass_words(shift: int, n: int) -> str:
    if shift == 0:
        return "hold: no passing this hand"
    if n % 2 == 0 and shift == n // 2:
        return "pass across"
    if shift <= n // 2:
        return "pass left" if shift == 1 else f"pass {shift} seats to the left"
    back = n - shift
    return "pass right" if back == 1 else f"pass {back} seats to the right"


def pass_count(n: int) -> int:
    return 2 if n >= 5 else 3


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class HandResult:
    taken: tuple[int, ...]  # points taken in tricks (and the widow) by each player
    added: tuple[int, ...]  # what is added to each score (after a moon)
    shooter: int | None


def moon_shooter(taken_cards: list[list[str]], needs_queen: bool) -> int | None:
    for p, cards in enumerate(taken_cards):
        hearts = sum(1 for c in cards if suit(c) == "H")
        if hearts == 13 and (QUEEN in cards or not needs_queen):
            return p
    return None


def hand_result(taken_cards: list[list[str]], moon: str, needs_queen: bool) -> HandResult:
    """``moon``: "none" (the moon is not special), "subtract" (26 off the shooter's score),
    "add" (26 on everybody else's). The queen of spades taken by someone else (only possible
    when the moon does not need her) still counts 13 for its taker."""
    taken = tuple(sum(points(c) for c in cards) for cards in taken_cards)
    shooter = moon_shooter(taken_cards, needs_queen) if moon != "none" else None
    queen = next((p for p, cards in enumerate(taken_cards) if QUEEN in cards), None)
    return score(taken, shooter, moon, queen)


def tally_shooter(taken: tuple[int, ...]) -> int | None:
    """From points alone (deal=tally): 26 points is every heart and the queen."""
    return next((p for p, t in enumerate(taken) if t == 26), None)


def score(taken: tuple[int, ...], shooter: int | None, moon: str,
          queen: int | None) -> HandResult:
    if shooter is None:
        return HandResult(taken, taken, None)
    added = []
    for p in range(len(taken)):
        if p == shooter:
            added.append(-26 if moon == "subtract" else 0)
        else:
            added.append((13 if p == queen else 0) + (26 if moon == "add" else 0))
    return HandResult(taken, tuple(added), shooter)


FULL_DECK_IDS = tuple(str(c) for c in FULL_DECK)

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """Spoken numbers for points (0 to 99 in words, larger as digits)."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    return str(n)
