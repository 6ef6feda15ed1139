"""What the guardrail understood of a criterion, for the person who just typed it
(`remember --type criterion`, `criteria edit|confirm`) — and how to confirm or correct it.

A library result (`Understanding`), so every front end (CLI, MCP, the application layer)
shows the same thing; `lines()` is the plain-text rendering.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lorestack.guardrail.sentence_needs import needs, shown_pair
from lorestack.guardrail.sentence_words import shown as shown_term
from lorestack.guardrail.sentence_words import symbol_of
from lorestack.guardrail.switch_off import shown_off
from lorestack.guardrail.terms import gate_of, is_regex, path_term


class Understanding(BaseModel):
    id: str = ""
    sentence: str
    accepted: bool  # the terms are the user's own: a violation blocks/warns as set
    verdict: str  # the criterion's verdict when accepted
    applies_when: list[str] = Field(default_factory=list)
    by_meaning: bool = False  # also applies where the proposal is close in meaning
    flags_when: list[str] = Field(default_factory=list)  # what counts as a violation
    alternatives: list[str] = Field(default_factory=list)
    exemptions: list[str] = Field(default_factory=list)
    drafted_by: str = ""
    confirm: str = ""
    correct: str = ""
    try_it: str = ""

    def lines(self) -> list[str]:
        out = ["understood:"]
        when = "; ".join(self.applies_when) or "no words of its own"
        if self.by_meaning:
            when += "; or wherever a proposal is close to the sentence in meaning"
        out.append(f"  applies when: {when}")
        if self.flags_when:
            said = "blocks" if self.verdict == "block" else "warns"
            head = (
                f"  {said} on" if self.accepted
                else "  answers 'applies, undecided' (a warn, exit 1) on"
            )
            out.append(f"{head}: {'; '.join(self.flags_when)}")
        else:
            out.append(
                "  no terms the rules can check: where it applies, `check` answers "
                "'applies, undecided' and asks you (or the agent, or a configured LLM) to judge"
            )
        if self.alternatives:
            out.append(f"  recommended instead (taking it passes): {'; '.join(self.alternatives)}")
        if self.exemptions:
            out.append(f"  exempt when present: {'; '.join(self.exemptions)}")
        if not self.accepted and self.flags_when:
            out.append(
                f"  this reading is a guess (drafted by {self.drafted_by or 'the rules'}): "
                "it never blocks until you confirm it"
            )
        for label, cmd in (("confirm", self.confirm), ("correct", self.correct),
                           ("try it", self.try_it)):
            if cmd:
                out.append(f"{label}: {cmd}")
        return out


def _term(t: str) -> str:
    gate, bare = gate_of(t)
    glob = path_term(bare)
    if glob is not None:
        what = {"changed": "editing", "created": "a new file under", "removed": "deleting",
                "moved": "moving or renaming files in"}.get(
            gate, "a change to")
        return f"{what} {glob}"
    if " & " in bare:  # "== & signatures"
        return " with ".join(_term(p) for p in bare.split(" & "))
    if symbol_of(bare):
        return f"'{symbol_of(bare)}' in code"
    if is_regex(bare):
        return shown_off(bare) or shown_pair(bare) or f"text matching {bare}"
    return f"{bare} (added)" if gate == "added" else bare


def understand(spec, sentence: str, item_id: str = "") -> Understanding:
    """Describe `spec` (a stored CriterionSpec) the way `check` will use it."""
    from lorestack.guardrail.act_scope import scoped
    from lorestack.guardrail.rules import entry_alternatives, sentence_spec
    from lorestack.guardrail.sentences import read_sentence

    terms = bool(spec.forbid or spec.require)
    accepted = not spec.is_guess()
    shown = spec if terms else sentence_spec(spec, sentence)[0]
    a = shown.applies_to
    applies = [f"a change under {p}" for p in a.paths]
    words = [shown_term(k.removeprefix("added:")) for k in [*a.keywords, *a.topics]]
    shown_words = ", ".join(f"'{w}'" for w in words[:6]) + (
        f" (or {len(words) - 6} more)" if len(words) > 6 else ""
    )
    applies += [f"one of {shown_words} occurs"] if words else []
    if a.is_empty() and accepted and not spec.drafted and not spec.require:
        applies = ["every proposal (no scope given)"]
    scopes = read_sentence(sentence).scopes if spec.drafted else {}  # act_scope.py
    flags = [f"{_term(t)} present{scoped(scopes, t)}" for e in shown.forbid
             for t in entry_alternatives(e)]
    from lorestack.guardrail import needs_code

    drafted = set(needs(sentence)[0]) if spec.require and needs_code.ENABLED else set()
    flags += [f"{_term(e)} not set on a code line of the change (prose never sets it)"
              if e in drafted and len(entry_alternatives(e)) == 1 else
              f"{_term(e)} not present" if len(entry_alternatives(e)) == 1 else
              f"none of {' / '.join(_term(t) for t in entry_alternatives(e))} present"
              for e in shown.require]
    quoted = f"lorestack criteria test {item_id} \"…\"" if item_id else ""
    return Understanding(
        id=item_id,
        sentence=sentence,
        accepted=accepted,
        verdict=spec.verdict,
        applies_when=applies,
        by_meaning=bool(spec.drafted) or (spec.applies_to.is_empty() and not applies),
        flags_when=flags,
        alternatives=[_term(t) for t in shown.alternatives],
        exemptions=[_term(t) for t in shown.unless],
        drafted_by=spec.drafted if spec.drafted in ("rules", "llm") else (
            "rules" if not terms else ""),
        confirm=(f"lorestack criteria confirm {item_id}" if item_id and flags and not accepted
                 else ""),
        correct=(f"lorestack criteria edit {item_id} --forbid … --require … --keyword … "
                 "--applies-path …" if item_id else ""),
        try_it=quoted,
    )
