"""LlamaIndex integration: lorestack as a `BaseRetriever` in any llama-index pipeline.

    from lorestack.retrieval.llamaindex import LorestackRetriever
    retriever = LorestackRetriever(Memory.open(), k=5)
    nodes = retriever.retrieve("how do we deploy?")

Imports llama-index at module import: import this module only where it is used.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.callbacks import CallbackManager
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from lorestack.retrieval.index import MemoryIndex, SearchHit


def hit_to_node(hit: SearchHit) -> NodeWithScore:
    node = TextNode(
        id_=hit.id, text=hit.text,
        metadata={"id": hit.id, "type": hit.type, "layer": hit.layer, "scope": hit.scope,
                  "status": hit.status, "title": hit.title, "path": hit.path,
                  "time": hit.time.isoformat(), "confidence": hit.confidence},
        excluded_embed_metadata_keys=["path", "time", "confidence", "status"],
        excluded_llm_metadata_keys=["path", "confidence", "status"],
    )
    return NodeWithScore(node=node, score=hit.score)


class LorestackRetriever(BaseRetriever):
    """Retrieves memory items and journal events through `MemoryIndex.search`."""

    def __init__(self, memory: Any, *, k: int = 10, mode: str = "default",
                 types: list[str] | None = None, layers: list[str] | None = None,
                 callback_manager: CallbackManager | None = None, **search_kwargs: Any):
        self._index = memory if isinstance(memory, MemoryIndex) else MemoryIndex(memory)
        self._k = k
        self._mode = mode
        self._types = types
        self._layers = layers
        self._search_kwargs = search_kwargs
        super().__init__(callback_manager=callback_manager)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self._index.search(query_bundle.query_str, k=self._k, mode=self._mode,
                                  types=self._types, layers=self._layers, **self._search_kwargs)
        return [hit_to_node(h) for h in hits]
