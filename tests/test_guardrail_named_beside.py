"""Issue 22 (twentieth session): sentences that name the forbidden thing beside the way they
want, without "instead of", and words that are no thing at all.

- "Move from setup.py to pyproject.toml" drafted nothing (Y is a file: adding to it is what
  the rule forbids); "… rather than with requests directly" drafted nothing (the preposition
  hid the thing);
- "not with autopep8 or yapf" forbade the pair 'autopep8 yapf' as one term (each is
  forbidden on its own);
- "not by hand" forbade the word 'hand' (a manner: with a file named before it, editing that
  file is what is forbidden);
- "never hand-edit it" after "src/generated/ is …" drafted nothing ('it' is the folder);
- "Never rename or move files in public/assets/" drafted nothing (now a move of a file there
  out of its place: `moved:path:`, not an edit of it; review of the twentieth session);
- "Choose clarity over cleverness" forbade 'cleverness' (two qualities: only a reader can
  judge them).
"""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence


@pytest.mark.parametrize(
    ("sentence", "forbid"),
    [
        ("Move from setup.py to pyproject.toml", ["added:path:setup.py"]),
        ("Call external services through our http_client wrapper rather than with requests "
         "directly", ["requests"]),
        ("Format Python code with black, not with autopep8 or yapf", ["autopep8", "yapf"]),
        ("Lint with ruff rather than flake8 or pylint", ["flake8", "pylint"]),
        ("Install JavaScript packages with pnpm, never with npm or yarn", ["npm", "yarn"]),
        ("Prefer pytest over unittest or nose", ["unittest", "nose"]),
        ("Update poetry.lock with poetry lock, not by hand", ["changed:path:poetry.lock"]),
        ("src/generated/ is produced by the OpenAPI generator; never hand-edit it",
         ["changed:path:src/generated/**"]),
        ("third_party/ is vendored upstream code: do not change it",
         ["changed:path:third_party/**"]),
        ("Never rename or move files in public/assets/; published URLs point at them",
         ["moved:path:public/assets/**"]),
        ("Choose clarity over cleverness", []),
        ("Prefer readability over micro-optimisations", []),
        ("Use the fake clock, not by hand", []),
    ],
)
def test_what_the_sentence_forbids(sentence, forbid):
    d = read_sentence(sentence)
    assert [f for f in d.forbid if "hand" in f or f in forbid] == forbid, (d.forbid, d.steps)
    assert "hand" not in d.keywords and "autopep8 yapf" not in d.keywords


def test_the_way_it_wants_is_never_forbidden():
    d = read_sentence("Format Python code with black, not with autopep8 or yapf")
    assert "black" in d.alternatives and not any("black" in f for f in d.forbid)
