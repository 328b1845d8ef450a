"""DATABASE_URL in libpq's multi-host form (core.dburl): a primary and its standby, each with its
port, handed to libpq as lists; a one-host URL is dj-database-url's as before."""

from __future__ import annotations

import dj_database_url
import pytest

from brag_event.core.dburl import MULTI_HOST_CONNECT_TIMEOUT, database_config


def test_two_hosts_with_ports_become_libpqs_lists() -> None:
    config = database_config(
        "postgres://brag:s%40cret@db-a:5432,db-b:6543/brag?target_session_attrs=read-write",
        conn_max_age=60,
    )
    assert config["HOST"] == "db-a,db-b"
    assert config["PORT"] == "5432,6543"
    assert (config["USER"], config["PASSWORD"], config["NAME"]) == ("brag", "s@cret", "brag")
    assert config["OPTIONS"] == {
        "target_session_attrs": "read-write",
        "connect_timeout": MULTI_HOST_CONNECT_TIMEOUT,
    }
    assert config["CONN_MAX_AGE"] == 60


def test_a_missing_port_is_postgresqls_and_ipv6_is_read() -> None:
    config = database_config("postgresql://u@[::1]:5433,db-b/brag?connect_timeout=9")
    assert (config["HOST"], config["PORT"]) == ("::1,db-b", "5433,5432")
    assert config["OPTIONS"]["connect_timeout"] == 9  # the URL's own wins


def test_one_host_is_exactly_dj_database_urls() -> None:
    for url in ("postgres://u:p@db:5432/brag", "sqlite:///tmp/x.sqlite3"):
        assert database_config(url, conn_max_age=60) == dj_database_url.parse(url, conn_max_age=60)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("postgres://u@db-a:5432,:5433/brag", "empty host"),
        ("postgres://u@db-a:5432,db-b:x/brag", "not a number"),
    ],
)
def test_a_broken_host_list_is_refused_in_words(url: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        database_config(url)
