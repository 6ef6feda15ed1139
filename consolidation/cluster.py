"""Group journal events by topic: embeddings + shared tags, agglomerative clustering.

Why agglomerative clustering (average linkage, precomputed distances, a distance threshold
instead of a cluster count): the number of topics in a night's events is
unknown, so k-means (needs k) is out; the result is deterministic for the same input (k-means
and HDBSCAN's tie-breaking are not), which crash-resume relies on; singletons stay clusters
of their own instead of being discarded as "noise" as DBSCAN/HDBSCAN would (a lone decision
still matters); a precomputed matrix lets tags share the similarity with the embeddings; and
average linkage does not chain unrelated events through one bridging event the way single
linkage does. A night is at most a few hundred events, so the O(n²) matrix is cheap.

The clustering is a small numpy implementation (`average_linkage_labels`) rather than
scikit-learn's AgglomerativeClustering, which gives the same partition but pulled ~200 MB
(scipy + scikit-learn) into every install for this one call.

Inside a topic, a later event that announces a change ("switch to", "instead of", "no
longer") starts a new segment, so "use Postgres" ×3 then "switch to Redis" yields two claims
in time order and the second supersedes the first, as if they had been seen on two nights.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from lorestack.memory_layers.models import JournalEvent

CHANGE_CUE = re.compile(
    r"\b(?:switch(?:ed|ing)?\s+(?:\w+\s+){0,6}?(?:to|from)|instead of|rather than|no longer|"
    r"replac(?:e|ed|ing)\b|mov(?:e|ed|ing) (?:\w+\s+){0,4}?(?:to|from|off)|migrat(?:e|ed|ing) "
    r"(?:\w+\s+){0,4}?(?:to|from|off)|drop(?:ped)? (?:\w+ ){0,3}?for|changed? (?:our|the) mind|"
    r"revert(?:ed)? to|not anymore|stop(?:ped)? using)\b", re.IGNORECASE)


@dataclass
class Cluster:
    events: list[JournalEvent]

    @property
    def ids(self) -> list[str]:
        return sorted(e.id for e in self.events)

    @property
    def first_time(self):
        return min(e.time for e in self.events)


def event_text(event: JournalEvent) -> str:
    return event.text.strip()


def similarity_matrix(vectors: np.ndarray, tags: list[set[str]], tag_weight: float) -> np.ndarray:
    """Cosine similarity, blended with tag Jaccard where both events carry tags."""
    sim = np.clip(vectors @ vectors.T, -1.0, 1.0)
    if tag_weight <= 0:
        return sim
    n = len(tags)
    for i in range(n):
        for j in range(i + 1, n):
            if tags[i] and tags[j]:
                jacc = len(tags[i] & tags[j]) / len(tags[i] | tags[j])
                value = (1 - tag_weight) * sim[i, j] + tag_weight * jacc
                sim[i, j] = sim[j, i] = value
    return sim


_GENERIC_TAGS = {"session", "fact", "criteria"}


def average_linkage_labels(distance: np.ndarray, threshold: float) -> np.ndarray:
    """Cluster labels from average-linkage (UPGMA) agglomeration of a precomputed distance
    matrix, merging while the closest pair of clusters is nearer than `threshold`.

    Average linkage is monotone (each merge is at least as far as the one before), so stopping
    at the first pair at or beyond the threshold equals cutting the full tree there — the
    partition scikit-learn's AgglomerativeClustering(distance_threshold=…) returns. Ties go to
    the lowest index pair, so the same input always gives the same clusters."""
    n = len(distance)
    dist = np.array(distance, dtype=float, copy=True)
    np.fill_diagonal(dist, np.inf)
    sizes = np.ones(n)
    labels = np.arange(n)
    for _ in range(n - 1):
        flat = int(np.argmin(dist))
        i, j = divmod(flat, n)
        if not dist[i, j] < threshold:
            break
        i, j = min(i, j), max(i, j)
        # Lance–Williams update for average linkage: size-weighted mean of the two rows
        merged = (dist[i] * sizes[i] + dist[j] * sizes[j]) / (sizes[i] + sizes[j])
        dist[i, :] = merged
        dist[:, i] = merged
        dist[i, i] = np.inf
        dist[j, :] = np.inf
        dist[:, j] = np.inf
        sizes[i] += sizes[j]
        labels[labels == j] = i
    return labels


def cluster_events(events: list[JournalEvent], vectors: np.ndarray, *,
                   min_similarity: float, tag_weight: float = 0.2) -> list[Cluster]:
    """Topic clusters (then change segments), ordered by their first event's time."""
    if not events:
        return []
    order = sorted(range(len(events)), key=lambda i: (events[i].time, events[i].id))
    events = [events[i] for i in order]
    vectors = vectors[order]
    if len(events) == 1:
        labels = np.zeros(1, dtype=int)
    else:
        tags = [{t.lower() for t in e.tags} - _GENERIC_TAGS for e in events]
        sim = similarity_matrix(vectors, tags, tag_weight)
        distance = np.clip(1.0 - sim, 0.0, 2.0)
        np.fill_diagonal(distance, 0.0)
        labels = average_linkage_labels(distance, max(1e-6, 1.0 - min_similarity))
    groups: dict[int, list[JournalEvent]] = {}
    for label, event in zip(labels, events):
        groups.setdefault(int(label), []).append(event)
    clusters: list[Cluster] = []
    for members in groups.values():
        clusters.extend(split_on_change(members))
    clusters.sort(key=lambda c: (c.first_time, c.ids[0]))
    return clusters


def split_on_change(members: list[JournalEvent]) -> list[Cluster]:
    """Cut a time-ordered topic where a later event announces a change of mind."""
    members = sorted(members, key=lambda e: (e.time, e.id))
    segments: list[list[JournalEvent]] = [[]]
    for event in members:
        if segments[-1] and CHANGE_CUE.search(event.text):
            segments.append([])
        segments[-1].append(event)
    return [Cluster(seg) for seg in segments if seg]
