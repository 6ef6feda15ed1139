"""`lorestack install cron` / `uninstall cron` against fake crontab/systemctl commands."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli

FAKE_CRONTAB = """#!{python}
import sys, pathlib
store = pathlib.Path({store!r})
if sys.argv[1] == "-l":
    if not store.exists():
        sys.stderr.write("no crontab for tester\\n"); sys.exit(1)
    sys.stdout.write(store.read_text())
elif sys.argv[1] == "-":
    store.write_text(sys.stdin.read())
"""

FAKE_SYSTEMCTL = """#!{python}
import sys, pathlib
with open({log!r}, "a") as fh:
    fh.write(" ".join(sys.argv[1:]) + "\\n")
enabled = pathlib.Path({log!r} + ".enabled")
if sys.argv[2:4] == ["enable", "--now"]:
    enabled.write_text(sys.argv[4])
elif sys.argv[2:3] == ["disable"]:
    enabled.unlink(missing_ok=True)
elif sys.argv[2:3] == ["is-enabled"]:
    on = enabled.exists() and enabled.read_text() == sys.argv[3]
    print("enabled" if on else "disabled"); sys.exit(0 if on else 1)
"""

# a machine without a user session bus (containers, ssh without lingering)
NO_BUS_SYSTEMCTL = """#!{python}
import sys
sys.stderr.write("Failed to connect to bus: No medium found\\n"); sys.exit(1)
"""


def _script(path: Path, template: str, **values) -> Path:
    path.write_text(template.format(python=sys.executable, **values))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def fake_crontab(tmp_path, monkeypatch, existing: str | None = None) -> Path:
    store = tmp_path / "crontab.txt"
    if existing is not None:
        store.write_text(existing)
    monkeypatch.setenv("LORESTACK_CRONTAB", str(_script(tmp_path / "crontab", FAKE_CRONTAB,
                                                         store=str(store))))
    return store


def test_install_is_idempotent_and_uninstall_exact(repo, tmp_path, monkeypatch):
    other = "0 5 * * * /usr/bin/backup --all\nMAILTO=me@example.com\n"
    store = fake_crontab(tmp_path, monkeypatch, existing=other)
    runner = CliRunner()
    first = runner.invoke(cli, ["install", "cron", "--at", "02:30", "--scheduler", "cron", "--json"])
    assert first.exit_code == 0, first.output
    result = json.loads(first.output)
    assert result["changed"] is True
    lines = store.read_text().splitlines()
    assert lines[:2] == other.splitlines()
    ours = lines[2]
    repo_dir = str(repo.resolve())
    assert ours.startswith("30 2 * * * cd ") and repo_dir in ours
    exe = ours.split(" && ")[1].split(" ")[0]
    assert os.path.isabs(exe) and exe.endswith("lorestack") and " consolidate --no-diff" in ours
    assert ours.endswith(f"# lorestack-consolidate {repo_dir}")

    again = runner.invoke(cli, ["install", "cron", "--at", "02:30", "--scheduler", "cron", "--json"])
    assert json.loads(again.output)["changed"] is False
    assert store.read_text().splitlines() == lines

    moved = runner.invoke(cli, ["install", "cron", "--at", "04:05", "--scheduler", "cron"])
    assert moved.exit_code == 0, moved.output
    lines = store.read_text().splitlines()
    assert len(lines) == 3 and lines[2].startswith("5 4 * * * ")

    dry = runner.invoke(cli, ["uninstall", "cron", "--scheduler", "cron", "--dry-run"])
    assert "would remove" in dry.output and len(store.read_text().splitlines()) == 3
    gone = runner.invoke(cli, ["uninstall", "cron", "--scheduler", "cron"])
    assert gone.exit_code == 0 and "removed" in gone.output
    assert store.read_text() == other
    nothing = runner.invoke(cli, ["uninstall", "cron", "--scheduler", "cron"])
    assert "nothing to remove" in nothing.output and store.read_text() == other


def test_dry_run_and_empty_crontab(repo, tmp_path, monkeypatch):
    store = fake_crontab(tmp_path, monkeypatch)
    runner = CliRunner()
    dry = runner.invoke(cli, ["install", "cron", "--scheduler", "cron", "--dry-run"])
    assert dry.exit_code == 0 and "would install" in dry.output and "17 3 * * *" in dry.output
    assert not store.exists()
    runner.invoke(cli, ["install", "cron", "--scheduler", "cron"])
    assert len(store.read_text().splitlines()) == 1
    bad = runner.invoke(cli, ["install", "cron", "--scheduler", "cron", "--at", "25:00"])
    assert bad.exit_code == 1 and "HH:MM" in bad.output and "Traceback" not in bad.output


def test_two_projects_keep_their_own_lines(repo, tmp_path, monkeypatch):
    from lorestack.memory_layers.memory import Memory

    store = fake_crontab(tmp_path, monkeypatch)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    runner = CliRunner()
    runner.invoke(cli, ["install", "cron", "--scheduler", "cron"])
    runner.invoke(cli, ["--root", str(other), "install", "cron", "--scheduler", "cron"])
    assert len(store.read_text().splitlines()) == 2
    runner.invoke(cli, ["uninstall", "cron", "--scheduler", "cron"])
    remaining = store.read_text().splitlines()
    assert len(remaining) == 1 and remaining[0].endswith(str(other.resolve()))


def test_systemd_user_timer(repo, tmp_path, monkeypatch):
    log = tmp_path / "systemctl.log"
    monkeypatch.setenv("LORESTACK_SYSTEMCTL", str(_script(tmp_path / "systemctl", FAKE_SYSTEMCTL,
                                                          log=str(log))))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    done = runner.invoke(cli, ["install", "cron", "--scheduler", "systemd", "--at", "01:02", "--json"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    timer = Path(next(f for f in result["files"] if f.endswith(".timer")))
    service = timer.with_suffix(".service")
    assert "OnCalendar=*-*-* 01:02:00" in timer.read_text()
    assert f"WorkingDirectory={repo.resolve()}" in service.read_text()
    assert "consolidate --no-diff" in service.read_text()
    assert f"--user enable --now {timer.name}" in log.read_text()
    again = runner.invoke(cli, ["install", "cron", "--scheduler", "systemd", "--at", "01:02", "--json"])
    assert json.loads(again.output)["changed"] is False
    removed = runner.invoke(cli, ["uninstall", "cron", "--scheduler", "systemd"])
    assert removed.exit_code == 0 and not timer.exists() and not service.exists()
    assert f"--user disable --now {timer.name}" in log.read_text()


def test_launchd_plist_dry_run(repo):
    import plistlib

    from lorestack.consolidation.cron import launchd_plist

    data = plistlib.loads(launchd_plist(repo.resolve(), repo / "x.log", "03:17"))
    assert data["StartCalendarInterval"] == {"Hour": 3, "Minute": 17}
    assert data["ProgramArguments"][-2:] == ["consolidate", "--no-diff"]
    assert os.path.isabs(data["ProgramArguments"][0])
    assert data["WorkingDirectory"] == str(repo.resolve())


def test_systemd_without_a_bus_changes_nothing_and_is_never_called_installed(repo, tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("LORESTACK_SYSTEMCTL", str(_script(tmp_path / "systemctl", NO_BUS_SYSTEMCTL)))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    for _ in range(2):  # the second run must not claim "already installed"
        done = runner.invoke(cli, ["install", "cron", "--scheduler", "systemd"])
        assert done.exit_code == 1, done.output
        assert "Failed to connect to bus" in done.output and "nothing was installed" in done.output
        assert "Traceback" not in done.output
        assert not (tmp_path / "config" / "systemd").exists()


def test_systemd_timer_files_present_but_not_enabled_is_not_installed(repo, tmp_path, monkeypatch):
    log = tmp_path / "systemctl.log"
    monkeypatch.setenv("LORESTACK_SYSTEMCTL", str(_script(tmp_path / "systemctl", FAKE_SYSTEMCTL,
                                                          log=str(log))))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "cron", "--scheduler", "systemd"]).exit_code == 0
    Path(str(log) + ".enabled").unlink()  # someone ran `systemctl --user disable`
    again = runner.invoke(cli, ["install", "cron", "--scheduler", "systemd"])
    assert again.output.startswith("installed (systemd)"), again.output
    assert log.read_text().count("enable --now") == 2


def test_dry_run_shows_the_content_that_would_be_written(repo, tmp_path, monkeypatch):
    store = fake_crontab(tmp_path, monkeypatch)
    dry = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "cron", "--dry-run", "--at", "04:05"])
    assert "--- crontab" in dry.output
    assert "5 4 * * * cd " in dry.output and "consolidate --no-diff" in dry.output
    assert not store.exists()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    dry = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "systemd", "--dry-run",
                                   "--at", "04:05"])
    assert "OnCalendar=*-*-* 04:05:00" in dry.output and "ExecStart=" in dry.output
    assert "[Install]" in dry.output and not (tmp_path / "config").exists()


def test_a_crontab_line_without_a_cron_daemon_is_not_called_installed(repo, tmp_path, monkeypatch):
    from lorestack.consolidation import cron

    fake_crontab(tmp_path, monkeypatch)
    procs = tmp_path / "proc"
    (procs / "1").mkdir(parents=True)
    (procs / "1" / "comm").write_text("systemd\n")
    monkeypatch.setattr(cron, "PROC_ROOT", procs)
    done = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "cron"])
    assert done.exit_code == 0
    assert done.stdout.startswith("installed but not running (cron)")
    assert "no cron daemon is running" in done.stderr
    (procs / "2").mkdir()
    (procs / "2" / "comm").write_text("cron\n")
    again = CliRunner().invoke(cli, ["install", "cron", "--scheduler", "cron"])
    assert again.stdout.startswith("already installed (cron)") and "no cron daemon" not in again.stderr


def test_install_cron_warns_of_what_only_this_shell_gives_the_job(repo, tmp_path, monkeypatch):
    """Trial finding: with the LLM's key (llm.api_key_env) or LORESTACK_* settings in the
    shell only, `install cron` said nothing, and the nightly job (cron, a systemd user timer,
    launchd: the scheduler's environment) ran without them. Now it names them; --json too."""
    fake_crontab(tmp_path, monkeypatch)
    (repo / ".memory" / "config.toml").write_text(
        '[llm]\nmodel = "openai/fake-model"\napi_key_env = "TRIAL_LLM_KEY"\n')
    monkeypatch.setenv("TRIAL_LLM_KEY", "sk-test")
    monkeypatch.setenv("LORESTACK_LOADER__BUDGET", "900")
    runner = CliRunner()
    dry = runner.invoke(cli, ["install", "cron", "--scheduler", "cron", "--dry-run"])
    assert dry.exit_code == 0
    warnings = [line for line in dry.stderr.splitlines() if line.startswith("warning:")]
    assert any("LORESTACK_LOADER__BUDGET" in w and "config.toml" in w for w in warnings)
    assert any("TRIAL_LLM_KEY" in w for w in warnings)
    as_json = runner.invoke(cli, ["install", "cron", "--scheduler", "cron", "--dry-run", "--json"])
    listed = json.loads(as_json.stdout)["warnings"]
    assert any("TRIAL_LLM_KEY" in w for w in listed)
    monkeypatch.delenv("TRIAL_LLM_KEY")
    monkeypatch.delenv("LORESTACK_LOADER__BUDGET")
    quiet = runner.invoke(cli, ["install", "cron", "--scheduler", "cron", "--dry-run", "--json"])
    assert not any("TRIAL_LLM_KEY" in w or "LOADER__BUDGET" in w
                   for w in json.loads(quiet.stdout)["warnings"])
