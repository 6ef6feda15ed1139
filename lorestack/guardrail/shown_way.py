"""A guess asks only where the proposal shows no sign of keeping the rule (issue 22, thirtieth
session, la30: look-alikes that are asked instead of passed).

A rule often names the thing it prescribes by a name: "Every paging alert links to a runbook
through a `runbook_url` annotation", "Application logs go to Datadog through the agent", "An
except block has to re-raise, log with logger.exception, …", "Terraform state lives in the S3
backend with DynamoDB locking", "Create indexes … with CREATE INDEX CONCURRENTLY; a plain
CREATE INDEX blocks writes". A look-alike that does exactly that (`runbook_url:`,
`logger.exception(…)`, `backend "s3" { dynamodb_table = … }`, `AddIndexConcurrently(…)`) is
close to the rule by meaning and was asked like the violation. The name is positive evidence
that it complies; absence of a forbidden word is not.

The reading: a guess that answers "applies, undecided" with no forbidden term found is kept (a
pass) where the proposal shows, affirmed, a *name* from what the rule states positively (its
stated clauses, the positive half of "X, never Y", its required terms and recommended ways),
and that name is none of the words of what it forbids, of its subject, or of what it applied
through. A name is a word written as code or as a proper name: with `_`, an inner `.`, `-` or
`/`, a letter-digit mix (`i18n`, `S3`), inner capitals (`DynamoDB`, `httpOnly`), all capitals
(`ICU`, `CONCURRENTLY`), or a capital inside its clause (`Datadog`, `Celery`) — a common noun
("a readiness probe", "the tests") is no evidence: a violation says it as often as a look-alike.
It counts where no negation, removal or move away governs it in its clause ("without
runbook_url", "drop the Datadog agent", "move from Celery to …"). Only a guess (never a rule
the user accepted), only where nothing forbidden was met; what a change takes away is still
read after it (given_up.open_given_up).

Thirty-first session (la31): the name must be evidence a violation cannot also show. On the
tuning batches la30's reading passed seven violations whose "way" was the rule's subject or
place (a Dockerfile, AWS, CronJobs, a SEV1, files over 5 MB, Zebra printers). So: the words
before the verb of an "Every X …" clause are the subject (QUANTIFIED_SUBJECT), so is the object
of a clause that opens with an imperative verb other than use/prefer ("Pin Dockerfile base
images by digest": IMPERATIVE_OBJECT); a name right after a preposition of place or scope
("under", "for", "over 5", "during a", a clause-initial "In the …") is the place (PLACE_NAMES);
a "never" in the reason the rule gives ("… so a slow run never overlaps") does not make it a
rule that forbids (REASON_NOT_RULE); a cue after the name that takes it away ("with MLflow
tracking turned off") counts (TAKEN_AWAY_AFTER); and the proposal must show no trace of what
the rule forbids by word either — a content word of its forbidden act (not the act's verb, its
reason, its exception or, for a prohibition, its place) that nothing the rule states positively
has (TRACE_WORDS: "float", "double" of "Never store or compute money as float or double").
"""

from __future__ import annotations

import re
from functools import lru_cache

from lorestack.guardrail.meaning import replaced_acts, split_acts, stated_clauses
from lorestack.guardrail.rules import RuleOutcome
from lorestack.guardrail.terms import gate_of
from lorestack.guardrail.words import _identifier_parts, stem
from lorestack.memory_layers.models import CriterionSpec

ON = True  # the switch tests and tests.stage_audit turn off
# only a rule that forbids something ("X, never Y", "…; use X") gives its way's names as
# evidence (first measured without: review28 4 look-alikes / 4 violations, everyday 7 / 18)
RULES_THAT_FORBID_ONLY = True

_WORD = re.compile(r"[A-Za-z0-9][\w.\-/:]*[A-Za-z0-9]|[A-Za-z]")
_CLAUSE_END = re.compile(r"[;.!?]\s|[;:,]\s|\s(?:—|-)\s|\n|$")
# a cue that takes the name away in its clause, up to four words before it
_AWAY = re.compile(
    r"\b(?:no|not|never|without|instead\s+of|rather\s+than|remove[sd]?|removing|drop(?:s|ped)?|"
    r"delete[sd]?|replace[sd]?|skip(?:s|ped)?|disable[sd]?|stop(?:s|ped)?|off|from|away|"
    r"bypass(?:es|ed)?|except|n't|nor|outside|unless|until|later|rip(?:s|ped)?\s+out)\b"
    r"(?:\W+\w+){0,4}\W*$",
    re.I,
)
# a cue after the name in its clause that puts it off or finds it unfit ("Vault can wait")
_PUT_OFF = re.compile(
    r"\b(?:can\s+wait|later|is\s+(?:too\s+)?slow|can\s+come|not\s+needed|is\s+not|isn't|"
    r"are\s+not|aren't|breaks?|is\s+down|is\s+broken|pending|still)\b", re.I)
# la31: a cue after the name that takes it away ("with MLflow tracking turned off", "the
# Vault agent removed"): the name is there only to be left
TAKEN_AWAY_AFTER = True
_AWAY_AFTER = re.compile(
    r"\b(?:off|disabled?|removed|dropped|skipped|deleted|bypassed|stripped|commented\s+out|"
    r"ripped\s+out|gone)\b", re.I)
# la31: in a clause that opens with a quantifier ("Every GitHub Actions job sets …", "Each
# Deployment carries …") the words before its verb are the rule's subject, which a violation
# shows as well as a look-alike; the verb is the first lowercase word ending in -s after the
# subject's first word (or a verb _SUBJECT knows)
QUANTIFIED_SUBJECT = True
_QUANTIFIED = re.compile(r"^\W*(?:every|each|all|any)\s+", re.I)
_VERB_S = re.compile(r"(?<=\S)\s+(?:[a-z]+(?<![su])s)\b")
# la31: a name right after a preposition of place or scope ("In the Next.js app, …", "under
# core/", "for SEV1 incidents", "files over 5 MB") is where the rule applies, not its way
PLACE_NAMES = True
# ("stored in UTC", "kept in Redis", "runs on spot instances": after a verb, in and on name
# the way; they name a place only where they open the clause)
_PLACE = re.compile(
    r"(?:^\s*(?:in|on|during|when|while|after|before|if)|\b(?:inside|within|under|for|over|"
    r"across|per|at))\s+(?:(?:the|a|an|our|any|every|each|all)\s+)?(?:[\d.,]+\s+)?$", re.I)
# la31: the object of a clause that opens with an imperative verb ("Pin Dockerfile base images
# by digest", "Sign release tags with GPG") is what the rule acts on, a violation shows it too;
# the way comes after a preposition. Not for a verb that names the way itself ("Use MLflow")
IMPERATIVE_OBJECT = True
_WAY_VERBS = frozenset("use prefer adopt choose pick".split())
_OBJECT_END = re.compile(
    r"\s(?:by|with|through|via|as|to|from|in|into|on|for|using|at|under|over)\s", re.I)
# words that open a clause but name nothing the rule prescribes
_OPENERS = frozenset(
    "every each all any no never the a an our your their its this that these those do don't "
    "dont always only use prefer new when if before after in for or and".split()
)
# the verb after a clause's subject ("Third-party GitHub Actions must be pinned to …")
_SUBJECT = re.compile(
    r"\b(?:must|should|shall|needs?|has|have|is|are|go|goes|gets?|lives?|comes?)\b", re.I)
# a clause that permits, or that names a setting with the state it must stay in ("Single-AZ is
# fine for dev", "send_default_pii stays off"): its names show the subject, not the way
_NO_WAY = re.compile(
    r"\b(?:fine|allowed|ok|okay|may|can|acceptable|exempt|off|on|false|true|enabled|disabled|"
    r"stays?|set\s+to)\b|=", re.I)


def _is_name(word: str, first: bool) -> bool:
    bare = word.strip("`'\"():,.")
    if len(bare) < 2 or not re.search(r"[A-Za-z]", bare):
        return False
    if re.search(r"\w[_./]\w", bare) or "_" in bare:
        return True
    if re.search(r"\w-\w", bare) and not bare.islower():  # Idempotency-Key, not third-party
        return True
    if re.search(r"[A-Za-z]\d|\d[A-Za-z]", bare):
        return True
    if re.search(r"[a-z][A-Z]", bare) or re.search(r"[A-Z]{2}[a-z]", bare):
        return True
    if bare.isupper() and len(bare) >= 2 and not first:
        return True
    return bool(not first and bare[:1].isupper() and bare[1:].islower() and len(bare) >= 3)


def _stems_of(text: str) -> set[str]:
    out = set()
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        out.add(stem(word.lower()))
        for _, part in _identifier_parts(word):
            if len(part) >= 3:
                out.add(stem(part.lower()))
    return out


def _names(text: str) -> list[str]:
    """The names written in `text`: a word that opens its clause (or follows an opener such
    as "Every") counts only when written as code, not for its capitals alone; in "X only …"
    what comes before "only" is the act the rule limits, not its way."""
    out = []
    for clause in re.split(r"[;.!?]\s+|[:,]\s+|\(|\)|\s—\s", text):
        if _NO_WAY.search(clause):
            continue
        clause = re.split(r"\bonly\b", clause)[-1]
        quantified = _QUANTIFIED.match(clause) if QUANTIFIED_SUBJECT else None
        if quantified:
            verb = _VERB_S.search(clause[quantified.end():])
            if verb and not _SUBJECT.search(clause[: quantified.end() + verb.start()]):
                clause = clause[quantified.end() + verb.end():]
        head = clause.split()[:1]
        if (IMPERATIVE_OBJECT and head and head[0].isalpha() and head[0][:1].isupper()
                and head[0][1:].islower() and head[0].lower() not in _OPENERS | _WAY_VERBS
                and not _SUBJECT.search(clause)):
            end = _OBJECT_END.search(clause)
            clause = clause[end.start():] if end else ""
        clause = _SUBJECT.split(clause, maxsplit=1)[-1]  # "the API base URL comes from …"
        words = clause.split()
        first = True
        for i, word in enumerate(words):
            bare = word.strip("`'\"():,.")
            place = PLACE_NAMES and _PLACE.search(" ".join(words[:i]) + " ")
            if _is_name(word, first) and not place:  # `select_related/prefetch_related`: each a name
                split = [b for b in bare.split("/") if b]
                code = len(split) > 1 and all(_is_name(b, True) for b in split)
                out += split if code and not bare.endswith("/") else [bare]
            if first and bare.lower() in _OPENERS:
                continue
            first = False
    return out


@lru_cache(maxsize=4096)
def _evidence(sentence: str, forbid: tuple[str, ...], said: tuple[str, ...],
              subject: tuple[str, ...], _switches: tuple[bool, ...] = ()
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the names a proposal may show as evidence, the names of what the rule forbids): the
    first from what the rule says positively, none of whose stems is in what it forbids or in
    its subject, and written once in the sentence (a name said twice is what the rule is
    about: "CREATE INDEX CONCURRENTLY; a plain CREATE INDEX …")."""
    from lorestack.guardrail.given_up import _CONTRAST, _NEGATED

    acts = []
    for act in split_acts(sentence)[0]:  # "sent from the Celery queue, never synchronously …"
        m = _CONTRAST.search(act)
        acts.append(act[m.end():] if m and not _NEGATED.search(act[: m.start()]) else act)
    against = [*acts, *replaced_acts(sentence), *forbid]
    bad = _stems_of(" ".join([*against, *subject]))
    out = []
    for name in [n for part in said for n in _names(part)]:
        stems = {s for s in _stems_of(name) if len(s) >= 2}
        told = len(re.findall(rf"(?<![\w.\-/]){re.escape(name)}(?![\w\-/]|\.\w)", sentence, re.I))
        if stems and not stems & bad and name not in out and told <= 1:
            out.append(name)
    forbidden = [n for part in against for n in _names(part) if len(n) >= 3]
    return tuple(out), tuple(dict.fromkeys(forbidden))


def _shown(name: str, text: str, *, affirmed: bool = True) -> str:
    """Where `name` occurs in `text`, affirmed (no cue takes it away in its clause): the
    matched words, else ''. A dotted or hyphenated name is matched whole; a single word also
    as a part of an identifier (`AddIndexConcurrently` shows CONCURRENTLY)."""
    if re.search(r"[.\-/_]", name):
        found = [m for m in re.finditer(re.escape(name), text, re.I)]
    else:
        want = stem(name.lower())
        found = []
        for m in re.finditer(r"[A-Za-z][A-Za-z0-9]*", text):
            word = m.group(0)
            parts = {stem(word.lower())} | {stem(p.lower()) for _, p in _identifier_parts(word)}
            if want in parts:
                found.append(m)
    for m in found:
        start = max(text.rfind("\n", 0, m.start()), 0)
        before = text[start:m.start()]
        cut = list(re.finditer(r"[;.!?,]\s|\s(?:and|but|then)\s", before))
        if cut:
            before = before[cut[-1].end():]
        end = text.find("\n", m.end())
        after = re.split(r"[;.!?,]\s|\s(?:and|but|then)\s", text[m.end():end if end >= 0 else None])[0]
        taken = TAKEN_AWAY_AFTER and _AWAY_AFTER.search(after)
        if not affirmed or not (_AWAY.search(before) or _PUT_OFF.search(after) or taken):
            return m.group(0)
    return ""


def _said(sentence: str, spec: CriterionSpec) -> tuple[str, ...]:
    """What the rule states positively, clause by clause (given_up's reading of it)."""
    from lorestack.guardrail.given_up import CONTRAST, _contrast_heads

    said = list(stated_clauses(sentence)) + (_contrast_heads(sentence) if CONTRAST else [])
    said += [gate_of(t)[1] for t in [*spec.require, *spec.alternatives]
             if not gate_of(t)[1].startswith(("/", "path:"))]
    return tuple(said)


# la31: a trace of the forbidden thing by word — a content word of what the rule forbids that
# none of what it states positively, nor its subject, has ("float", "double" of "Never store
# or compute money as float or double. Amounts are integer minor units (cents) or Decimal");
# its acts' verbs and grammar words are no trace ("store", "use", "add")
TRACE_WORDS = True
_NOT_TRACE = frozenset(
    "use add write have include run call put make do introduce create adopt install bring "
    "set deploy provision edit change modify touch store keep new any other only directly "
    "just the and with from into for that this them they their our your its not even there "
    "what which who when where whole own instead without one all every each some more than "
    "but nor also too such same".split())


_ASIDE = re.compile(r"\([^()]*\)?")
_AFTER_ACT = re.compile(
    r",?\s\b(?:so|because|since|as\s+it|except|unless|in|on|under|inside|within|at|for|"
    r"outside|during)\b", re.I)


_REASON = re.compile(r",?\s\b(?:so|because|since|as\s+it|except|unless)\b", re.I)


@lru_cache(maxsize=4096)
def _trace_stems(sentence: str, forbid: tuple[str, ...], said: tuple[str, ...],
                 subject: tuple[str, ...]) -> frozenset[str]:
    from lorestack.guardrail.given_up import _CONTRAST, _NEGATED

    acts, tails = [], []
    for act in split_acts(sentence)[0]:  # "X, not Y": only Y is forbidden
        m = _CONTRAST.search(act)
        if m and not _NEGATED.search(act[: m.start()]):
            tails.append(act[m.end():])  # "not in direct messages": the place is what it forbids
        else:
            acts.append(act)
    good = _stems_of(" ".join([*said, *subject]))
    out = set()
    for act in [*acts, *replaced_acts(sentence), *forbid, *tails]:
        # what it forbids, not why, where or with what exception: parentheses (examples and
        # reasons, their names are read above), "so …", "because …", "except …", "in …"
        act = _ASIDE.sub(" ", act)
        act = (_REASON if act in tails else _AFTER_ACT).split(act, maxsplit=1)[0]
        words = re.findall(r"[A-Za-z][A-Za-z0-9]*", act)
        for i, word in enumerate(words):
            low = word.lower()
            if i == 0 or len(low) < 3 or low in _NOT_TRACE:
                continue  # the act's verb ("store or compute …") is said by look-alikes too
            if words[i - 1].lower() in ("or", "and") and i == 2:
                continue
            if stem(low) not in good:
                out.add(stem(low))
    return frozenset(out)


# la31: "… set concurrencyPolicy: Forbid so a slow run never overlaps the next one" forbids
# nothing: a "never" in the reason a rule gives is no prohibition of its own
REASON_NOT_RULE = True
_REASON_CLAUSE = re.compile(r",?\s+\b(?:so(?:\s+that)?|because|since)\b[^.;]*", re.I)


def _switches() -> tuple[bool, ...]:
    """The switches `_names` reads, part of `_evidence`'s cache key."""
    return (QUANTIFIED_SUBJECT, PLACE_NAMES, IMPERATIVE_OBJECT)


def _without_reasons(sentence: str) -> str:
    return _REASON_CLAUSE.sub("", sentence) if REASON_NOT_RULE else sentence


def forbidden_names_shown(sentence: str, spec: CriterionSpec, text: str) -> bool:
    """Whether the proposal names, affirmed or not, a name from what the rule forbids (or,
    with TRACE_WORDS, a word of it that nothing the rule states positively has)."""
    forbid = tuple(gate_of(t)[1] for t in spec.forbid if not gate_of(t)[1].startswith("/"))
    # a keyword drafted from the forbidden phrase itself is no subject ('long-lived access keys')
    told = {f.lower() for f in forbid}
    subject = tuple(k for k in spec.applies_to.keywords if k.lower() not in told)
    said = _said(sentence, spec)
    _, against = _evidence(sentence, forbid, said, subject, _switches())
    if any(_shown(n, text, affirmed=False) for n in against):
        return True
    if not TRACE_WORDS:
        return False
    traces = _trace_stems(sentence, forbid, said, subject)
    return bool(traces & _stems_of(text))


# la31: a rule that forbids "another / a second / other X" forbids a kind, not a word: a
# proposal that names anything the sentence does not (RabbitMQ beside NATS) may be one of it
OTHER_OF_KIND = True
_OTHER = re.compile(r"\b(?:another|second|other|additional|extra)\b", re.I)


def _other_of_kind(sentence: str, text: str) -> bool:
    if not any(_OTHER.search(act) for act in split_acts(sentence)[0]):
        return False
    known = _stems_of(sentence)
    words = text.split()
    return any(_is_name(w, False) and not (_stems_of(w) <= known) for w in words[1:])


def kept_by_name(outcome: RuleOutcome, sentence: str, spec: CriterionSpec, text: str) -> RuleOutcome:
    """An undecided guess with nothing forbidden met, where the proposal shows a name of what
    the rule prescribes: kept (a pass), quoting the name."""
    if not ON or outcome.status != "undecided" or outcome.forbid_hit or not spec.is_guess():
        return outcome
    forbid = tuple(gate_of(t)[1] for t in spec.forbid if not gate_of(t)[1].startswith("/"))
    subject = tuple(spec.applies_to.keywords)
    names, against = _evidence(sentence, forbid, _said(sentence, spec), subject, _switches())
    if not RULES_THAT_FORBID_ONLY or not (split_acts(_without_reasons(sentence))[0] or forbid):
        # "Every X sets key: value" / "… carries A and B": the key shown is no proof of the
        # value or of the others (measured: a rule that forbids nothing lost more violations)
        names = () if RULES_THAT_FORBID_ONLY else names
    if forbidden_names_shown(sentence, spec, text):
        return outcome  # it names what the rule forbids too: no evidence either way
    if OTHER_OF_KIND and _other_of_kind(sentence, text):
        return outcome  # "don't run a second message broker" and the proposal names another
    for name in names:
        word = _shown(name, text)
        if word:
            outcome.status = "satisfied"
            outcome.quote = word
            outcome.exempted_by = ""
            outcome.reason = (f"shows '{word}', which the rule names as the way it is kept "
                              f"('{name}'), and nothing it forbids: kept")
            return outcome
    return outcome
