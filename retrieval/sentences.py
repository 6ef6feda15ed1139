"""Sentence vectors: each sentence of a short item or turn gets a vector of its own.

One vector per item is the mean of every word it holds: a chat turn that greets, tells what
happened and asks back ("Hey Mel! I went to a support group yesterday. How are the kids?")
is as far from a question about any one of those as from the others. With a vector per
sentence as well, the vector store scores an item by its best vector (vectors.py), so the
sentence a question is about is met on its own. The whole text keeps its vector too.

Measured dense-only (MiniLM, exact cosine; docs/recall.md §20): locomo-dev any@10 .559 ->
.657, multi-hop questions with every evidence turn in the top 50: 44 -> 68 of 141; the
changelog dev set's paraphrases any@10 12 -> 9 of 30 (short bullets' sentences are generic);
the generated code sets' one-sentence events get no piece.
"""

from __future__ import annotations

import re

# a sentence ends at . ! or ? before a space; "e.g. x" or "v1.2" splits wrongly now and then,
# which only adds a vector, never loses the whole text's
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
MERGE_WORDS = 3   # a part under this many words ("Hey Mel!", "Wow.") joins the next one
MIN_WORDS = 8     # a piece under this many words (speaker prefix included) gets no vector
MAX_PIECES = 16   # a long turn: its first 16 pieces (the whole text still has its vector)


def sentence_pieces(text: str, speaker: str = "") -> list[str]:
    """The pieces of `text` that get a vector beside the whole; [] for a one-piece text.
    A chat turn's pieces keep its "Speaker: " prefix (whoever said it is part of what
    the vector sees, as for the whole turn)."""
    prefix, body = "", text
    if speaker and text.startswith(speaker + ":"):
        prefix, body = speaker + ": ", text[len(speaker) + 1:].lstrip()
    parts: list[str] = []
    carry = ""
    for part in _SENTENCE_END.split(body):
        part = part.strip()
        if not part:
            continue
        part = f"{carry} {part}" if carry else part
        if len(part.split()) < MERGE_WORDS:
            carry = part
            continue
        carry = ""
        parts.append(part)
    if carry:
        if parts:
            parts[-1] = f"{parts[-1]} {carry}"
        else:
            parts.append(carry)
    if len(parts) <= 1:
        return []
    pieces = [prefix + p for p in parts]
    return [p for p in pieces if len(p.split()) >= MIN_WORDS][:MAX_PIECES]
