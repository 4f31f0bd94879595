"""Processes started at once: each says `ready`, then all are let go together (the SQLite race tests)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def run_together(commands: list[list[str]], go: Path, timeout: float = 120) -> tuple[list[int], list[tuple[str, str]]]:
    """Start every command, wait for each to print `ready`, touch `go`, and give (return codes, outputs)."""
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for command in commands
    ]
    try:
        for process in processes:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
    finally:
        go.touch()  # all of them open the file and write at once
        outputs = [process.communicate(timeout=timeout) for process in processes]
    return [process.returncode for process in processes], outputs
