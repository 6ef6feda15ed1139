"""Issue 22 (seventeenth session): a folder or package named as the subject of a freeze ("The
plugins/ package is frozen", "Nothing new under helpers/") is the rule's scope; adding
anything under it is what the rule forbids, a change elsewhere or a move out of it is not.
Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.freeze import frozen_folder
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _bash, _diff
from tests.test_guardrail_labelled import make_proposal

PLUGINS = "The plugins/ package is frozen; no new code goes into it, write a hook in core/ instead"
HELPERS = "Nothing new under lib/helpers/; put the code next to its caller"
BROWSER = "The classic/ web app is in maintenance mode: security fixes only, no new features"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    criteria = {"plugins": (PLUGINS, "warn"), "helpers": (HELPERS, "warn"),
                "classic": (BROWSER, "warn")}
    base = tmp_path_factory.mktemp("freeze")
    with isolated_env(base):
        return E.build(base, criteria)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # new code under the frozen folder: flagged (a guess: undecided, never a block)
        ("plugins", _diff("plugins/export.py", "def export_csv(rows):\n    return ','.join(rows)"), "undecided"),
        ("helpers", _diff("lib/helpers/money.py", "def cents(x):\n    return round(x * 100)"), "undecided"),
        # a command that adds a file there, at the path's second mention
        ("helpers", _bash("touch lib/helpers/dates.py && git add lib/helpers/dates.py"), "undecided"),
        # a shell redirect or tee writes a file there (review: passed as "none applied ...")
        ("helpers", _bash("cat > lib/helpers/dates.py <<'EOF'\ndef today():\n    pass\nEOF"), "undecided"),
        ("helpers", _bash("printf 'def f():\\n    pass\\n' | tee lib/helpers/f.py"), "undecided"),
        # the same code elsewhere, or moving code out of it: not what the rule forbids
        ("plugins", _diff("core/export.py", "def export_csv(rows):\n    return ','.join(rows)"), "pass"),
        ("helpers", "Move the date helper out of lib/helpers/ into billing/dates.py", "pass"),
        # what the freeze lets in ("security fixes only")
        ("classic", _diff("classic/src/escape.js", "return escapeHtml(title);  // security fix: escape titles"), "pass"),
        ("classic", _diff("classic/src/export.js", "export function exportPdf(range) { return pdf(range); }"), "undecided"),
    ],
)
def test_a_frozen_folder_is_a_scope(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected


def test_what_reads_as_a_freeze():
    d = read_sentence(PLUGINS)
    assert d.forbid == ["added:path:plugins/**"] and d.paths == ["plugins/**"]
    assert "plugins" in d.keywords
    assert frozen_folder("the sdk/java directory is deprecated and frozen".split()) == "sdk/java/"
    assert frozen_folder("config/legacy/ takes no new settings".split()) == "config/legacy/"
    # a folder without a freeze, a file, or words like I/O are no freeze
    assert frozen_folder("every new source file under src/ is typescript".split()) == ""
    assert frozen_folder("never add new dependencies to requirements.txt".split()) == ""
    assert frozen_folder("no new i/o in the hot path".split()) == ""


def test_a_confirmed_freeze_blocks_adding_under_the_folder_not_naming_it(tmp_path):
    """Review (seventeenth session): once confirmed, "build/ is frozen" blocked "Add build/ to
    .gitignore" and "Add a Makefile target that cleans build/": prose that names the folder
    itself adds nothing under it unless the folder is where the thing goes ("... to build/")."""
    from tests.conftest import run_cli

    assert run_cli("init").returncode == 0
    out = run_cli("remember", "--type", "criterion", "build/ is frozen", "--verdict", "block")
    crit = out.stdout.split()[2]
    assert run_cli("criteria", "confirm", crit).returncode == 0
    for text in ("Add build/ to .gitignore", "Add a Makefile target that cleans build/",
                 "Stop adding build/ artifacts to the wheel"):
        got = run_cli("check", "--no-retrieval", text)
        assert got.returncode != 2, (text, got.stdout)
    for text in ("Add a new script to build/", "Add build/release.sh to cut releases"):
        got = run_cli("check", "--no-retrieval", text)
        assert got.returncode == 2, (text, got.stdout)


def test_a_frozen_folder_named_by_a_common_word_is_no_keyword():
    """Review (seventeenth session): "build/ is frozen" drafted the keyword 'build', so "Run
    the build and fix the failing tests" answered 'applies, undecided' (exit 1, and a warning
    on every such tool call); "Add a vendor field to the invoice model" likewise for vendor/.
    A top-level folder whose name is an everyday word scopes the rule by its path only."""
    for sentence, word in (("build/ is frozen", "build"), ("vendor/ is read-only", "vendor"),
                           ("docs/ is frozen, no new pages", "docs")):
        d = read_sentence(sentence)
        assert d.paths == [f"{word}/**"] and word not in d.keywords, (sentence, d.keywords)
    # a name that is no everyday word still names the folder in prose
    assert "compat" in read_sentence("The compat/ package is frozen").keywords
    assert "helpers" in read_sentence(HELPERS).keywords


def test_a_dot_folder_keeps_its_dot():
    """Review (seventeenth session): "Nothing new under .github/workflows/" scoped the rule to
    github/workflows/**, which no real path matches: a confirmed freeze did not decide on a
    diff adding .github/workflows/nightly.yml."""
    d = read_sentence("Nothing new under .github/workflows/")
    assert d.paths == [".github/workflows/**"], d.paths
    assert d.forbid == ["created:path:.github/workflows/**"]
    assert frozen_folder("nothing new goes into ./tools/legacy.".split()) == "tools/legacy/"


def test_a_lone_star_is_no_path():
    """Review (seventeenth session, older than freeze.py): "No SELECT * in hot path queries"
    drafted `path:*` as scope and forbidden term: every change anywhere applied, and once
    confirmed every diff would be forbidden."""
    d = read_sentence("No SELECT * in hot path queries; list the columns")
    assert d.paths == [] and not any(f.startswith("path:") for f in d.forbid), d
    assert read_sentence("Never commit *.pem files").forbid  # a real glob still drafts
