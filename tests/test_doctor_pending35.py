"""`doctor` after an everyday write: what the next search indexes is no fault.

Before: `lorestack init`, `lorestack remember …`, `lorestack doctor` printed "issue: lexical
index missing … catalog missing … not ok: run `lorestack doctor --repair` to rebuild the index
from the files", exit 1; once a search had built the index, each later `remember` made doctor say
"1 item(s) missing … 1 file(s) changed since the last sync … not ok", exit 1, until the next
search, which indexes them anyway (the service does at once when it runs). A real fault (an
index folder deleted while the catalog remains) still says "not ok".
"""

from __future__ import annotations

import json
import shutil

from tests.conftest import run_cli


def _doctor(repo):
    done = run_cli("doctor", "--json", cwd=repo)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_a_store_never_searched_is_not_built_yet_not_broken(repo):
    assert run_cli("remember", "--type", "fact", "The staging database listens on port 6543",
                   cwd=repo).returncode == 0
    plain = run_cli("doctor", cwd=repo)
    assert plain.returncode == 0, plain.stdout
    assert "not built yet" in plain.stdout and "issue:" not in plain.stdout, plain.stdout
    code, report = _doctor(repo)
    assert code == 0 and report["ok"] and report["not_built"], report
    # the first search builds it, as the note says
    assert "6543" in run_cli("search", "staging database port", cwd=repo).stdout
    code, report = _doctor(repo)
    assert code == 0 and not report["not_built"] and report["lexical"]["status"] == "ok"


def test_files_written_since_the_last_sync_are_pending_and_a_search_takes_them(repo):
    run_cli("remember", "--type", "fact", "The staging database listens on port 6543", cwd=repo)
    assert run_cli("search", "staging", cwd=repo).returncode == 0
    run_cli("remember", "--type", "fact", "Deploys happen on Tuesdays only", cwd=repo)
    gone = next((repo / ".memory" / "facts").glob("the-staging*.md"))
    gone.unlink()  # a file deleted by hand: its doc is in the index until the next sync
    plain = run_cli("doctor", cwd=repo)
    assert plain.returncode == 0, plain.stdout
    assert "2 file(s) written since the last sync" in plain.stdout, plain.stdout
    assert "not ok" not in plain.stdout
    code, report = _doctor(repo)
    assert report["lexical"]["status"] == report["vector"]["status"] == "pending", report
    assert report["catalog"] == "pending" and report["changed_files"] == 2
    assert "Tuesdays" in run_cli("search", "when do deploys happen", cwd=repo).stdout
    code, report = _doctor(repo)
    assert code == 0 and report["changed_files"] == 0 and report["pending"] == []
    assert report["lexical"]["status"] == "ok" and report["catalog"] == "ok", report


def test_a_deleted_index_folder_is_still_a_fault(repo):
    run_cli("remember", "--type", "fact", "The staging database listens on port 6543", cwd=repo)
    run_cli("search", "staging", cwd=repo)
    run_cli("remember", "--type", "fact", "Deploys happen on Tuesdays only", cwd=repo)
    shutil.rmtree(repo / ".memory" / ".index" / "tantivy")
    plain = run_cli("doctor", cwd=repo)
    assert plain.returncode == 1 and "lexical index missing" in plain.stdout, plain.stdout
    assert "doctor --repair" in plain.stdout.strip().splitlines()[-1]
    assert run_cli("doctor", "--repair", cwd=repo).returncode == 0
    code, report = _doctor(repo)
    assert code == 0 and report["lexical"]["status"] == "ok", report
