"""Issue 22 (twentieth session): under a confirmed freeze on new things (maintenance mode, a
feature freeze), a feature that defines no function passed as a fix would: a new `elif`
branch on a new value, a new entry of a registry dict or list, a name added to a spread
registry. Such an edit is now "applies, undecided" (the reader cannot tell it from a fix, so
it asks); a fix of an existing branch or entry (its values are the ones it replaced, or a
typo of one) still passes. "Feature freeze on X/", "Code freeze for the X/ package", "X/ is
feature-frozen" and "X/ only takes bug fixes" are freezes too. Real files, the real MiniLM
model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {"freeze": ("The payments/ module is in maintenance mode: bug fixes only", "block")}


def _edit(path: str, old: str, new: str) -> dict:
    return {"payload": {"tool_name": "Edit", "tool_input": {
        "file_path": "{repo}/" + path, "old_string": old, "new_string": new}}}


BRANCH = "    elif method == 'card':\n        return CardGateway(config)\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("freeze_cases")
    with isolated_env(base):
        yield E.build(base, CRITERIA, confirmed=True)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (BRANCH, BRANCH + "    elif method == 'klarna':\n        return KlarnaGateway(config)\n",
         "undecided"),
        ('    "csv": CsvExporter,\n', '    "csv": CsvExporter,\n    "parquet": ParquetExporter,\n',
         "undecided"),
        ('    "plugins.gcs",\n', '    "plugins.gcs",\n    "plugins.azure",\n', "undecided"),
        ("COMMANDS = [*BASE]\n", "COMMANDS = [*BASE, PruneCommand]\n", "undecided"),
        ("CHANNELS = {'email': Email}\n", "CHANNELS = {'email': Email, 'sms': Sms}\n", "undecided"),
        # fixes of an existing branch or entry
        (BRANCH, BRANCH.replace("(config)", "(config, timeout=30)"), "pass"),
        ('    "tsv": CsvExporter,\n', '    "tsv": TsvExporter,\n', "pass"),
        ('    "plugins.gsc_sync",\n', '    "plugins.gcs_sync",\n', "pass"),
        ("    if name.endswith('.csv'):\n", "    if name.lower().endswith('.csv'):\n", "pass"),
    ],
)
def test_a_new_case_under_a_freeze_is_asked_about(store, old, new, expected):
    mem, ids = store
    raw = _edit("payments/gateways.py", old, new)
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["freeze"]) == expected


@pytest.mark.parametrize(
    ("sentence", "folder"),
    [
        ("Feature freeze on payments/ until the audit is done; bug fixes are fine", "payments"),
        ("Code freeze for the cli/ package: no new features until 3.0 ships", "cli"),
        ("notifications/ is feature-frozen; new channels wait for the rewrite", "notifications"),
        ("The plugins/ package only takes bug fixes now", "plugins"),
        ("parsers/ is in maintenance mode: no new file formats", "parsers"),
    ],
)
def test_freezes_said_other_ways(sentence, folder):
    assert read_sentence(sentence).forbid == [f"added:path:{folder}/**"]
