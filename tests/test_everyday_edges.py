"""Edges of everyday use (issue 24): undecodable stdin through the thin client, a closed pipe,
context outside a repository, and JSONL import errors that name the right field."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli

LORESTACK = [sys.executable, "-m", "lorestack.cli"]


def _env(**extra):
    return {**os.environ, **extra}


@pytest.mark.parametrize("argv", [["check", "-"], ["log", "-"], ["remember", "-"]])
def test_undecodable_stdin_is_refused_on_the_thin_path_too(repo, tmp_path, argv):
    """`printf 'caf\\xe9' | lorestack check -` passed with exit 0 through the service path."""
    env = _env(LORESTACK_SERVICE__ENABLED="true", LORESTACK_SERVICE__RUNTIME_DIR=str(tmp_path / "rt"),
               LC_ALL="C")
    done = subprocess.run([*LORESTACK, *argv], input=b"caf\xe9", env=env, cwd=repo,
                          capture_output=True, timeout=120)
    # a check's refusal is an error (exit 3, "nothing was checked"), a write's exits 1
    assert done.returncode == (3 if argv[0] == "check" else 1), done
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "not valid UTF-8" in lines[0] and done.stdout == b""
    outcome = "nothing was checked" if argv[0] == "check" else "nothing was written"
    assert outcome in lines[0]
    journal = repo / ".memory" / "journal"
    assert not any("caf" in p.read_text() for p in journal.glob("*.md"))


def test_a_closed_pipe_ends_quietly(repo):
    long_text = "\n".join(f"Line {i}: the cache layer keeps entries for a while." for i in range(1200))
    item = json.loads(CliRunner().invoke(cli, ["remember", long_text, "--type", "fact",
                                               "--json"]).stdout)["item"]
    proc = subprocess.Popen([*LORESTACK, "show", item["id"]], cwd=repo, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout.read(20)  # what `head -c 20` takes
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) in (0, 141)
    assert stderr == b"", stderr


def test_outside_a_repository_the_context_says_global_only(isolated):
    result = CliRunner().invoke(cli, ["remember", "I prefer small pull requests",
                                      "--type", "preference", "--scope", "global"])
    assert result.exit_code == 0, result.output
    out = CliRunner().invoke(cli, ["context"]).output
    assert "global only" in out.splitlines()[0] and "for this project" not in out


@pytest.mark.parametrize("line,says", [
    ({"time": "2024-03-02T09:15:00", "text": "Pinned gin", "type": "progress"},
     '"kind": "progress"'),
    ({"timestamp": "2024-03-02T09:15:00", "text": "Pinned gin"}, 'name it "time"'),
    ({"time": "2024-03-02T09:15:00", "text": "Pinned gin", "kind": "done"}, "not an event kind"),
    ({"time": "2024-03-02T09:15:00"}, 'missing "text"'),
])
def test_import_names_the_right_field(repo, tmp_path, line, says):
    source = tmp_path / "events.jsonl"
    source.write_text(json.dumps(line) + "\n")
    result = CliRunner().invoke(cli, ["import", "--format", "jsonl", str(source)])
    assert result.exit_code == 1 and says in result.output, result.output
    assert "validation error" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("fmt", ["auto", "jsonl"])
def test_an_import_whose_only_line_is_broken_names_it(repo, tmp_path, fmt):
    # trial2 finding: auto-detection took the file for a transcript with nothing in it and
    # said "the sources hold no events"
    source = tmp_path / "events.jsonl"
    source.write_text('{"time": "2024-03-02T09:15:00", "text": "Pinned gin"\n')
    result = CliRunner().invoke(cli, ["import", "--format", fmt, str(source)])
    assert result.exit_code == 1, result.output
    assert f"{source}:1:" in result.output and "Traceback" not in result.output
    assert "hold no events" not in result.output


def test_import_help_documents_the_jsonl_fields():
    text = CliRunner().invoke(cli, ["import", "--help"]).output
    for field in ('"time"', "kind", "progress", "type", "session", "speaker", "tags"):
        assert field in text


def test_a_second_import_of_the_same_file_redacts_nothing(repo, tmp_path):
    """Trial finding: importing a file again wrote nothing yet reported '2 redacted'."""
    source = tmp_path / "events.jsonl"
    lines = [
        {"time": "2024-03-02T09:15:00", "text": "Set the staging key to AKIAIOSFODNN7EXAMPLE"},
        {"time": "2024-03-02T09:16:00", "text": "The fact store uses AKIAIOSFODNN7EXAMPLE too",
         "type": "fact"},
        {"time": "2024-03-02T09:17:00", "text": "Pinned gin at 1.9.1", "kind": "progress"},
    ]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = ["import", "--no-index", "--json", str(source)]
    first = json.loads(CliRunner().invoke(cli, args).stdout)
    assert (first["events"], first["items"], first["redacted"]) == (2, 1, 2)
    again = json.loads(CliRunner().invoke(cli, args).stdout)
    assert (again["events"], again["items"], again["skipped"], again["redacted"]) == (0, 0, 3, 0)
