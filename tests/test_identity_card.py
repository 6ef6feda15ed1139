"""`init` drafts the identity card from manifests first, without markup, as git sees the tree."""

from __future__ import annotations

import subprocess

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.identity import draft_identity

CLICK_README = """\
<div align="center"><img src="https://raw.githubusercontent.com/pallets/click/refs/heads/stable/docs/_static/click-name.svg" alt="" height="150"></div>

# Click

Click is a Python package for creating beautiful command line interfaces
in a composable way with as little code as necessary.
"""
CLICK_PYPROJECT = """\
[project]
name = "click"
version = "8.3.0"
description = "Composable command line interface toolkit"
readme = "README.md"

[build-system]
requires = ["flit_core<4"]
build-backend = "flit_core.buildapi"

[tool.uv]
default-groups = ["dev", "pre-commit", "tests", "typing"]

[tool.pytest.ini_options]
testpaths = ["tests"]

[tool.ruff]
src = ["src"]

[tool.tox]
env_list = ["py3.13", "style", "typing", "docs"]
"""


def _write(root, files: dict[str, str]):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def click_shaped(root, *, git: bool = True):
    _write(
        root,
        {
            "README.md": CLICK_README,
            "pyproject.toml": CLICK_PYPROJECT,
            "uv.lock": "version = 1\n",
            ".pre-commit-config.yaml": "repos: []\n",
            ".github/workflows/tests.yaml": "name: Tests\n",
            ".github/workflows/publish.yaml": "name: Publish\n",
            ".gitignore": ".venv/\n*.egg-info/\nhtmlcov/\ndist/\n.coverage*\nscratch/\n",
            "src/click/__init__.py": "",
            "src/click/core.py": "x = 1\n",
            "tests/test_basic.py": "def test(): pass\n",
            "docs/conf.py": "project = 'Click'\n",
            "click.egg-info/PKG-INFO": "Name: click\n",
            "htmlcov/index.html": "<html></html>\n",
            "scratch/notes.js": "1\n",
            "CHANGES.rst": "Version 8.3.0\n",
        },
    )
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_click_shaped_repository(isolated):
    click_shaped(isolated)
    assert CliRunner().invoke(cli, ["init"]).exit_code == 0
    card = (isolated / ".memory" / "project.md").read_text()
    title, body = draft_identity(isolated)
    assert title == "click"
    assert "<" not in body and "img" not in body and "svg" not in body
    assert "Composable command line interface toolkit" in body
    assert "title: click" in card
    for tool in ("uv", "tox", "ruff", "pytest", "pre-commit", "GitHub Actions (publish, tests)"):
        assert tool in body, tool
    assert "`tox`" in body and "`pre-commit run --all-files`" in body
    layout = body.split("**Layout**: ")[1].splitlines()[0]
    assert "src/" in layout and "tests/" in layout and "docs/" in layout
    for ignored in ("click.egg-info", "htmlcov", "scratch"):
        assert ignored not in layout  # .gitignore, as git reads it
    assert "JavaScript" not in body  # scratch/notes.js is ignored


def test_readme_markup_is_stripped_when_no_manifest_names_the_project(isolated):
    _write(
        isolated,
        {
            "README.md": (
                '<p align="center"><a href="https://x.dev"><img src="logo.png"></a></p>\n\n'
                "[![CI](https://ci/badge.svg)](https://ci) [![PyPI](https://pypi/b.svg)](https://pypi)\n\n"
                "# **Widget** _Service_\n\nA [small](https://x.dev) service that `renders` widgets.\n"
            )
        },
    )
    title, body = draft_identity(isolated)
    assert title == "Widget Service"
    assert "A small service that renders widgets." in body


def test_other_manifests(isolated):
    for files, name, description in (
        (
            {"package.json": '{"name": "left-pad", "description": "Pads strings"}'},
            "left-pad",
            "Pads strings",
        ),
        (
            {"Cargo.toml": '[package]\nname = "ripgrep"\ndescription = "Fast grep"\n'},
            "ripgrep",
            "Fast grep",
        ),
        ({"go.mod": "module github.com/spf13/cobra\n\ngo 1.21\n"}, "cobra", None),
    ):
        folder = isolated / name
        folder.mkdir()
        _write(folder, files)
        title, body = draft_identity(folder)
        assert title == name
        if description:
            assert description in body


def test_outside_git_the_usual_generated_folders_are_skipped(isolated):
    click_shaped(isolated, git=False)
    _, body = draft_identity(isolated)
    layout = body.split("**Layout**: ")[1].splitlines()[0]
    assert "click.egg-info" not in layout and "htmlcov" not in layout


def test_the_drafted_cards_empty_sections_are_not_rendered(isolated):
    """`init`'s fill-in lines are dropped from the context, and so are the headings they leave
    empty: no bare `## Conventions` that the criteria heading then seems to belong to."""
    (isolated / "pyproject.toml").write_text(
        '[project]\nname = "shop-api"\ndescription = "A small shop API"\n')
    assert CliRunner().invoke(cli, ["init"]).exit_code == 0
    text = CliRunner().invoke(cli, ["context"]).output
    assert "A small shop API" in text
    assert "## Conventions" not in text and "(add the rules" not in text
    assert "\n\n\n" not in text  # the dropped lines leave no run of blank lines
