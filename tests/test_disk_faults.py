"""Real disk faults under a running game: an fdatasync that fails (EIO), a file size limit
(RLIMIT_FSIZE, as ``ulimit -f``), a tmpfs that fills, read-only storage (a read-only bind
mount), and a WAL file deleted under a running game. Each time the error is said and shown,
nothing that is not on disk is announced, the session takes no more input (and says so)
without ending in a traceback, and what is on disk still reads."""

from __future__ import annotations

import errno
import io
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion import journal as journal_module
from companion.games import find
from companion.journal import Journal
from companion.session import Session
from companion.voice import Announcer, ConsoleBackend, Recorder

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0


def _announcing(path: Path) -> tuple[Session, Announcer, io.StringIO]:
    out = io.StringIO()
    announcer = Announcer(lambda: ConsoleBackend(out), echo=None)
    game = find("snakes")(["Red", "Blue"], {})
    session = Session.start(game, Journal(path), announcer, seed=1)
    return session, announcer, out


def _said(announcer: Announcer, out: io.StringIO) -> list[str]:
    assert announcer.wait_idle(WAIT)
    return out.getvalue().splitlines()


def test_a_failing_fdatasync_is_said_and_nothing_after_it_is_announced(tmp_path, monkeypatch):
    path = tmp_path / "g.sqlite"
    session, announcer, out = _announcing(path)
    assert session.command("roll 3").accepted
    assert "Red throws three and moves to 3." in _said(announcer, out)

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal_module.os, "fdatasync", failing)
    session.command("roll 5")  # committed to SQLite, but the disk cannot make it durable
    lines = _said(announcer, out)
    assert not any("Blue throws five" in line for line in lines)  # never announced
    alert = [line for line in lines if line.startswith("I cannot save this game")]
    assert alert and "the disk reported an input/output error" in alert[0]
    assert session.stopped is not None
    reply = session.command("roll 2")
    assert not reply.accepted and "The game has stopped" in reply.text
    assert not any("moves to 2" in line for line in _said(announcer, out))
    assert session.command("quit").quit
    announcer.close()
    session.journal.close()


def test_a_failed_append_stops_the_game_and_every_later_input_is_refused(tmp_path,
                                                                        monkeypatch):
    path = tmp_path / "g.sqlite"
    session, announcer, out = _announcing(path)
    assert session.command("roll 3").accepted
    journal = session.journal

    class Full:
        def __init__(self, db):
            self.db = db

        @property
        def in_transaction(self):
            return self.db.in_transaction

        def execute(self, sql, *args):
            if sql.startswith("INSERT INTO entries"):
                import sqlite3

                err = sqlite3.OperationalError("database or disk is full")
                err.sqlite_errorname = "SQLITE_FULL"
                raise err
            return self.db.execute(sql, *args)

    monkeypatch.setattr(journal, "_db", Full(journal._db))
    for line in ["roll 5", "roll 9", "undo", "roll 4"]:  # refusals need the journal too
        reply = session.command(line)
        assert not reply.accepted
    lines = _said(announcer, out)
    assert any("I cannot save this game: the disk is full" in line for line in lines)
    assert sum("The game has stopped" in line for line in lines) == 3
    assert not any("Blue throws" in line for line in lines)
    monkeypatch.undo()
    announcer.close()
    journal.close()


def _companion(*args: str, stdin: str, env: dict[str, str] | None = None,
               limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], input=stdin, capture_output=True,
        text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, cwd=ROOT,
        timeout=WAIT, preexec_fn=limited)


def _throws(n: int) -> str:
    return "".join(f"roll {1 + i % 5}\n" for i in range(n))


def _entries(path: Path) -> int:
    journal = Journal(path, readonly=True)
    try:
        return sum(1 for _ in journal.entries())
    finally:
        journal.close()


def _check_stopped_run(proc: subprocess.CompletedProcess[str], path: Path, said: str) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert f"I cannot save this game: {said}" in proc.stdout
    assert "The game has stopped" in proc.stdout  # the inputs after it were refused aloud
    assert "the game stopped, as it could not be saved" in proc.stderr
    # nothing was announced that is not on disk: every move said has its entry
    throws = sum(" throws " in line for line in proc.stdout.splitlines())
    assert 0 < throws <= _entries(path)


def test_a_file_size_limit_stops_the_game_without_a_traceback(tmp_path):
    path = tmp_path / "g.sqlite"
    # ulimit -f: writes past 64 KiB fail with EFBIG (Python ignores SIGXFSZ)
    proc = _companion("play", "snakes", "--players", "Red,Blue", "--voice", "console",
                      "--seed", "1", "--journal", str(path),
                      stdin=_throws(2000) + "quit\n", limit=64 * 1024)
    _check_stopped_run(proc, path, "")
    state = _companion("state", "--json", "--journal", str(path), stdin="")
    assert state.returncode == 0, state.stderr


def _mount(*args: str) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount here ({result.stderr.strip() or 'not permitted'}); "
                    "this fault needs root or CAP_SYS_ADMIN")


@pytest.fixture
def mounts():
    made: list[Path] = []
    yield made
    for point in reversed(made):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_tmpfs_that_fills_stops_the_game_and_keeps_what_is_on_disk(tmp_path, mounts):
    disk = tmp_path / "disk"
    disk.mkdir()
    _mount("-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk))
    mounts.append(disk)
    with open(disk / "filler", "wb") as filler:  # leave about 130 KiB
        filler.write(b"\0" * (380 * 1024))
    path = disk / "g.sqlite"
    proc = _companion("play", "snakes", "--players", "Red,Blue", "--voice", "console",
                      "--seed", "1", "--journal", str(path),
                      stdin=_throws(3000) + "quit\n")
    _check_stopped_run(proc, path, "")
    assert "the disk is full" in proc.stdout or "input/output error" in proc.stdout
    (disk / "filler").unlink()  # space again: the game goes on from what was saved
    resumed = _companion("resume", "--voice", "console", "--journal", str(path),
                         stdin="roll 2\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming Snakes and Ladders" in resumed.stdout


def test_read_only_storage_gives_a_sentence_and_state_and_history_still_read(tmp_path,
                                                                             mounts):
    data = tmp_path / "data"
    games = data / "table-companion" / "games"
    env = {"XDG_DATA_HOME": str(data)}
    clean = games / "clean.sqlite"
    played = _companion("play", "snakes", "--players", "Red,Blue", "--voice", "silent",
                        "--journal", str(clean), stdin="roll 3\nroll 5\nquit\n", env=env)
    assert played.returncode == 0, played.stderr
    # a game killed while playing: its -wal and -shm are still there
    killed = games / "killed.sqlite"
    shutil.copyfile(clean, killed)
    shutil.copyfile(clean, tmp_path / "before")
    live = Journal(killed)
    session = Session.resume(live, Recorder())
    session.command("roll 4")
    live.wait_durable()
    for suffix in ("-wal", "-shm"):
        shutil.copyfile(f"{killed}{suffix}", tmp_path / suffix)
    live.close()
    shutil.copyfile(tmp_path / "before", killed)  # the game itself only in the WAL
    for suffix in ("-wal", "-shm"):
        shutil.copyfile(tmp_path / suffix, f"{killed}{suffix}")
    os.utime(clean, (1, 1))  # the killed game is the latest
    _mount("--bind", str(data), str(data))
    mounts.append(data)
    _mount("-o", "remount,bind,ro", str(data))
    assert not os.access(games, os.W_OK) or os.geteuid() == 0
    with pytest.raises(OSError):
        (games / "probe").write_text("x")

    state = _companion("state", "--json", stdin="", env=env)
    assert state.returncode == 0, state.stderr
    assert json.loads(state.stdout)["state"]["positions"] == [7, 5]  # roll 4: in the WAL
    for args in (["state", "--journal", str(clean)], ["history", "--journal", str(clean)],
                 ["history"]):
        result = _companion(*args, stdin="", env=env)
        assert result.returncode == 0, (args, result.stderr)
    resumed = _companion("resume", "--voice", "silent", stdin="quit\n", env=env)
    assert resumed.returncode == 2
    assert "killed.sqlite: the disk is read-only" in resumed.stderr
    assert "It can still be looked at: companion state --journal" in resumed.stderr
    play = _companion("play", "snakes", "--voice", "silent", stdin="quit\n", env=env)
    assert play.returncode == 2
    assert "the disk is read-only" in play.stderr
    for result in (state, resumed, play):
        assert "Traceback" not in result.stdout + result.stderr


def test_a_wal_deleted_under_a_running_game_is_noticed_and_the_game_kept(tmp_path):
    path = tmp_path / "g.sqlite"
    session, announcer, out = _announcing(path)
    assert session.command("roll 3").accepted
    assert session.journal.wait_checkpointed(WAIT)
    os.unlink(str(path) + "-wal")
    session.command("roll 5")
    lines = _said(announcer, out)
    assert not any("Blue throws five" in line for line in lines)
    assert any("was deleted while the game was being played" in line for line in lines)
    assert not session.command("roll 2").accepted
    announcer.close()
    session.journal.close()
    # closing checkpointed what SQLite still held of the deleted WAL into the file
    view = Journal(path, readonly=True)
    assert [e.payload.get("values") for e in view.entries()] == [[3], [5]]
    view.close()


_FAILING_SYNC = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* The disk breaks at the companion's (FAIL_SYNC_AFTER + 1)th fdatasync of its WAL (the
   syncer's, a read-only descriptor): that one and every sync after it fail with EIO. */
static int syncs, broken;
static int fail(int fd) {
    char link[64], name[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, name, sizeof name - 1);
    name[n > 0 ? n : 0] = 0;
    int wal = n > 4 && strcmp(name + n - 4, "-wal") == 0;
    if (!broken && wal && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY
        && ++syncs > atoi(getenv("FAIL_SYNC_AFTER")))
        broken = 1;
    if (broken) errno = EIO;
    return broken;
}
int fdatasync(int fd) {
    if (fail(fd)) return -1;
    return ((int (*)(int))dlsym(RTLD_NEXT, "fdatasync"))(fd);
}
int fsync(int fd) {
    if (fail(fd)) return -1;
    return ((int (*)(int))dlsym(RTLD_NEXT, "fsync"))(fd);
}
"""


def test_a_disk_whose_syncs_fail_under_a_real_companion_stops_it(tmp_path):
    """fsync and fdatasync failing with EIO in the C library (LD_PRELOAD) under a real
    ``companion play``, from the third throw's sync on: the first two throws are said, the
    third (committed, not durable) is not, the fourth is refused, and nothing ends in a
    traceback."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("no C compiler to build the failing fsync (LD_PRELOAD) with")
    source = tmp_path / "failsync.c"
    source.write_text(_FAILING_SYNC)
    library = tmp_path / "failsync.so"
    built = subprocess.run([gcc, "-shared", "-fPIC", "-o", str(library), str(source), "-ldl"],
                           capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip(f"cannot build the failing fsync: {built.stderr.strip()}")
    path = tmp_path / "g.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LD_PRELOAD": str(library),
           "FAIL_SYNC_AFTER": "4"}  # the new journal, its setup, throws one and two
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", "snakes", "--players", "Red,Blue",
         "--voice", "console", "--seed", "1", "--journal", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(iter(proc.stdout.readline, "")))
    reader.start()
    # each throw once the one before it is said (so on disk): one sync each
    for line, then in [("roll 3", "Red throws three"), ("roll 5", "Blue throws five"),
                       ("roll 2", "I cannot save this game")]:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        _wait_for(lambda then=then: any(s.startswith(then) for s in said), proc)
    proc.stdin.write("roll 4\nquit\n")
    proc.stdin.close()
    assert proc.wait(WAIT) == 1
    reader.join(WAIT)
    err = proc.stderr.read() if proc.stderr else ""
    out = "".join(said)
    assert "Traceback" not in out + err, err
    assert not any("Red throws two" in line for line in said)  # committed, never durable
    assert any(line.startswith("I cannot save this game: the disk reported an input/output "
                               "error") for line in said)
    assert any(line.startswith("The game has stopped") for line in said)  # the roll 4
    assert _committed(path) == 3


def _committed(path: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=WAIT)
        try:
            return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
        finally:
            db.close()
    except sqlite3.OperationalError:  # not created yet
        return 0


def _wait_for(condition, proc: subprocess.Popen) -> None:
    pause = threading.Event()
    for _ in range(int(WAIT / 0.01)):
        if condition() or proc.poll() is not None:
            return
        pause.wait(0.01)  # polling a condition, not timing anything
    proc.kill()
    raise AssertionError(f"the companion did not journal the input: {proc.communicate()}")
