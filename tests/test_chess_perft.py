"""Chess perft against the published counts (tests/data/perft_chess.txt)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from companion.games.chess import Chess, perft, perft_main

DATA = Path(__file__).parent / "data" / "perft_chess.txt"
FAST = 500_000  # nodes; bigger counts are marked slow
LIMIT = 700_000  # nodes; bigger counts are left to `companion perft chess`


def cases() -> list:
    out = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *counts = (part.strip() for part in line.split(";"))
        for item in counts:
            depth_text, nodes_text = item.split()
            depth, nodes = int(depth_text[1:]), int(nodes_text)
            if nodes > LIMIT:
                continue
            marks = [pytest.mark.slow] if nodes > FAST else []
            out.append(pytest.param(fen, depth, nodes, marks=marks, id=f"{fen[:12]}-d{depth}"))
    return out


@pytest.mark.parametrize("fen,depth,nodes", cases())
def test_published_perft_counts(fen: str, depth: int, nodes: int) -> None:
    assert perft(chess.Board(fen), depth) == nodes


def test_start_position_depths_one_to_four_are_in_the_data() -> None:
    start = [c.values for c in cases() if c.values[0] == chess.STARTING_FEN]
    assert [(d, n) for _, d, n in start][:4] == [(1, 20), (2, 400), (3, 8902), (4, 197281)]


def test_engine_legal_actions_agree_with_perft() -> None:
    """The Game's own legal_actions/apply walk gives the same counts (Kiwipete, depth 2)."""
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    state = Chess(["White", "Black"], {"fen": fen}).new_state()
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += len(child.legal_actions())
    assert total == 2039


def test_perft_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert perft_main(["3"]) == 0
    assert capsys.readouterr().out.strip() == "perft(3) = 8902"
    kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert perft_main(["2", "--position", kiwi, "--divide", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 2039 and len(out["divide"]) == 48 and out["depth"] == 2
    assert sum(out["divide"].values()) == 2039


def test_perft_command_refuses_a_bad_position() -> None:
    with pytest.raises(SystemExit):
        perft_main(["2", "--position", "nonsense"])
