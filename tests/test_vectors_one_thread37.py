"""chromadb 1.5.9 lost vectors from a process's in-memory index when it added a write's
vectors on several threads after a read in the same process (thirty-seventh session; it failed
tests/test_retrieval_sync.py once in CI: the one chunk that held the answer was never
returned). lorestack imports chromadb with its thread pool at one thread unless the user set
RAYON_NUM_THREADS. A fresh interpreter, lorestack's own VectorStore, the real chromadb and the real model: write 11 chunk
vectors, read, write 9 more, query; 200 times in fresh folders (before the fix about 2 runs in
100 lost vectors on 2 cores)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import model_dir

pytestmark = pytest.mark.slow

SCRIPT = r"""
import json, os, shutil, sys, tempfile
from pathlib import Path
from lorestack.retrieval.embedding import OnnxMiniLMEmbedder
from lorestack.retrieval.vectors import VectorStore

filler = " ".join(f"Paragraph {n} talks about ordinary configuration details." for n in range(20))
texts = [f"{filler} item {n}" for n in range(11)] + [
    f"Chunk {n}: the quarterly disaster recovery drill restores the vault from tape" for n in range(9)]
vectors = OnnxMiniLMEmbedder(sys.argv[1]).embed(texts)
ids = [f"doc-{n}::0" for n in range(11)] + [f"long::{n}" for n in range(9)]
lost = 0
for _ in range(int(sys.argv[2])):
    folder = tempfile.mkdtemp()
    store = VectorStore(Path(folder))  # lorestack's own client and collection
    col = store.collection(create=True)
    col.upsert(ids=ids[:11], embeddings=vectors[:11])
    col.query(query_embeddings=[vectors[0]], n_results=20)
    col.upsert(ids=ids[11:], embeddings=vectors[11:])
    found = col.query(query_embeddings=[vectors[-1]], n_results=20)["ids"][0]
    lost += len(set(ids) - set(found))
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
print(json.dumps({"threads": os.environ.get("RAYON_NUM_THREADS"), "lost": lost}))
"""


def test_no_vector_is_lost_between_a_read_and_a_write_of_one_process(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "RAYON_NUM_THREADS"}
    env["ANONYMIZED_TELEMETRY"] = "False"
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(model_dir()), "200"], env=env,
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"threads": "1", "lost": 0}


def test_a_thread_count_the_user_set_is_kept(tmp_path):
    env = {**os.environ, "RAYON_NUM_THREADS": "2", "ANONYMIZED_TELEMETRY": "False"}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(model_dir()), "1"], env=env,
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1])["threads"] == "2"
