"""What a sandboxed run may use, and what came back from it: plain values on both sides."""

from __future__ import annotations

from dataclasses import dataclass

MB = 2**20

#: Why a run was stopped, each with the sentence that says so (filled in with the limit).
REASONS = {
    "wall": "it was stopped after {wall:g} s of wall-clock time, the limit",
    "cpu": "it was stopped after {cpu:g} s of CPU time, the limit",
    "memory": "it ran out of memory (the limit is {memory_mb:g} MB for all its processes)",
    "output": "it printed more than {output} bytes, the output limit",
}


@dataclass(frozen=True)
class Limits:
    """The limits of one run: seconds of wall and CPU time, bytes of memory (the address space of
    each process, and the memory all its processes hold together), of output (each of standard
    output and standard error), of one written file; processes and open files."""

    wall: float = 10.0
    cpu: float = 10.0
    memory: int = 512 * MB
    output: int = MB
    processes: int = 16
    file_size: int = 16 * MB
    open_files: int = 64

    def __post_init__(self):
        for name in ("wall", "cpu", "memory", "output", "processes", "file_size", "open_files"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive number; got {value!r}")

    def sentence(self, reason: str) -> str:
        """The sentence for a run stopped by the limit ``reason`` (a key of ``REASONS``)."""
        return REASONS[reason].format(
            wall=self.wall, cpu=self.cpu, memory_mb=self.memory / MB, output=self.output
        )


@dataclass(frozen=True)
class Finished:
    """A finished one-shot run.  ``returncode`` is negative for a signal (``None`` if it never
    ended by itself); ``stopped`` names the limit that ended it, ``sentence`` says so."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    stopped: str | None
    sentence: str | None
    truncated: bool
    wall_seconds: float
    cpu_seconds: float
