"""Excerpts: the passage of a long item or event that best matches the query, for when the
whole does not fit the budget.

A passage is a sentence or a line (logs and notes are lines; very long ones are cut into
pieces of `EXCERPT_WORDS` words). Passages are scored by the query's rarer words and, when
this process has the index's sentence model loaded already, by meaning; the winning window
is widened with its neighbours while it fits, and rendered as one list line that says it is
an excerpt, of how many tokens, and how to read the whole (`lorestack show <id>`).
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


def loaded_embedder():
    """The local sentence embedder if this process already loaded it (a search did), else
    None: an excerpt never pays for loading a model (session hooks stay fast)."""
    import sys

    module = sys.modules.get("lorestack.retrieval.embedding")
    if module is None:
        return None
    return next(
        (e for e in module._CACHE.values() if isinstance(e, module.OnnxMiniLMEmbedder)), None
    )


_VECTORS: dict[str, object] = {}  # text digest -> its passages' vectors (bounded, see below)
_QUERIES: dict[str, object] = {}  # query -> its vector (the loader asks once per excerpt)


def _semantic(
    text: str,
    spans: list[tuple[int, int]],
    query: str,
    embedder,
    allowance: list[int] | None = None,
) -> list[float] | None:
    """Per passage, how much closer it is to the query than the average passage, in meaning
    (0 for average or worse, 1 for the closest), from the index's sentence embedder.
    Passage vectors are kept per text, so a long note is embedded once per process."""
    import hashlib

    import numpy as np

    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    vectors = _VECTORS.get(key)
    if vectors is None:
        if allowance is not None:  # a context embeds only so many texts it has not seen
            if allowance[0] <= 0:
                return None
            allowance[0] -= 1
        vectors = embedder.embed([text[a:b] for a, b in spans])
        if len(_VECTORS) > 256:
            _VECTORS.clear()
        _VECTORS[key] = vectors
    wanted = _QUERIES.get(query)
    if wanted is None:
        one = getattr(embedder, "embed_one", None)  # the search embedded it already
        wanted = np.asarray(one(query) if one is not None else embedder.embed([query])[0])
        if len(_QUERIES) > 256:
            _QUERIES.clear()
        _QUERIES[query] = wanted
    sims = np.asarray(vectors) @ wanted
    top, mean = float(sims.max()), float(sims.mean())
    if top <= mean:
        return [0.0] * len(spans)
    return [max(0.0, (float(sim) - mean) / (top - mean)) ** 2 for sim in sims]


def best_window(
    text: str,
    query: str,
    memo: TokenMemo,
    max_tokens: int,
    embedder=None,
    allowance: list[int] | None = None,
) -> tuple[int, int] | None:
    """The run of passages of `text` that best matches `query` within `max_tokens`.

    Passages are scored by the query terms they hold, each weighted by how rare it is among
    the passages (a word every line repeats tells nothing) plus — when `embedder` is given —
    how close each is to the query in meaning (the index's own sentence model, so paraphrased
    questions find their passage). The window that fits and holds the best passage wins (the
    highest total among those), and is then widened with its neighbours while room is left.
    None when no passage matches at all.
    """
    import math

    spans = passages(text)
    wanted = _terms(query)
    if not spans or not (wanted or embedder is not None):
        return None
    terms = [_terms(text[a:b]) & wanted for a, b in spans]
    df: dict[str, int] = {}
    for found in terms:
        for t in found:
            df[t] = df.get(t, 0) + 1
    n = len(spans)
    scores = [sum(math.log(1 + n / df[t]) for t in found) for found in terms]
    if embedder is not None and n > 1:
        try:
            meaning = _semantic(text, spans, query, embedder, allowance)
        except Exception:  # noqa: BLE001 - words alone still choose a passage
            meaning = None
        if meaning is not None:  # meaning first (paraphrases), words to break ties
            top = max(scores) or 1.0
            scores = [m + (s / top) ** 2 for m, s in zip(meaning, scores)]
    if not any(scores):
        return None
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
    allowance: list[int] | None = None,
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
    embedder = loaded_embedder()
    for _ in range(4):  # the window is sized by its passages; shrink until the line fits
        span = best_window(raw, query, memo, room, embedder, allowance)
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
