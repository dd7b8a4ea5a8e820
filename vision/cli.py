"""``companion read dice|cards IMAGE... [--json]`` and ``companion calibrate dice|cards``.

read: prints, per image, the dice values (or cards) read, or with --json one object per image
(documented in docs/json/vision.md). Exit status 1 if any image could not be opened.
``--annotate DIR`` also writes each picture with what was read drawn on it (vision/draw.py).

calibrate: a short guided set-up from the camera (headless: prompts on the terminal).
- dice: clear the tray, then put one die in it: learns the tray area (the floor around the
  die, which is what changed between the two pictures: vision/tray.py; the frame minus a
  margin if no floor is found; --area x0,y0,x1,y1 sets it) and the die's size in pixels;
  then, if asked to, a few throws of the players' own dice whose values the player confirms
  or types: the reader adapts to them (vision/dice_learn.py) and says what it learned.
- cards: first cards laid out together that the model reads surely (the user confirms the
  list), then each other card of the deck shown alone, face up; learns the deck's corner
  indices (both corners of each card) and which readings the model gave wrongly for it,
  used from then on beside the general model.
Stored in ``user_config_dir()/vision.json`` and used by ``--dice camera:0`` / ``--cards ...``.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from companion.cards import FULL_DECK
from vision.draw import draw_cards, draw_dice
from vision.picture import unreadable
from vision.tray import Area

log = logging.getLogger("companion.vision")


def read_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion read",
                                     description="Read dice or cards in photos.")
    parser.add_argument("what", choices=("dice", "cards"))
    parser.add_argument("images", nargs="+")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--annotate", metavar="DIR", type=Path,
                        help="also write each picture with what was read drawn on it, as "
                        "DIR/NAME.read.png")
    parser.add_argument("--count", type=int, metavar="N",
                        help="dice: each picture holds N dice (1 to 6): the reading of N dice, "
                        "as the game takes a throw whose count it knows")
    args = parser.parse_args(argv)
    if args.count is not None and not (args.what == "dice" and 1 <= args.count <= 6):
        parser.error("--count is for dice, 1 to 6")
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    reader: Any
    if args.what == "dice":
        from vision.dice import DiceReader

        reader = DiceReader.load()
    else:
        from vision.cards import CardReader

        reader = CardReader.load()
    results: list[dict[str, Any]] = []
    status = 0
    for path in args.images:
        image, why = load_image(Path(path))
        if image is None:
            status = 1
            # the JSON keeps one stable message; the terminal says which failure it was
            results.append({"image": path, "error": "cannot open this file as an image"})
            log.warning("%s: cannot open this file as an image (%s)", path, why)
            if not args.json:
                print(f"{path}: cannot open this file as an image ({why})", file=sys.stderr)
            continue
        if args.what == "dice":
            dice, found = _read_dice(reader, image, args.count)
            _annotate(args.annotate, path, draw_dice(image, dice) if args.annotate else None)
            results.append({"image": path, "dice": [d.to_json() for d in dice]})
            if args.count is not None:
                results[-1]["count_found"] = found
            if not args.json:
                values = " ".join(str(d.value) for d in dice) or "no dice"
                unsure = sum(1 for d in dice if d.confidence < 0.9)
                note = f" ({unsure} unsure)" if unsure else ""
                if not found:
                    note += f" (fewer than {args.count} plausible dice)"
                print(f"{path}: {values}{note}")
        else:
            seen = reader.read(image)
            _annotate(args.annotate, path, draw_cards(image, seen) if args.annotate else None)
            results.append({"image": path, "cards": [c.to_json() for c in seen.cards],
                            "refused": [r.to_json() for r in seen.refused],
                            "face_down": [r.to_json()["corners"] for r in seen.face_down]})
            if not args.json:
                names = " ".join(str(c.card) for c in seen.cards) or "no cards"
                refused = f"; {len(seen.refused)} refused: {seen.refused[0].reason}" \
                    if seen.refused else ""
                down = f"; {len(seen.face_down)} face down" if seen.face_down else ""
                print(f"{path}: {names}{refused}{down}")
    if args.json:
        json.dump({"images": results}, sys.stdout, indent=2)
        print()
    return status


def _read_dice(reader: Any, image: np.ndarray, count: int | None) -> tuple[list[Any], bool]:
    """The dice read, and whether there were ``count`` plausible ones: with a count, the
    reading of that many dice (the dice accepted when there are fewer plausible)."""
    if count is None:
        return reader.read(image), True
    ranked = reader.read_ranked(image, count)
    chosen = dict(ranked.by_count(count)).get(count)
    return (list(chosen), True) if chosen is not None else (ranked.dice, False)


def load_image(path: Path) -> tuple[np.ndarray | None, str]:
    """A colour image and "", or None and why not. The bytes are read here and decoded by
    OpenCV: cv2.imread would print its own warning to stderr for a missing file."""
    try:
        data = np.fromfile(path, np.uint8)
    except FileNotFoundError:
        return None, "no such file"
    except IsADirectoryError:
        return None, "a folder, not a file"
    except OSError as err:
        return None, err.strerror or str(err)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        return None, "not a picture OpenCV can decode"
    why = unreadable(image)  # the readers would refuse it: said here, per picture
    return (None, why) if why else (image, "")


def _annotate(folder: Path | None, path: str, drawn: np.ndarray | None) -> None:
    if folder is not None and drawn is not None:
        out = folder / f"{Path(path).stem}.read.png"
        if not cv2.imwrite(str(out), drawn):
            _refuse(f"{path}: cannot write {out}", sys.stderr)


def _refuse(text: str, stream: TextIO | None = None) -> None:
    """What the set-up or a reading refuses: said on the terminal (standard output unless
    ``stream``) and in the log."""
    log.warning("%s", text.strip())
    print(text, file=stream)


class _Camera:
    """One capture held open across the set-up's steps: a webcam keeps its exposure, and a
    recording goes on where the last step stopped."""

    def __init__(self, camera: str) -> None:
        self.capture = cv2.VideoCapture(int(camera) if camera.isdigit() else camera)

    def grab(self, count: int) -> list[np.ndarray]:
        """The next ``count`` frames (fewer at a recording's end). A webcam's first ones can
        be old pictures still in its buffer: the set-up uses the last."""
        frames: list[np.ndarray] = []
        while len(frames) < count:
            ok, frame = self.capture.read()
            if not ok:
                break
            frames.append(frame)
        return frames

    def close(self) -> None:
        self.capture.release()


GRAB = 8  # frames read at each step (more than a webcam buffers)


def calibrate_main(argv: list[str], ask: Callable[[str], str] = input) -> int:
    parser = argparse.ArgumentParser(prog="companion calibrate",
                                     description="Guided camera set-up for dice or cards.")
    parser.add_argument("what", choices=("dice", "cards"))
    parser.add_argument("--camera", default="0", help="device index or a video file")
    parser.add_argument("--area", help="tray area x0,y0,x1,y1 in pixels (dice)")
    args = parser.parse_args(argv)
    area: Area | None = None
    if args.what == "dice" and args.area:
        try:
            x0, y0, x1, y1 = (float(v) for v in args.area.split(","))
        except ValueError:  # not numbers, or not four of them
            x0 = y0 = x1 = y1 = 0.0
        if x0 >= x1 or y0 >= y1:
            _refuse("--area must be x0,y0,x1,y1 with x0 < x1 and y0 < y1.")
            return 2
        area = (x0, y0, x1, y1)
    steps = ("to clear the tray, then to put one die in it" if args.what == "dice"
             else "to lay out cards")
    if ask is input and not sys.stdin.isatty():  # it waits for Enter after each step
        _refuse(f"companion calibrate {args.what} asks you {steps}, and waits for Enter after "
                "each step: run it in a terminal (its input here is not one).", sys.stderr)
        return 2
    camera = _Camera(args.camera)
    try:
        if args.what == "dice":
            return _calibrate_dice(camera, args.camera, area, ask)
        return _calibrate_cards(camera, args.camera, ask)
    except EOFError:  # the terminal's input ended (Ctrl-D) in the middle
        _refuse("The set-up stopped: its input ended before the steps were done. Nothing was "
                "saved.", sys.stderr)
        return 2
    finally:
        camera.close()


def _calibrate_dice(camera: _Camera, name: str, area: Area | None,
                    ask: Callable[[str], str]) -> int:
    """The empty tray, then one die in it: the die is what changed, the tray floor is the
    region around it (vision/tray.py: its box is the area searched, its outline the floor),
    and the die's size is read there. Then the empty tray is read at that size: whatever
    is read there is the tray looking like dice, and the refusal says where."""
    from vision.dice import CALIBRATION_ACCEPT, DiceReader
    from vision.source import save_calibration
    from vision.tray import changed_spot, floor_colour, floor_region, floor_region_from_dice

    ask("Clear the tray, so that no die is in it, then press Enter. ")
    empty = camera.grab(GRAB)
    ask("Put one die in the middle of the tray, then press Enter. ")
    later = camera.grab(GRAB)
    if not empty or not later:
        _refuse(f"I cannot read pictures from camera {name}.")
        return 1
    h, w = later[-1].shape[:2]
    spot = changed_spot(empty[-1], later[-1])
    found, outline = "given", None
    if area is None and spot is not None:
        region = floor_region(empty[-1], *spot)
        if region is not None:
            (area, outline), found = region, "tray floor"
    reader = DiceReader.load()
    reader.accept = min(reader.accept, CALIBRATION_ACCEPT)
    # the one die and the empty tray's ghosts are read by the first network alone: the
    # calibration's bar (CALIBRATION_ACCEPT) was chosen for it, and the shipped pair's
    # partner (learned from scratch) reads a printed tray rim as dice at that bar
    pair, reader.net = reader.net, reader.net.alone
    if area is None:
        # no change seen (the die was in both pictures), or no floor around it: the die read
        # in the whole frame, and the floor around it once it is painted over
        margin = 0.03
        area, found = (w * margin, h * margin, w * (1 - margin), h * (1 - margin)), "frame"
        reader.area = area
        region = floor_region_from_dice(later[-1], reader.read(later[-1]))
        if region is not None:
            (area, outline), found = region, "tray floor"
        else:
            _refuse("I could not find the tray's floor, so I will look at the whole picture "
                    "(--area x0,y0,x1,y1 sets the tray area).")
    reader.area, reader.floor = area, outline
    dice = reader.read(later[-1])
    die = _the_die(dice, spot)
    if die is None:
        if not dice:
            _refuse("I cannot see the die in the tray; put one die in the middle of the tray, "
                    "in good light, and try again.")
        else:
            _refuse(f"I see {len(dice)} dice and cannot tell which one was put in; put "
                    "exactly one die in the tray and try again.")
        return 1
    reader.calibrate(die.size)
    if spot is not None:  # a truly empty picture: what is read there is the tray itself
        ghosts = reader.read(empty[-1])
        if ghosts:
            _refuse(_ghosts_sentence(ghosts, outline, area, die.size))
            return 1
    # the empty tray's floor; with the die in both pictures the median does not see it
    colour = floor_colour(empty[-1], area)
    settings: dict[str, object] = {"area": [round(v, 1) for v in area], "area_from": found,
                                   "die_size": round(die.size, 1),
                                   "floor_colour": list(colour), "frame": [w, h]}
    if outline is not None:
        settings["floor"] = [[round(x, 1), round(y, 1)] for x, y in outline]
    path = save_calibration("dice", settings)
    shape = f", its floor's outline {len(outline)} corners" if outline else ""
    print(f"Saved: tray area {[round(v) for v in area]} ({found}){shape}, die size "
          f"{die.size:.0f} pixels, floor colour (Lab) {[round(v) for v in colour]} "
          f"-> {path}")
    try:
        answer = ask("To teach me your own dice from a few throws, type learn and press "
                     "Enter; press Enter to finish. ")
    except EOFError:  # the input ended after the set-up was saved: as Enter
        return 0
    if answer.strip().lower() in ("learn", "l", "yes", "y"):
        reader.net = pair  # the players' throws are read as a game reads them
        try:
            learned = _learn_dice(camera, reader, die.size, ask)
        except EOFError:
            _refuse("The input ended while I was learning your dice: the tray and the die "
                    "size are saved, your dice are not learned.", sys.stderr)
            return 2
        if learned is not None:
            settings["learned"] = learned
            save_calibration("dice", settings)
    return 0


THROWS = 10  # throws shown at most when learning the players' dice (done stops earlier)


def _learn_dice(camera: _Camera, reader: Any, die_size: float,
                ask: Callable[[str], str]) -> dict[str, Any] | None:
    """A few throws of the players' dice, each read and confirmed (or corrected) by the
    player, who can also say how many dice there are when the reader missed one; the reader
    learns from them (vision/dice_learn.py) and says what it learned. The learned layer as
    stored in vision.json, or None when nothing could be learned."""
    from vision.dice_learn import Throw, describe, learn, use

    throws: list[Throw] = []
    before = added = 0
    for number in range(1, THROWS + 1):
        reply = ask(f"Throw {number} of up to {THROWS}: throw your dice in the tray, let them "
                    "rest, then press Enter (type done when you have shown enough). ")
        if reply.strip().lower() == "done":
            break
        frames = camera.grab(GRAB)
        if not frames:
            _refuse("I cannot read more pictures from the camera, so I stop here.")
            break
        confirmed = _confirm_throw(reader, frames[-1], ask)
        if confirmed is None:
            continue
        dice, values, more = confirmed
        added += sum(1 for d, v in zip(dice, values, strict=True) if v and d in more)
        before += sum(1 for d, v in zip(dice, values, strict=True) if v and d.value == v)
        throws.append(Throw(frames[-1], [(d.x, d.y, v) for d, v in zip(dice, values,
                                                                          strict=True)]))
    try:
        learned = learn(reader, throws)
    except ValueError:
        _refuse("I was shown no die to learn from, so your dice will be read as before.")
        return None
    learned.added = added
    use(reader, learned)
    after = 0
    for throw in throws:
        for die in reader.read(throw.image):
            after += any(v and v == die.value and np.hypot(die.x - x, die.y - y) < die_size / 2
                         for x, y, v in throw.dice)
    print(describe(learned, die_size, before, after))
    return learned.to_json()


def _confirm_throw(reader: Any, frame: Any, ask: Callable[[str], str]
                   ) -> tuple[list[Any], list[int], list[Any]] | None:
    """The dice of one throw, their values as the player confirmed them, and the dice added
    because the player first said how many dice there are ("count 4": the reader adds the
    dice it missed, vision/dice_learn.py missed_dice). None when the throw is left out."""
    from vision.dice_learn import missed_dice

    dice = sorted(reader.read(frame), key=lambda d: (d.x, d.y))
    counted = False
    more: list[Any] = []
    if not dice:  # every die missed: the player's count is the only way to show them
        typed = ask("I see no dice in the tray. If there are dice, type how many, as in: "
                    "count 2; or press Enter to throw again. ").strip()
        count = _count(typed)
        more = missed_dice(reader, frame, [], count) if count else []
        if not more:
            _refuse("I find nothing there that could be a die; throw them again."
                    if count else "This throw is left out; throw them again.")
            return None
        counted = True
        dice = sorted(more, key=lambda d: (d.x, d.y))
        print(f"I looked again and found {len(more)} (read as {_values_of(more)}).")
    while True:
        print(f"I read {len(dice)} dice, left to right: {_values_of(dice)}.")
        hint = "" if counted else (" If I missed a die, type how many dice you see, as in: "
                                   "count 4.")
        typed = ask("Type their values left to right (0 for one that is not a die), or "
                    f"press Enter if they are right.{hint} ").strip()
        count = None if counted else _count(typed)
        if count is None:
            break
        counted = True
        more = missed_dice(reader, frame, dice, count)
        if not more:
            why = (f"I read {len(dice)} already" if count <= len(dice) else
                   "I find nothing else there that could be a die")
            print(f"{why}; give the values of the dice I read.")
            continue
        dice = sorted(dice + more, key=lambda d: (d.x, d.y))
        print(f"I looked again and added {len(more)} I had missed (read as {_values_of(more)}).")
    values = [d.value for d in dice] if not typed else _values(typed)
    if values is None or len(values) != len(dice):
        _refuse(f"I need {len(dice)} values from 0 to 6, one for each die I read, left to "
                "right; this throw is left out.")
        return None
    return dice, values, more


def _values_of(dice: list[Any]) -> str:
    return " ".join(str(d.value) for d in dice)


def _count(typed: str) -> int | None:
    """The number of dice the player counts ("count 4", "I count 4 dice", "4 dice"), or
    None when the answer is not a count."""
    match = re.fullmatch(r"(?:i\s+)?(?:count|see)\s*(\d{1,2})(?:\s+dice)?|(\d{1,2})\s+dice",
                         typed.strip().lower())
    if match is None:
        return None
    return int(match.group(1) or match.group(2))


def _values(typed: str) -> list[int] | None:
    """Die values typed by the player ("3 5 1", "3,5,1" or "351"), 0 for not a die."""
    digits = typed.replace(",", " ").split()
    if len(digits) == 1 and len(digits[0]) > 1:
        digits = list(digits[0])
    if not all(d.isdigit() and int(d) <= 6 for d in digits):
        return None
    return [int(d) for d in digits]


def _the_die(dice: list[Any], spot: tuple[float, float, float] | None) -> Any:
    """The die put in: the reading at the spot that changed (others are the tray looking
    like dice, found again in the empty picture), or the only reading without a spot."""
    if spot is None:
        return dice[0] if len(dice) == 1 else None
    x, y, side = spot
    near = [d for d in dice if np.hypot(d.x - x, d.y - y) < max(side, d.size)]
    return min(near, key=lambda d: np.hypot(d.x - x, d.y - y)) if near else None


def _ghosts_sentence(ghosts: list[Any], outline: list[tuple[float, float]] | None,
                     area: Area, die_size: float) -> str:
    """Why the calibration is refused when the empty tray reads as dice: on the floor's
    edge (a wall, a rim, a seam along it) or on the floor itself (its pattern)."""
    from vision.tray import edge_distance

    x0, y0, x1, y1 = area
    shape = outline or [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    on_edge = [g for g in ghosts if edge_distance(shape, g.x, g.y) < 1.5 * die_size]
    where = "; ".join(f"{g.x:.0f},{g.y:.0f}" for g in ghosts[:4])
    count = f"{len(ghosts)} {'die' if len(ghosts) == 1 else 'dice'}"
    if len(on_edge) * 2 >= len(ghosts):
        return (f"The tray's edge looks like dice: in the empty tray I read {count} along "
                f"its edge (near {where}). Set the tray area inside the edge with --area "
                "x0,y0,x1,y1, or cover the edge, and try again.")
    return (f"The tray's floor looks like dice: in the empty tray I read {count} on it "
            f"(near {where}). A plainer cloth or more even light helps; then try again.")


def _calibrate_cards(camera: _Camera, name: str, ask: Callable[[str], str]) -> int:
    """Learn the user's deck: first cards laid out together that the model reads surely
    (the user confirms the list), then each other card shown alone. For a standard
    English-index deck most cards are read surely, so few are shown one by one."""
    from vision.cards import TEMPLATES_FILE, CardReader, corner_features
    from vision.source import calibration_path, save_calibration

    reader = CardReader.load()
    misread: dict[str, str] = {}
    features: list[np.ndarray] = []
    names: list[str] = []
    print("I will learn your deck. Show the cards face up, apart from each other, fully in "
          "the picture.")
    sure_read: set[str] = set()
    while len(sure_read) < len(FULL_DECK):
        answer = ask("Lay out several cards face up (as many as fit, apart), then press "
                     "Enter; or type n to show the cards one by one. ")
        if answer.strip().lower() in ("n", "q"):
            break
        frames = camera.grab(GRAB)
        if not frames:
            _refuse(f"I cannot read pictures from camera {name}.")
            return 1
        laid = reader.read(frames[-1])
        sure = [c for c in laid.cards if c.confidence >= 0.9 and str(c.card) not in sure_read]
        if not sure:
            print("  I read none of them surely; show them one by one.")
            break
        listed = " ".join(str(c.card) for c in sure)
        if ask(f"  I read {listed}. Is that right? (y/n) ").strip().lower() not in ("y", "yes",
                                                                                  ""):
            print("  Then I will ask for them one by one.")
            break
        for one in sure:
            face = _face_of(reader, frames[-1], one.corners)
            if face is not None:
                features += [corner_features(face),
                             corner_features(np.ascontiguousarray(face[::-1, ::-1]))]
                names += [str(one.card)] * 2
            sure_read.add(str(one.card))
        print(f"  {len(sure_read)} of 52 cards known.")
    for card in FULL_DECK:
        if str(card) in sure_read:
            continue
        answer = ask(f"Show the {card.name} alone, face up, then press Enter "
                     "(s skips it, q stops). ").strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        frames = camera.grab(GRAB)
        if not frames:
            _refuse(f"I cannot read pictures from camera {name}.")
            return 1
        corners = reader.corners_of_single_card(frames[-1])
        if corners is None:
            _refuse("  I do not see exactly one card face up; skipped.")
            continue
        seen = reader.read(frames[-1]).cards
        if seen and str(seen[0].card) != str(card):
            misread[str(card)] = str(seen[0].card)
            print(f"  Learned (without calibration I read {seen[0].card}).")
        elif seen and seen[0].confidence >= 0.9:
            print(f"  I read it already ({seen[0].confidence:.2f}); learned its look too.")
        else:
            print("  Learned.")
        features.extend(corners)
        names.extend([str(card)] * len(corners))
    if not features:
        _refuse("No card learned.")
        return 1
    deck = calibration_path().with_name(TEMPLATES_FILE)
    deck.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(deck, features=np.array(features, np.float32), names=np.array(names),
                        misread=np.array(sorted(set(misread.values())), dtype=str))
    path = save_calibration("cards", {"deck": deck.name, "cards": len(set(names)),
                                      "misread_before": misread})
    wrong = f"; {len(misread)} I read wrongly before" if misread else ""
    print(f"Saved {len(set(names))} cards of this deck{wrong} -> {deck}; {path}")
    return 0


def _face_of(reader: Any, image: np.ndarray,
             corners: tuple[tuple[float, float], ...]) -> np.ndarray | None:
    """The upright face of the card read at ``corners``."""
    quads, found, _, _, _ = reader.faces(image)
    centre = np.array(corners).mean(axis=0)
    for quad, face in zip(quads, found, strict=True):
        if np.linalg.norm(quad.mean(axis=0) - centre) < 5:
            out: np.ndarray = face
            return out
    return None
