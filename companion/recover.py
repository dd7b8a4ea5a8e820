"""Reading a damaged journal's rows straight from its pages, for ``resume --salvage``.

When SQLite itself cannot open a journal (a damaged header or schema page) or stops part way
(a damaged interior page), the rows are often still there in the table leaf pages of the
database file and of its WAL. This reads every page image it finds as a table leaf and
decodes its cells (the SQLite file format, sqlite.org/fileformat.html); the entries' hash
chain then decides which rows are genuine, so no guessed row can enter a salvaged game.
Only rows are read here; checking them is the journal's (journal.salvage_rows).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

_LEAF = 0x0D
_WAL_MAGIC = (0x377F0682, 0x377F0683)


@dataclass
class Rows:
    """What the pages hold: meta values by key and entry rows by seq, each with every
    version found (oldest first), as stored: text, numbers, None."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    entries: dict[int, list[tuple[Any, ...]]] = field(default_factory=dict)


def read_rows(path: str, *, carve: bool = False) -> Rows:
    """Every meta and entry row in the database file and its WAL, damaged or not.
    ``carve``: also look for cells at every offset of every page (slow), for rows whose
    cell pointer is damaged."""
    try:
        with open(path, "rb") as f:
            db = f.read()
    except OSError:
        db = b""
    try:
        with open(path + "-wal", "rb") as f:
            wal = f.read()
    except OSError:
        wal = b""
    size = _page_size(db, wal)
    images: list[tuple[int, bytes]] = [
        (i // size + 1, db[i : i + size]) for i in range(0, len(db) - size + 1, size)]
    images += list(_wal_frames(wal, size))
    latest = dict(images)  # page number -> its newest image (for overflow chains)
    rows = Rows()
    for number, page in images:
        failed: list[bool] = []
        for rowid, values in _page_cells(page, number, size, latest, failed):
            _classify(rows, rowid, values)
        head = page[100 if number == 1 else 0] if page else 0
        if carve and (failed or head not in (0x02, 0x05, 0x0A, _LEAF)):  # a damaged page
            for rowid, values in _carved(page, size, latest):
                _classify(rows, rowid, values)
    return rows


def _carved(page: bytes, size: int, latest: dict[int, bytes]) -> Iterator[tuple[int, list[Any]]]:
    """Cells found by trying every offset: a record header of the size a meta row (3) or an
    entry row (8 or 9 bytes) has, two varints before it."""
    for at in range(len(page) - 4):
        try:
            payload_size, i = _varint(page, at)
            rowid, i = _varint(page, i)
            if page[i] not in (3, 8, 9) or not 0 < payload_size < 1 << 24:
                continue
            yield rowid, _record(_payload(page, i, payload_size, size, latest))
        except (IndexError, ValueError, struct.error, UnicodeDecodeError):
            continue


def _page_size(db: bytes, wal: bytes) -> int:
    candidates = []
    if len(db) >= 18:
        raw = struct.unpack(">H", db[16:18])[0]
        candidates.append(65536 if raw == 1 else raw)
    if len(wal) >= 12:
        candidates.append(struct.unpack(">I", wal[8:12])[0])
    for size in candidates:
        if 512 <= size <= 65536 and size & (size - 1) == 0:
            return size
    return 4096


def _wal_frames(wal: bytes, size: int) -> Iterator[tuple[int, bytes]]:
    if len(wal) < 32:
        return
    offset = 32
    while offset + 24 + size <= len(wal):
        (number,) = struct.unpack(">I", wal[offset : offset + 4])
        if number:
            yield number, wal[offset + 24 : offset + 24 + size]
        offset += 24 + size


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    for n in range(9):
        byte = data[i + n]
        if n == 8:
            return (value << 8) | byte, i + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, i + n + 1
    raise IndexError


_DECODED: dict[tuple[bytes, int], list[tuple[int, list[Any]]]] = {}  # pages without overflow


def _page_cells(page: bytes, number: int, size: int, latest: dict[int, bytes],
                failed: list[bool]) -> list[tuple[int, list[Any]]]:
    """_cells, remembered for pages whose cells are all on the page (a salvage tried again,
    or another copy of the same journal, decodes each page once)."""
    key = (page, number)
    if key in _DECODED:
        return _DECODED[key]
    overflow: list[bool] = []
    cells = list(_cells(page, number, size, latest, failed, overflow))
    if not overflow and not failed:
        if len(_DECODED) > 4096:
            _DECODED.clear()
        _DECODED[key] = cells
    return cells


def _cells(page: bytes, number: int, size: int, latest: dict[int, bytes],
           failed: list[bool], overflow: list[bool]) -> Iterator[tuple[int, list[Any]]]:
    """The rows of a table leaf page by its cell pointers; ``failed`` gets an item for each
    cell that does not decode, ``overflow`` for each that goes on in other pages."""
    head = 100 if number == 1 else 0
    if len(page) < head + 8:
        return
    # A damaged type byte is tried as a leaf anyway: its rows must still pass the chain.
    (count,) = struct.unpack(">H", page[head + 3 : head + 5])
    if page[head] != _LEAF and count > size // 4:
        return
    for k in range(min(count, size // 4)):
        at = head + 8 + 2 * k
        try:
            (pointer,) = struct.unpack(">H", page[at : at + 2])
            payload_size, i = _varint(page, pointer)
            rowid, i = _varint(page, i)
            if payload_size > size - 35:
                overflow.append(True)
            payload = _payload(page, i, payload_size, size, latest)
            yield rowid, _record(payload)
        except (IndexError, ValueError, struct.error, UnicodeDecodeError):
            failed.append(True)


def _payload(page: bytes, i: int, total: int, size: int, latest: dict[int, bytes]) -> bytes:
    usable = size
    most = usable - 35
    if total <= most:
        if i + total > len(page):
            raise IndexError
        return page[i : i + total]
    least = ((usable - 12) * 32 // 255) - 23
    local = least + (total - least) % (usable - 4)
    if local > most:
        local = least
    data = bytearray(page[i : i + local])
    (next_page,) = struct.unpack(">I", page[i + local : i + local + 4])
    seen = set()
    while len(data) < total:
        if next_page in seen or next_page not in latest:
            raise ValueError("broken overflow chain")
        seen.add(next_page)
        overflow = latest[next_page]
        (following,) = struct.unpack(">I", overflow[:4])
        data += overflow[4 : 4 + min(usable - 4, total - len(data))]
        next_page = following
    return bytes(data)


def _record(payload: bytes) -> list[Any]:
    header_size, i = _varint(payload, 0)
    if header_size > len(payload):
        raise ValueError("bad header")
    types = []
    while i < header_size:
        serial, i = _varint(payload, i)
        types.append(serial)
    values: list[Any] = []
    body = header_size
    for serial in types:
        value, body = _value(payload, body, serial)
        values.append(value)
    if body > len(payload):
        raise ValueError("short record")
    return values


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _value(data: bytes, i: int, serial: int) -> tuple[Any, int]:
    if serial == 0:
        return None, i
    if serial in _INT_SIZES:
        n = _INT_SIZES[serial]
        if i + n > len(data):
            raise IndexError
        return int.from_bytes(data[i : i + n], "big", signed=True), i + n
    if serial == 7:
        return struct.unpack(">d", data[i : i + 8])[0], i + 8
    if serial in (8, 9):
        return serial - 8, i
    if serial >= 12:
        n = (serial - 12) // 2
        if i + n > len(data):
            raise IndexError
        raw = data[i : i + n]
        return (raw.decode("utf-8") if serial % 2 else raw), i + n
    raise ValueError("reserved serial type")


def _classify(rows: Rows, rowid: int, values: list[Any]) -> None:
    if len(values) == 2 and all(isinstance(v, str) for v in values):
        versions = rows.meta.setdefault(values[0], [])
        if values[1] not in versions:
            versions.append(values[1])
    elif len(values) in (7, 8) and values[0] is None:  # seq is the rowid (INTEGER PRIMARY KEY)
        row = (rowid, *values[1:], *([None] if len(values) == 7 else []))
        versions_e = rows.entries.setdefault(rowid, [])
        if row not in versions_e:
            versions_e.append(row)


def file_damage(path: str) -> str | None:
    """Damage SQLite itself reads past in silence, making a game look shorter: a database
    file shorter than its header says, or a WAL with saved (committed) frames after one that
    no longer checks (SQLite stops at the first bad frame, as after a torn write, and drops
    the rest). None when neither is found."""
    try:
        with open(path, "rb") as f:
            db = f.read()
    except OSError:
        return None
    try:
        with open(path + "-wal", "rb") as f:
            wal = f.read()
    except OSError:
        wal = b""
    # (with a WAL, a checkpoint cut short by a full disk may leave the file shorter: the WAL
    # still has the pages)
    if len(db) >= 100 and not wal:
        pages, counter, valid_for = (struct.unpack(">I", db[o : o + 4])[0] for o in (28, 24, 92))
        size = _page_size(db, b"")
        if pages and counter == valid_for and len(db) < pages * size:
            return (f"the file is cut short ({len(db)} bytes where its header says "
                    f"{pages * size})")
    bad = _bad_wal_frame(wal, _page_size(db, wal))
    if bad is None:
        return None
    return f"its WAL file is damaged at frame {bad}, and what was saved after it is not read"


def _bad_wal_frame(wal: bytes, size: int) -> int | None:
    """The first WAL frame that does not check, if a later frame of the same WAL (its salts)
    that is a commit checks on its own (seeded by the stored checksum before it)."""
    if len(wal) < 32 + 24 + size:
        return None
    frames = (len(wal) - 32) // (24 + size)
    magic = struct.unpack(">I", wal[:4])[0]
    orders = [magic & 1] if magic in _WAL_MAGIC else [1, 0]
    for big in orders:
        header_ok = _checksum(wal[:24], (0, 0), big) == struct.unpack(">II", wal[24:32])
        salts = wal[16:24] if header_ok else wal[32 + 8 : 32 + 16]
        first_bad = None
        for k in range(frames):
            start = 32 + k * (24 + size)
            head = wal[start : start + 24]
            seed_at = start - (24 + size) + 16 if k else 24  # the frame before's checksum
            seed = struct.unpack(">II", wal[seed_at : seed_at + 8])
            good = (head[8:16] == salts and _checksum(
                head[:8] + wal[start + 24 : start + 24 + size], seed, big)
                == struct.unpack(">II", head[16:24]))
            # (frames of an older WAL beyond this one's end have other salts, so they never
            # count as a saved commit after a bad frame: a torn last write is no damage)
            if first_bad is None:
                if not good or (k == 0 and not header_ok):
                    first_bad = k + 1
            elif good and struct.unpack(">I", head[4:8])[0]:
                return first_bad  # a saved commit after the bad frame
        if first_bad is None:
            return None
    return None


def _checksum(data: bytes, seed: tuple[int, ...], big: int) -> tuple[int, int]:
    s0, s1 = seed
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1
