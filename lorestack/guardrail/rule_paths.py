"""The files and folders a rule guards, read from its forbidden terms (`added:path:X/**`,
`removed:path:X/**`, `changed:path:setup.py`): where a change cannot reach them, and the names
of the folders a freeze covers. Split out of judging.py (twenty-third session)."""

from __future__ import annotations

from lorestack.guardrail.definitions import new_case
from lorestack.guardrail.freeze import fix_only
from lorestack.guardrail.kept_folders import all_outside, outside_files
from lorestack.guardrail.rules import PreparedText, RuleOutcome, gate_of, glob_matches, path_term
from lorestack.memory_layers.models import CriterionSpec

# twenty-third session: a change outside every file and folder a rule forbids changing is
# not asked by meaning (not only outside a kept folder); False: kept folders only
PATHS_OUTSIDE = True
_FILE_GATES = ("removed", "moved", "added", "changed", "created")


def file_globs(spec: CriterionSpec) -> list[str]:
    """The files and folders of a rule whose every forbidden term is an act on one of them
    (`added:path:X/**`, `changed:path:setup.py`), else [] (kept_folders.outside_files)."""
    gated = [gate_of(f) for f in spec.forbid]
    if not gated or any(g not in _FILE_GATES for g, _ in gated):
        return []
    globs = [path_term(t) for _, t in gated]
    return [g for g in globs if g] if all(globs) else []


def outside(spec: CriterionSpec, paths: list[str], text: str) -> bool:
    """Does a change name only paths outside every file and folder the rule guards?"""
    if PATHS_OUTSIDE:
        return outside_files(paths, file_globs(spec), text)
    return all_outside(paths, kept_globs(spec), text)


def kept_globs(spec: CriterionSpec) -> list[str]:
    """The folders of a rule that forbids only deleting or moving files there (kept_folders.py)."""
    gated = [gate_of(f) for f in spec.forbid]
    if not gated or any(g not in ("removed", "moved") for g, _ in gated):
        return []
    return [g for g in (path_term(t) for _, t in gated) if g]


def frozen_names(spec: CriterionSpec) -> list[str]:
    """The names of the folders a freeze on new things covers (`added:path:X/**`) that are
    also its keywords (freeze.py keeps everyday names like build or docs out of them)."""
    globs = [path_term(t) or "" for g, t in (gate_of(f) for f in spec.forbid) if g == "added"]
    names = [g.removesuffix("/**").rstrip("/").rsplit("/", 1)[-1].lower() for g in globs if g]
    keywords = {k.lower() for k in spec.applies_to.keywords}
    return [n for n in names if n in keywords]


FIXES_UNDER_FREEZE = True


def fix_under_freeze(outcome: RuleOutcome, spec: CriterionSpec, code: bool, text: str) -> RuleOutcome:
    """A guess left open under a freeze on new things (every forbidden term `added:` or
    `created:` a folder) by prose that only fixes (freeze.fix_only): kept."""
    gates = [gate_of(f) for f in spec.forbid]
    if (not FIXES_UNDER_FREEZE or outcome.status != "undecided" or code or not gates
            or any(g not in ("added", "created") for g, _ in gates)
            or not all((path_term(t) or "").endswith("/**") for _, t in gates)):
        return outcome
    said = fix_only(text)
    if said:
        outcome.status, outcome.exempted_by = "satisfied", "a fix"
        outcome.reason = f"under a freeze on new things, it only fixes ('{said[:60]}'): kept"
    return outcome


def new_case_under_freeze(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> str:
    """The line an edit of a file under a freeze on new things (`added:path:X/**`) adds to
    handle a new case without a definition (a new `elif`, a registry entry), else ''
    (twentieth session: such a feature passed a confirmed freeze as a fix would)."""
    if not prepared.change:
        return ""
    globs = [path_term(t) for g, t in (gate_of(f) for f in spec.forbid) if g == "added"]
    inside = [p for p in paths if p in prepared.existing and any(
        g is not None and glob_matches(g, p) for g in globs)]
    return new_case(prepared.text, prepared.replaced) if inside else ""
