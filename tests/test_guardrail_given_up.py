"""Issue 22, twenty-fourth session: a change that takes away what the rule asks for
(lorestack/guardrail/given_up.py): a diff whose removed lines hold two words of what the
criterion states positively, which its added lines no longer have, is at least "applies,
undecided" — never a block. Our own criteria and diffs; real files and the real MiniLM
model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import given_up as given_up_module
from lorestack.guardrail.diff_headers import removed_in_diff
from lorestack.guardrail.given_up import given_up
from lorestack.memory_layers.models import CriterionSpec
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_tuning_batch20 import _gd, _hunk, _new


def test_the_lines_a_diff_removes_from_the_files_it_keeps():
    diff = (_hunk("app/settings.py", "TIMEOUT = 30", removed="TIMEOUT = 10\nRETRIES = 3")
            + "diff --git a/old.py b/old.py\ndeleted file mode 100644\nindex 1a2b3c4..0000000\n"
              "--- a/old.py\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-print('gone')\n"
            + _new("app/new.py", "x = 1"))
    assert removed_in_diff(diff) == "TIMEOUT = 10\nRETRIES = 3"  # not a deleted file's lines


def test_what_the_rule_asks_for_taken_away():
    rule = "Backups are encrypted with the KMS backup key before upload"
    spec = CriterionSpec()
    assert given_up(rule, spec, "    blob = kms_encrypt(blob, key=BACKUP_KEY)\n    upload(blob)",
                    "    upload(blob)") == "blob = kms_encrypt(blob, key=BACKUP_KEY)"
    # the words are still there in the new text: a refactor, not a removal
    assert given_up(rule, spec, "    blob = kms_encrypt(blob, key=BACKUP_KEY)",
                    "    blob = encrypt_for_backup(blob, key=BACKUP_KEY)  # kms") == ""
    # one word changed in place says too little (`level: info` -> `warning` under "info or above")
    assert given_up("Services log at info or above", spec, "  level: info", "  level: warning") == ""
    assert given_up(rule, spec, "", "    upload(blob)") == ""


CRITERIA = {
    "encrypted_backups": ("Backups are encrypted with the KMS backup key before upload", "warn"),
    "webhooks": ("Incoming webhooks are checked against the HMAC signing secret first", "warn"),
}
# (case, criterion, proposal, a violation?)
CASES = [
    ("backups-v1", "encrypted_backups", _gd(_hunk("ops/backup.py", "    s3.put_object(Bucket=BUCKET, Key=name, Body=blob)", removed="    blob = kms.encrypt(KeyId=BACKUP_KEY_ID, Plaintext=blob)[\"CiphertextBlob\"]\n    s3.put_object(Bucket=BUCKET, Key=name, Body=blob)", context="def push(name, blob):")), True),
    ("webhooks-v1", "webhooks", _gd(_hunk("hooks/stripe.py", "    event = json.loads(body)", removed="    verify_hmac(body, request.headers[\"Stripe-Signature\"], SIGNING_SECRET)\n    event = json.loads(body)", context="def receive(request):\n    body = request.body")), True),
    ("webhooks-p1", "webhooks", _gd(_hunk("hooks/stripe.py", "    verify_hmac(body, request.headers[\"Stripe-Signature\"], SIGNING_SECRET)\n    event = stripe_event(body)", removed="    verify_hmac(body, request.headers[\"Stripe-Signature\"], SIGNING_SECRET)\n    event = json.loads(body)", context="def receive(request):\n    body = request.body")), False),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "given_up", CRITERIA)


def test_a_change_taking_it_away_is_not_passed_in_silence(store, monkeypatch):
    for case, key, raw, violation in CASES:
        monkeypatch.setattr(given_up_module, "ENABLED", False)
        without = confirmed_answer(store, key, raw)
        monkeypatch.setattr(given_up_module, "ENABLED", True)
        got = confirmed_answer(store, key, raw)
        if violation:  # silent without the reading; "applies, undecided" with it, not a block
            assert (without, got) == ("pass", "undecided"), case
        else:  # what the rule asks for is still there: as without the reading
            assert got == without, case
