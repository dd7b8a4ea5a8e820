"""Tag maps: which NFC tag or barcode id means which card or command (config/tags/*.json).

A map file is ``{"name": "...", "tags": {"04A1B2C3": "card 5H", "04FF0011": "undo"}}``:
each value is a console line, so a tag can stand for a card, a throw or any game command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.datafile import load_fields
from companion.engine import IllegalAction
from companion.observations import TagSeen, TextCommand


@dataclass
class TagMap:
    tags: Mapping[str, str] = field(default_factory=dict)
    name: str = "no tag map"

    @classmethod
    def load(cls, name_or_path: str) -> TagMap:
        relative = name_or_path if name_or_path.endswith(".json") else f"tags/{name_or_path}.json"
        f = load_fields(relative, "a tag map")
        lines = f.text_map("tags")
        inner = f.obj("tags")
        for tag, line in lines.items():
            if not tag or any(c not in "0123456789abcdefABCDEF" for c in tag):
                raise inner.fail(tag, "is not a tag id: ids are hexadecimal (like 04A1B2C3)")
            if not line.strip():
                raise inner.fail(tag, "must be the console line the tag stands for")
        return cls({k.upper(): v for k, v in lines.items()}, f.text("name", name_or_path))

    def resolve(self, obs: TagSeen) -> TextCommand:
        line = self.tags.get(obs.tag.upper())
        if line is None:
            raise IllegalAction(f"Unknown tag {obs.tag}: it is not in the tag map ({self.name})")
        return TextCommand(source=obs.source, text=line, player=obs.player,
                           confidence=obs.confidence, time=obs.time)
