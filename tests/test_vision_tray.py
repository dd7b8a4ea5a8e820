"""Finding the tray at calibration (vision/tray.py): the die is what changed between the empty
tray and the tray with one die, the area is the floor around it; and the guided set-up that
uses them, from recordings."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import GRAB, calibrate_main
from vision.dice_photos import photos_in
from vision.roll_frames import Sprite, cut_sprites, paper, paste
from vision.tray import (
    FLOOR_CHANGED,
    FloorWatch,
    changed_spot,
    colour_change,
    floor_around,
    floor_colour,
    floor_region,
    inside,
)

FLOOR = (200, 120, 760, 500)  # x0, y0, x1, y1 of the tray's floor in the 960x640 scenes
RIM = 40  # the rim's width around it, in pixels


@pytest.fixture(scope="module")
def sprites() -> list[Sprite]:
    return cut_sprites(photos_in("train"), 12, np.random.default_rng(8))


def tray_scene(rng: np.random.Generator) -> np.ndarray:
    """A tray on a table of the floor's own colour: only its dark rim, printed with a blurred
    pattern of dark colours (as the tray in the photos), keeps the two apart."""
    table = paper((960, 640), rng)
    x0, y0, x1, y1 = FLOOR
    blocks = rng.integers(15, 90, (32, 48, 3)).astype(np.uint8)
    pattern = cv2.GaussianBlur(cv2.resize(blocks, (960, 640), interpolation=cv2.INTER_NEAREST),
                               (9, 9), 0)
    rim = np.zeros(table.shape[:2], bool)
    rim[y0 - RIM : y1 + RIM, x0 - RIM : x1 + RIM] = True
    rim[y0:y1, x0:x1] = False
    table[rim] = pattern[rim]
    return table


def with_die(scene: np.ndarray, sprite: Sprite, x: float, y: float,
             rng: np.random.Generator) -> np.ndarray:
    out = scene.copy()
    paste(out, sprite, x, y, float(rng.uniform(0, 90)), 0.0)
    noise = rng.normal(0, 2.0, out.shape)
    return np.clip(out + noise, 0, 255).astype(np.uint8)


def test_the_die_put_in_is_what_changed_and_the_floor_around_it_is_the_tray(sprites):
    rng = np.random.default_rng(1)
    empty = tray_scene(rng)
    for sprite, (x, y) in zip(sprites[:4], [(480, 310), (260, 170), (700, 450), (600, 200)],
                              strict=True):
        later = with_die(empty, sprite, x, y, rng)
        spot = changed_spot(empty, later)
        assert spot is not None
        sx, sy, side = spot
        assert np.hypot(sx - x, sy - y) < 0.3 * sprite.image.shape[0]
        assert 0.4 * sprite.image.shape[0] < side < 1.2 * sprite.image.shape[0]
        area = floor_around(empty, sx, sy, side)
        assert area is not None
        # the floor, grown by about a die side (GROW): never the rim's far edge or the table
        for found, edge, outward in zip(area, FLOOR, (-1, -1, 1, 1), strict=True):
            assert 0 <= (found - edge) * outward <= 1.5 * side + 4, (area, FLOOR)


def test_a_table_without_a_tray_is_one_floor(sprites):
    rng = np.random.default_rng(2)
    empty = paper((960, 640), rng)
    later = with_die(empty, sprites[0], 400, 300, rng)
    spot = changed_spot(empty, later)
    assert spot is not None
    area = floor_around(empty, *spot)
    assert area is not None
    x0, y0, x1, y1 = area
    assert x0 < 5 and y0 < 5 and x1 > 950 and y1 > 630


def test_no_spot_when_nothing_or_everything_changed(sprites):
    rng = np.random.default_rng(3)
    empty = tray_scene(rng)
    assert changed_spot(empty, empty.copy()) is None
    moved = np.roll(empty, 25, axis=1)  # the camera was knocked
    assert changed_spot(empty, moved) is None
    darker = (empty * 0.6).astype(np.uint8)  # the light was switched off
    assert changed_spot(empty, darker) is None
    assert changed_spot(empty, empty[:100]) is None


def felt(scene: np.ndarray) -> np.ndarray:
    """The scene with a green felt floor in place of the light one (another tray, or the
    camera turned onto another table)."""
    out = scene.copy()
    x0, y0, x1, y1 = FLOOR
    out[y0:y1, x0:x1] = (60, 120, 40)
    return out


def test_the_floor_colour_is_the_floors_with_dice_on_it_or_the_light_dimmed(sprites):
    rng = np.random.default_rng(9)
    empty = tray_scene(rng)
    colour = floor_colour(empty, FLOOR)
    paper_lab = cv2.cvtColor(empty[300:320, 400:420], cv2.COLOR_BGR2LAB).reshape(-1, 3)
    assert colour_change(colour, tuple(np.median(paper_lab, axis=0))) < 5
    crowded = empty
    for sprite, x in zip(sprites[:6], range(260, 760, 85), strict=False):
        crowded = with_die(crowded, sprite, x, 310, rng)
    assert colour_change(colour, floor_colour(crowded, FLOOR)) < 5
    # a lamp dimmed by a third (the bytes are gamma-encoded): not said; half the light is
    dimmed = (empty * (2 / 3) ** (1 / 2.2)).astype(np.uint8)
    assert 5 < colour_change(colour, floor_colour(dimmed, FLOOR)) < FLOOR_CHANGED
    halved = (empty * 0.5 ** (1 / 2.2)).astype(np.uint8)
    assert colour_change(colour, floor_colour(halved, FLOOR)) > FLOOR_CHANGED
    assert colour_change(colour, floor_colour(felt(empty), FLOOR)) > 2 * FLOOR_CHANGED


def test_floor_watch_says_once_that_the_tray_changed_and_not_for_a_hand(sprites):
    rng = np.random.default_rng(10)
    empty = tray_scene(rng)
    with_dice = with_die(empty, sprites[0], 480, 300, rng)
    watch = FloorWatch(floor_colour(empty, FLOOR), FLOOR, every=2, times=3)
    assert [watch.feed(with_dice) for _ in range(20)] == [None] * 20
    # a hand held over the tray for two checks: not a moved camera
    assert [watch.feed(felt(with_dice)) for _ in range(4)] == [None] * 4
    assert [watch.feed(with_dice) for _ in range(2)] == [None] * 2
    said = [watch.feed(felt(with_dice)) for _ in range(30)]
    assert [i for i, s in enumerate(said) if s] == [5]  # the third check, then never again
    assert "does not look as it did at calibration" in (said[5] or "")
    assert "run companion calibrate dice again" in (said[5] or "")
    # the tray put back: quiet, and a new change is said again
    assert [watch.feed(with_dice) for _ in range(4)] == [None] * 4
    assert sum(1 for _ in range(6) if watch.feed(felt(with_dice))) == 1


def _record(path: Path, frames: list[np.ndarray]) -> None:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 15, (w, h))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()


def _saved(home: Path) -> dict:
    data = json.loads((home / "config" / "table-companion" / "vision.json").read_text())
    return dict(data["dice"])


def test_calibrate_saved_before_the_input_ends_is_kept_and_said_so(tmp_path, sprites,
                                                                     capsys):
    """The input ends (Ctrl-D, a pipe) at the question about learning the players' dice, or
    while learning them: the tray and die size were saved, and nothing says otherwise."""
    rng = np.random.default_rng(4)
    empty = tray_scene(rng)
    later = with_die(empty, sprites[1], 480, 320, rng)
    video = tmp_path / "tray.avi"
    _record(video, [empty] * GRAB + [later] * GRAB)
    # Enter, Enter, then the input ends at the question about learning
    assert calibrate_main(["dice", "--camera", str(video)], ask=_ending(["", ""])) == 0
    assert _saved(tmp_path)["area_from"] == "tray floor"
    out = capsys.readouterr()
    assert "Nothing was saved" not in out.out + out.err
    assert calibrate_main(["dice", "--camera", str(video)],
                          ask=_ending(["", "", "learn"])) == 2
    assert _saved(tmp_path)["area_from"] == "tray floor"
    out = capsys.readouterr()
    assert "the die size are saved" in out.err and "Nothing was saved" not in out.err


def _ending(answers: list[str]):
    """An ask that answers these, then finds the input ended."""
    left = iter(answers)

    def ask(text: str) -> str:
        answer = next(left, None)
        if answer is None:
            raise EOFError
        return answer

    return ask


def test_calibrate_finds_the_tray_from_a_recording(tmp_path, sprites, capsys):
    rng = np.random.default_rng(4)
    empty = tray_scene(rng)
    later = with_die(empty, sprites[1], 480, 320, rng)
    video = tmp_path / "tray.avi"
    _record(video, [empty] * GRAB + [later] * GRAB)
    prompts: list[str] = []
    assert calibrate_main(["dice", "--camera", str(video)],
                          ask=lambda text: prompts.append(text) or "") == 0
    assert [p.split(",")[0] for p in prompts] == [
        "Clear the tray", "Put one die in the middle of the tray",
        "To teach me your own dice from a few throws"]  # Enter: not now
    saved = _saved(tmp_path)
    assert saved["area_from"] == "tray floor"
    side = saved["die_size"]
    assert 0.5 * sprites[1].image.shape[0] < side < 1.5 * sprites[1].image.shape[0]
    for found, edge, outward in zip(saved["area"], FLOOR, (-1, -1, 1, 1), strict=True):
        assert 0 <= (found - edge) * outward <= 2 * side, (saved["area"], FLOOR)
    # the empty floor's colour, not the rim's or the die's (as recorded: MJPG moves it a little)
    assert colour_change(tuple(saved["floor_colour"]), floor_colour(empty, FLOOR)) < 5
    out = capsys.readouterr().out
    assert "(tray floor)" in out and "floor colour (Lab)" in out


def test_calibrate_without_an_empty_picture_paints_the_die_over(tmp_path, sprites, capsys):
    rng = np.random.default_rng(5)
    empty = tray_scene(rng)
    later = with_die(empty, sprites[2], 480, 320, rng)
    video = tmp_path / "die.avi"
    _record(video, [later] * (2 * GRAB))  # the die was already there
    assert calibrate_main(["dice", "--camera", str(video)], ask=lambda _: "") == 0
    saved = _saved(tmp_path)
    assert saved["area_from"] == "tray floor"
    for found, edge, outward in zip(saved["area"], FLOOR, (-1, -1, 1, 1), strict=True):
        assert 0 <= (found - edge) * outward <= 2 * saved["die_size"], saved["area"]


def test_calibrate_with_no_floor_to_find_reads_the_whole_frame(tmp_path, sprites, capsys):
    rng = np.random.default_rng(6)
    stripes = np.zeros((480, 640, 3), np.uint8)  # no even stretch four dice wide
    for i, x in enumerate(range(0, 640, 50)):
        stripes[:, x : x + 50] = (150, 190, 120) if i % 2 else (110, 140, 200)
    later = with_die(stripes, sprites[3], 300, 240, rng)
    video = tmp_path / "stripes.avi"
    _record(video, [stripes] * GRAB + [later] * GRAB)
    assert calibrate_main(["dice", "--camera", str(video)], ask=lambda _: "") == 0
    saved = _saved(tmp_path)
    assert saved["area_from"] == "frame"
    assert saved["area"] == [19.2, 14.4, 620.8, 465.6]  # the frame less 3%
    assert "could not find the tray's floor" in capsys.readouterr().out


def test_calibrate_refuses_a_bad_area_and_a_missing_camera(tmp_path, capsys, caplog):
    assert calibrate_main(["dice", "--area", "5,5,1,1"], ask=lambda _: "") == 2
    assert calibrate_main(["dice", "--area", "a,b,c,d"], ask=lambda _: "") == 2
    assert calibrate_main(["dice", "--camera", str(tmp_path / "none.avi")],
                          ask=lambda _: "") == 1
    out = capsys.readouterr().out
    assert out.count("--area must be x0,y0,x1,y1") == 2
    assert "I cannot read pictures from camera" in out
    logged = [r.getMessage() for r in caplog.records if r.name == "companion.vision"]
    assert sum("--area must be" in m for m in logged) == 2
    assert any("I cannot read pictures from camera" in m for m in logged)


FELT_FLOOR = (220, 140, 740, 500)  # the felt tray's floor, corners rounded (radius 30)
WALL = 45  # its wooden walls' width


def felt_tray(rng: np.random.Generator, colour: tuple[int, int, int]) -> np.ndarray:
    """A felt tray on a carpet: grainy felt (a darker seam across it, lit from one side),
    rounded corners, wooden walls, and a carpet of three colours around."""
    h, w = 640, 960
    pick = rng.integers(0, 3, (h // 3, w // 3))
    colours = rng.uniform(40, 200, (3, 3))
    img = cv2.resize(colours[pick].astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
    x0, y0, x1, y1 = FELT_FLOOR
    yy, xx = np.mgrid[0:h, 0:w]
    grain = 20 * np.sin(xx * 0.3 + 3 * np.sin(yy * 0.05))
    wood = np.stack([60 + grain, 100 + grain, 150 + grain], -1)
    img[y0 - WALL : y1 + WALL, x0 - WALL : x1 + WALL] = wood[y0 - WALL : y1 + WALL,
                                                             x0 - WALL : x1 + WALL]
    floor = np.zeros((h, w), np.uint8)
    cv2.rectangle(floor, (x0 + 30, y0), (x1 - 30, y1), 1, -1)
    cv2.rectangle(floor, (x0, y0 + 30), (x1, y1 - 30), 1, -1)
    for cx, cy in ((x0 + 30, y0 + 30), (x1 - 30, y0 + 30), (x0 + 30, y1 - 30),
                   (x1 - 30, y1 - 30)):
        cv2.circle(floor, (cx, cy), 30, 1, -1)
    fuzz = cv2.GaussianBlur(rng.normal(0, 14, (h, w)).astype(np.float32), (0, 0), 0.8)
    felt = np.array(colour, np.float32) + fuzz[..., None] + 12 * ((xx - x0) / (x1 - x0))[
        ..., None]
    felt[np.abs(xx - (x0 + x1) / 2 - 0.2 * (yy - y0)) < 1.5] -= 35  # a seam
    img[floor == 1] = felt[floor == 1]
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("colour", [(40, 110, 30), (110, 40, 40), (60, 60, 150), (30, 30, 30)])
def test_a_felt_tray_is_found_as_its_floor_seam_and_round_corners_too(sprites, colour):
    """Felt's grain and a seam across it neither cut the floor nor let it run up the walls
    (before the floor was median-filtered, the blue felt's seam cut it at x 560), and the
    outline leaves out the walls in the rounded corners that its box takes in."""
    rng = np.random.default_rng(11)
    empty = felt_tray(rng, colour)
    later = with_die(empty, sprites[1], 480, 320, rng)
    spot = changed_spot(empty, later)
    assert spot is not None
    found = floor_region(empty, *spot)
    assert found is not None
    area, outline = found
    side = spot[2]
    for got, edge, outward in zip(area, FELT_FLOOR, (-1, -1, 1, 1), strict=True):
        assert 0 <= (got - edge) * outward <= side, (area, FELT_FLOOR)
    x0, y0, x1, y1 = FELT_FLOOR
    corners = [(x0 - 10, y0 - 10), (x1 + 10, y0 - 10), (x0 - 10, y1 + 10), (x1 + 10, y1 + 10)]
    for x, y in corners:  # in the box, on the wall of a rounded corner: not the floor
        assert area[0] <= x <= area[2] and area[1] <= y <= area[3]
        assert not inside(outline, x, y)
    assert inside(outline, 480, 320) and inside(outline, x0 + 5, (y0 + y1) / 2)


def test_calibrate_on_felt_keeps_the_outline_and_reads_only_inside_it(tmp_path, sprites,
                                                                     capsys):
    rng = np.random.default_rng(12)
    empty = felt_tray(rng, (40, 110, 30))
    later = with_die(empty, sprites[1], 480, 320, rng)
    video = tmp_path / "felt.avi"
    _record(video, [empty] * GRAB + [later] * GRAB)
    assert calibrate_main(["dice", "--camera", str(video)], ask=lambda _: "") == 0
    saved = _saved(tmp_path)
    assert saved["area_from"] == "tray floor" and len(saved["floor"]) >= 4
    assert "its floor's outline" in capsys.readouterr().out


def test_calibrate_names_a_tray_edge_that_looks_like_dice(tmp_path, sprites, capsys):
    """Dice-like marks along the floor's edge, in the empty tray too: the refusal says that
    the tray's edge looks like dice and where, not 'put exactly one die'."""
    rng = np.random.default_rng(13)
    empty = felt_tray(rng, (40, 110, 30))
    x0, y0, x1, y1 = FELT_FLOOR
    for sprite, x in zip(sprites[4:8], (300, 420, 560, 680), strict=True):
        paste(empty, sprite, x, y0 + 6, 0.0, 0.0)  # printed on the wall's foot
    later = with_die(empty, sprites[1], 480, 320, rng)
    video = tmp_path / "marks.avi"
    _record(video, [empty] * GRAB + [later] * GRAB)
    assert calibrate_main(["dice", "--camera", str(video)], ask=lambda _: "") == 1
    out = capsys.readouterr().out
    assert "The tray's edge looks like dice: in the empty tray I read" in out, out
    assert "exactly one die" not in out
