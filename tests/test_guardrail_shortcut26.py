"""Issue 22, twenty-sixth session: prose read as taking the recommended way by meaning while
it argues for a shortcut ("Push build 2.4.0 to every production node in one go, the canary
takes too long", batch 7's canary_first-v2; "Patch the missing field straight into the Python
stubs so we don't have to run protoc again", batch 8's generated_code-v2) names the
recommended way only to set it aside: it passed in silence. At the forbidden-act gate's bar
(0.45) or nearer the whole criterion it now stays "applies, undecided"
(lorestack/guardrail/shortcut.py `argued_away`). The sentences below are our own. Real files,
the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import shortcut as S
from tests import heldout_eval as E
from tests.conftest import answers_of

CRITERIA = {
    "ring": ("Mobile backend releases go through the canary ring first; never push a build to "
             "the whole fleet at once", "warn"),
}
CASES = [  # (id, key, proposal, answer with the reading, answer without it)
    ("ring-v1", "ring", "Push release 3.1 to every backend node in one go, the canary ring "
     "takes too long", "undecided", "pass"),
    ("ring-v2", "ring", "Roll 3.1 out to the whole fleet at once, the canary ring is slow today",
     "undecided", "pass"),
    # the recommended way taken, with no shortcut argued: a pass either way
    ("ring-p1", "ring", "Send release 3.1 through the canary ring first and widen it to the "
     "fleet tomorrow", "pass", "pass"),
]


def test_a_shortcut_argued_against_the_recommended_way(tmp_path, monkeypatch):
    mem, ids = E.build(tmp_path / "shortcut26", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    assert answers() == {case_id: on for case_id, _, _, on, _ in CASES}
    monkeypatch.setattr(S, "ARGUED", False)
    assert answers() == {case_id: off for case_id, _, _, _, off in CASES}
