"""Issue 22 (twenty-eighth session, fix28b): a required word met only inside a name the
proposal sets to False, 0, None, off or no counted as the requirement met — in the guessed
and the confirmed mode. Such a name switches the wanted thing off: the answer is "applies,
undecided", never a pass; the same name set on stays a pass. Our own sentences and
proposals; the real MiniLM model."""

from __future__ import annotations

from tests.conftest import answers_in_both_modes, new_file_diff

CRITERIA = {
    "csrf": ("Every form needs CSRF protection enabled", "block"),
    "enc": ("Backups must be encrypted at rest", "block"),
    "hook": ("Webhook payloads must be verified; never parse one without checking the signature",
             "block"),
}
CASES = [  # (id, key, proposal, answer)
    ("csrf-prose", "csrf", "Set CSRF_PROTECTION_ENABLED to False on the checkout form so the "
     "payment iframe can post to it", "undecided"),
    ("enc-off", "enc", new_file_diff("deploy/backup.yaml",
                                     ["backup:", "  schedule: daily", "  encrypted: false"]),
     "undecided"),
    ("enc-on", "enc", new_file_diff("deploy/backup.yaml",
                                    ["backup:", "  schedule: daily", "  encrypted: true"]), "pass"),
    ("hook-off", "hook", new_file_diff("hooks/receive.py", [
        "def receive(body):",
        "    event = hooks.parse(body, options={'verify_signature': False})",
        "    return event['type']"]), "undecided"),
]


def test_a_name_switched_off_is_no_proof_the_rule_is_met(tmp_path):
    want = {case_id: want for case_id, _, _, want in CASES}
    assert answers_in_both_modes(tmp_path, CRITERIA, CASES) == {False: want, True: want}
