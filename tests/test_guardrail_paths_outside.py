"""Issue 22, twenty-third session: a rule whose every forbidden thing is a file or a folder
("No new files in proto/v1/", "gen/ is read-only", "Move from setup.py to pyproject.toml")
asked about a change that touches none of them. The rule applied by meaning only (the
change is about the same subject: a .proto file in proto/v2/, the OpenAPI spec gen/ is made
from) and, having no words the sentence model could compare, answered "applies, undecided"
— 9 of bucket A2's 19 code look-alikes in batches 15-19 (tests.lookalike_buckets). A change whose every
path is named and lies outside each of them cannot add, change, create, delete or move a
file there: it is not asked by meaning, as a command outside a kept folder was not
(kept_folders.all_outside, twenty-first session), nor, where it applied through a word of the
folder's name ('helpers' of `tools/helpers/`), asked because nothing forbidden occurs (bucket
B3). A path named at run time (a variable, a wildcard, a list read from a file), a path
above the folder or a path the rule names stays open. The cases are our own. Real files, the real MiniLM model."""

from __future__ import annotations

from tests import heldout_eval as E
from tests.conftest import answers_of, bash_call

CRITERIA = {
    "generated": ("clients/gen/ is read-only: it is generated from the protobuf files", "block"),
    "no_new_scripts": ("Don't add new shell scripts to ops/bin/", "warn"),
    "cfg": ("Move from setup.cfg to pyproject.toml", "warn"),
    "helpers": ("Nothing new under app/helpers/", "warn"),
}
_MESSAGE = "message OrderCancelled {\n  string order_id = 1;\n  string reason = 2;\n}"


def _diff(path: str, added: str) -> dict:
    return {"text": added, "paths": [path]}


def _write(path: str, content: str) -> dict:
    return {"payload": {"tool_name": "Write",
                        "tool_input": {"file_path": "{repo}/" + path, "content": content}}}


CASES = [  # (id, key, proposal, answer now, answer without the reading)
    # the change lies outside every path the rule forbids: a pass
    ("generated-p", "generated", _diff("proto/orders.proto", _MESSAGE), "pass", "undecided"),
    ("scripts-p1", "no_new_scripts", bash_call("touch scripts/rotate_logs.sh && chmod +x "
     "scripts/rotate_logs.sh"), "pass", "undecided"),
    ("scripts-p2", "no_new_scripts", bash_call("cp ~/snippets/rotate_logs.sh scripts/"), "pass",
     "undecided"),
    ("cfg-p", "cfg", _diff("pyproject.toml", "[project.optional-dependencies]\n"
     "test = [\"pytest>=8\"]"), "pass", "undecided"),
    # it applied by a word of the folder's name ('helpers'), not by meaning: likewise
    ("helpers-p", "helpers", bash_call("touch tools/helpers/dates.py"), "pass", "undecided"),
    # inside, above it, or paths named only at run time: as before
    ("helpers-v", "helpers", bash_call("touch app/helpers/dates.py"), "undecided", "undecided"),
    ("generated-v", "generated", _diff("clients/gen/orders_pb2.py",
     "class OrderCancelled(Message):\n    pass"), "undecided", "undecided"),
    ("scripts-above", "no_new_scripts", bash_call("cp ~/snippets/rotate_logs.sh ops/"), "undecided",
     "undecided"),
    ("scripts-run-time", "no_new_scripts", bash_call("xargs -I{} cp {} scripts/ < new_scripts.txt"),
     "undecided", "undecided"),
    # review of the twenty-third session: the folder named by its parent (an option's
    # argument the path reader does not take for a path) or through '..': as before
    ("generated-parent", "generated", bash_call("tar xzf /tmp/gen.tgz -C clients"), "undecided",
     "undecided"),
    ("generated-dotdot", "generated", bash_call("touch ../repo/clients/gen/orders_extra.py"),
     "undecided", "undecided"),
    ("helpers-pushd", "helpers", bash_call("pushd app && popd; touch tools/helpers/dates.py"),
     "pass", "undecided"),  # the folder `pushd` goes to is read: no path of app/helpers/
    ("scripts-parent", "no_new_scripts", bash_call("unzip -o /tmp/scripts.zip -d ops"), "undecided",
     "undecided"),
]


def test_a_change_outside_every_path_the_rule_forbids_is_not_asked(tmp_path, monkeypatch):
    from lorestack.guardrail import rule_paths

    mem, ids = E.build(tmp_path / "outside", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    got = answers()
    assert got == {case_id: now for case_id, _, _, now, _ in CASES}
    monkeypatch.setattr(rule_paths, "PATHS_OUTSIDE", False)
    assert answers() == {case_id: before for case_id, _, _, _, before in CASES}
