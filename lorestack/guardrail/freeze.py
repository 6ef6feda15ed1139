"""A folder or package named as the subject of a freeze: "The compat/ package is frozen and
is not accepting new features", "Nothing new under utils/", "config/legacy/ takes no new
settings", "Don't add scripts to scripts/adhoc/ any more".

Read clause by clause, such a rule named no term a proposal could meet ("accepting",
"endpoints go", "written there") or nothing at all. What it forbids is new code in a place:
the folder becomes the rule's scope (`applies-to` paths), adding anything under it is the
forbidden act (`added:path:FOLDER/**`: always so for a diff or an edit there; in prose or a
command only where an add verb governs the path, so "move the helper out of compat/" is no
hit), and the folder's own name (its last part, unless a version like `v1` or an everyday word
like `build` or `docs`) is a keyword, so prose that names it ("the compat package", "the Perl report tool") applies too. A clause
after the freeze that prohibits without naming another folder ("no new endpoints go into
it", "nothing new is written there") only restates it.

A freeze is on *new files* ("Nothing new under X/", "no new modules", "closed to new
files", "don't add scripts"): `created:path:FOLDER/**`, which an edit of a file already there
does not meet; on *new things* that may go into an existing file ("no new endpoints", "not
accepting new features", "in maintenance"): `added:path:FOLDER/**`, met by any change there;
or on *changing* ("No changes to third_party/", "gen/ is read-only", "db/v1/ is frozen" with
no word of adding): `changed:path:FOLDER/**` as well, which prose meets with an edit verb.
A prohibition after the freeze that neither restates it (new, add, change, "it", "there") nor
names a folder is a rule of its own ("legacy/ is frozen; never call eval() anywhere"): its
terms are read as any prohibition's, and its keywords make it apply outside the folder too.
"""

from __future__ import annotations

import re

from lorestack.guardrail.sentence_words import _FILE_EXTENSIONS, _GENERIC_NOUNS, meaningful

_STATES = frozenset(("frozen", "closed", "read-only"))
_NEGATIONS = frozenset(("no", "nothing", "not", "never", "don't", "dont", "without"))
_MORE = frozenset(("new", "more", "add", "added", "adding"))
_CHANGES = frozenset(
    "change changes changed edit edits edited modify modified modifications touch".split()
)
# words by which a later clause refers to the frozen place, or says the rule is not about it
_PLACE = frozenset(("it", "there", "here", "them", "its", "folder", "directory"))
_EVERYWHERE = frozenset(("anywhere", "everywhere", "either", "also"))
# what a freeze calls new that is a file of its own ("no new modules", "nothing new")
_FILE_UNITS = frozenset(
    "file files module modules script scripts package packages folder folders directory "
    "directories migration migrations fixture fixtures".split()
)
_KINDS_OF = frozenset(("format", "formats", "type", "types", "kind", "kinds", "extension",
                      "extensions"))
_VERSION = re.compile(r"v?\d+(?:\.\d+)*|\d+\.x")
# folder names that are everyday words in prose ("run the build", "a vendor field", "update
# the docs"): as a keyword they would flag ordinary work, so the path alone scopes the rule
_EVERYDAY = frozenset(
    "build builds dist docs doc vendor vendors scripts script test tests lib libs src source "
    "config configs data assets static public examples example bin out output target site "
    "tools packages package templates media deploy release releases generated tmp temp "
    "cache logs fixtures samples resources app apps web server client common shared core "
    "internal pkg cmd api legacy old third_party external".split()
)


def _folder(word: str) -> str:
    """The folder a word names (`compat/`, `shared/common`, `sdk/java`), else ""."""
    # a trailing full stop is punctuation, a leading dot is part of the name (.github/)
    w = word.strip(",'\"`").rstrip(".").removeprefix("./")
    if "/" not in w or "*" in w or w.startswith(("http", "~", "$")) or "://" in w:
        return ""
    parts = [p for p in w.split("/") if p]
    if not parts or not all(re.fullmatch(r"[a-z0-9_.-]+", p) for p in parts):
        return ""
    if len(parts) == 2 and len(w) <= 5 and not w.endswith("/"):  # "I/O", "UI/UX": words
        return ""
    last = parts[-1]
    if "." in last and last.rsplit(".", 1)[1] in _FILE_EXTENSIONS:  # a file, not a folder
        return ""
    return "/".join(parts) + "/"


def frozen_folder(words: list[str]) -> str:
    """The folder a clause freezes: it names a folder and says it is frozen, closed or in
    maintenance, or forbids anything new or more there; else ""."""
    folders = [f for f in (_folder(w) for w in words) if f]
    if not folders:
        return ""
    said = set(words)
    if said & _STATES or "maintenance" in said:
        return folders[0]
    # "Feature freeze on payments/", "Code freeze for the cli/ package", "plugins/ only takes
    # bug fixes now" (twentieth session)
    if ("freeze" in said and said & {"feature", "code"} or "feature-frozen" in said) and not (
            said & _FREEZE_OVER):  # "The feature freeze on payments/ was lifted": none now
        return folders[0]
    if "only" in said and said & _FIXES and _only_fixes(words):
        return folders[0]
    for i, w in enumerate(words):
        if w in _NEGATIONS and said & _MORE & set(words[i + 1 : i + 5]):
            return folders[0]
    if {"accepts", "takes", "accepting", "taking"} & said and "no" in said:
        return folders[0]
    if _no_changes(words):  # "No changes to third_party/ by hand"
        return folders[0]
    return ""


def _no_changes(words: list[str]) -> bool:
    return any(w == "no" and _CHANGES & set(words[i + 1 : i + 4]) for i, w in enumerate(words))


_FREEZE_OVER = frozenset("lifted lift lifts ended unfrozen announce announced".split())
_FIXES = frozenset(("fixes", "bugfixes", "fix", "hotfixes"))
# the words between a folder's "only" and its fixes: "plugins/ only takes bug fixes"
_ONLY_TAKES = frozenset("take takes accept accepts get gets receive receives allow allows bug "
                        "security critical and small".split())


def _only_fixes(words: list[str]) -> bool:
    """Does the clause say a folder it names takes fixes only ("plugins/ only takes bug
    fixes", "billing/ gets bug fixes only")? Not "Put fixes for the parser in parser/ only",
    "Run only the tests in tests/unit/ when you fix a bug", "Only maintainers merge fixes to
    release/" (review of the twentieth session: each froze the folder it names)."""
    for i, w in enumerate(words):
        if w != "only" or not any(_folder(x) for x in words[:i]):
            continue
        if words[i - 1 : i] and words[i - 1] in _FIXES:  # "bug fixes only"
            return True
        for x in words[i + 1 : i + 5]:
            if x in _FIXES:
                return True
            if x not in _ONLY_TAKES:
                break
    return False


def _new_files(words: list[str]) -> bool:
    for i, w in enumerate(words):
        if w in ("nothing", "anything") and words[i + 1 : i + 2] == ["new"]:
            return True
        if w in _MORE and _FILE_UNITS & set(words[i + 1 : i + 4]) and not _KINDS_OF & set(
                words[i + 1 : i + 5]):  # "no new file formats": a kind of thing, not files
            return True
    return False


def freeze_kind(words: list[str], kind: str = "") -> str:
    """What a freeze clause forbids: 'created' (new files), 'added' (new things, which may go
    into a file already there) or 'changed' (any change); `kind`: what the freeze said
    before, which a clause restating it narrows ("frozen; nothing new goes into it")."""
    said = set(words)
    if not kind and ("read-only" in said or _no_changes(words)):
        return "changed"
    if _new_files(words):
        return "created"
    if kind:
        return "added" if kind == "changed" and said & _MORE else kind
    return "changed" if "frozen" in said and not said & _MORE and "maintenance" not in said \
        else "added"


def restates(words: list[str]) -> bool:
    """Does a prohibition after a freeze, naming no folder, restate it ("no new endpoints go
    into it", "do not modify the files in it"), or is it a rule of its own ("never call eval()
    anywhere", "no print() calls in library code either")?"""
    said = set(words)
    return not said & _EVERYWHERE and bool(said & (_MORE | _CHANGES | _PLACE))


def names_a_folder(words: list[str]) -> bool:
    return any(_folder(w) for w in words)


def freeze_terms(folder: str, kind: str = "added") -> tuple[list[str], str, list[str]]:
    """(forbidden terms, scope glob, keywords) of a frozen folder (`kind`: freeze_kind)."""
    glob = folder + "**"
    last = folder.rstrip("/").rsplit("/", 1)[-1]
    keywords = [] if folder.rstrip("/") in _EVERYDAY else [folder.rstrip("/")]
    for part in re.split(r"[-_]", last):
        if (
            len(part) > 2 and not _VERSION.fullmatch(part) and part not in _GENERIC_NOUNS
            and part not in _EVERYDAY and meaningful(part)
        ):
            keywords.append(part)
    gate = "created" if kind == "created" else "added"
    forbid = [f"{gate}:path:{glob}"] + ([f"changed:path:{glob}"] if kind == "changed" else [])
    return forbid, glob, list(dict.fromkeys(keywords))


# prose adding a feature to a frozen place, and words that say it fixes (twenty-first session)
_FEATURE_ACTS = frozenset(
    "add adds adding introduce introducing support supporting teach implement implementing "
    "new accept accepting allow enable build".split()
)
_FIX_WORDS = frozenset(
    "fix fixes fixing fixed bug bugs crash crashes error errors typo typos regression broken "
    "repair test tests".split()
)


def feature_named(text: str, names: list[str]) -> str:
    """Prose naming a folder frozen to new things by its name only and adding to it ("Add
    Adyen as a new payment provider for billing", "Teach the payments module to accept
    Klarna"): the sentence, else ''. Prose that says it fixes, or names no such folder, is
    ''. The reader cannot tell a feature from a fix by these words: the rule asks."""
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    forms = {n for n in names} | {n[:-1] for n in names if n.endswith("s")} | {
        n + "s" for n in names}
    if not forms & words or _FIX_WORDS & words or not _FEATURE_ACTS & words:
        return ""
    return text.strip().splitlines()[0][:200]


_FIX_VERBS = frozenset(("fix", "repair"))
_LEAD = frozenset(("please", "just", "first", "now", "also"))


# a fix that names a capability to add ("Fix the missing CSV export", "… so they also include a
# per-region breakdown", "… support for Excel"): a feature worded as a fix (review of the
# twenty-third session); "so it no longer crashes", "so they work again" still only fix
_ADDS = re.compile(
    r"(?i)\b(?:missing|lacks?|lacking|also|include|includes|including|support\s+for)\b|"
    r"\bso\s+(?:that\s+)?(?:it|they|we|users?|one)\s+(?!(?:no\b|not\b|never\b|no\s+longer\b|"
    r"(?:do|does|can|will|wo)n't\b|stops?\b|works?\b|again\b))"
)


def fix_only(text: str) -> str:
    """Prose whose act is a fix and that adds nothing ("Fix the crash in search when the query
    is empty"): the sentence, else ''. A freeze on new things keeps it (twenty-third session:
    three look-alikes of batches 17 and 19 asked as if they might be features)."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    while words and words[0] in _LEAD:
        words.pop(0)
    if not words or words[0] not in _FIX_VERBS or _FEATURE_ACTS & set(words) or _ADDS.search(text):
        return ""
    return text.strip().splitlines()[0][:200]
