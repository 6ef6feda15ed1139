"""Issue 22 (twenty-eighth session, fix28b): the guess's reading of "SQL built by string
formatting" (faults.py) looked only at the execute line, so SQL built by concatenation or an
f-string on another added line of the same change, then executed by name, was kept — and
since df72d1c a confirmed draft that asked only by meaning answered as that guess: the
violation passed in both modes. It asks now; SQL with a placeholder and bound values stays a
pass. Our own sentence and code; the real MiniLM model."""

from __future__ import annotations

from tests.conftest import answers_in_both_modes, new_file_diff

CRITERIA = {
    "sql": ("Never build SQL queries with string formatting or concatenation; pass values as "
            "bound parameters", "block"),
}
CASES = [  # (id, key, proposal, answer)
    ("sql-concat", "sql", new_file_diff("app/sessions.py", [
        "def end_sessions(db, user_id):",
        "    query = \"DELETE FROM sessions WHERE user_id = \" + str(user_id)",
        "    db.execute(query)"]), "undecided"),
    ("sql-fstring", "sql", new_file_diff("app/audit.py", [
        "def audit_rows(db, table):",
        "    stmt = f\"SELECT id, actor FROM audit WHERE tbl = '{table}'\"",
        "    return db.execute(stmt).fetchall()"]), "undecided"),
    ("sql-bound", "sql", new_file_diff("app/sessions.py", [
        "def end_sessions(db, user_id):",
        "    query = \"DELETE FROM sessions WHERE user_id = ?\"",
        "    db.execute(query, (user_id,))"]), "pass"),
]


def test_sql_built_on_its_own_line_then_executed_asks(tmp_path):
    want = {case_id: want for case_id, _, _, want in CASES}
    assert answers_in_both_modes(tmp_path, CRITERIA, CASES) == {False: want, True: want}
