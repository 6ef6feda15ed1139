"""What the resident service keeps parsed (`parse_cache` on): a folder's loaded criteria between
checks (guardrail/check.py _load_judged), so a criterion added, edited or removed is seen by the
very next check; and the item files it parsed, so `show ID` reads the one file with that id."""

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


def test_the_service_finds_an_item_by_id_without_parsing_every_file(mem, service_mode,
                                                                   monkeypatch):
    """`show ID` in the service went through every kept file (a quarter of a second at 10k
    items) to find one id. When every file of the store is kept as it is now (a listing and a
    stat each, no parse), the one kept with that id is read; a file added or edited since (it
    may carry the same id) makes it look through the files in order, parsing only what
    changed."""
    from lorestack.memory_layers.operations import forget, remember
    from lorestack.memory_layers.store import MemoryStore

    made = [remember(mem, f"fact number {n} about module_{n}", "fact") for n in range(5)]
    mem.load_items()  # the service has parsed the store (a list, a hook, a warm-up)
    parsed: list[str] = []
    real = MemoryStore._load_file

    def counting(self, path):
        parsed.append(path.name)
        return real(self, path)

    monkeypatch.setattr(MemoryStore, "_load_file", counting)
    target = made[2].item.id
    assert mem.get(target).item.title == "fact number 2 about module_2" and parsed == []
    path = made[2].path  # edited by hand: parsed again, alone
    path.write_text(path.read_text().replace("module_2", "module_two"))
    assert mem.get(target).item.title == "fact number 2 about module_two"
    assert parsed == [path.name]
    forget(mem, target, reason="moved on")  # moved to archive/: found all the same
    assert mem.get(target).item.status == "archived"
    fresh = remember(mem, "a fact the service never parsed", "fact").item.id
    assert mem.get(fresh).item.id == fresh
