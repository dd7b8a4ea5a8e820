"""Checked reading of hand-edited data files (editions, decks, tag maps, phrases).

Every fault is one sentence that names the file and the field, with what was expected and what
was found: "config/editions/monopoly-x.json: spaces[1].price must be a whole number of 0 or
more, not -1000000." A loader wraps the file's JSON in ``Fields`` and reads through it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from companion.config import find_config, load_json

_MISSING: Any = object()


class DataError(ValueError):
    """A data file that cannot be used; the message names the file and the field."""


def kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the text "{value[:40]}"'
    if isinstance(value, list):
        return "a list"
    return "an object"


def load_fields(relative: str, what: str) -> Fields:
    """A data file's top-level object, by the name a loader asks for (``what``: "an edition")."""
    data = load_json(relative)
    try:
        shown = str(find_config(relative))
    except FileNotFoundError:
        shown = relative  # a resumed game's copy, from its journal
    if not isinstance(data, dict):
        raise DataError(f"{shown}: {what} file holds one JSON object ({{...}}), not "
                        f"{kind_of(data)}.")
    return Fields(data, shown)


class Fields:
    """Checked reads from one JSON object of a data file (``where``: its place in the file)."""

    def __init__(self, data: Mapping[str, Any], file: str, where: str = "") -> None:
        self.data = data
        self.file = file
        self.where = where

    def name(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.where}[{key}]"
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str | int, message: str) -> DataError:
        text = f"{self.file}: {self.name(key)} {message}"
        return DataError(text if text.endswith(".") else text + ".")

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise self.fail(key, "is missing")
        return default

    def integer(self, key: str, default: Any = _MISSING, *, low: int | None = 0,
                high: int | None = None) -> int:
        return self.check_int(key, self.get(key, default), low, high)

    def check_int(self, key: str | int, value: Any, low: int | None = 0,
                  high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {kind_of(value)}")
        if low is not None and value < low:
            bound = f"from {low} to {high}" if high is not None else f"of {low} or more"
            raise self.fail(key, f"must be a whole number {bound}, not {value}")
        if high is not None and value > high:
            raise self.fail(key, f"must be a whole number from {low} to {high}, not {value}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be some text, not {kind_of(value)}")
        return value

    def items(self, key: str, default: Any = _MISSING) -> list[Any]:
        value = self.get(key, default)
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list ([...]), not {kind_of(value)}")
        return value

    def integers(self, key: str, default: Any = _MISSING, *, length: int | None = None,
                 low: int | None = 0) -> tuple[int, ...]:
        values = self.items(key, default)
        if length is not None and len(values) != length:
            raise self.fail(key, f"must list {length} whole numbers, not {len(values)}")
        inner = self.inner(key)
        return tuple(inner.check_int(i, v, low) for i, v in enumerate(values))

    def texts(self, key: str, default: Any = _MISSING) -> tuple[str, ...]:
        values = self.items(key, default)
        for i, value in enumerate(values):
            if not isinstance(value, str) or not value.strip():
                raise self.inner(key).fail(i, f"must be some text, not {kind_of(value)}")
        return tuple(values)

    def obj(self, key: str, default: Any = _MISSING) -> Fields:
        value = self.get(key, default)
        if not isinstance(value, dict):
            raise self.fail(key, f"must be an object ({{...}}), not {kind_of(value)}")
        return Fields(value, self.file, self.name(key))

    def each(self, key: str, default: Any = _MISSING) -> Iterator[Fields]:
        """The objects of a list field, each checked to be one."""
        for i, value in enumerate(self.items(key, default)):
            if not isinstance(value, dict):
                raise self.inner(key).fail(i, f"must be an object ({{...}}), not "
                                              f"{kind_of(value)}")
            yield Fields(value, self.file, f"{self.name(key)}[{i}]")

    def members(self) -> Iterator[tuple[str, Fields]]:
        """The (key, object) pairs of this object, each value checked to be an object."""
        for key, value in self.data.items():
            if not isinstance(value, dict):
                raise self.fail(key, f"must be an object ({{...}}), not {kind_of(value)}")
            yield key, Fields(value, self.file, self.name(key))

    def text_map(self, key: str, default: Any = _MISSING) -> dict[str, str]:
        """An object of text values ("words", a tag map's "tags")."""
        inner = self.obj(key, default)
        for k, value in inner.data.items():
            if not isinstance(value, str):
                raise inner.fail(k, f"must be some text, not {kind_of(value)}")
        return dict(inner.data)

    def inner(self, key: str) -> Fields:
        """For naming the members of a list field: ``spaces[3]``."""
        return Fields({}, self.file, self.name(key))
