"""Monopoly The Card Game (rulebook 003, Winning Moves 2000) for 2 to 6 players.

``deck`` loads the cards from config/decks/monopoly-card-game.json; ``scoring`` values hands
as the rulebook prints them. Design and choices: docs/games/monopoly-card-game.md.
"""
