"""Thirty-sixth session (issue 22): what the thirty-fifth session's drafts let pass or block,
through `check` with the real sentence model (tests/guardrail_tuning_batch27.py holds more
cases of each shape).

- An exception said not to hold ("no review yet" under "… that nobody has reviewed", read as
  "unless 'reviewed'") was counted as a sign the rule was kept, so a guessed rule passed the
  very act it forbids.
- A required file named only to say it is left alone ("# CHANGELOG.md untouched") counted as
  present.
- "Keep X free of Y", confirmed, blocked Y wherever it occurred: the reading is off until the
  place X is read.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _bash
from tests.test_guardrail_labelled import make_proposal


def _answers(criteria: dict[str, tuple[str, str]], cases: list[tuple[str, object]],
             confirmed: bool = False) -> list[str]:
    from lorestack.guardrail.check import check

    with tempfile.TemporaryDirectory() as tmp:
        E.scratch_home(Path(tmp))
        mem, ids = E.build(Path(tmp), criteria, confirmed=confirmed)
        out = []
        for key, raw in cases:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False,
                           llm=False)
            out.append(E.answer(result, ids[key]))
        return out


@pytest.mark.parametrize(("sentence", "verdict", "asked", "kept"), [
    # before: `manage.py migrate` on production "… no review yet" passed in silence: the
    # negated 'review' was taken as a sign the rule was kept
    ("Never run migrations against production that nobody has reviewed", "block",
     "DJANGO_SETTINGS_MODULE=shop.settings.prod python manage.py migrate orders 0017  # no "
     "review yet, it is a small one",
     "DJANGO_SETTINGS_MODULE=shop.settings.prod python manage.py migrate orders 0016  # "
     "reviewed by Ana in #88"),
    # before: `gh pr create  # CHANGELOG.md unchanged` passed: the file was named
    ("Every pull request must update CHANGELOG.md", "warn",
     "git commit -am 'cli: add --json' && gh pr create --fill  # CHANGELOG.md unchanged",
     "git add CHANGELOG.md && git commit -m 'cli: add --json' && gh pr create --fill"),
], ids=["exception-said-not-to-hold", "required-file-left-alone"])
def test_what_says_the_rule_is_not_kept_is_asked_about(sentence, verdict, asked, kept):
    got = _answers({"c": (sentence, verdict)}, [("c", _bash(asked)), ("c", _bash(kept))])
    assert got == ["undecided", "pass"], got


def test_a_confirmed_keep_free_of_does_not_block_outside_its_place():
    """Before: confirmed, "Keep the public headers in include/ free of platform headers such as
    windows.h" blocked `#include <windows.h>` added to src/win/clock.c."""
    diff = ("diff --git a/src/win/timer.c b/src/win/timer.c\nindex 1..2 100644\n"
            "--- a/src/win/timer.c\n+++ b/src/win/timer.c\n@@ -1,1 +1,2 @@\n"
            " #include \"tally/timer.h\"\n+#include <windows.h>\n")
    criteria = {"h": ("Keep the public headers in include/ free of platform headers such as "
                      "windows.h", "block")}
    got = _answers(criteria, [("h", {"diff": diff})], confirmed=True)
    assert got != ["block"], got


def test_a_required_file_left_alone_once_and_updated_later_is_present():
    """Review of session 36: only the first mention was looked at, so a confirmed "must update
    CHANGELOG.md" blocked a proposal that says the file is untouched so far and then adds to
    it; and "is not changed by hand, it is generated" read as left alone."""
    criteria = {"c": ("Every pull request must update CHANGELOG.md", "block")}
    updated_later = _bash("git commit -am 'docs: typo'  # CHANGELOG.md untouched; next: "
                          "echo '- docs: fix a typo' >> CHANGELOG.md && git commit -am 'changelog' "
                          "&& gh pr create --fill")
    left_alone = _bash("git commit -am 'cli: add --json' && gh pr create --fill  # CHANGELOG.md "
                       "untouched")
    got = _answers(criteria, [("c", updated_later), ("c", left_alone)], confirmed=True)
    assert got[0] == "pass" and got[1] in {"undecided", "block"}, got
