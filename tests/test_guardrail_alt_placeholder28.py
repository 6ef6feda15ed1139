"""Issue 22 (twenty-eighth session, fix28b): `alt="image"` counted as the alt text a rule
wants (missing.py's code form was any `alt=`), so a guess kept an image whose alt text is a
placeholder. The word for any image, or nothing, is no alt text: the guess asks; a real
description or a value from the data stays a pass. Our own sentence and code; the real
MiniLM model."""

from __future__ import annotations

from tests import heldout_eval as E
from tests.conftest import answers_of, new_file_diff

CRITERIA = {"alt": ("Product photos in the shop need descriptive alt text", "block")}
CASES = [  # (id, key, proposal, answer)
    ("alt-photo", "alt", new_file_diff("shop/src/ProductCard.tsx", [
        'export const ProductCard = ({ p }) => <img src={p.photo} alt="photo" />;']), "undecided"),
    ("alt-picture", "alt", new_file_diff("shop/src/Thumb.tsx", [
        "export const Thumb = ({ p }) => <img src={p.thumb} alt='picture' />;"]), "undecided"),
    ("alt-name", "alt", new_file_diff("shop/src/ProductCard.tsx", [
        "export const ProductCard = ({ p }) => <img src={p.photo} alt={p.name} />;"]), "pass"),
    ("alt-described", "alt", new_file_diff("shop/src/Thumb.tsx", [
        'export const Thumb = ({ p }) => <img src={p.thumb} alt="Red ceramic mug, front view" />;']),
     "pass"),
]


def test_a_placeholder_alt_is_no_alt_text(tmp_path):
    mem, ids = E.build(tmp_path / "alt28", CRITERIA)
    answers = answers_of((mem, ids), CASES)
    assert answers == {case_id: want for case_id, _, _, want in CASES}
