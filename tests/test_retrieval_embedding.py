"""Our ONNX embedder gives chroma's default vectors; the protocol holds; imports stay light."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from lorestack.core.errors import ConfigError
from lorestack.core.settings import load_settings
from lorestack.retrieval.embedding import Embedder, OnnxMiniLMEmbedder, get_embedder

from .conftest import model_dir

TEXTS = [
    "", "a", "getUserById in auth_service.py", "ERR_CONN_RESET after 30s under load",
    "We sign JWTs with RS256 and rotate keys monthly. " * 3,
    "日本語のテキストも埋め込める", "Ünïcödé façade naïve café",
    "long " * 400,  # > 256 tokens: both truncate at 256
    "Releases ship to production through GitHub Actions deploying to Fly.io",
]


@pytest.fixture(scope="module")
def ours():
    return OnnxMiniLMEmbedder(model_dir())


def test_vectors_match_chromas_default_function(ours, monkeypatch, tmp_path):
    from chromadb.utils.embedding_functions.onnx_mini_lm_l6_v2 import ONNXMiniLM_L6_V2

    # chroma looks for <DOWNLOAD_PATH>/onnx/...: give it a private folder whose onnx/ links to
    # the test model, so it neither downloads nor creates anything beside the shared copy
    (tmp_path / "chroma-model").mkdir()
    (tmp_path / "chroma-model" / "onnx").symlink_to(model_dir(), target_is_directory=True)
    monkeypatch.setattr(ONNXMiniLM_L6_V2, "DOWNLOAD_PATH", tmp_path / "chroma-model")
    theirs = np.asarray(ONNXMiniLM_L6_V2()(TEXTS), dtype=np.float32)
    mine = ours.embed(TEXTS)
    cosine = (mine * theirs).sum(axis=1)
    assert cosine.min() >= 0.9999, cosine


def test_embed_shape_dtype_norm_and_order(ours):
    vectors = ours.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # batching and length-sorting must not reorder rows
    single = np.stack([ours.embed([t])[0] for t in TEXTS])
    assert (single * vectors).sum(axis=1).min() > 0.9999
    assert ours.embed([]).shape == (0, 384)
    assert isinstance(ours, Embedder)


def test_get_embedder_uses_the_configured_folder_and_caches(tmp_path, monkeypatch):
    settings = load_settings()
    first = get_embedder(settings)
    assert first is get_embedder(settings)
    assert first.embed(["x"]).shape == (1, 384)
    monkeypatch.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(tmp_path))
    with pytest.raises(ConfigError, match="model_dir"):
        get_embedder(load_settings())


def test_parent_folder_with_onnx_inside_is_accepted():
    embedder = OnnxMiniLMEmbedder(model_dir().parent)
    assert embedder.folder == model_dir()


def test_embedding_module_does_not_import_chromadb():
    code = ("import sys, lorestack.retrieval.embedding as e\n"
            "print([m for m in sys.modules if m.split('.')[0] in ('chromadb', 'onnxruntime', "
            "'litellm', 'llama_index')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_threads_asking_at_once_share_one_model(monkeypatch):
    """The service's warm-up and a first prompt (or two first prompts) ask for the model at
    the same moment: one copy is built, not one per thread."""
    import threading

    from lorestack.retrieval import embedding

    monkeypatch.setattr(embedding, "_CACHE", {})
    settings = load_settings()
    start = threading.Barrier(4)
    got: list = []

    def ask():
        start.wait()
        got.append(get_embedder(settings))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4
    assert len({id(e) for e in got}) == 1
    assert len(embedding._CACHE) == 1


def test_idle_model_threads_sleep_instead_of_spinning(ours):
    """onnxruntime's intra-op threads spin while they wait by default; on 2 shared cores that
    spinning took the CPU a hook and the client were waiting for (a guardrail set's CPU 38 s
    against 24 s with the threads asleep, docs/benchmarks.md). Every local model session is
    made with spinning off, and the vectors are those of a session made without the entry."""
    import onnxruntime as ort

    options = ours._session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    plain = ort.SessionOptions()
    plain.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    spinning = ort.InferenceSession(str(ours.folder / "model.onnx"), sess_options=plain,
                                    providers=["CPUExecutionProvider"])
    texts = ["Caroline went to the support group", "pin numpy below 2", "x"]
    mine = ours.embed(texts)
    ours._session, kept = spinning, ours._session
    try:
        theirs = ours.embed(texts)
    finally:
        ours._session = kept
    assert np.allclose(mine, theirs, atol=1e-6)
