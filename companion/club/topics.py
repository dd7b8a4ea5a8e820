"""The topic tree (docs/club.md): ``CLUB/tables/TABLE/{status,game,entry,state,result,resend}``."""

from __future__ import annotations

STATUS = "status"  # retained: online or offline (the last will)
GAME = "game"  # retained: the game being played (its start)
ENTRY = "entry"  # one per journal entry: the input, its events, the public state after it
STATE = "state"  # retained: the latest entry number and public state
RESULT = "result"  # retained: the game's end
RESEND = "resend"  # the hub asks a table to send again from an entry number

PUBLISHED = (STATUS, GAME, ENTRY, STATE, RESULT)


def table_topic(club: str, table: str, leaf: str) -> str:
    return f"{club}/tables/{table}/{leaf}"


def all_tables(club: str, leaf: str = "+") -> str:
    return f"{club}/tables/+/{leaf}"


def split(club: str, topic: str) -> tuple[str, str] | None:
    """(table, leaf) of a table topic of this club, or None."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != club or parts[1] != "tables":
        return None
    return parts[2], parts[3]
