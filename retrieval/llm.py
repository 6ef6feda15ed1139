"""The one narrow LLM provider: litellm, asked for JSON that a pydantic model validates.

litellm is imported only here, inside the call, because it is slow to import and would
otherwise fetch a price map. Every message passes the secret guard (redacting) before it
leaves the machine. Errors are typed: transient (timeouts, 5xx, rate limits) are retried,
permanent ones (bad request, auth) are not; a reply that never validates is an LLMError.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from lorestack.core.errors import LLMError
from lorestack.core.settings import LLMSettings
from lorestack.core.surrogates import replace_lone_surrogates_in

T = TypeVar("T", bound=BaseModel)

_FENCED = re.compile(r"```(?:json)?\s*(\{.*\}|\[.*\])\s*```", re.S)
_UNREACHABLE = re.compile(r"Connection error|Connection refused|Name or service not known|"
                          r"nodename nor servname|No route to host", re.IGNORECASE)


def llm_configured(settings: LLMSettings) -> bool:
    return bool(settings.model.strip())


LITELLM_MISSING = ("an LLM model is configured but litellm is not installed; "
                   "pip install 'lorestack[llm]' (or clear [llm] model)")


def litellm_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("litellm") is not None


_PROVIDER_KEYS = {
    "openai": ("OPENAI_API_KEY",), "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "mistral": ("MISTRAL_API_KEY",),
    "groq": ("GROQ_API_KEY",), "openrouter": ("OPENROUTER_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",), "xai": ("XAI_API_KEY",), "cohere": ("COHERE_API_KEY",),
}


def _provider_keys(model: str) -> tuple[str, ...] | None:
    """The key variables of a well-known hosted provider, or None (ask litellm)."""
    provider, sep, rest = model.partition("/")
    if sep:
        return _PROVIDER_KEYS.get(provider.lower())
    name = model.lower()
    if name.startswith(("gpt-", "o1", "o3", "o4", "chatgpt-")):
        return _PROVIDER_KEYS["openai"]
    if name.startswith("claude-"):
        return _PROVIDER_KEYS["anthropic"]
    return None


def credentials_problem(settings: LLMSettings, model: str | None = None) -> str | None:
    """Why a call to the configured model cannot succeed, known before making it: litellm
    missing, or the provider's key absent from the environment. None when it may work.

    A local `api_base` (Ollama, an OpenAI-compatible server) needs no key; a provider's
    `*_API_BASE` variable has a default, so only missing keys and tokens count."""
    model = (model or settings.model).strip()
    if not model:
        return None
    if not litellm_installed():
        return LITELLM_MISSING
    if settings.api_key_env:
        if os.environ.get(settings.api_key_env):
            return None
        if not settings.api_base:
            return (f"LLM {model}: [llm] api_key_env names {settings.api_key_env}, which is not "
                    "set in the environment")
    if settings.api_base:
        return None
    known = _provider_keys(model)
    if known is not None:  # answered without importing litellm (seconds on a cold start)
        if any(os.environ.get(k) for k in known):
            return None
        return (f"LLM {model} has no credentials: set {' or '.join(known)} "
                "(or [llm] api_key_env / api_base)")
    litellm = _import_litellm()
    try:
        found = litellm.validate_environment(model)
    except Exception:  # noqa: BLE001 - an unknown provider: let the call say what is wrong
        return None
    missing = [k for k in (found or {}).get("missing_keys") or [] if not k.endswith("_BASE")]
    if missing and not (found or {}).get("keys_in_environment"):
        return (f"LLM {model} has no credentials: set {' or '.join(missing)} "
                "(or [llm] api_key_env / api_base)")
    return None


def _import_litellm():
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:
        raise LLMError(LITELLM_MISSING) from exc

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


def extract_json(content: str) -> Any:
    """Parse a JSON reply, tolerating a ```json fence or prose around one object."""
    text = content.strip()
    fenced = _FENCED.search(text)
    if fenced:
        text = fenced.group(1)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start != -1 and end > start:
            return json.loads(text[start:end + 1])
        raise


def _why(exc: Exception) -> str:
    """What was wrong with a reply, in one line: a validation error's first complaint (its
    own first line only counts the errors)."""
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc") or ())
        return f"{where + ': ' if where else ''}{first.get('msg', '')}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


@dataclass
class LLMResult(Generic[T]):
    value: T
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    attempts: int


@dataclass
class LLMUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class LLMClient:
    """complete_json(messages, Schema) -> validated Schema instance, with usage accounting."""

    def __init__(self, settings: LLMSettings, *, model: str | None = None,
                 redact: bool = True, entropy_threshold: float = 4.2):
        self.settings = settings
        self.model = model or settings.model
        if not self.model:
            raise LLMError("no LLM configured: set [llm] model in config.toml or pass --model")
        self.redact = redact
        self.entropy_threshold = entropy_threshold
        self.usage = LLMUsage()

    def redact_text(self, text: str, where: str = "LLM prompt") -> str:
        """`text` with every secret the guard finds replaced (prompts out, replies in)."""
        from lorestack.memory_layers.secret_guard import guard_text

        return guard_text(text, redact_secrets=True, where=where,
                          entropy_threshold=self.entropy_threshold)

    def _clean(self, messages: list[dict]) -> list[dict]:
        return [{**m, "content": self.redact_text(str(m.get("content", "")))} for m in messages]

    def _kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"timeout": self.settings.timeout_s,
                                  "temperature": self.settings.temperature}
        if self.settings.api_base:
            kwargs["api_base"] = self.settings.api_base
        key = os.environ.get(self.settings.api_key_env) if self.settings.api_key_env else None
        if key:
            kwargs["api_key"] = key
        elif self.settings.api_base:
            kwargs["api_key"] = "unused"  # local OpenAI-compatible servers ignore it
        return kwargs

    def _call(self, litellm, messages: list[dict], max_tokens: int | None):
        try:
            return litellm.completion(
                model=self.model, messages=messages, max_tokens=max_tokens,
                response_format={"type": "json_object"}, num_retries=0, **self._kwargs(),
            )
        except (litellm.exceptions.AuthenticationError, litellm.exceptions.PermissionDeniedError,
                litellm.exceptions.NotFoundError) as exc:
            # retrying cannot fix a wrong key or a missing model, and no other request fares better
            raise LLMError(f"LLM call failed ({type(exc).__name__}): {str(exc)[:200]}",
                           refused=True) from exc
        except litellm.exceptions.BadRequestError as exc:
            # this request only (too long, filtered): another one may pass
            raise LLMError(f"LLM call failed ({type(exc).__name__}): {str(exc)[:200]}") from exc
        except (litellm.exceptions.Timeout, litellm.exceptions.APIConnectionError,
                litellm.exceptions.RateLimitError, litellm.exceptions.InternalServerError,
                litellm.exceptions.ServiceUnavailableError) as exc:
            text = str(exc)
            # litellm wraps a client-side "api_key must be set" as a connection error
            permanent = bool(re.search(r"api[_ ]key|credential", text, re.I))
            # litellm reports a refused or unresolvable connection as an InternalServerError
            unreachable = isinstance(exc, litellm.exceptions.APIConnectionError) or bool(
                _UNREACHABLE.search(text))
            raise LLMError(f"LLM call failed ({type(exc).__name__}): {text[:200]}",
                           transient=not permanent, unreachable=unreachable and not permanent,
                           refused=permanent or isinstance(exc, litellm.exceptions.RateLimitError)) \
                from exc
        except litellm.exceptions.APIError as exc:
            status = getattr(exc, "status_code", 0) or 0
            raise LLMError(f"LLM call failed ({status}): {str(exc)[:200]}",
                           transient=status >= 500) from exc
        except Exception as exc:  # noqa: BLE001 - litellm raises many shapes; all are permanent here
            raise LLMError(f"LLM call failed ({type(exc).__name__}): {str(exc)[:200]}") from exc

    def complete_json(self, messages: list[dict], schema: type[T], *,
                      max_tokens: int | None = None) -> LLMResult[T]:
        """Ask for JSON, validate it with `schema`; retry transient failures and bad replies."""
        litellm = _import_litellm()
        clean = self._clean(messages)
        last_error = "no attempt"
        unreachable = refused = transient = False
        attempts = 0
        prompt_tokens = completion_tokens = 0
        cost = 0.0
        for attempt in range(self.settings.max_retries + 1):
            attempts = attempt + 1
            try:
                response = self._call(litellm, clean, max_tokens)
            except LLMError as exc:
                last_error = str(exc)
                unreachable, refused, transient = exc.unreachable, exc.refused, exc.transient
                if not exc.transient:
                    break
                time.sleep(min(0.2 * 2 ** attempt, 2.0))
                continue
            self.usage.calls += 1
            usage = getattr(response, "usage", None)
            p = int(getattr(usage, "prompt_tokens", 0) or 0)
            c = int(getattr(usage, "completion_tokens", 0) or 0)
            prompt_tokens += p
            completion_tokens += c
            self.usage.prompt_tokens += p
            self.usage.completion_tokens += c
            try:
                call_cost = float(litellm.completion_cost(completion_response=response) or 0.0)
            except Exception:  # noqa: BLE001 - unknown (local) models have no price
                call_cost = 0.0
            cost += call_cost
            self.usage.cost_usd += call_cost
            unreachable = refused = transient = False
            content = response.choices[0].message.content or ""
            try:
                # JSON may escape half a surrogate pair: no file or tokenizer takes one
                value = schema.model_validate(replace_lone_surrogates_in(extract_json(content)))
            except (json.JSONDecodeError, ValidationError, ValueError) as exc:
                last_error = f"reply did not validate as {schema.__name__}: {_why(exc)[:160]}"
                continue
            return LLMResult(value, prompt_tokens, completion_tokens, cost, attempts)
        self.usage.failures.append(last_error)
        # `transient`: the last attempt failed on the server's side (timeout, 5xx), not on
        # what the model answered
        raise LLMError(f"{last_error} (after {attempts} attempt(s))", transient=transient,
                       unreachable=unreachable, refused=refused)
