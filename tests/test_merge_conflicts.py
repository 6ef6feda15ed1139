"""A memory file a git merge left with conflict markers: every command still reads both sides'
text, never the markers; `doctor` names the file and says to resolve it; nothing rewrites it."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.conftest import run_cli


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                          cwd=cwd, capture_output=True, text=True)


def _merged_with_conflict(repo: Path, ours: str, theirs: str, *, head_too: bool = False) -> Path:
    """The one fact's last line changed on a branch and on main, merged and committed as is
    (`head_too`: its title in the frontmatter as well, so both halves conflict)."""
    made = run_cli("remember", "The staging database listens on port 5432", "--json", cwd=repo)
    assert made.returncode == 0, made.stderr
    path = Path(json.loads(made.stdout)["path"])
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")

    def change(new: str, title: str) -> None:
        head, body = path.read_text().rsplit("\n---\n", 1)  # the text's line, not the title
        text = head + "\n---\n" + body.replace("listens on port 5432\n", new + "\n")
        if head_too:
            text = text.replace("title: The staging database listens on port 5432", title)
        path.write_text(text)

    _git(repo, "checkout", "-qb", "other")
    change(theirs, "title: Staging port (theirs)")
    _git(repo, "commit", "-qam", "theirs")
    _git(repo, "checkout", "-q", "main")
    change(ours, "title: Staging port (ours)")
    _git(repo, "commit", "-qam", "ours")
    merged = _git(repo, "merge", "other")
    assert "CONFLICT" in merged.stdout, merged.stdout
    _git(repo, "commit", "-qam", "merged (markers and all)")
    assert "<<<<<<< HEAD" in path.read_text() and ">>>>>>> other" in path.read_text()
    return path


def test_a_conflicted_body_is_read_without_markers_and_named_by_doctor(repo):
    """The markers were indexed as words (a search for HEAD found the fact) and served in
    `context` to the model, and `doctor` said ok."""
    path = _merged_with_conflict(repo, "listens on port 5433 after the upgrade",
                                 "listens on port 6432 since the pgbouncer move")
    before = path.read_bytes()
    assert run_cli("reindex", cwd=repo).returncode == 0

    doctor = run_cli("doctor", cwd=repo)
    assert doctor.returncode != 0, doctor.stdout
    said = doctor.stdout + doctor.stderr
    assert str(path) in said and "merge-conflict markers" in said and "resolve" in said, said

    context = run_cli("context", cwd=repo)
    for marker in ("<<<<<<<", "=======", ">>>>>>>", "HEAD", "other"):
        assert marker not in context.stdout, context.stdout
    assert "5433 after the upgrade" in context.stdout  # both sides, nothing lost
    assert "6432 since the pgbouncer move" in context.stdout
    assert str(path) in context.stderr and "merge-conflict" in context.stderr, context.stderr

    for word, found in (("HEAD", False), ("other", False), ("pgbouncer", True), ("upgrade", True)):
        hits = run_cli("search", word, "--mode", "bm25", "--json", cwd=repo)
        assert (str(path) in [h["path"] for h in json.loads(hits.stdout)]) is found, (word, hits.stdout)

    # nothing rewrites the file before the person resolves it (a rewrite drops the markers)
    item_id = re.search(r"^id: (\S+)$", path.read_text(), re.M).group(1)
    forgot = run_cli("forget", item_id, "--reason", "moved", cwd=repo)
    assert forgot.returncode != 0 and "merge-conflict markers" in forgot.stderr, forgot.stderr
    assert path.read_bytes() == before


def test_a_conflicted_frontmatter_is_named_not_guessed(repo):
    """Which side's title (or date) holds is the person's choice: the file is not read, and
    every reader names it with the lines to resolve."""
    path = _merged_with_conflict(repo, "listens on port 5433", "listens on port 6432",
                                 head_too=True)
    doctor = run_cli("doctor", cwd=repo)
    said = doctor.stdout + doctor.stderr
    assert doctor.returncode != 0 and str(path) in said, said
    assert "merge-conflict markers in the frontmatter" in said, said
    listed = run_cli("list", cwd=repo)
    assert "merge-conflict markers in the frontmatter" in listed.stderr, listed.stderr


def test_only_a_whole_block_is_a_conflict():
    """A heading underlined with ======= (or a quoted >>>>>>> line) is text; a diff3 block's
    base section (what both sides changed) is left out of the text, both sides kept."""
    from lorestack.memory_layers.markdown import parse_item

    plain = b"---\nid: x\ntype: fact\n---\n\nSetup\n=======\n>>>>>>> not a merge\n"
    item = parse_item(Path("x.md"), plain)
    assert item.body == "Setup\n=======\n>>>>>>> not a merge" and item.conflict_lines == []
    diff3 = (b"---\nid: y\ntype: fact\n---\n\n<<<<<<< ours\nA is 2\n||||||| base\nA is 1\n"
             b"=======\nA is 3\n>>>>>>> theirs\nend\n")
    item = parse_item(Path("y.md"), diff3)
    assert item.body == "A is 2\nA is 3\nend" and item.conflict_lines == [6, 8, 10, 12]
