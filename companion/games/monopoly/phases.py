"""Turn phases and variants, shared by the rule modules (kept apart to avoid import cycles)."""

BANK = -1
SETUP, ROLL, RESOLVING, BUY, TAX_CHOICE, CARD, UTIL_DICE, OVER, END = range(9)
PHASE_NAMES = ("setup", "roll", "resolving", "buy", "tax", "card", "utility-dice", "over",
               "end-turn")
STANDARD, SHORT, TIME_LIMIT = "standard", "short", "time-limit"
