"""Cribbage (rulebook 000, "Cribbage Instructions"): scoring, the game engine and CLI tools."""
