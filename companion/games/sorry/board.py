"""The SORRY! board and deck as data (config/boards/sorry.json, config/decks/sorry.json).

Positions of a pawn are ints: ``START`` (-1), a track square 0..track-1, a safety-zone square
``SAFE_BASE + k`` (k = 1..zone) or home (``SAFE_BASE + zone + 1``). Movement follows the
rulebook: forward from a colour's own safety entry goes into its zone (never past it on the
track), backward never enters a zone but may leave one, home needs the exact count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.datafile import load_fields
from companion.games.race.common import BoardReader, load_board

START = -1
SAFE_BASE = 100


@dataclass(frozen=True)
class Slide:
    colour: int
    start: int  # the triangle
    end: int

    def squares(self, track: int) -> list[int]:
        """The squares after the triangle up to the end, in order."""
        out, sq = [], self.start
        while sq != self.end:
            sq = (sq + 1) % track
            out.append(sq)
        return out


@dataclass(frozen=True)
class SorryBoard:
    track: int
    colours: tuple[str, ...]
    start_squares: tuple[int, ...]
    safety_entries: tuple[int, ...]
    zone: int
    pawns: int
    slides: tuple[Slide, ...]
    two_player_colours: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]

    @cached_property
    def home(self) -> int:
        return SAFE_BASE + self.zone + 1

    def on_track(self, pos: int) -> bool:
        return 0 <= pos < self.track

    def in_zone(self, pos: int) -> bool:
        return SAFE_BASE < pos < self.home

    def slide_at(self, square: int) -> Slide | None:
        for slide in self.slides:
            if slide.start == square:
                return slide
        return None

    def forward(self, colour: int, pos: int, steps: int) -> int | None:
        """Where ``steps`` forward lead, or None (from START/home, or past home)."""
        if pos == START or pos == self.home:
            return None
        for _ in range(steps):
            if pos == self.home:
                return None  # home needs the exact count
            if pos > SAFE_BASE:
                pos += 1
            elif pos == self.safety_entries[colour]:
                pos = SAFE_BASE + 1
            else:
                pos = (pos + 1) % self.track
        return pos

    def backward(self, colour: int, pos: int, steps: int) -> int | None:
        if pos == START or pos == self.home:
            return None
        for _ in range(steps):
            if pos == SAFE_BASE + 1:
                pos = self.safety_entries[colour]
            elif pos > SAFE_BASE:
                pos -= 1
            else:
                pos = (pos - 1) % self.track
        return pos

    def words(self, pos: int) -> str:
        if pos == START:
            return "start"
        if pos == self.home:
            return "home"
        if pos > SAFE_BASE:
            return f"safety {pos - SAFE_BASE}"
        return f"square {pos + 1}"


def read_sorry_board(data: Mapping[str, Any], path: str) -> SorryBoard:
    r = BoardReader(data, path)
    track = r.integer("track_squares", 8, 1000)
    colours = r.items("colours")
    if not 2 <= len(colours) <= 8 or not all(isinstance(c, str) for c in colours):
        raise r.fail("colours must be a list of 2 to 8 names")
    n = len(colours)

    def squares(key: str) -> tuple[int, ...]:
        values = r.items(key)
        if len(values) != n:
            raise r.fail(f"{key} needs one square per colour")
        return tuple(r.integer(key, 0, track - 1, v) for v in values)

    slides = []
    for i, item in enumerate(r.items("slides")):
        if not isinstance(item, dict):
            raise r.fail(f"slides[{i}] must be an object")
        where = f"slides[{i}]"
        colour = r.integer("slides", 0, n - 1, item.get("colour"), f"{where}.colour")
        start = r.integer("slides", 0, track - 1, item.get("from"), f"{where}.from")
        end = r.integer("slides", 0, track - 1, item.get("to"), f"{where}.to")
        slides.append(Slide(colour, start, end))
    teams = tuple(tuple(r.integer("teams", 0, n - 1, c) for c in team)
                  for team in r.items("teams"))
    return SorryBoard(
        track=track,
        colours=tuple(colours),
        start_squares=squares("start_squares"),
        safety_entries=squares("safety_entries"),
        zone=r.integer("safety_zone", 1, 20),
        pawns=r.integer("pawns", 1, 8),
        slides=tuple(slides),
        two_player_colours=tuple(r.integer("two_player_colours", 0, n - 1, c)
                                 for c in r.items("two_player_colours")) or (0, 1),
        teams=teams,
    )


def load_sorry_board(choice: str) -> SorryBoard:
    data, path = load_board("boards/sorry.json", choice)
    return read_sorry_board(data, path)


CARD_ORDER = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "SORRY")


def load_deck() -> dict[str, int]:
    """Card id -> copies, from config/decks/sorry.json (45 cards)."""
    deck = load_fields("decks/sorry.json", "a deck")
    cards = deck.obj("cards")
    if set(cards.data) != set(CARD_ORDER):
        raise deck.fail("cards", f"must list the cards {', '.join(CARD_ORDER)} (each with its "
                             "number of copies)")
    return {c: cards.integer(c, low=1) for c in CARD_ORDER}
