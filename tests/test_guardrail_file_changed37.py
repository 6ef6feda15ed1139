"""A required file the proposal changes is present (thirty-seventh session): "Every PR must
update CHANGELOG.md" asked about a diff of CHANGELOG.md, since the file's name is not in its
own added lines. A proposal that names the file only to leave it alone, or does not touch it,
is still asked about; a confirmed rule blocks a PR opened without it. Real files, the real
MiniLM model."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail import file_written as rules
from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import Proposal, from_git_diff, from_hook_payload
from tests import heldout_eval as E
from tests.conftest import isolated_env

CRITERIA = {
    "changelog": ("Every PR must update CHANGELOG.md", "block"),
    "dbt": ("Every new dbt model needs an owner and a description in its schema.yml", "block"),
}


@pytest.fixture(scope="module", params=[False, True], ids=["guessed", "confirmed"])
def store(request, tmp_path_factory):
    base = tmp_path_factory.mktemp("changelog")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=request.param)
        yield mem, ids, request.param


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


def _diff(repo, path: str, added: str, before: str = "# Changelog\n") -> Proposal:
    """The staged diff as `check --staged` reads it: its added lines and its paths."""
    _git(repo, "init", "-q")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(before)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init")
    (repo / path).write_text(f"# Changelog\n{added}\n" if added else "# Changelog\n")
    _git(repo, "add", "-A")
    return from_git_diff(repo, staged=True)


@pytest.mark.parametrize("path", ["vendor/requests/CHANGELOG.md",
                                  "web/node_modules/left-pad/CHANGELOG.md"])
def test_a_vendored_copy_of_the_file_is_not_the_projects(store, path, tmp_path):
    """Thirty-eighth session: a line added to another project's CHANGELOG.md kept the rule."""
    mem, ids, _confirmed = store
    proposal = _diff(tmp_path, path, "- Fixed the retry loop in the HTTP client")
    assert proposal.written == [path]
    assert E.answer(check(mem, proposal, retrieval=False, llm=False), ids["changelog"]) != "pass"


@pytest.mark.parametrize("path", ["CHANGELOG.md", "docs/CHANGELOG.md", "changelog.md"])
def test_a_diff_of_the_required_file_keeps_the_rule(store, path, tmp_path):
    mem, ids, _confirmed = store
    crit = ids["changelog"]
    proposal = _diff(tmp_path, path, "- Fixed the retry loop in the HTTP client")
    assert "CHANGELOG" not in proposal.text.upper() and proposal.paths == [path]
    result = check(mem, proposal, retrieval=False, llm=False)
    assert E.answer(result, crit) == "pass", result
    rules.FILE_CHANGED = False
    try:
        before = check(mem, proposal, retrieval=False, llm=False)
    finally:
        rules.FILE_CHANGED = True
    assert E.answer(before, crit) != "pass"  # what it answered before: asked


@pytest.mark.parametrize("proposal", [
    Proposal(text="gh pr create --fill  # CHANGELOG.md untouched"),
    Proposal(text="gh pr create --title 'Fix the retry loop' --fill"),
])
def test_a_pr_without_the_file_is_still_asked_or_blocked(store, proposal):
    mem, ids, confirmed = store
    answer = E.answer(check(mem, proposal, retrieval=False, llm=False), ids["changelog"])
    assert answer in (("block",) if confirmed else ("undecided",)), answer


def test_a_diff_that_only_takes_an_entry_out_is_still_asked(store, tmp_path):
    mem, ids, _confirmed = store
    proposal = _diff(tmp_path, "CHANGELOG.md", "", before="# Changelog\n- Added CSV export\n")
    assert proposal.paths == ["CHANGELOG.md"] and "CSV" not in proposal.text
    answer, before = _with_and_without(mem, proposal, ids["changelog"])
    assert answer == before != "pass"


def test_a_file_that_is_only_the_place_of_what_is_required_is_not_enough(store, tmp_path):
    """"… needs an owner and a description in its schema.yml" drafts `require: schema.yml`; a
    schema.yml without either is no update of what the rule wants (review28 r28c2-own-v1)."""
    mem, ids, confirmed = store
    (tmp_path / "dbt").mkdir()
    _git(tmp_path, "init", "-q")
    (tmp_path / "dbt" / "README.md").write_text("models\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "init")
    (tmp_path / "dbt" / "schema.yml").write_text("  - name: fct_refunds\n    columns:\n"
                                                 "      - name: refund_id\n")
    _git(tmp_path, "add", "-A")
    proposal = from_git_diff(tmp_path, staged=True)
    answer, before = _with_and_without(mem, proposal, ids["dbt"])
    assert answer == before and (answer != "pass" or not confirmed)


def _with_and_without(mem, proposal, crit) -> tuple[str, str]:
    """The answer with the rule, and as before it."""
    answer = E.answer(check(mem, proposal, retrieval=False, llm=False), crit)
    rules.FILE_CHANGED = False
    try:
        return answer, E.answer(check(mem, proposal, retrieval=False, llm=False), crit)
    finally:
        rules.FILE_CHANGED = True


def _staged(repo, files: dict[str, str], changes: dict[str, str | None]) -> Proposal:
    """Commit `files`, then stage `changes` (None: `git mv` to HISTORY.md)."""
    _git(repo, "init", "-q")
    for name, text in files.items():
        (repo / name).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init")
    for name, text in changes.items():
        if text is None:
            _git(repo, "mv", name, "HISTORY.md")
        else:
            (repo / name).write_text(text)
    _git(repo, "add", "-A")
    return from_git_diff(repo, staged=True)


@pytest.mark.parametrize("changes", [
    {"CHANGELOG.md": "# Changelog\n", "app.py": "x = 1\nprint(x)\n"},  # out of it, code added
    {"CHANGELOG.md": None, "app.py": "x = 1\nprint(x)\n"},  # renamed away, code added
], ids=["lines-taken-out", "renamed"])
def test_lines_added_to_another_file_are_no_update_of_it(store, tmp_path, changes):
    """The review's cases: the lines a change adds must be in the required file itself."""
    mem, ids, _confirmed = store
    proposal = _staged(tmp_path, {"CHANGELOG.md": "# Changelog\n- Added CSV export\n",
                                  "app.py": "x = 1\n"}, changes)
    assert "CHANGELOG.md" not in proposal.written and "app.py" in proposal.written
    answer, before = _with_and_without(mem, proposal, ids["changelog"])
    assert answer == before != "pass"


def test_an_edit_of_the_file_adding_a_line_keeps_the_rule_and_one_taking_a_line_out_does_not(
        store, tmp_path):
    mem, ids, _confirmed = store
    target = str(tmp_path / "CHANGELOG.md")
    (tmp_path / "CHANGELOG.md").write_text("## 1.4\n- Added CSV export\n")

    def edit(old: str, new: str) -> Proposal:
        return from_hook_payload({"tool_name": "Edit", "cwd": str(tmp_path), "tool_input": {
            "file_path": target, "old_string": old, "new_string": new}}, repo_dir=tmp_path)

    adds = edit("## 1.4\n", "## 1.4\n- Fixed the retry loop\n")
    assert adds.written == ["CHANGELOG.md"]
    assert E.answer(check(mem, adds, retrieval=False, llm=False), ids["changelog"]) == "pass"
    takes_out = edit("## 1.4\n- Added CSV export\n", "## 1.4\n")
    assert takes_out.written == []
    answer, before = _with_and_without(mem, takes_out, ids["changelog"])
    assert answer == before != "pass"

    def write(content: str) -> Proposal:
        return from_hook_payload({"tool_name": "Write", "cwd": str(tmp_path), "tool_input": {
            "file_path": target, "content": content}}, repo_dir=tmp_path)

    assert write("## 1.4\n- Added CSV export\n- Fixed the retry loop\n").written == ["CHANGELOG.md"]
    assert write("## 1.4\n").written == []  # the file rewritten without an entry
    assert write("## 1.4\n\n- Added CSV export\n").written == []  # a blank line is no entry


def test_a_diff_writes_a_file_only_with_a_line_it_did_not_hold():
    from lorestack.guardrail.diff_headers import written_in_diff

    def diff(path, *lines):
        return f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,2 +1,2 @@\n" + (
            "\n".join(lines) + "\n")

    assert written_in_diff(diff("CHANGELOG.md", "+- Fixed the retry loop")) == ["CHANGELOG.md"]
    assert written_in_diff(diff("CHANGELOG.md", "-- Added CSV export", "+")) == []  # blank left
    assert written_in_diff(diff("CHANGELOG.md", "-- Added CSV export", "+- Added CSV export")) == []
    both = diff("CHANGELOG.md", "-- Added CSV export") + diff("app.py", "+print(1)")
    assert written_in_diff(both) == ["app.py"]


def _codex_patch(tmp_path, *sections: str, argv: bool = False) -> Proposal:
    """A Codex apply_patch call as its PreToolUse hook sends it (`input`, or the argv form)."""
    patch = "*** Begin Patch\n" + "\n".join(sections) + "\n*** End Patch"
    tool_input = {"command": ["apply_patch", patch]} if argv else {"input": patch}
    return from_hook_payload({"tool_name": "apply_patch", "cwd": str(tmp_path),
                              "tool_input": tool_input}, client="codex", repo_dir=tmp_path)


@pytest.mark.parametrize("argv", [False, True], ids=["input", "argv"])
def test_a_codex_patch_of_several_files_writes_the_files_it_adds_lines_to(store, tmp_path, argv):
    """Thirty-eighth session: a patch of several files wrote none (its lines were not told
    apart by file), so "Every PR must update CHANGELOG.md" asked about a patch adding an
    entry to CHANGELOG.md beside the fix."""
    mem, ids, _confirmed = store
    (tmp_path / "src").mkdir()
    (tmp_path / "src/http.py").write_text("def retry():\n    time.sleep(1)\n")
    (tmp_path / "CHANGELOG.md").write_text("## Unreleased\n- Added CSV export\n")
    fix = ("*** Update File: src/http.py\n@@ def retry():\n-    time.sleep(1)\n"
           "+    time.sleep(backoff)")
    entry = "*** Update File: CHANGELOG.md\n@@ ## Unreleased\n+- Fixed the retry loop"
    both = _codex_patch(tmp_path, fix, entry, argv=argv)
    assert sorted(both.written) == ["CHANGELOG.md", "src/http.py"]
    answer, before = _with_and_without(mem, both, ids["changelog"])
    assert answer == "pass" and before != "pass"

    out = _codex_patch(tmp_path, fix, "*** Update File: CHANGELOG.md\n@@\n-- Added CSV export",
                       argv=argv)  # the entry taken out: CHANGELOG.md is not written
    assert out.written == ["src/http.py"]
    assert E.answer(check(mem, out, retrieval=False, llm=False), ids["changelog"]) != "pass"


def test_patch_sections_are_read_per_file():
    from lorestack.guardrail.written_lines import patch_written

    def patch(*sections):
        return {"input": "*** Begin Patch\n" + "\n".join(sections) + "\n*** End Patch"}

    assert patch_written(patch("*** Add File: docs/new.md\n+# New", "*** Delete File: old.py")) \
        == ["docs/new.md"]
    moved = "*** Update File: a.py\n*** Move to: b.py\n@@\n-x = 1\n+x = 2"
    assert patch_written(patch(moved)) == ["b.py"]
    same = "*** Update File: CHANGELOG.md\n@@\n-- Added CSV export\n+- Added CSV export"
    assert patch_written(patch(same, "*** Update File: app.py\n@@\n+")) == []  # moved, blank
    assert patch_written({"command": "git status"}) == []


def test_patch_names_are_read_as_the_judged_paths_are(tmp_path):
    """A review of the thirty-eighth session: from a folder below the root, `./a.py` in the
    patch and the judged path `sub/a.py` were compared unnormalised (`sub/./a.py`), and
    nothing was written."""
    (tmp_path / "sub").mkdir()
    patch = ("*** Begin Patch\n*** Update File: ./a.py\n@@\n+x = 2\n"
             "*** Update File: \"./CHANGELOG.md\"\n@@\n+- Fixed x\n*** End Patch")
    p = from_hook_payload({"tool_name": "apply_patch", "cwd": str(tmp_path / "sub"),
                           "tool_input": {"input": patch}}, client="codex", repo_dir=tmp_path)
    assert sorted(p.paths) == ["sub/CHANGELOG.md", "sub/a.py"]
    assert sorted(p.written) == ["sub/CHANGELOG.md", "sub/a.py"]
