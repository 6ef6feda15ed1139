"""Issue 22 (twenty-eighth session, conf28): an accepted rule's forbidden words met only on a
comment line of a change. "# secrets come from the runtime env, see .env.example" under "Don't
bake secrets into container images through ENV or ARG" blocked once confirmed: a comment
names the thing, it does nothing with it. Such a change now answers "applies, undecided" (a
person judges; never a pass); the word on a code line still blocks.
Our own criteria and changes; real files, git and model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from tests.conftest import answers_of, confirmed_git_store, new_file_diff

CRITERIA = {
    "telnet": ("Don't use telnetlib; use paramiko", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("comment28"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


IN_A_COMMENT = [  # the thing only in a comment: a person judges it
    ("tn-p1", "telnet", new_file_diff("net/switch.py", [
        "# telnetlib is gone from this module since 3.0",
        "client = paramiko.SSHClient()"])),
    ("tn-p2", "telnet", new_file_diff("web/switch.js", [
        "// the python side dropped telnetlib, this talks SSH too",
        "const conn = new Client();"])),
]

ON_A_CODE_LINE = [  # the thing written in code: blocks as before
    ("tn-v1", "telnet", new_file_diff("net/switch.py", [
        "# talk to the old switch", "import telnetlib"])),
    ("tn-v2", "telnet", new_file_diff("net/legacy.py", ["from telnetlib import Telnet"])),
]


def test_the_thing_only_in_a_comment_asks(store):
    assert answers_of(store, IN_A_COMMENT) == {"tn-p1": "undecided", "tn-p2": "undecided"}


def test_the_thing_on_a_code_line_still_blocks(store):
    assert answers_of(store, ON_A_CODE_LINE) == {"tn-v1": "block", "tn-v2": "block"}
