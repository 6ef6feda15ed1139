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
