"""The ways people say "X instead of Y" without "use" or "prefer" in front (nineteenth
session): "Call X instead of Y", "Hash … with X in place of Y", "Let … X rather than Y",
"favour X over Y", "switch from Y to X", "replace Y with X", "Y is deprecated; use X", and a
clause "not with Y" after the way it names ("Install … into a virtualenv, not with sudo
pip"). Y is what the rule forbids; X is the way it recommends, never a term.

Only clauses the cue reader leaves alone come here: a clause with "use" / "prefer" before
"instead" is read by sentences.py as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lorestack.guardrail.code_heads import code_heads

# a word that marks what follows as the way something is done ("… with argon2 in place of")
_WAY_PREPS = ("with", "through", "via", "using", "by", "into")
_FAVOUR = ("favour", "favor", "choose", "pick")
_SWITCH = ("switch", "move", "migrate", "moving", "switching", "migrating")
_BANS = frozenset(("no", "never", "not", "don't", "avoid", "nothing"))
_DEPRECATED = ("deprecated", "discouraged", "obsolete", "banned")
# "a plain git push --force", "raw ALTER TABLE statements": the qualifier names no code
_QUALIFIER = ("plain", "bare", "raw", "naive", "direct", "manual", "slow")
# "the old API", "the legacy client": with the generic noun gone, the age names nothing
_AGE = frozenset(("old", "older", "legacy", "previous", "former", "current", "existing", "outdated"))
# "rather than wrapping it in mark_safe()": the act of Y, then where it is
_PARTICLES = ("it", "them", "in", "into", "with", "through", "on", "to", "from", "via")


@dataclass
class Contrast:
    old: list[str]  # the words of what is forbidden (Y)
    new: list[str]  # the words of the way recommended (X); may be empty
    how: str  # the words that said it, for the reading's steps


def _way(words: list[str]) -> list[str]:
    """X of "VERB … with X": what follows the last way-preposition, else all but the verb."""
    for i in range(len(words) - 1, -1, -1):
        if words[i] in _WAY_PREPS:
            return words[i + 1 :]
    return words[1:]


def _code_like(word: str, sentence: str) -> bool:
    """Is `word` spelled as code in the sentence (`basicConfig`, `os.environ`, `import *`)?"""
    if re.search(r"[._()]", word.strip(".")):
        return True
    m = re.search(rf"(?i)(?<![\w.]){re.escape(word)}(?![\w])", sentence)
    return bool(m and re.search(r"[a-z][A-Z]", m.group(0)))


def _thing(words: list[str], sentence: str = "") -> list[str]:
    """Y's words: a leading act with what it acts through ("wrapping it in", "reaching into",
    "selecting with"), an article, a qualifier and "directly" go; what is left is the thing.
    An act on its own ("instead of panicking", "instead of queueing traffic") names no thing:
    nothing (the clause is read as before)."""
    if words and words[0].endswith("ing") and len(words[0]) > 5:
        if len(words) > 1 and _code_like(words[1], sentence):  # "calling basicConfig directly"
            return _thing(words[1:])
        if len(words) < 3 or words[1] not in _PARTICLES + ("a", "an", "the"):
            return []
        words = words[1:]
        if words[0] in ("it", "them") and len(words) > 2 and words[2] in ("a", "an", "the"):
            return []  # "rather than raising them in the parser": a place, not a thing
        while len(words) > 1 and words[0] in _PARTICLES:
            words = words[1:]
    words = [w for w in words if w not in ("a", "an", "the", "directly")]
    if len(words) > 1 and words[0] in _WAY_PREPS:  # "rather than with requests directly"
        words = words[1:]
    if len(words) > 1 and words[0].endswith("ing"):  # "the shell-spawning exec": a quality
        words = words[1:]
    if len(words) > 2 and words[0] in _QUALIFIER:
        words = words[1:]
    return words


def _pair_at(words: list[str], *cue: str) -> int:
    for i in range(len(words) - len(cue) + 1):
        if tuple(words[i : i + len(cue)]) == cue:
            return i
    return -1


def read_contrast(
    words: list[str], previous: list[str] | None, sentence: str = ""
) -> Contrast | None:
    """The contrast one clause states, or None. `previous` is the clause before it (for "Y is
    deprecated; use X" the next clause names X itself; for "…, not with Y" the previous
    clause names X)."""
    if not words or {"use", "prefer", "uses", "prefers"} & set(words):
        return None  # read by sentences.py
    # "No fixed waits; wait on an alias instead of a number of milliseconds": the rule is
    # stated already, the contrast only explains it
    stated = bool(previous and _BANS & set(previous))
    for cue in (("instead", "of"), ("rather", "than"), ("in", "place", "of")):
        i = _pair_at(words, *cue) if not stated else -1
        old = _thing(words[i + len(cue) :], sentence) if i > 0 else []
        if old[-2:] == ["import", "*"]:  # "rather than with from module import *"
            old = ["import", "*"]
        if old:
            return Contrast(old, _way(words[:i]), " ".join(cue))
    if words[0] in _FAVOUR and "over" in words[2:]:
        i = words.index("over", 2)
        old = _thing(words[i + 1 :])
        return Contrast(old, words[1:i], f"{words[0]} … over") if old else None
    if (words[0] in ("move", "moving") and "from" in words[2:-2]
            and "to" in words[words.index("from", 2) + 2 :]):  # "Move secrets from .env to …"
        i = words.index("from", 2)
        j = words.index("to", i + 2)
        return Contrast(words[i + 1 : j], words[j + 1 :], "move … from … to")
    if words[0] in _SWITCH and len(words) > 3 and words[1] in ("from", "off", "away"):
        rest = words[2:] if words[1] != "away" else words[3:]
        if "to" in rest[1:]:
            i = rest.index("to", 1)
            return Contrast(rest[:i], rest[i + 1 :], f"{words[0]} from … to")
    if words[0] == "replace" and len(words) > 3:
        for prep in ("with", "by"):
            if prep in words[2:]:
                i = words.index(prep, 2)
                return Contrast(words[1:i], words[i + 1 :], f"replace … {prep}")
    if len(words) > 2 and words[-1] in _DEPRECATED and words[-2] in ("is", "are"):
        return Contrast(words[:-2], [], f"is {words[-1]}")
    if (previous and len(words) > 2 and words[0] in ("not", "never")
            and words[1] in _WAY_PREPS and "not" not in previous and "never" not in previous):
        old = _thing(words[2:])
        return Contrast(old, _way(previous), f"…, {words[0]} {words[1]}") if old else None
    return None


def rule_out(r, old: str, said: str, add, way: str = "") -> None:
    """Y of "use X instead of Y" / "prefer X over Y" (or any contrast above): forbidden, with
    the word of it the sentence spells as code ("the Redis KEYS command": `keys`;
    code_heads.py). `r` is sentences.py's reading, `add` its way of adding a term."""
    if _qualities(old, way):  # "Choose clarity over cleverness": no word a change shows
        r.draft.steps.append(f"{said} {old}': a quality, not a term")
        return
    if old.split()[-2:] == ["import", "*"]:  # a star import: the code, not the word 'import'
        add(r.draft.forbid, r"/\bimport\s+\*/")
        add(r.draft.keywords, "import *")
        r.draft.steps.append(f"{said} {old}': forbids a star import")
        return
    if old and not set(old.split()) <= _AGE:  # "The old API is deprecated": names no thing
        r.forbidden.append(old)
        # "git push --force": a flag is a whole word, never the start of --force-with-lease
        last = old.split()[-1]
        term = rf"/{re.escape(old)}(?![\w-])/" if last.startswith("-") else old
        # "execFile instead of exec": the way begins with the forbidden word; a whole word
        if " " not in old and any(w != old and w.startswith(old) for w in re.split(r"[\W_]+", way)):
            term = rf"/\b{re.escape(old)}\b/"
        # "SELECT *": the whole phrase is the code; its upper-case word alone is not
        heads = [] if any(not w.strip("*-./") for w in old.split()) else code_heads(old, r.sentence)
        for form in [term, *heads]:
            add(r.draft.forbid, form)
        for form in [old, *code_heads(old, r.sentence, upper=False)]:
            add(r.draft.keywords, form)
        if said:
            r.draft.steps.append(f"{said} {old}': forbids '{old}'")


_QUALITY = re.compile(r"[a-z-]+(?:ness|ity|ities|ism|isms|ance|ence|ations?)")


def _qualities(old: str, way: str) -> bool:
    """Two abstract nouns ("clarity over cleverness", "readability over micro-optimisations"):
    a preference between qualities, which only a reader can judge."""
    return bool(old and way) and all(
        len(t.split()) == 1 and _QUALITY.fullmatch(t) for t in (old, way)
    )
