"""A player's legal choices as buttons: each one the command the player would type.

A button's command is checked by parsing it back (``Game.parse_spoken`` for that player must
give the very action): a tap is then exactly the typed line, and a command that a game words
differently is left out rather than guessed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Any

from companion.engine import Action, IllegalAction, State, as_player

MAX_CHOICES = 40  # a chess opening has 20; beyond this a phone list is no help


def choices(state: State, player: int, *, virtual_dice: bool) -> list[dict[str, str]]:
    """``[{"label": "Red buys Boardwalk", "command": "buy"}, ...]`` for ``player`` now."""
    if state.is_terminal():
        return []
    out: list[dict[str, str]] = []
    request = state.chance()
    candidates: list[Action] = []
    if request is not None:  # a throw or a card is awaited: only the thrower's roll
        if request.kind == "dice" and request.who == player and virtual_dice:
            out.append({"label": f"Roll {request.describe()}", "command": "roll"})
    elif state.may_act(player):
        candidates = state.legal_actions()[:MAX_CHOICES]
    checked_from = 0 if player != state.current_player() else len(candidates)
    own = OWN_ACTIONS.get(state.game.spec.name)
    if own is not None and state.may_act(player):  # at any time, with their own things
        candidates = [*candidates, *own(state, player)]
    # The legal moves are the player to act's; for anyone else (a bid from another bidder),
    # and for the things of their own, each is tried on a copy first.
    trial: State | None = None  # a refused action changes nothing: one copy serves many
    seen: set[str] = set()
    for index, action in enumerate(candidates):
        mine = as_player(action, player)
        if index >= checked_from:
            if trial is None:
                trial = state.clone()
            if not _legal(trial, mine):
                continue
            trial = None  # applied: the copy has moved on
        command = command_for(state, action, player, mine)
        if command is None or command in seen:
            continue
        seen.add(command)
        out.append({"label": _label(state, mine), "command": command})
        if len(out) >= MAX_CHOICES:
            break
    return out


def _legal(trial: State, action: Action) -> bool:
    """Whether ``action`` applies to ``trial`` (a copy: it is changed when it does)."""
    try:
        trial.apply(action)
    except IllegalAction:
        return False
    return True


def _label(state: State, action: Action) -> str:
    try:
        text = state.describe_action(action)
    except Exception:  # a wording bug must not hide the button
        text = ""
    return text if text and "=" not in text else str(action)


def command_for(state: State, action: Action, player: int,
                want: Action | None = None) -> str | None:
    """The typed command that means ``action`` from ``player`` (``want``, the action as
    theirs), or None if none is found."""
    want = want if want is not None else as_player(action, player)
    for text in _candidates(state, action, state.game.players[player]):
        try:
            got = state.game.parse_spoken(state, text, player)
        except (IllegalAction, ValueError, KeyError, IndexError, TypeError):
            continue
        if got == want:
            return text
    return None


def _candidates(state: State, action: Action, name: str) -> Iterator[str]:
    plain = str(action)
    if "(" not in plain:  # a game's own wording ("play 5H", "11-15", "e2e4")
        yield plain
        yield f"{plain} {name}"  # a game that asks who sets it ("play 6-6 Red")
    head = _first_word(type(action).__name__)
    args = [_arg(state, f.name, getattr(action, f.name)) for f in dataclasses.fields(action)
            if f.name != "player"]
    words = [a for a in args if a]
    yield " ".join([head, *words])
    if not words:
        return
    if len(words) > 1:
        yield " ".join([head, *reversed(words)])  # "build hotel Boardwalk"
    yield head  # "auction" for Auction(player), whatever else it carries
    for word in FIELD_WORDS.get(type(action).__name__, ()):
        yield f"{head} {word}" if word else head


# Actions whose typed form is not the class name's first word and its fields.
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "ChooseTax": ("10%", "flat"),
    "UseCard": ("card", "chance card", "chest card"),
    "PayFine": ("fine",),
}


def _first_word(name: str) -> str:
    return re.sub(r"([a-z])([A-Z]).*", r"\1", name).lower()


def _arg(state: State, name: str, value: Any) -> str:
    render = ARGS.get(name)
    if render is not None:
        return render(state, value)
    if isinstance(value, bool):
        return ""
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value)
    return str(value)


def _space(state: State, value: Any) -> str:
    names = getattr(getattr(state, "ed", None), "names", None)
    if names is not None and isinstance(value, int) and 0 <= value < len(names):
        return str(names[value])
    return str(value)


def _partner(state: State, value: Any) -> str:
    players = state.game.players
    return players[value] if isinstance(value, int) and 0 <= value < len(players) else ""


def _hotel(state: State, value: Any) -> str:
    return "hotel" if value is True else ""


ARGS: dict[str, Callable[[State, Any], str]] = {
    "space": _space,
    "partner": _partner,
    "hotel": _hotel,
}


def _monopoly_own(state: State, player: int) -> list[Action]:
    """Building, selling and mortgages on a player's own deeds, at any time (the rules
    check each one)."""
    from companion.games.monopoly import actions as A
    from companion.games.monopoly.rent import HOTEL

    st: Any = state
    ed = st.ed
    out: list[Action] = []
    for s in ed.properties:
        if st.owner[s] != player:
            continue
        if st.mort[s]:  # only worth trying what could apply (the rules decide the rest)
            out.append(A.Unmortgage(player, s))
            continue
        built = st.bld[s]
        group = ed.members[ed.group[s]] if ed.group[s] >= 0 else ()
        if group and all(st.owner[g] == player for g in group) and built < HOTEL:
            out.append(A.Build(player, s, built == HOTEL - 1))
        if built:
            out.append(A.SellBuilding(player, s))
        elif not any(st.bld[g] for g in group):
            out.append(A.Mortgage(player, s))
    return out


# Per game: the actions a player may take at any time with their own things, which
# ``legal_actions`` (the player to act's moves) does not list for the others.
OWN_ACTIONS: dict[str, Callable[[State, int], list[Action]]] = {
    "monopoly": _monopoly_own,
}
