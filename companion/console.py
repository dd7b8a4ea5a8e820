"""Console commands common to every game, as a dispatch table.

A line may start with a player's name ("Blue roll 4", "Blue: buy", "Horse and Rider roll 4",
'"Horse and Rider" roll 4') or end with one ("roll 4 for Blue", ``find_speaker``): the input
is then from that player, and refused if it is not theirs to give. Names that would read as
commands are refused when a game starts. Anything not in the table is offered to the game:
first as a question (``Game.query``), then as a game action (``Game.parse_action``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from companion.engine import Action, Draw, Game, IllegalAction, Priority, State, Throw, sentence
from companion.narrator import Verbosity
from companion.observations import TextCommand
from companion.printable import printable
from companion.reply import Reply

if TYPE_CHECKING:
    from companion.journal import Journal


class Session(Protocol):
    """What the commands use of the session (companion.session.Session is one): named here,
    so that this module does not import the session, which imports it (no import circle)."""

    game: Game
    state: State
    journal: Journal
    applied: list[Action]
    last_announcement: str

    @property
    def verbosity(self) -> Verbosity: ...
    @property
    def commands(self) -> Mapping[str, Callable[..., Reply]]: ...
    def apply(self, action: Action, *, source: str = "", confidence: float = 1.0) -> Reply: ...
    def check_player(self, name: str | None, *, exact: bool = False) -> None: ...
    def confirm(self, yes: bool) -> Reply: ...
    def correct(self, action: Action, source: str = "keyboard") -> Reply: ...
    def offer(self, action: Action, source: str, confidence: float = 1.0,
              doubts: tuple[int, ...] = ()) -> Reply: ...
    def player_index(self, name: str) -> int: ...
    def roll_virtual(self, source: str = "keyboard") -> Reply: ...
    def say(self, text: str, priority: int = Priority.INFO) -> None: ...
    def set_verbosity(self, verbosity: Verbosity) -> None: ...
    def tick(self, *, every: bool = False) -> None: ...
    def undo(self, source: str = "keyboard") -> Reply: ...


Handler = Callable[[Session, list[str], TextCommand], Reply]

HELP = """\
Commands:
  roll N [N ...]    the dice thrown (e.g. roll 4, roll 6 2); with --dice virtual: roll
  card CARD         the card drawn or shown (e.g. card 5H)
  undo              take back the last input
  correct N [N ...] the last throw was really this (correct CARD for the last card)
  status            whose turn it is and the scores
  scores            the scores (cash, places) of every player
  options           the legal moves now
  again             repeat the last announcement
  quieter | louder  say less or more unasked (brief, normal, full); 'verbosity' tells which
  yes / no          confirm or reject an unsure reading
  state             the state as JSON
  history [N|all]   what was said in the last N turns (default 5), with who acted
  help              this list
  quit              stop (the game is saved; 'companion resume' continues it)
Start or end a line with a player's name to give it as that player ("Blue roll 4",
"roll 4 for Blue")."""


def handle(session: Session, obs: TextCommand) -> Reply:
    speaker, rest = find_speaker(session.game.players, obs.text, session.game.command_help(),
                                 extra=session.commands,
                                 understood=lambda text: _parses(session, text))
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
            rest = line[end + 1:].lstrip(" \t:,")
            for player in players:
                if player.casefold() == name and rest:
                    return player, rest
    for player in sorted(players, key=len, reverse=True):
        size = len(player)
        if line[:size].casefold() == player.casefold() and line[size:size + 1] in (" ", "\t",
                                                                                    ":", ","):
            rest = line[size:].lstrip(" \t:,")
            if rest:
                return player, rest
    return None, line


QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


def find_speaker(players: Sequence[str], text: str, game_help: str,
                 extra: Iterable[str] = (),
                 understood: Callable[[str], bool] = lambda text: False
                 ) -> tuple[str | None, str]:
    """The player a line names and the rest: at its start ("Blue roll 2", "Blue, roll 2"),
    else at its end ("roll 2 Blue", "roll 2 for Blue", "buy, Hat") unless the line's command
    itself takes a player (Monopoly's "claim Hat", "trade A B ...") or the game
    ``understood`` the whole line (dominoes' "play 6-6 Red" says who sets). A line that
    starts with a capitalised word that is no command and no player, followed by a command
    ("Blue roll 2" where nobody is called Blue), is refused as naming no player
    (IllegalAction)."""
    speaker, rest = split_speaker(players, text)
    if speaker is not None:
        return speaker, rest
    line = text.strip()
    words = line.replace(":", " ").replace(",", " ").split()
    first = words[0].casefold() if words else ""
    ours = set(COMMANDS) | {w.casefold() for w in extra}  # read before the game sees a line
    if first and first not in _commands_taking_a_player(game_help):
        for player in sorted(players, key=len, reverse=True):
            match = re.fullmatch(r"(?P<rest>.*?\S)(?:\s*,\s*|\s+)(?:(?:for|by)\s+)?"
                                 + re.escape(player) + r"[.!]?", line, re.IGNORECASE)
            if (match and match["rest"].casefold() not in {"for", "by"}
                    # the game's own reading: dominoes' "play 6-6 Red" says who sets
                    and (first in ours or not understood(line))):
                return player, match["rest"].rstrip(" ,:")
    if len(words) < 2 or not words[0].isalpha() or not words[0][0].isupper() or first in ours:
        return None, line  # (most lines: the rest is for the commands to read)
    commands = ours | _command_words(game_help)
    if first not in commands and words[1].casefold() in commands and not understood(line):
        raise IllegalAction(f"There is no player called {words[0]}; the players are "
                            f"{_and(list(players))}.")
    return None, line


def _parses(session: Session, text: str) -> bool:
    """Whether the game reads ``text`` as an action now (parsing changes nothing)."""
    try:
        session.game.parse_action(session.state, text)
    except (IllegalAction, ValueError, KeyError, IndexError):
        return False
    return True


def _commands_taking_a_player(game_help: str) -> set[str]:
    """The commands whose help shows a player among their words ("claim [PLAYER]",
    "trade A B give ...", "sell SPACE [to N]"): a name at their end is theirs."""
    found: set[str] = set()
    for line in game_help.splitlines():
        for alternative in line.strip().split("  ")[0].split("|"):
            tokens = alternative.replace("[", " ").replace("]", " ").split()
            if tokens and any(t in {"PLAYER", "PLAYERS", "NAME", "WHO"}
                              or (len(t) == 1 and t.isupper()) for t in tokens[1:]):
                found.add(tokens[0].casefold())
    return found


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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
    if answer is None and obs.text.strip().lower() in ("scores", "score"):
        answer = session.state.scoreboard()  # the games without a 'scores' of their own
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
    return session.game.read_card(session.state, " ".join(args))


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
    if "dice" in inputs:
        return text
    return text.replace(' ("Blue roll 4",\n"roll 4 for Blue")', "")


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


def cmd_history(session: Session, args: list[str], obs: TextCommand) -> Reply:
    # Imported here: the history retells the game through a Session (session imports this).
    from companion.history import told_lines, told_rows

    word = args[0].casefold() if args else "5"
    if len(args) > 1 or not (word == "all" or (word.isascii() and word.isdigit())):
        raise IllegalAction("Say history, history 3 for the last three turns, or history all")
    rows = list(told_rows(session.journal))
    if word != "all":
        last = rows[-1]["turn"] if rows else 0
        rows = [row for row in rows if row["turn"] > last - int(word)]
    text = "\n".join(told_lines(rows))
    print(printable(text, lines=True))
    return Reply(True, text)



def _set_verbosity(session: Session, verbosity: Verbosity, obs: TextCommand) -> Reply:
    before = session.verbosity
    session.set_verbosity(verbosity)
    already = "Already" if verbosity == before else "Verbosity"
    text = f"{already} {verbosity}: {VERBOSITY_WORDS[verbosity.level]}."
    session.say(text, Priority.RESULT)
    return Reply(True, text)


VERBOSITY_WORDS = (
    "results and refusals only; the choices on 'options'",
    "each fact once; the choices listed when there are at most three",
    "the choices listed when there are up to eight",
)


def cmd_quieter(session: Session, args: list[str], obs: TextCommand) -> Reply:
    return _set_verbosity(session, session.verbosity.quieter(), obs)


def cmd_louder(session: Session, args: list[str], obs: TextCommand) -> Reply:
    return _set_verbosity(session, session.verbosity.louder(), obs)


def cmd_verbosity(session: Session, args: list[str], obs: TextCommand) -> Reply:
    if not args:
        verbosity = session.verbosity
        text = f"Verbosity {verbosity}: {VERBOSITY_WORDS[verbosity.level]}."
        session.say(text, Priority.RESULT)
        return Reply(True, text)
    try:
        wanted = Verbosity.parse(" ".join(args))
    except ValueError as err:
        raise IllegalAction(str(err)) from None
    return _set_verbosity(session, wanted, obs)


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
    "quieter": cmd_quieter,
    "louder": cmd_louder,
    "verbosity": cmd_verbosity,
    "help": cmd_help,
    "state": cmd_state,
    "history": cmd_history,
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
