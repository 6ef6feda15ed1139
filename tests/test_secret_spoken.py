"""Passwords said in words never reach the journal (issue 24), and what merely talks about
passwords, logins and paths is stored as written."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from lorestack.bench.spoken_secrets import score
from lorestack.cli.main import cli

SAID = [
    ("Seth said the pw for the test box is letmein123", "letmein123"),
    ("login for grafana: admin/admin123", "admin123"),
    ("my password for the VPN is correct horse battery staple", "correct horse battery staple"),
    ("the password for the build box is Kettle42", "Kettle42"),
    ("root:Winter2024 works on the bastion", "Winter2024"),
    # the verb before the noun: stored raw before session 32
    ("changed the db password to Zx9kLm2pQw7x yesterday", "Zx9kLm2pQw7x"),
    ("I reset the staging password to 'Kettle42!'", "Kettle42!"),
    ("set the admin pw to 'correct-horse-battery-staple'", "correct-horse-battery-staple"),
]
LOOK_ALIKES = [
    "the password policy is 12 characters",
    "reset your password at /account",
    "the admin/settings page moved to the footer",
    "my password for the VPN expired again",
    "login for grafana goes through SSO now",
    "changed the password to something stronger",
    "reset the token to the default value",
    "set the minimum password to 12 characters",
    "rotated the signing key to the new one in the vault",
]


@pytest.mark.parametrize("text,secret", SAID)
def test_said_in_words_is_refused_and_nothing_is_written(repo, text, secret):
    result = CliRunner().invoke(cli, ["log", text])
    assert result.exit_code != 0 and "password" in result.output.lower(), result.output
    journal = repo / ".memory" / "journal"
    assert not any(secret in p.read_text() for p in journal.glob("*.md"))
    redacted = CliRunner().invoke(cli, ["log", text, "--redact"])
    assert redacted.exit_code == 0, redacted.output
    written = "".join(p.read_text() for p in journal.glob("*.md"))
    assert secret not in written and "[REDACTED" in written


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_are_stored_as_written(repo, text):
    result = CliRunner().invoke(cli, ["log", text])
    assert result.exit_code == 0, result.output
    assert text in "".join(p.read_text() for p in (repo / ".memory" / "journal").glob("*.md"))


@pytest.mark.parametrize("draw", range(3))  # the index, not the seed: workers collect alike
def test_the_tuning_set_is_caught_whatever_the_values(draw):
    seed = random.SystemRandom().randrange(1, 10**9)  # fresh values every run
    result = score(seed)
    print(f"\nseed {seed}: blocked {result.blocked}/{result.credentials}, "
          f"flagged {result.flagged}/{result.look_alikes}")
    assert result.blocked == result.credentials, result.missed
    assert result.flagged == 0, result.false_positives
