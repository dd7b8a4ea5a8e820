"""The ``companion`` command. Subcommands are small functions in a dispatch table; heavy ones
(vision, devices, benchmarks, game tools) are imported only when asked for, and so are the
session and the games: ``companion games`` and a game's tool import no other game (see
``companion bench startup``)."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.arguments import PORT, RATE, VOLUME, args_sentence, argument_sentences
from companion.config import user_data_dir
from companion.games import catalog, find
from companion.printable import printable

if TYPE_CHECKING:  # the journal, the session and the sources: imported by the commands that
    # use them, so that 'companion games' and a game's tool load none of them
    from companion.engine import Game
    from companion.journal import Journal, JournalError
    from companion.narrator import Verbosity
    from companion.session import Session
    from companion.sources import Source

log = logging.getLogger("companion.cli")

# Commands implemented elsewhere: "module:function(argv) -> int".
EXTERNAL: dict[str, str] = {
    "emulate": "devices.emulator:main",
    "demo": "companion.demo:main",
    "export": "companion.export:main",
    "bench": "companion.bench:main",
    "hub": "companion.club.cli:hub_main",
    "read": "vision.cli:read_main",
    "calibrate": "vision.cli:calibrate_main",
}
GAME_TOOLS = ("count", "advise", "stats", "perft", "simulate")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print(USAGE)
        return 0
    command, rest = args[0], args[1:]
    _setup_logging()
    hook, sys.unraisablehook = sys.unraisablehook, _unraisable
    try:
        with argument_sentences():
            return _dispatch(command, rest)
    except BrokenPipeError:
        # The reader went away (``companion history | head``): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        sys.unraisablehook = hook


def _unraisable(info: Any) -> None:
    """An error Python can only report (in a ``__del__``, a speech library's C callback):
    logged, never a traceback on the players' terminal."""
    log.error("ignored: %s in %r", info.exc_value, info.object,
              exc_info=(info.exc_type, info.exc_value, info.exc_traceback))


def _dispatch(command: str, rest: list[str]) -> int:
    try:
        if command in COMMANDS:
            return COMMANDS[command](rest)
        if command in EXTERNAL:
            return _call(EXTERNAL[command], rest)
        if command in GAME_TOOLS:
            return _game_tool(command, rest)
    except Exception as err:
        return _refused(command, err)
    print(printable(f"companion: there is no command \"{command}\".\n\n{USAGE}", lines=True),
          file=sys.stderr)
    return 2


def _refused(command: str, err: Exception) -> int:
    """A command's refusal or a failing disk as a sentence on stderr (status 2); a bug as a
    sentence too, the details in the log (status 1). (The journal is imported here, when
    something went wrong, so that commands that never open one do not load it.)"""
    import sqlite3

    from companion.engine import sentence
    from companion.journal import JournalError, disk_reason

    if isinstance(err, JournalError | KeyError | ValueError | FileNotFoundError):
        # a sentence, whatever raised it (a disk error's reason is also said inside others)
        message = sentence(str(err.args[0] if isinstance(err, KeyError) and err.args else err))
        log.warning("companion %s refused: %s", command, message)
        print(printable(f"companion {command}: {message}"), file=sys.stderr)
        return 2
    if isinstance(err, BrokenPipeError):
        raise err  # the reader went away: main() stops quietly
    if isinstance(err, OSError | sqlite3.Error):  # a disk or file that fails: a sentence
        where = f" ({err.filename})" if isinstance(err, OSError) and err.filename else ""
        log.error("companion %s failed: %s", command, err)
        print(f"companion {command}: {disk_reason(err)}{where}.", file=sys.stderr)
        return 2
    log.exception("companion %s failed", command, exc_info=err)
    print(f"companion {command}: that failed inside the companion, which is a fault of "
          f"the program, not of what was typed. The details are in "
          f"{user_data_dir() / 'companion.log'}.", file=sys.stderr)
    return 1


USAGE = """\
usage: companion COMMAND [options]

  games [--json]                      the games, their players and inputs
  play GAME [--players A,B] [--dice SPEC] [--cards SPEC] [--board SPEC] [--journal PATH]
       [--pgn FILE | --pdn FILE] [--fen FEN]
       [--voice auto|pyttsx3|espeak|console|silent] [--rate WPM] [--volume 0-1]
       [--tags MAP] [--seed N] [--view [lan]] [--view-port N] [--OPTION VALUE ...]
       [--publish mqtt://HOST/CLUB|FILE] [--table NAME]
                                      play a game at the table (shown on a page, published
                                      to a club)
       [--name NAME]                  (a name to resume it by)
  list [--json]                       the saved games: name, game, players, turn, last played
  resume [NAME] [--journal PATH] [--salvage] [--view [lan]]
                                      continue the latest (or a named) game
  rematch [NAME] [--name NEW]         a new game of the same game, players and options
  delete NAME [--yes]                 delete a saved game (asks first unless --yes)
  state [NAME] [--journal PATH] [--json]
                                      the current state of a saved game
  history [NAME] [--journal PATH] [--json] [--raw]
                                      what was said, turn by turn, and who acted (--raw:
                                      the journal's entries as stored)
  export [NAME] [--journal PATH] --pgn|--pdn [--out FILE] | --db DEST
                                      a saved game as PGN (chess) or PDN (checkers, draughts),
                                      or a safe copy of it (one file, checked)
  emulate [dgt]                       a virtual serial device on a pty
  emulate camera [--throws N] [--dice K] [--out FILE]
                                      a recording of dice throws, for --dice camera:FILE
  emulate cards [--deal crazy-eights|cribbage] [--design D] [--out FILE]
                                      a recording of cards laid out, for --cards camera:FILE
  hub mqtt://HOST/CLUB|FILE [--port N] [--bind ADDR]
                                      every table of a club live, standings, exports
  demo [--voice V] [--fast]           a complete scripted game through the emulator, spoken
  bench NAME                          benchmarks: latency, vision, camera, dice-setups,
                                      cribbage, perft, monopoly, dice, club, engine, view,
                                      startup, fingerprint
  count|advise|stats|perft|simulate GAME ...   a game's tools
  read dice|cards IMAGE... [--json] [--annotate DIR] [--count N]
                                     read dice or cards from pictures
  calibrate dice|cards --camera N     learn the table, the dice and the deck

Input SPECs: keyboard (default), virtual (dice or deck drawn by the companion), serial:URL
(/dev/ttyUSB0, COM3, loop://, socket://host:port), camera:0 or camera:FILE.mp4 (add
?preview for a window showing what it reads, ?realtime to play a recording at its own
speed), dgt:URL."""


def _setup_logging() -> None:
    folder = user_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "companion.log"
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))  # 0600 if new
        if os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o600)  # a log from before: the owner's alone from now
        handler: logging.Handler = _LogFile(path)
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.ERROR)
    handler.setFormatter(_PrintableFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)


class _PrintableFormatter(logging.Formatter):
    """Log lines without control characters: device text and names are logged too, and a
    log is read in a terminal (tracebacks keep their line breaks)."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record), lines=True)


class _LogFile(logging.FileHandler):
    """The log file; when the disk refuses it (full, read-only), one line on stderr, then
    on without it: never logging's own traceback."""

    failed = False

    def handleError(self, record: logging.LogRecord) -> None:
        if not self.failed:
            self.failed = True
            from companion.journal import disk_reason

            err = sys.exc_info()[1]
            reason = disk_reason(err) if err is not None else "it failed"
            print(f"companion: the log {self.baseFilename} cannot be written: {reason}.",
                  file=sys.stderr)


def _call(entry: str, argv: list[str]) -> int:
    module_name, _, func = entry.partition(":")
    result: int = getattr(importlib.import_module(module_name), func)(argv)
    return result


# --------------------------------------------------------------------------- games


def cmd_games(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [{k: v for k, v in row.items() if k != "module"} for row in catalog()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        aliases = ", ".join(row["aliases"]) or "-"
        print(f"{row['name']:<16} {row['title']:<28} {row['players']:<6} "
              f"inputs: {', '.join(row['inputs']):<12} aliases: {aliases}")
    return 0


# --------------------------------------------------------------------------- play, resume


def _io_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, allow_abbrev=False)
    parser.add_argument("--journal", help="the game's journal file (default: a new one in "
                        f"{user_data_dir() / 'games'})")
    parser.add_argument("--dice", default="keyboard", help="where throws come from")
    parser.add_argument("--cards", default="keyboard", help="where cards come from")
    parser.add_argument("--board", default="keyboard", help="where board moves come from")
    parser.add_argument("--tags", help="tag map for a card-tag or barcode reader")
    parser.add_argument("--voice", default="auto",
                        choices=["auto", "pyttsx3", "espeak", "console", "silent"])
    parser.add_argument("--rate", type=RATE, default=170, help="words per minute (50-500)")
    parser.add_argument("--volume", type=VOLUME, default=1.0, help="0 to 1")
    parser.add_argument("--verbosity", metavar="brief|normal|full",
                        help="how much is said unasked: brief (results only), normal (each "
                        "fact once, up to three choices listed; the default), full (up to "
                        "eight choices); 'quieter' and 'louder' at the table change it")
    club = parser.add_argument_group("club", "publish the game to a club's MQTT broker "
                                     "(docs/club.md)")
    club.add_argument("--publish", metavar="URL|FILE",
                      help="mqtt://[USER:PASS@]HOST[:PORT]/CLUB, mqtts://..., or a club TOML "
                      "file with the same and the TLS files")
    club.add_argument("--table", help="this table's name in the club (default: the TOML "
                      "file's, the user name, or the host name)")
    club.add_argument("--club-ca", metavar="FILE", help="CA certificate of an mqtts:// broker")
    club.add_argument("--club-cert", metavar="FILE", help="client certificate (mqtts://)")
    club.add_argument("--club-key", metavar="FILE", help="the client certificate's key")
    parser.add_argument("--view", nargs="?", const="local", choices=["local", "lan"],
                        help="serve a live page of the game: on this computer (127.0.0.1), "
                        "or with 'lan' to the local network, behind secret links")
    parser.add_argument("--view-port", type=PORT, default=0,
                        help="the page's port (default: a free one)")
    return parser


def cmd_play(argv: list[str]) -> int:
    parser = _io_parser("companion play")
    parser.add_argument("game")
    parser.add_argument("--players", help="comma-separated names, in turn order")
    parser.add_argument("--seed", type=int, help="make virtual dice and decks predictable, for "
                        "tests and demos: anyone who knows the seed knows every throw "
                        "(without it they come from the operating system's randomness)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--pgn", metavar="FILE", help="chess: start from this game's moves")
    parser.add_argument("--pdn", metavar="FILE",
                        help="checkers, draughts: start from this game's moves")
    _name_argument(parser)
    args, extra = parser.parse_known_args(argv)
    from companion.session import build_game

    cls = find(args.game)
    options = _game_options(cls, args.option, extra, args)
    if options.get("time"):
        from companion.game_clock import TimeControl

        TimeControl.parse(options["time"])  # a bad time control is refused before the journal
    record, names = _record(cls, args, options)
    players = _players(cls, args.players) if args.players or not names else names
    game, files = build_game(cls, players, options)
    return _begin(game, files, args, record=record)


def _name_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", dest="game_name", metavar="NAME",
                        help="a name for the saved game (companion resume NAME, "
                        "companion list)")


def _begin(game: Game, files: dict[str, Any], args: argparse.Namespace, *,
           record: Sequence[Any] = ()) -> int:
    """A new game set up and played: everything that can be refused is refused before its
    journal is made."""
    from companion import saved
    from companion.console import name_problem
    from companion.engine import Priority, sentence
    from companion.journal import Journal, never_started
    from companion.phrases import Phrasebook
    from companion.session import Session

    problem = name_problem(game.players, game.command_help())
    if problem:  # before any journal is made
        raise ValueError(problem)
    name = args.game_name
    if name is not None:
        problem = saved.name_problem(name)
        if problem:
            raise ValueError(problem)
        name = " ".join(name.split())
        if saved.taken(name) is not None:
            raise ValueError(f"There is already a saved game called \"{name}\": go on "
                             f"with it (companion resume \"{name}\"), play it again "
                             f"(companion rematch \"{name}\") or choose another name.")
    verbosity = _verbosity(args)  # a bad one is refused before any journal is made
    tags = _tags(args)
    sources = _sources(args)  # a bad source spec is refused before any journal is made
    path = Path(args.journal) if args.journal else saved.new_path(game.spec.name, name)
    if path.exists() and not never_started(path):
        raise ValueError(f"{path} already holds a game: use 'companion resume --journal {path}'")
    club = _club(args)  # a bad broker address is refused before any journal is made
    brain = _brain(game)  # a missing engine is refused before any journal is made
    phrases = Phrasebook.load()  # a damaged phrases file is refused before any journal is made
    announcer = _announcer(args)
    session = Session.start(game, Journal(path), announcer, seed=args.seed,
                            auto_chance=_auto_chance(args), config=files, tags=tags,
                            phrases=phrases, name=name, verbosity=verbosity)
    if args.seed is not None and _auto_chance(args):
        print("(virtual dice and decks follow --seed: predictable by anyone who knows it)",
              file=sys.stderr)
    if record:
        where = Path(args.pgn or args.pdn).name
        session.load(record, source=f"record:{where}")
        session.say(f"{len(record)} moves read from {where}. "
                    + sentence(session.state.status()), Priority.RESULT)
    print(printable(f"(journal: {path})"), file=sys.stderr)
    return _run(session, sources, announcer, brain, club=club, board=args.board != "keyboard",
                view=args)


def cmd_resume(argv: list[str]) -> int:
    parser = _io_parser("companion resume")
    parser.add_argument("name", nargs="?", help="a saved game's name (companion list)")
    parser.add_argument("--salvage", action="store_true",
                        help="if the journal is damaged or an entry no longer replays (a "
                        "journal saved by another version): go on in a copy that keeps the "
                        "entries before it; the journal itself is left as it was")
    args = parser.parse_args(argv)
    from companion.engine import Priority
    from companion.journal import JournalError, NewestUnreadable
    from companion.saved import chosen

    verbosity = _verbosity(args, resumed=True)
    try:
        path = chosen(args.name, args.journal)
    except NewestUnreadable as err:
        if not args.salvage:
            raise
        path = err.path
    tags = _tags(args)
    sources = _sources(args)
    club = _club(args)
    announcer = _announcer(args)
    try:
        session, path = _resumed(path, announcer, tags, salvage_it=args.salvage,
                                 verbosity=verbosity)
    except JournalError as err:
        # said aloud too: the players at the table may not be looking at the terminal
        announcer.say(f"I cannot resume this game. {err}", Priority.REFUSAL)
        announcer.close()
        raise
    for note in (session.code_note, session.check_note):
        if note:
            print(f"({note})", file=sys.stderr)
    print(printable(f"(journal: {path})"), file=sys.stderr)
    try:
        brain = _brain(session.game)
    except ValueError as err:  # the engine is gone: the game goes on without it
        session.say(f"The engine cannot be started: {err}. Type the moves for both sides.",
                    Priority.REFUSAL)
        brain = None
    return _run(session, sources, announcer, brain, club=club, board=args.board != "keyboard",
                view=args)


def _verbosity(args: argparse.Namespace, *, resumed: bool = False) -> Verbosity | None:
    """--verbosity, else normal (resumed: None, the saved game's own)."""
    from companion.narrator import NORMAL, Verbosity

    if args.verbosity:
        return Verbosity.parse(args.verbosity)
    return None if resumed else NORMAL


def _resumed(path: Path, announcer: Any, tags: Any, *, salvage_it: bool,
             verbosity: Verbosity | None = None) -> tuple[Session, Path]:
    """The saved game at ``path`` resumed; with ``salvage_it`` a damaged one, or one that
    no longer replays, goes on in a copy. Nothing is written to a journal that does not
    check (it is read, read-only, first)."""
    from companion.journal import DamagedJournal
    from companion.session import ReplayError, Session

    try:
        _check_saved(path)
        journal = _writable(path)
        try:
            return Session.resume(journal, announcer, tags=tags, verbosity=verbosity), path
        except ReplayError:
            journal.close()
            raise
    except (DamagedJournal, ReplayError) as err:
        if not salvage_it:
            raise _with_salvage_hint(err, path) from err
    copy_path, journal = _salvaged(path)
    return Session.resume(journal, announcer, tags=tags, verbosity=verbosity), copy_path


def _check_saved(path: Path) -> None:
    """Every entry of the saved game at ``path`` read and checked, read-only."""
    from companion.journal import Journal, JournalError, never_started

    if not path.is_file() or never_started(path):
        raise JournalError(f"no saved game at {path}")
    view = Journal(path, readonly=True)
    try:
        for _ in view.entries():
            pass
    finally:
        view.close()


def _writable(path: Path) -> Journal:
    from companion.journal import DiskError, Journal

    try:
        return Journal(path)
    except DiskError as err:
        raise DiskError(f"{err}. It can still be looked at: companion state --journal {path}; "
                        f"companion history --journal {path}.") from None


def _with_salvage_hint(err: JournalError, path: Path) -> JournalError:
    from companion.journal import DamagedJournal, JournalError

    what = ("the entries that are intact" if isinstance(err, DamagedJournal)
            else "the entry before it")
    return JournalError(f"{err} Nothing was changed. To go on from {what}, in a "
                        f"copy: companion resume --journal {path} --salvage.")


def _salvaged(path: Path) -> tuple[Path, Journal]:
    """A copy of the saved game at ``path`` up to its first entry that is damaged or no
    longer replays."""
    from companion.journal import Journal, JournalError, unused_path
    from companion.session import salvage

    copy_path = unused_path(path.with_name(f"{path.stem}-salvaged{path.suffix}"))
    copy = Journal(copy_path)
    try:
        saved = salvage(path, copy)
    except JournalError:
        copy.close()
        copy_path.unlink(missing_ok=True)
        raise
    why = f" {saved.why}" if saved.why else ""
    print(f"(kept the first {saved.kept} of {saved.readable} readable entries in {copy_path}; "
          f"{path} is left as it was.{why})", file=sys.stderr)
    return copy_path, copy


def _sources(args: argparse.Namespace) -> list[Source]:
    """The keyboard and the devices asked for; they open only when the loop starts them."""
    from companion.loop import KeyboardSource
    from companion.sources import open_source

    sources: list[Source] = [KeyboardSource()]
    for role in ("dice", "cards", "board"):
        spec = getattr(args, role)
        if spec not in {"keyboard", "virtual"}:
            sources.append(open_source(spec, role))
    return sources


def _brain(game: Game) -> Any:
    if not str(game.options.get("engine") or ""):
        return None
    from companion.opponent import brain_for

    return brain_for(game)


def _run(session: Session, sources: list[Source], announcer: Any, brain: Any = None, *,
         club: Any = None, board: bool = False,
         view: argparse.Namespace | None = None) -> int:
    from companion.clock import start_clock
    from companion.loop import run

    clock = start_clock(session)  # a Time Limit Game's agreed hour
    if clock is not None:
        sources.append(clock)
    publisher = None
    if club is not None:
        from companion.club.publisher import Publisher

        publisher = Publisher.start(session, club)
        print(f"(publishing as table {club.table} to {club.describe()})", file=sys.stderr)
    from companion.game_clock import start_game_clock

    players_clock = start_game_clock(session, board=board)  # --time 15+10, a DGT clock
    if players_clock is not None:
        sources.append(players_clock)
    if brain is not None:
        from companion.opponent import seat

        sources.append(seat(session, brain, board=board))
    if view is not None and view.view:  # no listener, no socket at all without --view
        sources.append(_view(session, view))
    try:
        status = run(session, sources)
    finally:
        if publisher is not None:
            publisher.close()  # what is not sent now is sent by the next resume
        announcer.close()
        session.journal.close()
    if session.stopped is not None:
        print(f"companion: the game stopped, as it could not be saved: {session.stopped}.",
              file=sys.stderr)
        return 1
    return status


def _club(args: argparse.Namespace) -> Any:
    """The club broker to publish to (``--publish``), or None."""
    if not args.publish:
        if args.table:
            raise ValueError("--table names this table in a club: give --publish too")
        return None
    from dataclasses import replace

    from companion.club.settings import Broker

    broker = Broker.parse(args.publish).for_table(args.table)
    files = {k: v for k, v in (("ca", args.club_ca), ("cert", args.club_cert),
                               ("key", args.club_key)) if v}
    return replace(broker, tls=broker.tls or bool(files), **files) if files else broker


def _record(cls: type[Game], args: argparse.Namespace, options: dict[str, str]
            ) -> tuple[list[Any], list[str]]:
    """The moves (and players' names) of ``--pgn FILE`` or ``--pdn FILE``; the record's start
    position goes into the options."""
    path = args.pgn or args.pdn
    if not path:
        return [], []
    from companion.records import load_record

    wanted = "pgn" if cls.spec.name == "chess" else "pdn"
    if (args.pgn and wanted != "pgn") or (args.pdn and wanted != "pdn"):
        given = "--pgn" if args.pgn else "--pdn"
        raise ValueError(f"{cls.spec.title} is read with --{wanted}, not {given}")

    def build(start: dict[str, Any]) -> Game:
        return cls(list(cls.spec.default_players), {**options, **start})

    start, moves, names = load_record(cls, path, build)
    options.update(start)
    named = [n for n in names if n and n != "?"]
    return moves, named if len(set(named)) == 2 else []


def _view(session: Session, args: argparse.Namespace) -> Source:
    from companion.view.server import ViewServer

    view = ViewServer(session, lan=args.view == "lan", port=args.view_port)
    links = view.links()
    # The links hold the secret tokens: printed here for the table, never logged.
    lines = [f"(table view: {links['screen']} )",
             f"(table view with the players' join codes: {links['join']} )"]
    lines += [f"({name}'s phone: {url} )" for name, url in links["players"].items()]
    print("\n".join(lines), file=sys.stderr)
    log.info("table view on port %d (%s)", view.port, "lan" if view.lan else "this computer")
    return view


def _players(cls: type[Game], text: str | None) -> list[str]:
    if text:
        return [p.strip() for p in text.split(",") if p.strip()]
    spec = cls.spec
    names = list(spec.default_players)
    stock = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"]
    names += [n for n in stock if n not in names]
    return names[: max(spec.min_players, min(len(spec.default_players), spec.max_players))]


def _game_options(cls: type[Game], pairs: list[str], extra: list[str],
                  args: argparse.Namespace) -> dict[str, str]:
    known = {o.name for o in cls.spec.options}
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name] = value
    i = 0
    while i < len(extra):
        word = extra[i]
        if not word.startswith("--"):
            raise ValueError(f"unexpected argument {word!r}")
        name, sep, value = word[2:].partition("=")
        if not sep:
            if i + 1 >= len(extra):
                raise ValueError(f"{word} needs a value")
            value = extra[i + 1]
            i += 1
        i += 1
        key = next((k for k in (name, name.replace("-", "_"), ALIASES.get(name, ""))
                    if k in known), None)
        if key is None:
            raise ValueError(f"{cls.spec.title} has no option {word}; options: "
                             + (", ".join(sorted(known)) or "none"))
        options[key] = value
    # A game that has its own "dice"/"cards" option hears the input choice too.
    for role in ("dice", "cards"):
        if role in known and role not in options and getattr(args, role) == "virtual":
            options[role] = "virtual"
    return options


# Option names said the way other programs say them: --fen for checkers and draughts too.
ALIASES = {"fen": "position"}


def _auto_chance(args: argparse.Namespace) -> frozenset[str]:
    kinds: set[str] = set()
    if args.dice == "virtual":
        kinds.add("dice")
    if args.cards == "virtual":
        kinds.update({"card", "shuffle"})
    return frozenset(kinds)


def _announcer(args: argparse.Namespace) -> Any:
    from companion.voice import make_announcer

    return make_announcer(args.voice, rate=args.rate, volume=args.volume)


def _tags(args: argparse.Namespace) -> Any:
    from companion.tags import TagMap

    return TagMap.load(args.tags) if args.tags else None


# --------------------------------------------------------------------------- saved games


def cmd_list(argv: list[str]) -> int:
    from companion.engine import counted
    from companion.saved import saved_games

    parser = argparse.ArgumentParser(prog="companion list", allow_abbrev=False)
    parser.add_argument("--json", action="store_true", help="for machines (docs/json.md)")
    args = parser.parse_args(argv)
    games = saved_games()
    if args.json:
        print(json.dumps([g.to_json() for g in games], indent=2))
        return 0
    if not games:
        print("There are no saved games yet. Start one with 'companion play GAME --name NAME'.")
        return 0
    rows = [("NAME", "GAME", "PLAYERS", "TURN", "LAST PLAYED")]
    for g in games:
        rows.append((g.name, g.title or "?", ", ".join(g.players) or "?",
                     g.where() + (f", {counted(g.actions, 'move')}" if not g.problem else ""),
                     time.strftime("%Y-%m-%d %H:%M", time.localtime(g.last_played))))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print(printable("  ".join([*cells, row[4]])))
    for g in games:
        if g.problem:
            print(printable(f"({g.name}: {g.problem})"), file=sys.stderr)
    return 0


def cmd_rematch(argv: list[str]) -> int:
    from companion import saved
    from companion.journal import Journal
    from companion.session import build_game

    parser = _io_parser("companion rematch")
    parser.add_argument("name", nargs="?", help="the saved game to play again (default: the "
                        "game played last)")
    _name_argument(parser)
    parser.set_defaults(dice=None, cards=None, seed=None, pgn=None, pdn=None)
    args = parser.parse_args(argv)
    old = saved.chosen(args.name, args.journal)
    args.journal = None  # --journal names the game played before; the rematch is a new file
    journal = Journal(old, readonly=True)
    try:
        meta = journal.meta()
    finally:
        journal.close()
    # The same dice and decks as before unless told: virtual ones stay virtual.
    auto = set(meta.get("auto_chance", []))
    args.dice = args.dice or ("virtual" if "dice" in auto else "keyboard")
    args.cards = args.cards or ("virtual" if "card" in auto else "keyboard")
    if args.game_name is None and meta.get("name"):
        args.game_name = saved.next_name(str(meta["name"]))
    game, _ = build_game(meta["game"], meta["players"], meta["options"],
                         files=meta.get("config"))
    print(printable(f"(a rematch of {saved.describe(old).name})"), file=sys.stderr)
    return _begin(game, dict(meta.get("config") or {}), args)


def cmd_delete(argv: list[str]) -> int:
    from companion import saved
    from companion.engine import counted

    parser = argparse.ArgumentParser(prog="companion delete", allow_abbrev=False)
    parser.add_argument("name", nargs="?", help="the saved game's name (companion list)")
    parser.add_argument("--journal", help="the game's journal file")
    parser.add_argument("--yes", action="store_true", help="without asking")
    args = parser.parse_args(argv)
    if not args.name and not args.journal:
        raise ValueError("Say which saved game to delete, by its name (companion list shows "
                         "them) or with --journal PATH.")
    path = saved.chosen(args.name, args.journal)
    if not path.is_file() or path.suffix != ".sqlite":
        raise ValueError(f"There is no saved game at {path}.")
    game = saved.describe(path)
    what = (f"\"{game.name}\" ({game.title}: {', '.join(game.players)}; {game.where()}, "
            f"{counted(game.actions, 'move')})" if not game.problem else f"\"{game.name}\"")
    if not args.yes:
        if not sys.stdin.isatty():
            raise ValueError(f"Deleting {what} needs --yes when it cannot be asked at a "
                             "terminal.")
        try:
            answer = input(printable(f"Delete the saved game {what}? It cannot be undone. "
                                     "Type yes to delete it: "))
        except EOFError:
            answer = ""
        if answer.strip().casefold() != "yes":
            print("Nothing was deleted.")
            return 1
    saved.delete(path)
    log.info("deleted the saved game %s (%s)", game.name, path)
    print(printable(f"Deleted the saved game {what}."))
    return 0


# --------------------------------------------------------------------------- state, history


def _open_saved(journal: str | None, name: str | None = None) -> Session:
    from companion.journal import DamagedJournal, Journal
    from companion.saved import chosen
    from companion.session import ReplayError, Session

    path = chosen(name, journal)
    view = Journal(path, readonly=True)
    try:
        return Session.view(view)
    except (DamagedJournal, ReplayError) as err:
        raise _with_salvage_hint(err, path) from err
    finally:
        view.close()


def cmd_state(argv: list[str]) -> int:
    from companion.console import state_view

    parser = argparse.ArgumentParser(prog="companion state")
    parser.add_argument("name", nargs="?")
    parser.add_argument("--journal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    session = _open_saved(args.journal, args.name)
    if args.json:
        print(json.dumps(state_view(session), indent=2))
    else:
        print(printable(f"{session.game.spec.title}: {', '.join(session.game.players)}"))
        print(printable(session.state.status()))
    return 0


def cmd_history(argv: list[str]) -> int:
    from companion.history import raw_rows, told_lines, told_rows
    from companion.journal import DamagedJournal, Journal, JournalError
    from companion.saved import chosen
    from companion.session import ReplayError

    parser = argparse.ArgumentParser(prog="companion history", allow_abbrev=False)
    parser.add_argument("name", nargs="?", help="a saved game's name (companion list)")
    parser.add_argument("--journal")
    parser.add_argument("--json", action="store_true", help="for machines (docs/json.md)")
    parser.add_argument("--raw", action="store_true",
                        help="the journal's entries as stored, not what was said")
    args = parser.parse_args(argv)
    path = chosen(args.name, args.journal)
    journal = Journal(path, readonly=True)
    rows: list[dict[str, Any]] = []
    try:
        for row in (raw_rows if args.raw else told_rows)(journal):
            rows.append(row)
            if args.raw and not args.json:  # a damaged journal: the entries before it shown
                who = f" [{row['source']}]" if row["source"] else ""
                print(printable(f"{row['seq']:>5} {row['time']} {row['kind']:<8} "
                                f"{row['text']}{who}"))
    except DamagedJournal as err:
        if not args.raw and not args.json:
            _print_lines(told_lines(rows))
        raise _with_salvage_hint(err, path) from err
    except ReplayError as err:
        if not args.json:
            _print_lines(told_lines(rows))
        raise JournalError(f"{err} The entries as stored: companion history --raw --journal "
                           f"{path}.") from err
    finally:
        journal.close()
    if args.json:  # one object per journal entry (the opening's sentences: text only)
        print(json.dumps([row for row in rows if row["seq"] > 0], indent=2))
    elif not args.raw:
        _print_lines(told_lines(rows))
    return 0


def _print_lines(lines: Iterable[str]) -> None:
    for line in lines:
        print(printable(line))


# --------------------------------------------------------------------------- game tools


def _game_tool(tool: str, argv: list[str]) -> int:
    if not argv:
        print(f"companion {tool}: say which game: companion {tool} GAME ...", file=sys.stderr)
        return 2
    cls = find(argv[0])
    entry = cls.tools.get(tool)
    if entry is None:
        having = [row["name"] for row in catalog() if tool in row["tools"]]
        print(f"companion {tool}: {cls.spec.title} has no {tool} tool"
              + (f" (games with one: {', '.join(having)})" if having else "") + ".",
              file=sys.stderr)
        return 2
    rest, voice = _tool_voice(argv[1:])
    if voice is None:
        return _call(entry, rest)
    import inspect

    module_name, _, func = entry.partition(":")
    fn = getattr(importlib.import_module(module_name), func)
    if "say" not in inspect.signature(fn).parameters:
        print(f"companion {tool}: the {cls.spec.title} {tool} tool does not speak;"
              f" leave out --voice", file=sys.stderr)
        return 2
    announcer = voice()
    try:
        result: int = fn(rest, say=announcer.say)
        announcer.wait_idle(timeout=120)
        return result
    finally:
        announcer.close()


class _Refusing(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise ValueError(args_sentence(self.prog, message))


def _tool_voice(argv: list[str]) -> tuple[list[str], Callable[[], Any] | None]:
    """``--voice V [--rate WPM] [--volume 0-1]`` taken out of a tool's arguments: the tool
    is given a ``say`` that speaks (tools that can say what they print accept one). Its
    printed output stays on standard output; with ``--voice console`` the spoken sentences
    go to standard error, so the printed lines stay one per input line."""
    parser = _Refusing(add_help=False, allow_abbrev=False)
    parser.add_argument("--voice", choices=["auto", "pyttsx3", "espeak", "console", "silent"])
    parser.add_argument("--rate", type=RATE, default=170)
    parser.add_argument("--volume", type=VOLUME, default=1.0)
    args, rest = parser.parse_known_args(argv)
    if args.voice is None:
        return argv, None

    def make() -> Any:
        from companion.voice import Announcer, ConsoleBackend, make_announcer

        if args.voice == "console":
            return Announcer(lambda: ConsoleBackend(sys.stderr))
        return make_announcer(args.voice, rate=args.rate, volume=args.volume, echo=sys.stderr)

    return rest, make


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "resume": cmd_resume,
    "list": cmd_list,
    "rematch": cmd_rematch,
    "delete": cmd_delete,
    "state": cmd_state,
    "history": cmd_history,
}


if __name__ == "__main__":
    sys.exit(main())
