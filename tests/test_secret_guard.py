"""Secrets are refused (nothing written) or redacted on request, on every write path."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.core.errors import SecretDetected
from lorestack.memory_layers.secret_guard import find_secrets, guard_text

SECRETS = {
    "aws": "aws key AKIAIOSFODNN7EXAMPLE for the bucket",
    "openai": "OPENAI_API_KEY=sk-proj-abcdefghij1234567890ABCDEFGH",
    "env password": "DB_PASSWORD: hunter2x",
    "password field": "password: correcthorsebattery",
    "token in prose": "the auth token: x9f2kLq7Zp",
    "url password": "connect to postgres://admin:S3cretPw@db.internal:5432/app",
    "github": "use ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI",
    "slack": "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
    "stripe": "stripe sk_live_abcdefghijklmnopqrstuvwx",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "private key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----",
    "high entropy": "the signing value is Zx8kQ2mN7pL4vR9tY3wB6cF1hJ5sD0gA",
    "google": "AIzaSyA1234567890abcdefghijklmnopqrstuv",
}

CLEAN = [
    "We moved the queue to Redis streams in auth_service.py",
    "getUserById returns ERR_CONN_RESET under RS256 verification",
    "commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b fixed the flake",
    "the api_key field is required in config",
    "MyVeryLongComponentNameForTheDashboardView2024 renders slowly",
    "export DATABASE_URL=postgres://localhost:5432/app",
    "set SECRET_KEY in the vault, never in code",
    "uuid 123e4567-e89b-12d3-a456-426614174000 is the tenant",
    "see https://example.org/org/repo/blob/main/src/app.py",
    "Blocked on auth: waiting for the identity team",
    "token: budget is 600 per prompt",
    "secret: sauce is caching",
]


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_secret_detected(kind):
    assert find_secrets(SECRETS[kind]), kind


@pytest.mark.parametrize("text", CLEAN)
def test_engineering_text_is_not_a_secret(text):
    assert find_secrets(text) == []


def test_redaction_removes_the_value():
    out = guard_text(SECRETS["github"], redact_secrets=True)
    assert "ghp_abcdef" not in out and "[REDACTED:" in out
    with pytest.raises(SecretDetected):
        guard_text(SECRETS["github"])


@pytest.mark.parametrize("args", [
    ["remember", SECRETS["aws"]],
    ["remember", "deploy notes", "--title", SECRETS["github"]],
    ["remember", "x", "--tags", "ok,sk_live_abcdefghijklmnopqrstuvwx"],
    ["remember", "no cron", "--type", "criterion", "--keyword", "cron", "--rationale", SECRETS["env password"]],
    ["log", SECRETS["url password"]],
])
def test_cli_refuses_and_writes_nothing(repo, args):
    before = sorted(p.relative_to(repo) for p in (repo / ".memory").rglob("*") if ".index" not in p.parts)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert "secret" in result.output and "Traceback" not in result.output
    after = sorted(p.relative_to(repo) for p in (repo / ".memory").rglob("*") if ".index" not in p.parts)
    assert after == before
    for path in (repo / ".memory").rglob("*.md"):
        text = path.read_text()
        assert "AKIA" not in text and "ghp_" not in text and "S3cretPw" not in text


def test_cli_redact_stores_without_the_secret(repo):
    result = CliRunner().invoke(cli, ["remember", SECRETS["stripe"], "--redact", "--json"])
    assert result.exit_code == 0, result.output
    stored = "".join(p.read_text() for p in (repo / ".memory" / "facts").glob("*.md"))
    assert "sk_live_" not in stored and "[REDACTED:" in stored
