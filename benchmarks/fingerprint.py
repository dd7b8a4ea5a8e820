"""``companion bench fingerprint``: a hash of seeded random play through a Session, to show
that a refactoring changed no behaviour (the same hash before and after).

Each game is driven by a seeded generator: legal decisions, chance outcomes, "any time"
actions (Monopoly), wrong actions and typed commands (moves, queries, nonsense). Hashed:
every sentence said, every reply, each refusal's reason, the event classes of each input,
``state --json`` after each step, the legal actions and the expected-words, and the state
of the journal resumed at the end. Not a timed test: the hash is the result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.engine import CHANCE, Action, Event, IllegalAction
from companion.games import find
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder

MONOPOLY_OPTIONS: list[dict[str, Any]] = [
    {},
    {"cards": "virtual"},
    {"variant": "short", "cards": "virtual"},
    {"variant": "time-limit"},
    {"rent": "claim", "cards": "virtual", "end_turn": "manual"},
    {"edition": "times-square", "ferris_wheel": True, "cards": "virtual"},
]
SORRY_OPTIONS: list[dict[str, Any]] = [
    {},
    {"auto_move": False},
    {"variation": "team"},
    {"variation": "points"},
]
MONOPOLY_TYPED = [
    "buy", "auction", "bid P1 50", "bid P0 120", "pass", "pass P1", "build Vermont Avenue",
    "build hotel Boardwalk", "sell Boardwalk", "mortgage Baltic Avenue", "lift Baltic Avenue",
    "keep Baltic Avenue", "trade P0 P1 give 100 take Baltic Avenue", "accept", "reject",
    "pay fine", "use card", "tax 200", "tax 10%", "auction house", "bankrupt", "claim",
    "end", "time up", "roll 3 4", "roll 6 6", "balance", "worth P0", "owns P1",
    "rent boardwalk", "why", "board", "deeds", "who owns Park Place", "where is P0",
    "standings", "cards", "status", "options", "card advance to go", "nonsense words",
]
SORRY_TYPED = [
    "card 7", "card sorry", "card 11", "start", "start yellow", "move A", "move B",
    "back A", "split A 3 B 4", "split A 5 B 2", "switch A 23", "sorry 23", "pass",
    "play 7 move A", "discard 1", "pawns", "status", "options", "cards", "nonsense",
]


def _digest_game(name: str, seed: int, steps: int, players: int,
                 options: dict[str, Any], typed: Sequence[str],
                 anytime: Callable[[Any, int], list[Action]] | None) -> tuple[str, int]:
    rng = random.Random(seed)
    recorder = Recorder()
    names = [f"P{i}" for i in range(players)]
    game = find(name)(names, options)
    journal = Journal.memory()
    session = Session.start(game, journal, recorder, seed=seed)
    h = hashlib.sha256()
    events_seen: list[str] = []

    def listen(_s: Session, events: Sequence[Event]) -> None:
        events_seen.append(",".join(type(e).__name__ for e in events))

    session.listeners.append(listen)

    def put(*parts: object) -> None:
        h.update("\x1f".join(str(p) for p in parts).encode("utf-8", "surrogatepass"))
        h.update(b"\x1e")

    done = 0
    for _ in range(steps):
        state = session.state
        if state.is_terminal():
            break
        done += 1
        roll = rng.random()
        if roll < 0.12:
            text = rng.choice(typed)
            reply = session.command(text)
            put("typed", text, reply.accepted, reply.text)
        else:
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                choices = list(state.legal_actions())
                if anytime is not None and rng.random() < 0.3:
                    choices += anytime(state, rng.choice(range(players)))[:4]
                action = rng.choice(choices) if choices else state.sample_chance(rng)
            if roll > 0.95:  # a wrong action: another player's, or an earlier one's
                legal = state.legal_actions()
                action = rng.choice(legal) if legal else action
                action = _shifted(action, players, rng)
            put("words", state.describe_action(action))
            try:
                reply = session.apply(action, source="fingerprint")
                put("applied", repr(action), reply.text)
            except IllegalAction as err:
                put("refused", repr(action), err.reason)
        state = session.state
        put("events", events_seen[-1] if events_seen else "")
        put("json", json.dumps(state.to_json(), sort_keys=True))
        put("expected", state.expected(), state.choices_text())
        put("legal", [repr(a) for a in state.legal_actions()])
    put("said", recorder.texts)
    resumed = Session.resume(journal, Recorder())
    put("resumed", json.dumps(resumed.state.to_json(), sort_keys=True))
    return h.hexdigest(), done


def _shifted(action: Action, players: int, rng: random.Random) -> Action:
    """The same action by another player (often refused), when it names a player."""
    fields = getattr(action, "__dataclass_fields__", {})
    if "player" not in fields:
        return action
    from dataclasses import replace

    return replace(action, player=rng.randrange(players + 1))  # type: ignore[call-arg]


def run(games: int, steps: int, seed: int, long: int = 0) -> dict[str, Any]:
    from companion.games.monopoly.choices import anytime_actions

    total = hashlib.sha256()
    counts = {"monopoly": 0, "sorry": 0}
    rng = random.Random(seed)
    for k in range(games):
        n = rng.randint(2, 6)
        options = dict(rng.choice(MONOPOLY_OPTIONS))
        digest, done = _digest_game("monopoly", rng.randrange(1 << 30), steps, n, options,
                                    MONOPOLY_TYPED, anytime_actions)
        total.update(digest.encode())
        counts["monopoly"] += done
        options = dict(rng.choice(SORRY_OPTIONS))
        n = 4 if options.get("variation") == "team" else rng.randint(2, 4)
        digest, done = _digest_game("sorry", rng.randrange(1 << 30), steps, n, options,
                                    SORRY_TYPED, None)
        total.update(digest.encode())
        counts["sorry"] += done
        del k
    for _ in range(long):  # into the late game: buildings, debts, bankruptcy, the end
        options = dict(rng.choice(MONOPOLY_OPTIONS))
        digest, done = _digest_game("monopoly", rng.randrange(1 << 30), 3000, rng.randint(2, 3),
                                    options, MONOPOLY_TYPED, anytime_actions)
        total.update(digest.encode())
        counts["monopoly"] += done
    return {"hash": total.hexdigest(), "steps": counts}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench fingerprint")
    parser.add_argument("--games", type=int, default=40, help="of each game")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--long", type=int, default=20, help="Monopoly games of 3,000 steps")
    args = parser.parse_args(argv)
    cpu = time.process_time()
    result = run(args.games, args.steps, args.seed, args.long)
    result["cpu_seconds"] = round(time.process_time() - cpu, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
