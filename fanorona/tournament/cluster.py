"""The Dask side of a night: a local cluster that opens no HTTP server at all when asked for no
dashboard (Dask's own servers always listen for one), and the checks that turn a bad
``--scheduler`` address into one sentence at once instead of a traceback or a 30 s wait."""

from __future__ import annotations

import logging
import socket
from urllib.parse import urlsplit

from .._extras import require

require("tournament", "Tournament night", "dask", "distributed", "tornado")

import dask  # noqa: E402
from distributed import Nanny, Scheduler, SpecCluster, Worker  # noqa: E402
from distributed.http.routing import RoutingApplication  # noqa: E402
from tornado.httpserver import HTTPServer  # noqa: E402

CONNECT_SECONDS = 3.0  # to find out whether anything listens at a scheduler's address


class _WithoutHTTP:
    """A Dask server whose HTTP application is made but never listens."""

    def start_http_server(self, routes, dashboard_address, default_port=0, ssl_options=None):
        self.http_application = RoutingApplication(routes)
        self.http_server = HTTPServer(self.http_application)


class SchedulerWithoutHTTP(_WithoutHTTP, Scheduler):
    """The scheduler of ``--no-dashboard``."""


class WorkerWithoutHTTP(_WithoutHTTP, Worker):
    """A worker of ``--no-dashboard`` (made by name in the nanny's process)."""


def cluster_without_http(workers: int) -> SpecCluster:
    """``workers`` one-thread worker processes and their scheduler on 127.0.0.1, no HTTP."""
    where = {"host": "127.0.0.1", "dashboard": False, "dashboard_address": None}
    return SpecCluster(
        silence_logs=logging.WARNING,
        scheduler={"cls": SchedulerWithoutHTTP, "options": {**where, "port": 0}},
        workers={
            i: {
                "cls": Nanny,
                "options": {
                    **where,
                    "nthreads": 1,
                    "worker_class": WorkerWithoutHTTP,
                    "silence_logs": logging.WARNING,
                },
            }
            for i in range(workers)
        },
    )


def check_scheduler(address: str) -> None:
    """A ``ValueError`` naming what is wrong with a scheduler's address, before Dask tries it."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if not parts.hostname or port is None or not 0 < port < 65536:
        raise ValueError(
            f"--scheduler {address}: an address is PROTOCOL://HOST:PORT with a port from 1 to"
            " 65535, like tcp://127.0.0.1:8786"
        )
    if parts.scheme == "tls" and not (
        dask.config.get("distributed.comm.tls.ca-file", None)
        and dask.config.get("distributed.comm.tls.client.cert", None)
    ):
        raise ValueError(
            f"--scheduler {address}: a tls:// address needs Dask's TLS settings"
            " (distributed.comm.tls.ca-file and distributed.comm.tls.client.cert, .key in"
            " ~/.config/dask/distributed.yaml); none are set"
        )
    try:
        socket.create_connection((parts.hostname, port), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        raise ValueError(
            f"--scheduler {address}: nothing answers there ({e.strerror or type(e).__name__})"
        ) from None
