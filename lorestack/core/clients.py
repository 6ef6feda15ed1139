"""The one registry of AI clients lorestack plugs into: one `ClientSpec` per client.

Everything that differs between Claude Code, Codex, Cursor and Gemini CLI is written here and
nowhere else: where the client reads hook settings and in what shape, its event names and
how they map to lorestack's events, the fields of its hook payload, how an answer reaches
the model (the reply format), which transcript format it writes, how a pre-tool guardrail
verdict is told, and what a user must know after installing. The hook runner, the
installers, the CLI's `--client` choices, the transcript readers and the guardrail replies
all look clients up here; adding a client means adding one spec (and its tests).

It lives in `lorestack.core` (standard library only, nothing heavy) because every layer
needs it: the transcript readers (consolidation), the guardrail replies, the hooks and
installers (integrations), the CLI — and the thin hook launcher, which must start fast.

Formats (from each client's hook documentation, checked against the real clients — Claude
Code 2.1, Codex CLI 0.171, Gemini CLI 0.61 — in tests/test_real_clients.py):
- Claude Code: SessionStart / UserPromptSubmit answer
  `{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": "..."}}`; SessionEnd
  and PreCompact output is ignored. Payload: session_id, transcript_path, cwd, prompt, source.
- Codex: the same wire format as Claude Code; it has no SessionEnd, so PreCompact and Stop
  (after every turn) carry the transcript pointer. Hooks in `~/.codex/hooks.json` run only
  once trusted (see `installers.codex_hook_trust`).
- Cursor: sessionStart answers `{"additional_context": "..."}`; beforeSubmitPrompt can only
  answer `{"continue": true}` (it cannot add context), so no per-prompt recall.
- Memory anchored to a file (lorestack's `pre-tool` event): Claude Code's PreToolUse on
  Read/Edit/Write/MultiEdit answers with `additionalContext`, which the model reads beside the
  tool result; Gemini CLI's BeforeTool cannot add context, so its AfterTool on read_file,
  write_file and replace appends ours to the tool's result (both checked in
  tests/test_anchors_real_client.py). Codex's PreToolUse fires for its shell tool (tool_name
  "Bash", tool_input.command) before every command, and its `additionalContext` reaches the
  model as a developer message after the call: the files the command names stand for the file
  (Codex 0.171, checked in tests/test_anchors_real_client.py).
- Gemini CLI: SessionStart and BeforeAgent take `hookSpecificOutput.additionalContext`
  (it wraps it in `<hook_context>…</hook_context>` and, for BeforeAgent, puts that block into
  later payloads' `prompt` too); stdout must be JSON only, so every answer is JSON.

Pre-tool replies, as seen by the model (Claude Code 2.1.197 against a recording model
server): a `permissionDecision: "deny"` reply's `permissionDecisionReason` becomes the
tool_result content (`is_error: true`); an `additionalContext` reply lets the tool run and
adds `<system-reminder>PreToolUse:Bash hook additional context: …</system-reminder>` after
the tool result; `systemMessage` is shown to the user only and never reaches the model.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from lorestack.core import legacy as _legacy
from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX, OVERSIZE_FIELD
from lorestack.core.surrogates import replace_lone_surrogates

# lorestack's own hook events (what `lorestack hook EVENT` accepts)
EVENTS: tuple[str, ...] = ("session-start", "prompt", "session-end", "pre-tool")


@dataclass(frozen=True)
class ClientSpec:
    name: str  # the --client value
    title: str  # for people
    settings_dir: str  # folder under $HOME or the repository
    settings_file: str  # file in that folder holding the hooks
    layout: str  # "groups": event -> [{matcher, hooks: [...]}]; "flat": event -> [handler]
    events: tuple[tuple[str, str], ...]  # (client event, lorestack event), in install order
    reply: str  # how context reaches the model: "hook-specific"
    #   ({"hookSpecificOutput": {"hookEventName", "additionalContext"}}) | "additional-context"
    #   (session start only: {"additional_context": ...})
    timeout_unit: str = "s"  # unit of the handler's "timeout" field
    named_handlers: bool = False  # handlers carry a name and description
    json_only: bool = False  # stdout must always be JSON ('{}' when nothing to say)
    prompt_context: bool = True  # the prompt event can add context
    transcript: str | None = None  # transcript format (consolidation.transcripts)
    aliases: tuple[str, ...] = ()  # other names accepted where a client is named
    pre_tool_event: str | None = None  # the client's pre-tool event, when it has one
    # client event -> the tool matcher its lorestack entry carries (pre-tool: file tools only)
    event_matchers: dict = field(default_factory=dict)
    tool_reply: str = "hook-specific"  # guardrail reply: hook-specific (permissionDecision)
    #   | permission ({"permission": "deny"|"ask"}) | decision ({"decision": "deny", "reason"})
    guardrail_install: bool = False  # `install CLIENT --guardrail` is offered
    settings_version: int | None = None  # a top-level {"version": N} the file must carry
    hooks_need_trust: bool = False  # the client skips hooks the user has not trusted
    per_turn_end_events: tuple[str, ...] = ()  # end-like events that fire after every turn
    #   (extraction is throttled to hooks.session_end_min_interval_s for these)
    off_switch: str | None = None  # where the client's own config can turn hooks off:
    #   "features" (config.toml `[features] hooks|codex_hooks = false`) | "hooksConfig"
    #   (settings.json `hooksConfig.enabled = false`, or a handler's name in `.disabled`)
    npm_package: str | None = None  # where the real client comes from (e2e tests)
    # the byte-order marks ("utf-8", "utf-16-le") a settings file may begin with and still be
    # read by the client, tried with the real client; None: not known
    settings_boms: tuple[str, ...] | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)  # printed after `install CLIENT`

    def client_event(self, event: str) -> str | None:
        """The client's name for lorestack's EVENT where it answers with context."""
        for client_event, ours in self.events:
            if ours == event and ours != "session-end":
                return client_event
        return None

    @property
    def pass_output(self) -> str:
        """What to print when there is nothing to say."""
        return "{}" if self.json_only else ""


CLIENT_SPECS: dict[str, ClientSpec] = {
    spec.name: spec
    for spec in (
        ClientSpec(
            name="claude-code",
            title="Claude Code",
            settings_dir=".claude",
            settings_file="settings.json",
            layout="groups",
            events=(
                ("SessionStart", "session-start"),
                ("UserPromptSubmit", "prompt"),
                ("PreCompact", "session-end"),
                ("SessionEnd", "session-end"),
                ("PreToolUse", "pre-tool"),
            ),
            # memory anchored to a file arrives when the agent reads or edits that file
            event_matchers={"PreToolUse": "Read|Edit|Write|MultiEdit"},
            reply="hook-specific",
            transcript="claude-jsonl",
            pre_tool_event="PreToolUse",
            guardrail_install=True,
            aliases=("claude",),
            npm_package="@anthropic-ai/claude-code",
            # 2.1.197 runs the hooks of a file saved by a Windows editor with a BOM, or as
            # UTF-16 (little-endian, with its BOM); a big-endian one it ignores
            settings_boms=("utf-8", "utf-16-le"),
        ),
        ClientSpec(
            name="codex",
            title="Codex CLI",
            settings_dir=".codex",
            settings_file="hooks.json",
            layout="groups",
            events=(
                ("SessionStart", "session-start"),
                ("UserPromptSubmit", "prompt"),
                ("PreCompact", "session-end"),
                ("Stop", "session-end"),
                ("PreToolUse", "pre-tool"),
            ),
            # Codex reads and edits files through shell commands (its tool "Bash"): memory
            # anchored to a file the command names arrives with it
            event_matchers={"PreToolUse": "Bash"},
            reply="hook-specific",
            transcript="codex-rollout",
            pre_tool_event="PreToolUse",
            hooks_need_trust=True,
            per_turn_end_events=("Stop",),
            off_switch="features",
            npm_package="@openai/codex",
            settings_boms=(),  # 0.171: "failed to parse hooks config", and runs no hook
            notes=(
                "Codex releases before hooks were on by default need "
                "`[features] codex_hooks = true` in ~/.codex/config.toml",
            ),
        ),
        ClientSpec(
            name="cursor",
            title="Cursor",
            settings_dir=".cursor",
            settings_file="hooks.json",
            layout="flat",
            events=(
                ("sessionStart", "session-start"),
                ("preCompact", "session-end"),
                ("sessionEnd", "session-end"),
            ),
            reply="additional-context",
            json_only=True,
            prompt_context=False,
            pre_tool_event="beforeShellExecution",
            tool_reply="permission",
            settings_version=1,
            notes=(
                "Cursor's beforeSubmitPrompt cannot add context, so per-prompt recall is not "
                "installed; use the MCP server (`lorestack mcp`)",
            ),
        ),
        ClientSpec(
            name="gemini",
            title="Gemini CLI",
            settings_dir=".gemini",
            settings_file="settings.json",
            layout="groups",
            events=(
                ("SessionStart", "session-start"),
                ("BeforeAgent", "prompt"),
                ("PreCompress", "session-end"),
                ("SessionEnd", "session-end"),
                ("AfterTool", "pre-tool"),
            ),
            # BeforeTool cannot add context; AfterTool appends it to the file tool's result
            event_matchers={"AfterTool": "read_file|write_file|replace"},
            reply="hook-specific",
            timeout_unit="ms",
            named_handlers=True,
            json_only=True,
            transcript="gemini-chat",
            pre_tool_event="BeforeTool",
            tool_reply="decision",
            off_switch="hooksConfig",
            npm_package="@google/gemini-cli",
            settings_boms=(),  # "Unexpected token" and exits: it does not start
            notes=(
                "older Gemini CLI releases need hooks enabled in settings.json "
                "(see `gemini` docs: hooks)",
            ),
        ),
    )
}

CLIENTS: tuple[str, ...] = tuple(CLIENT_SPECS)
DEFAULT_CLIENT = CLIENTS[0]  # what `--client` means when it is not given


class UnknownClient(ValueError):
    """A --client value that is not in the registry."""


def get(name: str) -> ClientSpec:
    spec = CLIENT_SPECS.get(name) or next(
        (s for s in CLIENT_SPECS.values() if name in s.aliases), None
    )
    if spec is None:
        raise UnknownClient(f"unknown client '{name}'; choose from {', '.join(CLIENTS)}")
    return spec


def transcript_clients() -> tuple[str, ...]:
    """Clients whose session transcripts lorestack can read."""
    return tuple(s.name for s in CLIENT_SPECS.values() if s.transcript)


# ---- payloads --------------------------------------------------------------------------------
@dataclass
class HookPayload:
    """The fields lorestack uses from any client's hook input."""

    client: str
    event: str
    session_id: str | None = None
    cwd: str | None = None
    prompt: str = ""
    transcript_path: str | None = None
    source: str | None = None
    hook_event_name: str | None = None
    raw: dict = field(default_factory=dict)
    refused: str | None = None  # why the hook does nothing with it (a payload over the cap)


def parse_payload(text: str, client: str, event: str) -> HookPayload:
    """Tolerant: empty or non-JSON stdin gives an empty payload, never an exception; a `cwd`
    that is not a folder here is left out.

    The prompt comes back without blocks a client or a hook injected into it (Gemini CLI
    puts earlier hooks' `<hook_context>` into BeforeAgent's `prompt`), so recall searches
    with what the person typed.
    """
    try:
        raw = json.loads(text) if text and text.strip() else {}
    except (ValueError, TypeError, RecursionError):  # nested deeper than json reads, too
        raw = {}
    if not isinstance(raw, dict):
        raw = {}
    if isinstance(size := raw.get(OVERSIZE_FIELD), int):  # core/hook_stdin.py read_payload
        return HookPayload(client=client, event=event, refused=(
            f"payload of {size / 2**20:.1f} MiB is over the {HOOK_PAYLOAD_MAX / 2**20:.0f} MiB "
            "a hook reads; answered empty"))

    def text_field(*names: str) -> str | None:
        for name in names:
            value = raw.get(name)
            if isinstance(value, str) and value.strip():
                return value
        return None

    roots = raw.get("workspace_roots")  # Cursor
    cwd = text_field("cwd")
    if cwd is None and isinstance(roots, list) and roots and isinstance(roots[0], str):
        cwd = roots[0]
    prompt = text_field("prompt", "user_prompt") or ""
    return HookPayload(
        client=client,
        event=event,
        session_id=text_field("session_id", "conversation_id", "sessionId"),
        # a folder there, or none (the caller's): `Path.is_dir` raised on a name too long
        # (ENAMETOOLONG) and git's `cwd=` on a NUL, failing the hook
        cwd=cwd if cwd is not None and os.path.isdir(cwd) else None,
        prompt=strip_injected(prompt),
        transcript_path=text_field("transcript_path", "transcriptPath"),
        source=text_field("source", "trigger", "reason"),
        hook_event_name=text_field("hook_event_name"),
        raw=raw,
    )


# our own name, and the former one (transcripts of sessions from before the rename)
_OURS = "(?:" + "|".join(_legacy.names()) + ")"
# blocks that clients or hooks inject into a user turn; never the person's words
_INJECTED_OPEN = re.compile(
    r"<(system-reminder|user-prompt-submit-hook|environment_context|user_instructions|"
    r"hook_context|session_context|" + _OURS + r"[\w-]*|command-name|command-message|"
    r"command-args|"
    r"local-command-stdout|local-command-stderr)\b"
)
# lorestack's own recalled-memory block (retrieval/render_context.py): preface + ~~~~ fence
_RECALLED = re.compile(
    r"(?:^" + _OURS + r": recalled memory[^\n]*\n)?^(~{4,}) memory[ \t]*\n.*?(?:^\1[ \t]*$|\Z)",
    re.DOTALL | re.MULTILINE,
)
_UNCLOSED_OPEN = re.compile(r"<(system-reminder|hook_context|" + _OURS + r"[\w-]*)\b")


def _drop_closed_blocks(text: str) -> str:
    """`text` without the `<NAME …>…</NAME>` blocks of the injected names, in one pass.

    What `re.sub(r"<(NAMES)\b[^>]*>.*?</\1>", "", text, flags=re.DOTALL)` gives, without its
    cost: that pattern scans to the end from every opening tag that has no closing one, so a
    pasted prompt of such tags took seconds at 100 kB (minutes at a few MB), before any
    deadline. Here a name without a closing tag past some point is never looked for again,
    and the `>` ending an opening tag is found once for all the tags before it."""
    kept: list[str] = []
    pos = 0
    gt = -1
    unclosed: set[str] = set()
    for match in _INJECTED_OPEN.finditer(text):
        name = match.group(1)
        if match.start() < pos or name in unclosed:
            continue
        if gt < match.end():
            gt = text.find(">", match.end())
            if gt < 0:  # no `>` after this tag: none after a later one either
                break
        close = text.find(f"</{name}>", gt + 1)
        if close < 0:
            unclosed.add(name)
            continue
        kept.append(text[pos:match.start()])
        pos = close + len(name) + 3
    kept.append(text[pos:])
    return "".join(kept)


def strip_injected(text: str) -> str:
    """Text without injected blocks (hook context, system reminders, lorestack's own fenced
    recalled-memory block; an opening tag of a hook's or a reminder's block left unclosed
    drops the rest); stripped of surrounding blank space. Linear in the text's length.
    A lone surrogate (JSON can carry `\\ud83d` alone: text cut inside an emoji) becomes
    U+FFFD: no UTF-8 file takes it (an extraction failed whole on one), nor the tokenizer."""
    if not text:
        return ""
    text = replace_lone_surrogates(text)
    if "<" not in text and "~~~~" not in text:
        return text.strip()
    text = _drop_closed_blocks(text)
    text = _RECALLED.sub("", text)
    unclosed = _UNCLOSED_OPEN.search(text)
    if unclosed is not None and text.find(">", unclosed.end()) >= 0:
        text = text[:unclosed.start()]
    return text.strip()


# ---- replies ---------------------------------------------------------------------------------
def format_output(client: str, event: str, context: str | None) -> str:
    """What to print on stdout for this client and event ('' = print nothing)."""
    spec = get(client)
    if spec.reply == "additional-context":
        if event == "session-start":
            return json.dumps({"additional_context": context} if context else {})
        if event == "prompt":
            return json.dumps({"continue": True})
        return json.dumps({})
    name = spec.client_event(event)
    if context and name:
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": name, "additionalContext": context}}
        )
    return spec.pass_output


def install_notes(client: str) -> list[str]:
    return list(get(client).notes)
