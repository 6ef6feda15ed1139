"""What a rule wants that a change leaves out: "Public functions need a docstring", "Every
new source file must start with the licence header", "Images in the web UI need alt text".
The sentence names a SUBJECT (functions, classes, log lines, images, environment variables,
command-line flags, alerts, migrations, bug fixes, …) and a WANTED thing (a docstring, type
annotations, a request id, alt text, an entry in a file, …). A change shows the subject in
code (`def retry(fn):`, `logger.warning(…)`, `<img src=…>`, `os.environ[…]`), which neither
the rule's words nor the sentence model find; this reader looks for the subject's code form
and then for the wanted thing by its name or its code form (`\"\"\"`, `->`, `alt=`,
`request_id`, a path under tests/).

It only ever answers for a guessed reading, and never blocks: the subject is there and the
wanted thing is not -> "applies, undecided" (the person or the agent judges); both are
there -> kept (a pass). No subject form recognised -> it says nothing and the other readers
decide. Written for the sixth tuning batch's misses (tests/guardrail_tuning_batch6.py) from
general knowledge of the code forms; measured switched off in docs/guardrail-log.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lorestack.guardrail.every_has import creates_source, need_cue, outside_folder

ENABLED = True

# the top of a file: its first line is an import, a shebang, a package line or a comment
_TOP = (
    r"\A\s*(?:import\s|from\s+\S+\s+import\s|#!|#\s|//|/\*|package\s|use\s|#include\b"
    r"|'use strict')"
)
_DEF = r"^\s*(?:async\s+)?def\s+(?!_)\w+\s*\(|^\s*(?:export\s+)?(?:async\s+)?function\s+\w+\s*\("
# (words any of which names the subject, label, its code form in a change's text); the first
# whose words the sentence uses is its subject
_SUBJECTS: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"file", "files", "module", "modules"}), "a new source file", _TOP),
    (frozenset({"feature", "features"}), "new code", _DEF + r"|^\s*class\s+\w+"),
    (frozenset({"function", "functions", "method", "methods", "helper", "helpers"}),
     "a function", _DEF),
    (frozenset({"class", "classes"}), "a class", r"^\s*class\s+(?!_)\w+"),
    (frozenset({"log", "logs", "logging"}), "a log line",
     r"\b(?:logger|logging|log)\.(?:debug|info|warning|warn|error|exception|critical)\("),
    (frozenset({"image", "images"}), "an image", r"<img\b"),
    (frozenset({"environment"}), "an environment variable",
     r"\bos\.environ\b|\bgetenv\(|\bprocess\.env\.|^\s*ENV\s+\w+"),
    (frozenset({"flag", "flags", "command-line", "cli"}), "a command-line flag",
     r"\bclick\.option\(|\badd_argument\(\s*['\"]-|\.option\(\s*['\"]--"),
    (frozenset({"setting", "settings", "option", "options"}), "a setting",
     r"^\s+[a-z_]\w*\s*:\s*[\w\[\]|., ]+=\s*\S"),
    (frozenset({"alert", "alerts"}), "an alert", r"^\s*-?\s*alert:\s*\w+"),
    (frozenset({"container", "containers"}), "a service container", r"^\s*image:\s*\S+"),
    (frozenset({"migration", "migrations"}), "a migration",
     r"\bdef\s+upgrade\s*\(|\bmigrations\.\w+\(|\bop\.\w+\("),
    (frozenset({"string", "strings", "text", "texts", "message", "messages"}),
     "a user-facing string", r"\b(?:flash|toast|alert|message|notify|label)\(\s*['\"][A-Z][^'\"]*\s[^'\"]*['\"]"),
)
# wanted things whose code form differs from their name, matched on the words of the wanted
# phrase: (words, regex on the change's text, regex on a touched path)
_TESTS = (r"\bdef\s+test_|\b(?:it|test|describe)\(\s*['\"]", r"(?:^|/)tests?/|(?:^|/)test_|[._]test\.|\.spec\.")
_TYPED = r"->\s*\S|\(\s*\w+\s*:\s*\w"
_LICENCE = r"(?i)licen[cs]ed under|spdx-license-identifier|copyright"
_WANTED_FORMS: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"docstring"}), r"\"\"\"|\'\'\'", ""),
    (frozenset({"docstrings"}), r"\"\"\"|\'\'\'", ""),
    (frozenset({"type", "annotations"}), _TYPED, ""),
    (frozenset({"type", "hints"}), _TYPED, ""),
    (frozenset({"licence", "header"}), _LICENCE, ""),
    (frozenset({"license", "header"}), _LICENCE, ""),
    (frozenset({"request", "id"}), r"(?i)request[_.\s-]?id", ""),
    (frozenset({"gettext"}), r"\b_\(|\bgettext\(|\bngettext\(", ""),
    # a placeholder is no alt text (fix28b: `alt="image"`): the word for any image, or nothing
    (frozenset({"alt", "text"}), r"\balt\s*=(?!\s*([\"'])\s*(?:(?:an?\s+)?(?:image|img|photo|picture"
     r"|pic|icon|graphic|alt|alt text|placeholder)\s*)?\1)", ""),
    (frozenset({"runbook"}), r"(?i)runbook", ""),
    (frozenset({"health", "check"}), r"(?i)health_?check", ""),
    (frozenset({"down", "step"}),
     r"\bdef\s+downgrade\s*\([^)]*\)\s*(?:->\s*\S+\s*)?:\s*\n\s+(?!pass\b)\S", ""),
    (frozenset({"issue"}), r"#\d+\b|/issues/\d+", ""),
    (frozenset({"tests"}), *_TESTS),
    (frozenset({"test"}), *_TESTS),
)
# subjects that are an act in a command (a tool call is no change, but it does the act)
_COMMANDS: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"pull", "pr", "prs"}), "a pull request", r"\bgh\s+pr\s+create\b"),
    (frozenset({"bug", "fix", "fixes"}), "a bug fix",
     r"\bgit\s+commit\b[^\n]*-\w*m\s+['\"][^'\"]*\bfix"),
)
_COMMAND_FORMS = frozenset(f for _, _, f in _COMMANDS)
_NEED = re.compile(
    r"\b(?:needs?|requires?|gets?|must\s+(?:have|include|carry|contain|come\s+with|start\s+with"
    r"|be\s+wrapped\s+in|be\s+added\s+to|be\s+documented\s+in|be\s+listed\s+(?:in|under)"
    r"|be\s+covered\s+by|link|name|reference)|should\s+(?:have|include|carry))\b",
    re.I,
)
_PATH = re.compile(r"[\w./-]*\.(?:md|rst|txt|example|toml|yml|yaml|json|cfg|ini)\b|[\w.-]+/[\w./-]+")


@dataclass(frozen=True)
class Need:
    subject: str  # label of the subject's code form
    form: str  # its regex
    wanted: str  # the wanted phrase as written
    forms: tuple[tuple[str, str], ...]  # how the wanted thing shows: (text regex, path regex)


@dataclass
class MissingOutcome:
    kept: bool  # True: the subject and the wanted thing are both there
    reason: str
    quote: str
    wanted: str = ""


def _need_parts(sentence: str, every: bool = False) -> tuple[set[str], str, str] | None:
    """(words before the need cue, the subject phrase, the wanted phrase) of the sentence's
    first clause, or None without a need cue. `every`: a universal subject's verb is a cue
    too ("Every new file starts with …", every_has.py) — for the subject's code form only."""
    first = re.split(r"[;:]\s|\.\s", " ".join(sentence.split()))[0]
    m = _NEED.search(first) or (need_cue(first) if every else None)
    if not m:
        return None
    subject = first[: m.start()]
    # only the end's full stop goes: a leading dot is part of a name (".env.example")
    return set(re.findall(r"[a-z][a-z-]*", subject.lower())), subject, first[m.end():].strip().rstrip(" .")


def _wanted_forms(after: str) -> list[tuple[str, str]]:
    """How the wanted phrase shows in a proposal: its code forms, a file or folder it names,
    else its first content word."""
    wanted_words = set(re.findall(r"[a-z]+", after.lower()))
    forms = [(t, p) for need, t, p in _WANTED_FORMS if need <= wanted_words]
    for name in _PATH.findall(after):
        name = name.rstrip("/.")
        tail = "$" if "." in name.rsplit("/", 1)[-1] else "(?:/|$)"  # a file, or a folder
        forms.append((re.escape(name), rf"(?:^|/){re.escape(name)}{tail}"))
    if not forms:  # by its name: the first content word of the wanted phrase
        head = [w for w in re.findall(r"[a-z][a-z-]{2,}", after.lower()) if w not in _STOP]
        if head:
            forms = [(rf"(?i)\b{re.escape(head[0])}", "")]
    return list(dict.fromkeys(forms))


@lru_cache(maxsize=512)
def read_need(sentence: str, every: bool = False) -> Need | None:
    """The subject and the wanted thing of a "X needs / must have Y" sentence, when the
    subject has a code form this reader knows; else None. `every`: also "Every X has Y"
    (every_has.py; judge_missing only — drafting's own reading stays as it was)."""
    parts = _need_parts(sentence, every=every)
    if parts is None:
        return None
    before, _, after = parts
    subject = next(
        ((label, form) for words, label, form in _COMMANDS + _SUBJECTS if words & before), None
    )
    forms = _wanted_forms(after)
    if subject is None or not after or not forms:
        return None
    return Need(subject[0], subject[1], after, tuple(forms))


def wanted_present(sentence: str, text: str, paths: list[str]) -> bool | None:
    """Does the proposal have what the sentence wants ("… need a design record in
    docs/adr")? None when the sentence wants nothing this reader can look for."""
    parts = _need_parts(sentence)
    forms = _wanted_forms(parts[2]) if parts else []
    if not forms:
        return None
    return any(_present(f, text, paths) for f in forms)


TOPICS = True
# words of a subject phrase that name no topic ("changes to the …", "every new …")
_GENERIC = frozenset(
    "every each all any new the a an to of in on under changes change code work handling "
    "public private existing their its our your and or".split()
)


def judge_topic(sentence: str, text: str, paths: list[str]) -> MissingOutcome | None:
    """A need whose subject is a topic, not a code form ("Changes to authentication or
    session handling need a review from the security team", "Changes under payments/ need
    an approving review"): the proposal names the topic (a word, or a touched path under a
    folder the subject names) — kept if it has the wanted thing, else undecided."""
    if not TOPICS:
        return None
    parts = _need_parts(sentence)
    if parts is None or read_need(sentence) is not None:
        return None
    _, subject, after = parts
    forms = _wanted_forms(after)
    folders = [w.rstrip(".,") for w in subject.split() if w.rstrip(".,").endswith("/")]
    words = [
        w for w in re.findall(r"[a-z][a-z-]{3,}", subject.lower().replace("'s", ""))
        if w not in _GENERIC and not any(w in f for f in folders)
    ]
    hit = next((f for f in folders for p in paths if p.startswith(f) or f"/{f}" in p), None)
    if hit is None:
        hay = (text + " " + " ".join(paths)).replace("_", " ")  # `SESSION_COOKIE_AGE`
        m = next((m for w in words if (m := re.search(rf"(?i)\b{re.escape(w)}s?\b", hay))), None)
        hit = m.group(0) if m else None
    if hit is None or not forms:
        return None
    if any(_present(f, text, paths) for f in forms):
        return MissingOutcome(True, f"is about '{hit}' and has '{after}': kept", hit)
    return MissingOutcome(
        False, f"applies, undecided: it is about '{hit}' and '{after}' is not in it; judge it", hit
    )


_STOP = frozenset("the and its their for with that which what explaining entry".split())


def _present(form: tuple[str, str], text: str, paths: list[str]) -> bool:
    in_text, on_path = form
    if on_path and any(re.search(on_path, p) for p in paths):
        return True
    return bool(in_text) and re.search(in_text, text, re.M) is not None


def judge_missing(sentence: str, text: str, paths: list[str], change: bool,
                  existing: frozenset[str] = frozenset()) -> MissingOutcome | None:
    """For a change (a diff or an edit) that shows the subject's code form: is the wanted
    thing there? None when the sentence wants nothing this reader knows or no subject shows."""
    if not ENABLED:
        return None
    need = read_need(sentence, every=True)
    if need is None or not (change or need.form in _COMMAND_FORMS):
        return None
    parts = _need_parts(sentence, every=True)
    subject = parts[1] if parts else ""
    if outside_folder(subject, paths):  # "in the sdk/ package" (every_has.py)
        return None
    m = re.search(need.form, text, re.M | re.I if need.form in _COMMAND_FORMS else re.M)
    if m is not None:
        line = text[text.rfind("\n", 0, m.start()) + 1 :].split("\n", 1)[0].strip()
    else:  # a new file of code is the subject "new … file" whatever its first line
        created = creates_source(subject, paths, existing) if change else None
        if created is None:
            return None
        line = created
    if any(_present(f, text, paths) for f in need.forms):
        return MissingOutcome(True, f"adds {need.subject} and has '{need.wanted}': kept", line)
    return MissingOutcome(
        False,
        f"applies, undecided: adds {need.subject} ('{line[:60]}') without '{need.wanted}' "
        "in the change; judge whether it is elsewhere",
        line,
        need.wanted,
    )
