"""Embedders behind one narrow protocol: texts in, L2-normalised float32 rows out.

The default runs all-MiniLM-L6-v2 (the model of chroma's default embedding function) with
onnxruntime ourselves. Chroma pads every text to 256 tokens; we sort a batch by length and
pad only to the longest text in each batch, which gives the same vectors (mean pooling is
masked) at a fraction of the cost for short memory items.

Nothing here imports chromadb, so consolidation can reuse the embedder without it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from lorestack.core.errors import ConfigError, LorestackError, MissingExtra

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.core.settings import EmbeddingSettings, Settings

MODEL_FILES = ("model.onnx", "tokenizer.json")
# where chroma's ONNXMiniLM_L6_V2 keeps the model it downloads
CHROMA_CACHE = Path.home() / ".cache" / "chroma" / "onnx_models" / "all-MiniLM-L6-v2"


@runtime_checkable
class Embedder(Protocol):
    """What every embedding provider offers."""

    name: str
    dim: int
    max_tokens: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, dim) float32, each row L2-normalised."""
        ...


def l2_normalise(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1e-12
    return (rows / norms).astype(np.float32)


def _model_folder(model_dir: str | os.PathLike | None) -> Path | None:
    """Accept the folder holding model.onnx or its parent with an `onnx/` inside."""
    if not model_dir:
        return None
    path = Path(model_dir).expanduser()
    for candidate in (path, path / "onnx"):
        if all((candidate / f).is_file() for f in MODEL_FILES):
            return candidate
    return None


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 on onnxruntime with length-sorted batches and dynamic padding."""

    name = "onnx:all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, model_dir: str | os.PathLike, *, batch_size: int = 32,
                 max_tokens: int = 256, threads: int | None = None):
        folder = _model_folder(model_dir)
        if folder is None:
            raise ConfigError(
                f"embedding model not found in {model_dir} (need {', '.join(MODEL_FILES)}); "
                "set embedding.model_dir / LORESTACK_EMBEDDING__MODEL_DIR to the model folder")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both are core dependencies
            raise MissingExtra(f"{exc.name} is not installed; reinstall lorestack") from exc
        self.folder = folder
        self.batch_size = max(1, batch_size)
        self.max_tokens = max_tokens
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.no_padding()
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # idle intra-op threads sleep instead of spinning: on 2 busy cores a spinning thread
        # burns the CPU the other processes (a hook, the client, a test worker) wait for.
        # Measured beside three other jobs (load 5.6): a query's p50 11 ms against 22 ms, a
        # guardrail set's CPU 24 s against 38 s, the same vectors (docs/benchmarks.md)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if threads:
            options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(
            str(folder / "model.onnx"), sess_options=options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._single: dict[str, np.ndarray] = {}  # text -> embed([text])[0], the last few

    def embed_one(self, text: str) -> np.ndarray:
        """`embed([text])[0]` (read-only), kept for the last 64 texts: a query is embedded once
        for every index of the process that asks for it."""
        vec = self._single.get(text)
        if vec is None:
            vec = self.embed([text])[0]
            vec.setflags(write=False)
            if len(self._single) >= 64:
                self._single.clear()
            self._single[text] = vec
        return vec

    def _run(self, encodings) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n] = enc.ids
            mask[row, :n] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return l2_normalise(pooled)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tokenizer.encode_batch([t or "" for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # batches by token volume: many short texts per run, few long ones
        budget = self.batch_size * 64
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and end - start < 4 * self.batch_size and \
                    len(encodings[order[end]].ids) * (end - start + 1) <= budget:
                end += 1
            chunk = order[start:end]
            out[chunk] = self._run([encodings[i] for i in chunk])
            start = end
        return out


class LiteLLMEmbedder:
    """Any embedding model litellm can call; imported only when configured."""

    def __init__(self, model: str, *, batch_size: int = 64, api_base: str = "",
                 max_tokens: int = 8192):
        self.model = model
        self.name = f"litellm:{model}"
        self.batch_size = max(1, batch_size)
        self.api_base = api_base or None
        self.max_tokens = max_tokens
        self.dim = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            import litellm
        except ImportError as exc:
            raise LorestackError("embedding provider 'litellm' needs litellm: "
                                 "pip install 'lorestack[llm]'") from exc

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [t or " " for t in texts[start:start + self.batch_size]]
            try:
                response = litellm.embedding(model=self.model, input=batch, api_base=self.api_base)
            except Exception as exc:  # litellm raises many provider-specific types
                raise LorestackError(f"embedding with {self.model} failed: {exc}") from exc
            data = sorted(response.data, key=lambda d: d["index"] if isinstance(d, dict) else d.index)
            rows.extend((d["embedding"] if isinstance(d, dict) else d.embedding) for d in data)
        if not rows:
            return np.zeros((0, self.dim or 1), dtype=np.float32)
        out = l2_normalise(np.asarray(rows, dtype=np.float32))
        self.dim = out.shape[1]
        return out


def resolve_model_dir(settings: EmbeddingSettings) -> Path:
    """Configured folder, else chroma's cache (downloaded there by chroma when online)."""
    configured = settings.model_dir
    if configured:
        found = _model_folder(configured)
        if found is None:
            raise ConfigError(
                f"embedding.model_dir={configured} has no {' / '.join(MODEL_FILES)}; "
                "point it at the all-MiniLM-L6-v2 onnx folder")
        return found
    found = _model_folder(CHROMA_CACHE)
    if found is not None:
        return found
    if not settings.allow_download:
        raise ConfigError(
            "no local embedding model and downloads are off here: set embedding.model_dir (or "
            "LORESTACK_EMBEDDING__MODEL_DIR), or run `lorestack reindex` once on a networked machine")
    try:  # networked machine: let chroma download to its own cache, once
        from chromadb.utils.embedding_functions.onnx_mini_lm_l6_v2 import ONNXMiniLM_L6_V2

        ONNXMiniLM_L6_V2()._download_model_if_not_exists()
    except Exception as exc:
        raise ConfigError(
            "no embedding model available: set embedding.model_dir (or "
            f"LORESTACK_EMBEDDING__MODEL_DIR) to an all-MiniLM-L6-v2 onnx folder ({exc})") from exc
    found = _model_folder(CHROMA_CACHE)
    if found is None:
        raise ConfigError(f"chroma's model download did not produce {CHROMA_CACHE}/onnx")
    return found


_CACHE: dict[tuple, Embedder] = {}
# Building a model takes ~0.3 s and ~90 MB; two threads of the service asking at once (a hook
# and the warm-up, or two first prompts) must not each build one.
_BUILD_LOCK = threading.Lock()
# onnxruntime's intra-op threads for the local model (None: its default, one per core). The
# service asks for one (`use_threads`): it embeds one short query per prompt, where a second
# thread costs more than it gives (single query on 2 busy cores: p50 7.7 ms with one thread,
# 13 ms with the default), and prompts that arrive together then embed side by side.
_THREADS: int | None = None


def use_threads(threads: int | None) -> None:
    """Intra-op threads for the local model from now on in this process (None: the default)."""
    global _THREADS
    _THREADS = threads


def get_embedder(settings: Settings | EmbeddingSettings) -> Embedder:
    """The configured embedder; one instance per configuration per process (models are big)."""
    from lorestack.core.settings import Settings

    emb: EmbeddingSettings = settings.embedding if isinstance(settings, Settings) else settings
    if emb.provider == "litellm":
        api_base = getattr(emb, "api_base", "") or ""
        key: tuple = ("litellm", emb.model, api_base)
    else:
        folder = resolve_model_dir(emb)
        key = ("onnx", str(folder), emb.batch_size, emb.max_tokens, _THREADS)
    found = _CACHE.get(key)
    if found is not None:
        return found
    with _BUILD_LOCK:
        if key not in _CACHE:
            if emb.provider == "litellm":
                _CACHE[key] = LiteLLMEmbedder(emb.model, batch_size=emb.batch_size,
                                              api_base=key[2])
            else:
                _CACHE[key] = OnnxMiniLMEmbedder(folder, batch_size=emb.batch_size,
                                                 max_tokens=emb.max_tokens, threads=_THREADS)
        return _CACHE[key]
