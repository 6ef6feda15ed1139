"""Deterministic evaluation of a decision criterion against a proposal.

A criterion (`CriterionSpec`) is judged without any model, in this order:

1. **Applies?** Any applies-to entry matches (OR):
   - a path glob matches a changed path, a tool's file path, or a path mentioned in the
     proposal text. Globs follow gitignore habits: `*` stays inside one folder, `**` crosses
     folders, a trailing `/` means "everything below", a glob without `/` (e.g. `*.tf`,
     `infra`) matches at any depth, and a glob that matches a parent folder matches
     everything inside it (`infra` and `infra/**` both cover `infra/main.tf`).
     Paths are case-sensitive.
   - a keyword or topic occurs as whole words, case-insensitively, plural-tolerant
     (`cache` matches `caches`, `query` matches `queries`); multi-word terms allow up to two
     filler words between their words inside one clause (`new storage component` matches
     "a new Redis storage component"); `-`/`_` count as spaces (`one-off` = "one off").
2. No `forbid`/`require` terms → **possibly relevant** (only an LLM or a human can judge).
3. An `unless` term present → **satisfied** (an explicit exemption, e.g. "review note").
4. A `forbid` term present → **violated**.
5. A `require` entry absent → **violated**. Every `require` entry must be present; one entry
   may list alternatives with `|` ("reuse | existing assets"), as may forbid/unless entries.
6. Otherwise **satisfied**.

Terms may be `/regex/` (searched case-insensitively, Python syntax) instead of words, or
`path:GLOB`, which looks at the touched paths instead of the text: `forbid: path:gen/**`
("never edit generated code"), `require: path:CHANGELOG.md` ("update the changelog").

Negation: an occurrence preceded, in the same clause and within four words, by a negation
cue ("no", "not", "never", "without", "avoid", "instead of", "rather than", "don't",
"remove", "drop", "against", …) does not count: "no cron needed" does not trip a
`forbid: cron`, and "without a review note" does not satisfy a `require: review note`.
Clauses end at `. ; : ! ?`, commas, line breaks and the words "and", "but", "then",
"however", "so", "while", "although". This applies to regex matches too.

For a diff, the judged text is the added lines (plus any message): removing a cron job
never violates "no cron".
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from memstrata.memory_layers.models import CriterionSpec

RuleStatus = Literal["not_applicable", "possibly_relevant", "satisfied", "violated"]

NEGATION_WINDOW = 4  # words between the end of a cue and the matched term
PHRASE_GAP = 2  # filler words allowed between the words of a multi-word term
MAX_REPORTED_NEGATIONS = 10

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
_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)?")
_HARD_BREAK = re.compile(r"[.;:!?,\n]")
# path-like tokens in prose: something/with/slashes or name.ext
_PATH_IN_TEXT = re.compile(
    r"(?<![\w@:/.-])(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.*-]*|(?<![\w@/.-])[\w-]+\.[A-Za-z][\w]{0,7}\b"
)


# ---- text preparation -----------------------------------------------------------------
@dataclass
class Token:
    word: str  # lower-case
    start: int
    end: int
    clause: int


@dataclass
class PreparedText:
    """Tokens with clause numbers, built once per proposal and reused for every criterion."""

    text: str
    tokens: list[Token]
    positions: dict[str, list[int]] = field(default_factory=dict)  # word -> token indexes
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for i, tok in enumerate(self.tokens):
            self.positions.setdefault(tok.word, []).append(i)
        self.starts = [t.start for t in self.tokens]

    @classmethod
    def of(cls, text: str) -> PreparedText:
        tokens: list[Token] = []
        clause = 0
        last_end = 0
        for m in _WORD.finditer(text.replace("_", " ").replace("-", " ")):
            if _HARD_BREAK.search(text, last_end, m.start()):
                clause += 1
            word = m.group(0).lower().replace("\u2019", "'")
            if word in _BARRIER_WORDS:
                clause += 1
                last_end = m.end()
                continue
            tokens.append(Token(word, m.start(), m.end(), clause))
            last_end = m.end()
        return cls(text, tokens)

    def index_at(self, char_pos: int) -> int:
        """Index of the first token starting at or after `char_pos`."""
        return bisect_left(self.starts, char_pos)


@lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """Singular and plural forms of one word, so either spelling matches the other."""
    w = word.lower()
    forms = {w, w + "s", w + "es"}
    if w.endswith("y") and len(w) > 2:
        forms.add(w[:-1] + "ies")
    if w.endswith("ies") and len(w) > 4:
        forms.add(w[:-3] + "y")
    if w.endswith("es") and len(w) > 3:
        forms.add(w[:-2])
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        forms.add(w[:-1])
    return frozenset(forms)


@dataclass
class Hit:
    term: str
    start: int  # character offsets in the text
    end: int
    negated_by: str = ""  # the cue that cancels this occurrence, if any
    quoted: str = ""  # for path terms: the matching path

    def quote(self, text: str, width: int = 60) -> str:
        if self.quoted or self.start < 0:
            return self.quoted
        lo = max(0, self.start - width)
        hi = min(len(text), self.end + width)
        snippet = " ".join(text[lo:hi].split())
        return ("…" if lo else "") + snippet + ("…" if hi < len(text) else "")


def _negation_before(prepared: PreparedText, first_token: int) -> str:
    """The negation cue governing the token at `first_token`, or ''.

    A cue counts when it ends at most NEGATION_WINDOW words before the token and nothing
    between them crosses a clause boundary.
    """
    tokens = prepared.tokens
    if first_token >= len(tokens):
        return ""
    clause = tokens[first_token].clause
    window = range(max(0, first_token - NEGATION_WINDOW - 2), first_token)
    if not any(tokens[i].word in _CUE_WORDS for i in window):
        return ""  # the common case, decided without trying every cue
    for cue in _NEGATION_CUES:
        n = len(cue)
        for end in range(max(n - 1, first_token - NEGATION_WINDOW), first_token):
            start = end - n + 1
            if tokens[start].clause != clause:
                continue
            if all(tokens[start + k].word == cue[k] for k in range(n)):
                return " ".join(cue)
    return ""


def _split_term(term: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(term.replace("_", " ").replace("-", " "))]


def path_term(term: str) -> str | None:
    """The glob of a `path:GLOB` term, else None."""
    t = term.strip()
    return t[5:].strip() if t.lower().startswith("path:") else None


def is_regex(term: str) -> bool:
    return len(term) >= 2 and term.startswith("/") and term.endswith("/")


@lru_cache(maxsize=1024)
def compile_regex(term: str) -> re.Pattern:
    return re.compile(term[1:-1], re.IGNORECASE | re.MULTILINE)


def iter_term(prepared: PreparedText, term: str, *, negation: bool = True) -> Iterator[Hit]:
    """Occurrences of a word term or /regex/, lazily, each marked with its negation cue."""
    term = term.strip()
    if not term:
        return
    if is_regex(term):
        for m in compile_regex(term).finditer(prepared.text):
            if m.end() == m.start():
                continue
            cue = _negation_before(prepared, prepared.index_at(m.start())) if negation else ""
            yield Hit(term, m.start(), m.end(), cue)
        return
    words = _split_term(term)
    if not words:  # punctuation-only term: plain substring
        pos = prepared.text.lower().find(term.lower())
        if pos >= 0:
            yield Hit(term, pos, pos + len(term))
        return
    tokens = prepared.tokens
    starts = sorted(i for form in word_forms(words[0]) for i in prepared.positions.get(form, ()))
    for i in starts:  # only where the first word occurs: long proposals stay cheap
        tok = tokens[i]
        j, ok = i, True
        for w in words[1:]:
            forms = word_forms(w)
            nxt = next(
                (
                    k
                    for k in range(j + 1, min(len(tokens), j + PHRASE_GAP + 2))
                    if tokens[k].word in forms and tokens[k].clause == tok.clause
                ),
                None,
            )
            if nxt is None:
                ok = False
                break
            j = nxt
        if ok:
            yield Hit(
                term, tok.start, tokens[j].end, _negation_before(prepared, i) if negation else ""
            )


def find_term(prepared: PreparedText, term: str) -> list[Hit]:
    """Every occurrence of a word term or /regex/, each marked with its negation cue."""
    return list(iter_term(prepared, term))


def first_affirmed(
    prepared: PreparedText, terms: Iterable[str], paths: list[str] = ()
) -> tuple[Hit | None, list[Hit]]:
    """(first non-negated hit, negated hits seen) across `terms`; `path:GLOB` terms match
    the proposal's paths instead of its text."""
    negated: list[Hit] = []
    for term in terms:
        glob = path_term(term)
        if glob is not None:
            touched = next((p for p in paths if glob_matches(glob, p)), None)
            if touched is not None:
                return Hit(term, -1, -1, quoted=touched), negated
            continue
        for hit in iter_term(prepared, term):
            if not hit.negated_by:
                return hit, negated
            if len(negated) < MAX_REPORTED_NEGATIONS:
                negated.append(hit)
    return None, negated


# ---- paths ------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _glob_regex(pattern: str) -> tuple[re.Pattern, bool]:
    """(regex, anchored). Unanchored globs (no '/') may match at any depth."""
    pat = pattern.strip()
    pat = pat.removeprefix("./")
    anchored = pat.startswith("/")
    pat = pat.lstrip("/")
    if pat.endswith("/"):
        pat += "**"
    anchored = anchored or "/" in pat.rstrip("/*")
    out, i = [], 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("/**", i) and i + 3 == len(pat):
            out.append("(?:/.*)?")
            i += 3
        elif pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            close = pat.find("]", i + 1)
            if close == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pat[i + 1 : close].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out)), anchored


def normalise_path(path: str) -> str:
    p = path.strip().strip("'\"`").replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip(".,;:)]}'\"`").rstrip("/")


def glob_matches(pattern: str, path: str) -> bool:
    """Does `path` (repo-relative, '/'-separated) fall under the gitignore-style `pattern`?"""
    regex, anchored = _glob_regex(pattern)
    parts = normalise_path(path).split("/")
    if not parts or parts == [""]:
        return False
    starts = [0] if anchored else range(len(parts))
    for s in starts:
        for e in range(len(parts), s, -1):  # the path itself, then its parent folders
            if regex.fullmatch("/".join(parts[s:e])):
                return True
    return False


def paths_in_text(text: str) -> list[str]:
    """Path-like words in prose or a shell command (`infra/main.tf`, `setup.cfg`)."""
    found = []
    for m in _PATH_IN_TEXT.finditer(text):
        candidate = normalise_path(m.group(0))
        if candidate and not candidate.startswith(("http", "www.")) and candidate not in found:
            found.append(candidate)
    return found


# ---- evaluation -------------------------------------------------------------------------
@dataclass
class RuleOutcome:
    """How the rules judged one criterion, with the evidence for each step."""

    status: RuleStatus
    reason: str
    triggers: list[str] = field(default_factory=list)  # what made it apply
    quote: str = ""
    forbid_hit: str = ""
    missing: list[str] = field(default_factory=list)
    exempted_by: str = ""
    ignored: list[str] = field(default_factory=list)  # negated occurrences, explained

    @property
    def decided(self) -> bool:
        return self.status in ("satisfied", "violated", "not_applicable")


def spec_problems(spec: CriterionSpec) -> list[str]:
    """What keeps a criterion from being judged by the rules (empty = fully decidable)."""
    problems = []
    for part in spec.missing_parts():
        problems.append(f"missing {part}")
    problems.extend(spec.regex_problems())
    return problems


def applies(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> list[str]:
    """The applies-to entries that match, described for people ('path infra/** ~ infra/a.tf')."""
    triggers = []
    for glob in spec.applies_to.paths:
        hit = next((p for p in paths if glob_matches(glob, p)), None)
        if hit is not None:
            triggers.append(f"path {glob} ~ {hit}")
    for kind, terms in (("keyword", spec.applies_to.keywords), ("topic", spec.applies_to.topics)):
        for term in terms:
            if next(iter_term(prepared, term, negation=False), None) is not None:
                triggers.append(f"{kind} '{term}'")
    return triggers


def _alternatives(entry: str) -> list[str]:
    if is_regex(entry):
        return [entry]
    return [alt.strip() for alt in entry.split("|") if alt.strip()]


def evaluate(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> RuleOutcome:
    """Judge one criterion against a prepared proposal (see the module docstring)."""
    triggers = applies(spec, prepared, paths)
    if not triggers:
        return RuleOutcome("not_applicable", "none of its paths, keywords or topics occur")
    text = prepared.text
    if not (spec.forbid or spec.require):
        return RuleOutcome(
            "possibly_relevant",
            "applies, but has no forbid/require terms the rules can check",
            triggers,
        )
    ignored: list[str] = []

    def note_negated(hits: list[Hit]) -> None:
        for h in hits:
            ignored.append(f"'{h.term}' negated by '{h.negated_by}': {h.quote(text, 30)}")

    exempt, neg = first_affirmed(
        prepared, [a for u in spec.unless for a in _alternatives(u)], paths
    )
    note_negated(neg)
    if exempt is not None:
        return RuleOutcome(
            "satisfied",
            f"exempted: '{exempt.term}' is present",
            triggers,
            quote=exempt.quote(text),
            exempted_by=exempt.term,
            ignored=ignored,
        )
    forbidden, neg = first_affirmed(
        prepared, [a for f in spec.forbid for a in _alternatives(f)], paths
    )
    note_negated(neg)
    if forbidden is not None:
        return RuleOutcome(
            "violated",
            f"forbidden '{forbidden.term}' is present",
            triggers,
            quote=forbidden.quote(text),
            forbid_hit=forbidden.term,
            ignored=ignored,
        )
    missing = []
    for entry in spec.require:
        found, neg = first_affirmed(prepared, _alternatives(entry), paths)
        note_negated(neg)
        if found is None:
            missing.append(entry)
    if missing:
        listed = ", ".join(f"'{m}'" for m in missing)
        return RuleOutcome(
            "violated", f"required {listed} not present", triggers, missing=missing, ignored=ignored
        )
    return RuleOutcome(
        "satisfied", "no forbidden term, every required term present", triggers, ignored=ignored
    )
