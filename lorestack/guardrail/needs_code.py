"""When a requirement drafted by sentence_needs.py is met, and when its absence blocks
(review of the twenty-fourth session, issue 22).

The drafted requirement ('severity' of "Every alerting rule carries a severity label",
`concurrencyPolicy: Forbid`, `set -euo pipefail`) counted as met wherever its word occurred,
so violations passed: a comment (`# TODO: add severity label`), an empty or false value
(`severity: ''`, `httponly=False`), free text (`summary: severity is unknown yet`), prose
that puts it off ("severity can come later", "Secure breaks local dev so leave it off").
Now it is met only on a code line of a change or a command — not a comment, not inside
free text, with a value that is not empty or false. Prose never meets it.

Its absence blocks a confirmed rule only where the proposal is code that shows the rule's
subject by its words (`alert:` and `rules:` for "alerting rule"); otherwise — prose, a rule
that applied by meaning alone (a Deployment under the CronJob rule), a subject not shown (a
recording rule), or the thing written in another spelling (`set -Eeuo pipefail`,
`concurrency_policy = "Forbid"`) — it answers "applies, undecided".
"""

from __future__ import annotations

import re
from functools import lru_cache

from lorestack.guardrail import sentence_needs
from lorestack.guardrail.rules import PreparedText, RuleOutcome, entry_alternatives
from lorestack.guardrail.sentence_needs import (
    _PAIR_REGEX,
    _RUN_HEAD,
    needs,
    shown_pair,
    subject_words,
)
from lorestack.guardrail.terms import Hit, is_regex, iter_term, term_hits

ENABLED = True  # the switch tests and tests.stage_audit turn off

_COMMENT_LINE = re.compile(r"^\s*[-+]?\s*(?:#(?!!)|//|/\*|\*|<!--|--\s|;)")
_TRAILING_COMMENT = re.compile(r"(?:^|\s)(?:#|//)(?!!)")
_EMPTY = frozenset("'' \"\" false no none null nil ~ 0 off [] {}".split())
_VALUE = re.compile(r"""^["']?\s*[:=]\s*(?P<value>[^,;)}\]#\n]*)""")


def _line(text: str, at: int) -> tuple[str, int, str]:
    """(the line holding offset `at`, where it starts, the line after it)."""
    begin = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    after = text[end + 1 :].split("\n", 1)[0] if end < len(text) else ""
    return text[begin:end], begin, after


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def set_in_code(prepared: PreparedText, hit: Hit) -> bool:
    """Is this occurrence the thing set on a code line (not a comment, not free text, not an
    empty or false value)? Never in prose."""
    if hit.start < 0 or not (prepared.change or prepared.code) or hit.negated_by:
        return False
    line, begin, following = _line(prepared.text, hit.start)
    before, rest = line[: hit.start - begin], line[hit.end - begin :]
    if not _code_line(line, hit.start - begin):
        return False
    if is_regex(hit.term):  # a pair with its value, a run of flags: as written
        return True
    value = _VALUE.match(rest)
    if value is not None:
        raw = value.group("value").strip()
        if not raw:  # `labels:` with what it holds on the lines below
            return bool(following.strip()) and _indent(following) > _indent(line)
        said = raw.strip("`'\" ").lower()
        return bool(said) and said not in _EMPTY
    # used bare: in free text (`summary: severity is unknown`, `log("severity …")`) it is a word
    in_value = re.search(r"[:=]\s|[\"'(]\s*\S*$", before) is not None
    return not (in_value and re.match(r"\s+[A-Za-z]", rest))


def _hits(prepared: PreparedText, term: str, paths: list[str]) -> list[Hit]:
    """The term's occurrences, and a name's in any case (`httponly=True` for 'HttpOnly')."""
    hits = list(term_hits(prepared, term, paths))
    if not is_regex(term) and re.fullmatch(r"[\w-]+", term):
        hits += [Hit(term, m.start(), m.end()) for m in
                 re.finditer(rf"(?i)(?<![\w-]){re.escape(term)}(?![\w-])", prepared.text)]
    return hits


def _code_line(line: str, at: int) -> bool:
    return not (_COMMENT_LINE.match(line) or _TRAILING_COMMENT.search(line[:at]))


def _met(prepared: PreparedText, entry: str, paths: list[str]) -> bool:
    return any(set_in_code(prepared, h) for t in entry_alternatives(entry)
               for h in _hits(prepared, t, paths))


def _spelt_otherwise(prepared: PreparedText, entry: str) -> str:
    """The thing written in another spelling on a code line, else ''."""
    text = prepared.text
    pair = _PAIR_REGEX.fullmatch(entry)
    if pair is not None:  # `concurrency_policy = "Forbid"` for `concurrencyPolicy: Forbid`
        key, value = (re.sub(r"\\(.)", r"\1", pair.group(g)) for g in ("key", "value"))
        flat = re.sub(r"[_-]", "", key.lower())
        for line in text.splitlines():
            joined = re.sub(r"(?<=\w)[_-](?=\w)", "", line)
            m = re.search(rf"(?i)\b{re.escape(flat)}[\"']?\s*[:=]\s*[\"']?{re.escape(value)}\b",
                          joined)
            if m and _code_line(joined, m.start()):
                return line.strip()
        return ""
    if entry.startswith(_RUN_HEAD):  # `set -Eeuo pipefail`: its last word set on a code line
        last = (shown_pair(entry) or "").split()[-1:]
        for m in re.finditer(rf"(?<![\w-]){re.escape(last[0])}(?![\w-])" if last else r"$^", text):
            line, begin, _ = _line(text, m.start())
            if _code_line(line, m.start() - begin):
                return line.strip()
    return ""


def _subject_shown(sentence: str, prepared: PreparedText, paths: list[str]) -> bool:
    """Does the proposal name every word of the rule's subject (in its text or paths)?"""
    words = subject_words(sentence)
    if not words:
        return True
    hay = PreparedText.of(prepared.text + "\n" + " ".join(re.sub(r"[/.]", " ", p) for p in paths))
    return all(next(iter_term(hay, w, negation=False), None) is not None for w in words)


@lru_cache(maxsize=1024)
def _drafted(sentence: str, reading_on: bool) -> tuple[str, ...]:
    return tuple(needs(sentence)[0]) if reading_on else ()


def judge_set_in_code(outcome: RuleOutcome, sentence: str, require: list[str],
                      prepared: PreparedText, paths: list[str]) -> RuleOutcome:
    """`outcome` of the rules, with the drafted requirements judged as above."""
    drafted = [e for e in _drafted(sentence, sentence_needs.ENABLED) if e in require] if ENABLED and require else []
    named = {e.lower() for e in drafted}  # "Secure, HttpOnly …" also read as the way it offers
    if (not drafted or outcome.status not in ("satisfied", "violated") or outcome.forbid_hit
            or (outcome.exempted_by and outcome.exempted_by.lower() not in named)
            or outcome.reason.startswith("it only mentions")):
        return outcome
    missing = [e for e in outcome.missing if e not in drafted]
    missing += [e for e in drafted if not _met(prepared, e, paths)]
    if not missing:
        return outcome
    outcome.missing, outcome.exempted_by = missing, ""
    listed = ", ".join(f"'{shown_pair(m) or m}'" for m in missing)
    other = next((s for m in missing if (s := _spelt_otherwise(prepared, m))), "")
    why = ("it is said in prose, not set in code" if not (prepared.change or prepared.code)
           else f"it has '{other[:60]}', perhaps another spelling" if other
           else "" if _subject_shown(sentence, prepared, paths)
           else "the change does not name what the rule is about")
    outcome.status = "undecided" if why else "violated"
    outcome.reason = (f"applies, undecided: required {listed} not set in code ({why}); judge "
                      "whether it breaks the rule" if why
                      else f"required {listed} not set in code")
    return outcome
