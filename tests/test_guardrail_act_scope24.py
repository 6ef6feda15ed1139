"""Issue 22 (twenty-fourth session, conf24): a confirmed draft blocked the thing a rule forbids
wherever it occurred, although the sentence forbids it only from a source or through a means
it names ("never imports from plugins/", "never open SSH from 0.0.0.0/0", "unserialize() on
request data", "passwords … through ARG", "rm -r on a path built from a variable"). Met
outside that scope, the answer is "applies, undecided" (never a block, never a pass); met
inside it, the violation still blocks. Real files, real git, the real MiniLM model; criteria
confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash, _diff

CRITERIA = {
    "core": ("Code under core/ never imports from plugins/", "block"),
    "ssh": ("Firewall rules never open SSH from 0.0.0.0/0", "block"),
    "unserialize": ("Never use unserialize() on request data", "block"),
    "build_arg": ("Don't pass passwords to the build through ARG; use a build secret", "block"),
    "rm": ("Cleanup scripts never run rm -r on a path built from a variable", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("scope24"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


OUTSIDE = [
    ("core", _diff("core/engine.py", "from collections import deque")),
    ("ssh", _bash("gcloud compute firewall-rules create allow-ssh --allow tcp:22 "
                  "--source-ranges=10.20.0.0/16")),
    ("unserialize", _diff("src/Cache.php", "$cfg = unserialize(file_get_contents(CACHE_FILE));")),
    ("build_arg", "Mount the registry password as a build secret so no layer keeps it"),
    ("rm", _bash("rm -r ./dist/assets")),
]

INSIDE = [
    ("core", _diff("core/engine.py", "from plugins.csv_export import Exporter")),
    ("ssh", _bash("gcloud compute firewall-rules create allow-ssh --allow tcp:22 "
                  "--source-ranges=0.0.0.0/0")),
    ("unserialize", _diff("src/Cart.php", "$cart = unserialize($_COOKIE['cart']);")),
    ("build_arg", "Pass the registry password to the build through ARG REGISTRY_PASSWORD"),
    ("rm", _bash('rm -r "$OUT_DIR/"*')),
]


@pytest.mark.parametrize(("key", "raw"), OUTSIDE)
def test_the_forbidden_thing_outside_the_named_scope_is_asked_not_blocked(store, key, raw):
    assert _answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), INSIDE)
def test_the_forbidden_thing_inside_the_named_scope_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


_answer = confirmed_answer
