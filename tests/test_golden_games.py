"""Golden conversations: a scripted game and the exact sentences the companion says, kept in
tests/data/golden/*.txt as a play script a reviewer can read (issue 17).

A script starts with a title (``# ...``) and its set-up (``game:``, ``players:``, ``seed:``,
``auto:`` the chance kinds the companion draws itself, ``options:`` as ``name=value`` pairs).
Then ``< sentence`` lines are what is said before anything is typed, and each turn is a typed
line, ``> input`` (accepted) or ``>! input`` (refused), followed by every sentence said in
answer, in order (``| `` continues a sentence of several lines, such as a board).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder

GOLDEN = Path(__file__).parent / "data" / "golden"


@dataclass
class Script:
    title: str
    game: str
    players: tuple[str, ...]
    seed: int
    auto: tuple[str, ...]
    options: dict[str, str]
    opening: list[str] = field(default_factory=list)
    # (typed line, accepted or None when not yet known, sentences said)
    turns: list[tuple[str, bool | None, list[str]]] = field(default_factory=list)

    def header(self) -> str:
        options = " ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"# {self.title}\ngame: {self.game}\nplayers: {', '.join(self.players)}\n"
                f"seed: {self.seed}\nauto: {', '.join(self.auto)}\noptions: {options}\n")


def parse(text: str) -> Script:
    lines = text.splitlines()
    title = lines[0].lstrip("# ").strip()
    head: dict[str, str] = {}
    body = 1
    while body < len(lines) and lines[body].strip():
        key, _, value = lines[body].partition(":")
        head[key.strip()] = value.strip()
        body += 1
    script = Script(
        title=title, game=head["game"],
        players=tuple(p.strip() for p in head["players"].split(",")),
        seed=int(head["seed"]), auto=tuple(a.strip() for a in head["auto"].split(",")
                                           if a.strip()),
        options=dict(o.split("=", 1) for o in head["options"].split()))
    said = script.opening
    for line in lines[body:]:
        if line.startswith(">"):
            refused = line.startswith(">!")
            said = []
            script.turns.append((line[2 if refused else 1:].strip(), not refused, said))
        elif line.startswith("< "):
            said.append(line[2:])
        elif line.startswith("| "):
            said[-1] += "\n" + line[2:]
        elif line.strip() and not line.startswith("#"):
            raise ValueError(f"a golden script line must start with <, >, >!, | or #: {line!r}")
    return script


def run(script: Script) -> list[tuple[bool, list[str]]]:
    """Play the script; each turn's (accepted, sentences said), the opening first."""
    game, files = build_game(script.game, script.players, script.options)
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, seed=script.seed,
                            auto_chance=frozenset(script.auto), config=files)
    out = [(True, list(recorder.texts))]
    for line, _, _ in script.turns:
        recorder.clear()
        reply = session.command(line)
        out.append((reply.accepted, list(recorder.texts)))
    return out


SCRIPTS = sorted(GOLDEN.glob("*.txt"))


def test_there_are_golden_conversations():
    assert len(SCRIPTS) >= 4


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_a_golden_conversation_is_said_word_for_word(path: Path):
    script = parse(path.read_text(encoding="utf-8"))
    said = run(script)
    assert said[0][1] == script.opening, "the opening"
    for (line, accepted, expected), (was_accepted, texts) in zip(script.turns, said[1:],
                                                                 strict=True):
        assert was_accepted == accepted, f"{line!r} was {'accepted' if was_accepted else 'refused'}"
        assert texts == expected, f"after {line!r}"
