"""Hand values as rulebook 003 prints them ("SCORING"), itemised, and the lay-down test.

- A complete colour-group is worth its set value (Railroads: 2, 3 or 4 of them; Utilities:
  both). Each House card adds the set value again; a Hotel adds $500.
- Houses go on complete groups (not Railroads or Utilities) in sequence 1st, 2nd, 3rd, 4th;
  a Hotel needs all four. Cards that cannot be placed are worthless (and forbid a lay-down).
- Each Token is worth the total value of one colour-group (the best one: houses included, as
  in the rulebook's Yellow example, $1,200 a token).
- Each GO pays $200; the most Mr. Monopoly cards win $1,000 (a tie for most: nobody).
- Anybody but the first to lay down who holds a Chance card scores zero.

Houses are placed greedily on the groups with the highest set value: every house level is a
prefix of the groups, so this maximises both the houses' sum and the best group a Token pays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from companion.games.monopoly_cards.deck import (
    CHANCE,
    GO,
    HOTEL,
    HOUSE,
    MR_MONOPOLY,
    PROPERTY,
    TOKEN,
    Deck,
    load_deck,
)

LEVELS = ("H1", "H2", "H3", "H4", "HOTEL")


@dataclass(frozen=True)
class GroupScore:
    group: str  # group id
    held: int  # property cards (Chance cards standing in included)
    houses: int
    hotel: bool
    set_value: int
    value: int  # set value x (1 + houses) + hotel


@dataclass(frozen=True)
class HandValue:
    """The worth of one hand (Mr. Monopoly's $1,000 is decided across hands, see
    ``score_hands``)."""

    groups: tuple[GroupScore, ...]
    tokens: int
    token_value: int  # each
    go: int
    go_value: int  # each
    mr_monopoly: int
    unused: tuple[str, ...]  # cards worth nothing in this hand

    @property
    def total(self) -> int:
        return (sum(g.value for g in self.groups) + self.tokens * self.token_value
                + self.go * self.go_value)


def _hand_value(cards: Counter[str], deck: Deck) -> HandValue:
    """The value of concrete cards (Chance cards already replaced by what they represent;
    any left over are simply counted as unused)."""
    info = deck.info
    held: Counter[str] = Counter()
    for card, n in cards.items():
        if info[card].kind == PROPERTY:
            held[info[card].group] += n
    complete = [deck.group(g) for g, n in held.items() if n >= deck.group(g).minimum]
    unused: list[str] = [c for c, n in cards.items() for _ in range(n)
                         if info[c].kind == PROPERTY and info[c].group not in
                         {g.id for g in complete}]
    buildable = sorted((g for g in complete if g.buildable),
                       key=lambda g: (-g.value(held[g.id]), g.id))
    placed = []
    room = len(buildable)
    for level in LEVELS:
        have = cards.get(level, 0)
        take = min(have, room)
        unused.extend([level] * (have - take))
        placed.append(take)
        room = take
    scores = []
    for g in complete:
        rank = buildable.index(g) if g in buildable else -1
        houses = sum(1 for n in placed[:4] if rank >= 0 and n > rank)
        hotel = rank >= 0 and placed[4] > rank
        sv = g.value(held[g.id])
        scores.append(GroupScore(g.id, held[g.id], houses, hotel, sv,
                                 sv * (1 + houses) + (deck.hotel_value if hotel else 0)))
    scores.sort(key=lambda s: (-s.value, s.group))
    best = scores[0].value if scores else 0
    tokens = cards.get("TOKEN", 0)
    if not scores:
        unused.extend(["TOKEN"] * tokens)
    unused.extend(["CHANCE"] * cards.get("CHANCE", 0))
    return HandValue(tuple(scores), tokens, best, cards.get("GO", 0), deck.go_value,
                     cards.get("MR-MONOPOLY", 0), tuple(sorted(unused)))


def hand_value(cards: Iterable[str], deck: Deck | None = None) -> HandValue:
    return _cached_value(tuple(sorted(cards)), deck or load_deck())


@lru_cache(maxsize=65536)
def _cached_value(cards: tuple[str, ...], deck: Deck) -> HandValue:
    return _hand_value(Counter(cards), deck)


def laydown_problem(cards: Iterable[str], deck: Deck | None = None) -> str | None:
    """Why concrete ``cards`` (Chance cards already standing for something) may not be laid
    down, or None when they may: at least one complete group, every group held complete,
    every House and Hotel in sequence on a complete group."""
    deck = deck or load_deck()
    counts = Counter(cards)
    info = deck.info
    held: Counter[str] = Counter()
    for card, n in counts.items():
        if info[card].kind == PROPERTY:
            held[info[card].group] += n
    for gid in sorted(held, key=lambda g: [x.id for x in deck.groups].index(g)):
        group = deck.group(gid)
        if held[gid] < group.minimum:
            have = [info[c].name for c in sorted(counts) if info[c].kind == PROPERTY
                    and info[c].group == gid]
            need = ("at least two Railroads" if gid == "railroads" else
                    f"all {group.size} {group.name} cards")
            return f"the {group.name} group is incomplete: {', '.join(have)} alone; you need {need}"
    if not held:
        return "there is no complete colour-group"
    room = sum(1 for g in held if deck.group(g).buildable)
    prev_name = "a complete colour-group that takes houses"
    for level in LEVELS:
        count = counts.get(level, 0)
        if count > room:
            return f"the {info[level].name} has no place: it needs {prev_name}"
        room = count
        prev_name = f"the {info[level].name}"
    return None


# --------------------------------------------------------------------------- Chance cards


def chance_targets(real: Counter[str], deck: Deck) -> tuple[str, ...]:
    """What a Chance card may stand for: a missing property of a group the hand has begun, a
    House or Hotel card, or a Token."""
    info = deck.info
    begun = {info[c].group for c in real if info[c].kind == PROPERTY}
    missing = [c.id for c in deck.cards if c.kind == PROPERTY and c.group in begun
               and real.get(c.id, 0) == 0]
    return (*missing, *LEVELS, "TOKEN")


def _assignments(real: Counter[str], chances: int, deck: Deck) -> Iterable[tuple[str, ...]]:
    if chances == 0:
        yield ()
        return
    info = deck.info
    for combo in combinations_with_replacement(chance_targets(real, deck), chances):
        props = [c for c in combo if info[c].kind == PROPERTY]
        if len(props) == len(set(props)):  # one Chance per missing property
            yield combo


def _missing(real: Counter[str], deck: Deck) -> int:
    """Property cards missing from the incomplete groups the hand has begun."""
    held: Counter[str] = Counter()
    for card, k in real.items():
        c = deck.info[card]
        if c.kind == PROPERTY:
            held[c.group] += k
    return sum(max(0, deck.group(g).minimum - k) for g, k in held.items())


@dataclass(frozen=True)
class LayDownPlan:
    """How a hand is laid down: what each Chance card stands for, and the hand's value."""

    chances: tuple[str, ...]
    value: HandValue


def plan_laydown(cards: Sequence[str], chances: Sequence[str] = (),
                 deck: Deck | None = None) -> LayDownPlan | str:
    """The best way to lay ``cards`` down (or the given Chance ``chances``), or the reason the
    hand is not complete."""
    return _plan(tuple(sorted(cards)), tuple(chances), deck or load_deck())


@lru_cache(maxsize=65536)
def _plan(cards: tuple[str, ...], declared: tuple[str, ...], deck: Deck) -> LayDownPlan | str:
    real = Counter(c for c in cards if c != "CHANCE")
    n = len(cards) - sum(real.values())
    if declared:
        if len(declared) != n:
            return f"say what each of your {n} Chance cards stands for" if n else \
                "you hold no Chance card"
        targets = chance_targets(real, deck)
        for t in declared:
            if t not in targets:
                return f"a Chance card cannot stand for {deck.name(t)} in this hand"
        options: Iterable[tuple[str, ...]] = [tuple(sorted(declared))]
    elif _missing(real, deck) > n:  # more missing properties than Chance cards: fail fast
        options = []
    else:
        options = _assignments(real, n, deck)
    best: LayDownPlan | None = None
    for combo in options:
        concrete = real + Counter(combo)
        if laydown_problem(concrete.elements(), deck) is None:
            value = _hand_value(concrete, deck)
            if best is None or value.total > best.value.total:
                best = LayDownPlan(combo, value)
    if best is not None:
        return best
    reason = laydown_problem((real + Counter({"TOKEN": n})).elements(), deck)
    return (reason or "the hand is not complete") + (
        "; no Chance card can fix that" if n else "")


def reward_value(hand: Sequence[str], plan: LayDownPlan, reward: Sequence[str],
                 deck: Deck | None = None) -> HandValue:
    """The first player's final value after the Reward: every usable reward card is added
    (unusable ones leave play; adding a card never lowers the value). A reward card that a
    Chance card stands for replaces it and frees that Chance for anything; a Chance card in
    the reward is free too."""
    deck = deck or load_deck()
    real = Counter(c for c in hand if c != "CHANCE")
    fixed = list(plan.chances)
    free = 0
    for card in reward:
        if card == "CHANCE":
            free += 1
        elif card in fixed:
            fixed.remove(card)
            free += 1
    base = real + Counter(c for c in reward if c != "CHANCE") + Counter(fixed)
    best = _hand_value(base, deck)
    if free:
        for combo in _assignments(base, free, deck):
            value = _hand_value(base + Counter(combo), deck)
            if value.total > best.total:
                best = value
    return best


# --------------------------------------------------------------------------- a whole hand


@dataclass(frozen=True)
class PlayerScore:
    player: int
    value: HandValue
    chance_zero: bool  # held a Chance without being first to lay down: scores zero
    mr_monopoly_bonus: int

    @property
    def total(self) -> int:
        if self.chance_zero:
            return 0
        return self.value.total + self.mr_monopoly_bonus


def score_hands(values: Sequence[HandValue], chance_held: Sequence[bool],
                ignore_chance_mr_monopoly: bool = False,
                deck: Deck | None = None) -> list[PlayerScore]:
    """Every player's winnings for the hand. ``chance_held[p]``: p holds a Chance card and
    was not first to lay down. Mr. Monopoly: the single player with the most wins the bonus;
    a tie for most wins nothing; a Chance holder's cards count in the comparison unless
    ``ignore_chance_mr_monopoly``."""
    deck = deck or load_deck()
    counts = [0 if (ignore_chance_mr_monopoly and z) else v.mr_monopoly
              for v, z in zip(values, chance_held, strict=True)]
    top = max(counts, default=0)
    leaders = [p for p, c in enumerate(counts) if c == top and top > 0]
    out = []
    for p, (v, z) in enumerate(zip(values, chance_held, strict=True)):
        bonus = deck.mr_monopoly_value if leaders == [p] else 0
        out.append(PlayerScore(p, v, z, bonus))
    return out


def money(n: int) -> str:
    return f"${n:,}"


def describe_value(value: HandValue, deck: Deck | None = None) -> str:
    """"Yellow with 3 houses $1,200; 2 tokens $2,400; GO $200" (items only)."""
    deck = deck or load_deck()
    parts = []
    for g in value.groups:
        extra = ""
        if g.houses:
            extra = f" with {g.houses} house{'s' if g.houses > 1 else ''}"
        if g.hotel:
            extra += " and a hotel"
        what = (f"{g.held} Railroads" if g.group == "railroads" else deck.group(g.group).name)
        parts.append(f"{what}{extra} {money(g.value)}")
    if value.tokens and value.token_value:
        n = value.tokens
        parts.append(f"{n} token{'s' if n > 1 else ''} {money(n * value.token_value)}")
    if value.go:
        parts.append(f"{value.go} GO {money(value.go * value.go_value)}")
    return "; ".join(parts) if parts else "nothing"


KINDS_IN_ORDER = (PROPERTY, HOUSE, HOTEL, TOKEN, CHANCE, GO, MR_MONOPOLY)
