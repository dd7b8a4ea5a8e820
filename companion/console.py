"""Console commands common to every game, as a dispatch table.

A line may start with a player's name ("Blue roll 4", "Blue: buy"): the input is then from
that player, and refused if it is not theirs to give. Anything not in the table is offered to
the game: first as a question (``Game.query``), then as a game action (``Game.parse_action``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.engine import Action, Draw, IllegalAction, Priority, Throw, sentence
from companion.observations import TextCommand
from companion.reply import Reply

if TYPE_CHECKING:
    from companion.session import Session

Handler = Callable[["Session", list[str], TextCommand], Reply]

HELP = """\
Commands:
  roll N [N ...]    the dice thrown (e.g. roll 4, roll 6 2); with --dice virtual: roll
  card CARD         the card drawn or shown (e.g. card 5H)
  undo              take back the last input
  correct N [N ...] the last throw was really this (correct CARD for the last card)
  status            whose turn it is and the scores
  options           the legal moves now
  again             repeat the last announcement
  yes / no          confirm or reject an unsure reading
  state             the state as JSON
  help              this list
  quit              stop (the game is saved; 'companion resume' continues it)
Start a line with a player's name to give it as that player ("Blue roll 4")."""


def handle(session: Session, obs: TextCommand) -> Reply:
    words = obs.text.replace(":", " ").split()
    if not words:
        return Reply(True)
    if len(words) > 1 and _is_player(session, words[0]):
        obs = TextCommand(
            source=obs.source, text=" ".join(words[1:]), player=words[0],
            confidence=obs.confidence, time=obs.time,
        )
        words = words[1:]
    # Commands a helper at the table adds (an engine's hint and eval, a clock) come first.
    handler = session.commands.get(words[0].lower()) or COMMANDS.get(words[0].lower())
    if handler is not None:
        return handler(session, words[1:], obs)
    return _game_command(session, obs)


def _is_player(session: Session, word: str) -> bool:
    return any(word.lower() == p.lower() for p in session.game.players)


def _game_command(session: Session, obs: TextCommand) -> Reply:
    answer = session.game.query(session.state, obs.text)
    if answer is not None:
        session.say(answer, Priority.RESULT)
        return Reply(True, answer)
    session.check_player(obs.player)
    speaker = None if obs.player is None else session.player_index(obs.player)
    action = session.game.parse_spoken(session.state, obs.text, speaker)
    return session.apply(action, source=obs.source)


def _dice_values(args: list[str]) -> tuple[int, ...]:
    try:
        if not all(a.isascii() for a in args):
            raise ValueError
        return tuple(int(a) for a in args)
    except ValueError:
        raise IllegalAction(
            f"{' '.join(args)} is not a throw: give numbers, like roll 3 5"
        ) from None


def cmd_roll(session: Session, args: list[str], obs: TextCommand) -> Reply:
    session.check_player(obs.player, exact=True)
    if not args:
        return session.roll_virtual(obs.source)
    values = _dice_values(args)
    request = session.state.chance()
    if request is None or request.kind != "dice":
        raise IllegalAction("No throw is expected now. " + sentence(session.state.expected()))
    action = Throw(values)
    request.check(action)
    return session.offer(action, obs.source, obs.confidence)


def _card(session: Session, args: list[str]) -> str:
    if not args:
        raise IllegalAction("Say which card, like: card 5H")
    return session.game.card_id(" ".join(args))


def cmd_card(session: Session, args: list[str], obs: TextCommand) -> Reply:
    card = _card(session, args)
    session.check_player(obs.player, exact=session.state.chance() is not None)
    request = session.state.chance()
    if request is None or request.kind != "card":
        # Not a draw: the game may take a card as a play ("card 5H" in cribbage).
        return session.apply(session.game.parse_action(session.state, f"card {card}"),
                             source=obs.source)
    action = Draw(card)
    request.check(action)
    return session.offer(action, obs.source, obs.confidence)


def cmd_undo(session: Session, args: list[str], obs: TextCommand) -> Reply:
    return session.undo(obs.source)


def cmd_correct(session: Session, args: list[str], obs: TextCommand) -> Reply:
    if not args:
        raise IllegalAction("Say the right value, like: correct 5")
    action: Action
    if all(a.isascii() and a.isdigit() for a in args):
        action = Throw(tuple(int(a) for a in args))
    else:
        action = Draw(_card(session, args))
    return session.correct(action, obs.source)


def cmd_status(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.state.status()
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def cmd_options(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.state.choices_text()
    if not text:
        actions = session.state.legal_actions()
        if len(actions) == 1:
            text = f"Only one move: {session.state.describe_action(actions[0])}."
        else:
            text = sentence(session.state.expected())
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def cmd_again(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.last_announcement or session.state.expected()
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def cmd_help(session: Session, args: list[str], obs: TextCommand) -> Reply:
    extra = session.game.command_help()
    text = HELP + (f"\n{session.game.spec.title} commands:\n{extra}" if extra else "")
    print(text)
    return Reply(True, text)


def cmd_state(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = json.dumps(state_view(session), indent=2)
    print(text)
    return Reply(True, text)


def cmd_yes(session: Session, args: list[str], obs: TextCommand) -> Reply:
    return session.confirm(True)


def cmd_no(session: Session, args: list[str], obs: TextCommand) -> Reply:
    return session.confirm(False)


def cmd_quit(session: Session, args: list[str], obs: TextCommand) -> Reply:
    session.say("Game saved. Goodbye.", Priority.RESULT)
    return Reply(True, "quit", quit=True)


COMMANDS: dict[str, Handler] = {
    "roll": cmd_roll,
    "throw": cmd_roll,
    "card": cmd_card,
    "undo": cmd_undo,
    "correct": cmd_correct,
    "status": cmd_status,
    "options": cmd_options,
    "again": cmd_again,
    "help": cmd_help,
    "state": cmd_state,
    "yes": cmd_yes,
    "no": cmd_no,
    "quit": cmd_quit,
    "exit": cmd_quit,
}


def state_view(session: Session) -> dict[str, object]:
    """The stable JSON state view (docs/json.md)."""
    state = session.state
    actor = state.actor()
    return {
        "game": session.game.spec.name,
        "players": list(session.game.players),
        "options": dict(session.game.options),
        "turn": session.game.players[actor] if actor is not None else None,
        "expected": state.expected(),
        "over": state.is_terminal(),
        "winners": [session.game.players[w] for w in state.winners()],
        "scores": state.scores(),
        "actions": len(session.applied),
        "journal": session.journal.path,
        "state": state.to_json(),
    }
