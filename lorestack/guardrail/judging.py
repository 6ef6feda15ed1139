"""How one criterion is judged against one proposal: by its own terms or its sentence,
applying by its words or by meaning, and kept apart by who stands behind the rule — a rule
the user accepted decides (block / warn), a guess answers "applies, undecided"."""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from typing import TYPE_CHECKING

from lorestack.guardrail.act_scope import judge_scope
from lorestack.guardrail.bounds import open_beyond_bound
from lorestack.guardrail.command_words import only_reads, spelled_flags
from lorestack.guardrail.concepts import category_members
from lorestack.guardrail.file_written import file_written
from lorestack.guardrail.findings import JudgedBy, rule_text
from lorestack.guardrail.freeze import feature_named
from lorestack.guardrail.given_up import open_given_up
from lorestack.guardrail.guarded_act import taken_or_guarded
from lorestack.guardrail.guess_checks import (
    after_meaning,
    detail,
    put_off,
    takes_away,
    wanted_thing,
    writes_down,
)
from lorestack.guardrail.kept_folders import removal_above
from lorestack.guardrail.meaning import criterion_parts, replaced_acts, split_acts, stated_clauses
from lorestack.guardrail.members import asked_by_meaning, member_only
from lorestack.guardrail.named_in_code import met_by_name, phrase_in_a_name
from lorestack.guardrail.needs_code import judge_set_in_code
from lorestack.guardrail.proposals import Proposal
from lorestack.guardrail.rule_paths import (
    fix_under_freeze,
    frozen_names,
    kept_globs,
    new_case_under_freeze,
    outside,
)
from lorestack.guardrail.rules import (
    PreparedText,
    RuleOutcome,
    _triggered_words,
    evaluate,
    evaluate_sentence,
    gate_of,
    gate_user_terms,
    near_forbidden,
    sentence_spec,
    stem,
)
from lorestack.guardrail.shortcut import argued_away, shortcut, shortcut_bar
from lorestack.guardrail.state_off import state_set_off
from lorestack.guardrail.written_down import written_down
from lorestack.memory_layers.models import CriterionSpec

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.guardrail.meaning import MeaningJudge
    from lorestack.memory_layers.store import LoadedItem


def prepare(proposal: Proposal) -> PreparedText:
    """The proposal's text, tokenised once for every criterion; a command's flags that say a
    thing in a letter are spelled out after it (`git tag -s`: "signed tag", command_words.py)."""
    spelled = spelled_flags(proposal.text)
    made = PreparedText.of(
        proposal.text + ("\n" + spelled if spelled else ""), change=proposal.is_change(),
        code=proposal.source in ("diff", "tool"),
        existing=frozenset(proposal.existing), replaced=proposal.replaced,
        deleted=frozenset(proposal.deleted), moved=tuple(proposal.moved.items()),
    )
    made.written = frozenset(proposal.written)
    return made


def judge_criterion(
    loaded: LoadedItem,
    prepared: PreparedText,
    paths: list[str],
    meaning: Callable[[str], object] | None = None,
) -> tuple[RuleOutcome, JudgedBy]:
    """(outcome, 'rules' | 'sentence'): by its terms, else by its sentence.

    Only a rule the user accepted (terms they typed, edited or confirmed) decides a
    violation; a guess (read from the sentence, or a draft nobody confirmed) answers
    "applies, undecided" and quotes what it saw. Where none of its words occur, a
    criterion applies by meaning (`meaning`) unless the user chose its scope (paths or
    keywords they typed or confirmed)."""
    spec = loaded.item.criterion or CriterionSpec()  # a criterion file without its fields
    sentence = rule_text(loaded.item)
    accepted = not spec.is_guess()
    by_meaning: Callable[[], str | None] | None = None
    # by meaning where the user did not type the scope (a draft, or a sentence without one); a
    # user's rule that only forbids, with no scope, applies everywhere (its terms decide)
    everywhere = accepted and spec.applies_to.is_empty() and not spec.require
    # members of a category the sentence names (concepts.py) guess its scope: they must not switch
    # meaning off ("Use the logging module rather than print()" gained loguru, pino, …)
    guessed = category_members(sentence)
    chosen = spec.applies_to.paths or [k for k in spec.applies_to.keywords if k not in guessed]
    # a change that names only paths outside every file and folder the rule guards
    away = prepared.code and outside(spec, paths, prepared.text)
    if meaning is not None and (spec.drafted or not chosen) and not everywhere and not away:
        ask = meaning

        def by_meaning() -> str | None:
            hit = ask(sentence)
            return hit.describe() if hit is not None else None  # type: ignore[attr-defined]

    outcome: RuleOutcome | None = None
    how: JudgedBy = "rules"
    gated = spec
    if not (spec.forbid or spec.require):
        outcome = evaluate_sentence(spec, sentence, prepared, paths, by_meaning)
        how = "sentence"
    if outcome is None:
        gated = gate_user_terms(spec, sentence)  # the user's words as the rules read them
        outcome, how = evaluate(gated, prepared, paths, by_meaning), "rules"
        outcome = judge_set_in_code(outcome, sentence, gated.require, prepared, paths)
        outcome = file_written(outcome, sentence, prepared)  # a required file written
        outcome = phrase_in_a_name(met_by_name(outcome, prepared), prepared, gated.require, sentence)  # a name
    # only inside the rule's scope: one applying everywhere would ask on every "variable" (var)
    if (accepted and outcome.status == "satisfied" and not outcome.exempted_by and spec.forbid
            and not spec.applies_to.is_empty()):
        near = near_forbidden(gated, prepared, paths)
        if near is not None:
            word = prepared.text[near.start:near.end] if near.start >= 0 else near.term
            outcome.status, outcome.quote = "undecided", near.quote(prepared.text)
            outcome.reason = (
                f"applies, undecided: '{word}' begins with the forbidden '{near.term}' but is "
                f"another word: judge whether it is what the rule forbids (to let it decide: "
                f"`lorestack criteria edit {loaded.item.id} --forbid '{near.term}*'`)"
            )
    if (outcome.status == "violated" and outcome.missing and not outcome.forbid_hit
            and prepared.code and not prepared.change and only_reads(prepared.text)):
        outcome.status = "satisfied"  # `git tag -l` makes no tag that could be unsigned
        outcome.reason = "the command only reads: it makes nothing the rule could require"
    if (accepted and outcome.status == "violated" and outcome.forbid_hit and not prepared.code
            and ((writes := written_down(prepared.text))  # "Document in SECURITY.md that … never …"
                 or taken_or_guarded(sentence, prepared.text, outcome.forbid_hit))):
        how_named = "a rule it writes down" if writes else "what it takes away"
        outcome.status = "undecided"
        outcome.reason = (f"applies, undecided: the proposal names '{outcome.forbid_hit}' as "
                          f"{how_named}: judge whether it breaks the rule")
    if (outcome.status == "violated" and outcome.forbid_hit and prepared.code
            and state_set_off(sentence, outcome.forbid_hit, prepared.text)):  # `debuggable false`
        outcome.status = "satisfied"
        outcome.reason = (f"the rule forbids the state '{outcome.forbid_hit}'; the change sets "
                          "it to false")
    outcome = judge_scope(outcome, sentence, gated.forbid, prepared, accepted, spec.drafted == "confirmed")
    if accepted and outcome.status == "violated" and outcome.inside_name:
        outcome.status = "undecided"  # `ast.literal_eval` under a rule forbidding 'eval'
        outcome.reason = (
            f"applies, undecided: the forbidden '{outcome.forbid_hit}' occurs only inside the "
            f"longer name '{outcome.inside_name}': judge whether it is what the rule forbids"
        )
    if outcome.status in ("satisfied", "not_applicable") and not outcome.exempted_by:
        case = new_case_under_freeze(gated, prepared, paths)
        if case:  # a feature that defines nothing: the reader cannot tell it from a fix
            outcome.status, outcome.quote = "undecided", case
            outcome.reason = (
                f"applies, undecided: under a freeze on new things, the edit adds a new case "
                f"('{case}') and defines nothing: judge whether it is a new feature or a fix"
            )
    said = "" if prepared.code else feature_named(prepared.text, frozen_names(gated))
    if said and outcome.status in ("satisfied", "not_applicable") and not outcome.exempted_by:
        outcome.status, outcome.quote = "undecided", said  # "Add Adyen … for billing"
        outcome.reason = ("applies, undecided: under a freeze on new things, the proposal "
                          "names the frozen folder and adds to it: judge whether it is a new "
                          "feature or a fix")
    above = removal_above(prepared.text, kept_globs(gated)) if prepared.code else ""
    if above and outcome.status in ("satisfied", "not_applicable", "possibly_relevant"):
        outcome.status, outcome.quote = "undecided", above  # `grep -rl x . | xargs rm`
        outcome.reason = (f"applies, undecided: '{above}' deletes above the folder the rule "
                          "keeps and may reach it: judge whether it deletes a file there")
    outcome = member_only(outcome, spec, sentence, prepared, paths)
    if outcome.status == "possibly_relevant" and outcome.by_meaning:
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided: {outcome.triggers[0]}; the rules cannot judge this "
            "criterion: judge whether the proposal breaks it"
        )
    if as_guess := not accepted or asked_by_meaning(outcome, spec):  # drafted_words.py
        how_read = "read from its sentence" if how == "sentence" else (
            f"drafted by {spec.drafted or 'rules'}, not confirmed"
        )
        outcome = _guess(
            outcome, loaded.item.id, how_read, spec if how == "rules" and not away else None,
            prepared.stems,
        )
        if meaning is not None and outcome.status == "undecided":
            outcome = _took_alternative(outcome, spec, sentence, meaning)
        outcome = wanted_thing(outcome, sentence, prepared, paths)
    if (
        meaning is not None
        and outcome.status == "undecided"
        and outcome.by_meaning
        and not outcome.forbid_hit
    ):
        outcome = _unlike_forbidden(outcome, spec, sentence, meaning)
        outcome = _shortcut_open(outcome, prepared, sentence, meaning)
    if as_guess:
        outcome = after_meaning(outcome, sentence, prepared, paths)
        # a scope the user typed (a path or a keyword) that leaves the proposal out stays so
        if not (outcome.status == "not_applicable" and not spec.drafted and not spec.applies_to.is_empty()):
            outcome = detail(outcome, sentence, prepared)
        outcome = takes_away(outcome, sentence, prepared, spec)
        outcome = writes_down(outcome, prepared)
        outcome = fix_under_freeze(outcome, spec, prepared.code, prepared.text)
    else:  # "Merge release/2.3 and collect the sign-off later" (left_out.py)
        outcome = put_off(outcome, spec, sentence, prepared, paths)  # and what a guess asks
    outcome = open_beyond_bound(outcome, sentence, prepared.text, gated, paths)  # `maxReplicas: 400`
    outcome = open_given_up(outcome, sentence, spec, prepared.replaced, prepared.text, paths)
    return outcome, how


ALTERNATIVE_SIMILARITY = 0.38  # calibrated on the tuning cases (python -m tests.calibrate_meaning)
ALTERNATIVE_MARGIN = 0.15
RECOMMENDED_CLAUSES = True


def _took_alternative(outcome: RuleOutcome, spec: CriterionSpec, sentence: str, meaning):
    """A guessed rule that found nothing forbidden and nothing missing, where the proposal
    reads like the recommended way ("use plain DOM APIs" vs `document.querySelector`) much
    more than like the forbidden thing: it takes the alternative, a pass."""
    if outcome.forbid_hit or outcome.missing:
        return outcome
    forbidden, alternatives = _forbidden_terms(spec, sentence)
    if RECOMMENDED_CLAUSES:  # "…; open a pull request from your own branch"
        acts, recommended = split_acts(sentence)
        forbidden = list(dict.fromkeys(forbidden + acts))
        alternatives = list(dict.fromkeys(alternatives + recommended))
    if not alternatives or not forbidden:
        return outcome
    alt = meaning(sentence, alternatives)
    bad = meaning(sentence, forbidden)
    if alt is None or bad is None:
        return outcome
    if alt.similarity >= ALTERNATIVE_SIMILARITY and alt.similarity >= bad.similarity + ALTERNATIVE_MARGIN:
        outcome.status = "satisfied"
        outcome.exempted_by = alt.part
        outcome.reason = (
            f"takes the recommended way '{alt.part}' by meaning (similarity "
            f"{alt.similarity:.2f} vs {bad.similarity:.2f} to what it forbids)"
        )
        outcome.quote = alt.unit[:120]
    return argued_away(outcome, sentence, meaning)


# calibrated with the by-meaning threshold on the tuning cases (python -m
# tests.calibrate_meaning --sweep; the curve is in docs/guardrail-log.md)
FORBIDDEN_SIMILARITY = 0.45
# the forbidden-act gate lets a proposal pass only if it does not read clearly nearer what
# the rule forbids than what it states positively (seventh session, docs/guardrail-log.md)
POSITIVE_MARGIN = 0.20


_CALL_REGEX = re.compile(r"/\(\?<!\[\\w\.\]\)(.+)\\b/")


def _forbidden_terms(spec: CriterionSpec, sentence: str) -> tuple[list[str], list[str]]:
    """(what it forbids, what it recommends) as words the sentence model can compare: the
    act of "act & place" terms, never regexes or paths."""
    terms = spec if (spec.forbid or spec.require) else sentence_spec(spec, sentence)[0]
    forbidden = []
    for entry in terms.forbid:
        bare = gate_of(entry.strip())[1]
        call = _CALL_REGEX.fullmatch(bare)
        if call:  # "eval()" read as a regex for that function: compared as its name
            forbidden.append(re.sub(r"\\(.)", r"\1", call.group(1)))
        if bare.startswith("/"):  # a regex, whose '|' is no list of terms
            continue
        forbidden += [
            gate_of(f.strip())[1].split("&")[0].strip() for f in entry.split("|")
            if not gate_of(f.strip())[1].startswith(("path:", "/"))
        ]
    alternatives = [gate_of(a)[1] for a in terms.alternatives if not a.startswith("/")]
    # a word of a longer forbidden phrase (its code spelling, code_heads.py) is compared as
    # that phrase: "componentwillmount" alone reads close to any lifecycle method
    phrases = {w for f in forbidden if " " in f for w in f.split()}
    return [f for f in dict.fromkeys(forbidden) if f and f not in phrases], alternatives


def stated_hit(sentence: str, meaning):
    """The nearest clause that states the rule positively (the gate's margin), or None."""
    stated = stated_clauses(sentence)
    return meaning(sentence, stated) if stated else None


def forbidden_hit(spec: CriterionSpec, sentence: str, meaning):
    """The nearest forbidden term or act the forbidden-act gate compares, None where the rule
    names none (tests.lookalike_buckets reports it)."""
    forbidden, _ = _forbidden_terms(spec, sentence)
    if not forbidden:
        return None
    # the clauses that say what is forbidden, as well as its terms ("log tokens, …" and
    # "tokens"; "deploy images tagged latest to production" and "images tagged latest")
    words = {w for f in forbidden for w in re.findall(r"[a-z0-9]+", f.lower())}
    acts = [
        p for p in criterion_parts(sentence)[1:]
        if words & set(re.findall(r"[a-z0-9]+", p.lower()))
    ]
    return meaning(sentence, forbidden + acts + replaced_acts(sentence))


def _unlike_forbidden(outcome: RuleOutcome, spec: CriterionSpec, sentence: str, meaning):
    """It applied by meaning only (none of its words occur): a proposal that reads far
    from what the rule forbids is about the same subject but keeps the rule — a pass
    (what a rule requires, or a rule naming nothing the model can compare, stays open)."""
    if outcome.missing:
        return outcome
    bad = forbidden_hit(spec, sentence, meaning)
    if bad is None or bad.similarity >= FORBIDDEN_SIMILARITY:
        return outcome
    # far from both, but clearly nearer the forbidden act: stays open
    good = stated_hit(sentence, meaning) if POSITIVE_MARGIN else None
    if good is not None and bad.similarity - good.similarity >= POSITIVE_MARGIN:
        return outcome
    outcome.status = "satisfied"
    outcome.reason = (
        f"close to the criterion by meaning, but far from what it forbids ('{bad.part}', "
        f"similarity {bad.similarity:.3f} < {FORBIDDEN_SIMILARITY:.2f}): kept"
    )
    return outcome


def _shortcut_open(outcome: RuleOutcome, prepared: PreparedText, sentence: str, meaning):
    """Prose the gate let pass that argues for a shortcut ("…, that is good enough", "…
    until the bot account is set up": shortcut.py), at the similarity it applied by
    (shortcut.shortcut_bar; the gate's 0.45 from the 22nd to the 27th session):
    it stays "applies, undecided" (twenty-second session)."""
    if outcome.status != "satisfied" or prepared.code or prepared.change:
        return outcome
    said = shortcut(prepared.text)
    near = meaning(sentence) if said else None
    if near is None or near.similarity < shortcut_bar(sentence, prepared.text):  # 0.45 till 28th
        return outcome
    outcome.status, outcome.quote = "undecided", said
    outcome.reason = (f"applies, undecided: close to the criterion by meaning (similarity "
                      f"{near.similarity:.2f}), and it argues for a shortcut ('{said}'): judge "
                      "whether it breaks the rule")
    return outcome


_VALUES = frozenset("true false none null yes no on off 0 1".split())  # name no place


def _names_forbidden(words: list[str], forbid: list[str], said: Container[str] | None = None) -> bool:
    """Did it apply through a word that is itself a whole forbidden term ("async" for
    forbid `added:async`)? Then no forbidden hit means the proposal keeps the rule.
    `said`: the stems of the proposal's words."""
    have = {stem(w) for k in words for w in re.findall(r"[a-z0-9]+", k.lower())}
    acts: list[tuple[set[str], set[str]]] = []  # the (act, place) of "never <act> to <place>"
    for entry in forbid:
        for alt in entry.split("|"):
            bare = gate_of(alt.strip())[1].lower()
            need = {stem(w) for w in re.findall(r"[a-z0-9]+", bare)}
            if need and need <= have:
                return True
            if "&" in bare:
                act, place = bare.split("&", 1)
                acts.append((
                    {stem(w) for w in re.findall(r"[a-z0-9]+", act)},
                    {stem(w) for w in re.findall(r"[a-z0-9]+", place) if w not in _VALUES},
                ))
    # it applied through a word of the act it forbids ("push" of "force-push to main"),
    # never the whole act: the act (where it is forbidden) decides, and it does not occur;
    # or through the whole act while no word naming the place occurs ("subprocess" and no
    # "shell": `check=True` says nothing about where)
    return bool(have) and any(
        have < act or (have == act and said is not None and not any(w in said for w in place))
        for act, place in acts
    )


def _guess(
    outcome: RuleOutcome, item_id: str, how: str, spec=None, said: Container[str] | None = None
) -> RuleOutcome:
    if (
        spec is not None
        and outcome.status == "satisfied"
        and not (outcome.exempted_by or outcome.ignored or spec.require)
        and not _names_forbidden(_triggered_words(outcome.triggers), spec.forbid, said)
    ):  # it applies by other words than what it forbids, and nothing shows it is kept
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided ({', '.join(outcome.triggers[:3])}), but none of what its "
            f"guessed rule forbids ({', '.join(spec.forbid)}) occurs as such: judge it"
        )
    if outcome.status == "violated":
        said = outcome.reason.removeprefix("from the sentence: ")
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided: the rule {how} says {said}; a guessed rule never blocks: "
            f"judge it (to let it decide: `lorestack criteria confirm {item_id}` or "
            f"`criteria edit {item_id}`)"
        )
    return outcome


def meaning_for(settings, proposal: Proposal, note=None) -> MeaningTest:
    """A lazy by-meaning test: the model loads (and the proposal is embedded) only when
    some criterion's words did not apply; unavailable -> never applies, and `notice()`
    says how many criteria went unjudged by meaning and how to fix it."""
    return MeaningTest(settings, proposal)


class MeaningTest:
    """Callable as `applies(sentence, parts=None)`: the meaning hit of `sentence` at or above
    the threshold; with `parts`, the closest of those parts whatever its similarity."""

    def __init__(self, settings, proposal: Proposal) -> None:
        self.settings, self.proposal = settings, proposal
        self.loaded = False
        self.judge: MeaningJudge | None = None
        self.why = ""  # why no model could be loaded
        self.unjudged: set[str] = set()  # sentences it could not judge for that reason

    def __call__(self, sentence: str, parts: list[str] | None = None):
        if not self.loaded:
            self.loaded = True
            self._load()
        if self.judge is None:
            if self.why:
                self.unjudged.add(sentence)
            return None
        return self.judge.closest(parts) if parts is not None else self.judge.applies(sentence)

    def _load(self) -> None:
        from lorestack.guardrail.meaning import MeaningJudge, available

        g = self.settings.guardrail
        if not g.meaning or not available(self.settings):  # switched off: the user's choice
            return
        try:
            self.judge = MeaningJudge(self.settings, self.proposal, g.meaning_threshold)
        except Exception as exc:  # noqa: BLE001 - the words still judge
            self.why = " ".join(str(exc).split(":")[0].split()) or type(exc).__name__

    def notice(self) -> str:
        """One line when criteria could not be judged by meaning (no sentence model)."""
        n = len(self.unjudged)
        if not n:
            return ""
        return (
            f"{n} criteri{'on' if n == 1 else 'a'} could not be judged by meaning ({self.why}): "
            "a violation their words do not name passes unseen; set "
            "LORESTACK_EMBEDDING__MODEL_DIR (or [embedding] model_dir) to an all-MiniLM-L6-v2 "
            "onnx folder, or run `lorestack reindex` once on a networked machine"
        )
