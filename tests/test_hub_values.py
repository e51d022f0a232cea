"""The Zero to JupyterHub values file (hub/values.yaml) says the same as the course hub's
configuration: it was never deployed here, so what can be checked is that the two agree."""

import pytest
import yaml
from traitlets.config import Config

from hub.course import COURSE, INSTRUCTORS, STUDENTS
from hub.running import CONFIG

VALUES = CONFIG.parent / "values.yaml"


@pytest.fixture(scope="module")
def config(tmp_path_factory, monkeypatch_module):
    monkeypatch_module.setenv("FANORONA_HUB_STATE", str(tmp_path_factory.mktemp("state")))
    c = Config()
    exec(
        compile(CONFIG.read_text(), str(CONFIG), "exec"),
        {"get_config": lambda: c, "__file__": str(CONFIG)},
    )
    return c


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def values():
    return yaml.safe_load(VALUES.read_text())


def test_the_groups_and_their_roles_agree(config, values):
    roles = {role["name"]: role for role in config.JupyterHub.load_roles}
    for group in (INSTRUCTORS, STUDENTS):
        assert values["hub"]["loadRoles"][group]["groups"] == [group]
        assert values["hub"]["loadRoles"][group]["scopes"] == roles[group]["scopes"]
        assert group in values["hub"]["loadGroups"] and group in config.JupyterHub.load_groups


def test_the_formgrader_service_is_named_after_the_course(config, values):
    assert COURSE in {service["name"] for service in config.JupyterHub.services}
    assert COURSE in values["hub"]["services"]
    settings = values["singleuser"]["extraFiles"]["nbgrader-config"]["stringData"]
    assert f'course_id = "{COURSE}"' in settings


def test_the_limits_and_the_culler_agree(config, values):
    assert values["singleuser"]["memory"]["limit"] == config.Spawner.mem_limit
    assert values["singleuser"]["startTimeout"] == config.Spawner.start_timeout
    culler = next(s for s in config.JupyterHub.services if s["name"] == "idle-culler")
    assert f"--timeout={values['cull']['timeout']}" in culler["command"]
