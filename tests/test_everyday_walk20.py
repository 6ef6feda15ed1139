"""What the walk of session 20 found on a fresh project (everyday use, bad inputs)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def _id(result) -> str:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["item"]["id"]


def test_superseding_an_item_already_superseded_names_the_one_that_holds_now(repo):
    """`supersede A …` after A was superseded by B, and B by C, said only "A is already
    archived; `lorestack restore A` brings it back": the user wanted C, not A back."""
    a = _id(_run("remember", "Staging runs on port 8080", "--type", "fact", "--json"))
    b = _id(_run("supersede", a, "Staging runs on port 8081", "--json"))
    c = _id(_run("supersede", b, "Staging runs on port 9000", "--json"))
    again = _run("supersede", a, "Staging runs on port 9001")
    assert again.exit_code == 1 and again.stderr.count("\n") == 1, again.output
    assert f"superseded by {b}" in again.stderr and f"{c} holds now" in again.stderr
    assert f"lorestack supersede {c}" in again.stderr
    forgot = _run("forget", b, "--reason", "gone")
    assert forgot.exit_code == 1 and f"{c} holds now" in forgot.stderr, forgot.output
    listed = json.loads(_run("list", "--json").stdout)
    assert [i["id"] for i in listed if i["title"].startswith("Staging")] == [c]


def test_a_hand_edit_that_breaks_the_frontmatter_is_named_by_line_and_by_id(repo):
    """An unclosed `[` typed into an item's frontmatter: every command said "malformed
    frontmatter: while parsing a flow sequence" (no line, not what is wrong), and `show ID`
    said there is no such id, though the file holding it is right there."""
    item = _id(_run("remember", "Staging runs on port 9000", "--type", "fact", "--json"))
    path = next((repo / ".memory").rglob("staging-runs-on-port-9000.md"))
    lines = path.read_text().splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if line.startswith("importance:"))
    lines[at] = "importance: [0.5\n"
    path.write_text("".join(lines))
    listed = _run("list")
    assert f"line {at + 2}: " in listed.stderr, listed.stderr
    assert "expected ',' or ']'" in listed.stderr  # LibYAML adds "did not find"
    assert f"flow sequence on line {at + 1}" in listed.stderr
    shown = _run("show", item)
    assert shown.exit_code == 1 and shown.stderr.count("\n") == 1, shown.output
    assert str(path) in shown.stderr and "cannot be read" in shown.stderr
    assert f"line {at + 2}" in shown.stderr
    forgot = _run("forget", item, "--reason", "x")
    assert forgot.exit_code == 1 and str(path) in forgot.stderr, forgot.output


def test_an_empty_id_is_called_empty(repo):
    """`show ""` (an unset shell variable) said "no memory item or event with id ''"."""
    for args in (["show", ""], ["forget", " ", "--reason", "x"], ["supersede", "", "new text"],
                 ["edit", ""], ["restore", ""]):
        done = _run(*args)
        assert done.exit_code == 1 and done.stderr.count("\n") == 1, (args, done.output)
        assert "an empty id" in done.stderr and "with id ''" not in done.stderr, done.stderr


def test_a_secret_refused_where_no_redact_applies_offers_none(repo):
    """A key in `--about` or in `forget --reason` was refused with "… or pass --redact to store
    it with the secret replaced": `--about … --redact` is refused the same (a redacted path
    names no code) and `forget` has no --redact."""
    key = "AKIA" + "IOSFODNN7EXAMPLE"
    (repo / "src").mkdir()
    about = _run("remember", "the loader retries", "--type", "fact", "--redact",
                 "--about", f"src/{key}.py")
    item = _id(_run("remember", "the loader retries", "--type", "fact", "--json"))
    reason = _run("forget", item, "--reason", f"rotated {key}")
    for done in (about, reason):
        assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
        assert "looks like it contains a secret" in done.stderr and key not in done.stderr
        assert "--redact" not in done.stderr, done.stderr


def test_a_secret_typed_in_lorestack_edit_names_no_redact_flag(repo, tmp_path, monkeypatch):
    """`edit` refused a key typed into the file with "… or pass --redact": edit takes none."""
    import stat

    item = _id(_run("remember", "Deploys happen on Tuesdays", "--type", "fact", "--json"))
    editor = tmp_path / "add-key.sh"
    editor.write_text('#!/bin/sh\necho "deploy token ghp_' + "abcdefghijklmnopqrstuvwxyz0123456789"
                      + '" >> "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    done = _run("edit", item)
    assert done.exit_code == 1 and "looks like it contains a secret" in done.output, done.output
    assert "--redact" not in done.output and "back as it was" in done.output


def test_an_event_forgotten_already_is_said_so_and_done_with_no_id_is_an_empty_id(repo):
    """`forget EV` a second time said "no memory item or event with id EV", though `show EV`
    finds it in archive/events/ (an item says "already archived"); `done ""` said "no journal
    event with id ''"."""
    logged = _run("log", "todo: rotate the staging certs", "--kind", "todo", "--json")
    assert logged.exit_code == 0, logged.output
    event = json.loads(logged.stdout)["id"]
    assert _run("forget", event, "--reason", "dup").exit_code == 0
    again = _run("forget", event, "--reason", "dup")
    assert again.exit_code == 1 and again.stderr.count("\n") == 1, again.output
    assert f"'{event}' is already archived" in again.stderr and "archive" in again.stderr
    closed = _run("done", event)
    assert closed.exit_code == 1 and "already archived" in closed.stderr, closed.output
    empty = _run("done", "")
    assert empty.exit_code == 1 and "an empty id" in empty.stderr, empty.output


def test_about_on_global_memory_is_refused_not_dropped(repo):
    """`remember … --scope global --about src/users.py` stored the item and dropped --about
    without a word (global items have no anchors: `anchors set` refuses them)."""
    (repo / "src").mkdir()
    (repo / "src" / "users.py").write_text("def get_user(uid):\n    return uid\n")
    done = _run("remember", "users module caches nothing", "--type", "fact", "--scope", "global",
                "--about", "src/users.py")
    assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
    assert "global" in done.stderr and "--scope project" in done.stderr
    assert "users module" not in _run("list").stdout  # nothing was written


def test_anchors_of_an_archived_item_are_not_changed(repo):
    """`anchors set`/`accept` on a superseded item said "is about src/users.py" and rewrote
    the archived file, whose anchors nothing reads (only active items are checked)."""
    (repo / "src").mkdir()
    (repo / "src" / "users.py").write_text("def get_user(uid):\n    return uid\n")
    old = _id(_run("remember", "users are cached", "--type", "fact", "--about", "src/users.py",
                   "--json"))
    new = _id(_run("supersede", old, "users are never cached", "--json"))
    path = next((repo / ".memory" / "archive").rglob("users-are-cached.md"))
    before = path.read_bytes()
    for args in (["anchors", "set", old, "--about", "src/users.py:get_user"],
                 ["anchors", "accept", old]):
        done = _run(*args)
        assert done.exit_code == 1 and done.stderr.count("\n") == 1, (args, done.output)
        assert "archived" in done.stderr and new in done.stderr, done.stderr
    assert path.read_bytes() == before


def test_importing_a_memory_file_says_what_it_is(repo, tmp_path):
    """`lorestack import fact.md` (an item file, e.g. from another project) said "nothing to
    import: the sources hold no events"."""
    _id(_run("remember", "Staging runs on port 9000", "--type", "fact", "--json"))
    item = next((repo / ".memory" / "facts").glob("staging-*.md"))
    copy = tmp_path / item.name
    copy.write_bytes(item.read_bytes())
    done = _run("import", str(copy))
    assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
    assert f"{copy} is a lorestack memory file" in done.stderr


def test_importing_a_memory_file_saved_with_a_bom_and_crlf_says_what_it_is(repo, tmp_path):
    """An item file a Windows editor saved (a BOM, CRLF line ends) reads as the item it is,
    yet `import` of it still said "the sources hold no events"."""
    _id(_run("remember", "Staging runs on port 9000", "--type", "fact", "--json"))
    item = next((repo / ".memory" / "facts").glob("staging-*.md"))
    copy = tmp_path / item.name
    copy.write_bytes(b"\xef\xbb\xbf" + item.read_bytes().replace(b"\n", b"\r\n"))
    done = _run("import", str(copy))
    assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
    assert f"{copy} is a lorestack memory file" in done.stderr, done.stderr
