"""What the twenty-first session's new-user walk found (fresh home and project, README's
commands, every reading command's --json, bad inputs)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_forgotten_event_is_found_by_the_short_id_it_was_forgotten_by(repo):
    """`forget 7k2m9 …` archived the event; then `show 7k2m9`, `done 7k2m9` and `forget 7k2m9`
    said "no memory item or event with id '7k2m9'" (the archive was searched by full id only),
    while an archived item's short id is found and the full id said "already archived"."""
    logged = _run("log", "todo: rotate the staging certs", "--kind", "todo", "--json")
    assert logged.exit_code == 0, logged.output
    event = json.loads(logged.stdout)["id"]
    short = event.partition("-")[2][:5]
    assert _run("forget", short, "--reason", "dup").exit_code == 0
    shown = _run("show", short)
    assert shown.exit_code == 0 and "rotate the staging certs" in shown.stdout, shown.output
    assert "forgotten" in shown.stdout
    for again in (_run("forget", short, "--reason", "dup"), _run("done", short)):
        assert again.exit_code == 1 and again.stderr.count("\n") == 1, again.output
        assert f"'{event}' is already archived" in again.stderr, again.output


def test_edit_with_no_editor_named_and_no_terminal_says_so(repo, monkeypatch):
    """With neither $VISUAL nor $EDITOR and no terminal (a script, an agent's shell), `edit`
    started the system's console editor: vim wrote its screen codes to stdout and the command
    ended with "sensible-editor: Editing failed"."""
    from tests.conftest import run_cli

    for var in ("VISUAL", "EDITOR"):
        monkeypatch.delenv(var, raising=False)
    made = _run("remember", "Refunds go through the ledger service", "--type", "decision",
                "--json")
    item = json.loads(made.stdout)["item"]["id"]
    path = next((repo / ".memory" / "decisions").glob("*.md"))
    before = path.read_bytes()
    done = run_cli("edit", item, input="", cwd=repo, timeout=120)
    assert done.returncode == 1 and done.stdout == "", done.stdout[:200]
    assert done.stderr.count("\n") == 1 and "$VISUAL" in done.stderr, done.stderr
    assert path.read_bytes() == before


def test_import_of_an_export_file_names_import_memory(repo, tmp_path):
    """`lorestack import` of what `lorestack export` wrote said "the sources hold no events"."""
    assert _run("remember", "Refunds go through the ledger service").exit_code == 0
    exported = _run("export")
    assert exported.exit_code == 0, exported.output
    dump = tmp_path / "memory.jsonl"
    dump.write_text(exported.stdout, "utf-8")
    done = _run("import", str(dump))
    assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
    assert f"lorestack import-memory {dump}" in done.stderr, done.stderr
