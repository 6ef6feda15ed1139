"""How the guardrail finds a term in a proposal: words, stems, phrases, identifiers, globs.

- Words match case-insensitively by stem (`deprecate` finds "deprecated" and "deprecation",
  `cache` finds "caches"); a trailing `*` is a prefix (`deprecat*`).
- Identifiers are split the way the lexical index splits them: `getUserById` and
  `get_user_by_id` both read as "get user by id", so `user` finds them.
- Multi-word terms allow up to two filler words between their words inside one clause;
  `-`/`_` count as spaces (`one-off` = "one off").
- `A & B`: A occurs and B occurs somewhere in the proposal (`force push & main`).
- `added:TERM` counts only where something is added: in a change (a diff, a tool's edit)
  always; in prose when a verb like add / introduce / new / install / use comes shortly
  before it in the same clause. `changed:TERM` likewise with edit / change / patch / modify.
  `created:path:GLOB` is `added:` for a new file: an edit of a file already there is no hit.
- `/regex/` is searched case-insensitively; `path:GLOB` looks at the touched paths.

Negation: an occurrence preceded, in the same clause and within four words, by a negation
cue ("no", "not", "never", "without", "avoid", "instead of", "rather than", "don't",
"remove", "drop", "against", …) does not count. Clauses end at `. ; : ! ?`, commas, line
breaks and the words "and", "but", "then", "however", "so", "while", "although".
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from lorestack.guardrail import term_cues
from lorestack.guardrail.definitions import defines_new
from lorestack.guardrail.globs import (  # noqa: F401 - re-exported
    glob_matches,
    normalise_path,
    paths_in_text,
)
from lorestack.guardrail.kept_folders import moved_out
from lorestack.guardrail.sentence_words import symbol_of
from lorestack.guardrail.shell_writes import copies_template as _template_copy
from lorestack.guardrail.shell_writes import moved_from, moves_away, removes, shell_effect
from lorestack.guardrail.term_cues import (  # noqa: F401 - GATES re-exported
    _BARRIER_WORDS,
    _CUE_WORDS,
    _NEGATION_CUES,
    GATES,
    REMOVAL_CUES,
    camel_part,
)
from lorestack.guardrail.tool_runs import runs_tool
from lorestack.guardrail.words import _identifier_parts, stem, word_forms  # noqa: F401

NEGATION_WINDOW = 4  # words between the end of a cue and the matched term
PHRASE_GAP = 2  # filler words allowed between the words of a multi-word term
MAX_REPORTED_NEGATIONS = 10
GATE_WINDOW = 6  # words an add/change verb may come before what it governs
_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)?")
_HARD_BREAK = re.compile(r"[;:!?,\n]|\.(?=\s)")  # "Context.invoke" stays one clause


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
    stems: dict[str, list[int]] = field(default_factory=dict)  # stem -> token indexes
    change: bool = False
    code: bool = False  # a diff, an edit or a command: a symbol term matches anywhere in it
    existing: frozenset[str] = frozenset()  # touched paths that are there already (edits)
    replaced: str = ""  # the text an edit replaces (definitions.py)
    deleted: frozenset[str] = frozenset()  # touched paths the change deletes
    moved: tuple[tuple[str, str], ...] = ()  # (path, where it goes) a diff renames away
    written: frozenset[str] = frozenset()  # touched paths the change adds lines to

    def __post_init__(self) -> None:
        for i, tok in enumerate(self.tokens):
            self.positions.setdefault(tok.word, []).append(i)
            self.stems.setdefault(stem(tok.word), []).append(i)
        self.starts = [t.start for t in self.tokens]

    def indexes_of(self, word: str) -> list[int]:
        """Token indexes where `word` occurs: same stem, a plural/singular form, or a prefix
        when `word` ends with `*`."""
        if word.endswith("*") and len(word) > 1:
            prefix = word[:-1]
            return [i for i, t in enumerate(self.tokens) if t.word.startswith(prefix)]
        found = set(self.stems.get(stem(word), ()))
        for form in word_forms(word):
            found.update(self.positions.get(form, ()))
        return sorted(found)

    @classmethod
    def of(
        cls, text: str, *, change: bool = False, code: bool = False,
        existing: frozenset[str] = frozenset(), replaced: str = "",
        deleted: frozenset[str] = frozenset(), moved: tuple[tuple[str, str], ...] = (),
    ) -> PreparedText:
        """Tokens of `text`; `change` marks a diff or a tool's edit (it adds what it holds)."""
        tokens: list[Token] = []
        clause = 0
        last_end = 0
        for m in _WORD.finditer(text.replace("_", " ").replace("-", " ")):
            if _HARD_BREAK.search(text, last_end, m.start()):
                clause += 1
            word = m.group(0).replace("\u2019", "'")
            if word.lower() in _BARRIER_WORDS:
                clause += 1
                last_end = m.end()
                continue
            parts = _identifier_parts(word)
            if len(parts) > 1:  # the whole identifier too: `typescript` finds TypeScript
                tokens.append(Token(word.lower(), m.start(), m.end(), clause))
            for start, part in parts:
                s0 = m.start() + start
                tokens.append(Token(part.lower(), s0, s0 + len(part), clause))
            last_end = m.end()
        made = cls(text, tokens)
        made.change, made.code, made.existing, made.replaced = change, code, existing, replaced
        made.deleted, made.moved = deleted, moved
        return made

    def index_at(self, char_pos: int) -> int:
        """Index of the first token starting at or after `char_pos`."""
        return bisect_left(self.starts, char_pos)


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
            if all(tokens[start + k].word == cue[k] for k in range(n)) and not (
                    term_cues.CAMEL_PARTS_NO_CUE
                    and camel_part(prepared.text, tokens[start].start, tokens[start].end)):
                return " ".join(cue)
    return ""



_TERM_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)?\*?")


def _split_term(term: str) -> list[str]:
    """A term's words, identifiers split like the text (`getUserById` -> get user by id)."""
    return list(_split_cached(term))


@lru_cache(maxsize=8192)
def _split_cached(term: str) -> tuple[str, ...]:  # every check splits every criterion's terms
    words: list[str] = []
    for raw in _TERM_WORD.findall(term.replace("_", " ").replace("-", " ")):
        star = raw.endswith("*")
        parts = [p for _, p in _identifier_parts(raw.rstrip("*"))]
        words.extend(p.lower() for p in parts)
        if star and words:
            words[-1] += "*"
    return tuple(words)


def path_term(term: str) -> str | None:
    """The glob of a `path:GLOB` term, else None."""
    t = term.strip()
    return t[5:].strip() if t.lower().startswith("path:") else None


@lru_cache(maxsize=8192)
def gate_of(term: str) -> tuple[str, str]:
    """('added'|'changed'|'', the term without its gate prefix)."""
    t = term.strip()
    for gate in GATES:
        if t.lower().startswith(gate + ":"):
            return gate, t[len(gate) + 1 :].strip()
    return "", t


def is_regex(term: str) -> bool:
    return len(term) >= 2 and term.startswith("/") and term.endswith("/")


@lru_cache(maxsize=1024)
def compile_regex(term: str) -> re.Pattern:
    return re.compile(term[1:-1], re.IGNORECASE | re.MULTILINE)


def _word_at(prepared: PreparedText, k: int, word: str) -> bool:
    tok = prepared.tokens[k].word
    if word.endswith("*"):
        return tok.startswith(word[:-1])
    return tok in word_forms(word) or stem(tok) == stem(word)


def _as_code(text: str, start: int, end: int) -> bool:
    """Is a symbol in prose written as code: inside backticks, or standing alone between
    words ("unwrap it with !! there"), not emphasis ("test!!", "Wow!! the build")?"""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text.count("`", line_start, start) % 2 and "`" in text[end:line_end]:
        return True
    before = text[start - 1] if start > 0 else " "
    after = text[end:end + 2]
    return before.isspace() and bool(re.match(r"\s+[\w`'\"(]", after))


def iter_term(prepared: PreparedText, term: str, *, negation: bool = True) -> Iterator[Hit]:
    """Occurrences of a word term or /regex/, lazily, each marked with its negation cue."""
    term = term.strip()
    if not term:
        return
    if is_regex(term):
        prose = symbol_of(term) is not None and not (prepared.code or prepared.change)
        for m in compile_regex(term).finditer(prepared.text):
            if m.end() == m.start() or (prose and not _as_code(prepared.text, m.start(), m.end())):
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
    for i in prepared.indexes_of(words[0]):  # only where the first word occurs
        tok = tokens[i]
        j, ok = i, True
        for w in words[1:]:
            nxt = next(
                (
                    k
                    for k in range(j + 1, min(len(tokens), j + PHRASE_GAP + 2))
                    if tokens[k].clause == tok.clause and _word_at(prepared, k, w)
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


def _gate_open(prepared: PreparedText, gate: str, hit: Hit) -> bool:
    """Does an add/change verb govern this occurrence (always so in a diff or an edit)?"""
    if gate == "removed" and hit.quoted and (prepared.change or hit.start < 0):
        return hit.quoted in prepared.deleted  # a diff or a patch deleting that file
    if gate == "moved" and (prepared.change or hit.start < 0):
        return False  # an edit, a write or a patch leaves a file where it is
    if gate == "moved" and prepared.code:  # `mv X/a …`, `git mv X/a X/b`: no copy, no move in
        return moves_away(prepared.text, hit.start)
    if gate == "removed" and prepared.change and hit.start >= 0:  # "never delete user accounts"
        return _removes_on_line(prepared.text, hit.start)  # `account.delete()`, not any use
    if not gate or prepared.change:
        return True
    if hit.start < 0:
        return False
    if gate == "added" and prepared.code and runs_tool(prepared.text, hit.start, hit.end):
        return True  # `poetry add httpx`, `npx serverless deploy` (tool_runs.py)
    if gate == "removed" and hit.quoted and prepared.code:  # `rm`, `git rm`, `find -delete`
        return removes(prepared.text, hit.start)
    # `cat > x/y.py`, `touch x/y.py`, `mv a.sql x/`: the command writes it; `git mv x/a b`,
    # `sed -i … x/a`: it changes it where it is (shell_writes.py)
    effect = shell_effect(prepared.text, hit.start, commands=prepared.code)
    if effect:
        return effect == "written" or gate == effect
    verbs = GATES[gate]
    first = prepared.index_at(hit.start)
    tokens = prepared.tokens
    if first >= len(tokens):
        return False
    clause = tokens[first].clause
    for k in range(max(0, first - GATE_WINDOW), first + 1):
        tok = tokens[k]
        if tok.clause == clause and (tok.word in verbs or stem(tok.word) in verbs):
            if prepared.code and _in_path(prepared.text, tok.start, tok.end):
                continue  # `cp deploy/base/a.yaml …`: the folder 'deploy' is no verb
            return not _negation_before(prepared, k)
    return False


# a deletion in code (`.delete()`, `DELETE FROM`, `drop_table`, `os.remove`); `soft_delete`
# is the way such a rule offers, no deletion
_REMOVAL_IN_CODE = re.compile(
    r"(?i)(?<![a-z])(?<!soft_)(?<!soft)(?:delete|remove|destroy|drop|purge|erase|wipe|unlink"
    r"|truncate|rmtree)(?![a-z])"
)


def _removes_on_line(text: str, start: int) -> bool:
    """Does the line of a change holding the word at `start` delete something? (An edit
    adding `user_accounts = load()` deletes no account; review of the twentieth session.)"""
    begin = text.rfind("\n", 0, start) + 1
    end = text.find("\n", start)
    return bool(_REMOVAL_IN_CODE.search(text[begin : end if end >= 0 else len(text)]))


def _in_path(text: str, start: int, end: int) -> bool:
    """Is the word at text[start:end] a part of a path (a `/` touching it)?"""
    return text[end : end + 1] == "/" or (start > 0 and text[start - 1] == "/")


def _path_hits(prepared: PreparedText, term: str, glob: str, paths: Sequence[str]) -> list[Hit]:
    hits = []
    for p in paths:
        if not glob_matches(glob, p):
            continue
        # every place prose or a command names the path: `touch utils/x.py && git add
        # utils/x.py` adds it at its second mention
        found = [m.start() for m in re.finditer(re.escape(p), prepared.text)]
        for pos in found if found and not prepared.change else [-1]:
            cue = _negation_before(prepared, prepared.index_at(pos)) if pos >= 0 else ""
            hits.append(Hit(term, pos, pos + len(p) if pos >= 0 else -1, cue, quoted=p))
    return hits


def _conjunct_present(prepared: PreparedText, term: str, paths: Sequence[str]) -> bool:
    glob = path_term(term)
    if glob is not None:
        return any(glob_matches(glob, p) for p in paths)
    return any(not h.negated_by for h in iter_term(prepared, term))


def term_hits(prepared: PreparedText, term: str, paths: Sequence[str] = ()) -> Iterator[Hit]:
    """Occurrences of one term in any syntax (gate, `&`, path, regex, words); a hit whose
    gate stays shut is reported as negated by 'no add/change verb'."""
    gate, bare = gate_of(term)
    head, *others = [t.strip() for t in bare.split(" & ")] if " & " in bare else [bare]
    if others and not all(_conjunct_present(prepared, o, paths) for o in others):
        return
    glob = path_term(head)
    hits = _path_hits(prepared, term, glob, paths) if glob is not None else None
    for hit in hits if hits is not None else iter_term(prepared, head):
        hit.term = term
        if gate == "removed" and hit.negated_by in REMOVAL_CUES:  # "delete x/a.png": the act
            hit.negated_by = ""
        if (not hit.negated_by and gate in ("added", "created") and glob and prepared.code
                and not prepared.change and _template_copy(prepared.text, hit.start)):
            hit.negated_by = "copies a committed template"  # `cp .env.example .env`
        elif not hit.negated_by and gate == "created" and hit.quoted in prepared.existing:
            hit.negated_by = "edits a file that is there already"
        elif not hit.negated_by and gate == "created" and glob and _renamed_inside(prepared, glob, hit):
            hit.negated_by = "renames a file that is there already"
        elif (not hit.negated_by and gate == "added" and glob and prepared.change
              and hit.quoted in prepared.existing and not (
                  defines_new(prepared.text, prepared.replaced) if glob.endswith("**")
                  else prepared.text.strip())):
            # a freeze on new things (maintenance mode, a feature freeze): an edit of a file
            # there that defines nothing new is a fix, not a feature (nineteenth session); a
            # freeze is on a folder: any line added to one named file ("Move secrets from
            # .env …") is what is forbidden there (rguard21: a secret added to .env passed)
            hit.negated_by = "edits a file there and defines nothing new"
        elif (not hit.negated_by and not _gate_open(prepared, gate, hit)
              and not moved_out(prepared, gate, glob, hit)):  # `mv X/a /tmp/`, a rename
            hit.negated_by = f"no {gate.removesuffix('ed')} verb"
        elif (not hit.negated_by and gate and gate != "removed" and glob
              and not (gate == "moved" and prepared.code)  # `git mv x/ y/` moves what is in it
              and _names_folder_only(prepared, glob, hit)):  # `rm -r x/` deletes under it
            hit.negated_by = "names the folder, adds nothing under it"
        yield hit


def _renamed_inside(prepared: PreparedText, glob: str, hit: Hit) -> bool:
    """`git mv lib/helpers/a.py lib/helpers/b.py`: a move whose every source is under the
    folder too puts no new file there (a command only; a copy is a new file)."""
    if not prepared.code or prepared.change or hit.start < 0:
        return False
    sources = moved_from(prepared.text, hit.start)
    return bool(sources) and all(glob_matches(glob, normalise_path(s)) for s in sources)


_INTO = frozenset(("to", "into", "in", "under", "inside", "within"))


def _names_folder_only(prepared: PreparedText, glob: str, hit: Hit) -> bool:
    """Prose naming a folder itself ("add build/ to .gitignore", "a target that cleans
    build/") adds nothing under it; only where the folder is the destination ("add a script
    to build/") does the add verb reach inside it."""
    if prepared.change or hit.start < 0 or not glob.endswith("/**"):
        return False
    if shell_effect(prepared.text, hit.start, commands=prepared.code):  # `mv a.sql build/`
        return False
    if hit.quoted.rstrip("/") != glob[:-3].rstrip("/"):
        return False
    k = prepared.index_at(hit.start)
    return k == 0 or prepared.tokens[k - 1].word not in _INTO


def first_affirmed(
    prepared: PreparedText, terms: Iterable[str], paths: Sequence[str] = ()
) -> tuple[Hit | None, list[Hit]]:
    """(first non-negated hit, negated hits seen) across `terms`; `path:GLOB` terms match
    the proposal's paths instead of its text."""
    negated: list[Hit] = []
    for term in terms:
        for hit in term_hits(prepared, term, paths):
            if not hit.negated_by:
                return hit, negated
            if len(negated) < MAX_REPORTED_NEGATIONS:
                negated.append(hit)
    return None, negated
