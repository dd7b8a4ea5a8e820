"""Freed memory kept for the next frame (glibc's malloc).

A reader allocates the same large arrays every frame (a 1280x720 frame's Lab copy, colour
distances, box filter responses: megabytes) and frees them again. By default glibc hands
blocks that large back to the kernel (mmap and munmap above a threshold that only grows
with what has been freed, and the heap's top trimmed once 128 kB or more of it is free),
so every frame touches its working memory as new pages: on the crowded tray photos of
`bench vision`, 600 page faults a frame with the tray floor as the area and about 3,000
with the whole photo, 1 to 8 ms of kernel time a frame (issue 15, 2026-11-27). Keeping
the freed blocks in the heap makes the second frame fault nothing; the process holds on
to its largest frame's memory (its peak size does not change).
"""

from __future__ import annotations

import ctypes
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # blocks up to this come from the heap (glibc's largest, 64-bit)
TRIM_THRESHOLD = 256 << 20  # the heap's top is handed back only when this much is free

_kept: bool | None = None


def keep_freed_memory() -> bool:
    """Keep freed blocks for reuse (once per process). True when glibc took the setting;
    False elsewhere (another C library, another system), where nothing changes."""
    global _kept
    if _kept is None:
        _kept = _set()
    return _kept


def _set() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # both or neither: setting either one turns glibc's own rising threshold off, and either
    # alone made it worse (10,000 faults a frame). A C library whose mallopt does nothing
    # (musl: returns 0) leaves the second unset
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
