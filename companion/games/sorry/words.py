"""Typed SORRY! moves ("split A 3 B 4", "switch A 23", "play 7 move A").

Parsing matches the words against the legal moves, so it never builds a move the rules would
refuse; when nothing matches, the move as typed is resolved to give the precise reason.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import Action, IllegalAction
from companion.games.sorry import actions as s
from companion.games.sorry.actions import LETTERS
from companion.games.sorry.board import CARD_ORDER, START
from companion.games.sorry.state import SorryState


def normalise_card(word: str) -> str | None:
    w = word.upper().rstrip("!")
    return w if w in CARD_ORDER else None


class _Words:
    def __init__(self, state: SorryState, text: str) -> None:
        self.state = state
        self.words = text.lower().replace(",", " ").split()

    def take(self) -> str:
        if not self.words:
            raise IllegalAction("Say more: which pawn, or which square")
        return self.words.pop(0)

    def owner(self) -> int:
        """An optional seat (player name or colour) before a pawn letter; default: the player."""
        st = self.state
        if self.words and len(self.words[0]) > 1 and not self.words[0].isdigit():
            word = self.words[0]
            for seat, name in enumerate(st.game.players):
                colour = st.board.colours[st.colour(seat)].lower()
                if word in (name.lower(), colour):
                    self.words.pop(0)
                    return seat
        return st.turn

    def pawn(self) -> tuple[int, int]:
        seat = self.owner()
        word = self.take()
        if len(word) == 1 and word.upper() in LETTERS[: self.state.board.pawns]:
            return seat, LETTERS.index(word.upper())
        if word.isdigit():
            return self.on_square(int(word))
        raise IllegalAction(f"{word!r} is not a pawn: say A to D, or a square number")

    def on_square(self, number: int) -> tuple[int, int]:
        hit = self.state.pawn_at(self.state.pawns, number - 1)
        if hit is None:
            raise IllegalAction(f"No pawn is on square {number}")
        return hit

    def number(self) -> int:
        word = self.take()
        if not word.isdigit():
            raise IllegalAction(f"{word!r} is not a number")
        return int(word)


def parse_move(state: SorryState, text: str) -> Action:
    w = _Words(state, text)
    card: str | None = state.card
    if w.words and w.words[0] == "play":
        w.take()
        card = normalise_card(w.take())
        if card is None:
            raise IllegalAction("Say which card to play, like: play 7 split A 3 B 4")
    elif w.words and normalise_card(w.words[0]) and state.game.hand_size:
        card = normalise_card(w.take())
    verb = w.take() if w.words else ""
    if verb in {"card", "draw"}:
        raise IllegalAction(f"No card is expected now. {state.expected()}.")
    match: Callable[[Action], bool]
    if verb in {"start", "out"}:
        seat = w.owner()
        match = lambda a: isinstance(a, s.StartPawn) and a.owner == seat  # noqa: E731
        typed: Action | None = s.StartPawn(state.turn, card or "", seat)
    elif verb in {"pass", "forfeit", "discard"}:
        if w.words:
            card = normalise_card(w.take()) or card
        match = lambda a: isinstance(a, s.Pass)  # noqa: E731
        typed = s.Pass(state.turn, card or "")
    elif verb == "split":
        o1, p1 = w.pawn()
        n1 = w.number()
        o2, p2 = w.pawn()
        n2 = w.number() if w.words else 7 - n1
        parts = [(o1, p1, n1), (o2, p2, n2)]
        while w.words:  # Team play: "split A 3 B 2 yellow C 2", among three pawns or more
            o, p = w.pawn()
            parts.append((o, p, w.number()))
        if len(parts) > 2:
            many = s.TeamSplit(state.turn, card or "7", tuple(parts))
            state._resolve(many)  # raises the reason
            return many
        typed = s.Split(state.turn, card or "7", o1, p1, n1, o2, p2, n2)
        match = lambda a: a == typed  # noqa: E731
    elif verb == "switch":
        o1, p1 = w.pawn()
        o2, p2 = w.pawn()
        typed = s.Switch(state.turn, card or "11", o1, p1, o2, p2)
        match = lambda a: a == typed  # noqa: E731
    elif verb == "sorry":
        o2, p2 = w.pawn()
        match = lambda a: (isinstance(a, s.SorryBump)  # noqa: E731
                           and (a.other, a.other_pawn) == (o2, p2))
        team = state.game.team_of(state.turn)
        owner = next((t for t in team if START in state.pawns[t]), state.turn)
        typed = s.SorryBump(state.turn, card or "SORRY", owner, o2, p2)
    elif verb in {"back", "backward", "backwards"}:
        o1, p1 = w.pawn()
        match = lambda a: (isinstance(a, s.Backward)  # noqa: E731
                           and (a.owner, a.pawn) == (o1, p1))
        typed = s.Backward(state.turn, card or "", o1, p1, 1 if card == "10" else 4)
    else:
        if verb and verb != "move":
            w.words.insert(0, verb)
        o1, p1 = w.pawn()
        match = lambda a: (isinstance(a, s.Forward | s.Backward)  # noqa: E731
                           and (a.owner, a.pawn) == (o1, p1) and not (
                               isinstance(a, s.Backward) and a.card == "10"))
        steps = s.FORWARD.get(card or "", 0)
        typed = (s.Backward(state.turn, card, o1, p1, 4) if card == "4"
                 else s.Forward(state.turn, card or "", o1, p1, steps))
    found = [a for a in state.legal_actions()
             if match(a) and (card is None or getattr(a, "card", None) == card)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        cards = sorted({str(getattr(a, "card", "")) for a in found}, key=CARD_ORDER.index)
        raise IllegalAction("Say which card: play " + " or play ".join(cards))
    if isinstance(typed, s.Pass) and typed.card:
        state._check_card(typed)
        raise IllegalAction(state.pass_refusal(typed.card))
    if typed is not None and str(getattr(typed, "card", "")):
        state._resolve(typed)  # raises the reason
        if isinstance(typed, s.Pass):
            raise IllegalAction(state.pass_refusal(typed.card))
    raise IllegalAction(f"{text!r} is not a legal move now")
