"""The camera source (from a recording), the read/calibrate commands and the benchmark entry."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.observations import DeviceError, DeviceStatus, DiceSeen, Observation
from companion.sources import open_source
from vision.cli import GRAB, calibrate_main, read_main
from vision.dice_photos import photos_in
from vision.roll_frames import cut_sprites, paper, roll
from vision.scenes import make_scene
from vision.source import fit_calibration


class Collector:
    def __init__(self) -> None:
        self.items: list[Observation] = []
        self.done = threading.Event()

    def __call__(self, observation: Observation) -> None:
        self.items.append(observation)
        if isinstance(observation, DeviceError) or (
                isinstance(observation, DeviceStatus) and observation.state == "disconnected"):
            self.done.set()


def _record(path: Path, frames: list[np.ndarray]) -> None:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (w, h))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()


@pytest.fixture(autouse=True)
def _no_user_calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_recorded_roll_gives_one_throw(tmp_path: Path) -> None:
    rng = np.random.default_rng(21)
    sprites = cut_sprites(photos_in("train"), 40, rng)
    background = paper((640, 480), rng)
    first = roll(sprites[:2], background, rng, moving=10, resting=8)
    second = roll(sprites[2:5], background, rng, moving=10, resting=8)
    video = tmp_path / "rolls.avi"
    _record(video, first.frames + second.frames)
    source = open_source(f"camera:{video}", "dice")
    assert source.name == f"camera:{video}"
    collect = Collector()
    source.start(collect)
    assert collect.done.wait(timeout=120)
    source.close()
    throws = [o for o in collect.items if isinstance(o, DiceSeen)]
    assert [t.values for t in throws] == [first.values, second.values]
    assert all(t.source == f"camera:{video}" for t in throws)


def test_calibration_fits_the_cameras_picture() -> None:
    saved = {"area": [100.0, 50.0, 500.0, 400.0], "die_size": 40.0, "frame": [640, 480]}
    assert fit_calibration(saved, 640, 480) == ((100.0, 50.0, 500.0, 400.0), 40.0, None)
    assert fit_calibration(saved, 0, 0) == ((100.0, 50.0, 500.0, 400.0), 40.0, None)
    # the same camera set to twice the resolution: scaled
    assert fit_calibration(saved, 1280, 960) == ((200.0, 100.0, 1000.0, 800.0), 80.0, None)
    # another shape: the camera crops differently, so nothing of it is used
    area, size, problem = fit_calibration(saved, 1280, 720)
    assert area is None and size is None
    assert problem == ("The camera's picture is 1280 by 720, but the dice were calibrated at "
                       "640 by 480: I will look at the whole picture. Run companion "
                       "calibrate dice again.")
    # a calibration from before the frame was stored, or none at all
    assert fit_calibration({"area": [1, 2, 3, 4]}, 1280, 720) == ((1, 2, 3, 4), None, None)
    assert fit_calibration({}, 1280, 720) == (None, None, None)


def _played(video: Path) -> list[Observation]:
    """What the camera source gives for a whole recording."""
    source = open_source(f"camera:{video}", "dice")
    items: list[Observation] = []
    ended = threading.Event()

    def collect(observation: Observation) -> None:
        items.append(observation)
        if isinstance(observation, DeviceStatus) and observation.state == "disconnected":
            ended.set()

    source.start(collect)
    assert ended.wait(timeout=120)
    source.close()
    return items


def test_a_calibration_of_another_shape_is_said_once_and_reading_goes_on(
        tmp_path: Path) -> None:
    from vision.source import save_calibration

    rng = np.random.default_rng(22)
    sprites = cut_sprites(photos_in("train"), 10, rng)
    rolled = roll(sprites[:2], paper((640, 480), rng), rng, moving=10, resting=8)
    video = tmp_path / "roll.avi"
    _record(video, rolled.frames)
    save_calibration("dice", {"area": [10.0, 10.0, 300.0, 200.0], "die_size": 20.0,
                              "frame": [320, 180]})
    items = _played(video)
    errors = [o.reason for o in items if isinstance(o, DeviceError)]
    assert len(errors) == 1 and "calibrated at 320 by 180" in errors[0]
    assert [o.values for o in items if isinstance(o, DiceSeen)] == [rolled.values]


def test_a_tray_that_no_longer_has_its_calibrated_colour_is_said_once(tmp_path: Path) -> None:
    from vision.source import save_calibration
    from vision.tray import FloorWatch, floor_colour

    rng = np.random.default_rng(23)
    sprites = cut_sprites(photos_in("train"), 10, rng)
    background = paper((640, 480), rng)
    rolled = roll(sprites[:2], background, rng, moving=10, resting=8)
    still = FloorWatch.every * FloorWatch.times + 10  # the dice lie there a few seconds
    video = tmp_path / "roll.avi"
    _record(video, rolled.frames + [rolled.frames[-1]] * still)
    area = (10.0, 10.0, 630.0, 470.0)
    calibrated = {"area": list(area), "frame": [640, 480]}
    save_calibration("dice", {**calibrated, "floor_colour": list(floor_colour(background, area))})
    items = _played(video)
    assert not [o for o in items if isinstance(o, DeviceError)]
    assert [o.values for o in items if isinstance(o, DiceSeen)] == [rolled.values]
    # calibrated on green felt: the light paper is another tray (or the camera was turned)
    felt = np.full((480, 640, 3), (60, 120, 40), np.uint8)
    save_calibration("dice", {**calibrated, "floor_colour": list(floor_colour(felt, area))})
    items = _played(video)
    errors = [o.reason for o in items if isinstance(o, DeviceError)]
    assert len(errors) == 1 and "does not look as it did at calibration" in errors[0]
    assert [o.values for o in items if isinstance(o, DiceSeen)] == [rolled.values]


def test_the_dice_reader_is_warmed_up_before_the_first_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's first reading costs 100 ms or more (OpenCV's Lab tables, numpy's lazy
    imports): the camera pays it when it opens, on a drawn die in the calibrated area, and not
    on the first throw. A warm-up that fails is only logged."""
    from vision.dice import DiceReader
    from vision.source import CameraSource, save_calibration

    save_calibration("dice", {"area": [100, 50, 500, 400], "die_size": 30.0,
                              "frame": [640, 480]})
    warmed = []
    real = DiceReader.warm_up

    def spy(self: DiceReader, width: int, height: int) -> list[object]:
        dice = real(self, width, height)
        warmed.append((self.area, dice))
        return list(dice)

    monkeypatch.setattr(DiceReader, "warm_up", spy)
    CameraSource("throws.avi", "dice")._watcher(640, 480)
    [(area, dice)] = warmed
    assert area == (100.0, 50.0, 500.0, 400.0)
    # the whole reading ran: candidates, the network and the pip counter
    assert [(d.value, d.pips) for d in dice] == [(5, 5)]
    assert 100 <= dice[0].x <= 500 and 50 <= dice[0].y <= 400

    def broken(self: DiceReader, width: int, height: int) -> list[object]:
        raise RuntimeError("no Lab tables today")

    monkeypatch.setattr(DiceReader, "warm_up", broken)
    feed = CameraSource("throws.avi", "dice")._watcher(640, 480)
    assert feed(np.full((480, 640, 3), 128, np.uint8)) == []


def test_the_card_reader_is_warmed_up_before_the_first_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As the dice reader: the first card laid does not pay for the process's first reading.
    The drawn card goes through the finder and the index reading."""
    from vision.cards import CardReader
    from vision.source import CameraSource

    warmed = []
    real = CardReader.warm_up

    def spy(self: CardReader, width: int, height: int) -> object:
        seen = real(self, width, height)
        warmed.append(seen)
        return seen

    monkeypatch.setattr(CardReader, "warm_up", spy)
    CameraSource("cards.avi", "cards")._watcher(1280, 720)
    [seen] = warmed
    [card] = seen.cards  # found as one card, and its index read (whatever it reads as)
    xs = [x for x, _ in card.corners]
    assert min(xs) < 640 < max(xs)

    def broken(self: CardReader, width: int, height: int) -> object:
        raise RuntimeError("no Lab tables today")

    monkeypatch.setattr(CardReader, "warm_up", broken)
    feed = CameraSource("cards.avi", "cards")._watcher(640, 480)
    assert feed(np.full((480, 640, 3), 128, np.uint8)) == []


def test_a_damaged_calibration_is_said_and_not_used() -> None:
    for saved, what in (({"area": [1, 2, 3]}, "tray area"), ({"area": [5, 5, 1, 1]}, "tray area"),
                        ({"area": "all"}, "tray area"), ({"die_size": "big"}, "die size"),
                        ({"die_size": -3}, "die size"),
                        ({"area": [1, 2, 3, 4], "frame": [640]}, "frame")):
        area, size, problem = fit_calibration({"die_size": 40.0, **saved}, 640, 480)
        assert area is None and size is None
        assert problem == ("The dice calibration in vision.json is damaged "
                           f"({what}): I will look at the whole picture. Run companion "
                           "calibrate dice again."), saved


def test_a_reader_that_fails_on_a_picture_is_said_once_and_the_camera_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(25)
    video = tmp_path / "table.avi"
    _record(video, [paper((320, 240), rng) for _ in range(8)])
    source = open_source(f"camera:{video}", "dice")
    seen: list[int] = []

    def feed(frame: np.ndarray) -> list[Observation]:
        seen.append(len(seen))
        if 2 <= len(seen) <= 4:  # three pictures in a row fail, then one more later
            raise IndexError("list index out of range")
        if len(seen) == 7:
            raise ValueError("bad picture")
        return []

    monkeypatch.setattr(source, "_watcher", lambda width, height: feed)
    items: list[Observation] = []
    source._run(items.append)  # in this thread: to the end of the recording
    assert len(seen) == 8  # every picture was fed, the failing ones too
    errors = [o.reason for o in items if isinstance(o, DeviceError)]
    assert errors == ["The dice reader failed on a picture (list index out of range); I go on "
                      "with the next ones.",
                      "The dice reader failed on a picture (bad picture); I go on with the "
                      "next ones."]
    assert isinstance(items[-1], DeviceStatus) and items[-1].state == "disconnected"


def test_a_damaged_learned_deck_is_said_and_cards_are_read_without_it(tmp_path: Path) -> None:
    from vision.cards import TEMPLATES_FILE
    from vision.source import calibration_path

    deck = calibration_path().with_name(TEMPLATES_FILE)
    deck.parent.mkdir(parents=True, exist_ok=True)
    deck.write_bytes(b"not a deck")
    source = open_source("camera:unused.avi", "cards")
    feed = source._watcher(640, 480)
    assert source.problem == ("The deck learned in vision_cards.npz is damaged: I read the "
                              "cards without it. Run companion calibrate cards again.")
    assert feed(np.full((480, 640, 3), 90, np.uint8)) == []  # reading goes on


def test_a_floor_colour_that_is_not_three_numbers_is_not_used() -> None:
    from vision.source import _floor_colour

    assert _floor_colour({"floor_colour": [190, 128.5, 131]}) == (190.0, 128.5, 131.0)
    for wrong in ([1, 2], "grey", [1, "a", 3], 7, None, []):
        assert _floor_colour({"floor_colour": wrong}) is None
    assert _floor_colour({}) is None


def test_a_recording_plays_at_its_own_frame_rate_with_realtime(tmp_path: Path) -> None:
    rng = np.random.default_rng(24)
    frames = [paper((320, 240), rng) for _ in range(6)]
    video = tmp_path / "table.avi"
    _record(video, frames)  # 15 frames a second
    assert open_source(f"camera:{video}", "dice").realtime is False
    assert open_source("camera:0?realtime", "dice").realtime is False  # a camera paces itself
    source = open_source(f"camera:{video}?realtime", "dice")
    now = [100.0]
    waits: list[float] = []

    class Stop:  # the source's stop event, on a clock that moves only when it waits
        def is_set(self) -> bool:
            return False

        def wait(self, timeout: float) -> bool:
            waits.append(timeout)
            now[0] += timeout
            return False

    source._clock = lambda: now[0]
    source._stop = Stop()  # type: ignore[assignment]
    items: list[Observation] = []
    source._run(items.append)  # in this thread: to the end of the recording
    assert [round(w, 6) for w in waits] == [round(1 / 15, 6)] * 6  # frames 2..6, then the end
    assert isinstance(items[0], DeviceStatus) and items[0].detail == (
        "Playing the recording table.avi for the dice.")
    assert isinstance(items[-1], DeviceStatus) and items[-1].state == "disconnected"


def test_emulate_camera_writes_throws_the_camera_reads_and_a_set_up(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from devices.emulator import main as emulate

    out = tmp_path / "throws.avi"
    assert emulate(["camera", "--throws", "3", "--dice", "2", "--seed", "5",
                    "--out", str(out)]) == 0
    printed = capsys.readouterr()
    values = [tuple(int(v) for v in line.split(":")[1].split())
              for line in printed.out.splitlines()]
    assert len(values) == 3 and all(len(v) == 2 for v in values)
    assert f"companion play monopoly --players Car,Hat --dice 'camera:{out}?realtime'" in (
        printed.err)
    calibration = tmp_path / "throws-calibration.avi"
    assert calibrate_main(["dice", "--camera", str(calibration)], ask=lambda _: "") == 0
    assert "(tray floor)" in capsys.readouterr().out
    items = _played(out)  # read with that calibration, as fast as it decodes
    assert [o.values for o in items if isinstance(o, DiceSeen)] == values
    assert not [o for o in items if isinstance(o, DeviceError)]
    with pytest.raises(ValueError, match="--dice 1 to 6"):
        emulate(["camera", "--dice", "7", "--out", str(out)])


def test_missing_camera_is_a_device_error(tmp_path: Path) -> None:
    source = open_source(f"camera:{tmp_path / 'nothing.mp4'}", "dice")
    collect = Collector()
    source.start(collect)
    assert collect.done.wait(timeout=30)
    source.close()
    assert isinstance(collect.items[-1], DeviceError)
    assert "cannot open" in collect.items[-1].reason


def test_camera_reads_only_dice_or_cards() -> None:
    with pytest.raises(ValueError, match="dice or cards"):
        open_source("camera:0", "board")


def test_read_dice_json(capsys: pytest.CaptureFixture[str]) -> None:
    photo = photos_in("test")[0]
    assert read_main(["dice", str(photo.path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (entry,) = data["images"]
    assert entry["image"] == str(photo.path)
    for die in entry["dice"]:
        assert set(die) == {"value", "box", "confidence"}
        assert 1 <= die["value"] <= 6 and len(die["box"]) == 4
        assert 0 <= die["confidence"] <= 1


def test_read_cards_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scene = make_scene(np.random.default_rng(1_000_003), count=2)
    path = tmp_path / "cards.png"
    cv2.imwrite(str(path), scene.image)
    assert read_main(["cards", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (entry,) = data["images"]
    assert set(entry) == {"image", "cards", "refused", "face_down"}
    for card in entry["cards"]:
        assert set(card) == {"card", "corners", "confidence"} and len(card["corners"]) == 4
    assert read_main(["cards", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: ")


def test_read_reports_unopenable_files(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "not-an-image.jpg"
    bad.write_text("hello")
    assert read_main(["dice", str(bad), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["images"][0]["error"] == "cannot open this file as an image"


def test_read_says_why_a_file_is_not_read_and_opencv_prints_nothing(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("hello")
    good = tmp_path / "table.png"
    cv2.imwrite(str(good), np.full((64, 64, 3), 200, np.uint8))
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.full((10, 40, 3), 200, np.uint8))
    missing = tmp_path / "missing.jpg"
    assert read_main(["dice", str(missing), str(tmp_path), str(empty), str(text), str(tiny),
                      str(good)]) == 1
    out, err = capfd.readouterr()  # the file descriptors: OpenCV's own C++ output too
    assert err.splitlines() == [
        f"{missing}: cannot open this file as an image (no such file)",
        f"{tmp_path}: cannot open this file as an image (a folder, not a file)",
        f"{empty}: cannot open this file as an image (not a picture OpenCV can decode)",
        f"{text}: cannot open this file as an image (not a picture OpenCV can decode)",
        f"{tiny}: cannot open this file as an image (40 by 10 pixels, less than 32 by 32)",
    ]
    assert out == f"{good}: no dice\n"
    # the cards too: each picture on its own, the small one refused, the next one read
    assert read_main(["cards", str(tiny), str(good)]) == 1
    out, err = capfd.readouterr()
    assert "less than 32 by 32" in err and out.startswith(f"{good}: no cards")


def test_calibrate_dice_from_a_recording(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    sprites = cut_sprites(photos_in("train"), 10, rng)
    table = paper((640, 480), rng)
    rolled = roll(sprites[:1], table, rng, moving=2, resting=GRAB)
    video = tmp_path / "one-die.avi"
    _record(video, [table] * GRAB + rolled.frames[-GRAB:])  # the empty tray, then the die
    prompts: list[str] = []
    code = calibrate_main(["dice", "--camera", str(video), "--area", "10,10,600,460"],
                          ask=lambda text: prompts.append(text) or "")
    assert code == 0 and len(prompts) == 3  # the third: learn the dice? (Enter: no)
    saved = json.loads((tmp_path / "config" / "table-companion" / "vision.json").read_text())
    assert saved["dice"]["area"] == [10.0, 10.0, 600.0, 460.0]
    assert saved["dice"]["area_from"] == "given"
    assert 15 < saved["dice"]["die_size"] < 80


def test_calibrate_dice_learns_the_players_dice_from_confirmed_throws(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.dice import DiceReader
    from vision.dice_learn import fingerprint

    rng = np.random.default_rng(6)
    sprites = cut_sprites(photos_in("train"), 12, rng)
    table = paper((640, 480), rng)
    one = roll(sprites[:1], table, rng, moving=2, resting=GRAB)
    throws = [roll(sprites[k : k + 3], table, rng, moving=2, resting=GRAB)
              for k in (1, 4)]
    video = tmp_path / "learn.avi"
    _record(video, [table] * GRAB + one.frames[-GRAB:]
            + [f for t in throws for f in t.frames[-GRAB:]])
    answers = iter(["", "", "learn", "", "", "", "6 6 6", "done"])
    prompts: list[str] = []
    code = calibrate_main(["dice", "--camera", str(video), "--area", "10,10,630,470"],
                          ask=lambda text: prompts.append(text) or next(answers))
    assert code == 0
    out = capsys.readouterr().out
    assert prompts[2].startswith("To teach me your own dice")
    assert prompts[3].startswith("Throw 1 of up to 10")
    assert prompts[5].startswith("Throw 2 of up to 10")
    assert "If I missed a die, type how many dice you see, as in: count 4." in prompts[4]
    assert out.count("I read 3 dice, left to right:") == 2
    said = out.strip().splitlines()[-1]
    assert said.startswith("I looked at your dice: "), out
    assert " faces with " in said and "6 dice (" in said, said
    saved = json.loads((tmp_path / "config" / "table-companion" / "vision.json").read_text())
    learned = saved["dice"]["learned"]
    assert learned["model"] == fingerprint(DiceReader.load()) and learned["dice"] == 6
    assert "That is too few to learn from (at least 12)" in said  # six dice shown
    assert learned["values"]["6"] >= 3  # the second throw was typed as three sixes
    source = open_source(f"camera:{video}", "dice")
    source._watcher(640, 480)
    assert source.problem is None
    # learned on another model (or damaged): said once, and read with the general model
    from vision.source import save_calibration

    save_calibration("dice", {**saved["dice"], "learned": {**learned, "model": "0" * 16}})
    source._watcher(640, 480)
    assert source.problem is not None and "was learned on another dice model" in source.problem
    save_calibration("dice", {**saved["dice"], "learned": {**learned, "fc": "AAAA"}})
    source._watcher(640, 480)
    assert source.problem is not None and "is damaged" in source.problem


def test_the_player_counting_the_dice_adds_the_ones_the_reader_missed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'count 3' when two dice were read: the reader adds its surest missed candidate, says
    so and asks for the values of all three; a count it cannot add to is said, not raised."""
    import vision.dice_learn
    from vision.cli import _confirm_throw, _count
    from vision.dice import Die

    class Reader:
        def read(self, frame: object) -> list[Die]:
            return [Die(5, 300, 100, 40, 0.99), Die(2, 100, 100, 40, 0.95)]

    added = [Die(4, 200, 100, 40, 0.4)]
    seen: list[int] = []

    def missed(reader: object, frame: object, read: list[Die], count: int) -> list[Die]:
        seen.append(count)
        return added[: count - len(read)]

    monkeypatch.setattr(vision.dice_learn, "missed_dice", missed)
    answers = iter(["count 3", "2 4 5"])
    dice, values, more = _confirm_throw(Reader(), None, lambda _: next(answers)) or ([], [], [])
    out = capsys.readouterr().out
    assert seen == [3] and [d.value for d in dice] == [2, 4, 5] and values == [2, 4, 5]
    assert more == added
    assert "I looked again and added 1 I had missed (read as 4)." in out
    assert "I read 3 dice, left to right: 2 4 5." in out
    answers = iter(["I count 2 dice", ""])
    dice, values, more = _confirm_throw(Reader(), None, lambda _: next(answers)) or ([], [], [])
    assert values == [2, 5] and not more
    assert "I read 2 already; give the values" in capsys.readouterr().out
    assert [_count(t) for t in ("count 4", "I count 12 dice", "4 dice", "4", "2 5 6", "")] \
        == [4, 12, 4, None, None, None]


def test_a_throw_with_every_die_missed_can_be_counted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No die read: the player's count makes the reader look again; nothing found, or no
    count, leaves the throw out with a reason (before, it was always left out)."""
    import vision.dice_learn
    from vision.cli import _confirm_throw
    from vision.dice import Die

    class Reader:
        def read(self, frame: object) -> list[Die]:
            return []

    found = [Die(6, 300, 100, 40, 0.3), Die(1, 100, 100, 40, 0.2)]
    monkeypatch.setattr(vision.dice_learn, "missed_dice",
                        lambda reader, frame, read, count: found[:count])
    answers = iter(["count 2", "1 6"])
    dice, values, more = _confirm_throw(Reader(), None, lambda _: next(answers)) or ([], [], [])
    assert [d.value for d in dice] == [1, 6] and values == [1, 6] and more == found
    assert "I looked again and found 2 (read as 6 1)." in capsys.readouterr().out
    monkeypatch.setattr(vision.dice_learn, "missed_dice", lambda *args: [])
    assert _confirm_throw(Reader(), None, lambda _: "count 2") is None
    assert "I find nothing there that could be a die" in capsys.readouterr().out
    assert _confirm_throw(Reader(), None, lambda _: "") is None
    assert "This throw is left out" in capsys.readouterr().out


def test_calibrate_dice_refuses_typed_values_that_do_not_fit_the_throw(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(7)
    sprites = cut_sprites(photos_in("train"), 12, rng)
    table = paper((640, 480), rng)
    one = roll(sprites[:1], table, rng, moving=2, resting=GRAB)
    two = roll(sprites[1:3], table, rng, moving=2, resting=GRAB)
    video = tmp_path / "bad.avi"
    _record(video, [table] * GRAB + one.frames[-GRAB:] + two.frames[-GRAB:])
    answers = iter(["", "", "learn", "", "7 1", "done"])
    assert calibrate_main(["dice", "--camera", str(video), "--area", "10,10,630,470"],
                          ask=lambda _: next(answers)) == 0
    out = capsys.readouterr().out
    assert "I need 2 values from 0 to 6, one for each die I read, left to right" in out
    assert "I was shown no die to learn from, so your dice will be read as before." in out
    saved = json.loads((tmp_path / "config" / "table-companion" / "vision.json").read_text())
    assert "learned" not in saved["dice"]


def test_calibrate_cards_learns_the_shown_cards(tmp_path: Path) -> None:
    from companion.cards import Card

    scene = make_scene(np.random.default_rng(77), count=1, cards=[Card.parse("AS")])
    video = tmp_path / "ace.avi"
    _record(video, [scene.image] * 4)
    # card by card: n (no layout), the ace of spades shown, then q
    answers = iter(["n", "", "q"])
    assert calibrate_main(["cards", "--camera", str(video)], ask=lambda _: next(answers)) == 0
    base = tmp_path / "config" / "table-companion"
    saved = json.loads((base / "vision.json").read_text())
    assert saved["cards"]["cards"] == 1
    with np.load(base / "vision_cards.npz") as deck:
        assert [str(n) for n in deck["names"]] == ["AS", "AS"]  # both index corners
        assert deck["features"].shape[0] == 2


def test_calibrate_cards_takes_a_confirmed_layout_and_skips_those_cards(
        tmp_path: Path) -> None:
    from companion.cards import Card

    scene = make_scene(np.random.default_rng(77), count=1, cards=[Card.parse("AS")])
    video = tmp_path / "ace.avi"
    _record(video, [scene.image] * 4)
    prompts: list[str] = []
    answers = iter(["", "y", "n", "q"])  # lay out, confirm, go on one by one, stop

    def ask(text: str) -> str:
        prompts.append(text)
        return next(answers)

    assert calibrate_main(["cards", "--camera", str(video)], ask=ask) == 0
    assert "I read AS. Is that right?" in prompts[1]
    assert "ace of spades" not in prompts[-1].lower() and "Show the" in prompts[-1]
    with np.load(tmp_path / "config" / "table-companion" / "vision_cards.npz") as deck:
        assert [str(n) for n in deck["names"]] == ["AS", "AS"]


def test_camera_preview_option(tmp_path: Path) -> None:
    source = open_source("camera:0?preview", "dice")
    assert source.name == "camera:0"
    with pytest.raises(ValueError, match="unknown camera option 'zoom'"):
        open_source("camera:0?zoom", "dice")


def test_preview_says_why_there_is_no_window() -> None:
    from vision.preview import preview_problem

    assert "headless" in (preview_problem({"DISPLAY": ":0"}, "  GUI:    NONE\n") or "")
    gtk = "  GUI:                           GTK3\n"
    assert preview_problem({"DISPLAY": ":0"}, gtk) is None
    if sys.platform.startswith("linux"):
        assert "no display" in (preview_problem({}, gtk) or "")


def test_recording_with_preview_but_no_window_still_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.source.preview_problem", lambda: "there is no display")
    rng = np.random.default_rng(22)
    sprites = cut_sprites(photos_in("train"), 40, rng)
    throw = roll(sprites[:2], paper((640, 480), rng), rng, moving=10, resting=8)
    video = tmp_path / "roll.avi"
    _record(video, throw.frames)
    source = open_source(f"camera:{video}?preview", "dice")
    collect = Collector()
    source.start(collect)
    assert collect.done.wait(timeout=120)
    source.close()
    assert "no preview window: there is no display" in capsys.readouterr().err
    assert [o for o in collect.items if isinstance(o, DiceSeen)]


def test_read_annotate_draws_what_was_read(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from vision.dice import Die
    from vision.draw import draw_dice

    photo = photos_in("val")[0]
    assert read_main(["dice", str(photo.path), "--annotate", str(tmp_path / "out")]) == 0
    drawn = cv2.imread(str(tmp_path / "out" / f"{photo.path.stem}.read.png"))
    original = cv2.imread(str(photo.path))
    assert drawn is not None and drawn.shape == original.shape
    assert np.count_nonzero(np.any(drawn != original, axis=2)) > 100
    # sure readings are boxed green, unsure ones orange
    blank = np.zeros((200, 200, 3), np.uint8)
    sure = draw_dice(blank, [Die(3, 100, 100, 40, 0.99)])
    unsure = draw_dice(blank, [Die(3, 100, 100, 40, 0.5)])
    assert tuple(sure[80, 80]) == (60, 200, 60)
    assert tuple(unsure[80, 80]) == (0, 150, 255)


def test_draw_cards_marks_refused_outlines_red() -> None:
    from vision.card_finder import OVERLAP, Refused
    from vision.cards import SeenCards
    from vision.draw import draw_cards

    blank = np.zeros((300, 300, 3), np.uint8)
    corners = ((50.0, 50.0), (250.0, 50.0), (250.0, 250.0), (50.0, 250.0))
    drawn = draw_cards(blank, SeenCards(refused=[Refused(corners, OVERLAP)]))
    assert tuple(drawn[150, 50]) == (40, 40, 230)


def test_preview_draws_the_dice_of_a_ranked_reading() -> None:
    # the frame a throw is reported from is ranked (DiceReader.read_ranked), not read: the
    # preview window must still show its dice, not the previous frame's
    from vision.dice import Die, Ranked
    from vision.preview import Preview

    preview = Preview("test", lambda frame, seen, note: frame)
    die = Die(value=4, confidence=0.97, x=10.0, y=20.0, size=30.0)
    ranked = Ranked([die])
    rank = preview.wrap(lambda frame: ranked, lambda r: r.dice)
    assert rank(np.zeros((4, 4, 3), np.uint8)) is ranked
    assert preview.seen == [die]
