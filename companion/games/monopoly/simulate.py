"""``companion simulate monopoly``: automatic players through the table's own rules engine.

Counts, for every throw of the dice that moves a token (jail attempts included), the space
where the token rests once the throw is resolved (cards followed); index 40 is In Jail.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from companion.engine import CHANCE, TERMINAL, Shuffle, Throw
from companion.games.monopoly import actions as A
from companion.games.monopoly.choices import raise_money
from companion.games.monopoly.game import Monopoly
from companion.games.monopoly.phases import BUY, ROLL, SETUP, TAX_CHOICE
from companion.games.monopoly.state import MonopolyState

PLAYER_NAMES = ("Car", "Hat", "Dog", "Ship", "Iron", "Thimble", "Shoe", "Horse")


class Bot:
    """Simple players: buy what they can afford, never bid, build with spare cash, keep
    mortgages on what they receive, raise money by selling and mortgaging when in debt."""

    def __init__(self, jail: str, build: bool = True) -> None:
        self.leave = jail == "leave"
        self.build = build

    def act(self, st: MonopolyState, p: int) -> Any:
        if st.trade is not None:
            return A.Reject(p)
        if st.transfers:
            return A.KeepMortgaged(p, st.transfers[0][1])
        if st.debts:
            options = raise_money(st, p)
            return options[0] if options else A.DeclareBankruptcy(p)
        if st.auction is not None:
            return A.Pass(p)
        if st.place is not None:
            return st.legal_actions()[0]
        if st.phase == BUY:
            return A.Buy(p) if st.cash[p] >= st.ed.price[st.pending] else A.Auction(p)
        if st.phase == TAX_CHOICE:
            return A.ChooseTax(p, False)
        return st.legal_actions()[0]

    def before_throw(self, st: MonopolyState, p: int) -> Any:
        """An action to take at the start of a turn, or None to throw."""
        if st.jail[p] and self.leave:
            if st.held[p]:
                return A.UseCard(p)
            if st.cash[p] >= st.ed.jail_fine and st.jail_tries[p] < 2:
                return A.PayFine(p)
        if self.build and st.doubles == 0 and st.cash[p] > 400:
            return self._build(st, p)
        return None

    def _build(self, st: MonopolyState, p: int) -> Any:
        ed = st.ed
        owner = st.owner
        for members in ed.members:
            if owner[members[0]] != p or not all(owner[m] == p for m in members):
                continue
            if any(st.mort[m] for m in members):
                continue
            s = min(members, key=st.level)
            if st.bld[s] < 5 and st.cash[p] - ed.house_cost[s] > 300:
                from companion.games.monopoly.buildings import build_reason

                if build_reason(st, p, s, False) is None:
                    return A.Build(p, s)
        return None


def simulate(rolls: int, seed: int, jail: str = "leave", players: int = 4,
             edition: str = "classic", max_game_throws: int = 2000) -> dict[str, Any]:
    rng = random.Random(seed)
    # every rent paid, as attentive owners claim it (the printed rule's default is a claim)
    game = Monopoly(PLAYER_NAMES[:players], {"cards": "virtual", "edition": edition,
                                             "rent": "auto"})
    bot = Bot(jail)
    counts = [0] * 41
    games = finished = 0
    throws = 0
    rand = rng.random
    throw_cache = {(a, b): Throw((a, b)) for a in range(1, 7) for b in range(1, 7)}
    start = time.perf_counter()
    while throws < rolls:
        st = game.new_state()
        for deck in ("chance", "chest"):  # each deck's order known at once: drawn from the top
            order = [c.id for c in game.edition.decks[deck]]
            rng.shuffle(order)
            st.apply(Shuffle(deck, tuple(order)))
        games += 1
        game_throws = 0
        while throws < rolls:
            cp = st.current_player()
            if cp == CHANCE:
                if st.phase == SETUP:
                    request = st.chance()
                    assert request is not None
                    order = list(request.cards)
                    rng.shuffle(order)
                    st.apply(Shuffle(request.deck, tuple(order)))
                    continue
                p = st.turn
                moving = st.phase == ROLL
                if moving:
                    pre = bot.before_throw(st, p)
                    if pre is not None:
                        st.apply(pre)
                        continue
                st.apply(throw_cache[(int(rand() * 6) + 1, int(rand() * 6) + 1)])
                if moving:
                    throws += 1
                    game_throws += 1
                    counts[40 if st.jail[p] else st.pos[p]] += 1
                    if game_throws >= max_game_throws:
                        break
            elif cp == TERMINAL:
                finished += 1
                break
            else:
                st.apply(bot.act(st, cp))
    seconds = time.perf_counter() - start
    total = sum(counts) or 1
    return {
        "game": "monopoly",
        "edition": edition,
        "rolls": throws,
        "seed": seed,
        "jail": jail,
        "players": players,
        "games": games,
        "games_finished": finished,
        "max_game_throws": max_game_throws,
        "seconds": round(seconds, 3),
        "throws_per_second": round(throws / seconds) if seconds else None,
        "landing": [c / total for c in counts],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion simulate monopoly")
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jail", choices=("leave", "stay"), default="leave")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--max-game-throws", type=int, default=2000,
                        help="start a new game after this many throws (default 2000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= len(PLAYER_NAMES):
        parser.error("--players takes 2 to 8")
    result = simulate(args.rolls, args.seed, args.jail, args.players, args.edition,
                      args.max_game_throws)
    if args.json:
        print(json.dumps(result))
        return 0
    names = Monopoly(PLAYER_NAMES[:2], {"edition": args.edition}).edition.names
    print(f"{result['rolls']} throws, {result['games']} games ({result['games_finished']}"
          f" finished), {result['throws_per_second']} throws/s")
    ranked = sorted(range(41), key=lambda i: -result["landing"][i])
    for i in ranked:
        label = "In Jail" if i == 40 else names[i]
        print(f"{i:2d} {label:28s} {100 * result['landing'][i]:6.3f}%")
    return 0
