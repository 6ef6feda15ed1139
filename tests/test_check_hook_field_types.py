"""A pre-tool payload field of the wrong type is read as absent, as the other hooks read it
(qa32u, session 32): a `cwd` or `workspace_roots` that was not text made `lorestack check
--hook pre-tool` fail open with "lorestack check failed: TypeError: expected str, bytes or
os.PathLike object, not int", so a call that breaks a block rule went through unchecked."""

from __future__ import annotations

import json

import pytest

from tests import test_check_cli
from tests.conftest import run_cli

rules = test_check_cli.rules  # fixture
pytestmark = pytest.mark.usefixtures("long_hook_deadlines")


@pytest.mark.parametrize("odd", [{"cwd": 5}, {"workspace_roots": 5},
                                 {"workspace_roots": [5, {"a": 1}]}])
def test_a_field_of_another_type_does_not_switch_the_guardrail_off(rules, repo, odd):
    payload = json.loads(test_check_cli.claude_payload(
        repo, "Write", {"file_path": str(repo / "infra" / "dns.tf"),
                        "content": 'record "www" {}'}))
    payload.update(odd)
    done = run_cli("check", "--hook", "pre-tool", "--client", "claude-code",
                   input=json.dumps(payload), cwd=repo)
    assert done.returncode == 0 and "check failed" not in done.stderr, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny" and rules["infra"] in out[
        "permissionDecisionReason"]
