"""memsearch on a bench-format file (locomo-dev, lines of the former format name), paired with lorestack's per-question results.

memsearch is never a dependency of lorestack: `run` goes in a throwaway venv outside the tree
(`python -m venv /tmp/ms && /tmp/ms/bin/pip install memsearch==0.4.23 onnxruntime tokenizers`):

    /tmp/ms/bin/python docs/scripts/memsearch_locomo.py run DATASET MODEL_DIR OUT.jsonl [WORKDIR]

memsearch's embedding slot gets all-MiniLM-L6-v2 ONNX from MODEL_DIR with mean pooling (the
vectors lorestack uses; its own `onnx` provider pools the CLS token); its store is Milvus Lite,
its search the hybrid dense + BM25 with RRF (k = 60). Each conversation is one markdown file,
one `## tN` section per turn (N = the turn's index), so a hit names one turn. One JSON line a
question: id, category, evidence, ranked turn ids (top 10), search ms. Then, with any python:

    python docs/scripts/memsearch_locomo.py pair DETAILS.jsonl OUT.jsonl

(DETAILS from `lorestack bench retrieval --modes default --details`) prints any@1/5/10 of both
and the exact McNemar test on the questions only one of them finds, overall and per category.
"""
from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from math import comb
from pathlib import Path


class MiniLM:
    """all-MiniLM-L6-v2, mean pooled and L2-normalised, truncated at 256 tokens."""

    def __init__(self, folder: Path) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tok.enable_truncation(max_length=256)
        self._tok.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        self._session = ort.InferenceSession(str(folder / "model.onnx"), sess_options=opts,
                                             providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    model_name = "all-MiniLM-L6-v2-onnx-meanpool"
    dimension = 384
    batch_size = 32

    def _encode(self, texts: list[str]):
        import numpy as np

        enc = self._tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        w = mask[:, :, None].astype(np.float32)
        pooled = (hidden * w).sum(axis=1) / np.clip(w.sum(axis=1), 1e-9, None)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            out.extend(self._encode(texts[start:start + self.batch_size]).tolist())
        return out


async def run_conversation(line: dict, embedder: MiniLM, work: Path, out) -> list[float]:
    import memsearch.core as ms_core

    name = line["name"]
    folder = work / name
    folder.mkdir(parents=True)
    ids = [e["id"] for e in line["events"]]
    body = [f"# {name}", ""]
    for n, event in enumerate(line["events"]):
        body += [f"## t{n}", event["text"].replace("\n", " "), ""]
    (folder / "turns.md").write_text("\n".join(body))
    ms_core.get_provider = lambda *a, **k: embedder  # the embedding slot: our MiniLM
    mem = ms_core.MemSearch(paths=[str(folder)], milvus_uri=str(work / f"{name}.db"),
                            collection=name.replace("-", "_"))
    t0 = time.perf_counter()
    chunks = await mem.index()
    index_s = time.perf_counter() - t0
    print(f"{name}: {chunks} chunks of {len(ids)} turns indexed in {index_s:.1f} s",
          file=sys.stderr, flush=True)
    times: list[float] = []
    for q in line["questions"]:
        t0 = time.perf_counter()
        hits = await mem.search(q["question"], top_k=10)
        times.append((time.perf_counter() - t0) * 1000)
        ranked: list[str] = []
        for hit in hits:
            turn = ids[int(hit["heading"][1:])]
            if turn not in ranked:
                ranked.append(turn)
        out.write(json.dumps({"question_id": q["id"], "category": q["category"],
                              "evidence": q["evidence"], "ranked": ranked,
                              "search_ms": round(times[-1], 2)}) + "\n")
    out.flush()
    mem.close()
    return times


async def run(args: list[str]) -> None:
    import numpy as np

    dataset, model_dir, out_path = Path(args[0]), Path(args[1]), Path(args[2])
    work = Path(args[3]) if len(args) > 3 else Path(tempfile.mkdtemp(prefix="memsearch-"))
    embedder = MiniLM(model_dir)
    all_times: list[float] = []
    with out_path.open("w") as out:
        for raw in dataset.read_text().splitlines():
            if raw.strip():
                times = await run_conversation(json.loads(raw), embedder, work, out)
                all_times += times
    print(f"search p50 {np.percentile(all_times, 50):.1f} ms, p95 {np.percentile(all_times, 95):.1f} ms",
          file=sys.stderr)


def _hit(found: list, k: int) -> bool:
    return any(f is not None and f < k for f in found)


def _mcnemar(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p on the discordant pairs."""
    n, m = only_a + only_b, min(only_a, only_b)
    return min(1.0, 2 * sum(comb(n, i) for i in range(m + 1)) / 2 ** n) if n else 1.0


def pair(details: Path, memsearch_out: Path) -> None:
    ours: dict[str, tuple[str, list]] = {}
    theirs: dict[str, list] = {}
    for raw in details.read_text().splitlines():
        row = json.loads(raw)
        if row["mode"] == "default" and row["question_id"] not in ours:
            ours[row["question_id"]] = (row["category"], list(row["found_at"].values()))
    for raw in memsearch_out.read_text().splitlines():
        row = json.loads(raw)
        theirs[row["question_id"]] = [row["ranked"].index(e) if e in row["ranked"] else None
                                      for e in row["evidence"]]
    if set(ours) != set(theirs):
        raise SystemExit(f"not the same questions: {len(ours)} ours, {len(theirs)} memsearch")
    print("| set | k | ours | memsearch | only ours | only memsearch | p |")
    print("|---|---|---|---|---|---|---|")
    for cat in ["all", *sorted({c for c, _ in ours.values()})]:
        qs = [q for q in ours if cat == "all" or ours[q][0] == cat]
        for k in (1, 5, 10):
            a = [_hit(ours[q][1], k) for q in qs]
            b = [_hit(theirs[q], k) for q in qs]
            only_a = sum(x and not y for x, y in zip(a, b))
            only_b = sum(y and not x for x, y in zip(a, b))
            print(f"| {cat} (n={len(qs)}) | {k} | {sum(a) / len(qs):.3f} | {sum(b) / len(qs):.3f} "
                  f"| {only_a} | {only_b} | {_mcnemar(only_a, only_b):.1e} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        asyncio.run(run(sys.argv[2:]))
    elif sys.argv[1:2] == ["pair"]:
        pair(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
