"""The course hub's spawners: the memory limit enforced, in the trial and in a real class."""

from __future__ import annotations

import os
import pwd
import resource

from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from traitlets import Unicode


def limited(preexec, limit: int):
    """``preexec`` then the address-space limit: a runaway kernel fails with MemoryError
    instead of taking the machine's memory from the class.  (The spawners only pass
    ``MEM_LIMIT`` on; a local process has no CPU share to set, ``cpu_limit`` needs a container
    spawner.)"""

    def preexec_and_limit():
        preexec()
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return preexec_and_limit


class CourseSpawner(SimpleLocalProcessSpawner):
    """The trial (``make hub``): a home per user under one Unix user, ``mem_limit`` enforced.
    Students are not separated from each other here."""

    runtime_root = Unicode(
        "", config=True, help="folder of the users' runtime folders (kernels' IPC sockets)"
    )

    def user_env(self, env):
        env = super().user_env(env)
        if self.runtime_root:
            env["JUPYTER_RUNTIME_DIR"] = os.path.join(self.runtime_root, self.user.name)
        return env

    def make_preexec_fn(self, name):
        return limited(super().make_preexec_fn(name), int(self.mem_limit or 0))


class ClassSpawner(LocalProcessSpawner):
    """A real class: each server runs as its student's own Unix account, with ``mem_limit``
    enforced; an account with user id 0 is refused, so no student's code runs as root."""

    async def start(self):
        if pwd.getpwnam(self.user.name).pw_uid == 0:
            raise RuntimeError(f"{self.user.name} is root: the course hub starts no server as root")
        return await super().start()

    def make_preexec_fn(self, name):
        return limited(super().make_preexec_fn(name), int(self.mem_limit or 0))
