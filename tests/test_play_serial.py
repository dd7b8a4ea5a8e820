"""End to end as a user runs it: `companion emulate`, and `companion play --dice serial:`."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from companion.observations import CardSeen, DiceSeen
from devices.emulator import PtyDevice
from devices.serial_source import SerialSource
from tests.test_crash_resume import wait_for_entries

WAIT = 30.0
ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_companion_emulate_sends_typed_lines_to_a_reader():
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "emulate"], cwd=ROOT, env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    path = proc.stdout.readline().strip()
    assert path.startswith("/dev/")
    source = SerialSource(path)
    seen: queue.Queue = queue.Queue()
    source.start(seen.put)
    try:
        assert source.connected.wait(WAIT)
        proc.stdin.write("4 2\nCARD 5h\n")
        proc.stdin.flush()
        got = []
        while len(got) < 2:
            obs = seen.get(timeout=WAIT)
            if isinstance(obs, DiceSeen | CardSeen):
                got.append(obs)
        assert got[0].values == (4, 2) and got[1].card == "5H"
    finally:
        source.close()
        proc.stdin.close()
        assert proc.wait(WAIT) == 0


def test_play_reads_throws_from_a_serial_device(tmp_path):
    device = PtyDevice()
    journal = tmp_path / "g.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", "snakes", "--players", "Red,Blue",
         "--voice", "console", "--journal", str(journal), "--dice", f"serial:{device.path}"],
        cwd=ROOT, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    out: list[str] = []
    try:
        # Opening a port flushes its input, so greet until the companion has heard us.
        heard = False
        for _ in range(int(WAIT / 0.2)):
            device.send_line("HELLO 1 Test tray")
            try:
                while not heard:
                    out.append(lines.get(timeout=0.2))
                    heard = "Test tray is connected." in out[-1]
            except queue.Empty:
                continue
            break
        assert heard
        device.send_line("DICE 3")
        device.send_line("DICE 7")  # a device error: said, never journaled
        device.send_line("DICE 5 @Red")  # Blue's turn: refused and journaled
        device.send_line("DICE 5")
        wait_for_entries(journal, 3, proc)
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(WAIT) == 0
    finally:
        device.close()
        if proc.poll() is None:
            proc.kill()
    while not lines.empty():
        out.append(lines.get())
    text = "".join(out)
    assert "Red throws three" in text and "die value 7 is out of range" in text
    assert "Red, it is Blue's turn" in text and "Blue throws five" in text
    state = subprocess.run([sys.executable, "-m", "companion.cli", "state", "--json",
                            "--journal", str(journal)], cwd=ROOT, env=ENV, capture_output=True,
                           text=True, check=True, timeout=WAIT)
    assert json.loads(state.stdout)["state"]["positions"] == [3, 5]
