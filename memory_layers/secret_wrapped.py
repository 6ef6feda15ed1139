"""Provider tokens split by a line break: a key wrapped by a terminal, an editor or a chat
window when it was pasted (`AKIAIOSFODNN7` + newline + `EXAMPLE`, a `ghp_…` token broken
at 40 columns).

Only runs of token characters that meet at a line break are joined (no space on either side
of the break, bar the next line's indentation or quote marker), and only when the joined run is long enough
to hold a key. Only the prefix-anchored provider rules are tried on the joined run, and only
a match that crosses a break counts, so joining ordinary wrapped prose cannot raise a keyword
or entropy alarm. A match is mapped back to the original text, break included, so redaction
replaces every line of the token.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lorestack.memory_layers.secret_rules import PROVIDER_RULES

# token pieces separated by line breaks; a piece is what a key is made of
_PIECE = r"[A-Za-z0-9_\-+/=.]"
# the next line may be indented or carry a quote / comment marker ("> ", "# ") of its block
_BREAK_SRC = r"\r?\n[ \t]*(?:[>#][ \t]*)*"
# a run starts only where a run of token characters starts: tried from inside a long blob
# (base64, a minified line) the pattern backtracked from every position, quadratic in its length
_WRAPPED = re.compile(rf"(?<!{_PIECE}){_PIECE}+(?:{_BREAK_SRC}{_PIECE}+)+")
_BREAK = re.compile(_BREAK_SRC)
_WORD = re.compile(r"[A-Z]?[a-z]+")
_MIN_JOINED = 16  # shorter than any provider token


def _original(pieces: list[str], offsets: list[int], i: int, end: bool = False) -> int:
    """The joined index `i` back in the text; an end index maps to the end of its piece."""
    at = 0
    for piece, offset in zip(pieces, offsets):
        if i < at + len(piece) or (end and i == at + len(piece)):
            return offset + i - at
        at += len(piece)
    return offsets[-1] + len(pieces[-1])


def _drop_word_tail(
    pattern: re.Pattern[str], joined: str, start: int, end: int, breaks: list[int]
) -> int:
    """A greedy rule runs on into the next line's first word ("...iPo" + newline + "end"):
    a last line that is one word is left out when the key is whole without it."""
    last = max(b for b in breaks if b < end)
    if last > start and _WORD.fullmatch(joined, last, end):
        if pattern.fullmatch(joined, start, last):
            return last
    return end


def wrapped_tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each provider token in `text` that a line break splits."""
    if "\n" not in text:
        return
    for run in _WRAPPED.finditer(text):
        pieces, offsets, breaks = [], [], []
        pos, length = run.start(), 0
        for brk in _BREAK.finditer(text, run.start(), run.end()):
            pieces.append(text[pos : brk.start()])
            offsets.append(pos)
            length += brk.start() - pos
            breaks.append(length)  # joined index where the break was
            pos = brk.end()
        pieces.append(text[pos : run.end()])
        offsets.append(pos)
        joined = "".join(pieces)
        if len(joined) < _MIN_JOINED:
            continue
        lower = joined.lower()

        for rule in PROVIDER_RULES:
            if not rule.may_match(joined, lower):
                continue
            for match in rule.pattern.finditer(joined):
                start, end = match.span(rule.group)
                if not any(start < b < end for b in breaks):
                    continue  # on one line: the ordinary pass finds it
                if rule.check is not None and not rule.check(match):
                    continue
                end = _drop_word_tail(rule.pattern, joined, start, end, breaks)
                yield (
                    rule.kind,
                    _original(pieces, offsets, start),
                    _original(pieces, offsets, end, True),
                )
