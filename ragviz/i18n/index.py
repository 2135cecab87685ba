"""The production index's sentences (``ragviz.index``: readers, analysis, the app's Index
source), said through ``ragviz.index.messages.Sentence`` so a page can say them again in its
own language; keys ``idx.<name>``."""

from __future__ import annotations

INDEX: dict[str, dict[str, str]] = {
    "idx.not_folder": {
        "en": '{path} is not a folder (a Chroma index is a folder holding chroma.sqlite3)',
        "pt": '{path} não é uma pasta (um índice Chroma é uma pasta com chroma.sqlite3)',
    },
    "idx.not_chroma_dir": {
        "en": '{path} is not a Chroma directory: it holds no chroma.sqlite3',
        "pt": '{path} não é um diretório do Chroma: não contém chroma.sqlite3',
    },
    "idx.no_collection": {
        "en": '{where} has no collection {name!r} (collections: {known})',
        "pt": '{where} não tem a coleção {name!r} (coleções: {known})',
    },
    "idx.chroma_unreadable": {
        "en": '{path} cannot be read as a Chroma directory ({reason})',
        "pt": '{path} não pode ser lido como um diretório do Chroma ({reason})',
    },
    "idx.empty_collection": {
        "en": 'the collection {name!r} in {where} is empty',
        "pt": 'a coleção {name!r} em {where} está vazia',
    },
    "idx.holds_no_collection": {
        "en": '{where} holds no collection',
        "pt": '{where} não contém nenhuma coleção',
    },
    "idx.server_silent": {
        "en": 'the Chroma server at {host}:{port} does not answer ({reason}); check the address and that the server runs',
        "pt": 'o servidor Chroma em {host}:{port} não responde ({reason}); confira o endereço e se o servidor está rodando',
    },
    "idx.broken_line": {
        "en": '{name} line {number} is not valid JSON ({detail})',
        "pt": 'a linha {number} de {name} não é JSON válido ({detail})',
    },
    "idx.nan_vector": {
        "en": "{where}: the stored vector holds NaN or infinite values; rebuild that chunk's vector",
        "pt": '{where}: o vetor guardado contém NaN ou valores infinitos; refaça o vetor desse trecho',
    },
    "idx.left_out": {
        "en": '{problem}; it was left out',
        "pt": '{problem}; foi deixado de fora',
    },
    "idx.zip_broken": {
        "en": '{name} could not be read: it is not a valid zip archive',
        "pt": 'Não foi possível ler {name}: não é um arquivo zip válido',
    },
    "idx.zip_members": {
        "en": '{name} could not be read: it lists {n} entries and the limit is {limit}',
        "pt": 'Não foi possível ler {name}: ele lista {n} entradas e o limite é {limit}',
    },
    "idx.zip_unsafe_name": {
        "en": '{name} was refused: its entry {member!r} would land outside its folder',
        "pt": '{name} foi recusado: a entrada {member!r} ficaria fora da pasta dele',
    },
    "idx.zip_not_chroma": {
        "en": '{name} is not a zipped Chroma directory: no folder in it holds chroma.sqlite3',
        "pt": '{name} não é um diretório do Chroma compactado: nenhuma pasta dele contém chroma.sqlite3',
    },
    "idx.zip_too_big": {
        "en": '{name} could not be read: it expands past {limit} bytes',
        "pt": 'Não foi possível ler {name}: descompactado, passa de {limit} bytes',
    },
    "idx.not_index_file": {
        "en": '{name} is not an index file: upload a .jsonl, .csv or .parquet export, or a zipped Chroma directory',
        "pt": '{name} não é um arquivo de índice: envie uma exportação .jsonl, .csv ou .parquet, ou um diretório do Chroma compactado',
    },
    "idx.source_index": {
        "en": 'Index',
        "pt": 'Índice',
    },
    "idx.upload": {
        "en": 'A chunk export (.jsonl, .csv, .parquet) or a zipped Chroma directory',
        "pt": 'Uma exportação de chunks (.jsonl, .csv, .parquet) ou um diretório do Chroma compactado',
    },
    "idx.upload_help": {
        "en": 'The chunks exactly as production stored them, with their vectors when the file has them.',
        "pt": 'Os chunks exatamente como a produção os guardou, com os vetores quando o arquivo os tem.',
    },
    "idx.sources": {
        "en": 'The source files the index was built from (optional)',
        "pt": 'Os arquivos de origem com que o índice foi construído (opcional)',
    },
    "idx.sources_help": {
        "en": 'Places every chunk in its file, finds chunks whose text is no longer there (stale) and lets B chunk the same files.',
        "pt": 'Situa cada chunk no seu arquivo, acha chunks cujo texto não está mais lá (desatualizados) e deixa B dividir os mesmos arquivos.',
    },
    "idx.from": {
        "en": 'Read the index from',
        "pt": 'Ler o índice de',
    },
    "idx.from_file": {
        "en": 'a file',
        "pt": 'um arquivo',
    },
    "idx.from_server": {
        "en": 'a Chroma server',
        "pt": 'um servidor Chroma',
    },
    "idx.server": {
        "en": 'Chroma server (host:port)',
        "pt": 'Servidor Chroma (host:porta)',
    },
    "idx.collection": {
        "en": 'Collection',
        "pt": 'Coleção',
    },
    "idx.collection_row": {
        "en": '{name} ({count} chunks, dimension {dimension})',
        "pt": '{name} ({count} chunks, dimensão {dimension})',
    },
    "idx.upload_wait": {
        "en": 'Upload an index file, or pick a Chroma server.',
        "pt": 'Envie um arquivo de índice ou escolha um servidor Chroma.',
    },
    "idx.server_wait": {
        "en": 'Type the address of a Chroma server, as host:port.',
        "pt": 'Digite o endereço de um servidor Chroma, como host:porta.',
    },
    "idx.bad_address": {
        "en": '{address!r} is not a server address: write host:port, e.g. localhost:8000.',
        "pt": '{address!r} não é um endereço de servidor: escreva host:porta, por exemplo localhost:8000.',
    },
    "idx.host_refused": {
        "en": 'This app reaches only the Chroma servers that the environment variable {env} names (now: {allowed}), so a shared app cannot be used as a way into its network.',
        "pt": 'Este app só acessa os servidores Chroma que a variável de ambiente {env} nomeia (agora: {allowed}), para que um app compartilhado não sirva de passagem para a rede dele.',
    },
    "idx.none": {
        "en": 'none',
        "pt": 'nenhum',
    },
    "idx.too_many": {
        "en": '{name} holds {n} chunks; the app loads at most {limit}: diagnose it with ragviz eval --index on the command line.',
        "pt": '{name} tem {n} chunks; o app carrega no máximo {limit}: diagnostique-o com ragviz eval --index na linha de comando.',
    },
    "idx.loaded": {
        "en": '{name}: {n} chunks, {vectors}.',
        "pt": '{name}: {n} chunks, {vectors}.',
    },
    "idx.with_vectors": {
        "en": 'stored vectors of dimension {dimension}',
        "pt": 'vetores guardados de dimensão {dimension}',
    },
    "idx.without_vectors": {
        "en": 'no stored vectors (the model embeds the chunks)',
        "pt": 'sem vetores guardados (o modelo incorpora os chunks)',
    },
    "idx.index_config": {
        "en": 'the production index',
        "pt": 'o índice de produção',
    },
    "idx.side_a": {
        "en": 'A: the production index',
        "pt": 'A: o índice de produção',
    },
    "idx.side_a_caption": {
        "en": '{name}, {n} chunks as production cut them; B chunks the source files with any ragviz chunker.',
        "pt": '{name}, {n} chunks como a produção os cortou; B divide os arquivos de origem com qualquer chunker do ragviz.',
    },
    "idx.b_needs_sources": {
        "en": 'Upload the source files the index was built from to compare it with B (the same files chunked by a ragviz chunker).',
        "pt": 'Envie os arquivos de origem com que o índice foi construído para compará-lo com B (os mesmos arquivos divididos por um chunker do ragviz).',
    },
    "idx.labels_title": {
        "en": 'What only an index has',
        "pt": 'O que só um índice tem',
    },
    "idx.labels_none": {
        "en": 'No stale chunk, no vector mismatch, no duplicate crowding.',
        "pt": 'Nenhum chunk desatualizado, nenhum vetor divergente, nenhuma cópia ocupando o top_k.',
    },
    "idx.no_offsets": {
        "en": '{n} chunks have no place in a source file (no offsets in the metadata and no source given): they are shown one after another.',
        "pt": '{n} chunks não têm lugar em um arquivo de origem (sem posições nos metadados e sem a origem): aparecem um depois do outro.',
    },
    "idx.not_shared": {
        "en": 'An uploaded index cannot go into a link or a workspace: share the index file itself with the link (the link keeps the settings only).',
        "pt": 'Um índice enviado não cabe em um link nem em um workspace: compartilhe o próprio arquivo do índice junto com o link (o link guarda só as configurações).',
    },
    "idx.server_not_shared": {
        "en": "An index read from a Chroma server goes into no link or workspace: whoever opens the link types the server's address and picks the collection again.",
        "pt": 'Um índice lido de um servidor Chroma não vai para link nem workspace: quem abrir o link digita de novo o endereço do servidor e escolhe a coleção.',
    },
    "idx.whatif": {
        "en": 'What if: the production index (A) against B',
        "pt": 'E se: o índice de produção (A) contra B',
    },
    "idx.whatif_caption": {
        "en": 'Same questions, same model: A is the index as production built it, B the source files chunked by {config}.',
        "pt": 'Mesmas perguntas, mesmo modelo: A é o índice como a produção o construiu, B os arquivos de origem divididos por {config}.',
    },
    "idx.sizes": {
        "en": 'Chunk sizes (characters)',
        "pt": 'Tamanhos dos chunks (caracteres)',
    },
    "idx.col_chunk": {
        "en": 'chunk',
        "pt": 'chunk',
    },
    "idx.col_label": {
        "en": 'label',
        "pt": 'rótulo',
    },
    "idx.col_why": {
        "en": 'why',
        "pt": 'por quê',
    },
    "idx.crowding_row": {
        "en": 'Copies of the same passage (chunks {chunks}) take {places} places of the top {top_k}, crowding out other passages.',
        "pt": 'Cópias do mesmo trecho (chunks {chunks}) ocupam {places} lugares do top {top_k}, tirando o lugar de outros trechos.',
    },
    "idx.why_a": {
        "en": 'A is the production index: its chunks are not a ragviz setting, so the nearest setting that fixes a question is searched for B, on the source files.',
        "pt": 'A é o índice de produção: seus chunks não são uma configuração do ragviz, então a configuração mais próxima que corrige uma pergunta é buscada para B, nos arquivos de origem.',
    },
    "idx.metric": {
        "en": 'metric',
        "pt": 'métrica',
    },
    "idx.mismatch_chunk": {
        "en": "Chunk {chunk}'s stored vector differs from {model}'s embedding of its text (cosine {cosine}).",
        "pt": 'O vetor guardado do chunk {chunk} difere da incorporação que {model} faz do texto dele (cosseno {cosine}).',
    },
    "idx.mismatch_warning": {
        "en": "{share} of the stored vectors differ from {model}'s embedding of their own text: the index was probably built with another model than the one embedding the questions, so its scores are noise.",
        "pt": '{share} dos vetores guardados diferem da incorporação que {model} faz do próprio texto: o índice provavelmente foi construído com outro modelo que não o que incorpora as perguntas, e as pontuações são ruído.',
    },
    "idx.dimension": {
        "en": 'The index stores {stored}-dimension vectors but {model} makes {dimension}-dimension ones: choose the model the index was built with.',
        "pt": 'O índice guarda vetores de {stored} dimensões, mas {model} produz vetores de {dimension} dimensões: escolha o modelo com que o índice foi construído.',
    },
    "idx.stale_chunk": {
        "en": "Chunk {chunk}'s text is no longer in {file}: the file changed after indexing.",
        "pt": 'O texto do trecho {chunk} não está mais em {file}: o arquivo mudou depois da indexação.',
    },
}
