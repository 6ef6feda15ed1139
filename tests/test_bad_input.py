"""Bad files give one clear message naming the file; other items load; nothing is rewritten."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.listing import list_items
from lorestack.memory_layers.operations import remember

BAD_FILES = {
    "malformed.md": (b"---\ntitle: [unclosed\n---\nbody\n", "malformed frontmatter"),
    "unclosed.md": (b"---\ntitle: x\nbody without end\n", "no closing"),
    "future.md": (b"---\nschema: 99\ntitle: from the future\n---\n", "unknown schema version 99"),
    "latin1.md": ("---\ntitle: caf\xe9\n---\n".encode("latin-1"), "not valid UTF-8"),
    "binary.md": (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "binary file"),
    "badfield.md": (b"---\ntitle: x\nconfidence: 7\n---\n", "confidence"),
    "notamap.md": (b"---\n- a\n- b\n---\n", "not a mapping"),
}


@pytest.fixture
def broken(mem, repo):
    remember(mem, "A good fact that must still load", "fact")
    facts = repo / ".memory" / "facts"
    for name, (data, _) in BAD_FILES.items():
        (facts / name).write_bytes(data)
    return facts


def test_each_bad_file_is_named_with_its_problem(mem, broken):
    listing = list_items(mem)
    assert "A good fact that must still load" in {i.title for i in listing.items}
    messages = {p.path.name: p.problem for p in listing.problems}
    for name, (_, expected) in BAD_FILES.items():
        assert expected in messages[name], (name, messages.get(name))


def test_bad_files_are_never_rewritten(mem, broken):
    before = {p.name: p.read_bytes() for p in broken.iterdir()}
    runner = CliRunner()
    for args in (["list"], ["list", "--json"], ["remember", "another fact"], ["show", "nope"]):
        result = runner.invoke(cli, args)
        assert "Traceback" not in result.output
    after = {p.name: p.read_bytes() for p in broken.iterdir() if p.name in before}
    assert after == before


def test_cli_list_warns_on_stderr_and_keeps_json_clean(mem, broken):
    import json

    result = CliRunner().invoke(cli, ["list", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert any(d["title"] == "A good fact that must still load" for d in data)
    assert "malformed.md" in result.stderr


def test_unknown_id(repo):
    result = CliRunner().invoke(cli, ["show", "fact-doesnotexist"])
    assert result.exit_code == 1
    assert result.output.strip().startswith("Error: no memory item") and "Traceback" not in result.output


def test_missing_memory_dir(isolated):
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 1
    assert "lorestack init" in result.output and "Traceback" not in result.output


def test_file_deleted_mid_operation(mem, repo, monkeypatch):
    remember(mem, "Demo stays", "fact")
    written = remember(mem, "Soon gone", "fact")
    from lorestack.memory_layers import store as store_mod

    real = store_mod.MemoryStore.load_file

    def vanish(self, path):
        if path == written.path and path.exists():
            path.unlink()  # deleted between listing and reading
        return real(self, path)

    monkeypatch.setattr(store_mod.MemoryStore, "load_file", vanish)
    titles = {i.title for i in list_items(mem).items}
    assert "Soon gone" not in titles and "Demo stays" in titles  # no crash, the rest loads


def test_hand_edit_between_read_and_write_is_detected(mem, repo):
    from lorestack.core.errors import ConcurrentEdit

    written = remember(mem, "Original text", "fact")
    loaded = mem.get(written.item.id)
    written.path.write_text(written.path.read_text().replace("Original text", "Hand edited"))
    with pytest.raises(ConcurrentEdit):
        mem.project_store.update(loaded, loaded.item)
    assert "Hand edited" in written.path.read_text()


def test_invalid_config_is_one_line(repo):
    (repo / ".memory" / "config.toml").write_text("[loader\nbudget = ")
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 1 and "config.toml" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("where", ["missing-folder/out.jsonl", "a-file/out.jsonl"])
def test_a_file_the_system_refuses_is_one_line_not_a_bug_report(repo, where):
    """An OS refusal (no such folder, a folder where a file goes, a read-only disk, no
    permission, a full disk) is the user's to fix: one line naming the path and what to do,
    not a bare "unexpected … this is a bug"; `--out` is a path the user named, so the line
    does not ask for a bug report (the generic line for a path that may be lorestack's own
    keeps that request: the test below)."""
    (repo / "a-file").write_text("a file where a folder would be\n")
    target = repo / where
    result = CliRunner().invoke(cli, ["export", "--out", str(target)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert str(target) in lines[0] and "check the path" in lines[0]
    assert "unexpected" not in lines[0] and "bug" not in lines[0] and "--out" in lines[0]
    assert "Traceback" not in result.output


def test_an_os_refusal_inside_the_index_asks_to_be_reported():
    from lorestack.cli.main import unexpected_line

    full = OSError(28, "No space left on device", "/tmp/p/out.jsonl")
    assert unexpected_line(full).endswith("the disk is full; free some space")
    own = OSError(13, "Permission denied", "/tmp/p/.memory/.index/catalog.sqlite")
    assert "check its permissions" in unexpected_line(own)
    assert "please report it" in unexpected_line(own)


def test_a_name_too_long_is_one_short_line_not_a_bug_report(repo):
    """`lorestack import <a pasted paragraph>`: the file system refuses the name. The user
    gets one line that says so, with the name cut to a length a terminal shows, not a 100 kB
    line calling it a bug in lorestack."""
    name = "x" * 5000
    result = CliRunner().invoke(cli, ["import", name])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output[:500]
    assert "too long" in lines[0] and "use a shorter name" in lines[0] and " characters)" in lines[0]
    assert "bug" not in lines[0] and "unexpected" not in lines[0]
    assert len(lines[0]) < 400


def test_a_title_gets_the_same_refusals_as_the_text(repo):
    """The title was stored as typed with no check: a 100 kB `--title` made a 100 kB item
    (over limits.max_item_bytes, which the text is held to), and a NUL in an MCP call's
    title went into the file, then out of `list` and `show` to the terminal."""
    from lorestack.core.errors import InputRejected
    from lorestack.integrations import mcp_tools
    from lorestack.memory_layers.memory import Memory

    facts = repo / ".memory" / "facts"
    before = sorted(p.name for p in facts.iterdir())
    result = CliRunner().invoke(cli, ["remember", "--title", "t" * 100_000, "Ship on Tuesdays"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "title is 98 kB, over the 64 kB limit" in lines[0], lines
    with pytest.raises(InputRejected, match="title contains NUL"):
        mcp_tools.remember(Memory.open(repo), "Ship on Tuesdays", title="a\x00b")
    assert sorted(p.name for p in facts.iterdir()) == before
