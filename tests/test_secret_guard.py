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


# a key split by a line break when pasted, or glued to a name by '-' / '_': each case is the
# text and the pieces of the key that must not survive redaction
SPLIT_OR_GLUED = {
    "aws wrapped": ("the key is AKIAIOSFODNN7\nEXAMPLE for backups", ["AKIAIOSFODNN7", "EXAMPLE"]),
    "github wrapped, short head": (
        "use ghp_a8Kf\n3LmQ9zR2xT7vB1nC4dE6gH0jW5yU8iPo for release",
        ["ghp_a8Kf", "3LmQ9zR2xT7vB1nC"],
    ),
    "openai wrapped, indented": (
        "key:\n  sk-proj-a8Kf3LmQ9zR2x\n  T7vB1nC4dE6gH0jW5yU8iPo\nend",
        ["a8Kf3LmQ9zR2x", "T7vB1nC4dE6g"],
    ),
    "github wrapped in a quoted block": (
        "> pasted:\n> ghp_a8Kf3LmQ9zR2\n> xT7vB1nC4dE6gH0jW5yU8iPo\n> thanks",
        ["ghp_a8Kf3LmQ9zR2", "xT7vB1nC4dE6g"],
    ),
    "aws glued by dash": ("key prod-AKIAIOSFODNN7EXAMPLE here", ["AKIAIOSFODNN7EXAMPLE"]),
    "aws glued by underscore": ("key prod_AKIAIOSFODNN7EXAMPLE here", ["AKIAIOSFODNN7EXAMPLE"]),
    "aws glued to a name after it": ("key AKIAIOSFODNN7EXAMPLE-prod here", ["AKIAIOSFODNN7EXAMPLE"]),
    "aws glued by underscore after it": (
        "the AKIAIOSFODNN7EXAMPLE_claim was rotated", ["AKIAIOSFODNN7EXAMPLE"]
    ),
}


@pytest.mark.parametrize("name", sorted(SPLIT_OR_GLUED))
def test_split_or_glued_keys_are_found_by_their_provider_rule(name):
    from lorestack.memory_layers.secret_guard import redact_all

    text, pieces = SPLIT_OR_GLUED[name]
    kinds = {f.kind for f in find_secrets(text)}
    assert kinds - {"high-entropy string"}, (name, kinds)  # named, not only a random string
    clean, _ = redact_all(text)
    assert not [p for p in pieces if p in clean], clean
    assert clean.split()[-1] in text.split()  # the words after the key are kept


@pytest.mark.parametrize(
    "text",
    [
        "the ghp_ prefix marks a classic token; AKIA marks an\nAWS key id and sk_live_\na note",
        "\n".join(["3f9a2b7c" * 5, "a1b2c3d4" * 5, "0e9d8c7b" * 5]),
        "risk-assessment-template-for-the-payments-team\ntask-skeleton-generator-config_v2",
        "rotate_the_staging_credentials\nbefore_the_freeze and tell_the_team\nafterwards",
    ],
)
def test_line_breaks_and_dashes_between_ordinary_words_are_not_keys(text):
    assert find_secrets(text) == [], text


def test_a_wrapped_key_whose_first_line_is_a_whole_key_loses_its_tail_too():
    from lorestack.memory_layers.secret_guard import redact_all

    text = "pasted:\nghp_XrQGwa5z5LV3R0sLPu5ZmSuUxRHEY8\nX8a0gX\nexpires in 30 days"
    clean, _ = redact_all(text)
    assert "X8a0gX" not in clean and clean.endswith("\nexpires in 30 days"), clean
    kept = redact_all("use ghp_XrQGwa5z5LV3R0sLPu5ZmSuUxRHEY8X8a0\nRelease notes follow")[0]
    assert kept.endswith("\nRelease notes follow"), kept
