"""What a criterion sentence requires through a verb no obligation cue reads (twenty-fourth
session, bucket A1 of tests/lookalike_buckets.py): "Every alerting rule carries a severity
label", "… carries the owner and cost_center tags", "Kubernetes CronJobs set
concurrencyPolicy: Forbid", "Airflow DAGs are declared with catchup=False", "Session cookies
are always set with Secure, HttpOnly and SameSite". Nothing was drafted from them, so a
look-alike that shows the thing (`severity: ticket`) asked as the violation that leaves it
out (`labels: team: search`) did.

The thing carried becomes a required term only where the sentence names it as code — an
identifier with `_` or inner capitals, an ALL-CAPS word of five letters or more, a `key=value`
or `key: Value` pair (then the value is required with its key: `concurrencyPolicy: Allow`
lacks it), a flag (`set -euo pipefail`), a shebang, a path — or as the name of a label, tag,
comment, header, annotation, attribute or block ("a severity label": 'severity'; "the owner
and cost_center tags": both). A thing said in plain words ("a maximum request size", "their
outputs cleared", "CPU and memory requests") stays a sentence only meaning judges, and so does
a list with one such thing in it ("a List-Unsubscribe header and a one-click unsubscribe
link": requiring the header alone would block the template that has the link). Each named
thing is required (they are joined by "and"); things joined by "or" are one requirement.
"""

from __future__ import annotations

import re

ENABLED = True  # the switch tests and tests.stage_audit turn off

# the verb and what follows it, up to the end of the clause (";", ".", " — ")
_VERB = re.compile(
    r"\b(?:carr(?:y|ies)|has|have|declares?|sets?|starts?\s+with|ends?\s+(?:in|with)"
    r"|(?:is|are)\s+(?:always\s+)?(?:declared|set|created)\s+with)"
    r"\s+(?!to\b|been\b|no\b|not\b)(?P<obj>.+?)(?=;|\.\s|\.$|\s[-\u2014]\s|$)",
    re.I,
)
# where the object ends: a condition, a purpose, a place or a time said after it
_CUT = re.compile(
    r"\s+(?:right\s+)?(?:after|before|when|whenever|unless|so|if|because|while|until|for|in|"
    r"on|at|from|granting|saying|that|which|who|where|within|except|never|not|nor|instead|"
    r"rather)\b.*$",
    re.I,
)
_KIND = frozenset(
    "label labels tag tags comment comments header headers annotation annotations attribute "
    "attributes block".split()
)
_DETERMINERS = frozenset("a an the its their every each all our".split())
_PAIR = re.compile(r"^([A-Za-z_][\w.]*)\s*(=|:)\s*([\"']?)([\w.\-]+)\3$")
_CAMEL = re.compile(r"[a-z][A-Z]")
# a clause that states a rule of its own ("…; write-all is never acceptable", "unsafe code is
# allowed only in the ffi crate, and …"): the requirement read beside it is not the whole rule
_OTHER_RULE = re.compile(
    r"(?i)\b(?:never|not|no|nobody|nothing|only|must|should|don't|do\s+not|avoid|instead|"
    r"rather|allowed|acceptable)\b|n't\b")


def _is_code(word: str) -> bool:
    """Is `word`, as written, a code form rather than an English word?"""
    bare = word.strip("`\"'()")
    if not re.search(r"[A-Za-z]", bare):
        return False
    return bool(
        word.startswith("`")
        or re.search(r"[A-Za-z0-9]_|_[A-Za-z]", bare)  # cost_center, lock_timeout, _seconds
        or _CAMEL.search(bare)  # concurrencyPolicy, PodDisruptionBudget, HttpOnly
        or (bare.isupper() and len(re.sub(r"[^A-Z]", "", bare)) >= 5)  # SAFETY, MANIFEST
        or bare.startswith(("-", "#!", "//", "/"))  # set -euo pipefail, #!/usr/bin/env bash
        or re.search(r"\w\.\w+$", bare) and "/" in bare  # vendor/MANIFEST.toml
        or re.search(r"[a-z]-[a-z]", bare) and bare.split("-")[-1].lower() in _KIND  # aria-label
    )


def _pair_term(item: str) -> str | None:
    """`catchup=False`, `concurrencyPolicy: Forbid` as a regex wanting that value for that
    key (either separator, optional quotes), else None."""
    m = _PAIR.match(item.strip("`"))
    if not m or not (_is_code(m.group(1)) or m.group(2) == "="):
        return None
    key, value = re.escape(m.group(1)), re.escape(m.group(4))
    return rf"/\b{key}[\"']?\s*[:=]\s*[\"']?{value}\b/"


_PAIR_REGEX = re.compile(r"/\\b(?P<key>.+?)\[\\\"'\]\?\\s\*\[:=\]\\s\*\[\\\"'\]\?(?P<value>.+?)\\b/")


_RUN_HEAD = "/(?<![\\w-])"


def _run_term(words: list[str]) -> str:
    """Words written as one code run, as a regex wanting them in a row ("Create the index
    without CONCURRENTLY" must not read as `CREATE INDEX CONCURRENTLY` with fillers)."""
    return _RUN_HEAD + r"\s+".join(re.escape(w) for w in words) + r"(?![\w-])/"


def shown_pair(term: str) -> str | None:
    """A `_pair_term` or `_run_term` regex as a person reads it ("concurrencyPolicy: Forbid",
    "CREATE INDEX CONCURRENTLY"), else None."""
    if term.startswith(_RUN_HEAD) and term.endswith(r"(?![\w-])/"):  # a run: as written
        return " ".join(re.sub(r"\\(.)", r"\1", w) for w in
                        term[len(_RUN_HEAD):-len(r"(?![\w-])/")].split(r"\s+"))
    m = _PAIR_REGEX.fullmatch(term)
    if m is None:
        return None
    key, value = (re.sub(r"\\(.)", r"\1", m.group(g)) for g in ("key", "value"))
    return f"{key}: {value} (or {key}={value})"


def _words(item: str) -> list[str]:
    return [w for w in item.split() if w.lower() not in _DETERMINERS]


def _name(item: str, shared_kind: bool) -> str:
    """The term one list item names, or ''."""
    pair = _pair_term(item)
    if pair:
        return pair
    words = _words(item)
    if not words:
        return ""
    if any(w.startswith(("-", "#!")) for w in words):  # a command with its flags: as written
        return _run_term([w.strip("`") for w in words])
    code = [w.strip("`\"'(),").rstrip(":") for w in words if _is_code(w)]
    if len(code) > 1:  # CREATE INDEX CONCURRENTLY: the run itself, no word between
        return _run_term(code)
    if code:
        return code[0]
    if words[-1].lower() in _KIND and len(words) >= 2:  # "a severity label": its name
        return words[-2].lower()
    if shared_kind and len(words) == 1:  # "the owner and cost_center tags": owner too
        return words[0].lower()
    return ""


def needs(sentence: str) -> tuple[list[str], str]:
    """(the required entries, the step that says why) read from the first clause whose verb
    carries, has, declares, sets or starts with a thing named as code or as a label's name;
    ([], '') when there is none."""
    if not ENABLED:
        return [], ""
    said = re.sub(r"\s+so\s+(?:that\s+)?[^;]*", " ", sentence)  # "…, so a slow run never …": why
    parts = re.split(r";|,\s+and\s+|\.\s", said)
    if len(parts) > 1:
        ruled = [p for p in parts if _VERB.search(p)][:1]
        if not ruled or any(_OTHER_RULE.search(p) for p in parts if p not in ruled):
            return [], ""  # another clause states a rule of its own: the thing alone is no keeping
        sentence = ruled[0]
    # a parenthesised list gives examples of something else: "(env, printenv, set -x)"
    for m in _VERB.finditer(" ".join(re.sub(r"\([^)]*\)", " ", sentence).split())):
        obj = _CUT.sub("", m.group("obj")).strip().rstrip(",:")
        example = re.search(r"\b(?:such\s+as|for\s+example|e\.g\.)\s+(.+)$", obj)
        obj = example.group(1) if example else obj  # "their base unit, such as _seconds or _bytes"
        if not any(_is_code(w) or _pair_term(w) for w in obj.split()):
            obj = obj.split(",")[0]  # "a severity label, page or ticket": what follows is its values
        alternatives = bool(re.search(r"\bor\b", obj))
        items = [i.strip() for i in re.split(r",\s*|\s+and\s+|\s+or\s+|\s+&\s+", obj) if i.strip()]
        code = any(_is_code(w) or _pair_term(i) for i in items for w in i.split())
        last = _words(items[-1])[-1:] if items else []
        shared = len(items) > 1 and bool(last) and last[0].lower() in _KIND
        if len(items) > 1 and code:  # "Secure, HttpOnly and SameSite": single names, one code
            shared = shared or all(len(_words(i)) == 1 for i in items)
        named = [_name(i, shared) for i in items]
        if not all(named):  # "a text label or an icon", "a List-Unsubscribe header and a
            continue  # one-click unsubscribe link": a way or a part said in plain words
        names = list(dict.fromkeys(n for n in named if n))
        if not names:
            continue
        entries = [" | ".join(names)] if alternatives else names
        verb = m.group(0)[: m.start("obj") - m.start()].strip()
        said = ", ".join(f"'{shown_pair(e) or e}'" for e in entries)
        return entries, f"'{verb}': wants {said}"
    return [], ""


_NO_SUBJECT = frozenset("every each all any new always our your their its the".split())


def subject_words(sentence: str) -> list[str]:
    """The words naming what the rule is about, before its verb ("Every alerting rule carries
    …": alerting, rule; "Kubernetes CronJobs set …": CronJobs — a platform's name in plain
    title case is left out, a manifest does not say it)."""
    m = _VERB.search(" ".join(sentence.split()))
    words = [w.strip("`\"'(),") for w in sentence[: m.start()].split()] if m else []
    words = [w for w in words if len(w) >= 3 and w.lower() not in _NO_SUBJECT]
    plain_title = [w for w in words if w[:1].isupper() and w[1:].islower()]
    return [w for w in words if w not in plain_title] or words[-1:]
