"""The thing a rule forbids is forbidden with the act the sentence forbids on it (thirtieth
session, fix30).

"Pull-request builds never push images to the production registry" was drafted `forbid:
images`; "Don't swallow exceptions" `forbid: exceptions`; "Never print secrets in CI logs"
`forbid: secrets`. Once confirmed, every proposal naming images, exceptions or secrets was the
forbidden act — a PR build that pushes nothing, `logger.exception(…); raise`, `session({
secret })`. The object of such a verb names what the rule is about (it stays a keyword: where
the rule applies); it is not the act. For the verbs below, doing the act is more than having
the thing in the change — the thing is pushed, dumped, printed, logged, sent, shared …
somewhere — so the draft keeps the verb as the forbidden term's scope (act_scope.py): met
without the verb, the confirmed rule answers "applies, undecided", and `remember` says so
("images together with one of push (without them: applies, undecided)"). Verbs whose act is
the thing's presence (use, add, introduce, commit, call, hard-code …) are untouched, and so
are the items of a list the sentence gives as the act's own means ("(env, printenv, set -x)")."""

from __future__ import annotations

from lorestack.guardrail.terms import gate_of

ON = True  # the switch tests and tests.stage_audit turn off

# acts done *to* a thing that a change shows by the verb (or its forms), not by the thing alone
_ACTS = frozenset(
    "push dump print echo log swallow send upload publish share paste leak expose forward "
    "email post".split()
)


def act_base(verb: str) -> str:
    """The verb's base form when it is one of the acts above, else ''."""
    v = verb.lower()
    for base in (v, v.removesuffix("ing"), v.removesuffix("es"), v.removesuffix("s"),
                 v.removesuffix("ed"), v.removesuffix("d")):
        if base in _ACTS:
            return base
    return ""


def keep_act(verb: str, forms: list[str], scopes: dict[str, tuple[str, ...]]) -> bool:
    """Give each forbidden form the verb as its scope (where none is named); True if done."""
    base = act_base(verb) if ON else ""
    if not base:
        return False
    for form in forms:
        bare = gate_of(form)[1]
        if not scopes.get(bare):
            scopes[bare] = (base,)
    return True
