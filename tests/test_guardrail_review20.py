"""Review of the twentieth session's guardrail readings (issue 22): where a command runs,
"Never rename or move files in X/", and deletions the new `removed:` gate did not see.

A confirmed rule blocks, so a path must be read where the command really is: `cd /tmp`,
`cd ~`, `cd` alone and `cd "$DIR"` leave the project (or go where no one can tell), and a
`(` group opened on one line and closed on another keeps its `cd`s. Before, all of these
read the paths after them at the old place (or at the root), and `cd /tmp && rm -rf
fixtures/golden/` blocked "Never delete files under fixtures/golden/"."""

from __future__ import annotations

import pytest

from lorestack.guardrail.shell_unwrap import unwrap


@pytest.mark.parametrize(
    ("command", "where", "read"),
    [
        ("cd /tmp && rm -rf fixtures/golden/", "", "rm -rf /tmp/fixtures/golden/"),
        ('cd "$TMPDIR" && rm -rf golden/', "fixtures", "rm -rf golden/"),
        ("cd\nrm -rf golden/", "fixtures", "rm -rf HOME/golden/"),
        ("cd fixtures\ncd ~\nrm golden/a.png", "", "rm HOME/golden/a.png"),
        ("(\ncd lib\n)\ntouch helpers/new.py", "", "\ntouch helpers/new.py"),
        ("cd /tmp\ncd work && rm x.txt", "", "rm /tmp/work/x.txt"),
    ],
)
def test_a_cd_out_of_the_project_or_to_an_unknown_place(tmp_path, monkeypatch, command, where, read):
    home = tmp_path / "home"
    root = tmp_path / "repo"
    (root / "fixtures").mkdir(parents=True)
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    got = unwrap(command, where, root)
    assert read.replace("HOME", str(home)) in got, got


@pytest.mark.parametrize(
    ("command", "where", "read"),
    [
        ("cd fixtures && rm golden/a.png", "", "rm fixtures/golden/a.png"),
        ("cd ~/repo/fixtures && rm golden/a.png", "", "rm fixtures/golden/a.png"),
        ("cd /tmp\ncd HOME/repo/lib && touch helpers/x.py", "", "touch lib/helpers/x.py"),
        ("(\ncd lib\ntouch helpers/x.py\n)", "", "touch lib/helpers/x.py"),
        ("pushd lib && touch helpers/x.py && popd && touch y.txt", "", "touch lib/helpers/x.py && popd && touch y.txt"),
    ],
)
def test_a_cd_inside_the_project_is_still_followed(tmp_path, monkeypatch, command, where, read):
    home = tmp_path / "home"
    root = home / "repo"
    (root / "fixtures").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    got = unwrap(command.replace("HOME", str(home)), where, root)
    assert read in got, got
