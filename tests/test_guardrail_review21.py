"""Review of the twenty-first session's guardrail changes (issue 22): a file moved out of a
kept folder, deletions above it, "Move A from X to Y", "rather than calling basicConfig",
"rather than with from module import *". Cases a user would try: the ones that must not
block a confirmed rule, and the ones that must not pass in silence. Real files, real git,
the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash, _diff, _edit

CRITERIA = {
    "golden": ("Never delete files under fixtures/golden/", "block"),
    "sdk": ("Never rename or move files in sdk/; deprecate them first", "block"),
    "adr": ("Keep every file in docs/adr/", "block"),
    "basic": ("Configure logging with logging.config.dictConfig rather than calling basicConfig "
              "directly", "block"),
    "star": ("Import names explicitly rather than with from module import *", "block"),
    "env": ("Move secrets from .env files to the vault", "block"),
}
FILES = {"fixtures/golden/a.png": "png", "fixtures/golden/b.json": "{}\n",
         "old_fixtures/golden/c.json": "{}\n", "sdk/client.py": "X = 1\n",
         "docs/adr/0001-record.md": "# ADR\n", "docs/client.md": "# Client\n",
         "build/out.o": "o", ".env.example": "A=\n"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("review21"), CRITERIA, FILES) as made:
        yield made


_answer = confirmed_answer


def _rename(old: str, new: str, similarity: int = 100) -> dict:
    return {"diff": f"diff --git a/{old} b/{new}\nsimilarity index {similarity}%\n"
                    f"rename from {old}\nrename to {new}\n"}


def _removed_line(path: str, line: str) -> dict:
    return {"diff": f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
                    f"@@ -1,2 +1,1 @@\n-{line}\n x = 1\n"}


NOT_BLOCKED = [
    ("golden", _bash("mv fixtures/golden/a.png fixtures/golden/a_dark.png")),
    ("golden", _bash("cp fixtures/golden/a.png /tmp/")),
    ("golden", _bash("git mv fixtures/new.png fixtures/golden/new.png")),
    ("golden", _bash("mv /tmp/new.png fixtures/golden/")),
    ("golden", _rename("old_fixtures/golden/c.json", "archive/c.json")),
    ("golden", _rename("fixtures/goldenish/c.json", "archive/c.json")),
    ("golden", _bash("mv -t fixtures/golden/ /tmp/a.png /tmp/b.png")),
    ("golden", _bash("mv fixtures/golden fixtures/golden")),
    ("golden", _bash("mv /tmp/golden fixtures/golden")),
    ("golden", _bash("mv /tmp/a.png /tmp/b.png fixtures/golden/")),
    ("golden", _bash("mv old_fixtures/golden/c.json archive/")),
    ("golden", _bash("cat fixtures/golden/b.json")),
    ("golden", _bash("python -c \"import os; os.rename('fixtures/golden/a.png', 'fixtures/golden/c.png')\"")),
    ("golden", _bash("python -c \"import shutil; shutil.copy('fixtures/golden/a.png', '/tmp/')\"")),
    ("sdk", _bash("cp sdk/client.py /tmp/client.py")),
    ("sdk", _bash("mv docs/client.md docs/api_client.md")),
    ("sdk", _rename("docs/client.md", "sdk/client.md")),
    ("env", _bash("cat .env")),
    ("env", _diff(".env.example", "STRIPE_SECRET=")),
    ("env", _bash("source .env && pytest")),
    ("env", {"diff": "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1 @@\n"
                     " DEBUG=1\n-STRIPE_SECRET=sk_live_1\n"}),
    ("env", _edit(".env.example", "STRIPE_SECRET=")),
    ("star", _diff("app/util.py", '"""Never write from module import * here."""')),
    ("star", _removed_line("app/views.py", "from app.helpers import *")),
    ("star", _diff("app/views.py", "# no import * here")),
    ("basic", _diff("app/main.py", "# do not call logging.basicConfig here")),
    ("basic", _diff("tests/test_logging.py", "assert not called(logging.basicConfig)")),
    ("basic", _removed_line("app/main.py", "logging.basicConfig(level=logging.INFO)")),
    ("adr", _bash("git mv docs/client.md docs/adr/0002-client.md")),
    # "…; superseded decisions are marked": a rename inside the folder keeps the file there
    ("adr", _bash("git mv docs/adr/0001-record.md docs/adr/0001-record-superseded.md")),
    ("adr", _rename("docs/adr/0001-record.md", "docs/adr/0001-superseded.md", 90)),
    ("adr", _bash("cp docs/adr/0001-record.md /tmp/")),
    ("star", _diff("docs/style.md", "Never write `from module import *`.")),
    ("basic", _diff("docs/logging.md", "Do not call `logging.basicConfig()`.")),
    ("golden", _bash("find fixtures/golden -name '*.png' -newer x")),
    ("golden", _bash("tar -cf /tmp/g.tar fixtures/golden")),
    ("golden", _bash("rsync -a --remove-source-files /tmp/new/ fixtures/golden/")),
    ("golden", _bash("rsync -a fixtures/golden/ /tmp/golden/")),
    ("golden", _bash("tar --remove-files -cf fixtures/golden/all.tar /tmp/a.png")),
]


@pytest.mark.parametrize(("key", "raw"), NOT_BLOCKED)
def test_a_confirmed_rule_does_not_block_what_complies(store, key, raw):
    assert _answer(store, key, raw) != "block"


NOT_SILENT = [
    ("golden", _bash("rsync -a --remove-source-files fixtures/golden/ /tmp/golden/")),
    ("golden", _bash("git mv -k fixtures/golden/a.png archive/a.png")),
    ("golden", _bash("git mv -f fixtures/golden/a.png archive/a.png")),
    ("golden", _bash("python -c \"import shutil; shutil.move('fixtures/golden/a.png', '/tmp/')\"")),
    ("golden", _bash("python3 -c \"import os; os.rename('fixtures/golden/a.png', '/tmp/a.png')\"")),
    ("golden", _rename("fixtures/golden/a.png", "archive/a.png", 100)),
    ("golden", _bash("mv fixtures/golden/a.png fixtures/golden/b.json /tmp/")),
    ("golden", _bash("mv -t /tmp/ fixtures/golden/a.png")),
    ("golden", _bash("mv --target-directory=/tmp fixtures/golden/a.png")),
    ("golden", _bash("find fixtures -delete")),
    ("golden", _bash("git clean -fdx")),
    ("sdk", _bash("git mv -f sdk/client.py sdk/api.py")),
    ("sdk", _rename("sdk/client.py", "sdk/api.py", 90)),
    ("adr", _bash("git rm docs/adr/0001-record.md")),
    ("adr", _bash("mv docs/adr/0001-record.md /tmp/")),
    ("adr", _bash("git mv docs/adr docs/decisions")),
    ("adr", _rename("docs/adr/0001-record.md", "docs/old/0001-record.md")),
    ("star", _diff("app/views.py", "from app.helpers import *")),
    ("basic", _diff("app/main.py", "logging.basicConfig(level=logging.INFO)")),
    ("env", _diff(".env", "STRIPE_SECRET=sk_live_1")),
    ("golden", _bash("xargs rm < /tmp/stale.txt")),
    ("golden", _bash("cat /tmp/stale.txt | xargs rm -f")),
    ("golden", _bash("mv fixtures archive")),
    ("golden", _bash("mv fixtures/golden /tmp/")),  # the folder itself
    ("golden", _bash("git mv fixtures/golden archive/golden")),  # the folder itself
    ("golden", _bash("rm -r fixtures")),
    ("golden", _bash("tar --remove-files -cf /tmp/g.tar fixtures/golden")),
    ("golden", _bash("find fixtures/golden -name '*.png' -exec rm {} +")),
    ("golden", _bash("cd fixtures/golden && rm a.png")),
    ("golden", _bash("git rm -r --cached fixtures/golden")),
    ("golden", _rename("fixtures/golden/a.png", "golden/a.png")),
    ("sdk", _bash("mv sdk/ lib/sdk/")),
    ("env", _edit(".env", "STRIPE_SECRET=sk_live_1")),
    ("env", {"diff": "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1,2 @@\n"
                     " DEBUG=1\n+STRIPE_SECRET=sk_live_1\n"}),
    ("env", _bash("echo STRIPE_SECRET=sk_live_1 >> .env")),
]


@pytest.mark.parametrize(("key", "raw"), NOT_SILENT)
def test_a_violation_does_not_pass_in_silence(store, key, raw):
    assert _answer(store, key, raw) not in ("pass",)
