"""Excerpts: the passage of a long item or event that best matches the query, for when the
whole does not fit the budget.

A passage is a sentence or a line (logs and notes are lines; very long ones are cut into
pieces of `EXCERPT_WORDS` words). Passages are scored by the query's rarer words; the winning
window is widened with its neighbours while it fits, and rendered as one list line that says
it is an excerpt, of how many tokens, and how to read the whole (`lorestack show <id>`).
"""

from __future__ import annotations

import re

from lorestack.retrieval.loader_blocks import Block
from lorestack.retrieval.render_context import TokenMemo, bullet, id_tail

_WORD = re.compile(r"[a-z0-9]+")
# a passage boundary: after a sentence's end, or at a line break (logs and notes are lines)
_PASSAGE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_STOP = frozenset(
    "a an and are as at be been but by did do does for from had has have he her his how i if in "
    "into is it its me my not of on or our she so that the their them then there they this to "
    "up was we were what when where which who why will with would you your".split()
)
EXCERPT_WORDS = 60  # a passage longer than this many words is cut into pieces of this size


def _stem(word: str) -> str:
    """A light suffix strip so "deploys", "deployed" and "deploying" meet."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def passages(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences / lines of `text`, long ones cut into pieces."""
    spans: list[tuple[int, int]] = []
    at = 0
    for m in [*_PASSAGE_END.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[at:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.extend(_cut(text, at + lead, end))
        at = m.end() if m else len(text)
    return spans


def _cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
    words = list(re.finditer(r"\S+", text[start:end]))
    if len(words) <= EXCERPT_WORDS:
        return [(start, end)]
    out = []
    for n in range(0, len(words), EXCERPT_WORDS):
        group = words[n : n + EXCERPT_WORDS]
        out.append((start + group[0].start(), start + group[-1].end()))
    return out


def passage_scores(text: str, spans: list[tuple[int, int]], query: str) -> list[float]:
    """Per passage, the query terms it holds, each weighted by how rare it is among the
    passages (a word every line repeats tells nothing)."""
    import math

    wanted = _terms(query)
    terms = [_terms(text[a:b]) & wanted for a, b in spans]
    df: dict[str, int] = {}
    for found in terms:
        for t in found:
            df[t] = df.get(t, 0) + 1
    n = len(spans)
    return [sum(math.log(1 + n / df[t]) for t in found) for found in terms]


def best_window(text: str, query: str, memo: TokenMemo, max_tokens: int) -> tuple[int, int] | None:
    """The run of passages of `text` that best matches `query` within `max_tokens`, by the
    query's rarer words (`passage_scores`); None when no passage holds any of them.

    Words alone: scoring the passages by meaning as well (the index's sentence model) chose
    the evidence no more often on real conversations (docs/recall.md §21) and cost ~20 ms of
    CPU in one prompt of four.
    """
    spans = passages(text)
    if not spans:
        return None
    return window(text, spans, passage_scores(text, spans, query), memo, max_tokens)


def window(
    text: str,
    spans: list[tuple[int, int]],
    scores: list[float],
    memo: TokenMemo,
    max_tokens: int,
) -> tuple[int, int] | None:
    """The window of passages that fits `max_tokens` and holds the best-scoring passage (the
    highest total among those), then widened with its neighbours while room is left."""
    if not any(scores):
        return None
    n = len(spans)
    cost = [memo(text[a:b]) + 1 for a, b in spans]
    best, best_key = None, None
    lo, total, tokens = 0, 0.0, 0
    for hi in range(n):  # two pointers: the best-scoring window that fits
        total += scores[hi]
        tokens += cost[hi]
        while tokens > max_tokens and lo <= hi:
            total -= scores[lo]
            tokens -= cost[lo]
            lo += 1
        if lo <= hi:
            key = (round(max(scores[lo : hi + 1]), 6), round(total, 6), -(hi - lo))
            if best_key is None or key > best_key:
                best, best_key = (lo, hi), key
    if best is None:
        return None
    lo, hi = best
    while lo > 0 and scores[lo] == 0 and lo < hi:  # a window that starts or ends on nothing
        lo += 1
    while hi > lo and scores[hi] == 0:
        hi -= 1
    used = sum(cost[lo : hi + 1])
    while True:  # widen with the surrounding passages (context) while they fit
        grown = False
        for j in (hi + 1, lo - 1):
            if 0 <= j < n and used + cost[j] <= max_tokens:
                used += cost[j]
                lo, hi = min(lo, j), max(hi, j)
                grown = True
        if not grown:
            break
    return spans[lo][0], spans[hi][1]


def excerpt_block(
    block: Block,
    query: str,
    memo: TokenMemo,
    max_tokens: int = 90,
) -> Block | None:
    """The passage of a long block that best matches the query, marked as an excerpt with
    how to read the whole (`lorestack show <id>`); at most `max_tokens` tokens."""
    if block.tokens <= max_tokens or not query or not block.raw.strip():
        return None
    short = id_tail(block.id or "", 1.0).strip()
    whole = f"lorestack show {short.lstrip('~')}" if block.id else ""
    marker = f"[excerpt of {block.tokens} tok" + (f"; whole: `{whole}`]" if whole else "]")
    room = max_tokens - memo(bullet(marker + " … …")) - 2
    if room <= 0:
        return None
    raw = block.raw
    span = None
    for _ in range(4):  # the window is sized by its passages; shrink until the line fits
        span = best_window(raw, query, memo, room)
        if span is None:
            return None
        line = _excerpt_line(raw, span, marker)
        tokens = memo(line)
        if tokens <= max_tokens:
            break
        room -= tokens - max_tokens + 4
        if room <= 0:
            return None
    else:
        return None
    return Block(
        block.tier,
        block.id,
        block.kind,
        line,
        tokens,
        "excerpt",
        block.order,
        block.group,
        block.head,
        block.head_tokens,
        block.group_order,
        session=block.session,
        day_file=block.day_file,
        seq=block.seq,
    )


def _excerpt_line(raw: str, span: tuple[int, int], marker: str) -> str:
    start, end = span
    body = raw[start:end].strip()
    lead = "… " if raw[:start].strip() else ""
    trail = " …" if raw[end:].strip() else ""
    return bullet(f"{marker} {lead}{body}{trail}")
