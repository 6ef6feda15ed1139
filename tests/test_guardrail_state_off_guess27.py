"""Issue 22, twenty-seventh session: a state a rule forbids with a copula ("Production builds
must never be debuggable"), set to false in code (`debuggable false`), kept a confirmed rule
since the twenty-third session (state_off.py) but a guess still asked — the same reading now
keeps the guess (mob_release_not_debuggable-p2 of batch 22). Set true, or once true and once
false, it asks as before. The cases are our own. Real files, the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import state_off as S
from tests import heldout_eval as E
from tests.conftest import answers_of

CRITERIA = {"prod": ("Production builds must never be debuggable", "block")}


def _gradle(lines: str) -> dict:
    return {"text": lines, "paths": ["app/build.gradle"]}


CASES = [  # (id, key, proposal, answer now, answer without the reading)
    ("prod-p", "prod", _gradle("    production {\n        debuggable false\n    }"), "pass",
     "undecided"),
    ("prod-v", "prod", _gradle("    production {\n        debuggable true\n    }"), "undecided",
     "undecided"),
    ("prod-v2", "prod", _gradle("    production {\n        debuggable false\n    }\n"
                                "    staging {\n        debuggable true\n    }"), "undecided",
     "undecided"),
]


def test_a_guessed_state_set_false_keeps_the_rule(tmp_path, monkeypatch):
    mem, ids = E.build(tmp_path / "state", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    assert answers() == {case_id: now for case_id, _, _, now, _ in CASES}
    monkeypatch.setattr(S, "STATE_OFF", False)
    assert answers() == {case_id: before for case_id, _, _, _, before in CASES}
