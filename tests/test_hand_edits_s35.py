"""Hand edits the memory commands must not leak, hide or change the wrong file of (session 35).

Each test drives whole `lorestack` processes over real files, as a user would: a key inside a
binary file, or a file an editor saved as UTF-16, never leaves in an export or lands through
an import.
"""

from __future__ import annotations

import base64
import json

from lorestack.memory_layers.memory import Memory
from tests.conftest import run_cli

OPENAI = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4"
AWS = "AKIAIOSFODNN7EXAMPLQ"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
KEYS = (OPENAI, AWS, GITHUB)


def _leaks(data: bytes) -> list[str]:
    """The keys `data` holds, read as bytes or as UTF-16 (its NUL bytes dropped)."""
    views = (data.decode("latin-1"), data.replace(b"\x00", b"").decode("latin-1"))
    return [k for k in KEYS if any(k in view for view in views)]


def _exported(stdout: str) -> dict[str, bytes]:
    out = {}
    for record in map(json.loads, stdout.splitlines()[1:]):
        data = record.get("text", "").encode("utf-8") or base64.b64decode(record["base64"])
        out[record["path"]] = data
    return out


def test_export_redacts_a_key_in_a_binary_or_utf16_file(repo, tmp_path):
    """Such files were exported as they were: a key in an image copied into .memory/, in a
    .md holding NUL bytes, or in a note saved as UTF-16 left in the export, key and all."""
    memory = repo / ".memory"
    files = {
        "photo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR " + OPENAI.encode() + b"\x00\xff",
        "facts/stray.md": (b"---\ntitle: Stray\n---\n\x00\xfe aws " + AWS.encode() + b"\n"),
        "facts/bom16.md": f"---\ntitle: Saved as UTF-16\n---\n\ntoken {GITHUB}\n".encode("utf-16"),
        "facts/le16.md": f"---\ntitle: LE\n---\n\nkey {OPENAI}\n".encode("utf-16-le"),
        "notes/be16.txt": f"the aws key is {AWS}\n".encode("utf-16-be"),
    }
    for rel, data in files.items():
        (memory / rel).parent.mkdir(parents=True, exist_ok=True)
        (memory / rel).write_bytes(data)
        assert _leaks(data)  # the check below can see a key in each
    done = run_cli("export", cwd=repo)
    assert done.returncode == 0, done.stderr
    exported = _exported(done.stdout)
    for rel, data in files.items():
        assert not _leaks(exported[rel]), rel
        assert b"[\x00R\x00E\x00D\x00" in exported[rel] or b"[REDACTED:" in exported[rel], rel
        assert rel in done.stderr
        assert (memory / rel).read_bytes() == data  # the user's file is theirs to clean
    assert exported["photo.png"].startswith(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR ")
    assert exported["photo.png"].endswith(b"]\x00\xff")  # the bytes around the key kept
    assert exported["facts/bom16.md"].decode("utf-16").startswith("---\ntitle: Saved as UTF-16")
    assert exported["notes/be16.txt"].decode("utf-16-be").startswith("the aws key is [REDACTED:")
    header = json.loads(done.stdout.splitlines()[0])
    assert set(header["redacted"]["ids"]) == set(files)
    assert not any(k in done.stderr for k in KEYS)

    # read back into the memory it came from: each file is that file, not a conflict (a .md
    # under facts/ that is no item is refused by an import, and said so: left out here)
    kept = [ln for ln in done.stdout.splitlines() if '"path": "facts/' not in ln]
    back = run_cli("import-memory", "-", "--json", input="\n".join(kept) + "\n",
                   cwd=repo, env={"LORESTACK_SERVICE__ENABLED": "false"})
    report = json.loads(back.stdout)
    assert not report["conflicts"], report
    assert {"photo.png", "notes/be16.txt"} <= set(report["unchanged"])


def test_import_writes_a_binary_file_holding_a_key_redacted(repo, tmp_path):
    """An export line from before the export redacted bytes (or written by hand) carrying a
    key inside a binary file was written into the memory as it was."""
    photo = b"\x89PNG\x00\x01 " + OPENAI.encode() + b" \x00\x02"
    note16 = f"aws {AWS}\n".encode("utf-16")
    lines = [{"format": "lorestack-export", "version": 1, "scope": "project"}]
    for rel, data in (("photo.png", photo), ("notes/n16.txt", note16)):
        lines.append({"kind": "file", "path": rel, "base64": base64.b64encode(data).decode()})
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    done = run_cli("import-memory", "-", input="".join(json.dumps(x) + "\n" for x in lines),
                   cwd=other, env={"LORESTACK_SERVICE__ENABLED": "false"})
    assert done.returncode == 0, done.stderr
    assert "2 redacted" in done.stdout + done.stderr
    written = (other / ".memory" / "photo.png").read_bytes()
    assert not _leaks(written) and written.startswith(b"\x89PNG\x00\x01 [REDACTED:")
    assert written.endswith(b" \x00\x02")
    n16 = (other / ".memory" / "notes" / "n16.txt").read_bytes()
    assert not _leaks(n16) and n16.decode("utf-16").startswith("aws [REDACTED:")


def _git(repo, *args: str) -> None:
    import subprocess

    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@e", "PATH": "/usr/bin:/bin"})


def _forgotten_with_a_live_leftover(repo, *remember: str) -> tuple[str, object]:
    """An item remembered, forgotten, and its live file back as it was: what a `forget` cut
    short between writing the archived copy and removing the live file leaves."""
    made = run_cli("remember", *remember, "--json", cwd=repo)
    assert made.returncode == 0, made.stderr
    shown = json.loads(made.stdout)
    item_id, live = shown["item"]["id"], repo / ".memory" / shown["path"].split(".memory/")[1]
    typed = live.read_bytes()
    assert run_cli("forget", item_id, "--reason", "no longer true", cwd=repo).returncode == 0
    live.write_bytes(typed)
    assert json.loads(run_cli("show", item_id, "--json", cwd=repo).stdout)["status"] == "archived"
    return item_id, live


def test_readers_of_live_items_leave_out_a_file_an_archived_copy_holds_the_id_of(repo):
    """`show`, `list` and `forget` read the archived copy (dup_ids), but `anchors`, `review`,
    `check` and `remember`'s duplicate check read the live leftover as the item: its code
    change was listed as stale, a forgotten criterion went on blocking, and remembering the
    same thing again was written into the leftover, which `list` does not show."""
    (repo / "src").mkdir()
    (repo / "src" / "deploy.py").write_text("def deploy():\n    pass\n")
    _git(repo, "init", "-q", ".")
    _git(repo, "add", "src")
    _git(repo, "commit", "-qm", "one")
    text = "Deploys go through the deploy function, never by hand"
    fact_id, leftover = _forgotten_with_a_live_leftover(repo, text, "--about", "src/deploy.py")
    rule_id, _ = _forgotten_with_a_live_leftover(
        repo, "--type", "criterion", "Never use pickle for caches", "--forbid", "pickle",
        "--verdict", "block")
    (repo / "src" / "deploy.py").write_text("def deploy():\n    return 1\n")
    _git(repo, "commit", "-qam", "two")

    anchors = run_cli("anchors", "--json", cwd=repo)
    assert anchors.returncode == 0, anchors.stderr
    assert fact_id not in anchors.stdout, anchors.stdout
    review = run_cli("review", "--json", cwd=repo)
    assert review.returncode == 0, review.stderr
    assert fact_id not in review.stdout, review.stdout
    for retrieval in ("--retrieval", "--no-retrieval"):
        check = run_cli("check", retrieval, "Use pickle for the cache", cwd=repo)
        assert check.returncode == 0, check.stdout + check.stderr
        assert rule_id not in check.stdout
        assert "an archived copy holds it" in check.stderr and "delete this file" in check.stderr

    typed = leftover.read_bytes()
    again = run_cli("remember", text, "--json", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["duplicate_of"] is None, again.stdout
    new_id = json.loads(again.stdout)["item"]["id"]
    assert new_id != fact_id and leftover.read_bytes() == typed
    listed = run_cli("list", "--json", cwd=repo)
    assert new_id in [r["id"] for r in json.loads(listed.stdout)]


def test_review_does_not_list_a_claim_an_archived_copy_rejected(repo):
    """A pending claim rejected by a `review reject` cut short: its archived copy holds the id
    (`show` says archived), but `review` listed the leftover as waiting."""
    claim_id, live = _forgotten_with_a_live_leftover(repo, "The CI runs on Tuesdays")
    live.write_text(live.read_text().replace("status: active", "status: pending"))
    review = run_cli("review", "--json", cwd=repo)
    assert review.returncode == 0, review.stderr
    assert claim_id not in review.stdout, review.stdout


SETTINGS = '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls)"]}\n}\n'


def _hooks_in(raw: bytes, encoding: str) -> dict:
    return json.loads(raw.decode(encoding))["hooks"]


def test_install_claude_code_reads_and_keeps_a_settings_file_saved_with_a_bom(repo, tmp_path):
    """A settings.json a Windows editor saved with a BOM, or as UTF-16 (PowerShell's `>`),
    which Claude Code reads (tests/test_real_clients.py runs it on one): `install` refused it
    as "not valid JSON (Unexpected UTF-8 BOM …)" and `doctor` reported it as a problem."""
    import os

    settings = tmp_path / "home" / ".claude" / "settings.json"
    assert str(settings.parent.parent) == os.environ["HOME"]
    settings.parent.mkdir(parents=True)
    for saved, encoding in ((b"\xef\xbb\xbf" + SETTINGS.encode(), "utf-8-sig"),
                            (SETTINGS.encode("utf-16"), "utf-16")):
        settings.write_bytes(saved)
        done = run_cli("install", "claude-code", cwd=repo)
        assert done.returncode == 0, done.stderr
        written = settings.read_bytes()
        assert written[:2] == saved[:2]  # the BOM kept, in its encoding
        assert "SessionStart" in _hooks_in(written, encoding)
        assert written.decode(encoding).startswith('{\n    "model": "opus",\n    "permissions"')
        doctor = run_cli("doctor", cwd=repo)
        assert "claude-code" not in doctor.stdout + doctor.stderr, doctor.stdout
        removed = run_cli("uninstall", "claude-code", cwd=repo)
        assert removed.returncode == 0, removed.stderr
        assert settings.read_bytes() == saved  # the user's bytes back, BOM and all


def test_install_refuses_a_bom_the_client_cannot_read_and_says_how_to_fix_it(repo, tmp_path):
    """Gemini CLI will not start on a settings.json with a BOM, and Codex runs no hook of a
    hooks.json with one: `install` keeps refusing such a file, now with the way to fix it (it
    said "not valid JSON (Unexpected UTF-8 BOM (decode using utf-8-sig) …)"), and `doctor`
    names it the same way."""
    home = tmp_path / "home"
    for client, rel in (("gemini", ".gemini/settings.json"), ("codex", ".codex/hooks.json")):
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        saved = b"\xef\xbb\xbf" + SETTINGS.encode()
        path.write_bytes(saved)
        done = run_cli("install", client, cwd=repo)
        assert done.returncode == 1
        line = done.stderr.strip()
        assert "\n" not in line and "Traceback" not in line, line
        assert "byte-order mark" in line and "save it as UTF-8 without a BOM" in line, line
        assert path.read_bytes() == saved
        doctor = run_cli("doctor", cwd=repo)
        assert any(client in ln and "save it as UTF-8 without a BOM" in ln
                   for ln in doctor.stdout.splitlines()), doctor.stdout


def test_a_memory_file_saved_as_utf16_is_named_as_such(repo):
    """Notepad's "Unicode" (UTF-16, with or without its BOM): `list` and `doctor` called the
    fact a "binary file (contains NUL bytes); not a memory item", which says nothing of the
    fix (re-save it as UTF-8). A real binary file is still called binary."""
    facts = repo / ".memory" / "facts"
    text = "---\ntitle: The build uses make\n---\n\nRun make before each commit.\n"
    (facts / "bom16.md").write_bytes(text.encode("utf-16"))
    (facts / "le16.md").write_bytes(text.encode("utf-16-le"))
    (facts / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01")
    listed = run_cli("list", cwd=repo)
    doctor = run_cli("doctor", cwd=repo)
    for out in (listed.stderr, doctor.stdout):
        for name in ("bom16.md", "le16.md"):
            (line,) = [ln for ln in out.splitlines() if name in ln]
            assert "saved as UTF-16" in line and "re-save it as UTF-8" in line, line
        (line,) = [ln for ln in out.splitlines() if "image.md" in ln]
        assert "binary file" in line and "UTF-16" not in line, line


def test_a_file_saved_with_another_markdown_suffix_is_told_to_be_renamed(repo):
    """facts/redis.markdown or decisions/Docker.MD (an editor's default, a case-insensitive
    file system's rename): `list` said "move it there", of a file already in facts/. It says
    the name to give it; renamed so, it is read."""
    memory = repo / ".memory"
    for path in (memory / "facts" / "redis.markdown", memory / "decisions" / "Docker.MD"):
        path.write_text("---\ntitle: Redis runs with 2 GB\n---\n\nRedis runs with 2 GB.\n")
    listed = run_cli("list", cwd=repo)
    for name, fixed in (("redis.markdown", "redis.md"), ("Docker.MD", "Docker.md")):
        (line,) = [ln for ln in listed.stderr.splitlines() if name in ln]
        assert f"rename it to {fixed}" in line and "move it there" not in line, line
    (memory / "facts" / "redis.markdown").rename(memory / "facts" / "redis.md")
    again = run_cli("list", "--json", cwd=repo)
    assert "Redis runs with 2 GB" in again.stdout and "redis.markdown" not in again.stderr
