"""What an obligation's grammar says that a draft must not make a term (twenty-ninth session,
fix29, issue 22: "drafting never turns a function word into a term"). Each reading below
found a word a confirmed draft then required everywhere its rule applied, so a complying
proposal that did what the sentence asks in other words was blocked.

- **A property stated with a copula before the cue** ("Session cookies *are always* Secure
  and HttpOnly", "A model *is only* promoted after …"): the word after the cue says what the
  subject is or how it comes about, not something a proposal writes when it keeps the rule.
  The reader took it as the verb of an obligation and required it ('secure', 'promoted').
  Now it is a property, as "must be / stay X" already was: the rule applies where its
  subject occurs; what "always" keeps on is forbidden switched off (`httpOnly: false`, "turn
  off HttpOnly", switch_off.py); else nothing the rules can check decides it.
- **An act with an object** ("Public API changes must *update* the docs", "Admin routes must
  *check* the user is staff"): the reader required the verb, a word a proposal that does the
  act seldom writes ("document it in docs/api/client.md"). What a change shows is the thing
  acted on: the object's noun phrase is required instead ('docs'); where the object is a
  clause of its own ("the user is staff") there is no noun phrase to look for, and nothing is
  required (the rule stays a sentence, undecided where it applies).
- **An artefact an act is on** (thirty-fifth session: "Every PR must *update* CHANGELOG.md",
  "Breaking changes must add a section to UPGRADING.md"): the object is a file, so there was
  no noun phrase and the verb was required ('update'), and the file became where the rule
  applies (a change that left CHANGELOG.md alone was never asked). The file is what is
  required; "a line / an entry / a section in FILE" is the file too.
- **The act an "only … after / before / when" condition is tied to** ("Only merge after
  review"): the act is where the rule applies, not what it wants; required, it blocked every
  proposal that did not say the act ("Request a review from the platform team").
"""

from __future__ import annotations

# the copulas a property is stated with before an obligation cue ("are always", "is only")
_COPULA_BEFORE = frozenset(("is", "are", "was", "were", "be"))
_PROPERTY_CUES = frozenset(("always", "only"))
# words that make an object a clause of its own ("check the user *is* staff")
_CLAUSE_VERBS = frozenset("is are was were has have had can will does do".split())

# the cues a bare verb follows ("must update the docs"); after "only" a noun may come first
# ("Only firmware signed with the release key …")
_MODAL_CUES = frozenset(("must", "should", "need to", "needs to", "have to", "has to"))

COPULA_CUE = True
ACT_OBJECT = True
ONLY_ACT = True
KEPT_ON = True
ARTEFACT = True

# what an act adds to a file, no thing of its own ("add a line to CHANGELOG.md")
_PARTS = frozenset("line lines entry entries section note notes mention bullet paragraph".split())


def states_property(before: list[str], cue: str, after: list[str]) -> bool:
    """"X are always Y", "X is only Y-ed …": the clause says what X is, no term. Not where
    "with / by" names what it comes with ("are always set with Secure, HttpOnly and
    SameSite": those are wanted, as before)."""
    return (COPULA_CUE and cue in _PROPERTY_CUES and len(before) > 1
            and before[-1] in _COPULA_BEFORE and not {"with", "by"} & set(after))


def kept_on(cue: str, verb: str, after: list[str]) -> list[str]:
    """"Session cookies are always Secure and HttpOnly": the properties a rule keeps on, each
    forbidden switched off (`httpOnly: false`, "turn off HttpOnly"; switch_off.py), never
    required as words. [] for "is only …" (a condition, not a state kept)."""
    if not (KEPT_ON and cue == "always"):
        return []
    groups: list[list[str]] = [[]]
    for w in [verb, *after]:
        groups.append([]) if w in ("and", "or", ",") else groups[-1].append(w)
    return [" ".join(g) for g in groups if len(g) == 1 and g[0].isalpha() and len(g[0]) > 2]


def object_wanted(cue: str, obj: list[str], term: str) -> str | None:
    """What an obligation with a verb and an object wants: the object's noun phrase, '' when
    the object is a clause (nothing to look for), None when this reading does not apply (no
    object: the verb itself is the act wanted, "must sign")."""
    if not (ACT_OBJECT and term and cue in _MODAL_CUES):
        return None
    if any(w in _CLAUSE_VERBS for w in obj):
        return ""
    return term


def artefact_wanted(cue: str, term: str, paths: list[str], scope: list[str],
                    scope_files: list[str]) -> list[str]:
    """The files an obligation's act is on ("must update CHANGELOG.md", "must add an entry to
    HISTORY.md"), each wanted in place of the verb; [] when the object is not a file."""
    if not (ARTEFACT and cue in _MODAL_CUES):
        return []
    if paths and (not term or term.split()[-1] in _PARTS):  # "a CHANGELOG.md entry"
        return paths
    if term and term.split()[-1] in _PARTS and scope[:1] in (["to"], ["in"], ["into"], ["under"]):
        return scope_files
    return []


def only_act(cue: str, trigger: list[str]) -> bool:
    """"Only merge after review": the verb names the act the condition is tied to."""
    return ONLY_ACT and cue == "only" and bool(trigger)


__all__ = ["artefact_wanted", "kept_on", "object_wanted", "only_act", "states_property"]
