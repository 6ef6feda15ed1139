"""A password in a URL's userinfo is removed whole: one holding an unescaped `@` (as people
type them into connection strings, which drivers split at the last `@`) was not found at all,
and one ending in `!` or `?` kept that tail after the marker."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

CASES = [
    ("mysql://root:p@ssw0rd-Is-Long@db.internal/app", "ssw0rd-Is-Long"),
    ("postgresql://app:Summer2024!!@db:5432/app", "Summer2024!!"),
    ("https://deploy:Zx9kLm2pQw?@git.internal/x.git", "Zx9kLm2pQw?"),
]


@pytest.mark.parametrize("url,password", CASES)
def test_a_url_password_is_refused_and_redacted_whole(repo, url, password):
    text = f"the app connects with {url} in staging"
    refused = run_cli("remember", text, cwd=repo)
    assert refused.returncode == 1 and "secret" in refused.stderr, refused.stdout
    assert not list((repo / ".memory" / "facts").glob("*.md"))
    kept = run_cli("remember", "--redact", text, cwd=repo)
    assert kept.returncode == 0, kept.stderr
    (path,) = (repo / ".memory" / "facts").glob("*.md")
    written = path.read_text("utf-8")
    assert "[REDACTED:password in url]@" in written
    assert password not in written and password[-4:] not in written


def test_a_url_without_userinfo_still_passes(repo):
    for text in ("the docs live at https://example.com:8443/a@b/c",
                 "clone git+ssh://git@github.com:org/repo.git first",
                 "mail alerts to ops@example.com from https://status.example.com"):
        done = run_cli("remember", text, cwd=repo)
        assert done.returncode == 0, (text, done.stderr)
