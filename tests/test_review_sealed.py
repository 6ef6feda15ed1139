"""Review shows a pending claim as `list` and `show` do: an id, a replaced id or a title typed
around a key by hand is sealed (ids) or redacted (text), on the viewer's review page and in
`lorestack review` (text and --json); and the sealed id it prints accepts or rejects the claim.

Before: the review page printed the claim's id raw (heading anchor, link, form fields),
`lorestack review` printed the id, the replaced id and the title raw, and `review reject
<sealed id>` answered "no memory item".
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.sealed_names import seal

GH = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AK = "AKIAIOSFODNN7EXAMPLE"
SECRETS = (GH, AK, "sk_live_4eC39HqLyjWDarjtT1zdp7dc")


def _hand_typed_claim(repo):
    path = repo / ".memory" / "facts" / "claim.md"
    path.write_text(
        f"---\nid: fact-{AK}\ntype: fact\n"
        "title: 'The staging bucket key is sk_live_4eC39HqLyjWDarjtT1zdp7dc'\n"
        f"status: pending\nconfidence: 0.6\nproposed_supersedes: fact-{GH}\n"
        "source:\n  kind: consolidation\n---\n\nThe staging bucket is in eu-central-1.\n")
    return path, f"fact-{AK}"


def test_lorestack_review_shows_a_hand_typed_claim_sealed_and_takes_the_sealed_id(repo):
    path, raw_id = _hand_typed_claim(repo)
    runner = CliRunner()
    listed = runner.invoke(cli, ["review"])
    assert listed.exit_code == 0 and seal(raw_id) in listed.output, listed.output
    as_json = runner.invoke(cli, ["review", "--json"])
    assert as_json.exit_code == 0
    assert not [s for s in SECRETS if s in listed.output + as_json.output], as_json.output
    claim = json.loads(as_json.output)["pending"][0]
    assert claim["id"] == seal(raw_id) and claim["replaces"] == seal(f"fact-{GH}")
    rejected = runner.invoke(cli, ["review", "reject", seal(raw_id), "--reason", "not now"])
    assert rejected.exit_code == 0, rejected.output
    assert not [s for s in SECRETS if s in rejected.output] and not path.exists()


def test_the_viewer_review_page_seals_a_claim_id_and_accepts_it_by_that_id(repo):
    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.fsutil import file_checksum
    from lorestack.memory_layers.memory import Memory

    path, raw_id = _hand_typed_claim(repo)
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        page = web.get("/review")
        assert page.status_code == 200 and "staging bucket" in page.text
        assert not [s for s in SECRETS if s in page.text], page.text[-2000:]
        sealed = seal(raw_id)
        done = web.post("/review", data={"_token": "tok-1", "accept_one": sealed,
                                         f"sum_{sealed}": file_checksum(path)},
                        follow_redirects=True)
        assert done.status_code == 200 and f"accepted {sealed}" in done.text, done.text[-1500:]
        assert not [s for s in SECRETS if s in done.text]
        assert "status: active" in path.read_text()
    finally:
        viewer.state.close()
