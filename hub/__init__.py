"""A course hub: one Fanorona course on one JupyterHub server, with nbgrader's exchange.

``jupyterhub_config.py`` is the hub's configuration; ``course`` lays out its folders (homes, the
exchange, the instructors' course folder) and runs nbgrader as a hub user; ``api`` talks to the
hub's REST API; ``python -m hub`` (``make hub``) starts it with a few demo students.
"""
