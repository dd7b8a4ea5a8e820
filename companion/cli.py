"""The ``companion`` command. Subcommands are small functions in a dispatch table; heavy ones
(vision, devices, benchmarks, game tools) are imported only when asked for."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.clock import start_clock
from companion.config import user_data_dir
from companion.engine import Game, Priority
from companion.games import find, load_all
from companion.journal import (
    Journal,
    JournalError,
    holds_a_game,
    latest_journal,
    new_journal_path,
    unused_path,
)
from companion.session import ReplayError, Session, build_game, salvage
from companion.sources import Source, open_source

log = logging.getLogger("companion.cli")

# Commands implemented elsewhere: "module:function(argv) -> int".
EXTERNAL: dict[str, str] = {
    "emulate": "devices.emulator:main",
    "demo": "companion.demo:main",
    "bench": "companion.bench:main",
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
    try:
        return _dispatch(command, rest)
    except BrokenPipeError:
        # The reader went away (``companion history | head``): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _dispatch(command: str, rest: list[str]) -> int:
    try:
        if command in COMMANDS:
            return COMMANDS[command](rest)
        if command in EXTERNAL:
            return _call(EXTERNAL[command], rest)
        if command in GAME_TOOLS:
            return _game_tool(command, rest)
    except (JournalError, KeyError, ValueError, FileNotFoundError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        log.warning("companion %s refused: %s", command, message)
        print(f"companion {command}: {message}", file=sys.stderr)
        return 2
    print(f"companion: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


USAGE = """\
usage: companion COMMAND [options]

  games [--json]                      the games, their players and inputs
  play GAME [--players A,B] [--dice SPEC] [--cards SPEC] [--board SPEC] [--journal PATH]
       [--voice auto|pyttsx3|espeak|console|silent] [--rate WPM] [--volume 0-1]
       [--tags MAP] [--seed N] [--OPTION VALUE ...]
                                      play a game at the table
  resume [NAME] [--journal PATH] [--salvage]
                                      continue the latest (or a named) game
  state [--journal PATH] [--json]     the current state of a saved game
  history [--journal PATH] [--json]   the log of a saved game
  emulate [dgt]                       a virtual serial device on a pty
  emulate camera [--throws N] [--dice K] [--out FILE]
                                      a recording of dice throws, for --dice camera:FILE
  emulate cards [--deal crazy-eights|cribbage] [--design D] [--out FILE]
                                      a recording of cards laid out, for --cards camera:FILE
  demo [--voice V] [--fast]           a complete scripted game through the emulator, spoken
  bench NAME                          benchmarks: latency, vision, cribbage, perft, monopoly, dice
  count|advise|stats|perft|simulate GAME ...   a game's tools
  read dice|cards IMAGE... [--json] [--annotate DIR]
                                     read dice or cards from pictures
  calibrate dice|cards --camera N     learn the table, the dice and the deck

Input SPECs: keyboard (default), virtual (seeded random dice or deck), serial:URL
(/dev/ttyUSB0, COM3, loop://, socket://host:port), camera:0 or camera:FILE.mp4 (add
?preview for a window showing what it reads, ?realtime to play a recording at its own
speed), dgt:URL."""


def _setup_logging() -> None:
    folder = user_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(folder / "companion.log")
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.ERROR)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def _call(entry: str, argv: list[str]) -> int:
    module_name, _, func = entry.partition(":")
    result: int = getattr(importlib.import_module(module_name), func)(argv)
    return result


# --------------------------------------------------------------------------- games


def cmd_games(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [game_info(cls) for cls in load_all().all()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        aliases = ", ".join(row["aliases"]) or "-"
        print(f"{row['name']:<16} {row['title']:<28} {row['players']:<6} "
              f"inputs: {', '.join(row['inputs']):<12} aliases: {aliases}")
    return 0


def game_info(cls: type[Game]) -> dict[str, Any]:
    spec = cls.spec
    players = (f"{spec.min_players}" if spec.min_players == spec.max_players
               else f"{spec.min_players}-{spec.max_players}")
    return {
        "name": spec.name,
        "title": spec.title,
        "aliases": list(spec.aliases),
        "players": players,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "inputs": list(spec.inputs),
        "rulebook": spec.rulebook,
        "options": {o.name: {"default": o.default, "help": o.help, "choices": list(o.choices)}
                    for o in spec.options},
        "tools": sorted(cls.tools),
    }


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
    parser.add_argument("--rate", type=int, default=170, help="words per minute")
    parser.add_argument("--volume", type=float, default=1.0, help="0 to 1")
    return parser


def cmd_play(argv: list[str]) -> int:
    parser = _io_parser("companion play")
    parser.add_argument("game")
    parser.add_argument("--players", help="comma-separated names, in turn order")
    parser.add_argument("--seed", type=int, help="seed of virtual dice and decks")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args, extra = parser.parse_known_args(argv)
    cls = find(args.game)
    options = _game_options(cls, args.option, extra, args)
    players = _players(cls, args.players)
    game, files = build_game(cls, players, options)
    tags = _tags(args)
    sources = _sources(args)  # a bad source spec is refused before any journal is made
    path = Path(args.journal) if args.journal else new_journal_path(cls.spec.name)
    if path.exists() and holds_a_game(path):
        raise ValueError(f"{path} already holds a game: use 'companion resume --journal {path}'")
    announcer = _announcer(args)
    session = Session.start(game, Journal(path), announcer, seed=args.seed,
                            auto_chance=_auto_chance(args), config=files, tags=tags)
    print(f"(journal: {path})", file=sys.stderr)
    return _run(session, sources, announcer)


def cmd_resume(argv: list[str]) -> int:
    parser = _io_parser("companion resume")
    parser.add_argument("name", nargs="?", help="part of a saved game's file name")
    parser.add_argument("--salvage", action="store_true",
                        help="if an entry no longer replays (a journal saved by another "
                        "version, or damaged): go on in a copy that keeps the entries before "
                        "it; the journal itself is left as it was")
    args = parser.parse_args(argv)
    path = Path(args.journal) if args.journal else latest_journal(args.name)
    if not holds_a_game(path):
        raise JournalError(f"no saved game at {path}")
    tags = _tags(args)
    sources = _sources(args)
    announcer = _announcer(args)
    journal = Journal(path)
    try:
        session = Session.resume(journal, announcer, tags=tags)
    except ReplayError as err:
        journal.close()
        if not args.salvage:
            # said aloud too: the players at the table may not be looking at the terminal
            announcer.say(f"I cannot resume this game. {err} Nothing was changed.",
                          Priority.REFUSAL)
            announcer.close()
            raise _with_salvage_hint(err, path) from err
        path, journal = _salvaged(path)
        session = Session.resume(journal, announcer, tags=tags)
    if session.code_note:
        print(f"({session.code_note})", file=sys.stderr)
    print(f"(journal: {path})", file=sys.stderr)
    return _run(session, sources, announcer)


def _with_salvage_hint(err: ReplayError, path: Path) -> JournalError:
    return JournalError(f"{err} Nothing was changed. To go on from the entry before it, in a "
                        f"copy: companion resume --journal {path} --salvage")


def _salvaged(path: Path) -> tuple[Path, Journal]:
    """A copy of the saved game at ``path`` up to its first entry that no longer replays."""
    source = Journal(path, readonly=True)
    copy_path = unused_path(path.with_name(f"{path.stem}-salvaged{path.suffix}"))
    copy = Journal(copy_path)
    try:
        kept = salvage(source, copy)
        total = source.count()
    finally:
        source.close()
    print(f"(kept the first {kept} of {total} entries in {copy_path}; {path} is left as it "
          "was)", file=sys.stderr)
    return copy_path, copy


def _sources(args: argparse.Namespace) -> list[Source]:
    """The keyboard and the devices asked for; they open only when the loop starts them."""
    from companion.loop import KeyboardSource

    sources: list[Source] = [KeyboardSource()]
    for role in ("dice", "cards", "board"):
        spec = getattr(args, role)
        if spec not in {"keyboard", "virtual"}:
            sources.append(open_source(spec, role))
    return sources


def _run(session: Session, sources: list[Source], announcer: Any) -> int:
    from companion.loop import run

    clock = start_clock(session)  # a Time Limit Game's agreed hour
    if clock is not None:
        sources.append(clock)
    try:
        return run(session, sources)
    finally:
        announcer.close()
        session.journal.close()


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
        key = next((k for k in (name, name.replace("-", "_")) if k in known), None)
        if key is None:
            raise ValueError(f"{cls.spec.title} has no option {word}; options: "
                             + (", ".join(sorted(known)) or "none"))
        options[key] = value
    # A game that has its own "dice"/"cards" option hears the input choice too.
    for role in ("dice", "cards"):
        if role in known and role not in options and getattr(args, role) == "virtual":
            options[role] = "virtual"
    return options


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


# --------------------------------------------------------------------------- state, history


def _open_saved(journal: str | None, name: str | None = None) -> Session:
    path = Path(journal) if journal else latest_journal(name)
    try:
        return Session.view(Journal(path, readonly=True))
    except ReplayError as err:
        raise _with_salvage_hint(err, path) from err


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
        print(f"{session.game.spec.title}: {', '.join(session.game.players)}")
        print(session.state.status())
    return 0


def cmd_history(argv: list[str]) -> int:
    from companion.history import history_rows

    parser = argparse.ArgumentParser(prog="companion history")
    parser.add_argument("name", nargs="?")
    parser.add_argument("--journal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    path = Path(args.journal) if args.journal else latest_journal(args.name)
    rows = history_rows(Journal(path, readonly=True))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        who = f" [{row['source']}]" if row["source"] else ""
        print(f"{row['seq']:>5} {row['time']} {row['kind']:<8} {row['text']}{who}")
    return 0


# --------------------------------------------------------------------------- game tools


def _game_tool(tool: str, argv: list[str]) -> int:
    if not argv:
        print(f"usage: companion {tool} GAME ...", file=sys.stderr)
        return 2
    cls = find(argv[0])
    entry = cls.tools.get(tool)
    if entry is None:
        having = [c.spec.name for c in load_all().all() if tool in c.tools]
        print(f"companion {tool}: {cls.spec.title} has no {tool} tool"
              + (f" (games with one: {', '.join(having)})" if having else ""), file=sys.stderr)
        return 2
    return _call(entry, argv[1:])


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "resume": cmd_resume,
    "state": cmd_state,
    "history": cmd_history,
}


if __name__ == "__main__":
    sys.exit(main())
