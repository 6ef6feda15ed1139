"""No module of the package is over 450 lines (issue 23): a module that grows past it is split
along a real seam, and tables of data live in data files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = ("lorestack", "cli", "retrieval", "memory_layers", "consolidation")
LIMIT = 450


def test_no_module_is_over_the_limit():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for d in PACKAGE_DIRS for p in (ROOT / d).rglob("*.py")}
    assert len(sizes) > 100, "the package's modules were not found"
    over = {name: n for name, n in sizes.items() if n > LIMIT}
    assert not over, f"over {LIMIT} lines: {over}"
