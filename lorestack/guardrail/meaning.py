"""Does a criterion apply by meaning? The sentence model (all-MiniLM-L6-v2, the one recall
already loads) compares the criterion's sentence and its clauses with the proposal: its
whole text, each line or sentence of it (for a diff: the added lines; for a tool call:
the command or the written text), and a line of code said in words (gloss.py). Above
`THRESHOLD` the criterion applies even where none of its words occur — "Add Cassandra"
under "no new storage component" — and the check answers at least "applies, undecided".

The threshold was calibrated on the tuning cases only (tests/guardrail_tuning_cases.py and
the older labelled sets; `python -m tests.calibrate_meaning` prints the figures): the
lowest value at which no tuning violation passes unnoticed, weighed against how often a
proposal "applies" to an unrelated criterion of the same set.

Criterion vectors are cached per process by text (the resident service judges every hook
with them warm). A proposal's units are embedded in one batch and kept too, the oldest
forgotten first: a line checked again (the same command, a diff's unchanged added lines, a
check repeated with `--confirmed`) is not embedded again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from lorestack.guardrail.gloss import gloss, path_gloss
from lorestack.guardrail.instead_of import cut_instead
from lorestack.guardrail.sentence_words import CLAUSE_MARKS

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from lorestack.core.settings import Settings
    from lorestack.guardrail.proposals import Proposal

THRESHOLD = 0.35
CLAUSES = True
GLOSS = True
MAX_UNITS = 16
MAX_UNIT_CHARS = 400
_CLAUSE = re.compile(CLAUSE_MARKS + r"|\.(?:\s+|$)|,\s+(?=but |use |instead |only |unless )|\s+[-\u2013\u2014]+\s+")
_LINE = re.compile(r"\n+|(?<=[.!?])\s+(?=[A-Z])|(?<!\s)\s*(?:&&|\|\||;)\s*")  # (?<!\s): linear on long blanks
# a line's clauses: "…, tests can come later", "… and leave the docs for later"
_PROPOSAL_CLAUSE = re.compile(r",\s+|(?<!\s)\s+(?:and|but|so|then|while)\s+")  # (?<!\s): linear
# a purpose clause: "Run an UPDATE against the production database to fix the bad rows"; the
# act before it is a unit of its own (thirty-eighth session: the purpose pulled the whole line
# below the threshold; 3 silent passes of everyday and tuning-all surfaced, no look-alike of
# the sets lost). Its cost: an act that only reads, said with a purpose ("Query the production
# database to count the stuck orders"), is asked about as the act alone already was.
_PURPOSE = re.compile(r"(?<!\s)\s+(?:to|in order to)\s+(?=[a-z]+\s+(?:the|a|an|our|this|that|"
                      r"these|those|it|them|its|their|some|all|any)\b)")
PURPOSE = True
_CACHE: dict[str, np.ndarray] = {}
_STACKS: dict[tuple[str, ...], np.ndarray] = {}  # a criterion's parts, stacked once
_CACHE_LIMIT = 4096
_UNITS: dict[str, np.ndarray] = {}  # proposal units, oldest first
_UNIT_LIMIT = 8192  # 384 floats each: at most 12.6 MB


@dataclass
class MeaningHit:
    similarity: float
    part: str  # the criterion's sentence or clause
    unit: str  # the proposal's text, line or sentence

    def describe(self) -> str:
        unit = " ".join(self.unit.split())
        unit = unit if len(unit) <= 80 else unit[:77] + "…"
        return f"by meaning (similarity {self.similarity:.2f}): '{unit}'"


_CUE_WORDS = frozenset(
    "do don't dont not never no must mustn't should shouldn't always only avoid please "
    "we you cannot can't may to be is are".split()
)


def _topic(clause: str) -> str:
    """A clause without its leading rule words: "Never use eval() on user input" -> "use
    eval() on user input" (the cue says nothing about what the rule is about)."""
    words = clause.split()
    while words and words[0].lower().strip(",.") in _CUE_WORDS:
        words.pop(0)
    return " ".join(words)


def criterion_parts(sentence: str) -> list[str]:
    """The sentence and each clause of two content words or more, rule words stripped."""
    return list(_parts(sentence))


@lru_cache(maxsize=4096)
def _parts(sentence: str) -> tuple[str, ...]:
    sentence = " ".join(sentence.split())
    parts = [sentence]
    for clause in _CLAUSE.split(sentence):
        topic = _topic(clause.strip(" ,."))
        if len(topic.split()) >= 2 and topic not in parts:
            parts.append(topic)
    return tuple(parts)


_PROHIBITION = re.compile(r"\b(?:not|n't|don't|dont|never|no|avoid|nothing|nobody)\b", re.I)
# a clause that states a fact ("they belong in …", "it should be complete") or a
# permission ("minor releases may change …") recommends nothing
_NOT_IMPERATIVE = re.compile(
    r"^(?:they|it|this|that|these|those|there|we|you|i|he|she|the|a|an|our|its|their)\b"
    r"|\b(?:may|can|could|will|would|should|must|might)\b",
    re.I,
)


def split_acts(sentence: str) -> tuple[list[str], list[str]]:
    """(forbidden clauses, recommended clauses) of a rule, as topics: "Do not push to
    master; open a pull request from your own branch" -> (["push to master"], ["open a
    pull request from your own branch"]). A recommended clause is one that follows a
    prohibition and carries no cue of its own; empty lists when the rule forbids nothing."""
    forbidden: list[str] = []
    recommended: list[str] = []
    for clause in _CLAUSE.split(" ".join(sentence.split())):
        clause = clause.strip(" ,.")
        if not clause:
            continue
        if _PROHIBITION.search(clause):
            forbidden.append(_topic(clause))
        elif forbidden and len(clause.split()) >= 2 and not _NOT_IMPERATIVE.search(clause):
            way, replaced = cut_instead(_topic(clause))  # "add X instead of renaming Y"
            recommended.append(way)
            if replaced:
                forbidden.append(replaced)
    return forbidden, recommended


def replaced_acts(sentence: str) -> list[str]:
    """What the rule's recommended clauses say they replace ("… instead of renaming or
    removing existing ones"): acts it rules out, for the forbidden-act gate (instead_of.py)."""
    from lorestack.guardrail import instead_of

    return list(_replaced(sentence, instead_of.ON))  # its switch is part of the key


@lru_cache(maxsize=4096)
def _replaced(sentence: str, _on: bool) -> tuple[str, ...]:  # per criterion, not per check
    said = [_topic(c.strip(" ,.")) for c in _CLAUSE.split(" ".join(sentence.split()))]
    return tuple(r for c in said if not _PROHIBITION.search(c) for r in [cut_instead(c)[1]] if r)


@lru_cache(maxsize=4096)
def _stated(sentence: str) -> tuple[str, ...]:
    out = []
    for clause in _CLAUSE.split(" ".join(sentence.split())):
        clause = clause.strip(" ,.")
        if clause and not _PROHIBITION.search(clause) and len(clause.split()) >= 2:
            out.append(_topic(clause))
    return tuple(out)


def stated_clauses(sentence: str) -> list[str]:
    """The clauses of a rule that state what is done, not what is forbidden ("Store
    timestamps in UTC" of "…; never save local time"), as topics; a fact or a permission
    counts too (unlike split_acts' recommended clauses)."""
    return list(_stated(sentence))


def proposal_units(proposal: Proposal) -> list[str]:
    """The whole proposal and its lines / sentences / shell steps (the added lines of a
    diff), with the changed paths named, at most MAX_UNITS."""
    text = proposal.text.strip()
    paths = " ".join(proposal.paths[:5])
    whole = (text[:MAX_UNIT_CHARS * 2] + (f" ({paths})" if paths else "")).strip()
    units = [whole] if whole else []
    pieces = [p.strip().lstrip("+").strip() for p in _LINE.split(text)]
    if GLOSS:  # code said in words: `def retry(fn):` -> "new function retry (fn):"
        pieces += [g for g in map(gloss, pieces) if g]
        pieces += [g for g in map(path_gloss, proposal.paths[:5]) if g]
    if CLAUSES:
        pieces += [c.strip() for p in pieces if " " in p for c in _PROPOSAL_CLAUSE.split(p)]
    if PURPOSE:
        pieces += [p[:m.start()].strip() for p in pieces
                   if (m := _PURPOSE.search(p[:MAX_UNIT_CHARS * 2]))]
    for piece in pieces:
        if len(re.findall(r"\w+", piece)) >= 2 and piece not in units:
            units.append(piece[:MAX_UNIT_CHARS])
        if len(units) >= MAX_UNITS:
            break
    return units


def available(settings: Settings) -> bool:
    """Only the local MiniLM model: the threshold means nothing for another embedder."""
    return settings.embedding.provider != "litellm"


def _vectors(embedder, texts: list[str] | tuple[str, ...]) -> np.ndarray:
    """The stacked vectors of `texts` (each embedded once per process; a criterion's parts
    stacked once: a check with 100 criteria does no embedding and no stacking for them)."""
    import numpy as np

    key = tuple(texts)
    stacked = _STACKS.get(key)
    if stacked is not None:
        return stacked
    # Read into a local map first: another thread of the service may clear the cache between
    # this lookup and the stacking below.
    found: dict[str, np.ndarray] = {}
    missing = []
    for t in dict.fromkeys(texts):
        v = _CACHE.get(t)
        if v is None:
            missing.append(t)
        else:
            found[t] = v
    if missing:
        if len(_CACHE) + len(missing) > _CACHE_LIMIT:
            _CACHE.clear()
            _STACKS.clear()
        for t, v in zip(missing, embedder.embed(missing)):
            _CACHE[t] = found[t] = v
    stacked = np.stack([found[t] for t in texts])
    if len(_STACKS) >= _CACHE_LIMIT:
        _STACKS.clear()
    _STACKS[key] = stacked
    return stacked


def _unit_vectors(embedder, units: list[str]) -> np.ndarray:
    """The stacked vectors of a proposal's units: those seen lately from the cache, the rest
    embedded in one batch. Full, it forgets its oldest quarter (not all: a set of checks
    larger than the cache still finds most of its units)."""
    import numpy as np

    found = {t: v for t in units if (v := _UNITS.get(t)) is not None}
    missing = [t for t in dict.fromkeys(units) if t not in found]
    if missing:
        for t, v in zip(missing, embedder.embed(missing)):
            found[t] = v
        if len(_UNITS) + len(missing) > _UNIT_LIMIT:
            try:  # another service thread may be evicting too: then this one need not
                for old in list(_UNITS)[:_UNIT_LIMIT // 4 + len(missing)]:
                    _UNITS.pop(old, None)
            except RuntimeError:  # the dict changed while it was listed
                pass
        _UNITS.update((t, found[t]) for t in missing)
    return np.stack([found[t] for t in units])


class MeaningJudge:
    """One check's view: the proposal embedded once, criteria compared on demand."""

    def __init__(self, settings: Settings, proposal: Proposal, threshold: float = THRESHOLD):
        from lorestack.retrieval.embedding import get_embedder

        self.embedder = get_embedder(settings)
        self.threshold = threshold
        self.units = proposal_units(proposal)
        self._unit_vectors = _unit_vectors(self.embedder, self.units) if self.units else None

    def best(self, sentence: str) -> MeaningHit | None:
        """The closest (criterion part, proposal unit) pair, or None without units."""
        return self.closest(_parts(sentence))

    def closest(self, parts: list[str] | tuple[str, ...]) -> MeaningHit | None:
        """The closest (one of `parts`, proposal unit) pair."""
        if self._unit_vectors is None or not parts:
            return None
        sims = _vectors(self.embedder, parts) @ self._unit_vectors.T
        i, j = divmod(int(sims.argmax()), sims.shape[1])
        return MeaningHit(float(sims[i, j]), parts[i], self.units[j])

    def applies(self, sentence: str) -> MeaningHit | None:
        hit = self.best(sentence)
        return hit if hit is not None and hit.similarity >= self.threshold else None
