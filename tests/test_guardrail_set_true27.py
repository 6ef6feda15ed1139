"""Issue 22 (twenty-seventh session, fix27): what "without X" requires, met only by a name
the change itself sets to a constant true (`user_permission = True` then the upload) —
passed, guessed and confirmed: the name is what the rule requires, but setting it true
records nothing a person gave. Such a hard-set name is no proof: "applies, undecided", never
a block. A name read (`if settings.user_permission:`) still meets it. Our own sentence and
proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, isolated_env, new_file_diff

CRITERIA = {"crash": ("Never upload crash reports without user permission", "block")}
P = "app/crash.py"
HARD_SET = [
    new_file_diff(P, ["def report(r):", "    user_permission = True", "    upload_crash_report(r)"]),
    new_file_diff("web/crash.js", ["export function report(r) {", "  const userPermission = true;",
                                   "  uploadCrashReport(r);", "}"]),
]
READ = [
    new_file_diff(P, ["def report(r, settings):", "    if settings.user_permission:",
                      "        upload_crash_report(r)"]),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("settrue27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize("raw", HARD_SET)
def test_a_name_set_true_asks(store, raw):
    assert confirmed_answer(store, "crash", raw) == "undecided"


@pytest.mark.parametrize("raw", READ)
def test_a_name_read_meets_the_rule(store, raw):
    assert confirmed_answer(store, "crash", raw) == "pass"


def test_a_guess_asks_too(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for raw in HARD_SET:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            assert heldout_eval.answer(result, ids["crash"]) == "undecided", raw
        result = check(mem, make_proposal(READ[0], mem.project.repo_dir), retrieval=False, llm=False)
        assert heldout_eval.answer(result, ids["crash"]) == "pass"
