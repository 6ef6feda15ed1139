"""Leave-one-stage-out audit of the guardrail reader (eighth session, issue 22): switch one
stage off, run the tuning batches through `check` as `tests.heldout_eval tuning-all` does
(all twenty since the twenty-second session, nineteen since the twenty-first, eighteen since the twentieth; seventeen since the nineteenth, sixteen since the eighteenth, fifteen since the seventeenth, eleven since the
twelfth, nine before), and score each batch on its own (exact, wrong blocks, silent passes, look-alikes pass), so that
what a stage gives on the batch it was written for can be read beside what it gives on the
others. Never runs the held-out set.

    python -m tests.stage_audit [STAGE ...] [--set NAME=VALUE ...] [--json FILE] [--older]

STAGE is one of ABLATIONS (none: the reader as it is). `--set judging.POSITIVE_MARGIN=0.1`
sets a module constant, `--set meaning_threshold=0.3` the guardrail setting. `--json`
writes every case's answer too (for the threshold folds in tests.threshold_folds);
`--older` also runs tests.older_sets_eval.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from pathlib import Path

BATCHES = (
    "tuning", "batch4", "batch5", "batch6", "batch7", "batch8", "batch9", "batch10", "batch11",
    "batch12", "batch13", "batch14", "batch15", "batch16",
    "batch17", "batch18", "batch19", "batch20", "batch21", "batch22",
    "batch23", "batch24", "batch25", "batch26", "batch27",
)


def _off(module: str, name: str, value=None):
    def apply() -> None:
        setattr(importlib.import_module(module), name, value)
    return apply


def _drop_concepts(*stems: str):
    def apply() -> None:
        from lorestack.guardrail import concepts
        for s in stems:
            concepts._CONCEPTS.pop(s)
    return apply


def _none(*args, **kwargs):
    return None


def _keep(outcome, *args, **kwargs):
    return outcome


ABLATIONS = {
    # thirty-fifth session (batch27): a required file is the file, not the verb; a negated
    # condition clause is no term (clause_forms.py)
    "artefact": _off("lorestack.guardrail.draft_grammar", "ARTEFACT", False),
    "condition": _off("lorestack.guardrail.clause_forms", "CONDITION", False),
    "such_file": _off("lorestack.guardrail.clause_forms", "SUCH_FILE", False),
    # thirty-sixth session: an exception said not to hold ("no review yet") is no sign the rule
    # is kept; a required file named as left alone ("# CHANGELOG.md untouched") is missing
    "unmet": _off("lorestack.guardrail.rules", "UNMET_APART", False),
    "left_alone": _off("lorestack.guardrail.rules", "LEFT_ALONE", False),
    # thirty-seventh session: a required file name the change writes is present
    "file_changed": _off("lorestack.guardrail.file_written", "FILE_CHANGED", False),
    # thirty-eighth session: a proposal's act apart from its purpose ("… to fix the rows")
    "purpose": _off("lorestack.guardrail.meaning", "PURPOSE", False),
    # thirty-first session (sil31): "Every X has Y" read as "X needs Y" (every_has.py)
    "every_has": _off("lorestack.guardrail.every_has", "ON", False),
    # twenty-third session: a change outside every file and folder a rule guards is not asked
    "paths_outside": _off("lorestack.guardrail.rule_paths", "PATHS_OUTSIDE", False),
    # twenty-third session: prose writing a rule down; a fix under a freeze on new things
    "written_down": _off("lorestack.guardrail.written_down", "ENABLED", False),
    "fix_under_freeze": _off("lorestack.guardrail.rule_paths", "FIXES_UNDER_FREEZE", False),
    # twenty-third session (conf23): a copula's forbidden state set false in code
    "state_off": _off("lorestack.guardrail.state_off", "STATE_OFF", False),
    # twenty-seventh session (quiet27): a command that only reads keeps a guess; prose that
    # only moves things over to the rule's own way keeps a guess
    "reads_only": _off("lorestack.guardrail.guess_checks", "READS_ONLY", False),
    "toward_way": _off("lorestack.guardrail.toward_way", "ENABLED", False),
    # twenty-fourth session (conf24): a confirmed draft's forbidden thing outside the source or
    # means its sentence names; what "without X" requires met by X's head when it names an act
    "act_scope": _off("lorestack.guardrail.act_scope", "ACT_SCOPE", False),
    # twenty-fourth session (needs24): a drafted requirement met only when set on a code line
    "needs_code": _off("lorestack.guardrail.needs_code", "ENABLED", False),
    # twenty-fifth session (conf25): what "without X" requires met by its act word inside an
    # identifier on a code line; a file that holds secrets under an accepted rule on secrets;
    "named_in_code": _off("lorestack.guardrail.named_in_code", "ENABLED", False),
    "secret_files": _off("lorestack.guardrail.act_scope", "SECRET_FILES", False),
    # ... and prose naming a confirmed prohibition's thing under none of the acts it forbids
    "act_dropped": _off("lorestack.guardrail.act_scope", "ACT_DROPPED", False),
    "act_clause": _off("lorestack.guardrail.act_clause", "ON", False),
    "comment_only": _off("lorestack.guardrail.act_clause", "COMMENTS", False),
    # ... and a proposal that names the exception a confirmed prohibition makes
    "exception_named": _off("lorestack.guardrail.act_scope", "EXCEPTIONS", False),
    # ... and an accepted rule's forbidden word met only on a script's #! line
    "shebang": _off("lorestack.guardrail.act_scope", "SHEBANG", False),
    # twenty-second session: prose arguing for a shortcut stays open; switching a thing off
    "shortcut": _off("lorestack.guardrail.shortcut", "ENABLED", False),
    "switch_off": _off("lorestack.guardrail.switch_off", "SWITCH_OFF", False),
    # twenty-fourth session (silent24): a quantity past a bound the criterion sets; a change
    # taking away what the rule asks for
    "bounds": _off("lorestack.guardrail.bounds", "ON", False),
    "given_up": _off("lorestack.guardrail.given_up", "ENABLED", False),
    # twenty-fifth session (batch25): the positive half of "X, never Y"; one word swapped out
    # of a line edited in place
    "given_up_contrast": _off("lorestack.guardrail.given_up", "CONTRAST", False),
    "given_up_swap": _off("lorestack.guardrail.given_up", "SWAP", False),
    "given_up_off": _off("lorestack.guardrail.given_up", "OFF_SWITCH", False),
    # twenty-seventh session: one word of what the rule asks for on a line deleted outright
    "given_up_deleted": _off("lorestack.guardrail.given_up", "PURE_REMOVAL", False),
    # twenty-sixth session (fix26): "Only A once B" scopes to A and wants what B names
    "only_once": _off("lorestack.guardrail.only_once", "ON", False),
    # twenty-sixth session (fix26): a confirmed draft still asks what its guess asked
    "confirmed_asks": _off("lorestack.guardrail.guess_checks", "CONFIRMED_ASKS", False),
    # twenty-eighth session (batch28): a shortcut asks at any similarity it applied by
    # meaning (the gate's 0.45 before); "until" after a past verb is no put-off
    "shortcut_any_bar": _off("lorestack.guardrail.shortcut", "SHORTCUT_BAR", 0.45),
    "shortcut_past": _off("lorestack.guardrail.shortcut", "PAST_UNTIL", False),
    "confirmed_as_guess": _off("lorestack.guardrail.drafted_words", "ON", False),
    # twenty-eighth session (fix28b): a wanted thing named only as taken away is not had; a
    # required word only in a name set False/0/None/off is not met
    "wanted_affirmed": _off("lorestack.guardrail.wanted_affirmed", "ON", False),
    "switched_off": _off("lorestack.guardrail.switched_off", "ENABLED", False),
    # twenty-ninth session (sil29): well-known faults in everyday forms (only ask); a
    # recommended clause's "instead of X" read as X ruled out, not as the way
    "everyday_faults": _off("lorestack.guardrail.everyday_faults", "ON", False),
    "instead_of": _off("lorestack.guardrail.instead_of", "ON", False),
    # twenty-ninth session (sil29): the recommended way named only as absent or unfit
    "way_unfit": _off("lorestack.guardrail.alternative_denied", "ON", False),
    # twenty-ninth session (sil29): a change that only binds literals calls nothing
    "binds_only": _off("lorestack.guardrail.binds_only", "ON", False),
    # twenty-ninth session (fix29): drafting no grammar word into a term — a property stated
    # with a copula ("are always Secure"), an act's object wanted rather than its verb ("must
    # update the docs"), the act an "only … after" condition is tied to, what "always" keeps
    # on forbidden switched off, a brand name (iOS) not read as code, an adverb of order
    "copula_cue": _off("lorestack.guardrail.draft_grammar", "COPULA_CUE", False),
    "act_object": _off("lorestack.guardrail.draft_grammar", "ACT_OBJECT", False),
    "only_act": _off("lorestack.guardrail.draft_grammar", "ONLY_ACT", False),
    "kept_on": _off("lorestack.guardrail.draft_grammar", "KEPT_ON", False),
    "brand_names": _off("lorestack.guardrail.code_heads", "BRAND_NAMES", False),
    "order_adverbs": _off("lorestack.guardrail.term_trim", "ORDER_ADVERBS", False),
    # ... and a confirmed going-without rule ("Don't skip CI") whose thing is only kept asks
    "going_without": _off("lorestack.guardrail.going_without", "ON", False),
    # twenty-ninth session (other29): a confirmed draft applied only by meaning, its requirement
    # missing, where the proposal does not show the act the requirement is for, asks
    "meaning_needs": _off("lorestack.guardrail.meaning_needs", "ON", False),
    # thirtieth session (fix30): ... unless the change names the thing the rule's subject is
    # (`git tag`, `kind: CronJob`, a file under dashboards/): then it decides again
    "thing_in_code": _off("lorestack.guardrail.thing_in_code", "ON", False),
    # thirtieth session (fix30): a forbidden word met only as a part of a path or file name
    # (`.env`, `/usr/bin/env`) is a longer name: a confirmed rule asks there
    "path_names": _off("lorestack.guardrail.path_names", "ON", False),
    # thirtieth session (fix30), drafts whose topic word became the rule: a symbol the
    # sentence writes (`SELECT *`) is kept; "before it is merged" adds no keyword; the thing of
    # an act (push, dump, print, log, send …) is forbidden with the act, else asks
    "symbol_kept": _off("lorestack.guardrail.symbol_kept", "ON", False),
    "trigger_words": _off("lorestack.guardrail.trigger_words", "ON", False),
    "act_kept": _off("lorestack.guardrail.act_kept", "ON", False),
    # ... and code the sentence calls never acceptable (`except Exception: pass`) is forbidden
    "code_banned": _off("lorestack.guardrail.code_banned", "ON", False),
    # thirty-first session (fix31), the qualifier that limits a forbidden act stays with it: a
    # list after the place of the act names that place ("to shared branches (main, …)"), the
    # act said as a noun keeps its command forms, the place is named in the act's own step
    "listed_places": _off("lorestack.guardrail.listed_places", "ON", False),
    "act_noun": _off("lorestack.guardrail.listed_places", "ACT_NOUN", False),
    "same_step": _off("lorestack.guardrail.listed_places", "SAME_STEP", False),
    # ... elements written as markup and a means said with "with" are scope words; a subject
    # written as code (/healthz) is where the act is forbidden
    "scope_code": _off("lorestack.guardrail.scope_code", "ON", False),
    "subject_scope": _off("lorestack.guardrail.subject_scope", "ON", False),
    # ... and a proposal naming the forbidden thing only as what it removes or a check fails on
    "named_as_removed": _off("lorestack.guardrail.named_as_removed", "ON", False),
    # ... and a value ('true' of `privileged: true`) is no forbidden code word of its own
    "value_words": _off("lorestack.guardrail.value_words", "ON", False),
    # twenty-sixth session (batch26): the recommended way named while a shortcut is argued
    "shortcut_alternative": _off("lorestack.guardrail.shortcut", "ARGUED", False),
    # sixteenth session: a proposal that only takes away what a rule forbids keeps it
    "taken_away": _off("lorestack.guardrail.taken_away", "ENABLED", False),
    # sixteenth session: a proposal that spells in code what a rule wants keeps it
    "spellings": _off("lorestack.guardrail.spellings", "ENABLED", False),
    # twelfth session: the categories a rule names, with their well-known members
    "categories": _off("lorestack.guardrail.concepts", "CATEGORIES", False),
    # ninth session, batches 8-9 (drafting forms)
    "spelled": _off("lorestack.guardrail.sentence_words", "as_spelled", lambda path, s: path),
    "scope_exempt": _off("lorestack.guardrail.sentence_words", "scope_exemptions", lambda s: []),
    "passive": _off("lorestack.guardrail.sentence_words", "PASSIVE_ACTS", False),
    "such_as": _off("lorestack.guardrail.sentence_words", "SUCH_AS", False),
    "particles": _off("lorestack.guardrail.sentence_words", "PARTICLES", False),
    # seventh session, batch 8 (undo.py, measured here on 4a9e3a2, removed in the eighth)
    "margin": _off("lorestack.guardrail.judging", "POSITIVE_MARGIN", 0.0),
    # sixth session, batch 7
    "faults": _off("lorestack.guardrail.guess_checks", "judge_fault", _none),
    "left_out": _off("lorestack.guardrail.guess_checks", "judge_left_out", _none),
    # fifth session, batch 6
    "missing": _off("lorestack.guardrail.guess_checks", "judge_missing", _none),
    "topic": _off("lorestack.guardrail.guess_checks", "judge_topic", _none),
    "wanted": _off("lorestack.guardrail.guess_checks", "wanted_present", lambda *a: False),
    "change_kind": _off("lorestack.guardrail.guess_checks", "shows", _none),
    # fourth session, batch 5
    "gloss": _off("lorestack.guardrail.meaning", "GLOSS", False),
    # third session, batch 4
    "clauses": _off("lorestack.guardrail.meaning", "CLAUSES", False),
    "recommended": _off("lorestack.guardrail.judging", "RECOMMENDED_CLAUSES", False),
    "implied_forms": _off("lorestack.guardrail.sentence_words", "IMPLIED_FORMS", False),
    "concepts_b4": _drop_concepts(
        "secret", "credential", "tls", "certificat", "binar", "artefact", "artifact",
        "whitespace", "licen", "paste", "region",
    ),
    # first session, batch 1 (the requests trial of issue 22)
    "concepts_b1": _drop_concepts(
        "dependenc", "network", "storag", "databas", "pickl", "unpickl", "thread", "cron",
        "image",
    ),
    # second session, batch 3 (removed and restored in the eighth session: removing it cost
    # 3 silent passes on the held-out set, docs/guardrail-log.md)
    "concepts_b3": _drop_concepts("http", "format", "telemetr", "languag", "migration"),
}


def batch_of() -> dict[str, str]:
    from tests.heldout_eval import tuning_set

    return {case[0]: b for b in BATCHES for case in tuning_set(b)[1]}


def figures(rows: list[tuple[str, str, str, str, bool]]) -> dict:
    violations = [r for r in rows if r[1] == "violation"]
    lookalikes = [r for r in rows if r[1] == "pass"]
    return {
        "cases": len(rows),
        "exact": sum(r[4] for r in rows),
        "wrong_blocks": sum(r[3] == "block" for r in lookalikes),
        "silent": sum(r[3] == "pass" for r in violations),
        "violations": len(violations),
        "lookalike_pass": sum(r[3] == "pass" for r in lookalikes),
        "lookalikes": len(lookalikes),
    }


def run(stages: list[str], settings: dict[str, str]) -> dict:
    from tests.heldout_eval import answer, build, exact, scratch_home, tuning_set

    for stage in stages:
        ABLATIONS[stage]()
    for name, value in settings.items():
        if name == "meaning_threshold":
            os.environ["LORESTACK_GUARDRAIL__MEANING_THRESHOLD"] = value
            continue
        module, attr = name.rsplit(".", 1)
        mod = importlib.import_module(f"lorestack.guardrail.{module}")
        setattr(mod, attr, type(getattr(mod, attr))(value))
    criteria, cases = tuning_set("tuning-all")  # the batches in BATCHES
    where = batch_of()
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), criteria)
        rows, other = [], 0
        for case_id, key, raw, expected in cases:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            got = answer(result, ids[key])
            other += sum(f.id != ids[key] for f in result.violations + result.undecided)
            rows.append((case_id, expected, criteria[key][1], got,
                         exact(expected, got, criteria[key][1], False)))
    out = {"stages": stages, "settings": settings, "other_flagged": other,
           "all": figures(rows)}
    for b in BATCHES:
        out[b] = figures([r for r in rows if where[r[0]] == b])
    out["rows"] = [[r[0], where[r[0]], r[1], r[3], r[4]] for r in rows]
    return out


def line(name: str, f: dict) -> str:
    return (f"{name:8} exact {f['exact']:3}/{f['cases']:<3} wrong {f['wrong_blocks']} "
            f"silent {f['silent']:2}/{f['violations']:<3} look-alikes {f['lookalike_pass']:3}/"
            f"{f['lookalikes']}")


def main(argv: list[str]) -> None:
    stages = [a for a in argv if a in ABLATIONS]
    settings = dict(
        argv[i + 1].split("=", 1) for i, a in enumerate(argv) if a == "--set"
    )
    out = run(stages, settings)
    print("off:", ",".join(stages) or "-", "set:", settings or "-",
          "other flagged", out["other_flagged"])
    for b in (*BATCHES, "all"):
        print(" ", line(b, out[b]))
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(out))
    if "--older" in argv:
        from tests import older_sets_eval

        older_sets_eval.main([])


if __name__ == "__main__":
    main(sys.argv[1:])
