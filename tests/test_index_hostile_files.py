"""Hostile chunk exports (issue 37): Parquet that unpacks to gigabytes, exports past the chunk
limit, JSON nested too deep, lone surrogates, vectors that underflow, text past the corpus
limits, records without text, other encodings, damaged rows. Each gives one sentence (or a
correct result) without reading the file whole."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ragviz.cli.command import main
from ragviz.errors import IndexInputError
from ragviz.i18n import render
from ragviz.index import open_index
from ragviz.index.base import MAX_CHUNK_CHARS, MAX_INDEX_CHARS, as_vector
from ragviz.index.jsonl import JsonlReader
from ragviz.index.table import TableReader

# A reader run in a child process may grow this much past the child's size before reading
# (a bound on hostile input, not a timing): the goal is 500 MB above idle.
MEMORY_BOUND_MB = 500
_CHILD = """
import resource, sys
from ragviz.index import open_index
from ragviz.errors import IndexInputError
import pyarrow.parquet, pandas  # what the readers import, loaded before the baseline
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    open_index(sys.argv[1]).read()
    said = "read"
except IndexInputError as error:
    said = str(error)
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024
print(grown)
print(said)
"""


def read_in_child(path: Path) -> tuple[int, str]:
    """(MB the child grew while reading ``path``, what it said)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                          text=True, check=True, timeout=600)
    grown, said = done.stdout.split("\n", 1)
    return int(grown), said.strip()


def dictionary_bomb(path: Path, rows: int = 1_000, chars: int = 1_000_000) -> Path:
    """The issue's 513-byte file: ``rows`` rows of one dictionary-encoded string, zstd."""
    texts = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()),
                                           pa.array(["x" * chars]))
    pq.write_table(pa.table({"text": texts}), path, compression="zstd")
    return path


def sentences(path: Path, **options: object) -> list[str]:
    """What reading ``path`` says: the problems of a load, or the one refusal."""
    reader = (TableReader if path.suffix in (".csv", ".parquet") else JsonlReader)(
        str(path), **options)  # type: ignore[arg-type]
    try:
        loaded = reader.read()
    except IndexInputError as error:
        return [str(error)]
    return [render(p, "en") for p in loaded.problems]


def jsonl(path: Path, lines: list[str | bytes]) -> Path:
    path.write_bytes(b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n"
                              for line in lines))
    return path


# --- 1. Parquet that unpacks to gigabytes --------------------------------------------------


def test_dictionary_bomb_refused_in_one_sentence_within_the_memory_bound(
        tmp_path: Path) -> None:
    bomb = dictionary_bomb(tmp_path / "bomb.parquet")
    assert bomb.stat().st_size < 1_000
    grown, said = read_in_child(bomb)
    assert said == ("bomb.parquet row 1 holds a chunk of 1,000,000 characters; ragviz reads "
                    "chunks of at most 200,000: split it before exporting.")
    assert grown < MEMORY_BOUND_MB


def test_dictionary_bomb_of_chunks_under_the_chunk_limit_stops_at_the_text_limit(
        tmp_path: Path) -> None:
    bomb = dictionary_bomb(tmp_path / "many.parquet", rows=20_000, chars=150_000)
    grown, said = read_in_child(bomb)
    assert said.startswith("The chunk texts of many.parquet pass 10,000,000 characters")
    assert grown < MEMORY_BOUND_MB


def test_plain_encoded_bomb_refused_on_its_footer(tmp_path: Path) -> None:
    path = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"text": pa.array(["y" * 1_000_000] * 100)}), path,
                   compression="zstd", use_dictionary=False)
    assert path.stat().st_size < 100_000
    grown, said = read_in_child(path)
    assert said.startswith("plain.parquet unpacks to more text or vectors than ragviz reads")
    assert grown < MEMORY_BOUND_MB


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        part, n = n & 0x7F, n >> 7
        out.append(part | (0x80 if n else 0))
        if not n:
            return bytes(out)


def lying_footer(path: Path, groups: int = 4, rows: int = 40, chars: int = 1_000_000) -> Path:
    """Row groups of ``rows`` texts of ``chars`` characters (zstd: a few KB), whose footer
    then says each column and row group unpacks to 2,000 bytes: each size's varint is
    rewritten in place, the same number of bytes spelling 2,000 (issue 42, item 17)."""
    table = pa.table({"text": pa.array(["y" * chars] * rows)})
    with pq.ParquetWriter(path, table.schema, compression="zstd", use_dictionary=False) as out:
        for _ in range(groups):
            out.write_table(table)
    meta = pq.ParquetFile(path).metadata
    sizes = {meta.row_group(g).column(0).total_uncompressed_size for g in range(groups)}
    sizes |= {meta.row_group(g).total_byte_size for g in range(groups)}
    data = bytearray(path.read_bytes())
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    footer = bytes(data[start:-8])
    for size in sizes:
        old = _varint(size << 1)  # Thrift's compact i64: zigzag, then varint
        small = bytes(((4_000 >> 7 * i) & 0x7F) | (0x80 if i < len(old) - 1 else 0)
                      for i in range(len(old)))
        footer = footer.replace(old, small)
    data[start:-8] = footer
    path.write_bytes(bytes(data))
    return path


def test_pages_that_unpack_past_what_the_footer_says_are_refused_unread(
        tmp_path: Path) -> None:
    path = lying_footer(tmp_path / "lying.parquet")
    footer = pq.ParquetFile(path).metadata.row_group(0)
    assert footer.column(0).total_uncompressed_size == 2_000 == footer.total_byte_size
    grown, said = read_in_child(path)
    assert said.startswith("lying.parquet unpacks to more text or vectors than ragviz reads")
    assert grown < MEMORY_BOUND_MB


def test_page_headers_with_long_statistics_are_read_whole(tmp_path: Path) -> None:
    """A page header holding 10,000-character min/max values (past the first window the
    header is read in) still gives the page's size, and the file reads."""
    from ragviz.index.parquet_pages import column_unpacked_bytes

    path = tmp_path / "long.parquet"
    pq.write_table(pa.table({"text": ["a" * 10_000 + str(i) for i in range(50)]}), path,
                   use_dictionary=False)
    column = pq.ParquetFile(path).metadata.row_group(0).column(0)
    with path.open("rb") as source:
        total, _ = column_unpacked_bytes(source, column.data_page_offset,
                                         column.total_compressed_size, [10])
    assert 0 < total <= column.total_uncompressed_size
    assert sentences(path) == []


def test_vectors_that_unpack_to_gigabytes_refused_on_the_footer(tmp_path: Path) -> None:
    """150 rows of a million zeros each (600 MB as float32) in a few kilobytes."""
    dimension, rows = 1_000_000, 150
    values = pa.array(np.zeros(rows * dimension, dtype=np.float32))
    offsets = pa.array(np.arange(0, rows * dimension + 1, dimension, dtype=np.int32))
    path = tmp_path / "vectors.parquet"
    pq.write_table(pa.table({"text": ["a"] * rows,
                             "vector": pa.ListArray.from_arrays(offsets, values)}),
                   path, compression="zstd")
    assert path.stat().st_size < 100_000
    grown, said = read_in_child(path)
    assert said.startswith("vectors.parquet unpacks to more text or vectors than ragviz reads")
    assert grown < MEMORY_BOUND_MB


def test_millions_of_rows_refused_on_the_footer_not_decoded(tmp_path: Path) -> None:
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"text": pa.array(["a"] * 1_000_000)}), path, compression="zstd")
    counted: list[int] = []
    said = sentences(path, max_chunks=1_000, progress=counted.append)
    assert said == ["rows.parquet holds more than 1,000 chunks, the most ragviz reads from one "
                    "file: keep fewer chunks in the export, or load them into a Chroma index "
                    "and use ragviz eval --index-mode database."]
    assert counted == []  # refused before a row was decoded


def test_parquet_text_column_of_numbers_or_bytes_is_named(tmp_path: Path) -> None:
    pq.write_table(pa.table({"text": [1, 2]}), tmp_path / "ints.parquet")
    pq.write_table(pa.table({"text": [b"a", b"b"]}), tmp_path / "bytes.parquet")
    assert sentences(tmp_path / "ints.parquet") == [
        "The column text of ints.parquet holds int64, not text: export the chunks' texts as "
        "strings."]
    assert "holds binary, not text" in sentences(tmp_path / "bytes.parquet")[0]


def test_parquet_with_a_column_twice_is_one_sentence(tmp_path: Path) -> None:
    table = pa.Table.from_arrays([pa.array(["a"]), pa.array(["b"])], names=["text", "text"])
    pq.write_table(table, tmp_path / "dup.parquet")
    assert sentences(tmp_path / "dup.parquet") == [
        "dup.parquet has two columns named text: keep one and export it again."]


def test_damaged_parquet_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"text": ["a" * 100] * 100}), path)
    data = bytearray(path.read_bytes())
    data[8:60] = b"\xff" * 52
    path.write_bytes(bytes(data))
    assert sentences(path) == ["bad.parquet cannot be read as Parquet (the file is damaged or "
                               "not Parquet): export it again."]


# --- 2. stop at the chunk limit, with progress ----------------------------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_an_export_past_the_limit_stops_reading_at_it(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"big{suffix}"
    texts = [f"chunk {i}" for i in range(50_000)]
    if suffix == ".jsonl":
        jsonl(path, [json.dumps({"text": t}) for t in texts])
    elif suffix == ".csv":
        path.write_text("text\n" + "\n".join(texts) + "\n", encoding="utf-8")
    else:
        pq.write_table(pa.table({"text": texts}), path, row_group_size=1_000)
    counted: list[int] = []
    said = sentences(path, max_chunks=1_000, progress=counted.append)
    assert said[0].startswith(f"big{suffix} holds more than 1,000 chunks")
    if suffix != ".parquet":  # (Parquet is refused on its footer's row count)
        assert max(counted, default=0) <= 2_000 < 50_000


def test_progress_counts_the_records_read(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "p.jsonl", [json.dumps({"text": f"c{i}"}) for i in range(25_000)])
    counted: list[int] = []
    loaded = JsonlReader(str(path), max_chunks=30_000, progress=counted.append).read()
    assert len(loaded.chunks) == 25_000
    assert counted == [10_000, 20_000, 25_000]


def test_the_cli_limit_reaches_the_file_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "100")
    path = jsonl(tmp_path / "big.jsonl", [json.dumps({"text": f"c{i}"}) for i in range(500)])
    assert main(["index", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "big.jsonl holds more than 100 chunks" in err


# --- 3. JSON nested too deep, lone surrogates ---------------------------------------------


def test_json_nested_ten_thousand_deep_is_a_line_left_out(tmp_path: Path) -> None:
    deep = "[" * 10_000 + "]" * 10_000
    path = jsonl(tmp_path / "d.jsonl", ['{"text": "a"}', f'{{"text": "b", "embedding": {deep}}}'])
    assert sentences(path) == ["d.jsonl line 2 nests lists or objects too deep to read; write "
                               "that record flat; it was left out"]
    csv_path = tmp_path / "d.csv"
    csv_path.write_text(f'text,vector\na,[1.0]\nb,"{deep}"\n', encoding="utf-8")
    assert sentences(csv_path) == ["d.csv row 2 nests lists or objects too deep to read; write "
                                   "that record flat; it was left out"]


def test_numbers_of_thousands_of_digits_are_records_left_out(tmp_path: Path) -> None:
    digits = "9" * 5_000
    line = f'{{"text": "b", "metadata": {{"start_index": {digits}}}}}'
    path = jsonl(tmp_path / "n.jsonl", ['{"text": "a"}', line])
    assert sentences(path) == ["n.jsonl line 2 holds a number of thousands of digits, which is "
                               "no vector value or offset; it was left out"]
    table = tmp_path / "n.csv"
    table.write_text(f'text,vector\na,"[1]"\nb,"[{digits}]"\n', encoding="utf-8")
    assert sentences(table) == ["n.csv row 2 holds a number of thousands of digits, which is "
                                "no vector value or offset; it was left out"]


def test_a_csv_with_lone_cr_line_ends_is_read(tmp_path: Path) -> None:
    """Old Mac line ends, as pandas read them before the CSV was streamed."""
    path = tmp_path / "cr.csv"
    path.write_bytes(b'text,source\rone,a\r"two\rlines",b\r')
    chunks = open_index(str(path)).read().chunks
    assert [(c.text, c.source) for c in chunks] == [("one", "a"), ("two\rlines", "b")]


def test_a_quote_never_closed_in_a_big_csv_is_one_sentence(tmp_path: Path) -> None:
    """The quoted field runs to the end of 17 MB: refused past one record's limit."""
    path = tmp_path / "q.csv"
    path.write_bytes(b'text\n"open\n' + (b"x" * 999 + b"\n") * 17_000)
    assert sentences(path) == ["q.csv breaks the CSV format near line 2: export it again as "
                               "CSV (comma-separated, quotes closed, lines ending in LF or "
                               "CRLF)."]


def test_lone_surrogate_is_a_record_left_out_named(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = jsonl(tmp_path / "s.jsonl", ['{"text": "a"}', '{"text": "bad \\ud800 text"}'])
    (said,) = sentences(path)
    assert said.startswith("s.jsonl line 2 holds a lone surrogate")
    assert main(["index", str(path), "--json"]) == 0  # printed without UnicodeEncodeError
    assert json.loads(capsys.readouterr().out)["collections"][0]["count"] == 1


# --- 8, 18. vectors that underflow, overflow or hold no direction ----------------------------


def test_vectors_normalised_in_float64_keep_their_direction_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tiny = as_vector([1e-45] * 512, "tiny")
        huge = as_vector([1e38] * 512, "huge")
        mixed = as_vector([3e-45, 4e-45], "mixed")
    for vector in (tiny, huge):
        assert vector is not None and np.all(np.isfinite(vector))
        assert np.allclose(vector, 1 / np.sqrt(512))
    assert mixed is not None and np.allclose(mixed, [0.6, 0.8])
    with pytest.raises(IndexInputError, match="all zeros"):
        as_vector([0.0] * 4, "zero")
    with pytest.raises(IndexInputError, match="NaN or infinite"):
        as_vector([float("inf"), 1.0], "inf")


def test_a_vector_of_a_million_values_is_a_record_left_out(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "w.jsonl", ['{"text": "a", "embedding": [1.0, 0.0]}',
                                        json.dumps({"text": "b", "embedding": [0.5] * 1_000_000})])
    assert sentences(path) == ["w.jsonl line 2: the vector has 1,000,000 values; ragviz reads "
                               "vectors of at most 16,384; it was left out"]


def test_an_underflowing_vector_is_scored_not_nan(tmp_path: Path) -> None:
    from ragviz.evaluation.index_analysis import stored_matrix

    path = jsonl(tmp_path / "u.jsonl", [json.dumps({"text": "a", "embedding": [1e-45] * 8}),
                                        json.dumps({"text": "b", "embedding": [1.0] + [0.0] * 7})])
    matrix = stored_matrix(open_index(str(path)).read())
    assert matrix is not None and np.all(np.isfinite(matrix))
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0)


# --- 12. the corpus limits on index text ----------------------------------------------------


def test_one_chunk_past_the_chunk_limit_is_refused(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "long.jsonl", ['{"text": "a"}',
                                           json.dumps({"text": "x" * (MAX_CHUNK_CHARS + 1)})])
    assert sentences(path) == ["long.jsonl line 2 holds a chunk of 200,001 characters; ragviz "
                               "reads chunks of at most 200,000: split it before exporting."]


def test_texts_past_the_index_limit_are_refused(tmp_path: Path) -> None:
    chunk = "y" * MAX_CHUNK_CHARS
    count = MAX_INDEX_CHARS // MAX_CHUNK_CHARS + 1
    path = tmp_path / "many.csv"
    path.write_text("text\n" + "\n".join([chunk] * count) + "\n", encoding="utf-8")
    assert sentences(path) == ["The chunk texts of many.csv pass 10,000,000 characters, the "
                               "most ragviz embeds from one index: export fewer or shorter "
                               "chunks."]


# --- 13. records without text ---------------------------------------------------------------


def test_records_without_text_are_counted(tmp_path: Path) -> None:
    lines = [json.dumps({"text": f"c{i}"} if i % 2 else {"embedding": [1.0, 0.0]})
             for i in range(19)]
    assert sentences(jsonl(tmp_path / "n.jsonl", lines)) == [
        "10 of 19 records of n.jsonl have no text and were left out; export each chunk's "
        "text with its vector."]
    only = jsonl(tmp_path / "v.jsonl", [json.dumps({"embedding": [1.0, 0.0]})] * 3)
    assert sentences(only) == ["None of the 3 records of v.jsonl has a text (page_content, "
                               "text or document): export the chunks' texts with their "
                               "vectors."]


# --- 17, 26. our own sentences, one rule for damaged records ---------------------------------


def test_a_row_with_extra_cells_is_our_sentence_not_the_parser_s(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("text,source\na,s\nb," + ",".join(["z"] * 514) + "\n", encoding="utf-8")
    assert sentences(path) == ["x.csv row 2 has 515 cells where the header has 2; it was "
                               "left out"]


def test_latin1_and_utf16_files_say_to_save_as_utf8(tmp_path: Path) -> None:
    latin = tmp_path / "l.csv"
    latin.write_bytes("text\nPolítica\nprazo\n".encode("latin-1"))
    assert sentences(latin) == ["l.csv row 1 is not UTF-8 text; save the file as UTF-8; it "
                                "was left out"]
    wide = tmp_path / "w.jsonl"
    wide.write_bytes('{"text": "a"}\n'.encode("utf-16"))
    assert sentences(wide) == ["w.jsonl is not UTF-8 text (it looks like UTF-16 or UTF-32): "
                               "save it as UTF-8 and load it again."]


def test_one_rule_for_damaged_records_in_jsonl_and_csv(tmp_path: Path) -> None:
    """A line that is not UTF-8 and a cell whose vector is broken are each left out, counted,
    the first named; the other records load."""
    path = jsonl(tmp_path / "b.jsonl", ['{"text": "a"}', b'{"text": "caf\xe9"}',
                                        b'{"text": "\xff"}', '{"text": "b"}'])
    loaded = open_index(str(path)).read()
    assert [c.text for c in loaded.chunks] == ["a", "b"]
    assert [render(p, "en") for p in loaded.problems] == [
        "b.jsonl line 2 is not UTF-8 text; save the file as UTF-8; 2 records could not be "
        "read and were left out (this is the first)"]
    table = tmp_path / "b.csv"
    table.write_text('text,vector\na,"[1, 0]"\nb,"[NaN, 1]"\nc,"[0, 1]"\n', encoding="utf-8")
    loaded = open_index(str(table)).read()
    assert [c.text for c in loaded.chunks] == ["a", "c"]
    assert [render(p, "pt") for p in loaded.problems] == [
        "b.csv linha 2: o vetor guardado contém valores NaN ou infinitos; refaça o vetor "
        "desse chunk; ficou de fora"]


def test_cli_refuses_the_bomb_in_one_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bomb = dictionary_bomb(tmp_path / "bomb.parquet")
    assert main(["index", str(bomb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a chunk of 1,000,000 characters" in err


def test_reading_a_csv_export_leaves_csvs_field_limit_as_it_was(tmp_path: Path) -> None:
    """csv.field_size_limit is process-wide: the export's reader raised it for good, and a
    questions file read later in the same process said another sentence for an open quote."""
    import csv

    from ragviz.index.open import open_index

    before = csv.field_size_limit()
    export = tmp_path / "export.csv"
    export.write_text("text,vector\nRefunds take ten days.,\"[0.6, 0.8]\"\n", encoding="utf-8")
    open_index(str(export)).read()
    assert csv.field_size_limit() == before

