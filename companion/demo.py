"""``companion demo``: a complete scripted game of Snakes and Ladders, spoken, through a
virtual dice tray on a pty read by the real serial source, so every layer runs: device bytes,
protocol, observation, session, journal, rules, announcer.

The script includes what goes wrong at a real table: a garbled line, an impossible die, a
throw from the wrong seat, and a misread taken back with the tray's undo button.
"""

from __future__ import annotations

import argparse
import queue
import random
import sys
from pathlib import Path

from companion.engine import CHANCE, Throw
from companion.games import find
from companion.journal import Journal, holds_a_game, new_journal_path
from companion.observations import Observation
from companion.session import Session
from companion.voice import make_announcer
from devices.emulator import PtyDevice
from devices.serial_source import SerialSource

WAIT = 10.0


def script(seed: int, players: list[str]) -> list[str]:
    """Device lines for one whole game, with the table's usual mishaps mixed in."""
    game = find("snakes-ladders")(players)
    state = game.new_state()
    rng = random.Random(seed)
    lines = ["HELLO 1 Virtual dice tray"]
    throws = 0
    while not state.is_terminal():
        assert state.current_player() == CHANCE
        value = rng.randint(1, 6)
        who = state.actor()
        assert who is not None
        if throws == 2:
            lines.append("DICE 3 jumbled##")  # a garbled line
        if throws == 4:
            lines.append("DICE 9")  # an impossible die
        if throws == 5:
            other = players[(who + 1) % len(players)]
            lines.append(f"DICE 2 @{other}")  # the wrong player's seat
        if throws == 7:
            lines += [f"DICE {value % 6 + 1}", "BUTTON undo"]  # misread, taken back
        lines.append(f"DICE {value}")
        state.apply(Throw((value,)))
        throws += 1
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion demo")
    parser.add_argument("--voice", default="auto",
                        choices=["auto", "pyttsx3", "espeak", "console", "silent"])
    parser.add_argument("--rate", type=int, default=190)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--fast", action="store_true", help="do not wait for speech")
    parser.add_argument("--journal", help="where to keep the demo game's journal")
    args = parser.parse_args(argv)

    players = ["Red", "Blue"]
    lines = script(args.seed, players)
    path = args.journal or str(new_journal_path("demo-snakes-ladders"))
    announcer = make_announcer(args.voice, rate=args.rate)
    device = PtyDevice()
    print(f"Virtual dice tray on {device.path}; journal {path}", file=sys.stderr)
    source = SerialSource(device.path, "dice")
    inbox: queue.Queue[Observation] = queue.Queue()
    source.start(inbox.put)
    try:
        if not source.connected.wait(WAIT):
            print("companion demo: could not open the virtual tray", file=sys.stderr)
            return 1
        game = find("snakes-ladders")(players)
        if Path(path).exists() and holds_a_game(Path(path)):
            print(f"companion demo: {path} already holds a game", file=sys.stderr)
            return 2
        session = Session.start(game, Journal(path), announcer, seed=args.seed)
        for line in lines:
            device.send_line(line)
            session.submit(inbox.get(timeout=WAIT))
            if not args.fast:
                announcer.wait_idle()
        session.tick(every=True)  # refusals held back by a (too fast) flood
        winners = [players[w] for w in session.state.winners()]
        announcer.wait_idle()
        session.journal.close()
    finally:
        source.close()
        device.close()
        announcer.close()
    print(f"Demo over: {' and '.join(winners) or 'nobody'} won after {len(lines)} device lines. "
          f"See it again with: companion history --journal {path}", file=sys.stderr)
    return 0 if winners else 1
