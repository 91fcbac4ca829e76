"""No file of the project names a path of one machine: the repository runs wherever it is checked out."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# An absolute path under a home or a work folder, not inside a URL (« https://host/home/… »).
MACHINE_PATH = re.compile(r"(?<![\w:/.~-])/(?:" + "work" + "|" + "home" + r")/")


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_names_a_machine_path() -> None:
    found = []
    for path in tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "absolute machine paths in the project:\n" + "\n".join(found)


def test_the_pattern_finds_a_machine_path() -> None:
    assert MACHINE_PATH.search('SEED = Path("' + "/ho" + 'me/me/seeds")')
    assert not MACHINE_PATH.search("https://example.org/" + "home" + "/page")
