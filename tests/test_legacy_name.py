"""The rename from memstrata: what a user of the old name had is carried over once, and every
install hint names the distribution that pyproject.toml declares."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import tomllib
import yaml
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.core import legacy

REPO = Path(__file__).resolve().parents[1]
OLD_HOOK = "/home/me/.local/bin/memstrata hook session-start --client claude-code"


def _distribution() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["name"]


def test_the_distribution_command_and_import_package_share_the_new_name():
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert data["project"]["name"] == "lorestack"
    assert set(data["project"]["scripts"]) == {"lorestack"}
    assert all(not k.startswith(legacy.LEGACY_NAME) for k in
               data["tool"]["setuptools"]["package-dir"])


def test_every_install_hint_names_the_distribution():
    from lorestack.integrations import installers

    name = _distribution()
    hint = installers.portable_command("hook prompt --client claude-code")
    assert f"pipx install {name}" in hint and f"then {name} hook prompt" in hint
    from lorestack.guardrail import precommit

    portable = precommit.hook_command(portable=True)
    assert f"command -v {name}" in portable and f"{name} is not on PATH" in portable
    readme = (REPO / "README.md").read_text()
    assert f"pipx install {name}" in readme or f"uv tool install {name}" in readme
    # nothing outside the migration code still advises the old name
    out = subprocess.run(["git", "grep", "-il", legacy.LEGACY_NAME], cwd=REPO,
                         capture_output=True, text=True).stdout.split()
    allowed = {"lorestack/core/legacy.py", "tests/test_legacy_name.py", "CHANGELOG.md"}
    assert set(out) <= allowed, sorted(set(out) - allowed)


def test_old_home_moves_once_with_a_notice(tmp_path):
    home = tmp_path / "h"
    (home / ".memstrata" / "criteria").mkdir(parents=True)
    (home / ".memstrata" / "profile.md").write_text("mine\n")
    err = io.StringIO()
    assert legacy.migrate_legacy_home(home, environ={}, stderr=err) == "moved"
    assert (home / ".lorestack" / "profile.md").read_text() == "mine\n"
    assert not (home / ".memstrata").exists()
    assert "moved" in err.getvalue() and err.getvalue().count("\n") == 1
    assert legacy.migrate_legacy_home(home, environ={}, stderr=io.StringIO()) == ""


def test_old_home_is_never_merged_over_a_new_one(tmp_path):
    home = tmp_path / "h"
    (home / ".memstrata").mkdir(parents=True)
    (home / ".memstrata" / "profile.md").write_text("old\n")
    (home / ".lorestack").mkdir()
    (home / ".lorestack" / "profile.md").write_text("new\n")
    first, second = io.StringIO(), io.StringIO()
    assert legacy.migrate_legacy_home(home, environ={}, stderr=first) == "kept-both"
    assert legacy.migrate_legacy_home(home, environ={}, stderr=second) == "kept-both"
    assert (home / ".lorestack" / "profile.md").read_text() == "new\n"
    assert (home / ".memstrata" / "profile.md").read_text() == "old\n"
    assert "left as it is" in first.getvalue() and second.getvalue() == ""  # said once


def test_explicit_home_is_not_migrated(tmp_path):
    home = tmp_path / "h"
    (home / ".memstrata").mkdir(parents=True)
    env = {"LORESTACK_HOME": str(tmp_path / "elsewhere")}
    assert legacy.migrate_legacy_home(home, environ=env, stderr=io.StringIO()) == ""
    assert (home / ".memstrata").is_dir()


def test_old_variables_are_read_with_a_deprecation_warning(monkeypatch):
    monkeypatch.setattr(legacy, "_env_warned", False)
    env = {"MEMSTRATA_ROOT": "/a", "MEMSTRATA_HOOKS__DEADLINE_MS": "9", "LORESTACK_ROOT": "/b"}
    err = io.StringIO()
    seen = legacy.adopt_legacy_environment(env, stderr=err)
    assert seen == ["MEMSTRATA_HOOKS__DEADLINE_MS", "MEMSTRATA_ROOT"]
    assert env["LORESTACK_HOOKS__DEADLINE_MS"] == "9"
    assert env["LORESTACK_ROOT"] == "/b"  # the new name wins
    assert "deprecated" in err.getvalue() and err.getvalue().count("\n") == 1
    # two names: "are deprecated: rename them" (trial2 finding: "A, B is deprecated")
    assert "MEMSTRATA_ROOT are deprecated: rename them to LORESTACK_" in err.getvalue()


def test_a_whole_process_with_the_old_variable_and_home(tmp_path, isolated):
    """As a user of the old name sees the first run: the home moves, the variable is read."""
    home = tmp_path / "home"
    (home / ".memstrata").mkdir()
    (home / ".memstrata" / "profile.md").write_text("---\n---\nprefers small PRs\n")
    env = {k: v for k, v in __import__("os").environ.items()
           if not k.startswith("LORESTACK_HOME")}
    env["MEMSTRATA_SERVICE__ENABLED"] = "false"
    done = subprocess.run([sys.executable, "-m", "lorestack.cli", "--version"], env=env,
                          capture_output=True, text=True, cwd=isolated, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "MEMSTRATA_SERVICE__ENABLED is deprecated" in done.stderr
    assert f"moved {home / '.memstrata'} to {home / '.lorestack'}" in done.stderr
    assert (home / ".lorestack" / "profile.md").exists()


def test_install_replaces_an_old_claude_code_hook(isolated):
    settings = isolated / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": OLD_HOOK, "timeout": 10}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}))
    result = CliRunner().invoke(cli, ["install", "claude-code", "--scope", "project"])
    assert result.exit_code == 0, result.output
    text = settings.read_text()
    assert legacy.LEGACY_NAME not in text
    assert "lorestack hook session-start --client claude-code" in text
    assert "say done" in text
    result = CliRunner().invoke(cli, ["uninstall", "claude-code", "--scope", "project"])
    assert result.exit_code == 0, result.output
    assert "lorestack" not in settings.read_text() and "say done" in settings.read_text()


def test_uninstall_removes_an_old_hook_alone(isolated):
    settings = isolated / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": OLD_HOOK}]}]}}))
    result = CliRunner().invoke(cli, ["uninstall", "claude-code", "--scope", "project"])
    assert result.exit_code == 0, result.output
    # the file held nothing else, so an exact uninstall leaves none
    assert not settings.exists() or legacy.LEGACY_NAME not in settings.read_text()
    assert "removed" in result.output


def test_install_cron_replaces_the_old_line(isolated, tmp_path, monkeypatch):
    from tests.test_cron import fake_crontab

    repo_dir = str(isolated.resolve())
    assert CliRunner().invoke(cli, ["init"]).exit_code == 0
    old = (f"0 3 * * * cd {repo_dir} && /old/bin/memstrata consolidate --no-diff >> x 2>&1 "
           f"# memstrata-consolidate {repo_dir}\n")
    store = fake_crontab(tmp_path, monkeypatch, existing="MAILTO=me\n" + old)
    result = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "cron"])
    assert result.exit_code == 0, result.output
    lines = store.read_text().splitlines()
    assert lines[0] == "MAILTO=me" and len(lines) == 2
    assert legacy.LEGACY_NAME not in lines[1] and lines[1].endswith(
        f"# lorestack-consolidate {repo_dir}")
    store.write_text("MAILTO=me\n" + old)
    assert CliRunner().invoke(cli, ["uninstall", "cron", "--scheduler", "cron"]).exit_code == 0
    assert store.read_text().splitlines() == ["MAILTO=me"]


def test_precommit_blocks_of_the_old_name_are_replaced_and_removed(isolated):
    subprocess.run(["git", "init", "-q"], cwd=isolated, check=True)
    assert CliRunner().invoke(cli, ["init"]).exit_code == 0
    hook = isolated / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\n# >>> memstrata guardrail >>>\nmemstrata check --staged || exit $?\n"
                    "# <<< memstrata guardrail <<<\necho mine\n")
    hook.chmod(0o755)
    assert CliRunner().invoke(cli, ["install", "pre-commit"]).exit_code == 0
    text = hook.read_text()
    assert legacy.LEGACY_NAME not in text and "# >>> lorestack guardrail >>>" in text
    assert "echo mine" in text and text.count("# >>> lorestack guardrail >>>") == 1
    config = isolated / ".pre-commit-config.yaml"
    config.write_text("repos:\n# >>> memstrata guardrail >>>\n- repo: local\n  hooks:\n"
                      "  - id: memstrata-check\n    name: x\n    entry: memstrata check --staged\n"
                      "    language: system\n# <<< memstrata guardrail <<<\n")
    assert CliRunner().invoke(cli, ["install", "pre-commit", "--framework"]).exit_code == 0
    data = yaml.safe_load(config.read_text())
    assert legacy.LEGACY_NAME not in config.read_text()
    assert data["repos"][0]["hooks"][0]["id"] == "lorestack-check"
    config.write_text(config.read_text().replace("lorestack", "memstrata"))
    assert CliRunner().invoke(cli, ["uninstall", "pre-commit", "--framework"]).exit_code == 0
    assert not config.exists()


def test_bench_files_of_the_old_format_name_are_read(tmp_path):
    from lorestack.bench.dataset import parse_line

    line = {"format": "memstrata-bench/1", "name": "x",
            "events": [{"id": "e1", "time": "2024-01-01T10:00:00", "text": "A: hi"}],
            "questions": [{"id": "q1", "question": "hi?", "answer": "hi", "evidence": ["e1"],
                           "time": "2024-01-02T10:00:00"}]}
    assert parse_line(json.dumps(line), "x:1").name == "x"


def test_an_index_written_under_the_old_name_keeps_its_vectors(repo):
    """The local Chroma collection was named after the tool: it is renamed, not emptied."""
    import chromadb

    from lorestack.retrieval.vectors import chroma_settings

    result = CliRunner().invoke(cli, ["remember", "Invoices are rendered with WeasyPrint",
                                      "--type", "decision"])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(cli, ["reindex"]).exit_code == 0
    folder = repo / ".memory" / ".index" / "chroma"
    client = chromadb.PersistentClient(path=str(folder), settings=chroma_settings())
    client.get_collection("lorestack").modify(name=legacy.LEGACY_NAME)
    assert client.get_collection(legacy.LEGACY_NAME).count() > 0
    del client
    from lorestack.retrieval.vectors import forget_cached_system

    forget_cached_system(folder)
    found = CliRunner().invoke(cli, ["search", "which library renders the invoice PDF",
                                     "--mode", "vector", "--json"])
    assert found.exit_code == 0, found.output
    assert "WeasyPrint" in found.stdout


def test_a_journal_written_under_the_old_name_is_read_forgotten_and_kept(repo):
    """Day files keep their entries' markers: old ones are read, and new ones written beside."""
    day = repo / ".memory" / "journal" / "2026-11-30.md"
    day.write_text(
        "# Journal 2026-11-30\n\n"
        "## 09:15 · decision · ev-old00001\n"
        '<!-- memstrata:event {"schema": 1, "id": "ev-old00001", "time": '
        '"2026-11-30T09:15:00Z", "kind": "decision", "tags": [], "source": "user"} -->\n'
        "We keep the invoice renderer on WeasyPrint\n"
        "<!-- /memstrata:event ev-old00001 -->\n\n"
        "## 10:00 · note · ev-old00002\n"
        '<!-- memstrata:event {"schema": 1, "id": "ev-old00002", "time": '
        '"2026-11-30T10:00:00Z", "kind": "note", "tags": [], "source": "user"} -->\n'
        "Lunch was late\n"
        "<!-- /memstrata:event ev-old00002 -->\n\n")
    listed = json.loads(CliRunner().invoke(cli, ["list", "--type", "event", "--json"]).stdout)
    assert {e["id"] for e in listed} == {"ev-old00001", "ev-old00002"}
    assert CliRunner().invoke(cli, ["forget", "ev-old00002", "--reason", "noise"]).exit_code == 0
    kept = day.read_text()
    assert "ev-old00002" not in kept and "<!-- /memstrata:event ev-old00001 -->" in kept
    found = CliRunner().invoke(cli, ["search", "WeasyPrint", "--mode", "bm25", "--json"])
    assert "ev-old00001" in found.stdout


def test_an_export_of_the_old_name_imports(tmp_path, isolated):
    exported = CliRunner().invoke(cli, ["init"])
    assert exported.exit_code == 0
    CliRunner().invoke(cli, ["remember", "Releases are tagged on main", "--type", "fact"])
    out = CliRunner().invoke(cli, ["export"])
    assert out.exit_code == 0, out.output
    old = out.stdout.replace('"format": "lorestack-export"', '"format": "memstrata-export"', 1)
    assert '"memstrata-export"' in old
    target = tmp_path / "other"
    target.mkdir()
    from lorestack.memory_layers.memory import Memory

    Memory.init(target)
    (tmp_path / "old.jsonl").write_text(old)
    done = CliRunner().invoke(cli, ["--root", str(target), "import-memory", str(tmp_path / "old.jsonl")])
    assert done.exit_code == 0, done.output


def test_install_cron_replaces_an_old_systemd_timer(repo, tmp_path, monkeypatch):
    from pathlib import Path

    from tests.test_cron import FAKE_SYSTEMCTL, _script

    log = tmp_path / "systemctl.log"
    monkeypatch.setenv("LORESTACK_SYSTEMCTL", str(_script(tmp_path / "systemctl", FAKE_SYSTEMCTL,
                                                          log=str(log))))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    result = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "systemd", "--json"])
    assert result.exit_code == 0, result.output
    timer = Path(next(f for f in json.loads(result.output)["files"] if f.endswith(".timer")))
    old_timer = timer.with_name(timer.name.replace("lorestack", legacy.LEGACY_NAME))
    old_service = old_timer.with_suffix(".service")
    old_timer.write_text("[Timer]\n")
    old_service.write_text("[Service]\nExecStart=/old/bin/x consolidate\n")
    again = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "systemd", "--at", "04:00"])
    assert again.exit_code == 0, again.output
    assert not old_timer.exists() and not old_service.exists() and timer.exists()
    assert f"--user disable --now {old_timer.name}" in log.read_text()
    old_timer.write_text("[Timer]\n")
    assert CliRunner().invoke(cli, ["uninstall", "cron", "--scheduler", "systemd"]).exit_code == 0
    assert not old_timer.exists() and not timer.exists()
