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

from companion.config import load_json, setting_up

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
    """Precomputed, read-only tables of one edition."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.name: str = data["name"]
        self.title: str = data.get("title", self.name)
        low, high = data.get("players", (2, 8))  # the box's "For 2 to 6 Players"
        self.players: tuple[int, int] = (int(low), int(high))
        self.currency: str = data.get("currency", "dollars")
        self.salary: int = int(data.get("salary", 200))
        self.start_cash: int = int(data.get("start_cash", 1500))
        self.jail_fine: int = int(data.get("jail_fine", 50))
        self.houses: int = int(data.get("houses", 32))
        self.hotels: int = int(data.get("hotels", 12))
        self.railroad_rent: tuple[int, ...] = tuple(data.get("railroad_rent", (25, 50, 100, 200)))
        self.utility_mult: tuple[int, ...] = tuple(data.get("utility_multipliers", (4, 10)))
        self.words: dict[str, str] = {
            "house": "house", "houses": "houses", "hotel": "hotel", "hotels": "hotels",
            "railroad": "railroad", "railroads": "railroads", "utility": "utility",
            "utilities": "utilities", **data.get("words", {}),
        }
        self.tokens: tuple[str, ...] = tuple(data.get("tokens", ()))
        spaces = data["spaces"]
        if len(spaces) != 40:
            raise ValueError(f"edition {self.name}: a board has 40 spaces, not {len(spaces)}")
        n = len(spaces)
        self.size = n
        self.names: tuple[str, ...] = tuple(s["name"] for s in spaces)
        try:
            self.kind: tuple[int, ...] = tuple(KINDS[s["kind"]] for s in spaces)
        except KeyError as err:
            raise ValueError(f"edition {self.name}: unknown space kind {err}") from None
        self.price = tuple(int(s.get("price", 0)) for s in spaces)
        self.mortgage = tuple(int(s.get("mortgage", s.get("price", 0) // 2)) for s in spaces)
        self.rent: tuple[tuple[int, ...], ...] = tuple(tuple(s.get("rent", ())) for s in spaces)
        self.tax_amount = tuple(int(s.get("amount", 0)) for s in spaces)
        self.tax_percent = tuple(int(s.get("percent", 0)) for s in spaces)
        groups = data.get("groups", {})
        self.group_keys: tuple[str, ...] = tuple(groups)
        self.group_names: tuple[str, ...] = tuple(g.get("name", k) for k, g in groups.items())
        gindex = {k: i for i, k in enumerate(groups)}
        self.group = tuple(gindex[s["group"]] if s.get("kind") == "lot" else -1 for s in spaces)
        self.house_cost = tuple(
            int(groups[s["group"]]["house_cost"]) if s.get("kind") == "lot" else 0 for s in spaces
        )
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i in range(n) if self.group[i] == g) for g in range(len(groups))
        )
        for i in range(n):
            if self.kind[i] == LOT and len(self.rent[i]) != 6:
                raise ValueError(f"{self.names[i]}: a lot's rent has 6 values (0-4 houses, hotel)")
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
        for deck in DECKS:
            spec = data["decks"][deck]
            self.deck_names[deck] = spec.get("name", deck)
            cards = tuple(self._card(deck, c) for c in spec["cards"])
            if len({c.id for c in cards}) != len(cards):
                raise ValueError(f"edition {self.name}: card ids in {deck} must differ")
            self.decks[deck] = cards
        self.cards: dict[str, Card] = {c.key: c for d in self.decks.values() for c in d}
        self.card_by_id = {deck: {c.id: c for c in cards} for deck, cards in self.decks.items()}

    def _next_of(self, i: int, targets: tuple[int, ...]) -> int:
        for step in range(1, self.size + 1):
            j = (i + step) % self.size
            if j in targets:
                return j
        return -1

    def _card(self, deck: str, spec: dict[str, Any]) -> Card:
        e = spec["effect"]
        cid, text = spec["id"], spec.get("text", spec["id"])
        if "advance" in e:
            return Card(deck, cid, text, ADVANCE, self.space(str(e["advance"])))
        if "nearest" in e:
            kind = KINDS[e["nearest"]]
            mult = int(e.get("rent_multiplier", e.get("dice_multiplier", 1)))
            return Card(deck, cid, text, NEAREST, kind, mult)
        simple = {"back": BACK, "collect": COLLECT, "pay": PAY, "pay_each": PAY_EACH,
                  "collect_each": COLLECT_EACH}
        for key, op in simple.items():
            if key in e:
                return Card(deck, cid, text, op, int(e[key]))
        if "jail" in e:
            return Card(deck, cid, text, TO_JAIL)
        if "repairs" in e:
            house, hotel = e["repairs"]
            return Card(deck, cid, text, REPAIRS, int(house), int(hotel))
        if "goojf" in e:
            return Card(deck, cid, text, GOOJF)
        raise ValueError(f"card {deck}:{cid}: unknown effect {e}")

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
        return Edition(load_json(_edition_file(name)))
    return _cached_edition(name)


@lru_cache(maxsize=16)
def _cached_edition(name: str) -> Edition:
    return Edition(load_json(_edition_file(name)))


def _edition_file(name: str) -> str:
    return name if name.endswith(".json") else f"editions/monopoly-{name}.json"
