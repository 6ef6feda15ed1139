"""The pre-tool hook event: the agent is about to read or edit a file, so hand it what memory
is anchored to that file (criteria and caveats first), once per session per file."""

from __future__ import annotations

from lorestack.app.hooks import HookPayload, load_session, save_session

FILE_KEYS = ("file_path", "notebook_path", "path", "absolute_path")
ABOUT_BUDGET = 600  # tokens the memory of one file may take in the conversation


def pre_tool(mem, payload: HookPayload) -> str | None:
    tool_input = payload.raw.get("tool_input")
    if not isinstance(tool_input, dict) or mem.project is None:
        return None
    path = next((tool_input[k] for k in FILE_KEYS if isinstance(tool_input.get(k), str)), None)
    if not path:
        return None
    from lorestack.memory_layers.anchors import relative
    from lorestack.retrieval.about import about_context

    rel = relative(mem.project.repo_dir, path)
    state = load_session(mem, payload.session_id)
    if rel in state.get("files", []):
        return None
    result = about_context(mem, rel, ABOUT_BUDGET)
    save_session(mem, payload.session_id, {**state, "files": [*state.get("files", []), rel]})
    return result.text or None
