"""The words around a term that decide whether it counts (terms.py): the verbs that open an
`added:` / `changed:` / `created:` gate, the cues that negate an occurrence ("not", "instead
of", "remove", …) and the words that end a clause for them ("and", "but", …)."""

from __future__ import annotations

GATES: dict[str, frozenset[str]] = {
    "added": frozenset(
        "add added adding adds introduce introduced introducing introduces new create "
        "creating creates install installing installs adopt adopting use using uses "
        "make making spin set stand deploy deploying provision provisioning import "
        "importing bring switch switching migrate migrating enable enabling write "
        "writing require requiring depend depending".split()
    ),
    "changed": frozenset(
        "edit edited editing edits change changed changing changes modify modified "
        "modifying patch patched patching tweak tweaking update updating updated "
        "rewrite rewriting touch touching fix fixing alter altering".split()
    ),
}
# `created:path:GLOB`: like `added:`, but an edit of a file that is there already adds no file
GATES["created"] = GATES["added"]
# `removed:path:GLOB` (twentieth session: "Never delete files under X/"): a file deleted there
GATES["removed"] = frozenset(
    "delete deleted deleting deletes remove removed removing removes rm erase erasing wipe "
    "wiping purge purging prune pruning drop dropping".split()
)
# `moved:path:GLOB` ("Never rename or move files in X/"): a file there renamed or moved away;
# an edit in place, a copy or a move into X/ is none (review of the twentieth session)
GATES["moved"] = frozenset(
    "rename renamed renaming renames move moved moving moves relocate relocated relocating "
    "relocates mv".split()
)
# the negation cues that are the act a `removed:` gate looks for, not a negation of it
REMOVAL_CUES = frozenset(("remove", "removes", "removing", "delete", "deleting", "drop",
                          "drops", "dropping"))

_NEGATION_CUES: tuple[tuple[str, ...], ...] = (
    ("no",),
    ("not",),
    ("never",),
    ("without",),
    ("avoid",),
    ("avoiding",),
    ("avoids",),
    ("instead", "of"),
    ("rather", "than"),
    ("don't",),
    ("dont",),
    ("doesn't",),
    ("won't",),
    ("wont",),
    ("shouldn't",),
    ("mustn't",),
    ("cannot",),
    ("can't",),
    ("nor",),
    ("none",),
    ("nobody",),
    ("remove",),
    ("removes",),
    ("removing",),
    ("drop",),
    ("drops",),
    ("dropping",),
    ("delete",),
    ("deleting",),
    ("get", "rid", "of"),
    ("against",),
    ("isn't",),
    ("aren't",),
    ("neither",),
    ("skip",),
    ("skipping",),
)
_CUE_WORDS = frozenset(w for cue in _NEGATION_CUES for w in cue)
_BARRIER_WORDS = frozenset({"and", "but", "then", "however", "so", "while", "although"})


CAMEL_PARTS_NO_CUE = True  # twenty-fourth session; the switch its test turns off


def camel_part(text: str, start: int, end: int) -> bool:
    """Is the word at text[start:end] a part of a camelCase name (`Delete` of `onDelete`,
    `remove` of `removeItem`)? Such a part is no negation cue (terms.py): `onClick={onDelete}
    aria-label="…"` shows the label it has."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before.isalnum() or after.isalnum()
