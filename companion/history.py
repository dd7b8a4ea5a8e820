"""``companion history`` and ``history`` at the table: what was said, turn by turn.

The journal is retold: its entries are played again through a Session (the same engine,
phrases and announcing code as the live game, on a journal in memory), and every sentence
said is kept with the entry that caused it, its turn number and who acted. So the history is
what the table heard, settled from the journal ("did I pay the rent?"). Virtual cards and
dice are the journal's own outcomes, never drawn again. ``--raw`` shows the entries as
stored (``raw_rows``). Both are stable JSON (docs/json.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.console import split_speaker
from companion.engine import Action, Game, IllegalAction, State, decode_action
from companion.game_clock import clock_words
from companion.journal import ACTION, CLOCK, CORRECT, REFUSED, UNDO, Entry, Journal
from companion.printable import printable
from companion.session import ReplayError, Session, action_words, game_from_meta
from companion.voice import Recorder


def raw_rows(journal: Journal) -> Iterator[dict[str, Any]]:
    """One row per entry as stored (a damaged journal: the rows before the damage, then its
    DamagedJournal)."""
    game = game_from_meta(journal.meta())
    for entry in journal.entries():
        try:
            text = _raw_text(entry, game)
        except (KeyError, ValueError, TypeError, AttributeError) as err:
            text = f"(cannot be read: {err})"  # an unchecked entry from before the checks
        yield _row(entry, text)


def _row(entry: Entry, text: str) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.time)),
        "kind": entry.kind,
        "text": text,
        "source": entry.source,
        "confidence": entry.confidence,
        "payload": entry.payload,
    }


def _raw_text(entry: Entry, game: Game) -> str:
    if entry.kind == ACTION:
        return str(decode_action(entry.payload, game.action_types))
    if entry.kind == UNDO:
        n = entry.payload.get("count", 1)
        return "undo" + (f" ({n} actions)" if n != 1 else "")
    if entry.kind == CORRECT:
        return f"correct to {decode_action(entry.payload['action'], game.action_types)}"
    if entry.kind == REFUSED:
        return f"refused {entry.payload.get('input', '')!r}: {entry.note}"
    if entry.kind == CLOCK:
        return _clock(entry, game)
    return entry.kind


def _clock(entry: Entry, game: Game) -> str:
    times = entry.payload.get("times", [])
    return "clock " + ", ".join(f"{name} {clock_words(float(t))}"
                                for name, t in zip(game.players, times, strict=False))


# --------------------------------------------------------------------------- retold


class _Retelling(Session):
    """A Session fed a journal's entries: its virtual outcomes are the journal's next
    entries, and every sentence said goes to the row of the entry being retold."""

    def __init__(self, *args: Any, recorded: Iterator[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recorded = recorded
        self.rows: list[dict[str, Any]] = [_opening()]
        self.owners: list[int | None] = []  # per effective action: whose turn it was in
        self.turns: list[int] = []  # per effective action: its turn number
        self.speech_listeners.append(self._heard)

    def _heard(self, text: str, priority: int) -> None:
        self.rows[-1]["said"].append(printable(text, lines=True))

    def begin(self, entry: Entry, text: str = "") -> dict[str, Any]:
        row = {**_row(entry, text), "turn": self.turn_now(), "player": None, "said": []}
        self.rows.append(row)
        return row

    def _virtual_outcome(self) -> Action:
        """The journal's next entry: the card or throw drawn live at this point."""
        entry = next(self.recorded, None)
        if entry is None or entry.kind != ACTION:
            raise _Ended
        self.begin(entry)
        return decode_action(entry.payload, self.game.action_types)

    def _commit(self, action: Action, source: str, confidence: float) -> None:
        row, actor, owner = self.rows[-1], self.state.actor(), self._owner(self.state)
        if row["kind"] == ACTION and not row["text"]:
            row["text"] = self.state.describe_action(action)
            row["turn"] = self._next_turn(owner)
            row["player"] = self.game.players[actor] if actor is not None else None
        super()._commit(action, source, confidence)
        self.turns.append(self._next_turn(owner))
        self.owners.append(owner)

    def load(self, actions: Sequence[Action], source: str) -> None:
        super().load(actions, source)
        self.recount()

    def turn_now(self) -> int:
        """The turn the next input belongs to."""
        return self._next_turn(self._owner(self.state))

    def _owner(self, state: State) -> int | None:
        """Whose turn it is. In a game with dice, the player whose throw is awaited or was
        made last: an auction's bids, a rent claimed or a trade offered by others stay in
        that turn. Otherwise whoever is to act."""
        if state.is_terminal():
            return None
        if "dice" in self.game.spec.inputs:
            request = state.chance()
            if request is not None and request.kind == "dice" and request.who is not None:
                return request.who
            previous = next((o for o in reversed(self.owners) if o is not None), None)
            return previous if previous is not None else state.actor()
        return state.actor()

    def _next_turn(self, owner: int | None) -> int:
        """A new turn when it becomes someone else's; 0 before anyone's (a deal)."""
        if not self.turns:
            return 0 if owner is None else 1
        previous = next((o for o in reversed(self.owners) if o is not None), None)
        if owner is None or owner == previous:
            return self.turns[-1] or (0 if owner is None else 1)
        return self.turns[-1] + 1

    def recount(self) -> None:
        """Whose turn each effective action was in and its number, after an undo or a
        correction rebuilt them."""
        self.owners, self.turns = [], []
        state = self.game.new_state()
        for action in self.applied:
            owner = self._owner(state)
            self.turns.append(self._next_turn(owner))
            self.owners.append(owner)
            state.apply(action)


class _Ended(Exception):
    """The journal ended where the live game drew a virtual outcome (a disk that failed)."""


def _opening() -> dict[str, Any]:
    return {"seq": 0, "time": "", "kind": "start", "text": "the game starts", "source": "",
            "confidence": 1.0, "payload": {}, "turn": 0, "player": None, "said": []}


def told_rows(journal: Journal) -> Iterator[dict[str, Any]]:
    """The game retold, one row per entry (and a first row, seq 0, for what was said when it
    started): the raw row's fields and ``turn``, ``player`` (who acted, or null) and
    ``said`` (the sentences, in order). A damaged journal: the rows before the damage, then
    its DamagedJournal; an entry today's rules refuse: ReplayError."""
    meta = journal.meta()
    game = game_from_meta(meta)
    recorded = journal.entries()
    try:
        session = _Retelling.start(game, Journal.memory(), Recorder(), recorded=recorded,
                                   auto_chance=frozenset(meta.get("auto_chance", [])),
                                   config=meta.get("config"))
    except _Ended:  # the journal ends inside the opening deal (a disk that failed)
        return
    assert isinstance(session, _Retelling)
    done = 0
    try:
        while True:
            yield from session.rows[done:-1]  # the last row may still gain sentences
            done = max(done, len(session.rows) - 1)
            entry = next(recorded, None)
            if entry is None:
                break
            _retell(session, entry)
    except _Ended:
        pass
    yield from session.rows[done:]


def _retell(session: _Retelling, entry: Entry) -> None:
    try:
        _RETELL[entry.kind](session, entry)
    except (KeyError, ValueError, TypeError) as err:
        raise ReplayError(entry.seq, f"Entry {entry.seq} ({entry.kind}) cannot be read: "
                          f"{err}.") from err
    except IllegalAction as err:
        raise ReplayError(entry.seq, f"Entry {entry.seq} is refused by the rules: "
                          f"{err.reason}") from err


def _action(session: _Retelling, entry: Entry) -> None:
    session.begin(entry)
    action = decode_action(entry.payload, session.game.action_types)
    if entry.source.startswith("record:"):  # a game record's moves: loaded, not said
        session.rows[-1]["text"] = session.state.describe_action(action)
        session.load([action], entry.source)
        return
    session.apply(action, source=entry.source, confidence=entry.confidence)


def _undo(session: _Retelling, entry: Entry) -> None:
    n = int(entry.payload.get("count", 1))
    session.begin(entry, "undo" + (f" ({n} actions)" if n != 1 else ""))
    session._undo(n, entry.source)
    session.recount()


def _correct(session: _Retelling, entry: Entry) -> None:
    types = session.game.action_types
    action = decode_action(entry.payload["action"], types)
    kept = [decode_action(then, types) for then in entry.payload.get("then", [])]
    session.begin(entry, f"correct to {action_words(action)}")
    session._correct(len(session.applied) - int(entry.payload["count"]), action, kept,
                     entry.source)
    session.recount()


def _refused(session: _Retelling, entry: Entry) -> None:
    said = str(entry.payload.get("input", ""))
    row = session.begin(entry, f'refused "{said}"')
    speaker, _ = split_speaker(session.game.players, said)
    row["player"] = speaker
    session.journal.append(REFUSED, dict(entry.payload), source=entry.source, note=entry.note)
    session.say(entry.note)


def _clock_entry(session: _Retelling, entry: Entry) -> None:
    session.begin(entry, _clock(entry, session.game))


_RETELL = {ACTION: _action, UNDO: _undo, CORRECT: _correct, REFUSED: _refused,
           CLOCK: _clock_entry}


# --------------------------------------------------------------------------- as text


def told_lines(rows: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """The retold rows as text: a heading per turn ("Turn 3, Hat"), then each entry's number,
    time and sentences."""
    heading = None
    for i, row in enumerate(rows):
        if row["turn"] and row["turn"] != heading:
            heading = row["turn"]
            who = next((r["player"] for r in _same_turn(rows[i:])
                        if r["kind"] == ACTION and r["player"]), None)
            yield f"Turn {heading}, {who}:" if who else f"Turn {heading}:"
        said = " ".join(row["said"])
        if row["kind"] in (REFUSED, UNDO, CORRECT, CLOCK) or not said:
            said = f"({row['text']}) {said}".rstrip()
        when = row["time"][11:] if row["time"] else ""
        yield f"{row['seq']:>5} {when:>8}  {said}"


def _same_turn(rows: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for row in rows:
        if row["turn"] != rows[0]["turn"]:
            return
        yield row
