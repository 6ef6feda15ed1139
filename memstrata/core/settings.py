"""Settings: one pydantic-settings object, read once at the entry point and passed down.

Layers (later wins): shipped configs/default.toml < ~/.memstrata/config.toml <
.memory/config.toml < MEMSTRATA_* environment < explicit overrides (CLI flags).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Literal

import tomllib
from pydantic import BaseModel, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from memstrata.core.errors import ConfigError


class TokenSettings(BaseModel):
    encoding: str = "cl100k_base"


class GuardSettings(BaseModel):
    redact: bool = False
    entropy_threshold: float = 4.2


class EmbeddingSettings(BaseModel):
    provider: Literal["onnx", "litellm"] = "onnx"
    model: str = "all-MiniLM-L6-v2"
    model_dir: str = ""
    allow_download: bool = True  # hooks turn this off: they never wait on the network
    batch_size: int = 32
    max_tokens: int = 256


class RetrievalSettings(BaseModel):
    k: int = 10
    rrf_k: int = 10
    bm25_weight: float = 1.0
    prose_bm25_weight: float = 0.5
    vector_weight: float = 1.0
    candidates: int = 50
    date_weight: float = 2.0
    reranker: Literal["decay", "llm", "cross-encoder", "none"] = "decay"
    chroma_url: str = ""
    cross_encoder_model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    llm_rerank_max_items: int = 20
    relevance_weight: float = 0.75
    chunk_tokens: int = 512


class DecaySettings(BaseModel):
    fact: float = 120.0
    decision: float = 180.0
    caveat: float = 0.0
    preference: float = 365.0
    criterion: float = 0.0
    event: float = 21.0
    access_boost: float = 0.5
    max_strength_factor: float = 8.0


class LoaderSettings(BaseModel):
    budget: int = 2000
    resident_budget: int = 800
    catalog_share: float = 0.25
    prompt_budget: int = 600
    journal_days: int = 2
    journal_share: float = 0.2
    candidates: int = 50
    todo_days: int = 14
    catalog_rescan_s: float = 300.0


class HookSettings(BaseModel):
    deadline_ms: int = 1500
    prompt_deadline_ms: int = 2500
    # recall modes as in retrieval/modes.py ("hybrid" is an alias of "default")
    session_retrieval: Literal["default", "hybrid", "rrf", "bm25", "vector", "none"] = "bm25"
    prompt_retrieval: Literal["default", "hybrid", "rrf", "bm25", "vector", "none"] = "default"
    prompt_k: int = 8
    session_end_min_interval_s: int = 600
    client_timeout_s: int = 10


class LLMSettings(BaseModel):
    model: str = ""
    api_base: str = ""
    api_key_env: str = ""  # name of the env var holding the key; litellm's defaults otherwise
    timeout_s: float = 30
    max_retries: int = 2
    temperature: float = 0.0


class ConsolidationSettings(BaseModel):
    max_tokens: int = 20000
    ttl_days: int = 90
    archive_threshold: float = 0.05
    pending_review: bool = True
    min_cluster_similarity: float = 0.55
    machine_confidence: float = 0.7
    git_commit: bool = False
    similar_threshold: float = 0.5
    duplicate_threshold: float = 0.7
    tag_weight: float = 0.2
    min_cluster_events: int = 2
    max_failures: int = 3
    llm_max_tokens: int = 400
    candidates: int = 3
    cron_at: str = "03:17"


class GuardrailSettings(BaseModel):
    llm: bool = False
    retrieval: bool = True
    hook_retrieval: bool = False
    retrieval_k: int = 6
    min_similarity: float = 0.35
    max_notes: int = 5
    max_llm_items: int = 8
    llm_max_tokens: int = 900
    hook_llm_timeout_s: float = 20
    max_proposal_chars: int = 12000


def _deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix or remove the file") from exc


def default_config_text() -> str:
    return resources.files("memstrata.configs").joinpath("default.toml").read_text("utf-8")


class _LayeredTomlSource(PydanticBaseSettingsSource):
    """The three TOML layers, deep-merged, below env and explicit values."""

    def __init__(self, settings_cls: type[BaseSettings], files: tuple[Path, ...]):
        super().__init__(settings_cls)
        merged = tomllib.loads(default_config_text())
        for path in files:
            merged = _deep_merge(merged, _read_toml(path))
        self._data = merged

    def get_field_value(self, field, field_name):  # pragma: no cover - unused by __call__
        return self._data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return self._data


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="MEMSTRATA_", env_nested_delimiter="__", extra="ignore"
    )
    layer_files: ClassVar[tuple[Path, ...]] = ()

    tokens: TokenSettings = TokenSettings()
    guard: GuardSettings = GuardSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    decay: DecaySettings = DecaySettings()
    loader: LoaderSettings = LoaderSettings()
    hooks: HookSettings = HookSettings()
    llm: LLMSettings = LLMSettings()
    consolidation: ConsolidationSettings = ConsolidationSettings()
    guardrail: GuardrailSettings = GuardrailSettings()

    @classmethod
    def settings_customise_sources(
        cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings
    ):
        return (init_settings, env_settings, _LayeredTomlSource(settings_cls, cls.layer_files))


def load_settings(
    project_root: Path | None = None, home: Path | None = None, **overrides: Any
) -> Settings:
    """Read every layer once. `project_root` / `home` are the `.memory` and `~/.memstrata` dirs."""
    files = []
    if home is not None:
        files.append(home / "config.toml")
    if project_root is not None:
        files.append(project_root / "config.toml")
    bound = type("Settings", (Settings,), {"layer_files": tuple(files)})
    nested: dict[str, Any] = {}
    for dotted, value in overrides.items():
        if value is None:
            continue
        section, _, key = dotted.partition(".")
        nested.setdefault(section, {})[key] = value
    try:
        # explicit values must deep-merge over the lower layers, not replace whole sections
        base = bound()
        data = _deep_merge(base.model_dump(), nested)
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"invalid setting {loc}: {first['msg']}") from exc
