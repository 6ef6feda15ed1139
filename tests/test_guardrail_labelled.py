"""The labelled set (tests/guardrail_cases.py) through the deterministic path, on real files."""

from __future__ import annotations

import json

import pytest

from tests.conftest import isolated_env
from tests.guardrail_cases import CASES, CRITERIA


def _spec(raw: dict):
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec

    return CriterionSpec(
        applies_to=AppliesTo(
            paths=raw.get("paths", []),
            keywords=raw.get("keywords", []),
            topics=raw.get("topics", []),
        ),
        forbid=raw.get("forbid", []),
        require=raw.get("require", []),
        unless=raw.get("unless", []),
        verdict=raw.get("verdict", "warn"),
        rationale=raw.get("rationale", ""),
        condition="",
    )


def build_memory(base, *, skip_supersede: bool = False):
    """A project + global memory holding CRITERIA; returns (mem, key -> id)."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import forget, remember

    repo = base / "repo"
    repo.mkdir(parents=True)
    home = base / "home"
    Memory.init(repo)
    Memory.init(repo, global_=True, home=home)
    mem = Memory.open(repo, home=home)
    ids: dict[str, str] = {}
    for key, raw in CRITERIA.items():
        supersedes = raw.get("supersedes")
        written = remember(
            mem,
            raw["text"],
            "criterion",
            scope=raw.get("scope", "project"),
            criterion=_spec(raw["spec"]),
            supersedes=ids[supersedes] if supersedes and not skip_supersede else None,
        )
        ids[key] = written.item.id
        if raw.get("forget"):
            forget(mem, written.item.id, reason="we deploy any day now")
    return mem, ids


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    base = tmp_path_factory.mktemp("labelled")
    with isolated_env(base):
        return build_memory(base)


def make_proposal(raw, repo_dir):
    from lorestack.guardrail.proposals import Proposal, from_hook_payload, from_text

    if isinstance(raw, str):
        return from_text(raw)
    if "payload" in raw:
        payload = json.loads(json.dumps(raw["payload"]).replace("{repo}", str(repo_dir)))
        payload.setdefault("cwd", str(repo_dir))
        return from_hook_payload(payload, raw.get("client", "claude-code"), repo_dir=repo_dir)
    if "diff" in raw:  # a `git diff` with its headers, read as `check --diff` reads one
        return _from_git_diff_text(raw["diff"])
    return Proposal(source="diff", text=raw["text"], paths=raw["paths"], label="case diff")


def _from_git_diff_text(diff: str):
    """The proposal proposals.from_git_diff makes of `diff` (without running git)."""
    from lorestack.guardrail.proposals import (
        Proposal,
        created_in_diff,
        deleted_in_diff,
        moved_in_diff,
        parse_unified_diff,
        removed_in_diff,
        written_in_diff,
    )

    paths, added = parse_unified_diff(diff)
    created = created_in_diff(diff)
    return Proposal(source="diff", text="\n".join(added), paths=paths, label="case git diff",
                    existing=[p for p in paths if p not in created], deleted=deleted_in_diff(diff),
                    moved=moved_in_diff(diff), replaced=removed_in_diff(diff),
                    written=written_in_diff(diff))


def run_case(mem, raw):
    from lorestack.guardrail.check import check

    return check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)


def test_the_set_is_big_enough_and_has_the_classics():
    ids = {c[0].split("-")[0] for c in CASES}
    assert len(CASES) >= 40
    assert {"cron", "storage", "reuse", "infra", "superseded", "archived"} <= ids
    assert sum(1 for c in CASES if c[2] == "pass") >= 15  # look-alikes that must pass


@pytest.mark.parametrize("case_id,raw,expected,fired", CASES, ids=[c[0] for c in CASES])
def test_labelled_case(labelled, case_id, raw, expected, fired):
    mem, ids = labelled
    result = run_case(mem, raw)
    got = {f.id for f in result.violations}
    assert result.verdict == expected, [(f.id, f.reason, f.quote) for f in result.violations]
    assert got == {ids[k] for k in fired}
    for finding in result.violations:  # every verdict cites the rule, its date and reason
        assert finding.title and finding.set_on and finding.reason
        assert finding.judged_by == "rules"


def test_accuracy_on_the_labelled_set_is_total(labelled):
    mem, _ = labelled
    right = sum(run_case(mem, raw).verdict == expected for _, raw, expected, _ in CASES)
    assert right == len(CASES), f"deterministic accuracy {right}/{len(CASES)}"


def test_superseding_is_what_silences_the_old_rule(tmp_path):
    """Control for superseded-1: with the old criterion still active, it blocks."""
    mem, ids = build_memory(tmp_path / "control", skip_supersede=True)
    raw = next(c[1] for c in CASES if c[0] == "superseded-1")
    result = run_case(mem, raw)
    assert result.verdict == "block"
    assert {f.id for f in result.violations} == {ids["js_old"]}


def test_undecidable_criterion_is_only_a_note(labelled):
    mem, ids = labelled
    result = run_case(mem, "Rename the /users API endpoint to /accounts")
    assert result.verdict == "pass"
    assert [n.id for n in result.notes] == [ids["api_compat"]]
    assert result.notes[0].verdict == "note"
