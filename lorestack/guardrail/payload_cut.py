"""A pre-tool payload cut short, made whole again so its start can be judged.

A hook reads at most `HOOK_PAYLOAD_MAX` bytes of a tool call (core/hook_stdin.py, `prefix`):
reading and judging a 5 MB Write whole took seconds and hundreds of MB, and skipping it would
let a rule it breaks through unsaid. What was read is the start of one JSON object, cut
anywhere: `closed(text)` ends it where it can — inside the string value it was cut in (the
content of the Write), else after the last whole value — and closes every open bracket, so
the tool, its path and the first part of its content are judged, and the reply says the rest
was not (`check_cmds`).
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # json's own, in C
from typing import Any

from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX

# a bracket or separator, a bare word (number, true, false, null), space; strings are
# scanned by json's own scanner (a regex backtracks over a cut one: 0.35 s a MiB)
_TOKEN = re.compile(r'[{}\[\]:,]|[^\s{}\[\]:,"]+|\s+')
# the whole characters and escapes at the start of a string's body
_BODY = re.compile(r'(?:[^"\\]+|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*')
_CLOSE = {"{": "}", "[": "]"}
MAX_DEPTH = 100  # a tool input nested deeper is not walked (no client's tool takes one)
MAX_PATHS = 1000  # the paths of one tool call judged (a MultiEdit of 15,000 files took seconds)


def closed(text: str) -> str | None:
    """`text` (the start of a JSON object) ended and closed, or None if it is not one."""
    text = text.lstrip()
    if not text.startswith("{"):
        return None
    stack: list[str] = []  # open brackets
    wants_key: list[bool] = []  # per open bracket: an object expecting a key next
    good = (0, 0)  # (where, depth): the end of the last whole value and how deep it sat
    pos = 0
    while pos < len(text):
        if text[pos] == '"':
            try:
                pos = scanstring(text, pos + 1)[1]
            except ValueError:  # an unterminated string: the cut fell in it
                if not stack or wants_key[-1]:
                    break  # a key cut short: end after the last whole value
                end = _BODY.match(text, pos + 1).end()  # type: ignore[union-attr]
                return text[:end] + '"' + _closers(stack, len(stack))
            token = '"'
        else:
            match = _TOKEN.match(text, pos)
            if match is None:
                break
            token = match.group()
            pos = match.end()
        if token in ("{", "["):
            stack.append(token)
            wants_key.append(token == "{")
        elif token in ("}", "]"):
            if not stack:
                break
            stack.pop()
            wants_key.pop()
            good = (pos, len(stack))
            if not stack:
                return text[:pos]  # whole after all
        elif token == ",":
            if stack:
                wants_key[-1] = stack[-1] == "{"
        elif token == ":":
            if stack:
                wants_key[-1] = False
        elif token[0] == '"':
            if stack and wants_key[-1]:
                continue  # a key: its value is still to come
            good = (pos, len(stack))
        elif not token.isspace() and pos < len(text):  # a number or literal followed by more
            good = (pos, len(stack))
    where, depth = good
    if where == 0:
        return None
    return text[:where] + _closers(stack, depth)


def _closers(stack: list[str], depth: int) -> str:
    return "".join(_CLOSE[b] for b in reversed(stack[:depth]))


def json_payload(text: str) -> tuple[Any, int]:
    """The payload's JSON value, and 0 or, for one cut at the bytes a hook reads (it was
    longer: core/hook_stdin.py `prefix`), that many bytes: what they hold is judged."""
    from lorestack.guardrail.proposals import ProposalError

    try:
        return json.loads(text), 0
    except RecursionError:
        raise ProposalError("the hook payload is nested deeper than JSON is read") from None
    except json.JSONDecodeError as exc:
        size = len(text.encode("utf-8", "surrogatepass"))
        whole = closed(text) if size > HOOK_PAYLOAD_MAX - 4 else None  # 3: a character cut
        if whole is None:
            raise ProposalError(f"the hook payload is not JSON ({exc.msg} at {exc.pos})") from exc
        try:
            return json.loads(whole), size
        except (json.JSONDecodeError, RecursionError):
            raise ProposalError(f"the hook payload is not JSON ({exc.msg} at {exc.pos})") from exc


def within(texts: list[str], paths: list[str], max_bytes: int) -> tuple[str, list[str], list[str]]:
    """(the text judged, what was cut and why, the paths judged): the first `max_bytes` of
    the tool's texts (limits.max_proposal_bytes) and its first `MAX_PATHS` paths."""
    from lorestack.memory_layers.input_check import human_size

    text, notes = "\n".join(texts), []
    size = len(text.encode("utf-8", "surrogatepass"))
    if 0 < max_bytes < size:
        text = text.encode("utf-8", "surrogatepass")[:max_bytes].decode("utf-8", "ignore")
        notes.append(f"proposal is {human_size(size)}; judged its first {human_size(max_bytes)} "
                     "(limits.max_proposal_bytes)")
    paths = list(dict.fromkeys(paths))
    if len(paths) > MAX_PATHS:
        notes.append(f"the call names {len(paths)} paths; judged its first {MAX_PATHS}")
    return text, notes, paths[:MAX_PATHS]


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `value` nests lists or objects more than `limit` levels deep (read without
    recursion: json reads up to ~1,000 levels, more than a recursive walk of it can)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False
