"""The dice games: ``dice_game`` (five dice and a score form of 13 boxes, rulebook 002) with
``boxes`` (the form, shared with its tools) and ``optimal`` (the optimal-strategy solver); and
``poker_dice`` with ``poker_hands`` (the hands and their ranking).
"""
