"""A required file the change writes is present (thirty-seventh session).

"Every PR must update CHANGELOG.md" drafts `require: CHANGELOG.md`; a diff of CHANGELOG.md
adds lines that do not name the file, so the rule asked about the very change it wants (and
passed `echo … >> CHANGELOG.md`, which names it). Where the sentence says the file itself is
written to ("update X", "an entry in X", "add … to X") and the change adds lines to a file of
that name, the requirement is met. Not where the file is only the place of what is required
("an owner and a description in its schema.yml"), not for a change that only takes lines out
of the file, renames it or adds its lines to another file, and not for a command or a plan
that only names the file."""

from __future__ import annotations

import re

from lorestack.guardrail.rules import PreparedText, RuleOutcome, entry_alternatives, gate_of

# a required term written as a file name
_FILE_NAME = re.compile(r"[\w.-]*\w\.[A-Za-z][\w-]{0,9}")
# the sentence says the file itself is written to: "update X", "an entry in X", "add … to X"
# (not "an owner and a description in its schema.yml": there the file is only the place)
_UPDATED = (r"\b(?:updat\w*|edit\w*|touch\w*|(?:an?\s+|one\s+)?(?:entry|entries|line|note|item)"
            r"\s+(?:in|to)|add(?:s|ed|ing)?\s+(?:\w+\s+){{0,3}}(?:to|in))\s+"
            r"(?:the\s+|its\s+|our\s+|a\s+)?`?{}\b")
FILE_CHANGED = True  # the switch tests.stage_audit turns off
# a copy of another project's file: `vendor/requests/CHANGELOG.md` is not the project's own
_THIRD_PARTY = re.compile(
    r"(?:^|/)(?:_?vendor(?:ed|s)?|third[_-]party|node_modules|bower_components|(?-i:Pods)|"
    r"site-packages|\.?venv|\.tox)/", re.I)  # Pods: CocoaPods' folder, not k8s/pods/


def file_written(outcome: RuleOutcome, sentence: str, prepared: PreparedText) -> RuleOutcome:
    """A required file the sentence says is updated ("Every PR must update CHANGELOG.md",
    "… gets an entry in CHANGELOG.md") that the change adds a line to (a diff's lines in that
    file, a one-file edit's new line: `prepared.written`) is present, whatever its added lines
    say: the file's name is not in its own lines, so such a diff was asked about."""
    if (not FILE_CHANGED or outcome.status != "violated" or not outcome.missing
            or outcome.forbid_hit or not prepared.written):
        return outcome
    kept = [m for m in outcome.missing if not _written(m, sentence, prepared.written)]
    if len(kept) == len(outcome.missing):
        return outcome
    outcome.missing = kept
    if kept:
        outcome.reason = f"required {', '.join(repr(m) for m in kept)} not present"
    else:
        outcome.status, outcome.reason = "satisfied", "writes the file the rule requires"
    return outcome


def _written(entry: str, sentence: str, written) -> bool:
    """The entry names a file (as the sentence spells it, or below a folder: docs/CHANGELOG.md,
    not below a third-party one: vendor/x/CHANGELOG.md) that the sentence says is written to,
    and the change adds a line to it."""
    for alt in entry_alternatives(entry):
        gate, name = gate_of(alt)
        if gate == "removed" or not _FILE_NAME.fullmatch(name):
            continue
        if not re.search(_UPDATED.format(re.escape(name)), sentence, re.I):
            continue
        name = name.lower()  # drafted terms are lower-cased: "changelog.md"
        if any(p.lower() == name or (p.lower().endswith("/" + name) and not _THIRD_PARTY.search(p))
               for p in written):
            return True
    return False
