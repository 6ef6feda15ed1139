"""Issue 22, fifth session: rules whose fault is something MISSING (missing.py: "public
classes need a docstring" and a diff adding `class Pool:` without one) and rules about a
PROPERTY of a change (change_kind.py: "breaking", "risky", "architectural"), and the sixth
tuning batch's figures as floors. Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import change_kind, missing
from lorestack.guardrail.missing import judge_missing, read_need, wanted_present
from tests import guardrail_tuning_batch6 as B6
from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _bash, _diff


def test_a_need_sentence_names_a_subject_with_a_code_form_and_what_it_wants():
    need = read_need("Every public class needs a docstring explaining what it is for")
    assert need is not None and need.subject == "a class"
    need = read_need("Any new environment variable must be added to .env.example with a comment")
    assert need is not None and need.subject == "an environment variable"
    # a subject without a code form, or no need at all: this reader says nothing
    assert read_need("Every user-visible change needs an entry in CHANGELOG.md") is None
    assert read_need("Never write email addresses to the logs") is None


def test_the_subject_present_and_the_wanted_thing_missing_is_undecided_never_kept():
    sentence = "Images in the web UI need alt text"
    bare = judge_missing(sentence, '<img src={url} className="avatar" />', ["web/A.jsx"], True)
    assert bare is not None and not bare.kept and "alt text" in bare.reason
    ok = judge_missing(sentence, '<img src={url} alt="Ada" />', ["web/A.jsx"], True)
    assert ok is not None and ok.kept
    # no image in the change: nothing to say; prose is no change
    assert judge_missing(sentence, "const x = 1;", ["web/A.jsx"], True) is None
    assert judge_missing(sentence, "Add an <img> to the header", [], False) is None


def test_an_empty_down_step_is_no_down_step_and_a_file_the_rule_names_counts_when_touched():
    sentence = "Every migration must have a working down step so it can be rolled back"
    empty = "def upgrade():\n    op.create_index('ix', 't', ['c'])\n\n\ndef downgrade():\n    pass"
    found = judge_missing(sentence, empty, ["db/migrations/1.py"], True)
    assert found is not None and not found.kept
    full = "def upgrade():\n    op.add_column('t', c)\n\ndef downgrade():\n    op.drop_column('t', 'c')"
    kept = judge_missing(sentence, full, ["db/migrations/1.py"], True)
    assert kept is not None and kept.kept
    rule = "Architectural changes need a design record in docs/adr before any code is written"
    assert wanted_present(rule, "# 12. An event bus", ["docs/adr/0012-bus.md"]) is True
    assert wanted_present(rule, "producer = KafkaProducer()", ["billing/events.py"]) is False


def test_a_dot_file_the_rule_names_counts_when_the_change_adds_it():
    sentence = "Every new environment variable must be added to .env.example"
    read = 'TIMEOUT = float(os.environ["API_TIMEOUT"])'
    alone = judge_missing(sentence, read, ["client.py"], True)
    assert alone is not None and not alone.kept and "'.env.example'" in alone.reason
    both = judge_missing(sentence, read + "\nAPI_TIMEOUT=5", ["client.py", ".env.example"], True)
    assert both is not None and both.kept
    # a file merely ending in the same words is not the one the rule names
    assert wanted_present(sentence, "X=1", ["docs/env.example"]) is False


def test_a_property_is_shown_by_its_signs_and_a_veto_word_takes_it_back():
    rule = "Breaking changes to the public API only go into a major release"
    assert change_kind.shows(rule, "Rename the timeout parameter of Client.get")[0] == "breaking"
    assert change_kind.shows(rule, "Rename the private _send_batch helper") is None
    assert change_kind.shows(rule, "Add a retry parameter to Client.get") is None
    assert change_kind.shows(rule, "Remove the connect() alias in 4.0.0") is None  # major
    assert change_kind.shows(rule, "Delete the stale feature branch") is None  # no API
    risky = "No risky deploys on Fridays: schema migrations and infrastructure changes wait"
    assert change_kind.shows(risky, "Deploy the partitioning migration on Friday")[0] == "risky"
    assert change_kind.shows(risky, "Deploy the typo fix on Friday") is None


CRITERIA = {
    "docstring": ("Every public class needs a docstring explaining what it is for", "warn"),
    "breaking": ("Breaking changes to the public API only go into a major release", "block"),
}
CASES = [
    ("bare", "docstring", _diff("src/pool.py", "class Pool:\n    def __init__(self):\n        self.n = 0"), "undecided"),
    ("kept", "docstring", _diff("src/pool.py", 'class Pool:\n    """Open connections."""'), "pass"),
    ("rename", "breaking", "Rename the timeout parameter of Client.get to deadline in 3.4.1", "undecided"),
    ("private", "breaking", "Rename the private _send_batch helper to _flush_batch", "pass"),
    ("typo", "breaking", _bash("sed -i 's/teh/the/' README.md"), "pass"),
]  # fmt: skip


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "missing", CRITERIA)


@pytest.mark.parametrize("on", [True, False])
def test_through_check_a_guess_answers_undecided_or_pass_never_block(store, monkeypatch, on):
    mem, ids = store
    monkeypatch.setattr(missing, "ENABLED", on)
    monkeypatch.setattr(change_kind, "ENABLED", on)
    answers = E.answers_through_check(mem, ids, CASES, expect=on)  # a guess never blocks
    if not on:  # switched off, the two violations pass in silence
        assert answers["bare"] == "pass" and answers["rename"] == "pass", answers


def test_batch6_is_as_the_brief_asks():
    assert len(B6.CRITERIA) >= 25
    for key in B6.CRITERIA:
        cases = [c for c in B6.CASES if c[1] == key]
        assert {c[3] for c in cases} == {"violation", "pass"}, key
        # the day of a deploy shows in no diff or tool call: that rule has prose cases only
        assert any(isinstance(c[2], dict) for c in cases) or key == "friday_deploys", key


def test_batch6_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "b6", B6.CRITERIA)
    s = E.score(mem, ids, B6.CRITERIA, B6.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    first = B6.FIRST_RUN  # better than before the session's changes
    assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"], E.summary(s)
    assert s["lookalike_pass"] >= first["lookalike_pass"], E.summary(s)
