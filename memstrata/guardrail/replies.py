"""How a guardrail verdict is told: to a person, and to each client's pre-tool hook.

Hook formats (stdout JSON, exit 0; a hook never crashes a session):
- Claude Code and Codex PreToolUse: block -> `hookSpecificOutput.permissionDecision: "deny"`
  with the reason (the assistant sees which rule it would break); warn -> the reason as
  `additionalContext` for the assistant plus a `systemMessage` for the user. Pass prints
  nothing, so the client's own permission flow is untouched (we never answer "allow").
- Cursor beforeShellExecution: block -> `permission: "deny"`; warn -> `permission: "ask"`;
  both with `user_message` / `agent_message`. Pass prints `{}`.
- Gemini CLI BeforeTool: block -> `decision: "deny"` with `reason`; warn -> `systemMessage`.
Errors fail open (nothing printed, exit 0, one line on stderr) unless fail-closed is asked
for, in which case the call is denied with the error as the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from memstrata.core.clients import get as client_spec
from memstrata.guardrail.check import CheckResult, Finding


@dataclass
class HookReply:
    stdout: str
    stderr: str
    exit_code: int


def _age(when: datetime) -> str:
    days = (datetime.now(timezone.utc) - when).days
    if days < 1:
        return "today"
    if days < 60:
        return f"{days} day{'s' if days != 1 else ''} ago"
    if days < 730:
        return f"{days // 30} months ago"
    return f"{days // 365} years ago"


def describe(f: Finding) -> str:
    """One finding in a sentence: verdict, id, rule, when set, why, evidence."""
    set_on = f"set {f.set_on.date().isoformat()}, {_age(f.set_on)}"
    parts = [f"{f.verdict.upper()} {f.id} ({f.type}, {set_on}): {f.title}"]
    if f.text.strip() and f.text.strip() != f.title.strip():
        parts.append(f"  rule: {' '.join(f.text.split())[:300]}")
    if f.triggers:
        parts.append(f"  applies: {', '.join(f.triggers)}")
    parts.append(f"  {f.judged_by}: {f.reason}")
    if f.quote:
        parts.append(f'  in the proposal: "{f.quote}"')
    if f.rationale:
        parts.append(f"  rationale: {f.rationale}")
    if f.review_when:
        parts.append(f"  review when: {f.review_when}")
    return "\n".join(parts)


def report(result: CheckResult) -> str:
    """The whole verdict for a person or an assistant."""
    lines = []
    for f in result.violations:
        lines.append(describe(f))
    if result.violations:
        ids = " ".join(f.id for f in result.violations)
        lines.append(
            "If the proposal should go ahead anyway because a rule is outdated, the user can "
            f"`memstrata supersede {result.violations[0].id} ...` or `memstrata forget ID "
            f"--reason ...` ({ids})."
        )
    for f in result.notes:
        lines.append(
            f"note: possibly relevant {f.id} ({f.type}, set "
            f"{f.set_on.date().isoformat()}): {f.title} — {f.reason}"
        )
    return "\n".join(lines)


def verdict_line(result: CheckResult) -> str:
    if result.skipped:
        return f"pass: {result.skipped}"
    n = result.criteria_checked
    counted = f"{n} criteri{'on' if n == 1 else 'a'} checked"
    if result.verdict == "pass":
        return f"pass ({counted}, {len(result.satisfied)} applied and held)"
    return f"{result.verdict} ({counted}, {len(result.violations)} violated)"


def _agent_message(result: CheckResult) -> str:
    head = (
        "memstrata guardrail: this would break a rule the user recorded."
        if result.verdict == "block"
        else "memstrata guardrail: this may conflict with a rule the user recorded."
    )
    return head + "\n" + report(result)


def hook_reply(result: CheckResult, client: str, *, strict: bool = False) -> HookReply:
    """The client-specific answer for a pre-tool hook."""
    verdict = result.verdict
    if verdict == "warn" and strict:
        verdict = "block"
    if verdict == "pass":
        return HookReply(client_spec(client).pass_output, "", 0)
    message = _agent_message(result)
    style = client_spec(client).tool_reply
    if style == "hook-specific":
        if verdict == "block":
            out = {
                "hookSpecificOutput": {
                    "hookEventName": client_spec(client).pre_tool_event,
                    "permissionDecision": "deny",
                    "permissionDecisionReason": message,
                }
            }
        else:
            out = {
                "hookSpecificOutput": {
                    "hookEventName": client_spec(client).pre_tool_event,
                    "additionalContext": message,
                },
                "systemMessage": message,
            }
    elif style == "permission":
        out = {
            "permission": "deny" if verdict == "block" else "ask",
            "user_message": message,
            "agent_message": message,
        }
    else:  # gemini
        out = (
            {"decision": "deny", "reason": message}
            if verdict == "block"
            else {"systemMessage": message}
        )
    return HookReply(json.dumps(out, ensure_ascii=False), "", 0)


def hook_error_reply(error: str, client: str, *, fail_closed: bool = False) -> HookReply:
    """A failed check: fail open (let the tool run) unless asked to fail closed."""
    line = f"memstrata check failed: {error}"
    if not fail_closed:
        return HookReply(client_spec(client).pass_output, line, 0)
    reason = line + " (the guardrail is set to fail closed)"
    style = client_spec(client).tool_reply
    if style == "hook-specific":
        out = {
            "hookSpecificOutput": {
                "hookEventName": client_spec(client).pre_tool_event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    elif style == "permission":
        out = {"permission": "deny", "user_message": reason, "agent_message": reason}
    else:
        out = {"decision": "deny", "reason": reason}
    return HookReply(json.dumps(out), line, 0)

