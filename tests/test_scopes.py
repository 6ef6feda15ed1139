"""Project items stay in their project; global preferences and criteria apply everywhere."""

from __future__ import annotations

from lorestack.memory_layers.listing import list_items
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember


def _titles(mem):
    return {i.title for i in list_items(mem).items}


def test_projects_are_isolated_and_global_is_shared(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for p in (a, b):
        p.mkdir()
        Memory.init(p)
    remember(Memory.open(a), "Project A uses Django 5", "fact")
    remember(Memory.open(b), "Project B uses Rails 7", "fact")
    remember(Memory.open(a, require_project=False), "Prefer small PRs", "preference", scope="global")
    titles_a, titles_b = _titles(Memory.open(a)), _titles(Memory.open(b))
    assert "Project A uses Django 5" in titles_a and "Project B uses Rails 7" not in titles_a
    assert "Project B uses Rails 7" in titles_b and "Project A uses Django 5" not in titles_b
    assert "Prefer small PRs" in titles_a and "Prefer small PRs" in titles_b


def test_project_item_overrides_global_with_same_title(repo):
    remember(Memory.open(repo), "Line length 120", "preference", title="Line length", scope="global")
    remember(Memory.open(repo), "Line length 88 here", "preference", title="Line length")
    prefs = [i for i in list_items(Memory.open(repo), item_type="preference").items if i.title == "Line length"]
    assert len(prefs) == 1 and prefs[0].scope == "project" and "88" in prefs[0].body


def test_walks_up_to_find_memory(repo):
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    assert Memory.open(cwd=deep).project.root == repo / ".memory"


def test_root_env_override(repo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LORESTACK_ROOT", str(repo))
    assert Memory.open().project.root == repo / ".memory"
