"""Which passage an excerpt shows, measured on real conversations (issue 21, item 3).

When a hit is longer than the room left in the budget, the loader shows an excerpt of it
(retrieval/loader_excerpt.py). locomo-dev's turns are too short to ever be excerpted, so this
check makes long items out of it: each session of a conversation becomes one event (its
turns, one a line, ~21 turns and ~500-900 tokens), stored through `lorestack import`'s path
(`bench.dataset.ingest_events`) into a scratch memory. Every question whose evidence turns
all fall in one session is asked through the prompt hook's own path (`bench.ask.hook_context`:
`hooks.prompt_k`, the prompt's retrieval mode, top-k tier only), at each budget, with the
excerpt's passage chosen four ways:

- `words`: by the query's rarer words (the shipped loader's pick since the sixteenth session);
- `meaning+words`: the passages also embedded with the index's sentence model, meaning
  first and words to break ties (the pick until then, rebuilt here as the alternative);
- `first`: the item's beginning, as much as fits;
- `none`: no excerpts at all (`loader.excerpts = false`).

An evidence turn counts as shown only when its whole text is in the context (whitespace
ignored), as in `bench retrieval`. The ranking is the same in every variant; only the
excerpt differs. The text of locomo-dev is read at run time and never written anywhere.

    python tests/excerpt_locomo.py [--data PATH] [--budgets 300,600,1000] [--json]

Without the data (default: ../shared/data/locomo-dev/locomo-dev.jsonl beside the checkout,
else /work/shared/...), it says so and exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PLACES = (
    REPO.parent / "shared" / "data" / "locomo-dev" / "locomo-dev.jsonl",
    Path("/work/shared/data/locomo-dev/locomo-dev.jsonl"),
)
VARIANTS = ("words", "meaning+words", "first", "none")


def find_data(given: str | None) -> Path | None:
    for place in [Path(given)] if given else PLACES:
        if place.is_file():
            return place
    return None


def session_items(line) -> tuple[list, dict[str, str]]:
    """One event per session (its turns in order, one a line) and turn id -> session."""
    from lorestack.bench.dataset import BenchEvent

    turns: dict[str, list] = defaultdict(list)
    for e in line.events:
        turns[e.session or "?"].append(e)
    items, where = [], {}
    for session, group in turns.items():
        for e in group:
            where[e.id] = session
        items.append(BenchEvent(id=session, time=group[0].time, session=session,
                                text="\n".join(e.text for e in group)))
    return items, where


# ---- the four ways to pick an excerpt -------------------------------------------------------
def _first_window(text, query, memo, max_tokens):
    """The item's beginning: its first passages, as many as fit."""
    from lorestack.retrieval.loader_excerpt import passages

    spans, used, last = passages(text), 0, -1
    for i, (a, b) in enumerate(spans):
        used += memo(text[a:b]) + 1
        if used > max_tokens:
            break
        last = i
    return None if last < 0 else (spans[0][0], spans[last][1])


_VECTORS: dict[str, object] = {}  # item text -> its passages' vectors, as the loader kept them


def _sentence_model():
    """The index's sentence model, loaded by this process's searches."""
    from lorestack.retrieval import embedding

    return next(e for e in embedding._CACHE.values()
                if isinstance(e, embedding.OnnxMiniLMEmbedder))


def _meaning_window(text, query, memo, max_tokens):
    """The pick before the sixteenth session: each passage's closeness to the query in
    meaning (0 for the passages' average or worse, 1 for the closest, squared) first, the
    words' score (scaled to 1, squared) added to break ties."""
    import numpy as np

    from lorestack.retrieval.loader_excerpt import passage_scores, passages, window

    spans = passages(text)
    if not spans:
        return None
    words = passage_scores(text, spans, query)
    if len(spans) > 1:
        model = _sentence_model()
        vectors = _VECTORS.get(text)
        if vectors is None:
            vectors = _VECTORS[text] = np.asarray(model.embed([text[a:b] for a, b in spans]))
        sims = vectors @ np.asarray(model.embed_one(query))
        top, mean = float(sims.max()), float(sims.mean())
        meaning = ([0.0] * len(spans) if top <= mean else
                   [max(0.0, (float(x) - mean) / (top - mean)) ** 2 for x in sims])
        best = max(words) or 1.0
        words = [m + (w / best) ** 2 for m, w in zip(meaning, words)]
    return window(text, spans, words, memo, max_tokens)


@contextlib.contextmanager
def variant(name: str, spent: list[float]):
    """Switch the loader's excerpt pick to `name` for the duration (this process only);
    `spent` collects the seconds each excerpt took."""
    from lorestack.retrieval import loader_excerpt, loader_plan

    saved_pick, saved_block = loader_excerpt.best_window, loader_plan.excerpt_block
    if name == "first":
        loader_excerpt.best_window = _first_window
    elif name == "meaning+words":
        loader_excerpt.best_window = _meaning_window

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return None if name == "none" else saved_block(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - started)

    loader_plan.excerpt_block = timed
    try:
        yield
    finally:
        loader_excerpt.best_window, loader_plan.excerpt_block = saved_pick, saved_block


# ---- asking --------------------------------------------------------------------------------
def _flat(text: str) -> str:
    return " ".join(text.split())


@contextlib.contextmanager
def searched_once():
    """The hook's search, kept per (query, k, mode, now): every variant and budget of a
    question sees the same ranking, searched once (the ranking is deterministic)."""
    from lorestack.retrieval import loader_gather

    real, kept = loader_gather.search_ranking, {}

    def search_ranking(mem, query, *, k, mode, sync, warnings=None, now=None):
        key = (str(mem.primary.root), query, k, mode, sync, now)
        if key not in kept:
            kept[key] = real(mem, query, k=k, mode=mode, sync=sync, warnings=warnings, now=now)
        return kept[key]

    loader_gather.search_ranking = search_ranking
    try:
        yield
    finally:
        loader_gather.search_ranking = real


def pick_alone(store, store_id: str, question, budget: int):
    """The context of one hit alone (the evidence item) at `budget`: the loader's own
    rendering of its excerpt, as if the ranking had left it this much room."""
    from datetime import timezone

    from lorestack.retrieval.hits import LightHit
    from lorestack.retrieval.loader import assemble_context

    when = store.when[store_id]
    day = store.mem.journal.day_file(when.astimezone(timezone.utc).date())
    hit = LightHit(store_id, "event", str(day), when)
    return assemble_context(store.mem, query=question.question, budget=budget, now=question.time,
                            hits=[hit], tiers=("topk",), recent=False, sync=False, record=False)


def _shown(text: str, wanted: list[str]) -> dict:
    flat = _flat(text)
    return {"all": all(w in flat for w in wanted), "any": any(w in flat for w in wanted)}


def _alone(store, sid: str, q, wanted: list[str], budgets, tag: dict) -> list[dict]:
    """The evidence item's excerpt alone, each pick, at each budget; `ranked` says whether
    the hook's search has the item in its first `hooks.prompt_k`."""
    k = store.mem.settings.hooks.prompt_k
    top = {h.id for h in store.index.search(q.question, k=k, mode="default", now=q.time,
                                            sync=False, record_access=False)}
    out = []
    for budget in budgets:
        for name in VARIANTS[:3]:
            with variant(name, []):
                result = pick_alone(store, sid, q, budget)
            out.append({**tag, "budget": budget, "variant": name, "ranked": sid in top,
                        "excerpt": sid in result.ids and sid not in result.full_ids,
                        **_shown(result.text, wanted)})
    return out


def _hooked(store, sid: str, q, wanted: list[str], budgets, tag: dict, spent) -> list[dict]:
    """The prompt hook's context, each variant, at each budget."""
    from lorestack.bench.ask import hook_context

    out = []
    for budget in budgets:
        for name in VARIANTS:
            with variant(name, spent[name]):
                result = hook_context(store.mem, q.question, budget, q.time)
            item = ("whole" if sid in result.full_ids
                    else "excerpt" if sid in result.ids else "absent")
            out.append({**tag, "budget": budget, "variant": name, "item": item,
                        "tokens": result.tokens, **_shown(result.text, wanted)})
    return out


def run(path: Path, budgets: list[int], only: set[str] | None = None,
        alone: tuple[int, ...] = (150, 300)) -> dict:
    from lorestack.bench.dataset import ingest_events, read_dataset

    rows = []  # one per question x budget x variant (the hook's path)
    picks = []  # one per question x budget x variant (the evidence item alone)
    spent: dict[str, list[float]] = {v: [] for v in VARIANTS}
    skipped = 0
    for line in read_dataset(path):
        if only and line.name not in only:
            continue
        items, where = session_items(line)
        turn_text = {e.id: e.text for e in line.events}
        store = ingest_events(items)
        try:
            with searched_once():
                store_id = {d: s for s, d in store.store_ids.items()}
                for q in line.questions:
                    sessions = {where[e] for e in q.evidence}
                    if len(sessions) != 1:
                        continue
                    (session,) = sessions
                    wanted = [_flat(turn_text[e]) for e in q.evidence]
                    if not all(w in _flat(store.texts[session]) for w in wanted):
                        skipped += 1  # redacted on the way in
                        continue
                    tag = {"q": f"{line.name}/{q.id}", "category": q.category}
                    sid = store_id[session]
                    picks += _alone(store, sid, q, wanted, alone, tag)
                    rows += _hooked(store, sid, q, wanted, budgets, tag, spent)
        finally:
            store.close()
    return {"rows": rows, "picks": picks, "skipped": skipped, "excerpt_ms": {
        v: {"n": len(s), "p50": round(statistics.median(s) * 1000, 2) if s else 0.0,
            "mean": round(statistics.fmean(s) * 1000, 2) if s else 0.0}
        for v, s in spent.items()}}


def summarise(rows: list[dict], budgets: list[int]) -> dict:
    """Per budget: every variant's ctx_all over all questions, and over the questions whose
    evidence item today's loader shows as an excerpt (the only place the pick matters)."""
    by = {(r["q"], r["budget"], r["variant"]): r for r in rows}
    questions = list(dict.fromkeys(r["q"] for r in rows))
    out = {}
    for budget in budgets:
        excerpted = [q for q in questions if any(
            by[(q, budget, v)]["item"] == "excerpt" for v in ("words", "meaning+words"))]
        per = {}
        for v in VARIANTS:
            mine = [by[(q, budget, v)] for q in questions]
            sub = [by[(q, budget, v)] for q in excerpted]
            per[v] = {"ctx_all": sum(r["all"] for r in mine),
                      "excerpted_all": sum(r["all"] for r in sub),
                      "excerpted_any": sum(r["any"] for r in sub),
                      "shown_as_excerpt": sum(r["item"] == "excerpt" for r in mine)}
        pairs = [(by[(q, budget, "meaning+words")]["all"], by[(q, budget, "words")]["all"])
                 for q in excerpted]
        out[budget] = {"questions": len(questions), "excerpted": len(excerpted),
                       "meaning_only": sum(m and not w for m, w in pairs),
                       "words_only": sum(w and not m for m, w in pairs), **per}
    return out


def summarise_picks(picks: list[dict]) -> dict:
    """Per budget and subset (every question / the item in the hook's top k): how often each
    pick's excerpt holds the evidence, and the paired meaning-only / words-only counts."""
    by = {(r["q"], r["budget"], r["variant"]): r for r in picks}
    out = {}
    for budget in dict.fromkeys(r["budget"] for r in picks):
        qs = [r["q"] for r in picks if r["budget"] == budget and r["variant"] == "words"]
        for subset, chosen in (("all", qs), ("ranked", [q for q in qs
                                                        if by[(q, budget, "words")]["ranked"]])):
            row = {"n": len(chosen)}
            for v in VARIANTS[:3]:
                mine = [by[(q, budget, v)] for q in chosen]
                row[v] = {"all": sum(r["all"] for r in mine), "any": sum(r["any"] for r in mine),
                          "excerpt": sum(r["excerpt"] for r in mine)}
            pairs = [(by[(q, budget, "meaning+words")]["all"], by[(q, budget, "words")]["all"])
                     for q in chosen]
            row["meaning_only"] = sum(m and not w for m, w in pairs)
            row["words_only"] = sum(w and not m for m, w in pairs)
            out[f"{budget}/{subset}"] = row
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="locomo-dev.jsonl (default: ../shared beside the checkout)")
    parser.add_argument("--budgets", default="300,600,1000")
    parser.add_argument("--only", default="", help="only these conversations (conv-26,...)")
    parser.add_argument("--save", help="write every question's outcome (ids only) here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    path = find_data(args.data)
    if path is None:
        print("locomo-dev not found (../shared/data/locomo-dev): skipped")
        return 0
    budgets = [int(b) for b in args.budgets.split(",")]
    started = time.monotonic()
    report = run(path, budgets, set(filter(None, args.only.split(","))))
    if args.save:
        Path(args.save).write_text(json.dumps({k: report[k] for k in ("rows", "picks")}), "utf-8")
    summary = summarise(report["rows"], budgets)
    picked = summarise_picks(report["picks"])
    if args.json:
        print(json.dumps({"summary": summary, "picks": picked, "excerpt_ms": report["excerpt_ms"],
                          "skipped": report["skipped"]}, indent=1))
        return 0
    print(f"{path.name}: sessions as items, {time.monotonic() - started:.0f} s, "
          f"{report['skipped']} questions skipped (evidence changed on import)")
    print("budget | questions | item excerpted | variant | ctx_all | all in excerpted | "
          "any in excerpted | shown as excerpt")
    for budget, s in summary.items():
        for v in VARIANTS:
            r = s[v]
            print(f"{budget} | {s['questions']} | {s['excerpted']} | {v} | {r['ctx_all']} | "
                  f"{r['excerpted_all']} | {r['excerpted_any']} | {r['shown_as_excerpt']}")
        print(f"{budget} | meaning alone finds {s['meaning_only']}, words alone "
              f"{s['words_only']} (paired, excerpted items)")
    print("the evidence item alone (budget/subset | n | variant: all, any, excerpts shown)")
    for key, row in picked.items():
        cells = "; ".join(f"{v}: {row[v]['all']}, {row[v]['any']}, {row[v]['excerpt']}"
                          for v in VARIANTS[:3])
        print(f"{key} | {row['n']} | {cells} | meaning alone {row['meaning_only']}, "
              f"words alone {row['words_only']}")
    print("excerpt ms (p50 / mean / n):", {v: (m["p50"], m["mean"], m["n"])
                                           for v, m in report["excerpt_ms"].items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
