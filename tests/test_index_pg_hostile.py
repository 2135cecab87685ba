"""Postgres connection strings and rows from someone else (issue 42, items 4, 10, 13): every
host of a multi-host list, each hostaddr, a service or a server's file are checked before
anything is contacted; a password is never said, even where libpq's parse error quotes it;
a row past the chunk limit is refused by the database's own count before it is fetched."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragviz.errors import IndexInputError
from ragviz.index.pg_conninfo import parse, redact, targets
from ragviz_app.index_source import INDEX_HOSTS_ENV, server_reader
from tests.index_fixtures import QUESTIONS
from tests.pg_fixtures import new_database, postgres
from tests.test_index import fails

SECRET = "S3cretPW"
LEAKY = [  # each is refused by libpq's parser, whose message quotes the password
    f"postgresql://postgres:{SECRET}%ZZ@127.0.0.1:1/db",
    f"postgresql://postgres:{SECRET} x@127.0.0.1:1/db",
    f"postgresql://postgres@127.0.0.1:1/db?password={SECRET}%ZZ",
    f"postgresql://postgres@127.0.0.1:1/db?sslmode=bogus&password={SECRET}",
    f"host=127.0.0.1 port=1 password={SECRET}",  # a keyword string: not even a URI
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from postgres()


@pytest.fixture(scope="module")
def database(server: str) -> str:
    """Three tables of 3-value vectors: one fine, one with a 200,001-character chunk, one
    with 50 MB of metadata (made in the database: nothing that large crosses the wire)."""
    import psycopg

    uri = new_database(server, "hostile")
    with psycopg.connect(uri, autocommit=True) as conn:
        for table in ("fine", "long", "fat"):
            conn.execute(f"CREATE TABLE {table} (id text, text text, metadata text, "
                         "embedding vector(3))")
            conn.execute(f"INSERT INTO {table} VALUES ('a', 'Refunds take 7 days.', '{{}}', "
                         "'[1,0,0]')")
        conn.execute("INSERT INTO long VALUES ('b', repeat('x', 200001), '{}', '[0,1,0]')")
        conn.execute("INSERT INTO fat VALUES ('c', 'short', '{\"k\": \"' || "
                     "repeat('y', 50000000) || '\"}', '[0,1,0]')")
    return uri


@pytest.mark.parametrize("spec", LEAKY)
def test_a_password_is_never_said_even_by_a_parse_error(
        capsys: pytest.CaptureFixture[str], spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    err = fails(capsys, "index", spec)
    assert SECRET not in err and "ZZ" not in err
    monkeypatch.setenv(INDEX_HOSTS_ENV, "postgresql://127.0.0.1")
    if spec.startswith("postgresql://"):  # the app's server box
        with pytest.raises(IndexInputError) as refused:
            server_reader(spec)
        assert SECRET not in str(refused.value) and "ZZ" not in str(refused.value)


def test_every_secret_is_redacted_in_every_spelling() -> None:
    spec = "postgresql://bob:p%40ss@h/db?sslpassword=k3y&password='q w'"
    said = redact("p@ss p%40ss k3y q w", spec)
    assert "p@ss" not in said and "p%40ss" not in said and "k3y" not in said
    assert "q w" not in said


@pytest.mark.parametrize(("spec", "reached"), [
    ("postgresql://u@127.0.0.1/db?host=127.0.0.1,/tmp/sock", "/tmp/sock:5432"),
    ("postgresql://u@127.0.0.1/db?hostaddr=127.0.0.2", "127.0.0.2:5432"),
    ("postgresql://u:pw@127.0.0.1:5432,127.0.0.2:5432/db", "127.0.0.2:5432"),
    ("postgresql://u@127.0.0.1:5432,127.0.0.1:6000/db", "127.0.0.1:6000"),
])
def test_every_host_of_a_connection_string_is_checked(
        monkeypatch: pytest.MonkeyPatch, spec: str, reached: str) -> None:
    monkeypatch.setenv(INDEX_HOSTS_ENV, "postgresql://127.0.0.1:5432")
    with pytest.raises(IndexInputError) as refused:
        server_reader(spec)
    assert f"{reached} is not one of them" in str(refused.value)
    assert "pw" not in str(refused.value).replace("postgresql", "")


def test_targets_pair_hosts_addresses_and_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("PGHOST", "PGHOSTADDR", "PGPORT"):
        monkeypatch.delenv(variable, raising=False)
    assert targets(parse("host=a,b hostaddr=10.0.0.1,10.0.0.2 port=1,2")) == [
        ("10.0.0.1", 1), ("a", 1), ("10.0.0.2", 2), ("b", 2)]
    assert targets(parse("postgresql:///db")) == [("localhost", 5432)]
    monkeypatch.setenv("PGHOST", "db.internal,10.1.1.1")  # what libpq uses when none is given
    monkeypatch.setenv("PGPORT", "6432")
    assert targets(parse("postgresql:///db")) == [("db.internal", 6432), ("10.1.1.1", 6432)]


@pytest.mark.parametrize("parameter", ["service=prod", "passfile=/etc/passwd",
                                       "sslkey=/root/.ssh/id_rsa"])
def test_a_visitor_names_no_file_or_service_of_the_server(monkeypatch: pytest.MonkeyPatch,
                                                          parameter: str) -> None:
    monkeypatch.setenv(INDEX_HOSTS_ENV, "postgresql://127.0.0.1")
    with pytest.raises(IndexInputError) as refused:
        server_reader(f"postgresql://u@127.0.0.1/db?{parameter}")
    name = parameter.split("=")[0]
    assert str(refused.value).startswith(f"{name}= names a file or a service entry")


def test_the_app_says_a_multi_host_refusal_in_one_sentence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_app import rerun, shown
    from tests.test_app_index import index_app

    monkeypatch.setenv(INDEX_HOSTS_ENV, "postgresql://127.0.0.1:5432")
    at = index_app(None, sources=False)
    at.radio(key="index_from").set_value("server")
    rerun(at)
    at.text_input(key="index_server").set_value(
        "postgresql://u:hunter2@127.0.0.1:5432,10.9.9.9:5432/db")
    rerun(at)
    (error,) = [shown(e.value) for e in at.error]
    assert "10.9.9.9:5432" in error and "hunter2" not in error and not at.exception


@pytest.mark.parametrize("mode", ["memory", "database"])
def test_a_row_past_the_limits_is_refused_before_it_is_fetched(
        capsys: pytest.CaptureFixture[str], database: str, mode: str) -> None:
    long = fails(capsys, "eval", "--index", database, "--table", "long", "--questions",
                 str(QUESTIONS), "--index-mode", mode)
    assert "row b of long holds a chunk of 200,001 characters" in long
    fat = fails(capsys, "index", database, "--table", "fat", "--lang", "pt")
    assert "a linha c de fat contém um trecho de 5 caracteres com 50.000.009 bytes" in fat, fat
    assert "Refunds take 7 days." not in fails(capsys, "index", database, "--table", "long")


def test_a_table_within_the_limits_reads(database: str) -> None:
    from ragviz.index import open_index

    reader = open_index(database, table="fine")
    assert [c.text for c in reader.read("fine").chunks] == ["Refunds take 7 days."]
