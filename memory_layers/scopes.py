"""Scope resolution, written once: a project item overrides a global one with the same id,
or with the same type and title (case and surrounding space ignored).

Every reader that merges the two memories (loading items, the loader's resident tier and
catalog, the guardrail's criteria) asks this module, so the rule cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

Identity = tuple[str, str, str]  # (id, type, title)


def title_key(item_type: str, title: str) -> str:
    """The (type, title) half of the override rule, as one string (caches store it)."""
    return f"{item_type}\x1f{title.strip().lower()}"


class ProjectShadow:
    """What the project's items hide of the global memory."""

    def __init__(self, identities: Iterable[Identity] = ()):
        self.ids: set[str] = set()
        self.titles: set[str] = set()
        for item_id, item_type, title in identities:
            self.add_key(item_id, title_key(item_type, title))

    def add_key(self, item_id: str, key: str) -> None:
        self.ids.add(item_id)
        self.titles.add(key)

    def hides(self, item_id: str, item_type: str, title: str) -> bool:
        return self.hides_key(item_id, title_key(item_type, title))

    def hides_key(self, item_id: str, key: str) -> bool:
        return item_id in self.ids or key in self.titles


def visible_global(project: Iterable[T], global_: Iterable[T],
                   identity: Callable[[T], Identity]) -> Iterator[T]:
    """The global entries that no project entry overrides, in their order."""
    shadow = ProjectShadow(identity(p) for p in project)
    return (g for g in global_ if not shadow.hides(*identity(g)))
