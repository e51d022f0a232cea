"""The course hub's spawner: a home per student, short runtime folders, the memory limit."""

from __future__ import annotations

import os
import resource

from jupyterhub.spawner import SimpleLocalProcessSpawner
from traitlets import Unicode


class CourseSpawner(SimpleLocalProcessSpawner):
    """``SimpleLocalProcessSpawner`` (a home per user, one Unix user) whose ``mem_limit`` is
    enforced: the server and every kernel it starts get it as their address-space limit, so a
    runaway kernel fails with MemoryError instead of taking the machine's memory from the class.
    (The spawner itself only passes ``MEM_LIMIT`` on; a local process has no CPU share to set,
    ``cpu_limit`` needs a container spawner.)"""

    runtime_root = Unicode(
        "", config=True, help="folder of the users' runtime folders (kernels' IPC sockets)"
    )

    def user_env(self, env):
        env = super().user_env(env)
        if self.runtime_root:
            env["JUPYTER_RUNTIME_DIR"] = os.path.join(self.runtime_root, self.user.name)
        return env

    def make_preexec_fn(self, name):
        enter_home = super().make_preexec_fn(name)
        limit = int(self.mem_limit or 0)

        def preexec():
            enter_home()
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        return preexec
