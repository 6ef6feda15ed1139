"""What the LLM judge costs per check (issue 22): every tuning case (tests/
guardrail_tuning_cases.py, criteria typed as sentences) checked with `[guardrail] llm`
on, through litellm's real HTTP path to the local fake server (tests/fakellm.py). The
server's own usage figures are scripted, so the prompt and the reply are counted here with
tiktoken (cl100k_base) as they arrive. The fake answers "applies, not violated" for every
rule it is shown: this measures what is sent, not what a model would decide.

    python -m tests.guardrail_llm_cost
"""

from __future__ import annotations

import json
import os
import re
import statistics
import tempfile
from pathlib import Path


def main() -> dict:
    import tiktoken

    from lorestack.guardrail.check import check
    from lorestack.retrieval.tokens import ensure_offline_cache
    from tests.fakellm import FakeLLM
    from tests.guardrail_tuning_cases import CASES, CRITERIA
    from tests.heldout_eval import build
    from tests.test_guardrail_labelled import make_proposal

    ensure_offline_cache()
    enc = tiktoken.get_encoding("cl100k_base")
    sent: list[tuple[int, int]] = []  # (prompt tokens, reply tokens) per model call

    def responder(request: dict) -> str:
        prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []))
        ids = sorted(set(re.findall(r"\bcrit-[a-z0-9]+\b", prompt)))
        reply = json.dumps({"judgements": [
            {"id": i, "applies": True, "violated": False, "why": "kept", "quote": ""}
            for i in ids
        ]})
        sent.append((len(enc.encode(prompt)), len(enc.encode(reply))))
        return reply

    per_check: list[int] = []
    with tempfile.TemporaryDirectory() as tmp, FakeLLM(responder=responder) as server:
        os.environ["HOME"] = os.environ["LORESTACK_HOME"] = str(Path(tmp) / "home")
        os.environ["LORESTACK_LLM__MODEL"] = "openai/fake-model"
        os.environ["LORESTACK_LLM__API_BASE"] = server.api_base
        model = os.environ.get("LORESTACK_TEST_MODEL_DIR")
        if model:
            os.environ.setdefault("LORESTACK_EMBEDDING__MODEL_DIR", model)
        mem, _ = build(Path(tmp), CRITERIA)
        for _, _, raw, _ in CASES:
            before = len(sent)
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False,
                           llm=True)
            per_check.append(len(sent) - before)
            assert (result.llm or {}).get("calls", 0) == len(sent) - before
    prompts = [p for p, _ in sent]
    replies = [r for _, r in sent]
    out = {
        "checks": len(per_check),
        "criteria": len(CRITERIA),
        "calls_per_check_mean": round(sum(per_check) / len(per_check), 2),
        "calls_per_check_max": max(per_check),
        "checks_without_a_call": sum(c == 0 for c in per_check),
        "prompt_tokens_per_call_p50": statistics.median(prompts) if prompts else 0,
        "prompt_tokens_per_call_max": max(prompts, default=0),
        "reply_tokens_per_call_p50": statistics.median(replies) if replies else 0,
        "prompt_tokens_per_check_mean": round(sum(prompts) / len(per_check), 1),
    }
    print(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
