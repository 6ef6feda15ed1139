"""The public facade for library users: `Memory` opens a project's and the user's memory.

Inside the package, code imports `Memory` from `lorestack.memory_layers.memory`, its home.
"""

from __future__ import annotations

from lorestack.memory_layers.memory import InitResult, Memory

__all__ = ["Memory", "InitResult"]
