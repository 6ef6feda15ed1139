"""What a new user hit walking through every command on a fresh project (session 18): bad
files handed to the import commands, a read-only memory, blank input, hand edits."""

from __future__ import annotations

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
