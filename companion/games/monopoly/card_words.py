"""A Chance or Community Chest card named by a person: by its words ("take a walk on
boardwalk", "advance to go"), a distinctive keyword ("boardwalk", "dividend"), its id
("WALK-BOARDWALK"), with typing slips forgiven; an ambiguous name gets "did you mean".

Pure text matching over the edition's cards: no state, no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from companion.games.monopoly.edition import Card, name_list

# Words that say nothing about which card it is.
_STOP = frozenset({"card", "the", "a", "an", "to", "on", "of", "you", "your", "and", "in",
                   "for", "is", "it", "its", "draw", "drew", "drawn"})


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))


def _loose(text: str) -> str:
    return "".join(_words(text))


def short_name(card: Card) -> str:
    """The card's first words, as said ("Advance to GO", "Take a walk on Boardwalk")."""
    first = re.split(r"(?<!St)\.\s|\.$|\(|:", card.text.strip())[0].strip()
    for cut in (",", " and pay", " If "):
        head = first.split(cut)[0].strip()
        if len(head.split()) >= 3:
            first = head
    return first.rstrip(".,;")


def _distinct(cards: Sequence[Card]) -> list[Card]:
    """One card per wording (the two "nearest Railroad" cards are the same to a player)."""
    seen: dict[str, Card] = {}
    for card in cards:
        seen.setdefault(card.text, card)
    return list(seen.values())


def _close(word: str, vocabulary: Sequence[str]) -> bool:
    if len(word) >= 3 and any(v.startswith(word) for v in vocabulary):
        return True
    return bool(difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.8))


def find_card(cards: Sequence[Card], text: str, deck_name: str) -> Card:
    """The card of ``cards`` that ``text`` names; ValueError with the reason (the sentence
    to say, with "did you mean" when several or none fit)."""
    want = _words(text)
    if not want:
        raise ValueError(f"Say which {deck_name} card, by its words, like: card "
                         f"{short_name(cards[0]).lower()}.")
    phrase = " ".join(want)
    keys = [w for w in want if w not in _STOP] or want
    texts = {c.id: " ".join(_words(c.text)) for c in cards}
    vocab = {c.id: _words(c.text) + _words(c.id) for c in cards}
    tiers = (
        lambda c: _loose(c.id) == "".join(want),
        lambda c: texts[c.id].startswith(phrase),
        lambda c: f" {phrase} " in f" {texts[c.id]} ",
        lambda c: all(k in vocab[c.id] for k in keys),
        lambda c: all(_close(k, vocab[c.id]) for k in keys),
    )
    for fits in tiers:
        hits = _distinct([c for c in cards if fits(c)])
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise ValueError(f"\"{text.strip()}\" could be more than one {deck_name} card: did "
                             f"you mean {_choices(hits)}?")
    near = difflib.get_close_matches(phrase, [texts[c.id] for c in cards], n=2, cutoff=0.4)
    guesses = _distinct([c for c in cards if texts[c.id] in near])
    hint = f" Did you mean {_choices(guesses)}?" if guesses else ""
    return _refuse(f"No {deck_name} card reads \"{text.strip()}\".{hint} Say cards for the "
                   "list.")


def _choices(cards: Sequence[Card]) -> str:
    named = [short_name(c) for c in cards]
    if len(named) > 3:
        return name_list(named[:3], "or") + ", or another"
    return name_list(named, "or")


def _refuse(reason: str) -> Card:
    raise ValueError(reason)


def deck_list(cards: Sequence[Card], deck_name: str) -> str:
    """What may be drawn, for 'cards' and 'options' at a draw."""
    names = "; ".join(short_name(c) for c in _distinct(cards))
    return (f"The {deck_name} cards that may be drawn: {names}. Type card and a few of its "
            "words, like: card " + short_name(cards[0]).lower() + ".")
