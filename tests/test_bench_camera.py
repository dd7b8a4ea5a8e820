"""bench camera plays a recording through the real camera source into a Session (a benchmark,
so no time is asserted: only that every throw and card is accounted for, and timed when the
companion spoke about it)."""

from __future__ import annotations

import json

import pytest

from benchmarks import camera


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert camera.main([*args, "--size", "640x360", "--fps", "10", "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def _accounted(result: dict[str, object]) -> int:
    keys = ("said_sure_right", "said_sure_wrong", "asked", "unreadable", "missed")
    return sum(int(result[k]) for k in keys)  # type: ignore[call-overload]


def test_bench_camera_accounts_for_every_throw(capsys: pytest.CaptureFixture[str]) -> None:
    result = _run(capsys, "dice", "--events", "3", "--dice", "1")
    assert result["events"] == 3 and _accounted(result) == 3
    assert 0 <= int(result["sure_wrong_refused"]) <= int(result["said_sure_wrong"])  # type: ignore[call-overload]
    # the stages: each report's frames after rest, and CPU time of the reader and session
    rest = result["rest_frames"]
    assert isinstance(rest, dict) and sum(rest.values()) == 3 - int(result["missed"])  # type: ignore[call-overload]
    assert all(int(k) >= 0 for k in rest)
    cpu = result["frame_cpu_ms"]
    assert isinstance(cpu, dict) and 0 < cpu["p50"] <= cpu["p99"] <= cpu["max"]
    assert result["timed"] == 3 - int(result["missed"])  # type: ignore[call-overload]
    assert result["timed"] and float(result["p50_ms"]) > 0  # type: ignore[arg-type]


def test_bench_camera_accounts_for_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    result = _run(capsys, "cards", "--events", "2")
    assert result["events"] == 2 and _accounted(result) == 2
    assert result["game"] == "crazy-eights"


def test_bench_camera_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="--events"):
        camera.main(["dice", "--events", "0"])
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        camera.main(["dice", "--size", "big"])


@pytest.mark.parametrize("seed", range(20))
def test_the_cards_laid_are_plays_the_game_takes(seed: int) -> None:
    """Each game of the card recording (the up card, then six plays each) goes through the
    Crazy Eights engine as the camera's cards would, every card taken."""
    import numpy as np

    from companion.cards import FULL_DECK
    from companion.engine import CHANCE
    from companion.games import find
    from companion.observations import CardSeen
    from vision.card_recording import GAME_CARDS, crazy_eights_plays

    rng = np.random.default_rng(seed)
    cards = crazy_eights_plays(FULL_DECK, GAME_CARDS, rng)
    assert len(cards) == GAME_CARDS == len(set(cards))
    game = find("crazy-eights")(["Ann", "Bob"], {})
    state = game.new_state()
    for k, card in enumerate(cards):
        assert (state.current_player() == CHANCE) == (k == 0)
        state.apply(game.interpret(state, CardSeen(source="camera", card=str(card))))
    assert not state.is_terminal() and len(state.discard) == GAME_CARDS  # type: ignore[attr-defined]


def test_bench_camera_times_every_card_the_game_took(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """15 cards: a game of GAME_CARDS and the start of the next; every card read right (said
    or confirmed) was a legal play, so the companion spoke about it and it was timed."""
    result = _run(capsys, "cards", "--events", "15")
    assert result["events"] == 15 and _accounted(result) == 15
    assert result["games"] == 2
    right = int(result["said_sure_right"]) + int(result["asked_right"])  # type: ignore[call-overload]
    assert int(result["timed"]) >= right > 0  # type: ignore[call-overload]
