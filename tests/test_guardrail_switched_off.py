"""Issue 22 (twenty-second session, drop22): a criterion that forbids switching a good thing
off ("don't turn off strict", "Never disable CSRF protection") was drafted as forbidding the
good thing itself ('strict'), so the confirmed rule blocked a proposal that keeps it on. The
draft now forbids the act: the thing set to false / off / 0, a `--no-` flag, or prose that
turns it off. `"strict": false` must still block — the trap of reading "X false" as "not X"
where the term names the good thing. Real files, real git, the real MiniLM model; criteria
confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash, _diff, _edit

# our own wording, not the tuning batches' ("strict stays on …" is batch 10's ts_strict)
CRITERIA = {
    "strict": ("Don't turn off strict in tsconfig.json to get a release out", "block"),
    "csrf": ("Never disable CSRF protection on the admin forms", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("off22"), CRITERIA, {}) as made:
        yield made


_answer = confirmed_answer


NOT_BLOCKED = [
    ("strict", _diff("tsconfig.json", '  "compilerOptions": {\n    "strict": true,\n'
                                      '    "target": "ES2022",')),
    ("strict", "Leave strict on in tsconfig.json and fix the new type errors in the billing pages"),
    ("csrf", _diff("admin/settings.py", "CSRF_PROTECTION = True\nCSRF_COOKIE_SECURE = True")),
    ("csrf", "Add CSRF protection to the admin invite form, which was missing the token"),
]

STILL_BLOCKED = [
    ("strict", _diff("tsconfig.json", '  "compilerOptions": {\n    "strict": false,\n'
                                      '    "target": "ES2022",')),
    ("strict", _edit("web/tsconfig.json", '    "strict": false,')),
    ("strict", "Turn off strict in tsconfig.json so the release build goes through"),
    ("strict", _bash("npx tsc --no-strict -p web")),
    ("csrf", _diff("admin/settings.py", "CSRF_PROTECTION = False")),
    ("csrf", "Disable CSRF protection on the admin login form, it breaks the SSO redirect"),
]


@pytest.mark.parametrize(("key", "raw"), NOT_BLOCKED)
def test_keeping_the_good_thing_on_is_not_blocked(store, key, raw):
    assert _answer(store, key, raw) != "block"


@pytest.mark.parametrize(("key", "raw"), STILL_BLOCKED)
def test_switching_it_off_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


def test_remember_shows_a_drafted_regex_whole():
    """`remember` shows what it understood: a drafted regex holding `|` is one term, not cut at
    each `|` into pieces that each say 'present' (`/…(?:false present; off present; …/`), and
    the switched-off forms are said in words."""
    from lorestack.guardrail.rules import sentence_spec
    from lorestack.guardrail.understood import understand
    from lorestack.memory_layers.models import CriterionSpec

    sentence = CRITERIA["strict"][0]
    typed = CriterionSpec(condition=sentence, verdict="block")
    regexes = [e for e in sentence_spec(typed, sentence)[0].forbid if e.startswith("/")]
    assert regexes and any("|" in e for e in regexes)
    flags = understand(typed, sentence).flags_when
    assert len([f for f in flags if "strict" in f]) == len(sentence_spec(typed, sentence)[0].forbid)
    assert not any(f.startswith(("off present", "0 present")) or " present;" in f for f in flags)
    # and in words, not as the regexes themselves
    assert "strict set to false, off, 0 or none present" in flags
    assert "a --no-strict flag present" in flags
    assert not any("(?:" in f for f in flags)
