"""A camera's throw read knowing how many dice the game needs (issue 15): the reader's
readings by count, through the rest detector, chosen by the real session."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.engine import Throw, encode_action
from companion.games import find
from companion.journal import ACTION, Journal
from companion.observations import CountReading, DiceSeen
from companion.session import Session
from companion.voice import Recorder
from vision.dice import PLAUSIBLE, Die, Ranked, by_count
from vision.motion import RestDetector


def two_dice_game() -> tuple[Session, Recorder]:
    recorder = Recorder()
    game = find("snakes")(["Red", "Blue"], {"dice_count": 2})
    return Session.start(game, Journal.memory(), announcer=recorder), recorder


def die(value: int, x: float, present: float, value_sure: float = 0.99,
        accepted: bool = True) -> Die:
    return Die(value, x, 50.0, 20.0, present * value_sure, present=present,
               value_sure=value_sure, accepted=accepted)


def throw_seen(ranked: Ranked) -> DiceSeen:
    """What the camera reports of resting dice read as ``ranked`` on every frame."""
    detector = RestDetector(lambda frame: ranked.dice, source="camera:0",
                            rank=lambda frame: ranked)
    frame = np.zeros((100, 200, 3), np.uint8)
    seen: list[Any] = []
    for _ in range(8):
        seen += detector.feed(frame)
    assert len(seen) == 1 and isinstance(seen[0], DiceSeen)
    return seen[0]


def test_one_sure_die_and_a_weak_candidate_are_read_as_the_two_dice_needed() -> None:
    ranked = Ranked([die(5, 40, 0.999)], [die(3, 120, 0.3, 0.98, accepted=False),
                                          die(2, 160, 0.004, 0.5, accepted=False)])
    obs = throw_seen(ranked)
    assert obs.values == (5,)  # the camera's own reading: the one die it accepted
    assert [r.number for r in obs.by_count] == [1, 2, 3]
    session, recorder = two_dice_game()
    reply = session.submit(obs)
    assert reply.accepted, reply.text
    assert "Red throws" in " ".join(recorder.texts)
    # the journal holds the values chosen, and a replay reaches the same state
    actions = [e for e in session.journal.entries() if e.kind == ACTION]
    assert len(actions) == 1 and actions[0].payload == encode_action(Throw((5, 3)))
    assert actions[0].source == "camera:0"
    resumed = Session.resume(session.journal, announcer=Recorder())
    assert resumed.state.to_json() == session.state.to_json()
    assert session.state.to_json()["positions"][0] == 8


def test_the_second_die_is_asked_about_when_a_rival_candidate_is_as_likely() -> None:
    ranked = Ranked([die(5, 40, 0.999)], [die(3, 120, 0.3, accepted=False),
                                          die(6, 160, 0.28, accepted=False)])
    session, _ = two_dice_game()
    reply = session.submit(throw_seen(ranked))
    assert not reply.accepted and "say yes" in reply.text and "not sure of a three" in reply.text
    assert session.state.to_json()["positions"][0] == 0


def test_a_throw_with_no_plausible_second_die_is_refused_saying_why() -> None:
    session, recorder = two_dice_game()
    before = session.state.to_json()
    reply = session.submit(throw_seen(Ranked([die(4, 40, 0.999)], [])))
    assert not reply.accepted
    assert reply.text.startswith("I see only one die, and I need two dice")
    assert "Roll again or type the values." in reply.text
    assert recorder.texts[-1] == reply.text
    assert session.state.to_json() == before


def test_a_reading_of_the_count_needed_keeps_its_values_and_takes_the_counts_trust() -> None:
    session, _ = two_dice_game()
    # the count's reading agrees: its confidence (the die doubt gone) is taken
    obs = DiceSeen(source="camera:0", values=(2, 3), confidence=0.7, unsure=(3,),
                   by_count=(CountReading(1, (2,), 0.99, ()), CountReading(2, (2, 3), 0.95, ())))
    assert session.submit(obs).accepted
    assert session.state.to_json()["positions"][0] == 5
    # it disagrees (a frame's ranking against readings agreed over frames): the camera's own
    session, _ = two_dice_game()
    obs = DiceSeen(source="camera:0", values=(2, 3), confidence=0.7, unsure=(3,),
                   by_count=(CountReading(2, (2, 4), 0.95, ()),))
    reply = session.submit(obs)
    assert not reply.accepted and "not sure of a three" in reply.text


def test_knowing_the_count_keeps_the_value_doubt_and_drops_the_clear_die_doubt() -> None:
    dice = [die(5, 40, 0.999), die(3, 120, 0.3, 0.98, accepted=False),
            die(2, 160, 0.004, 0.5, accepted=False)]
    readings = dict(by_count(dice))
    two = readings[2]
    assert [d.value for d in two] == [5, 3]
    assert two[1].confidence > 0.9  # 0.3 alone; but it clearly beats the rest
    assert two[1].confidence < 0.98  # never above its value's own doubt
    unsure_value = dict(by_count([dice[0], die(3, 120, 0.3, 0.6, accepted=False)]))[2]
    assert unsure_value[1].confidence < 0.6
    # a faint candidate with no rival is no sure die: a die may lie where nothing was seen
    faint = dict(by_count([dice[0], die(3, 120, 2 * PLAUSIBLE, accepted=False)]))[2]
    assert faint[1].confidence < 0.9


@pytest.mark.parametrize("name", ["IMG_20191209_095647.jpg"])
def test_reader_ranks_a_missed_die_of_a_real_photo(name: str) -> None:
    from vision.dice import MODEL_PATH, DiceReader
    from vision.dice_eval import match
    from vision.dice_photos import DATA_DIR, imread, load_photos
    from vision.dice_setups import labelled_scale

    photo = next(p for p in load_photos(DATA_DIR) if p.name == name)
    # the first network alone: the shipped pair reads every die of this photo at one scale
    reader = DiceReader.load(MODEL_PATH)
    reader.calibrate(labelled_scale(photo))
    # read at two scales (SCALE_LEVELS) it finds every die of this photo; at the calibrated
    # scale alone (the camera's quick reading, and every reading before 2026-11-28, later)
    # it misses one, which the reading of its count must find
    whole = reader.read(imread(photo.path))
    assert len(whole) == len(photo.dice) and match(photo, whole)[2:] == (0, 0)
    reader.scale_levels = (1.0,)
    ranked = reader.read_ranked(imread(photo.path), len(photo.dice))
    assert len(ranked.dice) < len(photo.dice)  # the reader alone misses a die ...
    assert ranked.rest and all(not d.accepted for d in ranked.rest)
    assert [d.present for d in ranked.rest] == sorted((d.present for d in ranked.rest),
                                                      reverse=True)
    reading = dict(ranked.by_count(len(photo.dice)))[len(photo.dice)]
    correct, wrong, missed, spurious = match(photo, reading)
    assert missed == 0 and spurious == 0  # ... the reading of its count finds every die
    assert reader.read(imread(photo.path)) == ranked.dice  # read: the dice accepted only


def test_read_dice_with_a_count_gives_the_reading_of_that_many(capsys: Any) -> None:
    import json

    from vision.cli import read_main
    from vision.dice_photos import DATA_DIR

    path = str(DATA_DIR / "images" / "IMG_20191209_095647.jpg")
    assert read_main(["dice", path, "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)["images"][0]
    assert read_main(["dice", path, "--json", "--count", "5"]) == 0
    counted = json.loads(capsys.readouterr().out)["images"][0]
    assert counted["count_found"] is True and len(counted["dice"]) == 5
    assert "count_found" not in alone
    with pytest.raises(SystemExit):
        read_main(["cards", path, "--count", "2"])


def test_the_detector_ranks_about_the_reported_frame_only_not_every_frame() -> None:
    ranked = Ranked([die(5, 40, 0.999)], [die(3, 120, 0.3, accepted=False)])
    calls: list[str] = []

    def read(frame: Any) -> list[Die]:
        calls.append("read")
        return ranked.dice

    def rank(frame: Any) -> Ranked:
        calls.append("rank")
        return ranked

    detector = RestDetector(read, source="camera:0", rank=rank)
    frame = np.zeros((100, 200, 3), np.uint8)
    seen = [obs for _ in range(8) for obs in detector.feed(frame)]
    assert len(seen) == 1 and isinstance(seen[0], DiceSeen) and seen[0].by_count
    # stable 3: two agreeing readings, then the frame that reports is ranked instead of read
    assert calls == ["read", "read", "rank"]
