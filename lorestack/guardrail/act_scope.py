"""Where a rule forbids a thing: the place, means or purpose its sentence names after it —
"Never put API keys *in a URL or query string*", "Security groups never allow ingress *from
0.0.0.0/0*", "Don't bake secrets into container images *through ENV or ARG*", "Libraries under
libs/ never import *from apps/*", "Never use PHP's extract() *on request data*". The reading
(sentences.py) forbids the thing; a confirmed draft blocked it wherever it occurred
(`headers={'X-Api-Key': API_KEY}`, an ingress from a security group, `extract($this->vars)`).
Where none of the scope's words occurs, the thing is met outside the act the rule forbids:
the answer is "applies, undecided", never a block and never a pass (twenty-fourth session,
conf24). A scope word also counts in the code forms it implies: a shell *variable* is
`$NAME`, *request* data `$_POST`."""

from __future__ import annotations

import re

from lorestack.guardrail.act_clause import act_elsewhere, says_only
from lorestack.guardrail.going_without import kept_not_skipped
from lorestack.guardrail.guarded_act import enforces, required_kept
from lorestack.guardrail.listed_places import place_apart
from lorestack.guardrail.scope_code import means_at, written_as_code
from lorestack.guardrail.sentence_words import (
    _DETERMINERS,
    _GENERIC_NOUNS,
    _SCOPE_PREPS,
    _STOP,
    _is_path,
)
from lorestack.guardrail.terms import PreparedText, find_term, gate_of

ACT_SCOPE = True
# the scope ends where an exception or a contrast begins ("from 0.0.0.0/0 except on ports …")
_CUT = frozenset("except unless but without instead not never".split())
_FILLER = frozenset(
    "anything something everything that which who must should could might be such nor "
    "their its them it".split()
)
# printed or logged output, as code and prose say it (log, print and echo below)
_OUTPUT = re.compile(r"(?i)\blog(?:ger|ging)?\.\w+\(|\bconsole\.\w+\(|\b(?:log|logger|logs|logged|"
                     r"logging|print|printf|prints|printed|puts|echo|echoes|echoed|stdout|stderr)\b")
# code forms of a scope word: a shell variable, data a request carries
_CODE_FORMS = {
    "variable": re.compile(r"\$\{?[A-Za-z_]"),
    "request": re.compile(r"\$_(?:POST|GET|REQUEST|COOKIE|FILES)\b|\breq(?:uest)?\.(?:body|form|args|json|query|params)\b"),
    # the acts act_kept.py keeps with a forbidden thing, as code does them; logging, printing
    # and echoing are one act here: what a program prints to stdout or stderr ends in its logs
    # ("Print the user's password to stdout" logs it), and a log line is printed output
    "log": _OUTPUT,
    "print": _OUTPUT,
    "echo": _OUTPUT,
}


# a scope counts where it names a source or a means ("from apps/", "through ENV or ARG", "on
# a path built from a variable"): a place ("in committed frontend code", "in views") is where
# the file lives, which a change shows by its path and not in its words
_MEANS = frozenset("from through via over on".split())


def scope_words(scope: list[str], sentence: str = "") -> tuple[str, ...]:
    """The words of a scope phrase a proposal would show ("from 0.0.0.0/0", "through ENV or
    ARG": env, arg), or () where the scope names no source or means the code would spell: a
    path or literal, a word the sentence writes in capitals, a word with a code form."""
    scope = scope[next((i for i, w in enumerate(scope) if w in _MEANS or means_at(w, i)), len(scope)):]
    kept: list[str] = []
    for raw in scope:
        w = raw.strip(".,;()'\"`")
        if w in _CUT:
            break
        if not w or (not _is_path(w) and w in (
                _SCOPE_PREPS | _DETERMINERS | _STOP | _GENERIC_NOUNS | _FILLER)):
            continue
        kept.append(w)
    coded = [w for w in kept if _is_path(w) or re.search(r"[/.:]", w) or w.rstrip("s") in _CODE_FORMS
             or re.search(rf"(?<![\w-]){re.escape(w.upper())}(?![\w-])", sentence)
             or written_as_code(w, sentence)]
    return tuple(dict.fromkeys(kept)) if coded else ()


def _present(word: str, prepared: PreparedText) -> bool:
    form = _CODE_FORMS.get(word.rstrip("s"))
    if form is not None and form.search(prepared.text):
        return True
    if re.search(r"[^\w-]", word.rstrip("/*")):  # `0.0.0.0/0`: as written
        return word.rstrip("*").lower() in prepared.text.lower()
    return any(not h.negated_by for h in find_term(prepared, word.rstrip("/*")))


def _thing(term: str) -> str:
    """The thing a drafted forbidden term names: its gate and its ` & place` taken off."""
    return gate_of(term.strip())[1].split(" & ")[0].strip()


def _terms(forbid: list[str]) -> list[tuple[str, str]]:
    """Each alternative of the forbidden entries (`a | b`), with its gate taken off."""
    return [(t.strip(), gate_of(t.strip())[1]) for e in forbid for t in e.split("|")]


def outside_scope(scopes: dict[str, tuple[str, ...]], hit: str, prepared: PreparedText) -> str:
    """The scope the reading names for the forbidden `hit`, when none of its words occurs in
    the proposal (the thing is met outside the forbidden act), else ''."""
    if not ACT_SCOPE:
        return ""
    bare = _thing(hit)
    words = scopes.get(bare) or scopes.get(bare.lower(), ())
    if not words or any(_present(w, prepared) for w in words):
        return ""
    return ", ".join(words)


def scoped(scopes: dict[str, tuple[str, ...]], term: str) -> str:
    """How `remember` shows a forbidden term's scope: "" when the reading names none."""
    words = scopes.get(_thing(term), ())
    return (f" together with one of {', '.join(words)} (without them: applies, undecided)"
            if words else "")


def met_outside(outcome, sentence: str, prepared: PreparedText, confirmed: bool):
    """A confirmed draft's violation whose forbidden thing occurs only outside the scope the
    sentence names: "applies, undecided" (a person judges it), the reason says where."""
    from lorestack.guardrail.sentences import read_sentence

    if not (confirmed and outcome.status == "violated" and outcome.forbid_hit):
        return outcome
    where = outside_scope(read_sentence(sentence).scopes, outcome.forbid_hit, prepared)
    where = where or place_apart(sentence, outcome.forbid_hit, prepared)  # listed_places.py
    if where:
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided: '{outcome.forbid_hit}' occurs, but none of where the rule "
            f"forbids it ({where}) does: judge whether it breaks the rule"
        )
    return outcome


# a file that holds secrets, named on a code line: `.env` or `.env.production` (not a sample),
# an ssh key, a key or certificate store, a cloud credentials file or service-account key
_SECRET_FILE = re.compile(
    r"(?<![\w.-])(?:\.env(?:\.(?!example|sample|template|dist|defaults?\b)[\w-]+)?"
    r"|id_(?:rsa|dsa|ecdsa|ed25519)|[\w-][\w.-]*\.(?:pem|key|p12|pfx|jks|keystore)"
    r"|credentials\.json|\.aws/credentials|[\w-]*service[-_]?account[\w-]*\.json"
    r"|\.npmrc|\.netrc|\.pgpass|(?P<named>[\w-]+\.env))(?![\w.-])")
# an instruction that puts a file into an image; a name in quotes elsewhere is a file code reads
_PUTS = re.compile(r"^[+ ]?\s*(?:COPY|ADD)\b")
_SECRET_WORDS = frozenset("secret secrets credential credentials".split())
# an ignore entry (.gitignore, .dockerignore) for such a file: a line that is only its name
# (not a sample's, `.env.example`: twenty-seventh session)
_IGNORED = re.compile(r"^\s*/?(?:\*\*/)?(?:\.env(?:\.\*|\.(?!(?:example|sample|template|dist|defaults?)\b)[\w-]+)?|\*\.(?:pem|key|p12|pfx|jks)|"
                      r"id_(?:rsa|dsa|ecdsa|ed25519)\*?|credentials\.json|\.npmrc|\.netrc|\.pgpass|"
                      r"secrets?/?)\s*$")
SECRET_FILES = True


def secret_file(outcome, forbid: list[str], prepared: PreparedText, accepted: bool):
    """An accepted rule forbidding secrets, kept by its words, where a change names a file
    that holds them (`COPY .env /app/.env` under "Don't bake secrets into container images
    through ENV or ARG"): "applies, undecided", never a pass; never a block (the rule's words
    did not find it, and its means may differ). A change that takes such a file's ignore entry
    out (`.env` removed from .gitignore) asks as well, a guessed rule too (twenty-sixth session)."""
    from lorestack.guardrail.needs_code import _code_line, _line

    if not (SECRET_FILES and outcome.status in ("satisfied", "not_applicable", "undecided")
            and not outcome.exempted_by and prepared.change):  # what a diff or an edit writes
        return outcome
    bare = [b.lower() for _, b in _terms(forbid)]
    words = {w for b in bare if not b.startswith(("path:", "/")) for w in re.findall(r"[a-z]+", b)}
    if not words & _SECRET_WORDS:
        return outcome
    kept = {line.strip() for line in prepared.text.splitlines()}
    for line in prepared.replaced.splitlines():  # `.env` taken out of .gitignore (fix26)
        if _IGNORED.match(line) and line.strip() not in kept:
            outcome.status, outcome.quote, outcome.by_meaning = "undecided", line.strip(), False
            outcome.reason = (f"applies, undecided: the change stops ignoring '{line.strip()}', a "
                              "file that holds secrets: judge whether the change breaks the rule")
            return outcome
    if not (accepted and outcome.status == "satisfied"):
        return outcome
    for m in _SECRET_FILE.finditer(prepared.text):
        line, begin, _ = _line(prepared.text, m.start())
        puts = _PUTS.match(line)
        if (m.group("named") or prepared.text[m.start() - 1:m.start()] in ("'", '"')) and not puts:
            continue  # `prod.env` outside COPY/ADD, `load_dotenv('.env')`: not put anywhere
        if _code_line(line, m.start() - begin):
            outcome.status, outcome.quote = "undecided", line.strip()[:120]
            outcome.reason = (f"applies, undecided: '{m.group()}' is a file that holds secrets, "
                              "which the rule forbids: judge whether the change breaks it")
            return outcome
    return outcome


# the act a prohibition names before its object: "Do not *skip or delete* failing tests",
# "Never *commit* secrets", "never *refund* a card payment as … store credit". The draft
# forbids the object; prose that names the object under another act ("Fix the race so the
# failing integration test passes", "Read the deploy key from the CI secret store") is not
# the act. Light verbs name no act of their own ("never use X": "Switch to X" does it).
_CUE = re.compile(r"(?i)\b(?:do not|don't|does not|doesn't|never|must not|mustn't|should not|"
                  r"shouldn't|may not|cannot|can't)\s+(?:ever\s+)?")
_LIGHT = frozenset(
    "use uses put puts add adds make makes be have has get gets do does allow allows let "
    "include includes introduce introduces write writes call calls run runs go goes keep "
    "keeps set sets send sends rely depend hard-code hardcode store stores leave propose "
    "suggest recommend".split())  # a speech act names the proposal itself
_PREPS = frozenset("over about against without between among than one".split())
ACT_DROPPED = True


def act_verbs(sentence: str, forbidden: str) -> tuple[str, ...]:
    """The verbs a prohibition puts before the forbidden thing in the same clause ('skip',
    'delete'), or () when the clause names none or only a light one."""
    target = forbidden.lower().split()
    for cue in _CUE.finditer(sentence):
        clause = re.split(r"[;.:]", sentence[cue.end():], maxsplit=1)[0]
        words = re.findall(r"[A-Za-z][\w'-]*", clause.lower())
        at = next((i for i in range(len(words)) if words[i:i + len(target)] == target), -1)
        if at <= 0:
            continue
        if re.search(rf"\b{re.escape(words[0])}\b", sentence, re.I) and not re.search(
                rf"\b{re.escape(words[0])}\b", sentence):  # "never Unix epoch numbers": a name
            return ()
        lead = 1 if words[0].endswith("ly") and at > 1 else 0  # "never manually edit"
        verbs = [words[lead]]
        i = lead + 1
        while i + 1 < at and words[i] in ("or", "and"):
            verbs.append(words[i + 1])
            i += 2
        if any(w in _LIGHT for w in words[:at]) or any(
                v in _STOP or v in _DETERMINERS or v in _SCOPE_PREPS or v in _PREPS for v in verbs):
            return ()
        return tuple(verbs)
    return ()


# what a verb does to its object when it keeps or examines it rather than acting on it as the
# rule forbids ("Encrypt the dumps", "Rotate the keys", "Fix the tests"); and the words after
# which a thing is no longer the lead verb's object ("from the CI secret store", "so the tests pass")
_KEEPS = frozenset(
    "encrypt hash rotate fix repair investigate debug review read inspect archive "
    "back backup document test verify audit monitor protect secure redact mask scrub "
    "regenerate rename move".split())
_NOT_OBJECT = frozenset(
    "in on at from with by for to into onto of so that which who because when while before "
    "after until if as than whether where why how and or but".split())


def _lead_object(text: str, start: int) -> bool:
    """Whether the thing at `start` is the object of its clause's lead verb, a verb that acts
    on it ("Mark the failing checkout tests as xfail"), not one that keeps or examines it."""
    begin = max(text.rfind(c, 0, start) for c in ".;:!?\n,") + 1
    words = re.findall(r"[A-Za-z][\w'-]*", text[begin:start].lower())
    end = min((i for i in (text.find(c, start) for c in ".;:!?\n") if i >= 0), default=len(text))
    if re.search(r"(?i)\b(?:instead|rather than)\b", text[start:end]):
        return False  # "Put the admin panel behind the VPN instead of the public internet"
    if words[:1] in (["please"], ["let's"]):
        words = words[1:]
    return bool(words) and words[0] not in _KEEPS and not any(w in _NOT_OBJECT for w in words[1:])


def act_dropped(outcome, sentence: str, prepared: PreparedText, confirmed: bool):
    """A confirmed draft's violation in prose that names the forbidden thing but none of the
    acts the sentence forbids on it: "applies, undecided" (a person judges), never a block."""
    if not (ACT_DROPPED and confirmed and outcome.status == "violated" and outcome.forbid_hit
            and not prepared.code and not prepared.change):
        return outcome
    bare = _thing(outcome.forbid_hit)
    verbs = act_verbs(sentence, bare)
    said = [h for v in verbs for h in find_term(prepared, v)]
    if any(_REMOVING.fullmatch(v) for v in verbs):  # "Remove the failing tests": delete said
        said += [h for w in ("remove", "delete", "drop", "erase", "purge", "wipe")
                 for h in find_term(prepared, w)]
    things = [h for h in find_term(prepared, bare) if not h.negated_by]
    elsewhere = act_elsewhere(prepared.text, [h.start for h in said if not h.negated_by],
                              [h.start for h in things])
    if not verbs or (any(not h.negated_by for h in said) and not elsewhere):
        return outcome
    if not said and any(_lead_object(prepared.text, h.start) for h in things):
        return outcome  # "Push the production secrets to the repository": the act in other words
    outcome.status = "undecided"
    outcome.reason = (f"applies, undecided: '{outcome.forbid_hit}' occurs, but not the act the "
                      f"rule forbids on it ({', '.join(verbs)}): judge whether it breaks the rule")
    return outcome


# an exception the sentence makes: "…; the node-exporter DaemonSet is the only exception",
# "… except on ports 80 and 443 of the public load balancer". Its distinctive words — a number,
# a hyphenated, underscored or camelCase name, a name in capitals — are what a proposal that
# claims it writes; the draft reads none of them, so a confirmed rule blocked the allowed case.
_EXCEPTION = re.compile(r"(?i)(?:\bexcept(?:\s+(?:on|for|in|at|when))?\s+(?P<after>[^;.]+)"
                        r"|(?:^|[;,]\s*)(?P<before>[^;,]+?)\s+(?:is|are)\s+the\s+only\s+exceptions?)")
EXCEPTIONS = True


def exception_words(sentence: str) -> tuple[str, ...]:
    """The distinctive words of the exception a sentence makes, or ()."""
    m = _EXCEPTION.search(sentence)
    if m is None:
        return ()
    phrase = m.group("after") or m.group("before") or ""
    words = [w.strip("`'\"(),") for w in phrase.split()]
    return tuple(dict.fromkeys(
        w for w in words if w and (w.isdigit() or re.search(r"\w[-_]\w", w)
                                   or re.search(r"[a-z][A-Z]", w) or (w.isupper() and len(w) > 1))))


_NEG = re.compile(r"(?i)\b(?:not|no|never|without|n't)\W+(?:\w+\W+){0,2}$")


def _units(prepared: PreparedText) -> list[tuple[int, int]]:
    """The spans a claimed exception must share with the forbidden thing: a clause of prose
    ("…; it's not a P0 but …", "… and open a PR afterwards"), a block of a change (an HCL
    resource, a YAML document, a paragraph)."""
    text, cuts = prepared.text, [0]
    if prepared.change or prepared.code:
        pattern = r"\n(?=[+ ]?\s*\n|[+ ]?---|[+ ]?[A-Za-z_][^\n]*\{[ \t]*\n|diff --git)"
    else:
        pattern = r"[;.!?](?=\s)|,\s|\s(?:and|but|then)\s"
    cuts += [m.end() for m in re.finditer(pattern, text)]
    return list(zip(cuts, cuts[1:] + [len(text)]))


def _claimed(word: str, text: str) -> bool:
    """`word` written as the sentence writes it (a name in capitals keeps its case), a whole
    token ("80%" is no port 80), not negated ("it's not a P0")."""
    flags = 0 if word.isupper() else re.I
    for m in re.finditer(rf"(?<![\w.%$/-]){re.escape(word)}(?![\w%/-]|\.\w)", text, flags):
        if not _NEG.search(text[max(0, m.start() - 40):m.start()]):
            return True
    return False


def exception_named(outcome, sentence: str, prepared: PreparedText, confirmed: bool):
    """A confirmed violation where the proposal claims the exception the sentence makes for the
    forbidden thing (in its clause or block): "applies, undecided" (the exception may be claimed
    and not met), never a pass."""
    if not (EXCEPTIONS and confirmed and outcome.status == "violated"):
        return outcome
    words = exception_words(sentence)
    if not words:
        return outcome
    bare = _thing(outcome.forbid_hit or "")
    starts = [h.start for h in find_term(prepared, bare) if not h.negated_by] if bare else []
    spans = [u for u in _units(prepared) if any(u[0] <= s < u[1] for s in starts)] or [
        (0, len(prepared.text))]
    said = [[w for w in words if _claimed(w, prepared.text[a:b])] for a, b in spans]
    if all(said):
        outcome.status = "undecided"
        outcome.reason = (f"applies, undecided: the proposal names the exception the rule makes "
                          f"({', '.join(dict.fromkeys(w for s in said for w in s))}): judge "
                          "whether it is that exception")
    return outcome


SHEBANG = True


def only_on_shebang(outcome, forbid: list[str], prepared: PreparedText, accepted: bool):
    """An accepted rule's forbidden words met only on a script's `#!` line (`#!/usr/bin/env
    bash` under a rule forbidding `env`): the line names the interpreter, so the rule's words
    may not have met the act: "applies, undecided", not a block and never a pass (the review:
    a script that starts so and then echoes a token breaks "never print secrets")."""
    if not (SHEBANG and accepted and outcome.status == "violated" and outcome.forbid_hit
            and prepared.code):
        return outcome
    terms = [b for _, b in _terms(forbid)]
    if any(t.startswith(("path:", "/")) or "&" in t for t in terms):
        return outcome  # a regex, a path or an act with its place: read as before
    text = prepared.text
    for term in terms:
        for hit in find_term(prepared, term):
            begin = text.rfind("\n", 0, max(hit.start, 0)) + 1
            if not hit.negated_by and not says_only(text[begin:].split("\n", 1)[0]):
                return outcome
    outcome.status = "undecided"  # a comment only says it too (conf28: act_clause.says_only)
    outcome.reason = (f"applies, undecided: '{outcome.forbid_hit}' occurs only on the script's #! "
                      "line or in a comment, which do nothing: judge the rest of the change")
    return outcome


# the verbs that take a thing away: one act under a prohibition ("never delete …": "Remove …")
_REMOVING = re.compile(r"(?:remov|delet|drop|eras|purg|wip)\w*")
# the verbs of going without a thing ("Do not bypass code review …"), and the cues a proposal
# says it with: "Merge the hotfix without code review", "Skip code review for the refactor"
_BYPASSING = re.compile(r"(?:bypass|skip|circumvent|omit|disabl|deactivat)\w*")
VERB_SAID = True


def forbidden_verb_said(outcome, sentence: str, forbid: list[str], prepared: PreparedText):
    """The act a prohibition names, said on its forbidden thing ("Skip the failing tests" under
    "Do not skip or delete failing tests"): the verb is read as a negation cue (taking the
    thing away), but the sentence forbids that verb itself: a violation (a guessed rule asks)."""
    if not (VERB_SAID and outcome.status == "satisfied" and not outcome.exempted_by
            and not prepared.code):
        return outcome
    for term, bare in _terms(forbid):
        verbs = act_verbs(sentence, bare) if not bare.startswith(("path:", "/")) else ()
        for hit in find_term(prepared, bare) if verbs else ():
            cue = hit.negated_by.lower()
            if cue and any(_BYPASSING.fullmatch(v) and (cue == "without" or _BYPASSING.fullmatch(cue))
                           and not cue.startswith(v[:4]) for v in verbs) and not (
                    cue == "without" and enforces(prepared.text, hit.start)):  # "refuse to … without X"
                outcome.status, outcome.quote = "undecided", hit.quote(prepared.text)
                outcome.reason = (f"applies, undecided: '{bare}' is said with '{cue}', going "
                                  "without what the rule keeps: judge whether it breaks the rule")
                return outcome  # never a block: "skip the scan for docs-only changes" complies
            if cue and any(cue.startswith(v[:4]) or (_REMOVING.fullmatch(cue) and _REMOVING.fullmatch(v))
                           for v in verbs):
                outcome.status, outcome.forbid_hit = "violated", term
                outcome.reason = (f"forbidden '{bare}' is present under the act the rule "
                                  f"forbids on it ({cue})")
                return outcome
    return outcome


def judge_scope(outcome, sentence: str, forbid: list[str], prepared: PreparedText, accepted: bool,
                confirmed: bool):
    """The readings of this module, in order, for one criterion's outcome (judging.py)."""
    outcome = only_on_shebang(outcome, forbid, prepared, accepted)  # `#!/usr/bin/env bash`
    outcome = required_kept(outcome, prepared, accepted)  # "Don't publish … without the check"
    outcome = forbidden_verb_said(outcome, sentence, forbid, prepared)  # "Skip the failing tests"
    outcome = met_outside(outcome, sentence, prepared, confirmed)  # ingress, no 0.0.0.0/0
    outcome = secret_file(outcome, forbid, prepared, accepted)  # `COPY .env` and no ENV
    outcome = act_dropped(outcome, sentence, prepared, confirmed)  # "the failing test passes"
    outcome = kept_not_skipped(outcome, sentence, prepared, confirmed)  # "Make CI faster"
    return exception_named(outcome, sentence, prepared, confirmed)  # "… is the only exception"
