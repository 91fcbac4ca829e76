"""One configured database location: an environment variable, else the user's data directory (never ./)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.settings import Settings, create_data_dir, parse_origins, sqlite_path, user_data_dir


def test_default_database_is_in_the_xdg_data_directory() -> None:
    found = Settings.from_env({"XDG_DATA_HOME": "/data/me", "HOME": "/u"})
    assert found.database_url == "sqlite:////data/me/vigueur/vigueur.db"


def test_default_database_falls_back_to_local_share_of_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    assert Settings.from_env({"HOME": "/u"}).database_url == "sqlite:////u/.local/share/vigueur/vigueur.db"


def test_default_database_never_depends_on_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = sqlite_path(Settings.from_env({"HOME": "/u"}).database_url)
    assert path is not None and path.is_absolute() and not str(path).startswith(str(tmp_path))


def test_vigueur_database_url_wins_over_database_url() -> None:
    env = {"VIGUEUR_DATABASE_URL": "sqlite:///a.db", "DATABASE_URL": "postgres://u@h/d", "HOME": "/u"}
    assert Settings.from_env(env).database_url == "sqlite:///a.db"
    assert Settings.from_env({"DATABASE_URL": "postgres://u@h/d"}).database_url == "postgresql+psycopg://u@h/d"


def test_create_data_dir_makes_only_the_default_folder(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    create_data_dir(f"sqlite:///{tmp_path / 'elsewhere' / 'x.db'}", env)
    assert not (tmp_path / "elsewhere").exists()
    create_data_dir(f"sqlite:///{user_data_dir(env) / 'vigueur.db'}", env)
    assert (tmp_path / "xdg" / "vigueur").is_dir()


def test_cors_origins_are_off_by_default_and_listed_by_commas() -> None:
    assert Settings.from_env({"HOME": "/u"}).cors_origins == ()
    assert parse_origins(" https://a.example/ ,https://b.example,, ") == ("https://a.example", "https://b.example")
    assert Settings.from_env({"VIGUEUR_CORS_ORIGINS": "*"}).cors_origins == ("*",)
