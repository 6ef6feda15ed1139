"""Cut a criterion sentence into clauses, and find the subject of a passive ban ("global
state is not allowed in the parser"). Split out of sentences.py."""

from __future__ import annotations

import re

from lorestack.guardrail.sentence_words import (
    _ALLOWED,
    _BE,
    _CLAUSE_SPLIT,
    _PAREN,
    _PASSIVE_BANS,
    _WORDS,
    drop_emphasis,
    such_as,
)


def clauses(sentence: str) -> list[tuple[list[str], list[str]]]:
    """(words, parenthesised items) per clause, lower-cased."""
    groups: list[list[str]] = []

    def hold(m: re.Match) -> str:  # a list in parentheses stays with its clause
        groups.append(
            [
                i.strip().removeprefix("e.g.").strip()
                for i in re.split(r",|/|\bor\b|\band\b", m.group(1))
                if i.strip()
            ]
        )
        return f" \x00{len(groups) - 1}\x00 "

    out = []
    for raw in _CLAUSE_SPLIT.split(_PAREN.sub(hold, such_as(drop_emphasis(sentence.strip())))):
        items = [i.lower() for n in re.findall(r"\x00(\d+)\x00", raw) for i in groups[int(n)]]
        text = re.sub(r"\x00\d+\x00", " ", raw).lower().replace("\u2019", "'")
        words = [w.rstrip(".,") or w for w in _WORDS.findall(text)]
        words = [w for w in words if w not in ("e.g", "etc")]
        if words:
            out.append((words, items))
    return out


def passive_subject(words: list[str]) -> list[str] | None:
    """The subject of "X is not allowed" / "X is forbidden", else None."""
    for i, w in enumerate(words):
        negated_allowed = w in _ALLOWED and i >= 1 and words[i - 1] == "not"
        if w in _PASSIVE_BANS or negated_allowed:
            subject = [x for x in words[: i - (1 if negated_allowed else 0)] if x not in _BE]
            return subject or None
    return None


# "by hand", "manually": how a thing is done, never a thing a rule forbids (twentieth session:
# "Update poetry.lock with poetry lock, not by hand" forbade the word 'hand')
_MANNER = (("by", "hand"), ("manually",))


def without_manner(words: list[str]) -> tuple[list[str], bool]:
    """(the clause's words without "by hand" / "manually", whether it said so)."""
    out: list[str] = []
    said = False
    i = 0
    while i < len(words):
        for m in _MANNER:
            if tuple(words[i : i + len(m)]) == m:
                said, i = True, i + len(m)
                break
        else:
            out.append(words[i])
            i += 1
    return out, said


def pronoun_to_place(words: list[str], place: str) -> list[str]:
    """"src/generated/ is generated; never hand-edit it": 'it' / 'them' of a later clause is
    the folder or file an earlier clause named (`place`, as written); else the words as
    they are."""
    if not place or not {"it", "them"} & set(words):
        return words
    return [place if w in ("it", "them") else w for w in words]


def as_written(sentence: str, word: str) -> str:
    """`word` (a path the clauses read lowercased) spelled as the sentence spells it: a rule
    on `changelog.md` never meets CHANGELOG.md (review of the twentieth session: "Update
    CHANGELOG.md with towncrier, not by hand" let every edit of it pass)."""
    for w in re.findall(r"[^\s,;:()]+", sentence):
        if w.rstrip(".").lower() == word.lower():
            return w.rstrip(".")
    return word
