"""The layer order (import-linter contract in pyproject.toml) holds on the installed package.

import-linter scans the package's folder on disk; our subpackages live in top-level
folders mapped by setuptools' package-dir, so the check runs on a plain (non-editable)
install of the tree into a temporary folder, where the layout is what users get.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a package build and import-linter
def test_layers_import_downward_only(tmp_path):
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports")
    if lint is None:
        assert not os.environ.get("CI"), "CI installs the dev extra, which brings import-linter"
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    target = tmp_path / "site"
    # build from a copy: building in place would leave build/ and *.egg-info in the clone
    source = tmp_path / "src"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", "node_modules", ".memory"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=900, cwd=tmp_path,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run([lint, str(source / "pyproject.toml")], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=900)
    assert "Contracts: 1 kept, 0 broken." in result.stdout, result.stdout[-4000:]
    assert result.returncode == 0
