"""Settings: one pydantic-settings object, read once at the entry point and passed down.

Layers (later wins): the defaults written in the models below < ~/.lorestack/config.toml <
.memory/config.toml < LORESTACK_* environment < explicit overrides (CLI flags).

The models are the one source of defaults; the shipped `configs/default.toml` documents them
and a test keeps the two in agreement. Entry points get their settings from
`resolve_settings` (or `Memory.open`, which uses it), never by reading `LORESTACK_*` themselves.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import tomllib
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from lorestack.core.errors import ConfigError

# sizes, budgets, counts and times are never negative; a k or a limit is at least 1
Count = Annotated[int, Field(ge=0)]
AtLeastOne = Annotated[int, Field(ge=1)]
Amount = Annotated[float, Field(ge=0)]


class _Section(BaseModel):
    """A `[section]` of settings. A number is finite: TOML and the environment spell `nan` and
    `inf`, which no setting means (a share of nan stopped every context build)."""

    model_config = ConfigDict(allow_inf_nan=False)


class TokenSettings(_Section):
    encoding: str = "cl100k_base"


class GuardSettings(_Section):
    redact: bool = False
    entropy_threshold: float = 4.2


class LimitsSettings(_Section):
    max_item_bytes: AtLeastOne = 65536  # remember / log text (CLI, stdin, MCP)
    max_proposal_bytes: AtLeastOne = 262144  # check: text proposals refused; diffs, hooks cut
    max_file_bytes: AtLeastOne = 262144  # a larger memory file is read as a truncated excerpt


class EmbeddingSettings(_Section):
    provider: Literal["onnx", "litellm"] = "onnx"
    model: str = "all-MiniLM-L6-v2"
    model_dir: str = ""
    allow_download: bool = True  # hooks turn this off: they never wait on the network
    batch_size: AtLeastOne = 32
    max_tokens: AtLeastOne = 256


class RetrievalSettings(_Section):
    k: AtLeastOne = 10
    rrf_k: Count = 10
    bm25_weight: float = 1.0
    vector_weight: float = 1.0
    candidates: AtLeastOne = 50
    date_weight: float = 2.0
    # default pipeline: boost events said by a person the query names (1.0 on locomo-dev,
    # docs/recall.md §12; it was 0.3)
    speaker_weight: float = 1.0
    # "none" = fused order: on locomo-dev the decay blend cost recall (docs/recall.md §10)
    reranker: Literal["decay", "llm", "cross-encoder", "none"] = "none"
    chroma_url: str = ""
    chroma_token_env: str = ""  # env var holding a Chroma token (sent as X-Chroma-Token)
    chroma_namespace: str = ""  # collection prefix on a shared server (default: project name)
    chroma_timeout_s: Amount = 10.0  # per request to a Chroma server (chroma sets none)
    cross_encoder_model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    llm_rerank_max_items: Count = 20
    relevance_weight: float = 0.75
    chunk_tokens: AtLeastOne = 512
    # conversational turns (events with a session and a speaker) are found by what their
    # neighbours say; see retrieval/neighbours.py. 0 / false turns each part off.
    neighbour_chars: Count = 120  # index time: this much of the previous/next turn, per side
    # BM25 boost of that neighbour field (title 2, body 1): 2.5 on locomo-dev, where an
    # answer turn shares the words of the turn that asked it (docs/recall.md §13; it was 0.3)
    neighbour_weight: float = 2.5
    # default pipeline: a BM25 match on a person's name alone ("Thanks, Mel!") is a hit
    name_only_hits: bool = False
    # default pipeline: "both" = a second dense ranking, of the query without the names of
    # known speakers it says ("What do kids like?" for "What do Melanie's kids like?"), fused
    # with the first; "drop" = that query alone; "keep" = the query as asked
    dense_names: Literal["keep", "drop", "both"] = "both"


class DecaySettings(_Section):
    fact: Amount = 120.0
    decision: Amount = 180.0
    caveat: Amount = 0.0
    preference: Amount = 365.0
    criterion: Amount = 0.0
    event: Amount = 21.0
    access_boost: Amount = 0.5
    max_strength_factor: Amount = 8.0


class LoaderSettings(_Section):
    budget: Count = 2000
    resident_budget: Count = 800
    catalog_share: float = 0.25
    prompt_budget: Count = 600
    journal_days: Count = 2
    journal_share: float = 0.2
    candidates: AtLeastOne = 50
    todo_days: Count = 14
    catalog_rescan_s: Amount = 300.0
    fill_budget: bool = True
    max_candidates: AtLeastOne = 1000
    excerpts: bool = True
    excerpt_tokens: Count = 160


class HookSettings(_Section):
    deadline_ms: Count = 1500
    prompt_deadline_ms: Count = 2500
    # recall modes as in retrieval/modes.py ("hybrid" is an alias of "default")
    session_retrieval: Literal["default", "hybrid", "rrf", "bm25", "vector", "none"] = "bm25"
    prompt_retrieval: Literal["default", "hybrid", "rrf", "bm25", "vector", "none"] = "default"
    prompt_k: Count = 8
    session_end_min_interval_s: Count = 600
    client_timeout_s: AtLeastOne = 10


class ServiceSettings(_Section):
    enabled: bool = True  # the thin client reads LORESTACK_SERVICE__ENABLED from the environment
    idle_exit_s: Amount = 1800.0
    runtime_dir: str = ""  # the thin client reads LORESTACK_SERVICE__RUNTIME_DIR


class LLMSettings(_Section):
    model: str = ""
    api_base: str = ""
    api_key_env: str = ""  # name of the env var holding the key; litellm's defaults otherwise
    timeout_s: Amount = 30
    max_retries: Count = 2
    temperature: float = 0.0


class ConsolidationSettings(_Section):
    max_tokens: AtLeastOne = 20000
    ttl_days: Count = 90
    archive_threshold: float = 0.05
    pending_review: bool = True
    min_cluster_similarity: float = 0.55
    machine_confidence: float = 0.7
    git_commit: bool = False
    similar_threshold: float = 0.5
    duplicate_threshold: float = 0.68  # merge: calibrated on tests/merge_pairs.py
    tag_weight: float = 0.2
    min_cluster_events: AtLeastOne = 2
    max_failures: AtLeastOne = 3
    llm_max_tokens: AtLeastOne = 400
    candidates: Count = 3
    cron_at: str = "03:17"


class GuardrailSettings(_Section):
    llm: bool = False
    retrieval: bool = True
    hook_retrieval: bool = False
    retrieval_k: int = 6
    min_similarity: float = 0.35
    max_notes: int = 5
    max_llm_items: int = 8
    llm_max_tokens: int = 900
    hook_llm_timeout_s: float = 20
    hook_deadline_ms: int = 5000  # check --hook pre-tool|pre-commit: then fail open (or closed)
    max_proposal_chars: int = 12000
    draft: bool = True  # `remember --type criterion` drafts forbid/require terms from the text
    # criteria apply by meaning too (the MiniLM sentence model): at or above this cosine
    # between the criterion (or a clause) and the proposal (or a line), "applies, undecided"
    meaning: bool = True
    meaning_threshold: float = 0.35


def _deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_toml(path: Path) -> dict[str, Any]:
    if path.exists() and not path.is_file():  # a FIFO or device would block the open
        raise ConfigError(f"{path}: not a regular file; remove it or replace it with a TOML file")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        # a BOM (Notepad) is invisible on line 1 and not TOML: read past it, as hooks do
        return tomllib.loads(data.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix or remove the file") from exc


def default_config_text() -> str:
    return resources.files("lorestack.configs").joinpath("default.toml").read_text("utf-8")


class _LayeredTomlSource(PydanticBaseSettingsSource):
    """The user's TOML layers, deep-merged, above the model defaults and below env values."""

    def __init__(self, settings_cls: type[BaseSettings], files: tuple[Path, ...],
                 data: tuple[dict[str, Any], ...] = ()):
        super().__init__(settings_cls)
        merged: dict[str, Any] = {}
        for layer in data or tuple(_read_toml(path) for path in files):
            merged = _deep_merge(merged, layer)
        self._data = merged

    def get_field_value(self, field, field_name):  # pragma: no cover - unused by __call__
        return self._data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return self._data


class _EnvironmentSource(PydanticBaseSettingsSource):
    """`LORESTACK_SECTION__KEY` variables from the environment that applies (`core.overlay`):
    the process's for a command, the caller's for a request the service answers."""

    def get_field_value(self, field, field_name):  # pragma: no cover - unused by __call__
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        import json

        from lorestack.core.overlay import environ

        sections = self.settings_cls.model_fields
        skip: frozenset[str] = getattr(self.settings_cls, "env_skip", frozenset())
        out: dict[str, Any] = {}
        for name, value in environ().items():
            upper = name.upper()
            if not upper.startswith("LORESTACK_"):
                continue
            section, _, key = upper[len("LORESTACK_"):].lower().partition("__")
            if section not in sections:
                continue
            if not key:  # a whole section as JSON, as pydantic-settings reads it
                if section in skip:  # not a JSON object, left out by a hook (settings_lenient)
                    continue
                try:
                    parsed = json.loads(value)
                except ValueError:
                    parsed = value
                if not isinstance(parsed, dict):  # validation names it: never silently unused
                    out[section] = value
                    continue
                kept = {k: v for k, v in parsed.items() if f"{section}.{k}" not in skip}
                out[section] = _deep_merge(out.get(section, {}), kept)  # less keys left out
                continue
            if f"{section}.{key}" in skip:  # a bad value a hook leaves out (settings_lenient)
                continue
            out.setdefault(section, {})[key] = value
        return out


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="LORESTACK_", env_nested_delimiter="__", extra="ignore"
    )
    layer_files: ClassVar[tuple[Path, ...]] = ()
    layer_data: ClassVar[tuple[dict[str, Any], ...]] = ()  # layers already read (settings_lenient)
    env_skip: ClassVar[frozenset[str]] = frozenset()  # `section.key` env values left out (same)

    tokens: TokenSettings = TokenSettings()
    guard: GuardSettings = GuardSettings()
    limits: LimitsSettings = LimitsSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    decay: DecaySettings = DecaySettings()
    loader: LoaderSettings = LoaderSettings()
    hooks: HookSettings = HookSettings()
    service: ServiceSettings = ServiceSettings()
    llm: LLMSettings = LLMSettings()
    consolidation: ConsolidationSettings = ConsolidationSettings()
    guardrail: GuardrailSettings = GuardrailSettings()

    @classmethod
    def settings_customise_sources(
        cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings
    ):
        return (init_settings, _EnvironmentSource(settings_cls),
                _LayeredTomlSource(settings_cls, cls.layer_files, cls.layer_data))


def load_settings(
    project_root: Path | None = None, home: Path | None = None, **overrides: Any
) -> Settings:
    """Read every layer once. `project_root` / `home` are the `.memory` and `~/.lorestack` dirs."""
    files = [path for _, path in config_files(project_root, home)]
    try:
        return compose_settings({"layer_files": tuple(files)}, overrides)
    except ValidationError as exc:
        raise ConfigError(_describe_invalid(exc, files, overrides)) from exc


def compose_settings(layers: dict[str, Any], overrides: dict[str, Any]) -> Settings:
    """Settings from the given layers (`layer_files` or `layer_data`) and explicit values;
    raises pydantic's ValidationError."""
    bound = type("Settings", (Settings,), layers)
    nested: dict[str, Any] = {}
    for dotted, value in overrides.items():
        if value is None:
            continue
        section, _, key = dotted.partition(".")
        nested.setdefault(section, {})[key] = value
    # explicit values must deep-merge over the lower layers, not replace whole sections
    base = bound()
    return Settings.model_validate(_deep_merge(base.model_dump(), nested))


def config_files(project_root: Path | None, home: Path | None) -> list[tuple[str, Path]]:
    """The user's TOML layers, lowest first, each named: ("global", path), ("project", path)."""
    files = []
    if home is not None:
        files.append(("global", home / "config.toml"))
    if project_root is not None:
        files.append(("project", project_root / "config.toml"))
    return files


def _env_name(dotted: str) -> str:
    return "LORESTACK_" + dotted.upper().replace(".", "__")


def _describe_invalid(exc: ValidationError, files: list[Path], overrides: dict[str, Any]) -> str:
    """Every bad key, each with the layer it came from (file, env variable or flag)."""
    parts = []
    for error in exc.errors():
        dotted = ".".join(str(p) for p in error["loc"])
        origin = _origin(dotted, files, overrides)
        msg = ("not a JSON object of its settings" if "." not in dotted
               and origin.startswith("environment") else error["msg"])
        parts.append(f"{dotted} ({origin}): {msg}")
    return "invalid settings: " + "; ".join(parts)


def _origin(dotted: str, files: list[Path], overrides: dict[str, Any] | None = None) -> str:
    """Where the effective value of `section.key` comes from."""
    from lorestack.core.overlay import environ

    if overrides and overrides.get(dotted) is not None:
        return "command-line flag"
    if _env_name(dotted) in environ():
        return f"environment {_env_name(dotted)}"
    section, _, key = dotted.partition(".")
    whole = environ().get(_env_name(section))  # the section as JSON: LORESTACK_LOADER='{…}'
    if key and whole is not None and key in _json_object(whole):
        return f"environment {_env_name(section)}"
    for path in reversed(files):
        data = _read_toml(path)
        if isinstance(data.get(section), dict) and key in data[section]:
            return str(path)
    return "default"


def _json_object(value: str) -> dict[str, Any]:
    """A whole-section environment value read as JSON; {} when it is not a JSON object."""
    import json

    try:
        parsed = json.loads(value)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def resolve_settings(cwd: Path | None = None, root: str | Path | None = None,
                     home: str | Path | None = None, **overrides: Any) -> Settings:
    """The composition root: settings for a command run here, with every layer that applies.

    Used by entry points that may run without a project (installers, bench, hooks before the
    store opens); `Memory.open` resolves the same roots.
    """
    project_root, home_dir = resolve_roots(cwd, root, home)
    return load_settings(project_root, home_dir, **overrides)


def resolve_roots(cwd: Path | None = None, root: str | Path | None = None,
                  home: str | Path | None = None) -> tuple[Path | None, Path]:
    """(the project's `.memory` dir if there is one, the global home)."""
    from lorestack.core.errors import MemoryRootNotFound
    from lorestack.core.paths import find_project_root, global_home

    home_dir = Path(home).expanduser() if home else global_home()
    try:
        project_root: Path | None = find_project_root(cwd, root)
    except MemoryRootNotFound:
        project_root = None
    if project_root is not None and not project_root.is_dir():
        project_root = None
    return project_root, home_dir


def explain_settings(project_root: Path | None, home: Path | None,
                     **overrides: Any) -> list[tuple[str, Any, str]]:
    """Every effective setting as (section.key, value, where it came from)."""
    settings = load_settings(project_root, home, **overrides)
    files = [path for _, path in config_files(project_root, home)]
    rows = []
    for section, values in settings.model_dump().items():
        for key, value in values.items():
            dotted = f"{section}.{key}"
            rows.append((dotted, value, _origin(dotted, files, overrides)))
    return rows


def setting_type(dotted: str) -> Any:
    """The annotation of `section.key`; ConfigError naming the known keys when unknown."""
    section, _, key = dotted.partition(".")
    field = Settings.model_fields.get(section)
    model = getattr(field, "annotation", None) if field else None
    fields = getattr(model, "model_fields", {}) if model else {}
    if not key or key not in fields:
        known = sorted(Settings.model_fields) if not fields else sorted(fields)
        where = "sections" if not fields else f"keys in [{section}]"
        raise ConfigError(f"unknown setting '{dotted}'; {where}: {', '.join(known)}")
    info = fields[key]
    # the bounds too (`config set loader.budget -- -5` is refused as loading the file would be)
    return Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
