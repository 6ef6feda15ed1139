"""The vocabulary the sentence reader (sentences.py) reads rules with: the cues of a
prohibition or an obligation, the verbs that introduce or edit, the words that are grammar
and never a term, and what makes a word a path."""

from __future__ import annotations

import re

from lorestack.guardrail.term_trim import trim_words

_PROHIBIT = (
    ("do", "not"), ("don't",), ("dont",), ("never",), ("must", "not"), ("mustn't",),
    ("should", "not"), ("shouldn't",), ("cannot",), ("can't",), ("may", "not"),
    ("avoid",), ("nothing",), ("no",), ("not",), ("stop",), ("ban",),
)  # fmt: skip
_OBLIGE = (
    ("must",), ("always",), ("should",), ("need", "to"), ("needs", "to"), ("have", "to"),
    ("has", "to"), ("only",), ("use",), ("prefer",), ("go", "through"), ("stick", "to"),
    ("stick", "with"), ("requires",), ("require",), ("needs",), ("need",), ("gets",),
    ("get",),
)  # fmt: skip
# cues that are themselves the verb: what follows is the object
_VERB_CUES = {"use", "prefer", "go through", "stick to", "stick with", "requires", "require"}
# "X needs / gets / requires Y": Y is what X must come with, X is where the rule applies
_NEED_CUES = {"needs", "need", "gets", "get", "requires", "require"}
_NO_VERB_CUES = {"no", "not", "nothing"}  # "No mocks …", "not print()", "Nothing under …"
# "not only with print", "not just in setup.cfg", "whether or not it comes": no ban
_NOT_ADVERBS = frozenset("only just merely simply necessarily".split())


def not_a_ban(words: list[str], i: int) -> bool:
    """True for a bare "not" at `i` that bans nothing ("not only", "whether or not")."""
    return (i + 1 < len(words) and words[i + 1] in _NOT_ADVERBS) or (i > 0 and words[i - 1] == "or")


_INTRODUCE = frozenset(
    "introduce add create adopt install bring spin set stand deploy provision".split()
)
_EDIT = frozenset("edit hand-edit change modify touch patch tweak rewrite alter".split())
_GENERIC_VERBS = frozenset("write use add have include run call put make do".split())
# "must be / stay / remain X" names a property, not something the words of a change show
_COPULAS = frozenset("be stay remain become keep".split())
_SCOPE_PREPS = frozenset(
    "in from to on at under inside within for across into this during until outside "
    "through via with before after when whenever while".split()
)
_TRIGGER_PREPS = frozenset("before after when whenever while".split())
# a relative clause of its own ("code you did not write", "files we are not changing") is
# cut from the object when it is negated: its words ('not changing') are nothing a proposal says
_CLAUSE_SUBJECTS = frozenset("you we they i someone somebody".split())
_NEGATIONS = frozenset("not n't never didn't don't doesn't aren't isn't haven't hasn't weren't "
                       "wasn't won't cannot can't".split())
_DETERMINERS = frozenset(
    "a an the any some our your their its this that these those more other another "
    "additional extra every each all both new own anything something everything".split()
)
_GENERIC_NOUNS = frozenset(
    "api apis code component components function functions file files module modules "
    "thing things layer layers library libraries call calls stuff tool tools method "
    "methods variant variants version versions support feature features statement "
    "statements string strings".split()
)
_QUALIFIERS = frozenset("real actual proper dedicated separate single explicit".split())
_STOP = frozenset(
    "we i you it is are be was were has have had will can could would may might shall "
    "and or plus with by of as so".split()
)
# objects whose code form differs from their name: the words they imply
_IMPLIED = {
    "raw sql": [r"/\b(select|insert|update|delete)\b[^\n]{0,120}?\b(from|into|set|where)\b/"],
}
# the same by the words a term contains (third session, fourth tuning batch): a version tag
# as an action or image reference, a string literal assigned to a name, text written
# straight into markup, a mutable container bound at a module's top level
_IMPLIED_BY_WORDS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"tag"}), r"/@v\d+(?:\.\d+)*\b/"),
    (frozenset({"hard", "coded"}), r"""/^\s*[a-z_][a-z0-9_.]*\s*=\s*['"][^'"\n]{3,}['"]\s*$/"""),
    (frozenset({"hard", "coded", "english"}), r"/>[^<>{}\n]*[a-z]{3,}[^<>{}\n]*</"),
    (frozenset({"mutable", "state"}), r"/^[a-z_][a-z0-9_]*\s*=\s*(?:\{\}|\[\]|dict\(\)|list\(\)|set\(\))\s*$/"),
)


def implied(term: str) -> list[str]:
    """The code forms a forbidden term implies."""
    words = set(re.findall(r"[a-z0-9]+", term.lower()))
    out = list(_IMPLIED.get(term, []))
    out += [form for need, form in _IMPLIED_BY_WORDS if IMPLIED_FORMS and need <= words]
    return out


IMPLIED_FORMS = True
# what a rule wants, in the form a change shows it: "an issue number" is `#412`
_IMPLIED_WANTS = {
    "issue number": [r"/#\d+\b/"],
    "ticket number": [r"/#\d+\b/"],
}
# acts whose command-line spelling differs: `git push -f` is a force-push
_IMPLIED_ACTS = {"force push": ["push f"]}
# a code spelling made of symbols is a word too: `!!`, `==`, `!important` (sixteenth session)
_WORDS = re.compile(r"![A-Za-z][\w-]*|[!=<>]{2,3}|[A-Za-z0-9_./*'\u2019-]+")
_PAREN = re.compile(r"\(([^()]*)\)")
# a clause ends at ;, at : after a word, and at ! or ? that closes a word; `No !! in
# Kotlin`, `?:`, `!important` and `#!/usr/bin/env` are code, not punctuation
CLAUSE_MARKS = r"[;:]*;[;:]*\s*|(?<![\s!?]):+\s*|(?<![\s!?;:])[!?]+(?=\s|$)\s*"
_CLAUSE_SPLIT = re.compile(CLAUSE_MARKS + r"|\.(?:\s+|$)|,\s+|\s+[-\u2013\u2014]+\s+")
SYMBOLS = re.compile(r"[!=<>]{2,3}|![A-Za-z][\w-]*")


def symbol_term(term: str) -> str:
    """A symbol spelling as a regex that does not match inside a longer one: `==` is not in
    `===` or `!==`; any other term as it is. terms.py matches it only in code."""
    if not SYMBOLS.fullmatch(term):
        return term
    return f"/(?<![!=<>]){re.escape(term)}(?![!=<>])/"


_SYMBOL_TERM = re.compile(r"/\(\?<!\[!=<>\]\)(.+)\(\?!\[!=<>\]\)/")


def symbol_of(term: str) -> str | None:
    """The symbol a term made by symbol_term spells (`==`), else None."""
    m = _SYMBOL_TERM.fullmatch(term.strip())
    return re.sub(r"\\(.)", r"\1", m.group(1)) if m else None


def shown(term: str) -> str:
    """A term as a person reads it: each symbol regex as its symbol (`==`, `!!`)."""
    return re.sub(r"/\(\?<!\[!=<>\]\)(.+?)\(\?!\[!=<>\]\)/",
                  lambda m: re.sub(r"\\(.)", r"\1", m.group(1)), term)


# emphasis, never a term: "(!!)", "files!!", a run of marks that ends the sentence
_EMPHASIS = re.compile(r"\(\s*[!?]+\s*\)|(?<=\w)[!?]{2,}(?!\.?\w)|\s+[!?]{2,}\s*$")


def drop_emphasis(sentence: str) -> str:
    """The sentence without marks of emphasis (review of the sixteenth session: "Never
    hardcode credentials in config files (!!)" drafted `!!` and flagged "test!!")."""
    return _EMPHASIS.sub(" ", sentence)


_FILE_EXTENSIONS = frozenset(
    "lock py js ts tsx jsx md json yaml yml toml cfg ini txt tf sql sh env xml html css go "
    "rs java rb c h cpp proto mod sum gradle".split()
)


def _is_path(word: str) -> bool:
    """A folder, a glob, a dotfile or a file name with a known extension (`poetry.lock`)."""
    w = word.rstrip(".,")
    if re.fullmatch(r"[a-z]{1,3}/[a-z]{1,3}", w, re.I):  # "I/O", "CI/CD", "UI/UX": words
        return False
    if not re.search(r"\w", w):  # "SELECT *", "a / b": every path would match
        return False
    if "/" in w or "*" in w or (w.startswith(".") and len(w) > 1 and w[1].isalpha()):
        return True
    stem_, dot, ext = w.rpartition(".")
    return bool(dot and stem_ and ext in _FILE_EXTENSIONS)


_OUTSIDE = re.compile(
    r"\b(?:except|outside(?:\s+of)?|other than|apart from)\s+(?:(?:in|under|inside|for)\s+)?"
    r"(?:the\s+|our\s+)?([\w./*-]+)",
    re.I,
)
_TEST_PATHS = ("path:tests/** | path:test/** | path:test_* | path:*_test.* | path:*.test.* | "
               "path:*.spec.* | path:__tests__/** | path:spec/** | path:conftest.py")


def scope_exemptions(sentence: str) -> list[str]:
    """A scope a prohibition leaves out, as touched paths that exempt: "No print() outside
    the cli/ package" -> `path:cli/**`; "…, except in tests" -> the usual test paths
    (ninth session: the reader used to drop these, so code in the exempted place was
    flagged like any other)."""
    out = []
    for m in _OUTSIDE.finditer(sentence):
        word = m.group(1).rstrip(".,")
        if _is_path(word):
            out.append(f"path:{_glob(word)}")
        elif word.lower() in ("tests", "test"):
            out.append(_TEST_PATHS)
    return list(dict.fromkeys(out))


_MODALS = frozenset("must should may can will shall".split())
# a passive after one of these is a relative clause or a rule of its own ("Never deploy code
# that is not tested"), not the subject's prohibition
_NOT_A_SUBJECT = frozenset("that which who whose whom where never not no don't do".split())
# "X is not required / recommended / expected": X is not forbidden
_PERMISSIVE = frozenset(
    "required recommended expected necessary mandatory intended guaranteed needed supported "
    "encouraged".split()
)
_IRREGULAR = {"kept": "keep", "made": "make", "sent": "send", "written": "write", "put": "put",
              "left": "leave", "built": "build", "shown": "show", "run": "run", "set": "set"}


PASSIVE_ACTS = True


def passive_act(words: list[str]) -> list[str] | None:
    """"X must not be committed", "X is never edited by hand", "X are never kept in Y":
    the act first, then what it is done to, as an active prohibition would read ("never
    edit X by hand"), so the subject is what is forbidden (ninth session). None otherwise."""
    if not PASSIVE_ACTS:
        return None
    for i, w in enumerate(words[1:-1], 1):
        if w not in ("not", "never"):
            continue
        j = i + 1
        if words[i - 1] in _MODALS and words[j] == "be":
            j += 1
        elif words[i - 1] not in ("is", "are") or words[j] == "be":
            continue
        part = words[j] if j < len(words) else ""
        if not (part.endswith("ed") or part in _IRREGULAR) or part in (
                _ALLOWED | _FUNCTION_WORDS | _PERMISSIVE):
            return None
        if any(x in _NOT_A_SUBJECT for x in words[: i - 1]):
            return None
        stems = [part[:-k] for k in (1, 2, 3)]
        verb = _IRREGULAR.get(part) or next((b for b in stems if b in _EDIT | _INTRODUCE), part)
        subject = [x for x in words[: i - 1] if x not in _BE and x not in _MODALS]
        return [verb, *subject, *words[j + 1 :]] if subject else None
    return None


def as_spelled(path: str, sentence: str) -> str:
    """A drafted path as the sentence spells it: the reader lowercases words, while a touched
    path keeps its case, so `changelog.md` would never match `CHANGELOG.md` (ninth session)."""
    literal = path.rstrip("*")
    if not literal:
        return path
    pattern = r"(?<![\w./-])" + re.escape(literal) + r"(?![\w])"
    m = re.search(pattern, sentence) or re.search(pattern, sentence, re.I)
    return m.group(0) + path[len(literal):] if m else path


_ITEM = r"(?:an?\s+)?[\w.:'-]+(?:\(\))?"
_SUCH_AS = re.compile(
    rf"\s+such as\s+({_ITEM}(?:(?:,\s*|,?\s+or\s+|,?\s+and\s+){_ITEM})*)"
    r"(?=\s*(?:[;:,.]|$)|\s+(?:must|should|may|are|is|as|against|in|on|to|from|into|will)\b)",
    re.I,
)


SUCH_AS = True


def such_as(sentence: str) -> str:
    """ "Focused tests such as it.only or fdescribe must not …" -> "Focused tests (it.only,
    fdescribe) must not …": a "such as" list is read as a parenthesised one (ninth session)."""
    def listed(m: re.Match) -> str:
        items = re.split(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+", m.group(1))
        names = (re.sub(r"^an?\s+", "", i).removesuffix("()") for i in items if i)
        return " (" + ", ".join(names) + ")"  # eval() -> eval: no parentheses inside
    return _SUCH_AS.sub(listed, sentence) if SUCH_AS else sentence


_PARTICLES = frozenset("out off up down back away".split())
PARTICLES = True


def without_particle(after: list[str]) -> list[str]:
    """The object after a phrasal verb: "roll out to all hosts" -> "to all hosts", "switch
    off CSRF protection" -> "CSRF protection" (ninth session: the particle was the term)."""
    return after[1:] if PARTICLES and len(after) > 1 and after[0] in _PARTICLES else after


def respell(terms: list[str], paths: list[str], sentence: str) -> list[str]:
    """`terms` with each drafted path (bare or after `path:`) as the sentence spells it."""
    spelled = {p: as_spelled(p, sentence) for p in paths}
    return [
        spelled.get(t) or re.sub(r"(?<=path:)[^\s&|]+", lambda m: spelled.get(m[0], m[0]), t)
        for t in terms
    ]


def spell_and_scope(draft, sentence: str) -> None:
    """Finish a draft read from `sentence` in place: each drafted path (and the terms naming
    it) as the sentence spells it, and the scopes a prohibition leaves out as exemptions."""
    scoped = [e for e in scope_exemptions(sentence) if draft.forbid and e not in draft.unless]
    paths = list(draft.paths)
    for name in ("paths", "forbid", "require", "unless", "alternatives"):
        setattr(draft, name, respell(getattr(draft, name), paths, sentence))
    draft.unless += scoped
    subjects = _instrument_of(sentence)
    if subjects:
        draft.forbid = [
            " | ".join(f"{t} & {w}" for w in subjects) if symbol_of(t) else t for t in draft.forbid
        ]
        draft.keywords = [
            g for k in draft.keywords for g in ([f"{k} & {w}" for w in subjects] if symbol_of(k) else [k])
        ]


_STATED = re.compile(
    r"^\s*(?:the\s+|all\s+|our\s+)?([a-z][\w\s-]*?)\s+(?:are|is|must|should|get|gets)\s", re.I
)
_INSTRUMENT = re.compile(r"(?i)[,;]\s*(?:but\s+)?(?:never|not)\s+(?:with|by|using|via)\s+\S+")


def _instrument_of(sentence: str) -> list[str]:
    """The subjects of "Signatures and tokens are compared with hmac.compare_digest, never
    with ==": a symbol forbidden as the instrument of the stated act is forbidden only
    where its subject is named (`== & signatures`), not in every `if x == 0:`."""
    stated = _STATED.match(sentence)
    if not (stated and _INSTRUMENT.search(sentence)):
        return []
    words = re.split(r"\s+(?:and|or)\s+|,\s*", stated.group(1).strip())
    return [w.split()[-1].lower() for w in words if w.strip()]


def _glob(word: str) -> str:
    w = word.rstrip(".,")
    return w + "**" if w.endswith("/") else w


# words that carry the grammar of a rule, never its subject: a term made only of these
# ("support", "never", "job", "script", "new", "use", "add") would match everything
_FUNCTION_WORDS = frozenset(
    "support supports supported never always job jobs script scripts new use used using "
    "add adds added adding task tasks change changes changed thing things way ways work "
    "works also just first only one ones set setup run runs make makes get gets do does "
    "done need needs needed go goes it them there here via instead directly straight even "
    "accepted start starts released same otherwise".split()
)


SUCH_AS_CODE = True


def meaningful(term: str) -> bool:
    """False for a term made only of function words, determiners or generic nouns."""
    bare = term.split(":", 1)[1] if re.match(r"^(added|changed):", term) else term
    if SYMBOLS.fullmatch(bare):
        return True
    if bare.startswith(("/", "path:")) or "/" in bare or "*" in bare:
        return True
    if SUCH_AS_CODE and re.search(r"\w\.[a-z_]\w", bare.lower()):  # `it.only`, not i.e.
        return True
    words = re.findall(r"[a-z0-9_]+", bare.lower())
    ignorable = _FUNCTION_WORDS | _STOP | _DETERMINERS | _GENERIC_NOUNS | _SCOPE_PREPS
    return any(w not in ignorable for w in words)


_ALLOWED = frozenset("allowed permitted acceptable ok okay".split())
_PASSIVE_BANS = frozenset("forbidden banned prohibited disallowed".split())
_BE = frozenset("is are be".split())


def verb_gate(verb: str) -> str:
    """'added' for a verb that introduces, 'changed' for one that edits, else ''."""
    base = verb.removesuffix("ing")
    if base in _INTRODUCE or base + "e" in _INTRODUCE:
        return "added"
    if base in _DELETE or verb in _DELETE:  # "never delete X": deleting X is the act
        return "removed"
    return "changed" if base in _EDIT or verb in _EDIT else ""


_DELETE = frozenset(("delete", "deleted", "erase", "wipe", "purge"))


def split_at_or(words: list[str]) -> list[list[str]]:
    """Object words split at "or" only: the ways a rule offers (an "and" joins them)."""
    groups: list[list[str]] = [[]]
    for w in words:
        groups.append([]) if w == "or" else groups[-1].append(w)
    return [g for g in groups if g]


def _content(words: list[str], *, alternative: bool = False) -> tuple[str, bool, list[str]]:
    """(term, says 'new', paths) of an object phrase: determiners and generic nouns go."""
    says_new = "new" in words
    paths = [_glob(w) for w in words if _is_path(w)]
    kept = [w.strip(".,()'\"`") for w in words if not _is_path(w)]
    kept = [w for w in kept if w and w not in _DETERMINERS and w not in _STOP]
    while kept and kept[-1] in _SCOPE_PREPS:  # "print statements in": the scope is cut off
        kept.pop()
    if alternative:
        kept = [w for w in kept if w not in _QUALIFIERS] or kept
    specific = [w for w in kept if w not in _GENERIC_NOUNS]
    while specific and specific[-1] in _SCOPE_PREPS:  # "formatting in (new code)"
        specific.pop()
    if paths and not specific:  # ".env files": the path says it all
        return "", says_new, paths
    return " ".join(trim_words(specific or kept)), says_new, paths  # not "the full one"


def _split_scope(rest: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(object words, scope words, trigger words) of what follows a verb."""
    obj: list[str] = []
    scope: list[str] = []
    trigger: list[str] = []
    target = obj
    for i, w in enumerate(rest):
        if target is obj and obj and w in _CLAUSE_SUBJECTS and _NEGATIONS & set(rest[i + 1:]):
            break  # "files you are not otherwise changing": the clause's words are no term
        if w in _TRIGGER_PREPS:
            target = trigger
            continue
        if w in _SCOPE_PREPS and target is obj:
            target = scope
        target.append(w)
    return obj, scope, trigger


def _split_list(words: list[str]) -> list[list[str]]:
    """Object words split at "or" / "and" / "nor" / "/" (each part a thing of its own)."""
    groups: list[list[str]] = [[]]
    for w in words:
        if w in ("or", "and", "nor"):
            groups.append([])
        else:
            groups[-1].append(w)
    return [g for g in groups if g]


def not_banned(words: list[str], banned: list[str] | None) -> list[str]:
    """The words of a clause outside what it forbids: a passive ban's subject, what follows
    "instead of" / "rather than" (a prohibition's cue is cut where it is found)."""
    for i, w in enumerate(words[:-1]):
        if (w, words[i + 1]) in (("instead", "of"), ("rather", "than")):
            return words[:i]
    return [w for w in words if w not in (banned or ())]


def add_term(target: list[str], value: str) -> None:
    """`value` as a term (a symbol kept as code) added to `target` once, if it means something."""
    value = symbol_term(value)
    if value and value not in target and meaningful(value):
        target.append(value)
