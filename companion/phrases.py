"""Spoken wording: an event's own ``describe`` unless config/phrases/<lang>.json overrides it.

A phrase is a str.format template over the event's fields plus ``name`` (the player's name).
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping, Sequence

from companion.datafile import kind_of, load_fields
from companion.engine import Event

log = logging.getLogger("companion.phrases")


class Phrasebook:
    def __init__(self, templates: Mapping[str, str] | None = None) -> None:
        self.templates = dict(templates or {})

    @classmethod
    def load(cls, language: str = "en") -> Phrasebook:
        try:
            f = load_fields(f"phrases/{language}.json", "a phrases")
        except FileNotFoundError:
            return cls()
        templates = {}
        for key, value in f.data.items():
            if key.startswith("_"):
                continue  # comments
            if not isinstance(value, str):
                raise f.fail(key, f"must be a sentence (text), not {kind_of(value)}")
            try:
                list(string.Formatter().parse(value))
            except ValueError as err:
                raise f.fail(key, f"is not a template: {err} (write {{{{ and }}}} for a "
                                  "brace)") from None
            templates[key] = value
        return cls(templates)

    def render(self, event: Event, names: Sequence[str]) -> str:
        template = self.templates.get(event.key)
        if template:
            try:
                return template.format(**event.fields(names))
            except (KeyError, IndexError, ValueError) as err:
                log.warning("phrase %r does not fit %r: %s", event.key, event, err)
        return event.describe(names)
