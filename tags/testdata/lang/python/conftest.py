import pytest
from pytest import fixture

__all__ = ["workdir", "Settings"]


class Settings:
    pass


@pytest.fixture
def workdir(tmp_path):
    return tmp_path


@fixture(scope="session")
def settings(request):
    return Settings()


def helper(name, value):
    return name


def test_reads(workdir, settings):
    helper(workdir, settings)


class TestGroup:
    @pytest.fixture
    def local(self):
        return 1

    def test_local(self, local):
        pass


@pytest.fixture
def configured(settings, key: str, workdir, mode="r"):
    return settings
