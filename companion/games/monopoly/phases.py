"""Turn phases and variants, shared by the rule modules (kept apart to avoid import cycles)."""

BANK = -1
SETUP, ROLL, RESOLVING, BUY, TAX_CHOICE, CARD, UTIL_DICE, OVER = range(8)
PHASE_NAMES = ("setup", "roll", "resolving", "buy", "tax", "card", "utility-dice", "over")
STANDARD, SHORT, TIME_LIMIT = "standard", "short", "time-limit"
