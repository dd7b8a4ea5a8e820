"""Console commands common to every game, as a dispatch table.

A line may start with a player's name ("Blue roll 4", "Blue: buy", "Horse and Rider roll 4",
'"Horse and Rider" roll 4'): the input is then from that player, and refused if it is not
theirs to give. Names that would read as commands are refused when a game starts. Anything
not in the table is offered to the game: first as a question (``Game.query``), then as a game
action (``Game.parse_action``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from companion.engine import Action, Draw, IllegalAction, Priority, Throw, sentence
from companion.observations import TextCommand
from companion.printable import printable
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
    speaker, rest = split_speaker(session.game.players, obs.text)
    if speaker is not None:
        obs = TextCommand(source=obs.source, text=rest, player=speaker,
                          confidence=obs.confidence, time=obs.time)
    words = obs.text.replace(":", " ").split()
    if not words:
        return Reply(True)
    # Commands a helper at the table adds (an engine's hint and eval, a clock) come first.
    handler = session.commands.get(words[0].lower()) or COMMANDS.get(words[0].lower())
    if handler is not None:
        return handler(session, words[1:], obs)
    return _game_command(session, obs)


def split_speaker(players: Sequence[str], text: str) -> tuple[str | None, str]:
    """The player a line starts with, if any, and the rest: the name as typed (any case),
    quoted or not, followed by a space or a colon; the longest name wins ("Ann Lee" over
    "Ann"). A line that is only a name is not one (it may be a command)."""
    line = text.strip()
    if line[:1] in QUOTES:
        end = line.find(QUOTES[line[0]], 1)
        if end > 0:
            name = line[1:end].strip().casefold()
            rest = line[end + 1:].lstrip(" \t:")
            for player in players:
                if player.casefold() == name and rest:
                    return player, rest
    for player in sorted(players, key=len, reverse=True):
        size = len(player)
        if line[:size].casefold() == player.casefold() and line[size:size + 1] in (" ", "\t",
                                                                                    ":"):
            rest = line[size:].lstrip(" \t:")
            if rest:
                return player, rest
    return None, line


QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


def name_problem(names: Sequence[str], game_help: str) -> str | None:
    """Why these player names cannot be used, or None. A name must be typeable and must not
    read as a command: a player called "Roll" would make "Roll 4" a throw by nobody."""
    taken = set(COMMANDS) | _command_words(game_help)
    seen: set[str] = set()
    for name in names:
        if not name.strip():
            return "A player's name cannot be empty."
        if printable(name) != name:
            return (f"The name \"{printable(name)}\" holds control characters; give it as "
                    "plain text.")
        key = name.strip().casefold()
        if key in seen:
            return (f"Two players are called \"{name}\": names must differ (capitals aside), "
                    "or input could not say whose it is.")
        seen.add(key)
        if key in taken:
            return (f"A player cannot be called \"{name}\": {key} is a command, so a line "
                    f"starting with \"{name}\" would be read as that command. Choose another "
                    "name.")
    return None


def _command_words(game_help: str) -> set[str]:
    """The words a game's commands start with, from its help ("buy | auction   buy the...")."""
    words: set[str] = set()
    for line in game_help.splitlines():
        syntax = line.strip().split("  ")[0]
        for alternative in syntax.split("|"):
            first = alternative.split()[:1]
            if first and first[0].isalpha() and first[0].islower():
                words.add(first[0])
    return words


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
    named = session.game.throw_values(args)  # Poker Dice: "roll A A K K K"
    values = _dice_values(args) if named is None else named
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
    named = session.game.throw_values(args)
    if named is not None:
        action = Throw(named)
    elif all(a.isascii() and a.isdigit() for a in args):
        action = Throw(tuple(int(a) for a in args))
    else:
        action = Draw(_card(session, args))
    return session.correct(action, obs.source)


def cmd_status(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.state.status()
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def cmd_options(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.state.options_text()
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def cmd_again(session: Session, args: list[str], obs: TextCommand) -> Reply:
    text = session.last_announcement or session.state.expected()
    session.say(text, Priority.RESULT)
    return Reply(True, text)


def help_text(inputs: Sequence[str]) -> str:
    """HELP with only the commands a game with these inputs takes: no `roll` where no dice
    are thrown, no `card` where none is drawn, no readings to confirm from a keyboard."""
    dropped = set()
    if "dice" not in inputs:
        dropped.add("  roll ")
    if "cards" not in inputs:
        dropped.add("  card ")
    if "dice" not in inputs and "cards" not in inputs:
        dropped.add("  correct ")
    if set(inputs) <= {"keyboard"}:
        dropped.add("  yes / no ")
    text = "\n".join(line for line in HELP.splitlines()
                     if not any(line.startswith(d) for d in dropped))
    return text if "dice" in inputs else text.replace(' ("Blue roll 4")', "")


def cmd_help(session: Session, args: list[str], obs: TextCommand) -> Reply:
    extra = session.game.command_help()
    text = help_text(session.game.spec.inputs)
    text += f"\n{session.game.spec.title} commands:\n{extra}" if extra else ""
    print(printable(text, lines=True))
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
    session.tick(every=True)  # a device's held-back refusals are said before goodbye
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
