"""The index's sentences in both languages (kept beside the index code until the app's
Index source moves them into the shared catalog)."""

from __future__ import annotations

_STRINGS: dict[str, dict[str, str]] = {
    "not_folder": {
        "en": "{path} is not a folder (a Chroma index is a folder holding chroma.sqlite3)",
        "pt": "{path} não é uma pasta (um índice Chroma é uma pasta com chroma.sqlite3)",
    },
    "not_chroma_dir": {
        "en": "{path} is not a Chroma directory: it holds no chroma.sqlite3",
        "pt": "{path} não é um diretório do Chroma: não contém chroma.sqlite3",
    },
    "no_collection": {
        "en": "{where} has no collection {name!r} (collections: {known})",
        "pt": "{where} não tem a coleção {name!r} (coleções: {known})",
    },
    "chroma_unreadable": {
        "en": "{path} cannot be read as a Chroma directory ({reason})",
        "pt": "{path} não pode ser lido como um diretório do Chroma ({reason})",
    },
    "empty_collection": {
        "en": "the collection {name!r} in {where} is empty",
        "pt": "a coleção {name!r} em {where} está vazia",
    },
    "holds_no_collection": {
        "en": "{where} holds no collection",
        "pt": "{where} não contém nenhuma coleção",
    },
    "server_silent": {
        "en": "the Chroma server at {host}:{port} does not answer ({reason}); check the "
              "address and that the server runs",
        "pt": "o servidor Chroma em {host}:{port} não responde ({reason}); confira o endereço "
              "e se o servidor está rodando",
    },
    "broken_line": {
        "en": "{name} line {number} is not valid JSON ({detail})",
        "pt": "a linha {number} de {name} não é JSON válido ({detail})",
    },
    "nan_vector": {
        "en": "{where}: the stored vector holds NaN or infinite values; rebuild that chunk's "
              "vector",
        "pt": "{where}: o vetor guardado contém NaN ou valores infinitos; refaça o vetor "
              "desse trecho",
    },
    "left_out": {
        "en": "{problem}; it was left out",
        "pt": "{problem}; foi deixado de fora",
    },
    "zip_broken": {
        "en": "{name} could not be read: it is not a valid zip archive",
        "pt": "Não foi possível ler {name}: não é um arquivo zip válido",
    },
    "zip_members": {
        "en": "{name} could not be read: it lists {n} entries and the limit is {limit}",
        "pt": "Não foi possível ler {name}: ele lista {n} entradas e o limite é {limit}",
    },
    "zip_unsafe_name": {
        "en": "{name} was refused: its entry {member!r} would land outside its folder",
        "pt": "{name} foi recusado: a entrada {member!r} ficaria fora da pasta dele",
    },
    "zip_not_chroma": {
        "en": "{name} is not a zipped Chroma directory: no folder in it holds chroma.sqlite3",
        "pt": "{name} não é um diretório do Chroma compactado: nenhuma pasta dele contém "
              "chroma.sqlite3",
    },
    "zip_too_big": {
        "en": "{name} could not be read: it expands past {limit} bytes",
        "pt": "Não foi possível ler {name}: descompactado, passa de {limit} bytes",
    },
    # --- the app's Index source ------------------------------------------------------------
    "not_index_file": {
        "en": "{name} is not an index file: upload a .jsonl, .csv or .parquet export, or a "
              "zipped Chroma directory",
        "pt": "{name} não é um arquivo de índice: envie uma exportação .jsonl, .csv ou "
              ".parquet, ou um diretório do Chroma compactado",
    },
    "source_index": {"en": "Index", "pt": "Índice"},
    "upload": {
        "en": "A chunk export (.jsonl, .csv, .parquet) or a zipped Chroma directory",
        "pt": "Uma exportação de chunks (.jsonl, .csv, .parquet) ou um diretório do Chroma "
              "compactado",
    },
    "upload_help": {
        "en": "The chunks exactly as production stored them, with their vectors when the "
              "file has them.",
        "pt": "Os chunks exatamente como a produção os guardou, com os vetores quando o "
              "arquivo os tem.",
    },
    "sources": {
        "en": "The source files the index was built from (optional)",
        "pt": "Os arquivos de origem com que o índice foi construído (opcional)",
    },
    "sources_help": {
        "en": "Places every chunk in its file, finds chunks whose text is no longer there "
              "(stale) and lets B chunk the same files.",
        "pt": "Situa cada chunk no seu arquivo, acha chunks cujo texto não está mais lá "
              "(desatualizados) e deixa B dividir os mesmos arquivos.",
    },
    "from": {"en": "Read the index from", "pt": "Ler o índice de"},
    "from_file": {"en": "a file", "pt": "um arquivo"},
    "from_server": {"en": "a Chroma server", "pt": "um servidor Chroma"},
    "server": {"en": "Chroma server (host:port)", "pt": "Servidor Chroma (host:porta)"},
    "collection": {"en": "Collection", "pt": "Coleção"},
    "collection_row": {
        "en": "{name} ({count} chunks, dimension {dimension})",
        "pt": "{name} ({count} chunks, dimensão {dimension})",
    },
    "upload_wait": {
        "en": "Upload an index file, or pick a Chroma server.",
        "pt": "Envie um arquivo de índice ou escolha um servidor Chroma.",
    },
    "server_wait": {
        "en": "Type the address of a Chroma server, as host:port.",
        "pt": "Digite o endereço de um servidor Chroma, como host:porta.",
    },
    "bad_address": {
        "en": "{address!r} is not a server address: write host:port, e.g. localhost:8000.",
        "pt": "{address!r} não é um endereço de servidor: escreva host:porta, por exemplo "
              "localhost:8000.",
    },
    "host_refused": {
        "en": "This app reaches only the Chroma servers that the environment variable {env} "
              "names (now: {allowed}), so a shared app cannot be used as a way into its "
              "network.",
        "pt": "Este app só acessa os servidores Chroma que a variável de ambiente {env} "
              "nomeia (agora: {allowed}), para que um app compartilhado não sirva de "
              "passagem para a rede dele.",
    },
    "none": {"en": "none", "pt": "nenhum"},
    "too_many": {
        "en": "{name} holds {n} chunks; the app loads at most {limit}: diagnose it with "
              "ragviz eval --index on the command line.",
        "pt": "{name} tem {n} chunks; o app carrega no máximo {limit}: diagnostique-o com "
              "ragviz eval --index na linha de comando.",
    },
    "loaded": {
        "en": "{name}: {n} chunks, {vectors}.",
        "pt": "{name}: {n} chunks, {vectors}.",
    },
    "with_vectors": {"en": "stored vectors of dimension {dimension}",
                     "pt": "vetores guardados de dimensão {dimension}"},
    "without_vectors": {"en": "no stored vectors (the model embeds the chunks)",
                        "pt": "sem vetores guardados (o modelo incorpora os chunks)"},
    "index_config": {"en": "the production index", "pt": "o índice de produção"},
    "side_a": {"en": "A: the production index", "pt": "A: o índice de produção"},
    "side_a_caption": {
        "en": "{name}, {n} chunks as production cut them; B chunks the source files with "
              "any ragviz chunker.",
        "pt": "{name}, {n} chunks como a produção os cortou; B divide os arquivos de origem "
              "com qualquer chunker do ragviz.",
    },
    "b_needs_sources": {
        "en": "Upload the source files the index was built from to compare it with B "
              "(the same files chunked by a ragviz chunker).",
        "pt": "Envie os arquivos de origem com que o índice foi construído para compará-lo "
              "com B (os mesmos arquivos divididos por um chunker do ragviz).",
    },
    "labels_title": {"en": "What only an index has", "pt": "O que só um índice tem"},
    "labels_none": {
        "en": "No stale chunk, no vector mismatch, no duplicate crowding.",
        "pt": "Nenhum chunk desatualizado, nenhum vetor divergente, nenhuma cópia ocupando "
              "o top_k.",
    },
    "no_offsets": {
        "en": "{n} chunks have no place in a source file (no offsets in the metadata and "
              "no source given): they are shown one after another.",
        "pt": "{n} chunks não têm lugar em um arquivo de origem (sem posições nos metadados "
              "e sem a origem): aparecem um depois do outro.",
    },
    "not_shared": {
        "en": "An uploaded index cannot go into a link or a workspace: share the index file "
              "itself with the link (the link keeps the settings only).",
        "pt": "Um índice enviado não cabe em um link nem em um workspace: compartilhe o "
              "próprio arquivo do índice junto com o link (o link guarda só as configurações).",
    },
    "server_not_shared": {
        "en": "An index read from a Chroma server goes into no link or workspace: whoever opens "
              "the link types the server's address and picks the collection again.",
        "pt": "Um índice lido de um servidor Chroma não vai para link nem workspace: quem abrir "
              "o link digita de novo o endereço do servidor e escolhe a coleção.",
    },
    "whatif": {"en": "What if: the production index (A) against B",
               "pt": "E se: o índice de produção (A) contra B"},
    "whatif_caption": {
        "en": "Same questions, same model: A is the index as production built it, B the "
              "source files chunked by {config}.",
        "pt": "Mesmas perguntas, mesmo modelo: A é o índice como a produção o construiu, B "
              "os arquivos de origem divididos por {config}.",
    },
    "sizes": {"en": "Chunk sizes (characters)", "pt": "Tamanhos dos chunks (caracteres)"},
    "col_chunk": {"en": "chunk", "pt": "chunk"},
    "col_label": {"en": "label", "pt": "rótulo"},
    "col_why": {"en": "why", "pt": "por quê"},
    "crowding_row": {
        "en": "Copies of the same passage (chunks {chunks}) take {places} places of the top "
              "{top_k}, crowding out other passages.",
        "pt": "Cópias do mesmo trecho (chunks {chunks}) ocupam {places} lugares do top "
              "{top_k}, tirando o lugar de outros trechos.",
    },
    "why_a": {
        "en": "A is the production index: its chunks are not a ragviz setting, so the nearest "
              "setting that fixes a question is searched for B, on the source files.",
        "pt": "A é o índice de produção: seus chunks não são uma configuração do ragviz, então "
              "a configuração mais próxima que corrige uma pergunta é buscada para B, nos "
              "arquivos de origem.",
    },
    "metric": {"en": "metric", "pt": "métrica"},
    "mismatch_chunk": {
        "en": "Chunk {chunk}'s stored vector differs from {model}'s embedding of its text "
              "(cosine {cosine}).",
        "pt": "O vetor guardado do chunk {chunk} difere da incorporação que {model} faz do "
              "texto dele (cosseno {cosine}).",
    },
    "mismatch_warning": {
        "en": "{share} of the stored vectors differ from {model}'s embedding of their own "
              "text: the index was probably built with another model than the one embedding "
              "the questions, so its scores are noise.",
        "pt": "{share} dos vetores guardados diferem da incorporação que {model} faz do próprio "
              "texto: o índice provavelmente foi construído com outro modelo que não o que "
              "incorpora as perguntas, e as pontuações são ruído.",
    },
    "dimension": {
        "en": "The index stores {stored}-dimension vectors but {model} makes {dimension}-"
              "dimension ones: choose the model the index was built with.",
        "pt": "O índice guarda vetores de {stored} dimensões, mas {model} produz vetores de "
              "{dimension} dimensões: escolha o modelo com que o índice foi construído.",
    },
    "stale_chunk": {
        "en": "Chunk {chunk}'s text is no longer in {file}: the file changed after indexing.",
        "pt": "O texto do trecho {chunk} não está mais em {file}: o arquivo mudou depois da "
              "indexação.",
    },
}


class Sentence(str):
    """A sentence in English that can be said again in another language (``localized``):
    kept as a plain ``str`` where the CLI prints or serialises it."""

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, **values: object) -> Sentence:
        made = super().__new__(cls, say(key, "en", **values))
        made.key, made.values = key, values
        return made

    def localized(self, lang: str) -> str:
        return say(self.key, lang, **{k: localized(v, lang) if isinstance(v, str) else v
                                      for k, v in self.values.items()})


def localized(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it knows how to say itself again, else as it is."""
    from ragviz.i18n import say as i18n_say

    return text.localized(lang) if isinstance(text, Sentence) else i18n_say(text, lang)


def say(key: str, lang: str = "en", **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English when the language is not known)."""
    entry = _STRINGS[key]
    return (entry.get(lang) or entry["en"]).format(**values)


def languages() -> set[str]:
    """The languages every sentence has (checked by the tests)."""
    return set.intersection(*(set(entry) for entry in _STRINGS.values()))
