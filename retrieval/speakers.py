"""Speakers a query names: a question about Gus favours what Gus said.

Conversation turns carry their speaker as an index field. A query that names a speaker known
to the store ("When did Gus pass the road test?") gets that speaker's events boosted in the
default pipeline (`retrieval.speaker_weight`, x2 by default). It is a boost, not a filter: in
a two-person chat the evidence about a person is usually, not always, said by that person
("Sami: did Gus pass?" "Gus: yes!" — or Sami telling the news). On locomo-dev x2 found more
than the former x1.3 at every budget (docs/recall.md §12).
"""

from __future__ import annotations

import re

# speakers every transcript has: naming them says nothing about whose turn is wanted
GENERIC = frozenset(
    (
        "user",
        "assistant",
        "system",
        "human",
        "ai",
        "bot",
        "model",
        "me",
        "you",
        "i",
        "we",
        "agent",
        "tool",
    )
)


def _pattern(name: str) -> re.Pattern | None:
    words = name.split()
    if not words or name.lower() in GENERIC or len(name) < 2:
        return None
    # the whole name, or its first word written as a name ("Ana" for "Ana Silva")
    whole = r"\s+".join(re.escape(w) for w in words)
    first = re.escape(words[0])
    return re.compile(rf"(?i:\b{whole}\b)" + (rf"|\b{first}\b" if len(words) > 1 else ""))


def named_speakers(query: str, known: set[str]) -> set[str]:
    """The known speakers (lowercased) the query names; empty when it names all of them, since
    a boost for everyone discriminates nothing."""
    named = set()
    for name in known:
        pattern = _pattern(name)
        if pattern is not None and pattern.search(query):
            named.add(name.lower())
    if len(named) >= len({k.lower() for k in known}):
        return set()
    return named


def name_words(query: str, known: set[str]) -> frozenset[str]:
    """The lowercased words of known speakers' names that the query says (all of them, even
    when it names everyone: BM25 then asks for another of the query's words besides)."""
    said = set(re.findall(r"\w+", query.lower()))
    words: set[str] = set()
    for name in known:
        if name.lower() in GENERIC:
            continue
        words.update(w for w in re.findall(r"\w+", name.lower()) if len(w) > 1 and w in said)
    return frozenset(words)


def without_names(query: str, words: frozenset[str]) -> str:
    """The query with the name words (and a possessive "'s") taken out, for the dense
    retriever: "What do Melanie's kids like?" -> "What do kids like?". The query itself
    when nothing else would be left."""
    if not words:
        return query
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    stripped = re.sub(rf"(?i)\b(?:{alt})(?:['’]s)?\b", " ", query)
    stripped = " ".join(stripped.split())
    return stripped if re.search(r"\w{3,}", stripped) else query

