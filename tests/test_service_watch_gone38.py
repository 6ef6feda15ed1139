"""The service's folder watcher drops a deleted memory folder even when its derived `.index/`
comes back (thirty-eighth session). CI failed once on test_memory_folder_deleted_while_watched:
a sync or a lock taken as `.memory` was deleted makes `.memory/.index/…` again with its
parents, and the watcher, which only asked "is `.memory` a folder?", kept watching the deleted
project. Real folders, the real watchfiles thread."""

from __future__ import annotations

import shutil
import threading

from lorestack.integrations.service.watch import FolderWatcher
from tests.service_helpers import poll


def test_a_deleted_memory_folder_whose_index_comes_back_is_gone(tmp_path):
    root = tmp_path / ".memory"
    (root / "journal").mkdir(parents=True)
    (root / "project.md").write_text("# p\n")
    gone = threading.Event()
    watcher = FolderWatcher(lambda _root, _paths: None, lambda _root: gone.set(), poll_ms=100)
    watcher.watch(root)
    try:
        assert poll(lambda: str(root) in watcher.watching())
        shutil.rmtree(root)
        (root / ".index" / "locks").mkdir(parents=True)  # a late sync's lock folder
        assert poll(gone.is_set, bound=30)
        assert str(root) not in watcher.watching()
    finally:
        watcher.stop_all()


def test_a_memory_folder_with_its_files_stays_watched(tmp_path):
    root = tmp_path / ".memory"
    (root / ".index").mkdir(parents=True)
    (root / "project.md").write_text("# p\n")
    changed = threading.Event()
    watcher = FolderWatcher(lambda _root, _paths: changed.set(), lambda _root: None, poll_ms=100)
    watcher.watch(root)
    try:
        assert poll(lambda: str(root) in watcher.watching())
        (root / "project.md").write_text("# p\nedited\n")
        assert poll(changed.is_set, bound=30)
        assert str(root) in watcher.watching()
    finally:
        watcher.stop_all()
