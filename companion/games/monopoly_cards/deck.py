"""The Monopoly The Card Game deck, loaded from config/decks/monopoly-card-game.json.

The deck is data: every card id with its count, the colour-groups with their set values.
Card ids are upper-case words ("BOARDWALK", "H3", "HOTEL", "TOKEN", "CHANCE", "GO",
"MR-MONOPOLY"); ``card_id`` accepts looser spellings ("boardwalk", "3rd house", "mr monopoly").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from companion.config import setting_up
from companion.datafile import Fields, kind_of, load_fields
from companion.engine import IllegalAction

DECK_FILE = "decks/monopoly-card-game.json"

PROPERTY, HOUSE, HOTEL, TOKEN, CHANCE, GO, MR_MONOPOLY = (
    "property", "house", "hotel", "token", "chance", "go", "mr-monopoly",
)
BONUS_KINDS = (TOKEN, CHANCE, GO, MR_MONOPOLY)


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    size: int  # cards in the whole group
    minimum: int  # cards needed for a complete group (2 for the Railroads)
    values: tuple[tuple[int, int], ...]  # (cards held, set value)
    buildable: bool  # houses and hotels may be added (not Railroads, Utilities)

    def value(self, held: int) -> int:
        return dict(self.values).get(held, 0)


@dataclass(frozen=True)
class CardInfo:
    id: str
    name: str
    kind: str
    count: int
    group: str = ""
    level: int = 0  # house cards: 1st..4th


@dataclass(frozen=True, eq=False)  # hashed by identity: one loaded deck, used as a cache key
class Deck:
    cards: tuple[CardInfo, ...]
    groups: tuple[Group, ...]
    hotel_value: int
    go_value: int
    mr_monopoly_value: int
    info: dict[str, CardInfo] = field(init=False, repr=False)
    _groups: dict[str, Group] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "info", {c.id: c for c in self.cards})
        object.__setattr__(self, "_groups", {g.id: g for g in self.groups})

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self  # immutable

    def group(self, gid: str) -> Group:
        return self._groups[gid]

    def full(self) -> Counter[str]:
        return Counter({c.id: c.count for c in self.cards})

    def ids(self) -> tuple[str, ...]:
        """Every card of the deck, one entry per physical card."""
        return tuple(c.id for c in self.cards for _ in range(c.count))

    def properties_of(self, gid: str) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards if c.kind == PROPERTY and c.group == gid)

    def name(self, card: str) -> str:
        return self.info[card].name

    def card_id(self, text: str) -> str:
        """The deck's id for ``text`` ("boardwalk", "Park Place", "h3", "3rd", "mr monopoly"),
        or IllegalAction naming the unknown card."""
        key = _squash(text)
        found = _aliases(self).get(key)
        if found is None:
            raise IllegalAction(f"{text.strip()} is not a card of this deck")
        return found


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@lru_cache(maxsize=8)
def _aliases(deck: Deck) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in deck.cards:
        out[_squash(c.id)] = c.id
        out[_squash(c.name)] = c.id
        words = c.name.split()
        if c.kind == PROPERTY and len(words) > 1 and words[-1] in ("Avenue", "Place", "Gardens"):
            out.setdefault(_squash(" ".join(words[:-1])), c.id)
        if c.kind == HOUSE:
            out[_squash(words[0])] = c.id  # "3rd"
            out[f"house{c.level}"] = c.id
    out.update({"mrm": "MR-MONOPOLY", "mr": "MR-MONOPOLY", "monopoly": "MR-MONOPOLY",
                "bo": "B-AND-O", "pennsylvaniarailroad": "PENNSYLVANIA-RR",
                "pennsylvania": "PENNSYLVANIA-AVE", "water": "WATER", "electric": "ELECTRIC",
                "shortline": "SHORT-LINE", "chance": "CHANCE", "go": "GO"})
    return {k: v for k, v in out.items() if v in deck.info}


def load_deck(path: str = DECK_FILE) -> Deck:
    """The deck file, read every time while a game is set up (so that the session records
    it), cached elsewhere (scoring asks for it often)."""
    return _read_deck(path) if setting_up() else _cached_deck(path)


@lru_cache(maxsize=1)
def _cached_deck(path: str) -> Deck:
    return _read_deck(path)


def _read_deck(path: str) -> Deck:
    f = load_fields(path, "a deck")
    groups = []
    for g in f.each("groups"):
        size = g.integer("size", low=1)
        set_values = g.obj("values")
        table = []
        for held, value in set_values.data.items():
            if not held.isdigit():
                raise set_values.fail(held, "is not a number of cards held")
            table.append((int(held), set_values.check_int(held, value)))
        groups.append(Group(g.text("id"), g.text("name"), size,
                            g.integer("min", size, low=1, high=size), tuple(sorted(table)),
                            _flag(g, "buildable")))
    kinds = (PROPERTY, HOUSE, HOTEL, *BONUS_KINDS)
    cards = []
    values: dict[str, int] = {}
    for spec in f.each("cards"):
        kind = spec.text("kind")
        if kind not in kinds:
            raise spec.fail("kind", f"must be one of {', '.join(kinds)}, not \"{kind}\"")
        card = CardInfo(spec.text("id"), spec.text("name"), kind, spec.integer("count", low=1),
                        spec.text("group") if spec.has("group") else "",
                        spec.integer("level", 0, high=4))
        cards.append(card)
        values[card.id] = spec.integer("value", 0)
    deck = Deck(tuple(cards), tuple(groups), f.integer("hotel_value", 500),
                values.get("GO", 200), values.get("MR-MONOPOLY", 1000))
    total = sum(c.count for c in cards)
    if total != f.integer("total", total):
        raise f.fail("total", f"is {f.get('total')}, but the cards' counts add up to {total}")
    for card, spec in zip(cards, f.each("cards"), strict=True):
        if card.kind == PROPERTY and card.group not in {g.id for g in groups}:
            raise spec.fail("group", f"must name one of the groups, not \"{card.group}\"")
    return deck


def _flag(f: Fields, key: str) -> bool:
    value = f.get(key, True)
    if not isinstance(value, bool):
        raise f.fail(key, f"must be true or false, not {kind_of(value)}")
    return value
