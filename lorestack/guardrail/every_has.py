"""A universal subject with a verb in the present tense states a need (issue 22, thirty-first
session, sil31): "Every new source file starts with the SPDX header", "Every public function in
the sdk/ package has a docstring", "Every GitHub Actions job sets timeout-minutes", "All
migrations carry a down step". They say what each X has, as "X needs Y" does, but with no need
cue (needs / must have / requires), so missing.py read nothing: a change that adds an X
without the Y — a violation that is an absence — matched no word of the rule and passed in
silence (review30: spdx-v1/v2, docstring-v1).

The rule, in words: in the first clause of a sentence that opens with "every", "each" or "all"
(after at most a leading "In X,"), the first verb of having, starting, carrying, setting or
stating (has, starts with, carries, sets, declares, …; the plural forms after "all") that
follows the subject is read as the need cue: the words before it are the subject, the words
after it what each subject wants. missing.py then does what it does for "X needs Y": a
change showing the subject's code form (a function, a class, a file's top, an alert, …)
applies; it is kept when the wanted thing shows, else "applies, undecided".
Never a block. Only missing.py's reading of the subject's code form takes this cue
(judge_missing, through read_need(…, every=True)), not the drafting (sentences.py's
read_need: a sentence with a need reading drafts no requirement of its own, and "Every
container sets readOnlyRootFilesystem: true" lost its drafted one — everyday's s24c3-ro-p1
was asked), nor the shortcuts that keep a guess close by meaning because the
wanted thing's first word shows (wanted_present, wanted_affirmed, judge_topic): in "Every
Deployment sets revisionHistoryLimit: 3", "Every alerting rule carries a severity label" the
wanted thing is a key with a value, and a violation shows the key with the wrong value or in
a comment (`revisionHistoryLimit: 30`, `# TODO: add severity label`) — with the cue there too,
everyday's silent passes went 27 -> 36. Two more things tie it to the subject as written:
- "new … file(s)": a diff that creates a file shows the subject, whatever its first line is
  (`def retry(…)` at the top of a new file is still a new source file), where the file is a
  source file (an extension of code, not data or docs);
- a folder the subject names ("in the sdk/ package", "under services/") bounds it: a change
  touching no path under that folder does not show the subject.
"""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_VERBS = (
    r"has|have|starts?\s+with|begins?\s+with|opens?\s+with|ends?\s+with|carr(?:y|ies)"
    r"|includes?|contains?|sets?|declares?|defines?|specif(?:y|ies)|lists?|names?|links?\s+to"
    r"|pins?|records?|logs?|documents?|ships?\s+with|comes?\s+with|gets?"
)
_OPEN = re.compile(r"^(?:(?:in|on|for|under)\s+[^,]{1,60},\s*)?(?:every|each|all)\s+", re.I)
_CUE = re.compile(rf"\b(?:{_VERBS})\b", re.I)
# extensions of source code (a new file of these is "a new source file")
_SOURCE = re.compile(
    r"\.(?:py|pyi|go|rs|js|jsx|ts|tsx|mjs|cjs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|rb|php|sh"
    r"|bash|zsh|scala|m|mm|lua|pl|ex|exs|dart|vue|svelte)$"
)
_FILE_SUBJECT = re.compile(r"\bnew\b[^,;]*\b(?:source\s+)?files?\b", re.I)


def need_cue(first: str) -> re.Match | None:
    """The verb that states what each subject of a universal clause has, or None."""
    if not ON:
        return None
    opened = _OPEN.match(first)
    if opened is None:
        return None
    # the verb comes after the subject's first word: "every new file" is no verb
    m = _CUE.search(first, opened.end())
    while m is not None and not first[opened.end():m.start()].strip():
        m = _CUE.search(first, m.end())
    if m is None or re.search(r"\b(?:not|never|no)\b", first[: m.start()], re.I):
        return None
    return m


def creates_source(subject: str, paths: list[str], existing: frozenset[str]) -> str | None:
    """A source file the change creates, where the subject is "new … file(s)"."""
    if not ON or not _FILE_SUBJECT.search(subject):
        return None
    return next((p for p in paths if p not in existing and _SOURCE.search(p)), None)


def outside_folder(subject: str, paths: list[str]) -> bool:
    """Does the subject name a folder ("in the sdk/ package") none of the touched paths is
    under? False when it names none or the change touches no path."""
    if not ON or not paths:
        return False
    folders = [w.strip(".,'\"`").lstrip("./") for w in subject.split()]
    folders = [f for f in folders if f.endswith("/") and len(f) > 1]
    if not folders:
        return False
    return not any(p.startswith(f) or f"/{f}" in p for f in folders for p in paths)
