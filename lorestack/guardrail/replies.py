"""How a guardrail verdict is told: to a person, and to each client's pre-tool hook.

Hook formats (stdout JSON, exit 0; a hook never crashes a session):
- Claude Code and Codex PreToolUse: block -> `hookSpecificOutput.permissionDecision: "deny"`
  with `permissionDecisionReason` (on deny the reason is shown to the model). Warn, and a
  criterion that applies but the rules could not decide -> `additionalContext` (added to
  the model's context while the tool runs; a reason without a decision only reaches the
  debug log) plus a `systemMessage` for the user. Pass prints nothing, so the client's
  own permission flow is untouched (we never answer "allow").
- Cursor beforeShellExecution: block -> `permission: "deny"`; warn -> `permission: "ask"`;
  both with `user_message` / `agent_message`. Pass prints `{}`.
- Gemini CLI BeforeTool: block -> `decision: "deny"` with `reason` (sent to the model as
  the tool's error); warn -> `systemMessage` (the user only).
- Undecided criteria, where the agent is the judge: Cursor and Gemini have no channel that
  reaches the model without refusing the call, so the first time a proposal meets an
  undecided criterion the call is refused with the criterion's text, date and rationale
  and a request to review it; the same call retried within ASK_AGAIN_AFTER_S goes through
  (the agent has judged it). See `first_ask` in hook_reply.
Errors fail open (nothing printed, exit 0, one line on stderr) unless fail-closed is asked
for, in which case the call is denied with the error as the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from lorestack.core.clients import get as client_spec
from lorestack.guardrail.findings import CheckResult, Finding

ASK_AGAIN_AFTER_S = 600


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


def report(result: CheckResult, *, undecided: bool = True) -> str:
    """The whole verdict for a person or an assistant."""
    lines = []
    for f in result.violations:
        lines.append(describe(f))
    if undecided:
        lines.extend(_undecided_lines(result))
    for f in result.violations:  # what to do, with the rule's own id (no placeholder)
        lines.append(
            f"To go ahead, change the proposal so it keeps {f.id}. If its terms misread the "
            f"proposal, `lorestack criteria test {f.id} \"…\"` shows why and `lorestack "
            f"criteria edit {f.id}` corrects them; if the rule is outdated, the user can "
            f"`lorestack supersede {f.id} \"new rule\"` or `lorestack forget {f.id} --reason …`."
        )
    for f in result.notes:
        lines.append(
            f"note: possibly relevant {f.id} ({f.type}, set "
            f"{f.set_on.date().isoformat()}): {f.title} — {f.reason}"
        )
    return "\n".join(lines)


def _undecided_lines(result: CheckResult) -> list[str]:
    lines = []
    for f in result.undecided:
        rule = " ".join(f.text.split())[:400]
        lines.append(
            f"APPLIES, UNDECIDED {f.id} ({f.type}, set {f.set_on.date().isoformat()}, "
            f'{_age(f.set_on)}): "{rule}"'
        )
        if f.triggers:
            lines.append(f"  applies: {', '.join(f.triggers)}")
        lines.append(f"  {f.judged_by}: {f.reason}")
        if f.rationale:
            lines.append(f"  rationale: {f.rationale}")
    return lines


def verdict_line(result: CheckResult) -> str:
    """`warn (15 criteria checked: 1 violated; 1 applies, undecided; 2 applied and held)`;
    never "0 applied" while a criterion applies."""
    if result.skipped:
        return f"pass: {result.skipped}"
    n = result.criteria_checked
    counted = f"{n} criteri{'on' if n == 1 else 'a'} checked"
    parts = [
        f"{len(result.violations)} violated" if result.violations else "",
        f"{len(result.undecided)} applies, undecided" if result.undecided else "",
        f"{len(result.satisfied)} applied and held" if result.satisfied else "",
        f"{len(result.notes)} possibly relevant" if result.notes else "",
        f"{result.unjudged_by_meaning} not judged by meaning: no sentence model"
        if result.unjudged_by_meaning else "",
    ]
    line = f"{result.verdict} ({counted}: {'; '.join(p for p in parts if p) or 'none applied'})"
    if result.llm:  # what the LLM judge cost this check
        u = result.llm
        calls = u.get("calls", 0)
        line += (
            f" [llm: {calls} call{'s' if calls != 1 else ''}, {u.get('prompt_tokens', 0)} + "
            f"{u.get('completion_tokens', 0)} tokens]"
        )
    return line


def judge_request(result: CheckResult) -> str:
    """What the agent is asked when criteria apply that the rules could not decide."""
    lines = []
    for f in result.undecided:
        rule = " ".join(f.text.split())[:400]
        why = f" Rationale: {f.rationale}." if f.rationale else ""
        lines.append(
            f"- {f.id}: according to the criterion set on {f.set_on.date().isoformat()} "
            f'({_age(f.set_on)}): "{rule}".{why}'
        )
    return (
        "lorestack guardrail: a rule the user recorded applies to this action, and the rules "
        "cannot tell whether the action keeps it. Review your proposal against it before going "
        "on; if it breaks the rule, change course or ask the user.\n" + "\n".join(lines)
    )


def _agent_message(result: CheckResult) -> str:
    parts = []
    if result.violations:
        parts.append(
            "lorestack guardrail: this would break a rule the user recorded."
            if result.verdict == "block"
            else "lorestack guardrail: this may conflict with a rule the user recorded."
        )
        parts.append(report(result, undecided=False))
    if result.undecided:
        parts.append(judge_request(result))
    return "\n".join(parts)


def _deny(client: str, message: str) -> dict:
    spec = client_spec(client)
    if spec.tool_reply == "hook-specific":
        return {
            "hookSpecificOutput": {
                "hookEventName": spec.pre_tool_event,
                "permissionDecision": "deny",
                "permissionDecisionReason": message,
            }
        }
    if spec.tool_reply == "permission":
        return {"permission": "deny", "user_message": message, "agent_message": message}
    return {"decision": "deny", "reason": message}


def hook_reply(
    result: CheckResult, client: str, *, strict: bool = False, first_ask: bool = True
) -> HookReply:
    """The client-specific answer for a pre-tool hook. `first_ask` is False when this very
    call was already sent back for review and the agent retried it."""
    verdict = result.verdict
    if verdict == "warn" and strict:
        verdict = "block"
    if verdict == "pass":
        return HookReply(client_spec(client).pass_output, "", 0)
    message = _agent_message(result)
    only_undecided = not result.violations
    style = client_spec(client).tool_reply
    if verdict == "block":
        out = _deny(client, message)
    elif style == "hook-specific":
        out = {
            "hookSpecificOutput": {"hookEventName": client_spec(client).pre_tool_event,
                                   "additionalContext": message},
            "systemMessage": message,
        }
    elif only_undecided and first_ask:  # the only way to reach the model is to refuse once
        out = _deny(client, message + "\nIf it keeps the rule, run the same call again.")
    elif only_undecided:  # the agent reviewed it and retried: let it through
        return HookReply("{}", "", 0)
    elif style == "permission":
        out = {"permission": "ask", "user_message": message, "agent_message": message}
    else:  # "decision" (Gemini CLI)
        out = {"systemMessage": message}
    return HookReply(json.dumps(out, ensure_ascii=False), "", 0)


def hook_error_reply(error: str, client: str, *, fail_closed: bool = False) -> HookReply:
    """A failed check: fail open (let the tool run) unless asked to fail closed."""
    line = f"lorestack check failed: {error}"
    if not fail_closed:
        return HookReply(client_spec(client).pass_output, line, 0)
    reason = line + " (the guardrail is set to fail closed)"
    return HookReply(json.dumps(_deny(client, reason)), line, 0)


def with_agent_notice(reply: HookReply, client: str, notice: str | None) -> HookReply:
    """The same answer, carrying `notice` (a broken settings file the user must fix) where the
    agent reads it: beside a warning or a refusal, or as context on a pass; the verdict and
    the exit code are kept."""
    if not notice:
        return reply
    try:
        out = json.loads(reply.stdout) if reply.stdout.strip() else {}
    except ValueError:
        return reply
    if not isinstance(out, dict):
        return reply
    spec = client_spec(client)

    def joined(old: object) -> str:
        return f"{old}\n{notice}" if isinstance(old, str) and old else str(notice)

    if spec.tool_reply == "hook-specific":
        inner = out.setdefault("hookSpecificOutput", {"hookEventName": spec.pre_tool_event})
        slot = ("permissionDecisionReason" if inner.get("permissionDecision") == "deny"
                else "additionalContext")
        inner[slot] = joined(inner.get(slot))
    elif spec.tool_reply == "permission":
        out["agent_message"] = joined(out.get("agent_message"))
        out["user_message"] = joined(out.get("user_message"))
    else:  # "decision" (Gemini CLI)
        if out.get("decision") == "deny":
            out["reason"] = joined(out.get("reason"))
    if spec.tool_reply != "permission":  # the user sees it too (Cursor: user_message)
        out["systemMessage"] = joined(out.get("systemMessage"))
    return HookReply(json.dumps(out, ensure_ascii=False), reply.stderr, reply.exit_code)
