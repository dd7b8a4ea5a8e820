"""Every sentence said, in every game, reads as a sentence (issue 17): random games with
questions, refusals and undo mixed in; no Python repr, no None, a full stop (or ! or ?) at
the end, and no list of more than three choices said unasked."""

from __future__ import annotations

import random
import re

import pytest

from companion.games import load_all
from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder

GAMES = [cls for cls in load_all().all() if cls.__module__.startswith("companion.")]  # not toy

# A Python repr or error text: Name(field=..., a quoted list, tuple or dict, an object's
# address, None, a traceback.
REPR = re.compile(r"\b[A-Z]\w*\(\w+=|\[\'|\(\'|\{\'|\bobject at 0x|\bNone\b|Traceback|"
                  r"\w+Error\b")
QUESTIONS = ("status", "scores", "options", "again", "xyzzy 12", "roll 9 9 9 9 9 9 9",
             "card ZZ", "undo", "yes")


def problems(text):
    found = []
    if REPR.search(text):
        found.append("reads like Python")
    if not text.rstrip().endswith((".", "!", "?")):
        found.append("has no full stop")
    return found


def play(cls, seed, steps=250):
    game, files = build_game(cls, list(cls.spec.default_players), {})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files, seed=seed)
    rng = random.Random(seed)
    bad = [(t, p) for t in recorder.texts for p in problems(t)]
    for _ in range(steps):
        state = session.state
        before = len(recorder.texts)
        if rng.random() < 0.15:
            session.command(rng.choice(QUESTIONS))
        elif state.is_terminal():
            break
        elif state.current_player() < 0:
            session.apply(state.sample_chance(rng), source="test")
        else:
            actions = state.legal_actions()
            if not actions:
                break
            session.apply(rng.choice(actions), source="test")
            now = session.state
            if now.current_player() >= 0 and len(now.legal_actions()) > 3:
                listed = now.choices_text()
                if listed and listed in recorder.texts[before:]:
                    bad.append((listed, "lists more than three choices unasked"))
        bad += [(t, p) for t in recorder.texts[before:] for p in problems(t)]
    return bad


@pytest.mark.parametrize("cls", GAMES, ids=[c.spec.name for c in GAMES])
def test_every_sentence_said_reads_as_a_sentence(cls):
    bad = []
    for seed in (1, 2, 3):
        bad += play(cls, seed)
    assert not bad, "\n".join(f"{why}: {text!r}" for text, why in dict(bad).items())
