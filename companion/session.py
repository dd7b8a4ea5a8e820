"""The session: the one object that owns a game's state.

Every input goes through ``submit``: interpreted into an action, journaled (committed), applied,
then announced. A refusal is announced and logged with its reason and changes nothing. Undo and
corrections are journal entries; the state after them is rebuilt by replaying the journal, the
same code path as ``resume``, so replay equals live by construction.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import console
from companion.config import pinned, recording
from companion.dice_count import counted
from companion.engine import (
    CHANCE,
    Action,
    Draw,
    Event,
    Game,
    IllegalAction,
    Priority,
    Shuffle,
    State,
    Throw,
    decode_action,
    encode_action,
    number_word,
    sentence,
)
from companion.games import find
from companion.held import HeldReadings, dropped, full, waiting
from companion.journal import (
    ACTION,
    CORRECT,
    REFUSED,
    UNDO,
    DamagedJournal,
    DiskError,
    Entry,
    Journal,
    JournalError,
    readable_part,
)
from companion.narrator import NORMAL, Narrator, Verbosity
from companion.observations import (
    BUTTONS,
    CONFIRM_BELOW,
    BoardSeen,
    ButtonPressed,
    ClockSeen,
    DeviceError,
    DeviceHello,
    DeviceStatus,
    DiceSeen,
    Observation,
    TagSeen,
    TextCommand,
)
from companion.phrases import Phrasebook
from companion.provenance import code_change, code_meta, describe
from companion.refusals import RefusalLimiter
from companion.reply import Reply
from companion.tags import TagMap
from companion.voice import Sink

log = logging.getLogger("companion.session")


def build_game(
    name: str | type[Game],
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    files: Mapping[str, Any] | None = None,
) -> tuple[Game, dict[str, Any]]:
    """Set up a game and return it with the data files it loaded. With ``files`` (from a
    journal) the game is built from those recorded contents, not today's files."""
    cls = find(name) if isinstance(name, str) else name
    with recording() as loaded, pinned(files or {}):
        game = cls(list(players), dict(options or {}))
    return game, loaded


def game_from_meta(meta: Mapping[str, Any]) -> Game:
    game, _ = build_game(meta["game"], meta["players"], meta["options"],
                         files=meta.get("config"))
    return game


CHANCE_ACTIONS = (Throw, Draw, Shuffle)


@dataclass(frozen=True)
class _Pending:
    action: Action
    source: str
    confidence: float
    question: str  # "I read ..., but I am not sure of a five"


class Session:
    def __init__(
        self,
        game: Game,
        journal: Journal,
        announcer: Sink,
        *,
        seed: int | None = None,
        auto_chance: frozenset[str] = frozenset(),
        phrases: Phrasebook | None = None,
        confirm_below: float = CONFIRM_BELOW,
        tags: TagMap | None = None,
        verbosity: Verbosity = NORMAL,
    ) -> None:
        self.game = game
        self.journal = journal
        self.announcer = announcer
        self.seed = seed  # None: the operating system's randomness (see _virtual_outcome)
        # Chance kinds the session draws itself: virtual decks resolve by themselves;
        # virtual dice are thrown when a player says "roll" (or presses the tray's button).
        self.auto_chance = auto_chance
        self.phrases = phrases or Phrasebook.load()
        # which sentences are said unasked, and how many choices (companion/narrator.py)
        self.narrator = Narrator(self.phrases, game.players, verbosity)
        self._last_events: Sequence[Event] = ()  # the last input's events, for the choices
        self.confirm_below = confirm_below
        self.tags = tags or TagMap()
        self._refused_sources: set[str] = set()  # sources whose last input was refused aloud
        self.board_sources: set[str] = set()  # sources that read a board (a DGT board)
        self.refusals = RefusalLimiter()  # a flooding device is said once, then summarised
        self.source_labels: dict[str, str] = {}  # "serial:/dev/ttyUSB0" -> "the dice device"
        # announce nothing before it is on disk (each announcement: the entries before it)
        announcer.set_barrier(journal.wait_durable, journal.durable_ticket)
        self.stopped: str | None = None  # why the session takes no more input (a disk error)
        journal.on_error = self._disk_failed
        self.state: State = game.new_state()
        self.applied: list[Action] = []  # the effective actions, after undo and corrections
        self.last_announcement = ""
        self.pending: _Pending | None = None
        self.held = HeldReadings()  # a device's readings while a question is open
        self._releasing = False
        self.listeners: list[Callable[[Session, Sequence[Event]], None]] = []
        # console commands added by what sits at the table (an engine opponent, a clock)
        self.commands: dict[str, Callable[[Session, list[str], TextCommand], Reply]] = {}
        # observations those helpers read (a clock's readings)
        self.handlers: dict[type[Observation], Callable[[Session, Observation], Reply]] = {}
        # Told every sentence said (after the announcer): the table view shows them, and
        # learns of undo and corrections, which replay without events.
        self.speech_listeners: list[Callable[[str, int], None]] = []
        self.code_note: str | None = None  # set by resume when the rules code has changed
        self.check_note: str | None = None  # set by resume for entries without checksums

    # --- construction -------------------------------------------------------------

    @classmethod
    def start(
        cls,
        game: Game,
        journal: Journal,
        announcer: Sink,
        *,
        seed: int | None = None,
        auto_chance: frozenset[str] = frozenset(),
        config: Mapping[str, Any] | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> Session:
        """A new game. ``config``: the data files it was built from (``build_game``), kept in
        the journal so that resume rebuilds the same game whatever happens to the files.
        ``seed``: virtual dice and decks from a seeded generator, predictable by anyone who
        knows it (for tests and demos); without it they come from the operating system.
        ``name``: the saved game's name (``companion resume NAME``; companion/saved.py).
        Player names that cannot be typed, or that read as commands, are a ValueError."""
        problem = console.name_problem(game.players, game.command_help())
        if problem:
            raise ValueError(problem)
        journal.write_meta(
            {
                "game": game.spec.name,
                "players": list(game.players),
                "options": dict(game.options),
                "seed": seed,  # null unless given: then the draws are predictable
                "predictable": seed is not None,
                "auto_chance": sorted(auto_chance),
                "config": dict(config or {}),
                "code": code_meta(type(game)),  # what resume compares (provenance.py)
                # not a setup key: outside the checksum, as journals before names had none
                **({"name": name} if name else {}),
                "verbosity": str(kwargs.get("verbosity", NORMAL)),  # quieter/louder change it
            }
        )
        session = cls(game, journal, announcer, seed=seed, auto_chance=auto_chance, **kwargs)
        session.say(f"{game.spec.title}: {', '.join(game.players)}.", Priority.INFO)
        session._settle()
        session.say(sentence(session.state.expected()), Priority.CHATTER)
        return session

    @classmethod
    def resume(cls, journal: Journal, announcer: Sink, **kwargs: Any) -> Session:
        meta = journal.meta()
        game = game_from_meta(meta)
        if kwargs.get("verbosity") is None:  # as the table left it
            kwargs["verbosity"] = _verbosity(meta)
        session = cls(
            game,
            journal,
            announcer,
            seed=_seed(meta),
            auto_chance=frozenset(meta.get("auto_chance", [])),
            **kwargs,
        )
        session._rebuild(meta)
        if session.code_note:  # from now on entries are made by today's code
            journal.write_meta({"code": code_meta(type(game)),
                                "code_before": [*meta.get("code_before", []), meta["code"]]})
        session.say(f"Resuming {game.spec.title}. " + sentence(session.state.status()),
                    Priority.RESULT)
        session._settle()
        return session

    @classmethod
    def view(cls, journal: Journal) -> Session:
        """A saved game rebuilt for looking at (state, history): nothing is announced, no
        virtual card is drawn, nothing is written."""
        from companion.voice import Recorder

        meta = journal.meta()
        game = game_from_meta(meta)
        session = cls(game, journal, Recorder(), seed=_seed(meta),
                      auto_chance=frozenset(meta.get("auto_chance", [])))
        session._rebuild(meta)
        return session

    def _rebuild(self, meta: Mapping[str, Any]) -> None:
        """Replay a saved game. ``code_note`` says when today's rules code differs from the
        one that saved it; an entry that no longer replays is a ReplayError naming both."""
        try:
            self._replay()
        except ReplayError as err:
            now = code_meta(type(self.game))
            if meta.get("code") == now:
                whose = f"It was saved by this same code ({describe(now)})."
            else:
                then = describe(meta["code"]) if "code" in meta else "an earlier version"
                whose = f"It was saved by {then}; this is {describe(now)}."
            raise ReplayError(err.seq, f"{err} {whose}") from err
        self.code_note = code_change(meta, type(self.game))
        if self.code_note:
            log.warning("%s", self.code_note)
        unchecked = self.journal.unchecked()
        if unchecked:
            self.check_note = (f"This game's first {unchecked} entries were saved before "
                               "journals had checksums: they are unchecked.")
            log.warning("%s: %s", self.journal.path, self.check_note)

    # --- input ----------------------------------------------------------------------

    def submit(self, obs: Observation) -> Reply:
        """Handle one observation from any source. Never raises for bad input, nor for a
        disk that refuses the journal: then the session stops taking input (and says so)."""
        if self.stopped is not None:
            return self._while_stopped(obs)
        try:
            return self._submit(obs)
        except DiskError as err:
            self._disk_failed(err.reason)
            return Reply(False, self.last_announcement)

    def _submit(self, obs: Observation) -> Reply:
        if isinstance(obs, BoardSeen):
            self.board_sources.add(obs.source)
        try:
            if isinstance(obs, TextCommand):
                return console.handle(self, obs)
            return self._handle_device(obs)
        except IllegalAction as err:
            return self._refused(err, obs)
        except DiskError:
            raise
        except Exception:
            # A bug in an engine or interpreter must not end the game. The journal is the
            # truth: rebuild from it, so a half-applied action cannot survive, and say so.
            log.exception("error while handling %r", obs)
            self._replay()
            return self.refuse("Sorry, I could not handle that; nothing has changed.", obs,
                               journal=False)

    # --- a disk that refuses the journal ---------------------------------------------

    def _disk_failed(self, reason: str) -> None:
        """The journal cannot be saved (from any thread): say it, and take no more input,
        so that nothing is announced that is not on disk. What is on disk stays."""
        if self.stopped is not None:
            return
        self.stopped = reason
        log.error("stopped: the journal %s cannot be saved: %s", self.journal.path, reason)
        self.say(f"I cannot save this game: {reason}. I have stopped taking input, so that "
                 "nothing is announced that is not saved; what was saved stays in "
                 f"{self.journal.path}. Type quit; once the disk is fixed, 'companion "
                 "resume' goes on from there.", Priority.ALERT)

    def _while_stopped(self, obs: Observation) -> Reply:
        words = obs.text.split() if isinstance(obs, TextCommand) else []
        if words and words[-1].lower() in {"quit", "exit"}:
            self.say("Goodbye. The game is kept as it was last saved.", Priority.ALERT)
            return Reply(True, "quit", quit=True)
        text = (f"The game has stopped: I cannot save it ({self.stopped}). Type quit; once "
                "the disk is fixed, 'companion resume' goes on.")
        log.warning("refused while stopped (%s): %s", obs.source, type(obs).__name__)
        self.say(text, Priority.ALERT)
        return Reply(False, text)

    def _refused(self, err: IllegalAction, obs: Observation) -> Reply:
        if err.quiet:
            log.info("not yet (%s): %s", obs.source, err.reason)
            if err.settles and obs.source in self._refused_sources:
                self._refused_sources.discard(obs.source)
                self.say(err.reason, Priority.INFO)
            return Reply(False, err.reason)
        self._refused_sources.add(obs.source)
        return self.refuse(err.reason, obs)

    def command(self, text: str, *, player: str | None = None, source: str = "keyboard") -> Reply:
        return self.submit(TextCommand(source=source, text=text, player=player))

    def _handle_device(self, obs: Observation) -> Reply:
        extra = self.handlers.get(type(obs))
        if extra is not None:
            return extra(self, obs)
        handler = _DEVICE_HANDLERS.get(type(obs), Session._on_reading)
        if handler is Session._on_reading and self.pending is not None:
            return self._hold(obs)
        return handler(self, obs)

    def _hold(self, obs: Observation) -> Reply:
        """Keep a reading that came while a question is open, to read after the answer."""
        assert self.pending is not None
        if not self.held.hold(obs):
            raise IllegalAction(full(self.pending.question, self.held.limit))
        log.info("held (%s) until the question is answered: %s", obs.source,
                 type(obs).__name__)
        text = waiting(self.pending.question, len(self.held))
        self.say(text, Priority.REFUSAL)
        return Reply(False, text)

    def _release_held(self) -> None:
        """Read the held readings, in order, until one asks a question again."""
        if self._releasing:
            return  # a held reading being read now
        self._releasing = True
        try:
            while self.pending is None and self.stopped is None:
                obs = self.held.take()
                if obs is None:
                    break
                self.submit(obs)  # refused aloud, as it would have been when it came
        finally:
            self._releasing = False

    # One handler per observation type; anything else is a reading for the game.

    def _on_reading(self, obs: Observation) -> Reply:
        self.check_player(obs.player, exact=self.state.chance() is not None)
        request = self.state.chance()
        if isinstance(obs, DiceSeen) and request is not None and request.kind == "dice":
            # the camera's reading of the count the game needs (issue 15)
            obs = counted(obs, self.game.dice_in_view(self.state), request.describe())
        action = self.game.interpret(self.state, obs)
        return self.offer(action, obs.source, obs.confidence, obs.doubts())

    def _on_error(self, obs: Observation) -> Reply:
        assert isinstance(obs, DeviceError)
        return self.refuse(obs.reason, obs, journal=False)

    def _on_hello(self, obs: Observation) -> Reply:
        assert isinstance(obs, DeviceHello)
        self.say(f"{obs.name or 'A device'} is connected.", Priority.INFO)
        return Reply(True)

    def _on_status(self, obs: Observation) -> Reply:
        assert isinstance(obs, DeviceStatus)
        self.say(obs.detail or f"Device {obs.state}.", Priority.RESULT)
        return Reply(True)

    def _on_clock(self, obs: Observation) -> Reply:
        # A clock's reading with no players' clock at the table: nothing to do with it.
        log.debug("clock reading ignored (%s)", obs.source)
        return Reply(True)

    def _on_button(self, obs: Observation) -> Reply:
        assert isinstance(obs, ButtonPressed)
        # A device button is the console command of the same name ("undo", "yes"), and only
        # the documented buttons are: a device never types a command of its own.
        if obs.button not in BUTTONS:
            raise IllegalAction(f"A device pressed a button '{obs.button}' that does not "
                                f"exist; the buttons are {', '.join(BUTTONS)}")
        return self.submit(TextCommand(source=obs.source, text=obs.button,
                                       player=obs.player, time=obs.time))

    def _on_tag(self, obs: Observation) -> Reply:
        assert isinstance(obs, TagSeen)
        return self.submit(self.tags.resolve(obs))

    def check_player(self, name: str | None, *, exact: bool = False) -> None:
        """Refuse input from a named player who may not give it now. ``exact``: only the
        player whose turn it is (a throw or a draw), even where anyone may speak otherwise."""
        if name is None or self.state.is_terminal():
            return
        index = self.player_index(name)
        allowed = index == self.state.actor() if exact else self.state.may_act(index)
        if not allowed:
            actor = self.state.actor()
            whose = self.game.players[actor] if actor is not None else "nobody"
            raise IllegalAction(f"{self.game.players[index]}, it is {whose}'s turn")

    def player_index(self, name: str) -> int:
        """The player called ``name``: in any case, or written without its spaces or with
        other marks for them (a device's seat "@Horse_and_Rider")."""
        for i, player in enumerate(self.game.players):
            if player.casefold() == name.casefold():
                return i
        loose = [i for i, player in enumerate(self.game.players) if _loose(player) == _loose(name)]
        if len(loose) == 1 and _loose(name):
            return loose[0]
        raise IllegalAction(f"There is no player called {name}")

    def offer(self, action: Action, source: str, confidence: float = 1.0,
              doubts: tuple[int, ...] = ()) -> Reply:
        """Apply now, or ask for confirmation when the reading is unsure (naming the values
        the source doubted, when it says: "not sure of a five", "of two sixes": "a", as
        there may be three fives)."""
        if confidence < self.confirm_below:
            self._validate(action)
            which = " and ".join(_some(v, n) for v, n in Counter(doubts).items())
            question = (f"I read {self.state.describe_action(action)}, but I am not sure"
                        f"{' of ' + which if which else ''}")
            self.pending = _Pending(action, source, confidence, question)
            text = f"{question}: say yes, or type the values."
            self.say(text, Priority.REFUSAL)
            return Reply(False, text)
        return self.apply(action, source=source, confidence=confidence)

    def confirm(self, yes: bool) -> Reply:
        if self.pending is None:
            raise IllegalAction("There is nothing to confirm")
        pending, self.pending = self.pending, None
        if not yes:
            self.say("Ignored. Please give the input again.", Priority.INFO)
            self._release_held()  # the first held reading may be that input
            return Reply(True)
        return self.apply(pending.action, source=pending.source, confidence=1.0)

    def refuse(self, reason: str, obs: Observation | None = None, *, journal: bool = True) -> Reply:
        reason = sentence(reason)  # every refusal a sentence, whatever raised it
        source = obs.source if obs else ""
        if not self.refusals.admit(source, reason, idle=not self.announcer.behind(),
                                   unreadable=isinstance(obs, DeviceError), journal=journal):
            log.debug("refused quietly (%s): %s", source, reason)  # counted; said in tick()
            return Reply(False, reason)
        log.warning("refused (%s): %s", source, reason)
        if journal:
            raw = obs.text if isinstance(obs, TextCommand) else type(obs).__name__ if obs else ""
            self.journal.append(REFUSED, {"input": raw}, source=source, note=reason)
            self._notify(())
        self.say(reason, Priority.REFUSAL)
        return Reply(False, reason)

    def tick(self, *, every: bool = False) -> None:
        """Say (and journal, once) the refusals a device's flood had held back, when its
        window has passed (``every``: all of them now, before quitting)."""
        for held in self.refusals.due(idle=not self.announcer.behind(), every=every):
            label = self.source_labels.get(held.source, f"the input {held.source}")
            text = held.summary(label)
            log.warning("refused (%s): %s", held.source, text)
            if held.journal:
                self.journal.append(REFUSED, {"input": f"{held.count} inputs",
                                              "count": held.count},
                                    source=held.source, note=text)
            self.say(text, Priority.REFUSAL)

    # --- state changes ----------------------------------------------------------------

    def apply(self, action: Action, *, source: str = "", confidence: float = 1.0) -> Reply:
        """Validate on a copy, journal (committed), then apply and announce."""
        self._validate(action)
        self.pending = None
        self._commit(action, source, confidence)
        self._settle()
        reply = Reply(True, self.last_announcement)
        self._release_held()  # what a device read while a question was open
        return reply

    def load(self, actions: Sequence[Action], source: str) -> None:
        """Journal and apply the moves of a game record (PGN, PDN) to start from, without
        announcing each; the caller says what was loaded."""
        for action in actions:
            self._validate(action)
            self.journal.append(ACTION, encode_action(action), source=source)
            self.state.apply(action)
            self.applied.append(action)
        self._notify(())

    def _commit(self, action: Action, source: str, confidence: float) -> None:
        self.journal.append(ACTION, encode_action(action), source=source, confidence=confidence)
        events = self.state.apply(action)
        self.applied.append(action)
        self._announce(events)

    def undo(self, source: str = "keyboard") -> Reply:
        if not self.applied:
            raise IllegalAction("There is nothing to undo")
        return self._undo(self._undo_depth(), source)

    def _undo(self, count: int, source: str) -> Reply:
        """Take back ``count`` actions (an undo entry; history retells it with its count)."""
        undone = self.applied[-count]
        self.journal.append(UNDO, {"count": count}, source=source)
        self._replay()
        self._notify(())
        self._settle(offer_choices=False)  # the undo message says what is expected
        self.pending = None
        set_aside = self.held.drop()  # read against the game before the undo
        # Described on the state it was played from: "Undone: knight to f3", not "g1f3".
        words = (action_words(undone, self.game) if isinstance(undone, CHANCE_ACTIONS)
                 else self.state.describe_action(undone))
        # An undo not made on the board: the board still shows the move, so say how to undo it.
        put_back = self.state.put_back(undone) if self.board_sources - {source} else ""
        put_back = f"{sentence(put_back)} " if put_back else ""
        self.say(f"Undone: {words}. {put_back}" + sentence(self.state.expected()),
                 Priority.RESULT)
        reply = Reply(True, self.last_announcement)
        if set_aside:
            self.say(dropped(set_aside), Priority.INFO)
        return reply

    def correct(self, action: Action, source: str = "keyboard") -> Reply:
        """Replace the latest chance outcome of the same type (a misread die) by ``action``.

        What was played after it is played again on the corrected game while it stays legal;
        anything that no longer fits is taken back, and said."""
        index = self._last_chance_index(type(action))
        if index is None:
            raise IllegalAction("There is no earlier throw or card to correct")
        trial = self.game.new_state()
        for earlier in self.applied[:index]:
            trial.apply(earlier)
        trial.apply(action)  # raises IllegalAction, changing nothing, when it is illegal here
        kept = _still_legal(trial, self.applied[index + 1 :])
        return self._correct(index, action, kept, source)

    def _correct(self, index: int, action: Action, kept: Sequence[Action],
                 source: str) -> Reply:
        """Replace the action at ``index`` by ``action``, keeping ``kept`` after it (a
        correction entry; history retells it with what it kept)."""
        later = self.applied[index + 1 :]
        dropped = later[len(kept) :]
        self.journal.append(
            CORRECT,
            {"count": len(self.applied) - index, "action": encode_action(action),
             "then": [encode_action(a) for a in kept]},
            source=source,
        )
        events = self._replay()
        self.say(f"Corrected to {action_words(action, self.game)}.", Priority.RESULT)
        if not kept:
            self._announce(events)  # what the corrected throw did
        else:
            self._notify(())
        if dropped:
            words = "; ".join(self.state.describe_action(a) for a in dropped)
            self.say(f"No longer possible, so taken back: {words}.", Priority.RESULT)
        self._settle()
        return Reply(True, self.last_announcement)

    def _validate(self, action: Action) -> None:
        # Engines validate before mutating; a clone keeps the live state safe regardless.
        self.state.clone().apply(action)

    def _undo_depth(self) -> int:
        """Undo one input; virtual cards go with the decision that caused them. The opening
        virtual deal is no one's input, so it is never undone."""
        auto = 0
        while auto < len(self.applied) and self._is_auto(self.applied[-1 - auto]):
            auto += 1
        if auto == len(self.applied):
            raise IllegalAction("There is nothing to undo")
        return auto + 1

    def _is_auto(self, action: Action) -> bool:
        """A chance outcome the session supplied by itself (not one a player asked for)."""
        kinds = {Draw: "card", Shuffle: "shuffle"}
        kind = kinds.get(type(action))
        return kind is not None and kind in self.auto_chance

    def _last_chance_index(self, kind: type[Action]) -> int | None:
        for i in range(len(self.applied) - 1, -1, -1):
            if type(self.applied[i]) is kind:
                return i
        return None

    def _replay(self) -> list[Event]:
        self.narrator.forget()
        self.state, self.applied, events = replay(self.game, self.journal)
        return events

    # --- announcing ---------------------------------------------------------------------

    def _announce(self, events: Sequence[Event]) -> None:
        for text, priority in self.narrator.sentences(events, self.state):
            self.say(text, priority)
        self._last_events = events
        self._notify(events)

    @property
    def verbosity(self) -> Verbosity:
        return self.narrator.verbosity

    def set_verbosity(self, verbosity: Verbosity) -> None:
        """From now on (``quieter``, ``louder``); kept with the saved game for resume."""
        self.narrator.verbosity = verbosity
        self.journal.write_meta({"verbosity": str(verbosity)})

    def _notify(self, events: Sequence[Event]) -> None:
        """Tell the listeners that the journal has a new entry (every kind: an action, an
        undo, a correction, a refusal) and the events it caused."""
        for listener in self.listeners:
            listener(self, events)

    def _settle(self, *, offer_choices: bool = True) -> None:
        """Supply due virtual cards (drawn, journaled), then offer the choices."""
        while self._auto_due():
            self._commit(self._virtual_outcome(), "virtual", 1.0)
        if offer_choices and not self.state.is_terminal():
            choices = self.narrator.choices(self.state, self._last_events)
            if choices:
                self.say(choices, Priority.INFO)
        self._last_events = ()

    def _auto_due(self) -> bool:
        request = self.state.chance()
        return (
            self.state.current_player() == CHANCE
            and request is not None
            and request.kind in self.auto_chance
            and request.kind != "dice"
        )

    def _virtual_outcome(self) -> Action:
        """One virtual throw or card, drawn now. It is journaled as an outcome, so resume,
        replay and undo never draw again; nothing stored predicts the next one (the operating
        system's randomness, each draw), unless the game was started with a seed."""
        rng: random.Random = _SYSTEM_RANDOM
        if self.seed is not None:  # predictable on purpose: tests and demos
            rng = random.Random(f"{self.seed}:{self.journal.count()}")
        return self.state.sample_chance(rng)

    def roll_virtual(self, source: str = "keyboard") -> Reply:
        """Throw virtual dice for the player whose throw it is."""
        request = self.state.chance()
        if request is None or request.kind != "dice":
            raise IllegalAction("No throw is expected now. " + sentence(self.state.expected()))
        if "dice" not in self.auto_chance:
            raise IllegalAction("Say which values were thrown, like: roll 4 "
                                "(or play with --dice virtual and say just: roll)")
        return self.apply(self._virtual_outcome(), source="virtual")

    def say(self, text: str, priority: int = Priority.INFO) -> None:
        if not text:
            return
        self.last_announcement = text
        self.announcer.say(text, priority)
        for listener in self.speech_listeners:
            listener(text, priority)


_DEVICE_HANDLERS: dict[type[Observation], Callable[[Session, Observation], Reply]] = {
    DeviceError: Session._on_error,
    DeviceHello: Session._on_hello,
    DeviceStatus: Session._on_status,
    ButtonPressed: Session._on_button,
    TagSeen: Session._on_tag,
    ClockSeen: Session._on_clock,
}


_SYSTEM_RANDOM = random.SystemRandom()  # os.urandom, read at every draw: no state to predict


def _seed(meta: Mapping[str, Any]) -> int | None:
    """The seed of a game started with one. Journals written before draws came from the
    operating system stored a seed they did not ask for: those now draw from it too."""
    return int(meta["seed"]) if meta.get("predictable") and meta.get("seed") is not None else None


def _verbosity(meta: Mapping[str, Any]) -> Verbosity:
    """The verbosity a saved game was left at (normal for journals from before it)."""
    try:
        return Verbosity.parse(str(meta.get("verbosity", NORMAL)))
    except ValueError:
        return NORMAL


def action_words(action: Action, game: Game | None = None) -> str:
    if isinstance(action, Throw):
        return "a throw of " + " and ".join(number_word(v) for v in action.values)
    if isinstance(action, Draw):
        return game.card_words(action.card) if game else f"the card {action.card}"
    return str(action)


def _still_legal(state: State, actions: Sequence[Action]) -> list[Action]:
    """The leading run of ``actions`` that can still be played, in order, from ``state``."""
    kept: list[Action] = []
    for action in actions:
        try:
            state.apply(action)
        except IllegalAction:
            break
        kept.append(action)
    return kept


class ReplayError(JournalError):
    """A journal entry that the rules code of today cannot read or refuses: a journal written
    by another version of the companion, or damaged. ``seq`` is the entry's number."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


def replay(game: Game, journal: Journal) -> tuple[State, list[Action], list[Event]]:
    """Rebuild from the journal: the state, the effective actions (after undo and
    corrections), and the last action's events (a correction announces its consequences).
    ReplayError names the first entry that does not replay."""
    return replay_entries(game, journal.entries())


def replay_entries(game: Game, entries: Iterable[Entry]
                   ) -> tuple[State, list[Action], list[Event]]:
    actions: list[Action] = []
    origins: list[int] = []  # the entry each action comes from

    def decode(payload: Mapping[str, Any], seq: int) -> None:
        actions.append(decode_action(payload, game.action_types))
        origins.append(seq)

    for entry in entries:
        try:
            if entry.kind == ACTION:
                decode(entry.payload, entry.seq)
            elif entry.kind in (UNDO, CORRECT):
                count = int(entry.payload["count"] if entry.kind == CORRECT
                            else entry.payload.get("count", 1))
                del actions[len(actions) - count :], origins[len(origins) - count :]
                if entry.kind == CORRECT:
                    decode(entry.payload["action"], entry.seq)
                    for then in entry.payload.get("then", []):
                        decode(then, entry.seq)
        except (KeyError, ValueError, TypeError) as err:
            raise ReplayError(entry.seq, f"Entry {entry.seq} ({entry.kind}) cannot be read: "
                              f"{err}.") from err
    state = game.new_state()
    events: list[Event] = []
    for action, seq in zip(actions, origins, strict=True):
        try:
            events = state.apply(action)
        except IllegalAction as err:
            reason = err.reason if err.reason.endswith((".", "!", "?")) else err.reason + "."
            raise ReplayError(seq, f"Entry {seq} ({action}) is refused by the rules: "
                              f"{reason}") from err
        except Exception as err:  # a rules bug must not make a saved game unreadable
            log.exception("replaying entry %d (%s)", seq, action)
            raise ReplayError(seq, f"Entry {seq} ({action}) fails in the rules code "
                              f"({type(err).__name__}: {err}).") from err
    return state, actions, events


@dataclass(frozen=True)
class Salvaged:
    kept: int  # entries copied
    readable: int  # entries that read and check, before the first that does not
    why: str | None  # why the rest was left (the damage, or the entry that does not replay)


def salvage(source: str | Path, dest: Journal) -> Salvaged:
    """Copy into the empty journal ``dest`` the game saved at ``source`` up to its first
    entry that is damaged (journal.readable_part, which reads even a file SQLite cannot) or
    no longer replays: the entries before it, with their times, sources and notes, and the
    meta with today's code. ``source`` is only read."""
    meta, entries, why = readable_part(source)
    if meta is None:
        raise DamagedJournal(str(source), "nothing can be salvaged: the game's setup (its "
                             f"players, options and data files) cannot be read. {why or ''}"
                             .rstrip())
    game = game_from_meta(meta)
    kept = len(entries)
    while True:  # a shorter run could fail earlier (a correction of a refused entry, say)
        try:
            replay_entries(game, entries[:kept])
            break
        except ReplayError as err:
            kept = next(i for i, e in enumerate(entries) if e.seq == err.seq)
            why = str(err)
    named = {"name": f"{meta['name']} (salvaged)"} if meta.get("name") else {}
    dest.write_meta({**meta, **named, "code": code_meta(type(game)),
                     "salvaged_from": {"journal": str(source), "entries": len(entries),
                                       "kept": kept}})
    for entry in entries[:kept]:
        dest.append(entry.kind, entry.payload, source=entry.source,
                    confidence=entry.confidence, note=entry.note, at=entry.time)
    return Salvaged(kept, len(entries), why)


def _loose(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _some(value: int, count: int) -> str:
    """ "a five", "two sixes": how many of a value, as said."""
    word = number_word(value)
    if count == 1:
        return f"a {word}"
    return f"{number_word(count)} {word}{'es' if word.endswith('x') else 's'}"
