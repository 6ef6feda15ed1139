"""The foundation commands, as users call them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_init_drafts_identity_card_and_never_overwrites(isolated):
    (isolated / "README.md").write_text("# Billing Service\n\nCharges customers.\n")
    (isolated / "pyproject.toml").write_text('[project]\nname="billing"\n[project.scripts]\nbill="b:main"\n')
    (isolated / "Makefile").write_text("test:\n\tpytest\nlint:\n\truff .\n")
    (isolated / "app.py").write_text("print(1)\n")
    assert run("init").exit_code == 0
    card = isolated / ".memory" / "project.md"
    text = card.read_text()
    # the manifest names the project; the README's first paragraph describes it
    assert "# billing" in text and "Charges customers." in text and "Python" in text and "`make test`" in text and "`bill`" in text
    assert (isolated / ".memory" / ".gitignore").read_text().strip().endswith(".index/")
    card.write_text(text + "\nMy own note.\n")
    result = run("init")
    assert "kept your existing project.md" in result.output
    assert card.read_text().endswith("My own note.\n")


def test_remember_list_show_supersede_forget(repo):
    r = run("remember", "We deploy with Kamal", "--type", "decision", "--tags", "deploy", "--json")
    assert r.exit_code == 0
    old = json.loads(r.stdout)["item"]
    assert old["type"] == "decision" and old["tags"] == ["deploy"] and old["confidence"] == 1.0
    listed = json.loads(run("list", "--type", "decision", "--json").stdout)
    assert [d["id"] for d in listed] == [old["id"]]
    shown = run("show", old["id"])
    assert "We deploy with Kamal" in shown.output

    r = run("supersede", old["id"], "We deploy with Helm now", "--json")
    new = json.loads(r.stdout)["item"]
    assert new["supersedes"] == [old["id"]]
    archived = json.loads(run("show", old["id"], "--json").stdout)
    assert archived["status"] == "archived" and archived["superseded_by"] == new["id"]
    assert "/archive/decisions/" in archived["path"]
    active = [d["id"] for d in json.loads(run("list", "--json").stdout)]
    assert new["id"] in active and old["id"] not in active

    r = run("forget", new["id"], "--reason", "moved to ArgoCD")
    assert r.exit_code == 0
    gone = json.loads(run("show", new["id"], "--json").stdout)
    assert gone["status"] == "archived" and gone["archived_reason"] == "moved to ArgoCD"
    # nothing destroyed: both texts are still on disk
    all_text = "".join(p.read_text() for p in (repo / ".memory").rglob("*.md"))
    assert "Kamal" in all_text and "Helm" in all_text


def test_log_and_list_events(repo):
    r = run("log", "Blocked on the flaky test in ci/test_api.py", "--kind", "blocker", "--json")
    ev = json.loads(r.stdout)
    assert ev["kind"] == "blocker"
    events = json.loads(run("list", "--type", "event", "--json").stdout)
    assert [e["id"] for e in events] == [ev["id"]]
    assert "flaky test" in run("show", ev["id"]).output


def test_remember_from_stdin(repo):
    r = run("remember", "-", "--type", "caveat", "--json", input="Never run migrations on Friday\n")
    assert json.loads(r.stdout)["item"]["title"] == "Never run migrations on Friday"


def test_criterion_is_accepted_as_typed(repo):
    r = run("remember", "Stay focused", "--type", "criterion")  # issue 22: no applies-to needed
    assert r.exit_code == 0 and "understood:" in r.output
    r = run("remember", "x", "--type", "criterion", "--forbid", "/(oops/")
    assert r.exit_code == 1 and "invalid regex" in r.output
    r = run("remember", "No cron for one-off tasks", "--type", "criterion", "--keyword", "cron",
            "--forbid", "crontab", "--verdict", "block", "--rationale", "cron jobs get forgotten", "--json")
    crit = json.loads(r.stdout)["item"]["criterion"]
    assert crit["verdict"] == "block" and crit["applies_to"]["keywords"] == ["cron"]


def test_bad_option_values_are_one_line(repo):
    r = run("remember", "x", "--type", "banana")
    assert r.exit_code == 2 and "banana" in r.output
    r = run("remember", "x", "--confidence", "7")
    assert r.exit_code == 2
    r = run("remember", "")
    assert r.exit_code == 1 and "nothing to remember" in r.output


def test_global_preference(repo):
    r = run("remember", "Answer in British English", "--type", "preference", "--scope", "global", "--json")
    path = json.loads(r.stdout)["path"]
    assert ".lorestack" in path


def test_list_pages_and_names_the_total(repo):
    ids = [json.loads(run("remember", f"Decision number {n} about the build", "--type", "decision", "--json").stdout)["item"]["id"]
           for n in range(5)]
    whole = run("list", "--type", "decision")
    assert whole.stderr.strip() == "5 items"
    page = run("list", "--type", "decision", "--limit", "2", "--offset", "2", "--json")
    assert [i["id"] for i in json.loads(page.stdout)] == ids[2:4] and page.stderr == ""
    page = run("list", "--type", "decision", "--limit", "2", "--offset", "2")
    assert ids[2] in page.stdout and ids[1] not in page.stdout and ids[4] not in page.stdout
    assert page.stderr.strip() == "showing 3-4 of 5 items; --offset 4 for the next page"
    last = run("list", "--type", "decision", "-n", "2", "--offset", "-2")
    assert ids[3] in last.stdout and ids[4] in last.stdout and ids[2] not in last.stdout
    assert last.stderr.strip() == "showing 4-5 of 5 items"
    beyond = run("list", "--type", "decision", "--offset", "9")
    assert beyond.stdout.strip() == "no items" and beyond.stderr.strip() == "no items at offset 9 of 5"


def test_show_finds_items_by_written_id_or_by_file_name(repo):
    facts = repo / ".memory" / "facts"
    (facts / "no-id-here.md").write_text("---\ntype: fact\ntitle: Hand written\n---\nBy hand.\n")
    (facts / "slug-of-title.md").write_text(
        "---\nid: 'fact-quoted1'\ntype: fact\ntitle: Quoted id\n---\nQuoted.\n")
    assert "By hand." in run("show", "no-id-here").stdout
    assert "Quoted." in run("show", "fact-quoted1").stdout
    assert run("forget", "fact-quoted1", "--reason", "old").exit_code == 0
    assert json.loads(run("show", "fact-quoted1", "--json").stdout)["status"] == "archived"
    assert run("restore", "fact-quoted1").exit_code == 0
    assert run("show", "fact-missing").exit_code != 0
