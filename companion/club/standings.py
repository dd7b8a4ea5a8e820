"""The night's standings from the games the hub received, and their exports.

Cribbage league table (the American Cribbage Congress's club scoring): a win is worth 2 game
points, a win by a skunk 3 (the losers more than 30 points short: below 91 in a game to 121,
below 31 in a game to 61), a loss 0; a double skunk (below 61 in a game to 121) is listed and
worth a skunk. Ties go to games won, then to the spread (points won by minus points lost by).
Each game of a match (cribbage's option match) counts as a game of the league.
Chess: each finished game's result, and a crosstable (1, ½, 0) with each player's total.
Monopoly: each game's final worths (cash, property at its price, buildings at cost: the
engine's ``scores``), the winner first.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.club.hub import GameRecord, Hub

WIN, SKUNK = 2, 3  # game points (ACC)


def finished(games: Iterable[GameRecord], name: str) -> list[GameRecord]:
    return sorted((g for g in games if g.over and g.name == name),
                  key=lambda g: (g.info.get("started") or 0, g.table))


def _players(game: GameRecord) -> list[str]:
    return list(game.info.get("players", []))


# --------------------------------------------------------------------------- cribbage


@dataclass
class LeagueRow:
    player: str
    played: int = 0
    won: int = 0
    lost: int = 0
    skunks: int = 0  # games won by a skunk
    double_skunks: int = 0
    skunked: int = 0  # games lost by a skunk
    game_points: int = 0
    spread: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def cribbage_games(game: GameRecord) -> list[list[dict[str, Any]]]:
    """Each game of a finished cribbage table (a match plays several: its state's ``games``),
    per player: won, margin, skunk, double skunk, game points."""
    state = game.view["state"]
    names = _players(game)
    sides: list[list[int]] = state["sides"]
    target = int(state["target"])
    played = state.get("games") or []
    if not played:  # a state from before match play: its one game
        winner = next(i for i, side in enumerate(sides) if set(side) == set(state["winners"]))
        played = [{"scores": state["scores"], "winner": winner}]
    return [_cribbage_game(names, sides, target, [int(v) for v in g["scores"]],
                           int(g["winner"])) for g in played]


def _cribbage_game(names: list[str], sides: list[list[int]], target: int, scores: list[int],
                   winner: int) -> list[dict[str, Any]]:
    best_loser = max(s for i, s in enumerate(scores) if i != winner)
    skunk = best_loser < target - 30
    double = target >= 121 and best_loser < target - 60
    rows = []
    for i, side in enumerate(sides):
        won = i == winner
        margin = scores[i] - (best_loser if won else scores[winner])
        for player in side:
            rows.append({"player": names[player], "won": won, "score": scores[i],
                         "margin": margin, "skunk": skunk, "double_skunk": double,
                         "game_points": (SKUNK if skunk else WIN) if won else 0})
    return rows


def cribbage_result(game: GameRecord) -> list[dict[str, Any]]:
    """Per player of a finished table, as the CSV gives it: its one game; or, for a match,
    the game points of all its games and whether any of them was a skunk."""
    games = cribbage_games(game)
    if len(games) == 1:
        return games[0]
    totals: dict[str, dict[str, Any]] = {}
    for rows in games:
        for r in rows:
            total = totals.setdefault(r["player"], {"player": r["player"], "game_points": 0,
                                                    "skunk": False})
            total["game_points"] += r["game_points"]
            total["skunk"] = total["skunk"] or r["skunk"]
    return list(totals.values())


def cribbage_league(games: Iterable[GameRecord]) -> list[dict[str, Any]]:
    rows: dict[str, LeagueRow] = {}
    for game in finished(games, "cribbage"):
        for r in (r for match_game in cribbage_games(game) for r in match_game):
            row = rows.setdefault(r["player"], LeagueRow(r["player"]))
            row.played += 1
            row.spread += r["margin"]
            row.game_points += r["game_points"]
            if r["won"]:
                row.won += 1
                row.skunks += r["skunk"]
                row.double_skunks += r["double_skunk"]
            else:
                row.lost += 1
                row.skunked += r["skunk"]
    ordered = sorted(rows.values(), key=lambda r: (-r.game_points, -r.won, -r.spread, r.player))
    return [r.to_json() for r in ordered]


# --------------------------------------------------------------------------- chess


def chess_round(games: Iterable[GameRecord]) -> dict[str, Any]:
    results = []
    points: dict[str, dict[str, float]] = {}
    for game in finished(games, "chess"):
        white, black = _players(game)[:2]
        state = game.view["state"]
        result = state["result"]
        w = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        results.append({"table": game.table, "white": white, "black": black, "result": result,
                        "termination": state.get("termination"),
                        "moves": len(state.get("moves_san", []))})
        if w is None:
            continue
        points.setdefault(white, {}).setdefault(black, 0.0)
        points.setdefault(black, {}).setdefault(white, 0.0)
        points[white][black] += w
        points[black][white] += 1.0 - w
    players = sorted(points, key=lambda p: (-sum(points[p].values()), p))
    crosstable = [{"player": p, "total": sum(points[p].values()),
                   "against": {q: points[p].get(q) for q in players if q != p}}
                  for p in players]
    return {"results": results, "players": players, "crosstable": crosstable}


def pgn(games: Iterable[GameRecord], club: str) -> str:
    """Every chess game received (finished or not), as PGN, via python-chess."""
    import chess
    import chess.pgn

    out = []
    for game in sorted((g for g in games if g.name == "chess" and g.view),
                       key=lambda g: (g.info.get("started") or 0, g.table)):
        state = game.view["state"]
        board = chess.Board(state["start_fen"])
        for san in state["moves_san"]:
            board.push_san(san)
        record = chess.pgn.Game.from_board(board)
        white, black = _players(game)[:2]
        started = game.info.get("started") or time.time()
        record.headers.update({
            "Event": club, "Site": f"table {game.table}",
            "Date": time.strftime("%Y.%m.%d", time.localtime(started)),
            "Round": "-", "White": white, "Black": black, "Result": state["result"],
        })
        if state.get("termination"):
            record.headers["Termination"] = str(state["termination"])
        out.append(str(record))
    return "\n\n".join(out) + ("\n" if out else "")


# --------------------------------------------------------------------------- monopoly


def monopoly_worths(games: Iterable[GameRecord]) -> list[dict[str, Any]]:
    rows = []
    for game in finished(games, "monopoly"):
        names = _players(game)
        worths = game.view["scores"]
        order = sorted(range(len(names)), key=lambda p: (names[p] not in game.view["winners"],
                                                         -worths[p]))
        rows.append({"table": game.table, "game_id": game.game_id,
                     "winners": game.view["winners"],
                     "worths": [{"player": names[p], "worth": worths[p]} for p in order]})
    return rows


# --------------------------------------------------------------------------- the night


def game_summary(game: GameRecord, *, brief: bool = False) -> dict[str, Any]:
    view = game.view
    summary = {
        "table": game.table, "game_id": game.game_id, "game": game.name,
        "title": game.info.get("title", game.name), "players": _players(game),
        "started": game.info.get("started"), "entries": game.applied,
        "over": game.over, "turn": view.get("turn"), "expected": view.get("expected", ""),
        "winners": view.get("winners", []), "scores": view.get("scores", []),
        "last": game.last_events[-3:],
    }
    if not brief:
        summary["state"] = view.get("state", {})
    return summary


def night(hub: Hub, *, brief: bool = False) -> dict[str, Any]:
    """The page's JSON (docs/club.md); the caller holds the hub's lock. ``brief``: no
    ``games`` list and no ``state`` (the page: a tenth of the size at 100 tables)."""
    games = list(hub.games.values())
    tables = []
    for name in sorted(hub.tables):
        table = hub.tables[name]
        current = hub.games.get((name, table.game_id or ""))
        tables.append({"table": name, "online": table.online,
                       "game": game_summary(current, brief=brief) if current else None})
    if hub.standings is None or hub.standings[0] != hub.results:
        # Only finished games count, so the standings change only when a game ends.
        hub.standings = (hub.results, {"cribbage": cribbage_league(games),
                                       "chess": chess_round(games),
                                       "monopoly": monopoly_worths(games)})
    data: dict[str, Any] = {
        "club": hub.broker.club, "connected": hub.connected, "version": hub.version,
        "received": hub.received, "applied": hub.applied, "duplicates": hub.duplicates,
        "tables": tables,
        **hub.standings[1],
    }
    if not brief:
        data["games"] = [game_summary(g) for g in sorted(
            games, key=lambda g: (g.info.get("started") or 0, g.table))]
    return data


def results_json(hub: Hub) -> str:
    data = hub.snapshot()
    data["exported"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    for game in data["games"]:
        game.pop("last", None)
    return json.dumps(data, indent=2)


CSV_FIELDS = ["table", "game", "game_id", "started", "over", "player", "score", "won",
              "game_points", "skunk"]


def results_csv(hub: Hub) -> str:
    """One row per player of each game received."""
    with hub.lock:
        games = sorted(hub.games.values(), key=lambda g: (g.info.get("started") or 0, g.table))
        rows = []
        for game in games:
            if not game.view:
                continue
            extra: dict[str, dict[str, Any]] = {}
            if game.name == "cribbage" and game.over:
                extra = {r["player"]: r for r in cribbage_result(game)}
            started = game.info.get("started")
            for i, player in enumerate(_players(game)):
                scores = game.view.get("scores", [])
                rows.append({
                    "table": game.table, "game": game.name, "game_id": game.game_id,
                    "started": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started))
                    if started else "",
                    "over": game.over, "player": player,
                    "score": scores[i] if i < len(scores) else "",
                    "won": player in game.view.get("winners", []) if game.over else "",
                    "game_points": extra.get(player, {}).get("game_points", ""),
                    "skunk": extra.get(player, {}).get("skunk", ""),
                })
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def results_pgn(hub: Hub) -> str:
    with hub.lock:
        return pgn(list(hub.games.values()), hub.broker.club)
