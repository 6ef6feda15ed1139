"""edit (validate on save, re-index), restore (links kept), export / import-memory (exact)."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli


def run(*args, input=None, env=None, code=0):
    result = CliRunner(env=env).invoke(cli, list(args), input=input)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def editor(tmp_path: Path, old: str, new: str) -> dict:
    """An $EDITOR that replaces `old` with `new` in the file it is given."""
    script = tmp_path / "fake-editor"
    script.write_text(
        f"#!{sys.executable}\nimport sys, pathlib\np = pathlib.Path(sys.argv[-1])\n"
        f"p.write_text(p.read_text().replace({old!r}, {new!r}))\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {"EDITOR": str(script), "VISUAL": str(script)}


def _fresh_project_with_export(tmp_path, monkeypatch, exported: str):
    """A second project, freshly initialised (its own card removed: the export brings one),
    and the export written to a file: (its folder, the file)."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    run("init")
    (other / ".memory" / "project.md").unlink()
    dump = tmp_path / "memory.jsonl"
    dump.write_text(exported, "utf-8")
    return other, dump


def test_edit_saves_validates_and_reindexes(repo, tmp_path):
    item = json.loads(run("remember", "The cache TTL is 300 seconds", "--json").stdout)["item"]
    run("search", "cache TTL")  # the index exists before the edit
    done = run("edit", item["id"], env=editor(tmp_path, "300 seconds", "900 seconds"))
    assert f"saved {item['id']}" in done.output
    assert "900 seconds" in run("show", item["id"]).output
    hits = json.loads(run("search", "900 seconds", "--json").stdout)
    assert hits and hits[0]["id"] == item["id"] and "900" in json.dumps(hits[0])


def test_edit_that_breaks_the_file_is_refused_and_undone(repo, tmp_path):
    item = json.loads(run("remember", "Deploys happen on Tuesdays", "--json").stdout)["item"]
    path = Path(item and json.loads(run("show", item["id"], "--json").stdout)["path"])
    before = path.read_bytes()
    broken = run("edit", item["id"], env=editor(tmp_path, "id: ", "id: [unclosed"), code=1)
    assert "not saved" in broken.output and "back as it was" in broken.output
    assert path.read_bytes() == before
    renamed = run("edit", item["id"], env=editor(tmp_path, item["id"], "fact-renamed"), code=1)
    assert "id changed" in renamed.output and path.read_bytes() == before
    same = run("edit", item["id"], env=editor(tmp_path, "no such text", "x"))
    assert "no changes" in same.output


def test_a_refused_edit_is_kept_for_the_user_but_never_one_with_a_secret(repo, tmp_path):
    """Off a terminal a refused edit cannot be re-opened: the file goes back, and what the user
    typed is kept (named in the error) rather than lost; an edit refused for a secret is not
    kept anywhere."""
    item = json.loads(run("remember", "Deploys happen on Tuesdays", "--json").stdout)["item"]
    path = Path(json.loads(run("show", item["id"], "--json").stdout)["path"])
    before = path.read_bytes()
    edit = editor(tmp_path, "Deploys happen on Tuesdays\n", "Deploys happen on Tuesdays\n"
                  "and Thursdays, after the 10:00 sync\n")
    edit_and_break = tmp_path / "edit-and-break"
    edit_and_break.write_text(f"#!/bin/sh\n{edit['EDITOR']} \"$1\"\n"
                              f"sed -i 's/^type: fact/type: [fact/' \"$1\"\n")
    edit_and_break.chmod(0o755)
    broken = run("edit", item["id"], env={"EDITOR": str(edit_and_break),
                                          "VISUAL": str(edit_and_break)}, code=1)
    assert path.read_bytes() == before
    kept = Path(broken.output.split("your edit is kept in ", 1)[1].split()[0].rstrip(";."))
    assert "and Thursdays, after the 10:00 sync" in kept.read_text("utf-8")
    assert ".index" in kept.parts  # derived and gitignored, never read as memory
    token = "ghp_" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
    secret = run("edit", item["id"], env=editor(tmp_path, "on Tuesdays", f"with {token}"), code=1)
    assert "kept in" not in secret.output and path.read_bytes() == before
    # refused for a broken frontmatter, and holding a token too: not kept either
    both = tmp_path / "break-and-leak"
    both.write_text(f"#!/bin/sh\nsed -i 's/^type: fact/type: [fact/' \"$1\"\n"
                    f"echo 'the bot token is {token}' >> \"$1\"\n")
    both.chmod(0o755)
    leaked = run("edit", item["id"], env={"EDITOR": str(both), "VISUAL": str(both)}, code=1)
    assert "kept in" not in leaked.output and path.read_bytes() == before
    assert not [f for f in (repo / ".memory").rglob("*") if f.is_file() and
                token.encode() in f.read_bytes()]


def test_restore_brings_back_a_forgotten_and_a_superseded_item(repo):
    gone = json.loads(run("remember", "Staging runs on Heroku", "--json").stdout)["item"]
    run("forget", gone["id"], "--reason", "moved off Heroku")
    restored = json.loads(run("restore", gone["id"], "--json").stdout)
    assert restored["item"]["status"] == "active"
    assert restored["item"]["restored"]["archived_reason"] == "moved off Heroku"
    assert "/facts/" in restored["path"] and "/archive/" not in restored["path"]
    assert [i["id"] for i in json.loads(run("list", "--json").stdout) if i["id"] == gone["id"]]

    old = json.loads(
        run("remember", "We deploy with Capistrano", "--type", "decision", "--json").stdout
    )["item"]
    new = json.loads(run("supersede", old["id"], "We deploy with Kamal", "--json").stdout)["item"]
    back = run("restore", old["id"])
    assert f"{new['id']} (which had superseded it) is still active" in back.output
    shown = json.loads(run("show", old["id"], "--json").stdout)
    assert shown["status"] == "active" and "superseded_by" not in shown
    assert shown["restored"]["superseded_by"] == new["id"]
    assert json.loads(run("show", new["id"], "--json").stdout)["supersedes"] == [old["id"]]
    run("restore", old["id"], code=1)  # not archived any more: a clear one-line refusal


def _stock(repo):
    run(
        "remember",
        "Refunds go through the ledger service",
        "--type",
        "decision",
        "--tags",
        "billing,ledger",
        "--importance",
        "0.8",
    )
    run(
        "remember",
        "Nothing under infra/ without a review note",
        "--type",
        "criterion",
        "--applies-path",
        "infra/**",
        "--require",
        "review note",
        "--verdict",
        "block",
        "--rationale",
        "the March outage",
    )
    run("remember", "Ünïcode and emoji 🚀 survive", "--type", "preference", "--confidence", "0.7")
    gone = json.loads(run("remember", "Staging on Heroku", "--json").stdout)["item"]
    run("forget", gone["id"], "--reason", "moved")
    run("log", "Chose Postgres 16 for billing", "--kind", "decision", "--tags", "db")
    (repo / ".memory" / "facts" / "hand-written.md").write_text(
        "---\nid: fact-handwrit\ntype: fact\ntitle: Written by hand\ncreated: 2025-01-02T03:04:05Z\n"
        "updated: 2025-01-02T03:04:05Z\nextra_field: kept\n---\n\n"
        "Body with   odd   spacing\n\n\n"
    )


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".index" not in p.relative_to(root).parts
    }


def test_export_then_import_memory_is_exact(repo, tmp_path, monkeypatch):
    _stock(repo)
    exported = run("export").stdout
    header, *records = [json.loads(line) for line in exported.splitlines()]
    assert header["format"] == "lorestack-export" and header["version"] == 1
    kinds = {r["kind"] for r in records}
    assert {"item", "journal", "file"} <= kinds
    criterion = next(r for r in records if r.get("item", {}).get("type") == "criterion")
    assert criterion["item"]["criterion"]["require"] == ["review note"]
    journal = next(r for r in records if r["kind"] == "journal")
    assert journal["events"][0]["text"] == "Chose Postgres 16 for billing"

    other, dump = _fresh_project_with_export(tmp_path, monkeypatch, exported)
    done = json.loads(run("import-memory", str(dump), "--json").stdout)
    assert not done["conflicts"] and not done["problems"]
    assert _files(other / ".memory") == _files(repo / ".memory")  # byte for byte
    again = json.loads(run("import-memory", str(dump), "--json").stdout)
    assert not again["written"] and len(again["unchanged"]) == len(records)
    # and the second export equals the first, line for line (timestamps in the header aside)
    assert run("export").stdout.splitlines()[1:] == exported.splitlines()[1:]


def test_import_memory_refuses_tampered_or_escaping_lines_and_reports_conflicts(repo, tmp_path):
    _stock(repo)
    lines = run("export").stdout.splitlines()
    tampered = json.loads(lines[1])
    tampered["text"] = tampered["text"] + "injected\n"
    escaping = {"kind": "file", "path": "../outside.txt", "text": "x"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(tampered), json.dumps(escaping)]) + "\n")
    refused = run("import-memory", str(bad), code=1)
    assert "sha256 does not match" in refused.output and "outside the memory" in refused.output
    assert (
        not (repo / "outside.txt").exists()
        and not (repo / ".memory" / ".." / "outside.txt").exists()
    )

    decision = next(Path(p) for p in (repo / ".memory" / "decisions").glob("*.md"))
    original = decision.read_bytes()
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n")
    decision.write_bytes(original.replace(b"ledger service", b"ledger API"))
    out = run("import-memory", str(good))
    assert "1 conflict(s)" in out.output and b"ledger API" in decision.read_bytes()
    run("import-memory", str(good), "--replace")
    assert decision.read_bytes() == original
    run("import-memory", "-", input='{"not": "an export"}\n', code=1)


def test_export_then_import_memory_keeps_files_written_by_hand(repo, tmp_path, monkeypatch):
    """A note added by hand without frontmatter is an item everywhere (its folder names its
    type), so its export reads back too: one such file must not make the whole import fail."""
    (repo / ".memory" / "facts" / "deploys.md").write_text(
        "Deploys go out with `make deploy` from main only.\n", "utf-8")
    (repo / ".memory" / "decisions" / "queue.md").write_text(
        "---\ntitle: Redis streams for the job queue\n---\nWe moved off RabbitMQ.\n", "utf-8")
    listed = json.loads(run("list", "--json").stdout)
    assert {"deploys", "queue"} <= {i["id"] for i in listed}
    exported = run("export").stdout
    records = [json.loads(line) for line in exported.splitlines()[1:]]
    by_path = {r["path"]: r for r in records}
    assert "problem" not in by_path["facts/deploys.md"]
    assert by_path["facts/deploys.md"]["item"]["type"] == "fact"
    assert by_path["decisions/queue.md"]["item"]["type"] == "decision"

    other, dump = _fresh_project_with_export(tmp_path, monkeypatch, exported)
    done = json.loads(run("import-memory", str(dump), "--json").stdout)
    assert not done["problems"] and not done["conflicts"]
    assert _files(other / ".memory") == _files(repo / ".memory")


def test_import_memory_redacts_a_secret_from_the_export_and_counts_it(repo, tmp_path, monkeypatch):
    """An export that carries a hand-typed secret as the file held it (written before `export`
    redacted, or by hand); the import writes it redacted (items field by field, journal text),
    as `import` does, and says how many."""
    from tests.raw_export import unredacted_export

    token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    run("log", "Rotated the deploy credentials", "--kind", "progress")
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace("credentials", f"credentials to {token}"))
    (repo / ".memory" / "facts" / "ci.md").write_text(
        f"---\ntitle: CI pushes with {token}\n---\nThe runner reads it from {token} today.\n")
    # a whole value: `title: [REDACTED:…]` would read as a YAML list, so fields are redacted
    (repo / ".memory" / "facts" / "key.md").write_text(
        f"---\ntitle: {token}\ncreated: 2025-01-02T03:04:05Z\nupdated: 2025-01-02T03:04:05Z\n"
        "---\nThe bot's key.\n")
    run("remember", "Billing runs on Postgres 16", "--type", "fact")  # a clean item
    assert token not in run("export").output  # `export` redacts it (tests/test_hand_edits_s34)
    exported = unredacted_export(repo / ".memory")
    assert token in exported

    other, dump = _fresh_project_with_export(tmp_path, monkeypatch, exported)
    dry = json.loads(run("import-memory", str(dump), "--dry-run", "--json").stdout)
    assert dry["redacted"] == 3
    done = json.loads(run("import-memory", str(dump), "--json").stdout)
    assert done["redacted"] == 3 and not done["problems"]
    written = "".join(p.read_text() for p in (other / ".memory").rglob("*.md"))
    assert token not in written and written.count("[REDACTED:github token]") == 4
    listed = {i["id"]: i for i in json.loads(run("list", "--json").stdout)}
    assert listed["ci"]["title"] == "CI pushes with [REDACTED:github token]"
    assert listed["key"]["title"] == "[REDACTED:github token]"
    assert "Billing runs on Postgres 16" in written  # clean files written as they were
    again = run("import-memory", str(dump))
    assert "wrote 0 file(s)" in again.output and "0 conflict(s), 0 redacted" in again.output


def test_import_memory_replace_keeps_the_events_logged_after_the_export(repo, tmp_path):
    """`import-memory --replace` overwrote a journal day with the export's copy, so the events
    logged on that day after the export was taken were gone without a word ("wrote 1 file")."""
    from tests.conftest import run_cli

    assert run_cli("log", "morning event alpha", cwd=repo).returncode == 0
    export = tmp_path / "memory.jsonl"
    assert run_cli("export", "--out", str(export), cwd=repo).returncode == 0
    assert run_cli("log", "afternoon event beta", cwd=repo).returncode == 0
    done = run_cli("import-memory", "--replace", str(export), cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "0 redacted" in done.stdout
    listed = run_cli("list", "--type", "event", cwd=repo)
    assert "morning event alpha" in listed.stdout and "afternoon event beta" in listed.stdout
    assert not listed.stderr.count("warning")
