"""The Monopoly state the rules engine sees: the table (table.py) with the engine's interface
on top. Player actions are checked by a ``check_*`` function (returns a reason or None)
before any ``do_*`` function mutates, so a refused action changes nothing (handlers.py).

This module is the top of the rules: it reaches the dispatch table, the legal actions and
the words, and nothing below it imports it (the rule modules work on a Table).
"""

from __future__ import annotations

from typing import Any

from companion.engine import Action, Event, IllegalAction, Throw
from companion.games.monopoly import choices, views
from companion.games.monopoly.card_words import deck_list
from companion.games.monopoly.handlers import HANDLERS
from companion.games.monopoly.rent import valuation
from companion.games.monopoly.table import Table


class MonopolyState(Table):
    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        return choices.legal_actions(self)

    def apply(self, action: Action) -> list[Event]:
        entry = HANDLERS.get(type(action))
        if entry is None:
            raise IllegalAction(f"{type(action).__name__} is not a Monopoly action")
        check, do = entry
        reason = (None if type(action) is Throw else self._basic_reason(action)) or check(
            self, action)
        if reason is not None:
            raise IllegalAction(reason, position=self.position_text())
        events: list[Event] = []
        do(self, action, events)
        return events

    def scores(self) -> list[float]:
        return [float(valuation(self, p)) if not self.out[p] else 0.0 for p in range(self.n)]

    def to_json(self) -> dict[str, Any]:
        return views.state_json(self)

    def describe_action(self, action: Action) -> str:
        return views.describe_action(self, action)

    def expected(self) -> str:
        return views.expected(self)

    def choices_text(self) -> str:
        return views.choices_text(self) or super().choices_text()

    def choices_after_move(self) -> str:
        # an auction's bidders, a purchase: said in one sentence, never as a list of moves
        return views.choices_text(self) if self.current_player() >= 0 else ""

    def prompt(self) -> str:
        # many moves (an auction with bids to choose, the turn's end): the one sentence
        return self.choices_after_move()

    def cards_text(self) -> str:
        """'cards': what may be drawn now (physical decks: the cards by their words)."""
        request = self.chance()
        if request is None or request.kind != "card":
            return f"No card is being drawn now. {self.expected()}."
        deck = request.deck
        if self.virtual:
            return (f"The {self.ed.deck_names[deck]} card is drawn by the companion:"
                    f" {len(request.cards)} not drawn yet.")
        cards = [self.ed.card_by_id[deck][i] for i in request.cards]
        return deck_list(cards, self.ed.deck_names[deck])

    def options_text(self) -> str:
        request = self.chance()
        if request is not None and request.kind == "card":
            return self.cards_text()
        return super().options_text()

    def status(self) -> str:
        return f"{self.expected()}. {self.scoreboard()}"

    def scoreboard(self) -> str:
        return views.standings(self)
