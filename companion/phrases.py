"""Spoken wording: an event's own ``describe`` unless config/phrases/<lang>.json overrides it.

A phrase is a str.format template over the event's fields plus ``name`` (the player's name).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from companion.config import load_json
from companion.engine import Event

log = logging.getLogger("companion.phrases")


class Phrasebook:
    def __init__(self, templates: Mapping[str, str] | None = None) -> None:
        self.templates = dict(templates or {})

    @classmethod
    def load(cls, language: str = "en") -> Phrasebook:
        try:
            data = load_json(f"phrases/{language}.json")
        except FileNotFoundError:
            return cls()
        return cls({k: v for k, v in data.items() if not k.startswith("_")})

    def render(self, event: Event, names: Sequence[str]) -> str:
        template = self.templates.get(event.key)
        if template:
            try:
                return template.format(**event.fields(names))
            except (KeyError, IndexError, ValueError) as err:
                log.warning("phrase %r does not fit %r: %s", event.key, event, err)
        return event.describe(names)
