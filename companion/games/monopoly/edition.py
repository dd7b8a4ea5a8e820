"""A Monopoly edition as data: board, title deeds, decks, building supply, words.

Editions live in ``config/editions/monopoly-<name>.json`` (a user's copy takes precedence, or a
path may be given), so a city edition is a new file, not new code. Loading precomputes the flat
tables the engine reads on every throw (kinds, prices, rents, groups, nearest railroad/utility).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.config import find_config, load_json, setting_up
from companion.datafile import DataError, Fields, kind_of

# Space kinds, as small ints for the hot path.
GO, LOT, RAILROAD, UTILITY, CHANCE_SPACE, CHEST_SPACE, TAX, JAIL, FREE, GOTOJAIL = range(10)
KINDS = {
    "go": GO, "lot": LOT, "railroad": RAILROAD, "utility": UTILITY, "chance": CHANCE_SPACE,
    "chest": CHEST_SPACE, "tax": TAX, "jail": JAIL, "free": FREE, "gotojail": GOTOJAIL,
}
KIND_NAMES = {v: k for k, v in KINDS.items()}
PROPERTY_KINDS = (LOT, RAILROAD, UTILITY)
DECKS = ("chance", "chest")

# Card operations (see Card.op)
ADVANCE, NEAREST, BACK, TO_JAIL, COLLECT, PAY, PAY_EACH, COLLECT_EACH, REPAIRS, GOOJF = range(10)


@dataclass(frozen=True)
class Card:
    deck: str
    id: str
    text: str
    op: int
    arg: int = 0  # target space, steps, amount, nearest kind
    arg2: int = 0  # rent multiplier / dice multiplier / hotel repair cost

    @property
    def key(self) -> str:
        """Deck-qualified id ("chance:get-out-of-jail-free"), used for held cards."""
        return f"{self.deck}:{self.id}"


class Edition:
    """Precomputed, read-only tables of one edition. ``data`` is checked as it is read: a
    fault is a DataError naming the file and the field (``file``: how to name it)."""

    def __init__(self, data: dict[str, Any], file: str = "the edition") -> None:
        if not isinstance(data, dict):
            raise DataError(f"{file}: an edition file holds one JSON object ({{...}}), not "
                            f"{kind_of(data)}.")
        self.data = data
        f = Fields(data, file)
        self.name: str = f.text("name")
        self.title: str = f.text("title", self.name)
        # how many may play: the box's "For 2 to 6 Players"
        low, high = f.integers("players", [2, 8], length=2, low=1)
        self.players: tuple[int, int] = (low, high)
        self.currency: str = f.text("currency", "dollars")
        self.salary: int = f.integer("salary", 200)
        self.start_cash: int = f.integer("start_cash", 1500, low=1)
        self.jail_fine: int = f.integer("jail_fine", 50)
        self.houses: int = f.integer("houses", 32)
        self.hotels: int = f.integer("hotels", 12)
        self.railroad_rent: tuple[int, ...] = f.integers("railroad_rent", [25, 50, 100, 200],
                                                         length=4)
        self.utility_mult: tuple[int, ...] = f.integers("utility_multipliers", [4, 10],
                                                        length=2)
        self.words: dict[str, str] = {
            "house": "house", "houses": "houses", "hotel": "hotel", "hotels": "hotels",
            "railroad": "railroad", "railroads": "railroads", "utility": "utility",
            "utilities": "utilities", **f.text_map("words", {}),
        }
        self.tokens: tuple[str, ...] = f.texts("tokens", [])
        groups = dict(f.obj("groups", {}).members())
        spaces = list(f.each("spaces"))
        if len(spaces) != 40:
            raise f.fail("spaces", f"must list the board's 40 spaces, not {len(spaces)}")
        n = len(spaces)
        self.size = n
        self.names: tuple[str, ...] = tuple(s.text("name") for s in spaces)
        kinds = []
        for sp in spaces:
            word = sp.text("kind")
            if word not in KINDS:
                raise sp.fail("kind", f"must be one of {', '.join(KINDS)}, not \"{word}\"")
            kinds.append(KINDS[word])
        self.kind: tuple[int, ...] = tuple(kinds)
        for kind in (GO, JAIL):
            if kind not in self.kind:
                raise f.fail("spaces", f"must include a space of kind {KIND_NAMES[kind]}")
        self.price = tuple(sp.integer("price", 0) for sp in spaces)
        self.mortgage = tuple(sp.integer("mortgage", price // 2)
                              for sp, price in zip(spaces, self.price, strict=True))
        self.rent: tuple[tuple[int, ...], ...] = tuple(sp.integers("rent", []) for sp in spaces)
        self.tax_amount = tuple(sp.integer("amount", 0) for sp in spaces)
        self.tax_percent = tuple(sp.integer("percent", 0, high=100) for sp in spaces)
        self.group_keys: tuple[str, ...] = tuple(groups)
        self.group_names: tuple[str, ...] = tuple(g.text("name", k) for k, g in groups.items())
        gindex = {k: i for i, k in enumerate(groups)}
        for sp, kind in zip(spaces, self.kind, strict=True):
            if kind == LOT and sp.text("group") not in gindex:
                raise sp.fail("group", f"must name one of the groups ({', '.join(groups)}), "
                                       f"not \"{sp.get('group')}\"")
        self.group = tuple(gindex[sp.get("group")] if k == LOT else -1
                           for sp, k in zip(spaces, self.kind, strict=True))
        self.house_cost = tuple(groups[sp.get("group")].integer("house_cost") if k == LOT
                                else 0 for sp, k in zip(spaces, self.kind, strict=True))
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i in range(n) if self.group[i] == g) for g in range(len(groups))
        )
        for i in range(n):
            if self.kind[i] == LOT and len(self.rent[i]) != 6:
                raise spaces[i].fail("rent", "of a lot must list 6 rents (no house, 1 to 4 "
                                             f"houses, a hotel), not {len(self.rent[i])}")
        self.properties = tuple(i for i in range(n) if self.kind[i] in PROPERTY_KINDS)
        self.is_property = tuple(k in PROPERTY_KINDS for k in self.kind)
        self.railroads = tuple(i for i in range(n) if self.kind[i] == RAILROAD)
        self.utilities = tuple(i for i in range(n) if self.kind[i] == UTILITY)
        # the same-kind set a railroad/utility counts for rent
        self.kin: tuple[tuple[int, ...], ...] = tuple(
            self.railroads if k == RAILROAD else self.utilities if k == UTILITY
            else self.members[self.group[i]] if k == LOT else ()
            for i, k in enumerate(self.kind)
        )
        self.jail = self.kind.index(JAIL)
        self.go = self.kind.index(GO)
        self.nearest = {
            RAILROAD: tuple(self._next_of(i, self.railroads) for i in range(n)),
            UTILITY: tuple(self._next_of(i, self.utilities) for i in range(n)),
        }
        self.decks: dict[str, tuple[Card, ...]] = {}
        self.deck_names: dict[str, str] = {}
        decks = f.obj("decks")
        for deck in DECKS:
            spec = decks.obj(deck)
            self.deck_names[deck] = spec.text("name", deck)
            cards = tuple(self._card(deck, c) for c in spec.each("cards"))
            if not cards:
                raise spec.fail("cards", "must list at least one card")
            if len({c.id for c in cards}) != len(cards):
                raise spec.fail("cards", "must each have a different id")
            self.decks[deck] = cards
        self.cards: dict[str, Card] = {c.key: c for d in self.decks.values() for c in d}
        self.card_by_id = {deck: {c.id: c for c in cards} for deck, cards in self.decks.items()}

    def _next_of(self, i: int, targets: tuple[int, ...]) -> int:
        for step in range(1, self.size + 1):
            j = (i + step) % self.size
            if j in targets:
                return j
        return -1

    def _card(self, deck: str, spec: Fields) -> Card:
        e = spec.obj("effect")
        cid = spec.text("id")
        text = spec.text("text", cid)
        if e.has("advance"):
            try:
                return Card(deck, cid, text, ADVANCE, self.space(str(e.get("advance"))))
            except ValueError as err:
                raise e.fail("advance", f"must name a space of the board: {err}") from None
        if e.has("nearest"):
            word = e.text("nearest")
            if word not in ("railroad", "utility"):
                raise e.fail("nearest", f'must be railroad or utility, not "{word}"')
            mult = e.integer("rent_multiplier", e.get("dice_multiplier", 1))
            return Card(deck, cid, text, NEAREST, KINDS[word], mult)
        simple = {"back": BACK, "collect": COLLECT, "pay": PAY, "pay_each": PAY_EACH,
                  "collect_each": COLLECT_EACH}
        for key, op in simple.items():
            if e.has(key):
                low, high = (1, self.size - 1) if key == "back" else (0, None)
                return Card(deck, cid, text, op, e.integer(key, low=low, high=high))
        if e.has("jail"):
            return Card(deck, cid, text, TO_JAIL)
        if e.has("repairs"):
            house, hotel = e.integers("repairs", length=2)
            return Card(deck, cid, text, REPAIRS, house, hotel)
        if e.has("goojf"):
            return Card(deck, cid, text, GOOJF)
        raise spec.fail("effect", "must be one of advance, nearest, back, collect, pay, "
                                  "pay_each, collect_each, jail, repairs, goojf")

    # --- names ------------------------------------------------------------------

    def space(self, text: str) -> int:
        """The space a person names: exact, then loose ("boardwalk", "st charles", "b&o")."""
        wanted = _loose(text)
        if not wanted:
            raise ValueError("which space?")
        if wanted.isdigit() and int(wanted) < self.size:
            return int(wanted)
        loose = [_loose(n) for n in self.names]
        hits = [i for i, n in enumerate(loose) if n == wanted]
        if not hits:
            short = [_loose(n, drop_suffix=True) for n in self.names]
            hits = [i for i, n in enumerate(short) if n == wanted or n == _loose(text, True)]
        if not hits:
            hits = [i for i, n in enumerate(loose) if n.startswith(wanted)]
        names = {self.names[i] for i in hits}
        if len(names) == 1:
            return hits[0]
        if not hits:
            raise ValueError(f"there is no space called {text.strip()!r}")
        raise ValueError(f"{text.strip()!r} could be {name_list(sorted(names), 'or')}")

    def split_names(self, text: str) -> list[str]:
        """The items of a list a person says or types: "Boardwalk, Baltic Avenue and 300".

        Commas, semicolons and "and" separate items, but a run of pieces that together spell
        one space's full name stays one item, so "Imaginarium, Discovery, Fast Lane, Trucks"
        names two deeds of the Times Square board, whose names contain commas.
        """
        pieces = [p.strip() for p in re.split(r"[,;]|\band\b", text)]
        full = {_loose(n) for n in self.names}
        items: list[str] = []
        i = 0
        while i < len(pieces):
            for j in range(len(pieces), i + 1, -1):
                joined = ", ".join(pieces[i:j])
                if _loose(joined) in full:
                    items.append(joined)
                    i = j
                    break
            else:
                if pieces[i]:
                    items.append(pieces[i])
                i += 1
        return items

    def building_words(self, houses: int) -> str:
        """ "three houses", "a hotel", "no buildings" in this edition's words."""
        if houses == 5:
            return f"a {self.words['hotel']}"
        if houses == 0:
            return "no buildings"
        if houses == 1:
            return f"one {self.words['house']}"
        return f"{_WORDS[houses]} {self.words['houses']}"


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def name_list(names: list[str] | tuple[str, ...], conj: str = "and") -> str:
    """Names joined to be told apart when heard: "A, B and C", but "A, B and C, D and E, F"
    would not be, so names that contain commas ("Imaginarium, Discovery") are joined by the
    conjunction alone: "Imaginarium, Discovery and Imaginarium, Learning and Fast Lane, Trucks".
    """
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    if any("," in n for n in names):
        return f" {conj} ".join(names)
    return ", ".join(names[:-1]) + f" {conj} " + names[-1]
_SUFFIX = re.compile(r"\s+(avenue|ave|place|railroad|gardens|company)$")


def _loose(text: str, drop_suffix: bool = False) -> str:
    low = text.lower().replace("&", " and ").replace(".", " ").replace(",", " ")
    low = " ".join(low.split())
    if drop_suffix:
        low = _SUFFIX.sub("", low)
    return low.replace(" ", "")


def load_edition(name: str = "classic") -> Edition:
    """An edition by name ("classic", "times-square") or a path to a JSON file. While a game
    is set up the file is read every time, so that the session records it (or resume uses
    the journal's copy); elsewhere (simulations, tools) it is cached."""
    if setting_up():
        return _read_edition(name)
    return _cached_edition(name)


@lru_cache(maxsize=16)
def _cached_edition(name: str) -> Edition:
    return _read_edition(name)


def _read_edition(name: str) -> Edition:
    relative = _edition_file(name)
    data = load_json(relative)
    try:
        shown = str(find_config(relative))
    except FileNotFoundError:
        shown = relative  # a resumed game's copy, from its journal
    return Edition(data, shown)


def _edition_file(name: str) -> str:
    return name if name.endswith(".json") else f"editions/monopoly-{name}.json"
