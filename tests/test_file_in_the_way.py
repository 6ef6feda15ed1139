"""A file standing where lorestack keeps a folder (`.memory` or `.memory/facts` made a file by
hand, or by a bad merge) is named in one line as the user's to move. `remember` answered
"unexpected FileExistsError … this is a bug in lorestack; please report it", and `init` named
`.memory/facts` as "not a directory" with the same request to report a bug."""

from __future__ import annotations

from click.testing import CliRunner

from lorestack.cli.main import cli


def test_a_type_folder_made_a_file_is_named_as_the_users_to_move(repo):
    facts = repo / ".memory" / "facts"
    facts.rmdir()
    facts.write_text("oops\n")
    done = CliRunner().invoke(cli, ["remember", "Deploys run from main"])
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert done.output == (f"Error: {facts} is a file where lorestack needs a folder; move it "
                           "aside (or rename it) and re-run\n")


def test_a_memory_folder_made_a_file_is_named_by_init(isolated):
    (isolated / ".memory").write_text("oops\n")
    done = CliRunner().invoke(cli, ["init"])
    assert done.exit_code == 1 and "bug in lorestack" not in done.output
    assert f"Error: {isolated / '.memory'} is a file where lorestack needs a folder" in done.output
    assert done.output.count("\n") == 1
