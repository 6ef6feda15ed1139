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
