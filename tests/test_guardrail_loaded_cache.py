"""The resident service keeps a folder's loaded criteria between checks (guardrail/check.py
_load_judged): a criterion added, edited or removed is seen by the very next check."""

from __future__ import annotations

import pytest


@pytest.fixture
def service_mode():
    from lorestack.memory_layers import parse_cache

    parse_cache.enable(True)
    yield
    parse_cache.enable(False)


def _ids(mem, text):
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text

    result = check(mem, from_text(text), retrieval=False, llm=False)
    return {f.id for f in result.violations + result.undecided}


def test_changes_to_criteria_reach_the_next_check(mem, service_mode):
    from lorestack.memory_layers.models import CriterionSpec
    from lorestack.memory_layers.operations import remember

    first = remember(mem, "Never use eval() on anything a user can send", "criterion",
                     criterion=CriterionSpec(forbid=["eval"], verdict="block")).item
    assert _ids(mem, "call eval on the request body") == {first.id}
    assert _ids(mem, "call eval on the request body") == {first.id}  # from the kept list
    second = remember(mem, "Never call pickle.loads on network data", "criterion",
                      criterion=CriterionSpec(forbid=["pickle"], verdict="block")).item
    assert _ids(mem, "call eval and pickle on the request body") == {first.id, second.id}
    path = next(p for p in (mem.project_store.paths.root / "criteria").iterdir()
                if first.id in p.read_text())
    path.write_text(path.read_text().replace("- eval", "- exec"))  # edited by hand
    assert _ids(mem, "call eval on the request body") == set()
    assert _ids(mem, "call exec on the request body") == {first.id}
    path.unlink()
    assert _ids(mem, "call exec and pickle on the request body") == {second.id}
