"""JupyterHub for one Fanorona course on one server (``make hub``; ``jupyterhub -f`` this file).

Read from the environment: ``FANORONA_HUB_STATE`` (the state folder, ``build/hub``),
``FANORONA_HUB_PORT`` and the other ports of ``hub.course.PORTS``, ``FANORONA_HUB_PASSWORD``
(the trial authenticator's shared password), ``FANORONA_HUB_USERS`` (demo students, comma
separated), ``FANORONA_HUB_INSTRUCTORS`` (default ``teacher``), ``FANORONA_HUB_ADMIN_TOKEN``
(the token of the ``course-admin`` service that makes users through the REST API),
``FANORONA_HUB_MEM_LIMIT`` (``2G``), ``FANORONA_HUB_CULL_TIMEOUT`` (seconds, ``3600``),
``FANORONA_HUB_LOBBY`` (``1``: run the class lobby as a hub service).  Everything listens on
127.0.0.1.

A real class (``FANORONA_HUB_ACCOUNTS=1``, after ``python -m hub accounts``): one Unix account a
user (``hub.spawner.ClassSpawner``), the users from the class list, the formgrader run as the
grader account, the system's passwords (PAM) unless ``FANORONA_HUB_AUTHENTICATOR`` names another;
``FANORONA_HUB_IP`` (``127.0.0.1``; ``0.0.0.0`` behind TLS), ``FANORONA_HUB_SSL_CERT`` and
``FANORONA_HUB_SSL_KEY`` for TLS, ``FANORONA_HUB_EXTRA_CONFIG`` a file of further settings (an
authenticator's).
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hub.course import (
    BIN,
    COURSE,
    GRADER,
    INSTRUCTORS,
    STUDENTS,
    Layout,
    ports,
    prepare,
    user_environment,
)

c = get_config()  # noqa: F821  (JupyterHub's config loader provides it)

layout = Layout.from_environment()
prepare(layout)
port = ports()
HERE = Path(__file__).resolve().parent
LOCAL = "127.0.0.1"


def names(variable, default=""):
    return [n.strip() for n in os.environ.get(variable, default).split(",") if n.strip()]


if layout.accounts:
    class_list = json.loads((layout.state / "etc" / "class.json").read_text())
    instructors, students = class_list["instructors"], class_list["students"]
else:
    instructors = names("FANORONA_HUB_INSTRUCTORS", "teacher")
    students = names("FANORONA_HUB_USERS")
# The trial runs every server as the hub's own user, root in a container; a real class never.
as_root = ["--allow-root"] if os.geteuid() == 0 and not layout.accounts else []

# The hub, its proxy (configurable-http-proxy from npm, in hub/node_modules) and its database.
scheme = "https" if os.environ.get("FANORONA_HUB_SSL_CERT") else "http"
c.JupyterHub.bind_url = f"{scheme}://{os.environ.get('FANORONA_HUB_IP', LOCAL)}:{port['port']}"
if scheme == "https":
    c.JupyterHub.ssl_cert = os.environ["FANORONA_HUB_SSL_CERT"]
    c.JupyterHub.ssl_key = os.environ["FANORONA_HUB_SSL_KEY"]
c.JupyterHub.hub_bind_url = f"http://{LOCAL}:{port['hub_port']}"
c.ConfigurableHTTPProxy.api_url = f"http://{LOCAL}:{port['proxy_api_port']}"
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(layout.private / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{layout.private / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(layout.private / "cookie_secret")
c.JupyterHub.pid_file = str(layout.private / "jupyterhub.pid")

if layout.accounts:
    # A real class: the system's passwords unless another authenticator is named.
    c.JupyterHub.authenticator_class = os.environ.get("FANORONA_HUB_AUTHENTICATOR", "pam")
else:
    # The trial authenticator: any allowed name with the shared password.
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ.get("FANORONA_HUB_PASSWORD", "fanorona")
c.Authenticator.allowed_users = set(instructors + students)
c.Authenticator.allow_existing_users = True  # users the course-admin makes through the API
c.Authenticator.admin_users = set(instructors)

# A home per user under the state folder, the kit's Python, kernels over IPC (TCP kernels of
# simultaneous starts clashed on ports), long timeouts (30 servers start in about two minutes
# on two cores), the memory limit enforced by the spawner.
if layout.accounts:
    c.JupyterHub.spawner_class = "hub.spawner.ClassSpawner"
else:
    c.JupyterHub.spawner_class = "hub.spawner.CourseSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(layout.homes / "{username}")
    c.CourseSpawner.runtime_root = str(layout.runtime)
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.args = ["--KernelManager.transport=ipc", *as_root]
c.Spawner.ip = LOCAL
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 600
c.Spawner.http_timeout = 300
c.Spawner.mem_limit = os.environ.get("FANORONA_HUB_MEM_LIMIT", "2G")
c.Spawner.environment = {
    "JUPYTER_CONFIG_PATH": str(layout.student_config),
    "PATH": os.pathsep.join([str(BIN), os.environ.get("PATH", "")]),
}
c.JupyterHub.concurrent_spawn_limit = 40


def default_url(handler):
    """Instructors go to the course's grader server; they need no server of their own."""
    user = handler.current_user
    if user is not None and user.name in instructors:
        return f"/services/{COURSE}/lab"
    return ""  # JupyterHub's own: the user's server


c.JupyterHub.default_url = default_url

# nbgrader for one class with several graders: the instructors' group reaches the course's
# formgrader (a singleuser server run by the hub as the service named after the course), the
# students' group sees the course.
c.JupyterHub.load_groups = {
    INSTRUCTORS: {"users": instructors},
    STUDENTS: {"users": students},
}
grader_env = user_environment(layout, GRADER)
grader_service = {"user": GRADER} if layout.accounts else {}
services = [
    {
        **grader_service,
        "name": COURSE,
        "url": f"http://{LOCAL}:{port['grader_port']}",
        "command": [
            str(BIN / "jupyterhub-singleuser"),
            "--KernelManager.transport=ipc",
            f"--ServerApp.root_dir={layout.home(GRADER)}",
            *as_root,
        ],
        "cwd": str(layout.home(GRADER)),
        "environment": {
            "JUPYTERHUB_DEFAULT_URL": "/lab",
            **{
                k: grader_env[k]
                for k in (
                    "USER",
                    "LOGNAME",
                    "HOME",
                    "JUPYTER_CONFIG_PATH",
                    "JUPYTER_RUNTIME_DIR",
                    "PATH",
                )
                if k in grader_env
            },
        },
        "oauth_no_confirm": True,
        "timeout": 300,  # the hub waits for it before it answers; slow on a busy machine
    },
    {
        # Idle servers stopped after an hour (a student who left the tab open frees memory).
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={os.environ.get('FANORONA_HUB_CULL_TIMEOUT', '3600')}",
        ],
    },
]
roles = [
    {
        "name": INSTRUCTORS,
        "groups": [INSTRUCTORS],
        "scopes": [
            f"access:services!service={COURSE}",
            "list:services",
            f"read:services!service={COURSE}",
        ],
    },
    {
        "name": STUDENTS,
        "groups": [STUDENTS],
        "scopes": ["list:services", f"read:services!service={COURSE}"],
    },
    {
        "name": "idle-culler",
        "services": ["idle-culler"],
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    },
]
admin_token = os.environ.get("FANORONA_HUB_ADMIN_TOKEN")
if admin_token:
    # The course's own scripts (make hub's demo class, the tests): users, groups, servers.
    services.append({"name": "course-admin", "api_token": admin_token})
    roles.append(
        {
            "name": "course-admin",
            "services": ["course-admin"],
            "scopes": ["admin:users", "admin:groups", "admin:servers", "tokens", "list:services"],
        }
    )
if os.environ.get("FANORONA_HUB_LOBBY") == "1":
    # The class lobby (fanorona.lobby) behind the hub's login: HubOAuth gives it the player.
    services.append(
        {
            "name": "lobby",
            "url": f"http://{LOCAL}:{int(os.environ.get('FANORONA_HUB_LOBBY_PORT', '8003'))}",
            "command": [sys.executable, "-m", "fanorona.lobby", "hub"],
            # its games and ratings in the hub's private state, not the folder the hub started in;
            # the course's instructors (not only the hub's admins) may end games
            "environment": {
                "FANORONA_LOBBY_DB": str(layout.private / "lobby.sqlite"),
                "FANORONA_LOBBY_INSTRUCTOR_GROUP": INSTRUCTORS,
            },
            "oauth_no_confirm": True,
        }
    )
    for role in roles[:2]:
        role["scopes"].append("access:services!service=lobby")
    # A notebook signs in to the lobby with its own JUPYTERHUB_API_TOKEN, which the lobby accepts
    # only with the lobby's own scope: the server's token asks for it beside its defaults.
    c.Spawner.server_token_scopes = [
        "access:servers!server",
        "users:activity!user",
        "access:services!service=lobby",
    ]
c.JupyterHub.services = services
c.JupyterHub.load_roles = roles
if os.environ.get("FANORONA_HUB_EXTRA_CONFIG"):
    load_subconfig(os.environ["FANORONA_HUB_EXTRA_CONFIG"])  # noqa: F821  (JupyterHub's loader)
