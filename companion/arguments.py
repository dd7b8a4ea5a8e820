"""Command-line arguments refused with sentences: argparse's complaints ("argument --rate:
invalid int value: 'abc'") said as the companion says things ("--rate takes a whole number,
not "abc"."), and number arguments checked for their range."""

from __future__ import annotations

import argparse
import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any, NoReturn


@contextlib.contextmanager
def argument_sentences() -> Iterator[None]:
    """Every command's arguments refused with a sentence, not argparse's usage and "error:"
    lines: its ``error`` is replaced while a command runs (the parsers of devices/ and
    vision/ too, which cannot import this module)."""
    saved = argparse.ArgumentParser.error

    def refuse(parser: argparse.ArgumentParser, message: str) -> NoReturn:
        raise ValueError(args_sentence(parser.prog, message))

    argparse.ArgumentParser.error = refuse  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        argparse.ArgumentParser.error = saved  # type: ignore[method-assign]


_KINDS = {"int": "a whole number", "float": "a number"}
_ARGPARSE = (
    (r"argument (?P<arg>\S+): invalid (?P<kind>\w+) value: '(?P<value>.*)'",
     lambda m: f"{_arg(m)} takes {_KINDS.get(m['kind'], 'a ' + m['kind'])}, not "
               f"\"{m['value']}\"."),
    (r"argument (?P<arg>\S+): invalid choice: '(?P<value>.*)' \(choose from (?P<all>.*)\)",
     lambda m: f"{_arg(m)} must be one of {m['all'].replace(chr(39), '')}; not "
               f"\"{m['value']}\"."),
    (r"argument (?P<arg>\S+): expected (?:one|at least one) argument",
     lambda m: f"{_arg(m)} needs a value."),
    (r"argument (?P<arg>\S+): not allowed with argument (?P<other>\S+)",
     lambda m: f"{_arg(m)} and {m['other'].split('/')[0]} cannot be given together."),
    (r"the following arguments are required: (?P<all>.*)",
     lambda m: f"Something is missing: {m['all'].replace('/', ' or ')}."),
    (r"one of the arguments (?P<all>.*) is required",
     lambda m: f"It needs one of {m['all'].replace(' ', ', ')}."),
    (r"unrecognized arguments: (?P<all>.*)",
     lambda m: f"It does not take {m['all']}."),
    (r"argument (?P<arg>\S+): (?P<why>takes .*)", lambda m: f"{_arg(m)} {m['why']}."),
)


def ranged(kind: type[int] | type[float], low: float, high: float) -> Callable[[str], Any]:
    """An argument type: a number of ``kind`` from ``low`` to ``high``, else a sentence."""
    what = "a whole number" if kind is int else "a number"

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"takes {what} from {low:g} to {high:g}, not "
                                             f"\"{text}\"")
        return value

    parse.__name__ = what
    return parse


RATE = ranged(int, 50, 500)  # words per minute a listener can follow
VOLUME = ranged(float, 0, 1)
PORT = ranged(int, 0, 65535)


def _arg(match: re.Match[str]) -> str:
    return match["arg"].split("/")[0]


def args_sentence(prog: str, message: str) -> str:
    """argparse's complaint as a sentence, with where to look for the right form."""
    from companion.engine import sentence  # here: --help and 'games' load no engine

    for pattern, say in _ARGPARSE:
        match = re.fullmatch(pattern, message)
        if match:
            text = say(match)
            break
    else:
        text = sentence(message[:1].upper() + message[1:])
    return f"{text} ('{prog} --help' shows what it takes.)"


