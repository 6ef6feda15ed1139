"""The pre-tool hook event: the agent is about to read or edit a file, so hand it what memory
is anchored to that file (criteria and caveats first), once per session per file. The file
is the tool's own argument (Claude Code's Read/Edit/Write, Gemini's read_file…) or, for a
shell command (Codex), the files the command names (`app.shell_paths`)."""

from __future__ import annotations

from lorestack.app.hooks import HookPayload, load_session, update_session

FILE_KEYS = ("file_path", "notebook_path", "path", "absolute_path")
ABOUT_BUDGET = 600  # tokens the memory of one file may take in the conversation


def pre_tool(mem, payload: HookPayload) -> str | None:
    tool_input = payload.raw.get("tool_input")
    if not isinstance(tool_input, dict) or mem.project is None:
        return None
    from pathlib import Path

    from lorestack.memory_layers.anchors import relative
    from lorestack.retrieval.about import about_context

    repo = mem.project.repo_dir
    cwd = Path(payload.cwd) if payload.cwd and Path(payload.cwd).is_dir() else repo
    path = next((tool_input[k] for k in FILE_KEYS if isinstance(tool_input.get(k), str)), None)
    if path:  # a relative path is the agent's, from its working folder
        files = [relative(repo, str(cwd / path) if path.strip() else path)]
    elif isinstance(tool_input.get("command"), str):  # Codex: reads and edits are shell commands
        from lorestack.app.shell_paths import files_in_command

        files = files_in_command(tool_input["command"], cwd, repo)
    else:
        files = []
    from lorestack.memory_layers.sealed_names import seal_path

    state = load_session(mem, payload.session_id)
    told = state.get("files", [])
    threshold = mem.settings.guard.entropy_threshold
    # recorded as every derived file names them: a file named after a key, sealed (a session
    # file from before holds it raw: still matched, so nothing is told twice)
    new = [(rel, seal_path(rel, threshold)) for rel in files]
    new = [(rel, sealed) for rel, sealed in new if rel not in told and sealed not in told]
    if not new:
        return None
    texts = [about_context(mem, rel, ABOUT_BUDGET).text for rel, _ in new]
    recorded = [sealed for _, sealed in new]

    def record(state: dict) -> dict:  # read again, locked: a parallel hook's claims are kept
        files = list(state.get("files", []))
        return {**state, "files": files + [s for s in recorded if s not in files]}

    update_session(mem, payload.session_id, record)
    return "\n\n".join(t for t in texts if t) or None
