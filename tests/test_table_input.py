"""Input a person at the table would type, at the wrong moment or in their own words (issue 17):
each is refused with the reason it must wait (never "I don't know the command"), then accepted
when its moment comes."""

from __future__ import annotations

from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder


def table(name: str, players: tuple[str, ...] = ("Red", "Blue"), seed: int = 5,
          auto: tuple[str, ...] = ("card",), **options: object) -> tuple[Session, Recorder]:
    game, files = build_game(name, players, options)
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, seed=seed,
                            auto_chance=frozenset(auto), config=files)
    return session, recorder


def refused(session: Session, line: str, text: str) -> None:
    reply = session.command(line)
    assert not reply.accepted, line
    assert reply.text == text, reply.text


def accepted(session: Session, line: str) -> None:
    reply = session.command(line)
    assert reply.accepted, reply.text


# --------------------------------------------------------------------------- Rummy

def test_rummy_a_card_before_drawing_is_told_to_draw_first_then_discarded():
    session, recorder = table("rummy", deal="read")
    card = session.state.hands[1][0]  # type: ignore[attr-defined]
    refused(session, card, "Blue, first draw: from the stock or the discard pile.")
    accepted(session, "draw")
    accepted(session, card)
    assert recorder.texts[-1].startswith("Blue discards the ")


def test_rummy_a_word_that_is_no_card_is_still_unknown():
    session, _ = table("rummy", deal="read")
    reply = session.command("shuffle")
    assert not reply.accepted and reply.text.startswith("I don't know the command 'shuffle'.")


def play_to_the_end(session: Session, seed: int) -> None:
    """Random legal play through the session until the game is over."""
    import random

    from companion.engine import CHANCE

    rng = random.Random(seed)
    while not session.state.is_terminal():
        state = session.state
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        assert session.apply(action).accepted


# --------------------------------------------------------------------------- Crazy Eights

def test_crazy_eights_an_eight_alone_then_the_suit_named():
    session, recorder = table("crazy-eights")
    waiting = session.state.expected()
    refused(session, "hearts", f"A suit is named with an eight, like: 8H hearts. {waiting}.")
    accepted(session, "8H")
    assert recorder.texts[-1] == "Blue plays the eight of hearts. Blue, name a suit."
    refused(session, "draw", "No play now. Blue, name a suit for the eight.")
    refused(session, "Red spades", "Red, it is Blue's turn.")
    accepted(session, "spades")
    assert recorder.texts[-1] == "Blue calls spades."
    assert session.state.called == "S"  # type: ignore[attr-defined]
    refused(session, "3H", "The three of hearts cannot go on the pile: spades were called. An"
                           " eight goes on anything.")


def test_crazy_eights_a_card_reader_eight_asks_for_the_suit():
    from companion.observations import CardSeen

    session, recorder = table("crazy-eights")
    assert session.submit(CardSeen(source="reader", card="8D")).accepted
    assert recorder.texts[-1] == "Blue plays the eight of diamonds. Blue, name a suit."
    accepted(session, "call clubs")
    assert session.state.called == "C"  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- Hearts

def test_hearts_points_said_after_the_game_are_told_it_is_over():
    session, _ = table("hearts", ("Red", "Blue", "Green", "White"), deal="tally")
    for _ in range(4):
        accepted(session, "26 0 0 0")
    assert session.state.is_terminal()
    final = "The game is over: no more points are said. Final scores: Red 104, Blue 0, Green" \
            " 0, White 0."
    refused(session, "13 13 0 0", final)
    refused(session, "points 13 0 13 0", final)


# --------------------------------------------------------------------------- Cribbage

def test_cribbage_show_after_the_game_is_told_it_is_over():
    session, _ = table("cribbage", deal="read", to=61)
    play_to_the_end(session, 3)
    reply = session.command("show 5H 5D 5C JS 5S")
    assert not reply.accepted
    assert reply.text.startswith("The game is over: the hands are not counted once a side has"
                                 " won. ")


# ------------------------------------------------------------- dice games: one vocabulary

def test_poker_dice_takes_faces_and_pips_everywhere_and_keep_as_in_the_dice_game():
    session, recorder = table("poker-dice", auto=())
    accepted(session, "roll A A K K 9")  # faces (before: "is not a throw: give numbers")
    assert recorder.texts[-1] == "Red has 9 K K A A: two pair, aces and kings."
    refused(session, "keep A A A", "There is no A to keep: the dice are 9 K K A A.")
    accepted(session, "keep A A K K")  # the Dice game's word: the 9 is thrown again
    assert recorder.texts[-1] == "Red throws 9 again."
    accepted(session, "roll queen")
    accepted(session, "roll 6 6 5 5 5")  # pips, as a die is read
    accepted(session, "redraw 5")  # a pip for a face in redraw too (5 = K)
    assert recorder.texts[-1] == "Blue throws K again."
    accepted(session, "roll 6")


def test_poker_dice_stand_says_the_standing_hand():
    session, recorder = table("poker-dice", auto=())
    accepted(session, "roll 6 6 5 5 5")
    accepted(session, "stand")
    assert recorder.texts[-2] == "Red stands on K K K A A: a full house, kings full of aces."


def test_poker_dice_count_takes_pips_and_names(capsys):
    from companion.games.dice.poker_dice import count_main

    assert count_main(["6", "6", "5", "5", "5"]) == 0
    assert count_main(["ace", "ace", "king", "king", "king"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["A A K K K: a full house, kings full of aces"] * 2


def test_the_dice_game_says_the_best_open_boxes_after_a_throw():
    session, recorder = table("dice", auto=())
    accepted(session, "roll 6 4 3 3 5")
    assert recorder.texts[-2:] == ["Red has 6 4 3 3 5.",
                                   "Best open boxes: small straight for 30, chance for 21,"
                                   " threes for 6."]


def test_perft_chess_takes_fen_as_well_as_position(capsys):
    from companion.games.chess import perft_main

    fen = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1"
    assert perft_main(["1", "--fen", fen]) == 0
    by_fen = capsys.readouterr().out
    assert perft_main(["1", "--position", fen]) == 0
    assert capsys.readouterr().out == by_fen


# --------------------------------------------------------------------------- fewer words

def test_checkers_and_four_in_a_row_say_the_moves_unasked_only_when_few():
    session, recorder = table("four-in-a-row", auto=())
    accepted(session, "4")
    assert recorder.texts[-2:] == ["Red drops in column 4, row 1.", "Blue's turn."]
    accepted(session, "options")  # the seven columns, asked for
    assert recorder.texts[-1] == ("Choose: column 1; column 2; column 3; column 4; column 5;"
                                  " column 6; column 7.")
    session, recorder = table("checkers", auto=())
    for move in ("11-15", "22-18"):
        accepted(session, move)
        assert not recorder.texts[-1].startswith("Choose")
    accepted(session, "15x22")  # two captures to choose from: said
    assert recorder.texts[-1] == "Choose: 25x18; 26x17."


def test_help_lists_only_the_commands_the_game_takes():
    for game in ("checkers", "four-in-a-row", "solitaire", "chess"):
        session, _ = table(game, ("Red",) if game == "solitaire" else ("Red", "Blue"), auto=())
        text = session.command("help").text
        assert "roll N" not in text and "card CARD" not in text, game
        assert "Blue roll 4" not in text and "undo" in text
    session, _ = table("poker-dice", auto=())
    text = session.command("help").text
    assert "roll N" in text and "card CARD" not in text and "Blue roll 4" in text
    session, _ = table("rummy", auto=())
    text = session.command("help").text
    assert "roll N" not in text and "card CARD" in text and "correct" in text


# --------------------------------------------------------------------------- chess and draughts

def chess_board_seen(board) -> object:
    import chess

    from companion.observations import BoardSeen

    squares = []
    for sq in chess.SQUARES:
        piece = board.piece_at(sq)
        squares.append((chess.square_name(sq), piece.symbol() if piece else ""))
    return BoardSeen(source="dgt:test", squares=tuple(squares))


def test_chess_says_why_a_move_is_illegal():
    session, _ = table("chess", ("White", "Black"), auto=())
    refused(session, "Bc4", "The bishop on f1 cannot reach c4: the pawn on e2 is in the way.")
    refused(session, "e5", "The pawn on e2 cannot go to e5: a pawn moves straight ahead, one"
                           " square (two from its first square), and takes one square"
                           " diagonally ahead.")
    refused(session, "Ng3", "No knight of White's can go to g3: a knight moves two squares one"
                            " way and one the other.")
    refused(session, "O-O", "White cannot castle kingside: the bishop on f1 is in the way.")
    for move in ("e4", "e5", "d3", "Bb4"):
        accepted(session, move)
    refused(session, "Nf3", "White is in check from the bishop on b4, and knight g1 to f3 does"
                            " not answer it.")
    accepted(session, "Nc3")
    accepted(session, "Nf6")
    refused(session, "Nd5", "The knight on c3 is pinned to White's king by the bishop on b4:"
                            " moving it to d5 leaves the king in check.")
    refused(session, "Qd3", "d3 holds White's own pawn.")
    session, _ = table("chess", ("White", "Black"), auto=())
    for move in ("e4", "e5", "Nc3", "Bb4", "Nd5"):
        accepted(session, move)
    refused(session, "Ke7", "The king cannot go to e7: it would be in check from the knight on"
                            " d5.")


def test_chess_board_is_text_with_coordinates():
    session, _ = table("chess", ("White", "Black"), auto=())
    accepted(session, "e4")
    assert session.command("board").text.splitlines() == [
        "8  r n b q k b n r",
        "7  p p p p p p p p",
        "6  . . . . . . . .",
        "5  . . . . . . . .",
        "4  . . . . P . . .",
        "3  . . . . . . . .",
        "2  P P P P . P P P",
        "1  R N B Q K B N R",
        "   a b c d e f g h",
        "Capitals are White (K king, Q queen, R rook, B bishop, N knight, P pawn).",
    ]


def test_a_keyboard_undo_in_a_dgt_game_says_what_to_put_back():
    session, recorder = table("chess", ("White", "Black"), auto=())
    for move in ("e4", "d5"):
        accepted(session, move)
    board = session.state.board.copy()  # type: ignore[attr-defined]
    board.push_san("exd5")
    assert session.submit(chess_board_seen(board)).accepted  # made on the DGT board
    accepted(session, "undo")  # typed: the board still shows the capture
    assert recorder.texts[-1] == ("Undone: pawn from e takes d5. Put the pawn back from d5 to"
                                  " e4, and the black pawn back on d5. White to move.")


def test_a_keyboard_undo_without_a_board_says_nothing_to_put_back():
    session, recorder = table("chess", ("White", "Black"), auto=())
    accepted(session, "e4")
    accepted(session, "undo")
    assert recorder.texts[-1] == "Undone: pawn to e4. White to move."


def test_checkers_and_draughts_boards_show_the_square_numbers():
    session, _ = table("checkers", auto=())
    accepted(session, "11-15")
    assert session.command("board").text.splitlines() == [
        "      1m      2m      3m      4m",
        "  5m      6m      7m      8m",
        "      9m     10m     11.     12m",
        " 13.     14.     15m     16.",
        "     17.     18.     19.     20.",
        " 21M     22M     23M     24M",
        "     25M     26M     27M     28M",
        " 29M     30M     31M     32M",
        "m/k: Red's men and kings; M/K: Blue's.",
    ]
    session, _ = table("draughts", ("White", "Black"), auto=())
    lines = session.command("board").text.splitlines()
    assert lines[0] == "      1m      2m      3m      4m      5m"
    assert lines[9] == " 46M     47M     48M     49M     50M"
    assert lines[10] == "m/k: Black's men and kings; M/K: White's."


# --------------------------------------------------------------------------- dominoes

def test_dominoes_never_asks_left_or_right_when_both_ends_are_alike():
    session, recorder = table("dominoes", auto=())
    accepted(session, "play 6-6 Red")
    accepted(session, "6-4")  # the lone double: either side is the same game
    assert recorder.texts[-2] == "Blue plays six-four on a six; the ends are six and four."
    accepted(session, "4-4")
    accepted(session, "4-2")
    refused(session, "6-2", "The six-two fits on six and on two: say play 6-2 on 6 or on 2.")
    accepted(session, "6-2 on 6")
    assert recorder.texts[-2] == "Red plays six-two on the left; the ends are two and two."


# --------------------------------------------------------------------------- cribbage for clubs

def test_cribbage_status_says_who_deals_next():
    session, _ = table("cribbage", deal="read")
    assert session.command("status").text == ("Red 0, Blue 0; playing to 121. Hand 1: Red deals;"
                                              " Blue deals next. Blue to discard two.")


def play_to(session: Session, done) -> None:
    import random

    from companion.engine import CHANCE

    rng = random.Random(7)
    while not done(session.state):
        state = session.state
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        assert session.apply(action).accepted


def test_cribbage_skunk_and_double_skunk_by_the_acc_reading():
    from companion.games.cribbage import Cribbage

    for scores, kind in (([120, 95], ""), ([120, 90], " A skunk: Blue did not reach 91."),
                         ([120, 60], " A double skunk: Blue did not reach 61.")):
        state = Cribbage(["Red", "Blue"], {"deal": "read"}).new_state()
        state.side_scores = scores
        events: list = []
        state.side_scores[0] = 121
        assert state._check_win(events)
        assert events[-1].describe(["Red", "Blue"]) == f"Red wins the game! Red 121, Blue" \
                                                      f" {scores[1]}.{kind}"
    state = Cribbage(["Red", "Blue"], {"deal": "read", "skunk": "lurch"}).new_state()
    state.side_scores = [121, 70]
    events = []
    assert state._check_win(events)
    assert events[-1].detail == "Red 121, Blue 70."  # a lurch needs the loser short of 61
    state.side_scores = [121, 60]
    events = []
    assert state._check_win(events)
    assert events[-1].detail == "Red 121, Blue 60. A lurch: Blue did not reach 61."
    assert state.games[-1]["points"] == 4  # a lurch is two games


def test_cribbage_match_play_best_of_three_with_game_points():
    session, recorder = table("cribbage", deal="read", to=61, match=3, skunk="none")
    play_to(session, lambda s: s.game_number == 2)
    won = [t for t in recorder.texts if " game 1" in t]
    assert len(won) == 1 and won[0] in (
        "Red wins game 1: two game points. Match, best of 3: Red 2, Blue 0 game points; 4 win.",
        "Blue wins game 1: two game points. Match, best of 3: Red 0, Blue 2 game points; 4"
        " win.")
    state = session.state
    assert not state.is_terminal() and state.side_scores == [0, 0]  # type: ignore[attr-defined]
    loser = 1 - state.games[0]["winner"]  # type: ignore[attr-defined]
    assert state.dealer == loser  # type: ignore[attr-defined]
    assert "Game 2. Match, best of 3:" in session.command("status").text
    play_to(session, lambda s: s.is_terminal())
    assert max(state.match_points) == 4  # type: ignore[attr-defined]
    assert len(state.games) in (2, 3)  # type: ignore[attr-defined]
    assert recorder.texts[-1].startswith(("Red wins the game!", "Blue wins the game!"))
    assert "Match, best of 3:" in recorder.texts[-1]
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
