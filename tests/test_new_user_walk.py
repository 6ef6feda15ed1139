"""What a new user hit walking through every command on a fresh project (session 18): bad
files handed to the import commands, a read-only memory, blank input, hand edits."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def test_import_memory_of_a_binary_file_is_one_line_not_a_bug(repo, tmp_path):
    """`lorestack import-memory photo.jpg` said "unexpected UnicodeDecodeError … this is a bug
    in lorestack; please report it"."""
    blob = tmp_path / "photo.jpg"
    blob.write_bytes(b'{"format": "lorestack-export", "version": 1}\n\xff\xd8\xff\xe0 JFIF\n')
    result = CliRunner().invoke(cli, ["import-memory", str(blob)])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "not UTF-8" in lines[0]
    assert "bug in lorestack" not in lines[0] and "Unicode" not in lines[0]


def test_a_read_only_memory_is_not_called_a_bug():
    """`remember`, `log`, `forget`, `reindex` and `consolidate` on a `.memory` mounted
    read-only failed on their lock under `.index/` with "… use a writable copy (if you did not
    name this path, this is a bug in lorestack; please report it)": a read-only file system
    is never lorestack's fault."""
    import errno

    from lorestack.cli.main import unexpected_line

    lock = "/srv/p/.memory/.index/locks/items-create.lock"
    line = unexpected_line(OSError(errno.EROFS, "Read-only file system", lock))
    assert line.startswith(f"Error: cannot use {lock}: Read-only file system")
    assert "writable" in line and "bug in lorestack" not in line


def test_a_jsonl_line_with_empty_text_is_refused_like_an_empty_log(repo, tmp_path):
    """`lorestack log ""` says "nothing to log", but `import` wrote JSONL lines whose "text"
    was "" or blank as empty journal entries."""
    source = tmp_path / "events.jsonl"
    source.write_text('{"time": "2024-03-02T09:15:00", "text": "Pinned gin at 1.9.1"}\n'
                      '{"time": "2024-03-02T09:17:00", "text": "   "}\n')
    result = CliRunner().invoke(cli, ["import", str(source)])
    assert result.exit_code == 1, result.output
    assert f"{source}:2:" in result.stderr and "empty" in result.stderr
    assert not list((repo / ".memory" / "journal").glob("*.md"))  # nothing half-imported


def test_import_memory_never_writes_a_second_file_with_an_id_already_here(repo, tmp_path):
    """An export whose item sits under another file name (renamed by hand in the other clone)
    was written next to the item with that id: `import-memory` said "wrote 1 file(s)", and
    from then on `list`, search and every session skipped it as a duplicate id."""
    import json

    runner = CliRunner()
    made = json.loads(runner.invoke(cli, ["remember", "The parser is hand-written",
                                          "--type", "fact", "--json"]).stdout)["item"]
    mine = repo / ".memory" / "facts"
    before = sorted(p.name for p in mine.iterdir())
    export = tmp_path / "other.jsonl"
    text = f"---\nid: {made['id']}\ntype: fact\ntitle: renamed there\n---\nThe parser is generated\n"
    export.write_text(json.dumps({"format": "lorestack-export", "version": 1}) + "\n"
                      + json.dumps({"kind": "item", "path": "facts/renamed.md", "text": text})
                      + "\n")
    for flags in ([], ["--replace"]):
        result = runner.invoke(cli, ["import-memory", str(export), *flags, "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["written"] == [], report
        assert len(report["conflicts"]) == 1 and made["id"] in report["conflicts"][0], report
        assert sorted(p.name for p in mine.iterdir()) == before
    listed = runner.invoke(cli, ["list"])
    assert "duplicate id" not in listed.stderr


def test_import_memory_refuses_a_text_that_is_not_a_string(repo, tmp_path):
    """`"text": null` was written as a file holding "None", and `"text": 5` as "5"."""
    import json

    export = tmp_path / "hand.jsonl"
    for value in (None, 5, ["a"]):
        export.write_text(json.dumps({"format": "lorestack-export", "version": 1}) + "\n"
                          + json.dumps({"kind": "item", "path": "facts/a.md", "text": value})
                          + "\n")
        result = CliRunner().invoke(cli, ["import-memory", str(export)])
        assert result.exit_code == 1, (value, result.output)
        assert "line 2" in result.output and "text" in result.output
        assert not (repo / ".memory" / "facts" / "a.md").exists()


def test_a_fact_mended_in_place_is_no_longer_called_unreadable(repo):
    """A fact whose frontmatter a hand edit broke, then mended in an editor that writes in
    place (nano, VS Code: the folder's mtime does not move), went on being "unreadable memory
    file skipped" in `context`, every hook and hooks.log, and missing from the catalog, until
    the periodic full scan (`loader.catalog_rescan_s`, 5 minutes)."""
    import os

    runner = CliRunner()
    path = repo / ".memory" / "facts" / "parser.md"
    good = "---\nid: fact-parser01\ntype: fact\ntitle: The parser is hand-written\n---\nYes.\n"
    path.write_text(good.replace("type: fact", "type fact: ["))
    broken = runner.invoke(cli, ["context", "--report"])
    assert "unreadable memory file skipped" in broken.stderr, broken.output
    with open(path, "r+") as f:  # in place, as an editor that does not rename writes
        f.write(good)
        f.truncate()
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    mended = runner.invoke(cli, ["context", "--report"])
    assert "unreadable" not in mended.stderr, mended.stderr
    assert "The parser is hand-written" in mended.stdout


def test_a_duplicate_id_given_its_own_id_in_place_is_read_at_once(repo):
    """The same for a copy of a fact (`cp a.md b.md`) whose id is then changed in place:
    it stayed "duplicate id" and out of the catalog until the full scan."""
    import os

    runner = CliRunner()
    facts = repo / ".memory" / "facts"
    text = "---\nid: fact-parser01\ntype: fact\ntitle: The parser is hand-written\n---\nYes.\n"
    (facts / "a.md").write_text(text)
    (facts / "b.md").write_text(text.replace("hand-written", "generated by lark"))
    assert "duplicate id" in runner.invoke(cli, ["context", "--report"]).stderr
    path = facts / "b.md"
    with open(path, "r+") as f:
        f.write(path.read_text().replace("fact-parser01", "fact-parser02"))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    mended = runner.invoke(cli, ["context", "--report"])
    assert "duplicate id" not in mended.stderr, mended.stderr
    assert "generated by lark" in mended.stdout


def test_an_edit_that_empties_the_file_says_so(repo, tmp_path, monkeypatch):
    """Saving an empty file in `lorestack edit` was refused as "the id changed from
    'fact-…' to 'some-file-name'", naming an id the user never typed."""
    import json
    import stat

    runner = CliRunner()
    item = json.loads(runner.invoke(cli, ["remember", "Deploys happen on Tuesdays",
                                          "--json"]).stdout)["item"]
    path = tmp_path / "empty-it.sh"
    path.write_text('#!/bin/sh\n: > "$1"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(path))
    monkeypatch.delenv("VISUAL", raising=False)
    result = runner.invoke(cli, ["edit", item["id"]])
    assert result.exit_code == 1, result.output
    assert "emptied" in result.output and f"lorestack forget {item['id']}" in result.output
    assert "id changed" not in result.output


def test_an_empty_remember_through_mcp_names_no_cli_flag(repo):
    """The MCP tool answered an empty `remember` with "give the text (or --title)": a
    command-line flag the model calling the tool cannot pass (its argument is `title`)."""
    import anyio
    from mcp import Client

    from lorestack.integrations.mcp_server import build_server

    async def main():
        async with Client(build_server(str(repo))) as client:
            result = await client.call_tool("remember", {"text": "  ", "type": "fact"})
            assert result.is_error and "nothing to remember" in result.content[0].text
            assert "--" not in result.content[0].text, result.content[0].text

    anyio.run(main)


def test_import_reads_a_bom_and_refuses_bytes_that_are_not_utf8(repo, tmp_path):
    """A JSONL file saved by Notepad (a UTF-8 BOM first) imported nothing: "the sources hold
    no events" (auto) or "Unexpected UTF-8 BOM" (--format jsonl); a binary file named by
    mistake was "unexpected UnicodeDecodeError … a bug" with --format jsonl and "line 616: not
    a JSON line" when the format was guessed."""
    import json

    line = json.dumps({"time": "2024-03-05T09:15:00", "text": "Pinned gin at 1.9.1"}) + "\n"
    bom = tmp_path / "notepad.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + line.encode())
    runner = CliRunner()
    for fmt in ("auto", "jsonl"):
        result = runner.invoke(cli, ["import", str(bom), "--format", fmt, "--json"])
        assert result.exit_code == 0, (fmt, result.output)
    assert "Pinned gin" in (repo / ".memory" / "journal" / "2024-03-05.md").read_text()
    blob = tmp_path / "photo.jpg"
    blob.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\n" + b'{"x": 1}\n' * 3)
    for fmt in ("auto", "jsonl", "locomo", "claude-code"):
        result = runner.invoke(cli, ["import", str(blob), "--format", fmt])
        assert result.exit_code == 1, (fmt, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "not valid UTF-8" in lines[0] and str(blob) in lines[0], lines


def test_import_memory_reads_an_export_saved_with_a_bom(repo, tmp_path):
    """An export opened and saved in Notepad gains a UTF-8 BOM; `import-memory` then said
    "line 1 is not JSON (Unexpected UTF-8 BOM …)"."""
    import json

    export = tmp_path / "saved.jsonl"
    text = "---\nid: fact-bom00001\ntype: fact\ntitle: Saved with a BOM\n---\nStill read.\n"
    body = (json.dumps({"format": "lorestack-export", "version": 1}) + "\n"
            + json.dumps({"kind": "item", "path": "facts/bom.md", "text": text}) + "\n")
    export.write_bytes(b"\xef\xbb\xbf" + body.encode())
    result = CliRunner().invoke(cli, ["import-memory", str(export)])
    assert result.exit_code == 0, result.output
    assert (repo / ".memory" / "facts" / "bom.md").read_text() == text


def test_a_config_saved_with_a_bom_is_read_and_set(repo):
    """`.memory/config.toml` saved by Notepad (a UTF-8 BOM first) stopped every command:
    "not valid TOML (Invalid statement (at line 1, column 1)); fix or remove the file" — on a
    first line that looks right. Hooks already read past the BOM; commands did not."""
    config = repo / ".memory" / "config.toml"
    config.write_bytes(b"\xef\xbb\xbf[loader]\nbudget = 1500\n")
    runner = CliRunner()
    got = runner.invoke(cli, ["config", "get", "loader.budget"])
    assert got.exit_code == 0 and "1500" in got.output, got.output
    assert runner.invoke(cli, ["list"]).exit_code == 0
    done = runner.invoke(cli, ["config", "set", "loader.prompt_budget", "500"])
    assert done.exit_code == 0, done.output
    assert "budget = 1500" in config.read_text("utf-8-sig")
    assert "1500" in runner.invoke(cli, ["config", "get", "loader.budget"]).output



def test_setting_a_value_in_a_config_that_is_not_utf8_is_one_line_not_a_bug(repo):
    """A config.toml saved as Latin-1 (a comment "# café"): `config set` said "unexpected
    UnicodeDecodeError … this is a bug in lorestack; please report it", where reading it
    says "not valid TOML (…); fix or remove the file"."""
    config = repo / ".memory" / "config.toml"
    before = b"# caf\xe9\n[loader]\nbudget = 1500\n"
    config.write_bytes(before)
    done = CliRunner().invoke(cli, ["config", "set", "loader.prompt_budget", "500"])
    assert done.exit_code == 1, done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "bug in lorestack" not in lines[0], lines
    assert "config.toml" in lines[0] and "UTF-8" in lines[0], lines
    assert config.read_bytes() == before

def test_a_bench_file_with_a_long_first_line_is_taken_for_jsonl(repo, tmp_path):
    """`bench generate -o gen.jsonl` then `import gen.jsonl` said "nothing to import: the
    sources hold no events": its first line (one project, 376 kB) was cut at 200 kB before
    the format was guessed, so it was not JSON and the file was read as a transcript."""
    import json

    events = [{"id": f"ev-long{n:05d}", "time": f"2024-06-{1 + n % 28:02d}T10:00:00",
               "text": f"Moved service {n} to the new runner; " + "details " * 10}
              for n in range(3000)]
    source = tmp_path / "gen.jsonl"
    source.write_text(json.dumps({"format": "lorestack-bench/1", "events": events}) + "\n")
    assert source.stat().st_size > 250_000
    result = CliRunner().invoke(cli, ["import", str(source), "--no-index", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["events"] == 3000


def test_the_viewer_refuses_a_nul_byte_instead_of_saving_an_invisible_item(mem):
    """A NUL byte pasted into the viewer's edit form was "saved", and the file, now binary,
    was skipped by every reader: the item vanished from list, search, context and the viewer
    itself ("no memory item … with id"). `remember` and `edit` refuse the same text."""
    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.fsutil import checksum
    from lorestack.memory_layers.operations import remember

    written = remember(mem, "Ship on Tuesdays", "decision")
    before = written.path.read_bytes()
    viewer = create_app(mem, "tok-123", run_doctor=False)
    try:
        client = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        client.cookies.set("lorestack_ui_8765", "tok-123")
        for field, value in (("body", "Ship on\x00 Fridays"), ("title", "Ship\x00 on Fridays")):
            form = {"_token": "tok-123", "title": "Ship on Fridays", "body": "Ship on Fridays",
                    "tags": "", "checksum": checksum(before), field: value}
            answer = client.post(f"/items/{written.item.id}/edit", data=form)
            assert answer.status_code == 422, (field, answer.status_code)
            assert "NUL" in answer.text
            assert written.path.read_bytes() == before
    finally:
        viewer.state.close()


def test_import_refuses_a_nul_byte_before_writing_anything(repo, tmp_path):
    """A JSONL line `"type": "fact"` whose text held a NUL (`\\u0000`) was written as a fact
    file every reader then skipped as binary (an invisible item), and an event's NUL made the
    journal day a binary file to git; `log` and `remember` refuse the same text."""
    import json

    source = tmp_path / "events.jsonl"
    source.write_text(
        json.dumps({"time": "2024-03-09T09:15:00", "text": "Pinned gin at 1.9.1"}) + "\n"
        + json.dumps({"time": "2024-03-09T09:16:00", "text": "nul \x00 here", "type": "fact"})
        + "\n")
    result = CliRunner().invoke(cli, ["import", str(source), "--no-index"])
    assert result.exit_code == 1, result.output
    assert "NUL" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    memory = repo / ".memory"
    assert not list((memory / "journal").glob("*.md")) and not list((memory / "facts").glob("*"))


def test_a_nul_byte_in_a_model_claim_never_makes_an_invisible_item(repo, fake_llm):
    """A model reply whose claim held a NUL character (`\\u0000` in its JSON) was written as
    the item's text: the file became binary and every reader skipped the new fact."""
    import json
    import re
    from datetime import timedelta

    from lorestack.consolidation.job import run_consolidation
    from lorestack.memory_layers.memory import Memory
    from tests.test_consolidation import BASE, seed

    def responder(request):
        prompt = request["messages"][-1]["content"]
        events = re.findall(r"- id=(ev-[\w-]+) ", prompt)
        if "PostgreSQL" not in prompt.split("Existing items")[0]:
            return json.dumps({"skip": True, "reason": "nothing durable"})
        return json.dumps({"skip": False, "cited_events": events, "confidence": 0.9,
                           "relation": "new", "existing_id": None, "type": "decision",
                           "claim": "The job queue runs on\x00 PostgreSQL.",
                           "title": "Job queue\x00 on PostgreSQL"})

    fake_llm(responder=responder)
    mem = Memory.open(repo, **{"consolidation.pending_review": False})
    seed(mem)
    run_consolidation(mem, now=BASE + timedelta(days=6))
    loaded = mem.load_items()
    assert not loaded.problems, loaded.problems
    titles = [li.item.title for li in loaded.items]
    assert "Job queue on PostgreSQL" in titles, titles


def test_the_viewer_names_its_own_redact_box_not_the_cli_flag(mem):
    """A secret typed into the viewer's edit form was refused with "… or pass --redact to
    store it with the secret replaced": a command-line flag; the form has a checkbox."""
    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.fsutil import checksum
    from lorestack.memory_layers.operations import remember

    written = remember(mem, "Ship on Tuesdays", "decision")
    viewer = create_app(mem, "tok-123", run_doctor=False)
    try:
        client = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        client.cookies.set("lorestack_ui_8765", "tok-123")
        form = {"_token": "tok-123", "title": "Ship on Tuesdays", "tags": "",
                "body": "deploy token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                "checksum": checksum(written.path.read_bytes())}
        answer = client.post(f"/items/{written.item.id}/edit", data=form)
        assert answer.status_code == 422 and "looks like it contains a secret" in answer.text
        assert "--redact" not in answer.text and "store secrets redacted" in answer.text
    finally:
        viewer.state.close()


def test_listing_archived_events_does_not_show_the_live_journal(repo):
    """`list --type event --status archived` listed every live journal event (as active) and
    none of those `forget` had archived: the status was not applied to events."""
    import json

    runner = CliRunner()
    kept = runner.invoke(cli, ["log", "moved the export to the nightly job", "--json"])
    gone = runner.invoke(cli, ["log", "typo entry", "--json"])
    kept_id, gone_id = json.loads(kept.stdout)["id"], json.loads(gone.stdout)["id"]
    assert runner.invoke(cli, ["forget", gone_id, "--reason", "typo"]).exit_code == 0
    archived = runner.invoke(cli, ["list", "--type", "event", "--status", "archived", "--json"])
    assert archived.exit_code == 0, archived.output
    assert kept_id not in archived.stdout
    active = runner.invoke(cli, ["list", "--type", "event", "--json"])
    assert kept_id in active.stdout and gone_id not in active.stdout


def test_a_forgotten_event_can_still_be_shown(repo):
    """`forget ev-…` says "archived ev-… → archive/events/<day>.md", and then `show ev-…`
    said "no memory item or event with id …": a forgotten item can be shown, an event could
    not, although it is kept."""
    import json

    runner = CliRunner()
    gone = json.loads(runner.invoke(cli, ["log", "typo entry", "--json"]).stdout)["id"]
    assert runner.invoke(cli, ["forget", gone, "--reason", "typo"]).exit_code == 0
    shown = runner.invoke(cli, ["show", gone, "--json"])
    assert shown.exit_code == 0, shown.output
    event = json.loads(shown.stdout)
    assert event["id"] == gone and event["text"] == "typo entry"
    assert event["archived_reason"] == "typo"
    text = runner.invoke(cli, ["show", gone])
    assert "forgotten (typo)" in text.output, text.output


def test_an_empty_criterion_term_is_refused_not_stored(repo):
    """`criteria edit ID --forbid ""` replaced the rule's terms with one empty string: the
    file said `forbid: ['']`, `check` read it as no terms at all, and the rule the user had
    typed (forbid cron) was gone without a word; `remember --keyword ""` stored one too."""
    import json

    runner = CliRunner()
    made = runner.invoke(cli, ["remember", "No cron jobs for one-off tasks", "--type",
                               "criterion", "--keyword", "one-off", "--forbid", "cron",
                               "--verdict", "block", "--json"])
    item = json.loads(made.stdout)["item"]
    path = repo / ".memory" / "criteria" / "no-cron-jobs-for-one-off-tasks.md"
    before = path.read_bytes()
    for flag in ("--forbid", "--keyword", "--require", "--unless", "--topic"):
        result = runner.invoke(cli, ["criteria", "edit", item["id"], flag, " "])
        assert result.exit_code == 1, (flag, result.output)
        assert "empty" in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert path.read_bytes() == before
    result = runner.invoke(cli, ["remember", "No eval in the parser", "--type", "criterion",
                                 "--forbid", "eval", "--keyword", ""])
    assert result.exit_code == 1 and "empty" in result.stderr, result.output
    assert not (repo / ".memory" / "criteria" / "no-eval-in-the-parser.md").exists()


def test_an_empty_about_says_what_is_missing(repo):
    """`remember … --about ""` answered "Error: : no such file in /…": a message that starts
    with the empty path it could not find."""
    result = CliRunner().invoke(cli, ["remember", "The parser is hand-written", "--type",
                                      "fact", "--about", " "])
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert "empty" in line and not line.startswith("Error: :") and "--about" in line, line


def test_init_in_a_subfolder_says_it_hides_the_memory_above(repo, monkeypatch):
    """`lorestack init` run in `src/` of a repository that has `.memory/` at its top made a
    second, empty memory there without a word: from then on every command and session started
    under `src/` used it, and the project's memory seemed gone."""
    runner = CliRunner()
    assert runner.invoke(cli, ["remember", "The parser is hand-written"]).exit_code == 0
    sub = repo / "src"
    sub.mkdir()
    monkeypatch.chdir(sub)
    result = runner.invoke(cli, ["init"])
    assert result.exit_code == 0, result.output
    assert str(repo / ".memory") in result.stderr and "src" in result.stderr, result.stderr
    again = runner.invoke(cli, ["init"])  # the same note each time: it still hides it
    assert str(repo / ".memory") in again.stderr
    top = CliRunner().invoke(cli, ["--root", str(repo), "init"])
    assert top.stderr.strip() == "", top.stderr


def test_config_set_takes_a_negative_value_as_the_value(repo):
    """`config set loader.budget -5` said "No such option '-5'" (click read the value as an
    option); the value is checked like any other and refused naming the setting."""
    result = CliRunner().invoke(cli, ["config", "set", "loader.budget", "-5"])
    assert result.exit_code == 1, result.output
    assert "loader.budget" in result.stderr and "No such option" not in result.stderr
    assert not (repo / ".memory" / "config.toml").exists() or "-5" not in (
        repo / ".memory" / "config.toml").read_text()


def test_a_broken_file_named_after_a_key_is_remembered_sealed_and_found_when_mended(repo):
    """The cache remembers which files did not parse, so one mended in place is read at once;
    a file named after a key (typed by hand) must be remembered sealed — no derived file holds
    a key — and still be found again by its seal when it is mended."""
    import os

    key = "ghp_" + "q7W2e9R4t6Y1u3I5o8P0a2S4d6F8g1H3j5K7"
    runner = CliRunner()
    path = repo / ".memory" / "facts" / f"note-{key}.md"
    good = "---\nid: fact-lexer01\ntype: fact\ntitle: The lexer is generated\n---\nYes.\n"
    path.write_text(good.replace("type: fact", "type fact: ["))
    broken = runner.invoke(cli, ["context", "--report"])
    assert "unreadable memory file skipped" in broken.stderr, broken.output
    index = repo / ".memory" / ".index"
    holding = [str(p) for p in index.rglob("*") if p.is_file() and key.encode() in p.read_bytes()]
    assert holding == []
    with open(path, "r+") as f:  # mended in place: the folder's mtime does not move
        f.write(good)
        f.truncate()
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    mended = runner.invoke(cli, ["context", "--report"])
    assert "unreadable" not in mended.stderr, mended.stderr
    assert "The lexer is generated" in mended.stdout


def test_search_names_a_memory_file_it_could_not_read(repo):
    """`context` and `list` say a hand-edited file no longer parses; `search` said nothing once
    a sync had met it (the service or a hook syncs before the user searches), so the fact
    was simply missing from the results without a word."""
    runner = CliRunner()
    assert runner.invoke(cli, ["remember", "--type", "fact", "The lexer is generated"]).exit_code == 0
    bad = repo / ".memory" / "facts" / "cache.md"
    bad.write_text("---\nid: fact-cache01\ntype fact: [\n---\nThe cache is in Redis.\n")
    assert runner.invoke(cli, ["reindex"]).exit_code == 0  # the sync that meets it first
    for args in (["search", "lexer"], ["search", "lexer", "--json"]):
        found = runner.invoke(cli, args)
        assert found.exit_code == 0, found.output
        assert "unreadable memory file skipped" in found.stderr and "cache.md" in found.stderr
    plain = runner.invoke(cli, ["search", "lexer", "--json"])
    assert json.loads(plain.stdout)[0]["title"] == "The lexer is generated"  # stdout stays JSON


def test_import_memory_names_a_path_that_meets_a_folder_or_a_file_here(repo, tmp_path):
    """An export line whose path is a folder here (`"facts"`), or runs through a file here
    (`project.md/x.md`), ended 'cannot use …: Is a directory … this is a bug in lorestack'
    after the lines before it were checked: now it is that line's problem, nothing written."""
    head = json.dumps({"format": "lorestack-export", "version": 1}) + "\n"
    good = json.dumps({"kind": "item", "path": "facts/ok.md",
                       "text": "---\nid: fact-ok01\ntype: fact\ntitle: OK\n---\nfine\n"}) + "\n"
    for path, said in (("facts", "a folder of that name is here"),
                       ("project.md/x.md", "project.md is a file here")):
        export = tmp_path / "hand.jsonl"
        export.write_text(head + good + json.dumps(
            {"kind": "item", "path": path,
             "text": "---\nid: fact-x0001\ntype: fact\ntitle: X\n---\nY\n"}) + "\n")
        result = CliRunner().invoke(cli, ["import-memory", str(export)])
        assert result.exit_code == 1, result.output
        assert "line 3" in result.output and said in result.output, result.output
        assert "bug" not in result.output
        assert not (repo / ".memory" / "facts" / "ok.md").exists()


def test_a_transcript_cut_inside_a_character_is_imported_as_before(repo, tmp_path):
    """A live session's transcript read while a line is being written can end inside a
    multi-byte character; the transcript reader skips such a line, but `import` refused the
    whole file up front as "not UTF-8" (f230c8c), importing nothing from any source."""
    import json

    lines = [{"type": "user", "sessionId": "s-cut", "uuid": f"u{n}",
              "timestamp": f"2026-11-0{n + 1}T10:00:00Z",
              "message": {"role": "user", "content": text}}
             for n, text in enumerate(["Pin ninja to 1.11 for the depfile bug",
                                       "The café menu service moves to the new runner"])]
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
    cut = json.dumps({**lines[0], "uuid": "u9", "message": {"role": "user",
                                                            "content": "déjà"}},
                     ensure_ascii=False).encode()
    source = tmp_path / "session.jsonl"
    source.write_bytes(body + cut[:cut.index("é".encode()) + 1])  # ends inside the é
    result = CliRunner().invoke(cli, ["import", "--no-index", "--json", str(source)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["events"] == 2


def test_listing_archived_events_shows_the_forgotten_ones(repo):
    """`forget ev-…` keeps the event in archive/events/ and `show` finds it there, but
    `list --type event --status archived` listed nothing: a forgotten event could be shown
    only by someone who still knew its id."""
    runner = CliRunner()
    kept = json.loads(runner.invoke(cli, ["log", "moved the export", "--json"]).stdout)["id"]
    gone = json.loads(runner.invoke(cli, ["log", "typo entry", "--json"]).stdout)["id"]
    assert runner.invoke(cli, ["forget", gone, "--reason", "typo"]).exit_code == 0
    for args in (["--type", "event"], ["--layer", "L3"]):
        listed = runner.invoke(cli, ["list", *args, "--status", "archived", "--json"])
        assert listed.exit_code == 0, listed.output
        rows = json.loads(listed.stdout)
        assert [r["id"] for r in rows] == [gone], rows
        assert rows[0]["status"] == "archived" and rows[0]["archived_reason"] == "typo"
        assert rows[0]["text"] == "typo entry" and "/archive/events/" in rows[0]["path"], rows[0]
    every = json.loads(runner.invoke(cli, ["list", "--type", "event", "--status", "all",
                                           "--json"]).stdout)
    assert {r["id"]: r["status"] for r in every} == {kept: "active", gone: "archived"}
    plain = runner.invoke(cli, ["list", "--type", "event", "--status", "archived"])
    assert gone in plain.stdout and "archived" in plain.stdout and kept not in plain.stdout
    assert runner.invoke(cli, ["list", "--type", "event", "--status", "pending",
                               "--json"]).stdout.strip() == "[]"


def test_check_file_reads_a_notepad_file_as_the_other_commands_do(repo, tmp_path):
    """`check --file plan.txt` of a file Notepad saved quoted it with the byte-order mark in
    front ("U+FEFF Add requests …"), and a binary file holding NUL bytes passed as "none
    applied"."""
    runner = CliRunner()
    made = runner.invoke(cli, ["remember", "No new runtime dependencies without discussing it",
                               "--type", "criterion", "--keyword", "dependency", "--forbid",
                               "requests", "--verdict", "block"])
    assert made.exit_code == 0, made.output
    plan = tmp_path / "plan.txt"
    plan.write_bytes("\ufeffAdd requests as a runtime dependency\r\n".encode())
    result = runner.invoke(cli, ["check", "--file", str(plan), "--json"])
    assert result.exit_code == 2, result.output
    quote = json.loads(result.stdout)["violations"][0]["quote"]
    assert quote.startswith("Add requests"), repr(quote)
    for name, data in (("blob.bin", b"Add requests\x00\x00\x01\x02"),
                       ("photo.jpg", b"\xff\xd8\xff\xe0 JFIF requests dependency")):
        odd = tmp_path / name
        odd.write_bytes(data)
        refused = runner.invoke(cli, ["check", "--file", str(odd)])
        assert refused.exit_code == 3, (name, refused.output)
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and name in lines[0], lines
        assert "written" not in lines[0] and "bug" not in lines[0], lines


def test_restore_brings_a_forgotten_event_back_and_supersede_names_an_event(repo):
    """`forget ev-…` archives an event and `restore` says it brings back what was forgotten,
    but `restore ev-…` answered "no memory item or event with id 'ev-…'" (for a live event
    too), and so did `supersede ev-… TEXT` for an event that is right there in the journal."""
    runner = CliRunner()
    gone = json.loads(runner.invoke(cli, ["log", "kept after all", "--json"]).stdout)["id"]
    assert runner.invoke(cli, ["forget", gone, "--reason", "by mistake"]).exit_code == 0
    back = runner.invoke(cli, ["restore", gone])
    assert back.exit_code == 0, back.output
    assert "journal" in back.stdout, back.stdout
    live = json.loads(runner.invoke(cli, ["list", "--type", "event", "--json"]).stdout)
    assert [(r["id"], r["text"]) for r in live] == [(gone, "kept after all")], live
    assert "archived_reason" not in live[0]
    archived = runner.invoke(cli, ["list", "--type", "event", "--status", "archived", "--json"])
    assert json.loads(archived.stdout) == []
    for args in (["restore", gone], ["supersede", gone, "kept, reworded"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 1, (args, result.output)
        line = result.stderr.strip()
        assert "journal event" in line and "no memory item" not in line, (args, line)
        assert len(line.splitlines()) == 1, line


def test_uninstall_cron_dry_run_with_nothing_installed_says_so(repo, tmp_path, monkeypatch):
    """`uninstall cron --dry-run` on a machine where nothing was installed said "would remove
    (systemd): lorestack-consolidate-….timer", while `uninstall cron` said "nothing to remove"."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    for args in (["--dry-run"], []):
        result = runner.invoke(cli, ["uninstall", "cron", "--scheduler", "systemd", *args])
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == "nothing to remove (systemd)", (args, result.stdout)


def test_uninstall_pre_commit_takes_dry_run_like_every_other_uninstall(repo):
    """`install pre-commit --dry-run` shows what it would write and every other `uninstall`
    takes --dry-run, but `uninstall pre-commit --dry-run` said "No such option '--dry-run'"."""
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    runner = CliRunner()
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho mine\n")
    assert runner.invoke(cli, ["install", "pre-commit"]).exit_code == 0
    before = hook.read_bytes()
    shown = runner.invoke(cli, ["uninstall", "pre-commit", "--dry-run"])
    assert shown.exit_code == 0, shown.output
    assert "would remove" in shown.stdout and "echo mine" in shown.stdout, shown.stdout
    assert hook.read_bytes() == before
    as_json = json.loads(runner.invoke(cli, ["uninstall", "pre-commit", "--dry-run",
                                             "--json"]).stdout)
    assert as_json["dry_run"] is True and hook.read_bytes() == before
    assert runner.invoke(cli, ["uninstall", "pre-commit"]).exit_code == 0
    assert hook.read_text() == "#!/bin/sh\necho mine\n"
    nothing = runner.invoke(cli, ["uninstall", "pre-commit", "--dry-run"])
    assert nothing.exit_code == 0 and "would remove" not in nothing.stdout, nothing.output


def test_export_to_a_folder_that_does_not_exist_is_the_users_path(repo, tmp_path):
    """`export --out missing/dir/x.jsonl` ended "… (if you did not name this path, this is a
    bug in lorestack; please report it)": the user did name it."""
    out = tmp_path / "missing" / "x.jsonl"
    result = CliRunner().invoke(cli, ["export", "--out", str(out)])
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and str(out) in line and "--out" in line, line
    assert "bug" not in line and "folder" in line, line
