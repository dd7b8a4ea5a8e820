"""The camera as an input source: ``--dice camera:0``, ``--cards camera:0``, ``camera:FILE.mp4``;
``camera:0?preview`` also shows what it reads in a window (vision/preview.py).

A reader thread pulls frames from OpenCV's VideoCapture (a device index or a recording) and
turns them into observations:

- dice: vision/motion.py's RestDetector (one DiceSeen per roll, once the dice rest and the
  reading is stable; nothing while they move; tray area from calibration), and a FloorWatch
  (vision/tray.py) that says once when the tray at rest no longer has its calibrated colour;
- cards: CardWatcher below (one CardSeen when a card has lain readable and unchanged for a few
  frames; again only after it has left the table).

Problems are spoken, not raised: a camera that cannot be opened or stops delivering frames
gives a DeviceError; a recording that ends gives DeviceStatus("disconnected").
"""

from __future__ import annotations

import json
import logging
import os
import select
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.config import user_config_dir
from companion.observations import CardSeen, DeviceError, DeviceStatus, Observation
from companion.sources import Emit
from vision.draw import draw_cards, draw_dice
from vision.preview import Preview, preview_problem
from vision.stillness import moved, small_grey
from vision.tray import FloorWatch

log = logging.getLogger("companion.vision")
CALIBRATION_FILE = "vision.json"
MAX_FAILED_READS = 30


def calibration_path() -> Path:
    return user_config_dir() / CALIBRATION_FILE


def load_calibration() -> dict[str, Any]:
    path = calibration_path()
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def save_calibration(role: str, values: dict[str, Any]) -> Path:
    data = load_calibration()
    data[role] = values
    path = calibration_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


DAMAGED = ("The dice calibration in {path} is damaged ({what}): I will look at the whole "
           "picture. Run companion calibrate dice again.")


def _numbers(value: Any, count: int) -> tuple[float, ...] | None:
    """``count`` numbers from a calibration value (the file is the user's to edit)."""
    try:
        numbers = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        return None
    return numbers if len(numbers) == count else None


def fit_calibration(calibration: dict[str, Any], width: int, height: int
                    ) -> tuple[tuple[float, float, float, float] | None, float | None,
                               str | None]:
    """The dice calibration's tray area and die size for pictures ``width`` x ``height``
    (0: unknown, taken as the calibrated size), and a sentence if it does not fit them.
    Calibrated at another size of the same shape (a camera set to another resolution): both
    scaled. Of another shape (the camera crops differently), or a value that is not what it
    should be: neither is used, and the sentence asks for a new calibration."""
    area = _numbers(calibration["area"], 4) if calibration.get("area") else None
    frame = _numbers(calibration["frame"], 2) if calibration.get("frame") else None
    die_size = _numbers([calibration["die_size"]], 1) if calibration.get("die_size") else None
    damaged = []
    if calibration.get("area") and not (area and area[0] < area[2] and area[1] < area[3]):
        damaged.append("tray area")
    if calibration.get("die_size") and not (die_size and die_size[0] > 0):
        damaged.append("die size")
    if calibration.get("frame") and not (frame and min(frame) > 0):
        damaged.append("frame")
    if damaged:
        return None, None, DAMAGED.format(path=CALIBRATION_FILE, what=", ".join(damaged))
    box = (area[0], area[1], area[2], area[3]) if area else None
    size = die_size[0] if die_size else None
    if not frame or not width or not height or (width, height) == frame:
        return box, size, None
    sx, sy = width / frame[0], height / frame[1]
    if abs(sx / sy - 1) > 0.01:
        return None, None, (f"The camera's picture is {width} by {height}, but the dice were "
                            f"calibrated at {frame[0]:.0f} by {frame[1]:.0f}: I will look at "
                            "the whole picture. Run companion calibrate dice again.")
    log.info("dice calibration made at %.0fx%.0f, scaled to %sx%s", *frame, width, height)
    scaled = (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy) if box else None
    return scaled, (size * sx if size else None), None


def fit_outline(calibration: dict[str, Any], width: int, height: int
                ) -> list[tuple[float, float]] | None:
    """The calibrated tray floor's outline (``floor``: points x, y) for pictures ``width`` x
    ``height``, scaled as fit_calibration scales the area; None without one, or when it is
    not three points or more, or when the picture's shape differs from the calibrated one."""
    points = calibration.get("floor")
    if not isinstance(points, list) or len(points) < 3:
        return None
    outline = [_numbers(p, 2) for p in points]
    if any(p is None for p in outline):
        log.warning("vision.json: the dice floor outline is not pairs of numbers; not used")
        return None
    frame = _numbers(calibration.get("frame") or (), 2)
    sx = sy = 1.0
    if frame and width and height and min(frame) > 0:
        sx, sy = width / frame[0], height / frame[1]
        if abs(sx / sy - 1) > 0.01:
            return None
    return [(p[0] * sx, p[1] * sy) for p in outline if p is not None]


def _floor_colour(calibration: dict[str, Any]) -> tuple[float, float, float] | None:
    """The calibrated floor colour; None if there is none (calibrated before colours were
    stored) or the file holds something else there."""
    colour = _numbers(calibration.get("floor_colour") or (), 3)
    if colour is None:
        if calibration.get("floor_colour"):
            log.warning("vision.json: floor_colour %r is not three numbers; not used",
                        calibration["floor_colour"])
        return None
    return colour[0], colour[1], colour[2]


# a refused outline whose centre moves more than this share of the picture's larger side
# from one frame to the next is a card on its way (slid in from the edge, under a hand), not
# one lying there unreadable: 2% is 26 pixels at 1280x720, where a card brought in moves
# about 60 a frame (bench camera's recording: it was refused 3 frames running as "cut by the
# edge" each time one came in, and the companion said so for every card)
STILL_SHARE = 0.02


def _refused_centre(seen: Any) -> tuple[float, float] | None:
    if not seen.refused:
        return None
    corners = seen.refused[0].corners
    return (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))


def _summary(seen: Any) -> tuple[tuple[str, ...], int, int]:
    return tuple(sorted(str(c.card) for c in seen.cards)), len(seen.refused), len(seen.face_down)


@dataclass
class CardWatcher:
    """Cards shown to the camera: each reported once when stable, again only after leaving;
    an outline that cannot be read, once it has lain still for as long.

    A table that stays still is not read again every frame: once ``stable`` readings in a
    row are the same, a frame that has not moved since the last one read takes that reading
    (as the next card is laid, the reader then has its whole time for it, instead of being
    a frame or more behind the camera); every ``recheck``-th such frame is read anyway."""

    read: Callable[[NDArray[Any]], Any]  # CardReader.read
    source: str = "camera"
    stable: int = 3
    recheck: int = 15  # half a second at 30 frames/s: a slow change of light is read in time

    def __post_init__(self) -> None:
        self._streak: dict[str, int] = {}
        self._absent: dict[str, int] = {}
        self._present: set[str] = set()
        self._refusing = 0
        self._refused_at: tuple[float, float] | None = None
        self._complained = False
        self._last: Any = None  # the last reading made, of the frame ``_read_at``
        self._read_at: NDArray[Any] | None = None
        self._same = 0  # readings in a row the same as the last
        self._kept = 0  # still frames since the last reading made
        self.readings = 0  # readings made (the rest were kept)

    def _reading(self, frame: NDArray[Any]) -> Any:
        """The reader's reading of ``frame``, or the last one where nothing has moved since
        it was read (compared with that frame, so that a card slid slowly is seen moving)."""
        small = small_grey(frame)
        if (self._same >= self.stable and self._kept + 1 < self.recheck
                and not moved(small, self._read_at)):
            self._kept += 1
            return self._last
        seen = self.read(frame)
        self.readings += 1
        same = self._last is not None and _summary(seen) == _summary(self._last)
        self._same = self._same + 1 if same else 1
        self._last, self._read_at, self._kept = seen, small, 0
        return seen

    def feed(self, frame: NDArray[Any]) -> list[Observation]:
        seen = self._reading(frame)
        out: list[Observation] = []
        now = {str(c.card): c for c in seen.cards}
        for name in list(self._streak):
            if name not in now:
                del self._streak[name]
        for name, card in now.items():
            self._streak[name] = self._streak.get(name, 0) + 1
            self._absent.pop(name, None)
            if self._streak[name] == self.stable and name not in self._present:
                self._present.add(name)
                out.append(CardSeen(source=self.source, confidence=card.confidence, card=name))
        for name in list(self._present):
            if name not in now:
                self._absent[name] = self._absent.get(name, 0) + 1
                if self._absent[name] >= self.stable:
                    self._present.discard(name)
                    del self._absent[name]
        centre = _refused_centre(seen)
        last, self._refused_at = self._refused_at, centre
        still = STILL_SHARE * max(frame.shape[:2])
        if centre is None:
            self._refusing = 0
        elif last is not None and max(abs(centre[0] - last[0]), abs(centre[1] - last[1])) <= still:
            self._refusing += 1
        else:  # the first refused frame, or the outline moved: a card on its way
            self._refusing = 1
        if self._refusing == self.stable and not self._complained:
            self._complained = True
            out.append(DeviceError(source=self.source, reason=seen.refused[0].reason))
        if not seen.refused:
            self._complained = False
        return out


def _warm_up(reader: Any, width: int, height: int,
             area: tuple[float, float, float, float] | None) -> None:
    """The reader's first reading paid before the first frame is due, not on the first throw
    or card (DiceReader.warm_up, CardReader.warm_up). A failure here is only logged: the
    frames will say it if it lasts."""
    if not (width and height):  # the camera did not say its size: the area's, or a guess
        width, height = (int(area[2]) + 1, int(area[3]) + 1) if area else (640, 480)
    try:
        reader.warm_up(width, height)
    except Exception:  # noqa: BLE001 - a warm-up must not stop the camera
        log.exception("the camera reader's warm-up failed")


class CameraSource:
    def __init__(self, target: str, role: str) -> None:
        if role not in ("dice", "cards"):
            raise ValueError(f"the camera reads dice or cards, not {role!r}")
        target, _, query = target.partition("?")  # camera:0?preview, as pyserial's URLs
        options = [o for o in query.split("&") if o]
        unknown = [o for o in options if o not in ("preview", "realtime")]
        if unknown:
            raise ValueError(f"unknown camera option {unknown[0]!r} (known: preview, realtime)")
        # a recording is read as fast as it decodes (a game rebuilt from a recording); with
        # ?realtime at its own frame rate, as a camera would send it (a demonstration, where
        # people answer the companion's questions between throws). A camera paces itself
        self.realtime = "realtime" in options and not target.isdigit()
        self._clock: Callable[[], float] = time.monotonic
        self.target = target
        self.role = role
        self.name = f"camera:{target}"
        self.preview: Preview | None = None
        if "preview" in options:
            draw = draw_dice if role == "dice" else draw_cards
            self.preview = Preview(f"Table Companion: {role} ({self.name})", draw)
        self._moving: Callable[[], bool] = lambda: False
        self.problem: str | None = None  # the calibration does not fit this camera's picture
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _use_learned(self, reader: Any, calibration: dict[str, Any]) -> None:
        """The layer calibrate dice learned for the players' dice, when it was learned on
        this model; otherwise the shipped one, and a sentence saying why (once)."""
        from vision.dice_learn import Learned, fingerprint, use

        stored = calibration.get("learned")
        if not isinstance(stored, dict):
            return
        fc = reader.net.params["fc"]
        try:
            learned = Learned.from_json(stored, (fc.shape[0], fc.shape[1] - 1))
        except (KeyError, TypeError, ValueError):
            learned = None
        if learned is None or learned.model != fingerprint(reader):
            why = "is damaged" if learned is None else "was learned on another dice model"
            self.problem = self.problem or (
                f"What calibrate dice learned of your dice in {CALIBRATION_FILE} {why}: I "
                "read them with the general model. Run companion calibrate dice again and "
                "type learn to teach me your dice.")
            return
        use(reader, learned)

    def _read_with_preview(self, read: Callable[[NDArray[Any]], Any],
                           shown: Callable[[Any], Any] | None = None
                           ) -> Callable[[NDArray[Any]], Any]:
        return self.preview.wrap(read, shown) if self.preview is not None else read

    def _watcher(self, width: int = 0, height: int = 0
                 ) -> Callable[[NDArray[Any]], list[Observation]]:
        calibration = load_calibration().get(self.role, {})
        if self.role == "dice":
            from vision.dice import DiceReader
            from vision.motion import RestDetector

            reader = DiceReader.load()
            area, die_size, self.problem = fit_calibration(calibration, width, height)
            if area is not None:
                reader.area = area
            if die_size:
                reader.calibrate(die_size)
                self._use_learned(reader, calibration)
            if area is not None:  # the floor's outline: dice outside it are not reported
                reader.floor = fit_outline(calibration, width, height)
            _warm_up(reader, width, height, area)
            # rank: the readings by count that the session chooses from when it knows the
            # throw's count (issue 15)
            detector = RestDetector(self._read_with_preview(reader.read_quick),
                                    source=self.name,
                                    area=area,
                                    rank=self._read_with_preview(reader.read_ranked,
                                                                 lambda r: r.dice))
            self._moving = lambda: detector.moving
            colour = _floor_colour(calibration)
            if area is None or colour is None:  # no area that fits, or no colour stored
                return detector.feed
            watch = FloorWatch(colour, area)

            def feed(frame: NDArray[Any]) -> list[Observation]:
                out = detector.feed(frame)
                sentence = None if detector.moving else watch.feed(frame)
                if sentence:  # said and logged by the session, as any device's problem
                    out = [*out, DeviceError(source=self.name, reason=sentence)]
                return out

            return feed
        from vision.cards import TEMPLATES_FILE, CardReader

        card_reader = CardReader.load()
        deck = calibration_path().with_name(TEMPLATES_FILE)
        if deck.is_file():
            try:
                with np.load(deck) as data:
                    misread = data["misread"] if "misread" in data.files else []
                    card_reader.learn(data["features"], [str(n) for n in data["names"]],
                                      tuple(str(n) for n in misread))
            except (OSError, ValueError, KeyError) as err:  # not an npz, or not ours
                log.warning("%s: %s", deck, err)
                self.problem = (f"The deck learned in {deck.name} is damaged: I read the cards "
                                "without it. Run companion calibrate cards again.")
        _warm_up(card_reader, width, height, None)
        watcher = CardWatcher(self._read_with_preview(card_reader.read), source=self.name)
        return watcher.feed

    def _open(self) -> cv2.VideoCapture:
        device: int | str = int(self.target) if self.target.isdigit() else self.target
        return cv2.VideoCapture(device)

    def start(self, emit: Emit) -> None:
        self._thread = threading.Thread(target=self._run, args=(emit,), daemon=True,
                                        name=self.name)
        self._thread.start()

    def _writer_ready(self, emit: Emit) -> bool:
        """A named pipe: say that it is waiting, until something writes to it (opening one
        for pictures would block, unheard and unstoppable, until then). False: closed first."""
        try:
            if not stat.S_ISFIFO(os.stat(self.target).st_mode):
                return True
        except OSError:
            return True  # not there: the capture says so
        emit(DeviceStatus(source=self.name, state="waiting", detail=(
            f"Waiting for pictures on the named pipe {self.target}: nothing writes to it yet.")))
        while not self._stop.is_set():
            fd = os.open(self.target, os.O_RDONLY | os.O_NONBLOCK)  # never blocks
            try:
                poller = select.poll()
                poller.register(fd, select.POLLIN)  # data, not just a writer: what is read
                while not self._stop.is_set():
                    events = poller.poll(200)
                    if any(mask & select.POLLIN for _, mask in events):
                        return True
                    if events:  # a writer came and went without a word: wait afresh
                        break
            finally:
                os.close(fd)
        return False

    def _run(self, emit: Emit) -> None:
        if not self.target.isdigit() and not self._writer_ready(emit):
            return
        capture = self._open()
        if not capture.isOpened():
            emit(DeviceError(source=self.name, reason=f"I cannot open the camera {self.target}"))
            return
        try:
            feed = self._watcher(int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
                                 int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        except (FileNotFoundError, ValueError) as err:
            emit(DeviceError(source=self.name, reason=str(err)))
            capture.release()
            return
        watching = (f"Camera {self.target} is watching the {self.role}."
                    if self.target.isdigit() else
                    f"Playing the recording {Path(self.target).name} for the {self.role}.")
        emit(DeviceStatus(source=self.name, state="connected", detail=watching))
        if self.problem:
            emit(DeviceError(source=self.name, reason=self.problem))
        if self.preview is not None:
            problem = preview_problem()
            if problem:
                log.warning("no preview window: %s", problem)
                print(f"warning: no preview window: {problem}", file=sys.stderr)
                self.preview = None
        failures = 0
        reader_failed = False
        fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
        started, frames = self._clock(), 0
        try:
            while not self._stop.is_set():
                if self.realtime:  # the next frame is due frames / fps after the first
                    due = started + frames / fps - self._clock()
                    if due > 0 and self._stop.wait(due):
                        return
                    frames += 1
                ok, frame = capture.read()
                if not ok or frame is None:
                    if not self.target.isdigit():  # a recording has ended
                        emit(DeviceStatus(source=self.name, state="disconnected",
                                          detail="end of recording"))
                        return
                    failures += 1
                    if failures == MAX_FAILED_READS:
                        emit(DeviceError(source=self.name,
                                         reason="the camera stopped sending pictures"))
                    continue
                failures = 0
                try:
                    observations = feed(frame)
                except Exception as err:  # noqa: BLE001 - a reader's fault must not stop the camera
                    # said once per run of failing pictures, the traceback logged each time
                    log.exception("the %s reader failed on a picture", self.role)
                    if not reader_failed:
                        emit(DeviceError(source=self.name, reason=(
                            f"The {self.role} reader failed on a picture ({err}); I go on "
                            "with the next ones.")))
                    reader_failed = True
                    continue
                reader_failed = False
                for observation in observations:
                    emit(observation)
                if self.preview is not None:
                    self.preview.show(frame, "moving" if self._moving() else "")
        finally:
            capture.release()
            if self.preview is not None:
                self.preview.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)


def open_source(target: str, role: str) -> CameraSource:
    if not target:
        raise ValueError("say which camera: camera:0, or camera:FILE.mp4 for a recording")
    return CameraSource(target, role)
