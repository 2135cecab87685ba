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
    "idx.server_timeout": {
        "en": '{where} stopped answering: a request waited {seconds} s; check the server, or give it longer with --timeout',
        "pt": '{where} parou de responder: um pedido esperou {seconds} s; confira o servidor ou dê mais tempo com --timeout',
    },
    "idx.server_redirects": {
        "en": '{where} answered with a redirect (HTTP {status}), which ragviz never follows: give the address of the Chroma server itself',
        "pt": '{where} respondeu com um redirecionamento (HTTP {status}), que o ragviz nunca segue: informe o endereço do próprio servidor Chroma',
    },
    "idx.server_not_chroma": {
        "en": '{where} answers (HTTP {status}) but not as a Chroma server: check the address and port',
        "pt": '{where} responde (HTTP {status}), mas não como um servidor Chroma: confira o endereço e a porta',
    },
    "idx.server_garbled": {
        "en": '{where} sent an answer ragviz cannot read as Chroma\'s: check that the address is a Chroma server of version 1 or later',
        "pt": '{where} enviou uma resposta que o ragviz não consegue ler como do Chroma: confira se o endereço é um servidor Chroma da versão 1 ou posterior',
    },
    "idx.server_error": {
        "en": '{where} refused the request ({reason}): check the server and its access settings',
        "pt": '{where} recusou o pedido ({reason}): confira o servidor e as configurações de acesso dele',
    },
    "idx.timeout_range": {
        "en": 'give a number of seconds from 0.1 to {high}, got {got}',
        "pt": 'dê um número de segundos de 0,1 a {high}; veio {got}',
    },
    "idx.database_progress": {
        "en": 'the database: answers looked for, question {done} of {total} ({seconds} s)',
        "pt": 'o banco: respostas procuradas, pergunta {done} de {total} ({seconds} s)',
    },
    "idx.dimension_in_collection": {
        "en": 'vectors not checked: {name} stores {stored}-dimension vectors but {model} makes {dimension}-dimension ones; give the model it was built with',
        "pt": 'vetores não conferidos: {name} guarda vetores de {stored} dimensões, mas {model} produz vetores de {dimension}; informe o modelo com que foi construída',
    },
    "idx.vectors_not_checked": {
        "en": 'stored vectors not checked: give --model to check them against a model',
        "pt": 'vetores guardados não conferidos: informe --model para conferi-los com um modelo',
    },
    "idx.too_large_file": {
        "en": '{name} holds {count} chunks; ragviz loads at most {limit}, and a file is read whole (only a Chroma index can retrieve by itself): load the chunks into a Chroma collection and give chroma:DIR, or raise {variable} on a machine with the memory',
        "pt": '{name} tem {count} chunks; o ragviz carrega no máximo {limit}, e um arquivo é lido inteiro (só um índice Chroma recupera sozinho): carregue os chunks numa coleção Chroma e informe chroma:PASTA, ou aumente {variable} numa máquina com memória',
    },
    "idx.not_loaded_file": {
        "en": '{name}: {count} chunks, dimension {dimension}; past the {limit} ragviz loads, and a file is read whole (only a Chroma index can retrieve by itself): load the chunks into a Chroma collection, or raise {variable} on a machine with the memory',
        "pt": '{name}: {count} chunks, dimensão {dimension}; acima dos {limit} que o ragviz carrega, e um arquivo é lido inteiro (só um índice Chroma recupera sozinho): carregue os chunks numa coleção Chroma, ou aumente {variable} numa máquina com memória',
    },
    "idx.chroma_path_empty": {
        "en": 'chroma: needs a folder after it: write chroma:DIR, the folder that holds chroma.sqlite3',
        "pt": 'chroma: precisa de uma pasta depois: escreva chroma:PASTA, a pasta que contém chroma.sqlite3',
    },
    "idx.chroma_copy_failed": {
        "en": '{path} could not be copied to a temporary folder, where ragviz reads it so as never to change it ({reason}): set TMPDIR to a folder with room',
        "pt": '{path} não pôde ser copiado para uma pasta temporária, onde o ragviz o lê para nunca alterá-lo ({reason}): aponte TMPDIR para uma pasta com espaço',
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
        "en": '{name} is not a zipped Chroma or Qdrant folder: no folder in it holds chroma.sqlite3 or meta.json',
        "pt": '{name} não é uma pasta do Chroma ou do Qdrant compactada: nenhuma pasta dele contém chroma.sqlite3 ou meta.json',
    },
    "idx.zip_too_big": {
        "en": '{name} could not be read: it expands past {limit} bytes',
        "pt": 'Não foi possível ler {name}: descompactado, passa de {limit} bytes',
    },
    "idx.not_index_file": {
        "en": '{name} is not an index file: upload a .jsonl, .csv or .parquet export, or a zipped Chroma or Qdrant folder',
        "pt": '{name} não é um arquivo de índice: envie uma exportação .jsonl, .csv ou .parquet, ou uma pasta do Chroma ou do Qdrant compactada',
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
        "en": 'This app reaches only the Chroma servers its administrator names in the environment variable {env}, and {address} is not one of them: ask the administrator to add it (a shared app must not be a way into its network).',
        "pt": 'Este app só acessa os servidores Chroma que o administrador nomeia na variável de ambiente {env}, e {address} não é um deles: peça ao administrador que o inclua (um app compartilhado não pode servir de passagem para a rede dele).',
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
    "idx.no_offsets.one": {
        "en": '{n} chunk has no place in the source files given (its file is not among them, or it changed after indexing: stale-chunk): it is shown after the others; give every file the index was built from, as it is now indexed.',
        "pt": '{n} chunk não tem lugar nos arquivos de origem dados (o arquivo dele não está entre eles, ou mudou depois da indexação: stale-chunk): aparece depois dos outros; dê todos os arquivos de que o índice foi feito, como estão indexados agora.',
    },
    "idx.no_sources_placed.one": {
        "en": '{n} chunk has no place in a source file because no source file was given (the offsets in its metadata cannot be checked without it); give the files the index was built from to place it.',
        "pt": '{n} chunk não tem lugar em um arquivo de origem porque nenhum arquivo de origem foi dado (sem ele, as posições nos metadados não podem ser conferidas); dê os arquivos de que o índice foi feito para posicioná-lo.',
    },
    "idx.no_offsets": {
        "en": '{n} chunks have no place in the source files given (their file is not among them, or it changed after indexing: stale-chunk): they are shown one after another; give every file the index was built from, as it is now indexed.',
        "pt": '{n} chunks não têm lugar nos arquivos de origem dados (o arquivo deles não está entre eles, ou mudou depois da indexação: stale-chunk): aparecem um depois do outro; dê todos os arquivos de que o índice foi feito, como estão indexados agora.',
    },
    "idx.no_sources_placed": {
        "en": '{n} chunks have no place in a source file because no source file was given (the offsets in their metadata cannot be checked without it): they are shown one after another; give the files the index was built from to place them.',
        "pt": '{n} chunks não têm lugar em um arquivo de origem porque nenhum arquivo de origem foi dado (sem ele, as posições nos metadados não podem ser conferidas): aparecem um depois do outro; dê os arquivos de que o índice foi feito para posicioná-los.',
    },
    "idx.no_sources": {
        "en": 'No source file was given, so the excerpts\' offsets cannot be placed: recall, precision and IoU are left out, and hit@k and MRR count a chunk as holding the answer when the answer (or one of its excerpts) is inside that chunk\'s own text; give the files the index was built from as its sources (--sources on the command line) to measure them on the files.',
        "pt": 'Nenhum arquivo de origem foi dado, então os offsets dos trechos não podem ser posicionados: recall, precisão e IoU ficam de fora, e hit@k e MRR contam um chunk como contendo a resposta quando a resposta (ou um dos seus trechos) está dentro do próprio texto do chunk; dê os arquivos de que o índice foi feito como suas origens (--sources na linha de comando) para medi-los nos arquivos.',
    },
    "idx.stale_answer": {
        "en": 'Stale: {file} changed after indexing, and the text of {chunks} (in this question\'s top_k or holding its answer) is no longer in it; re-index the file.',
        "pt": 'Desatualizado: {file} mudou depois da indexação, e o texto de {chunks} (no top_k desta pergunta ou com a sua resposta) não está mais nele; reindexe o arquivo.',
    },
    "idx.token_denominator": {
        "en": 'Recall, precision, IoU and precision Ω are means over {n} of the {evaluated} questions: the others\' answers have no place in the source files given ({stale} of them held only by a stale chunk).',
        "pt": 'Recall, precisão, IoU e precisão Ω são médias sobre {n} das {evaluated} perguntas: as respostas das outras não têm lugar nos arquivos de origem dados ({stale} delas só num chunk desatualizado).',
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
    "idx.file_too_many": {
        "en": '{name} holds more than {limit} chunks, the most ragviz reads from one file: keep fewer chunks in the export, or load them into a Chroma index and use ragviz eval --index-mode database.',
        "pt": '{name} tem mais de {limit} chunks, o máximo que o ragviz lê de um arquivo: deixe menos chunks na exportação, ou carregue-os num índice Chroma e use ragviz eval --index-mode database.',
    },
    "idx.chunk_too_long": {
        "en": '{where} holds a chunk of {n} characters; ragviz reads chunks of at most {limit}: split it before exporting.',
        "pt": '{where} tem um chunk de {n} caracteres; o ragviz lê chunks de no máximo {limit}: divida-o antes de exportar.',
    },
    "idx.text_too_long": {
        "en": 'The chunk texts of {name} pass {limit} characters, the most ragviz embeds from one index: export fewer or shorter chunks.',
        "pt": 'Os textos dos chunks de {name} passam de {limit} caracteres, o máximo que o ragviz incorpora de um índice: exporte menos chunks ou chunks mais curtos.',
    },
    "idx.vectors_too_big": {
        "en": 'The stored vectors of {name} pass {limit} MB, the most ragviz holds from one file: export fewer chunks.',
        "pt": 'Os vetores guardados de {name} passam de {limit} MB, o máximo que o ragviz mantém de um arquivo: exporte menos chunks.',
    },
    "idx.no_text_records": {
        "en": "{n} of {total} records of {name} have no text and were left out; export each chunk's text with its vector.",
        "pt": '{n} de {total} registros de {name} não têm texto e ficaram de fora; exporte o texto de cada chunk junto com o vetor.',
    },
    "idx.left_out_more": {
        "en": '{problem}; {n} records could not be read and were left out (this is the first)',
        "pt": '{problem}; {n} registros não puderam ser lidos e ficaram de fora (este é o primeiro)',
    },
    "idx.no_text_at_all": {
        "en": "None of the {n} records of {name} has a text (page_content, text or document): export the chunks' texts with their vectors.",
        "pt": 'Nenhum dos {n} registros de {name} tem texto (page_content, text ou document): exporte os textos dos chunks com os vetores.',
    },
    "idx.lone_surrogate": {
        "en": "{where} holds a lone surrogate (an escape such as \\ud800 without its pair), which is not text; fix that record's text",
        "pt": '{where} contém um substituto isolado (um escape como \\ud800 sem o par), que não é texto; corrija o texto desse registro',
    },
    "idx.not_utf8_file": {
        "en": '{name} is not UTF-8 text (it looks like UTF-16 or UTF-32): save it as UTF-8 and load it again.',
        "pt": '{name} não é texto UTF-8 (parece UTF-16 ou UTF-32): salve-o como UTF-8 e carregue de novo.',
    },
    "idx.not_utf8_record": {
        "en": '{where} is not UTF-8 text; save the file as UTF-8',
        "pt": '{where} não é texto UTF-8; salve o arquivo como UTF-8',
    },
    "idx.nested_too_deep": {
        "en": '{where} nests lists or objects too deep to read; write that record flat',
        "pt": '{where} aninha listas ou objetos fundo demais para ler; escreva esse registro sem tanto aninhamento',
    },
    "idx.record_too_long": {
        "en": '{where} is longer than {limit} bytes, the most ragviz reads as one record: check that the file has one record per line.',
        "pt": '{where} passa de {limit} bytes, o máximo que o ragviz lê como um registro: confira se o arquivo tem um registro por linha.',
    },
    "idx.csv_broken": {
        "en": '{name} breaks the CSV format near line {line}: export it again as CSV (comma-separated, quotes closed, lines ending in LF or CRLF).',
        "pt": '{name} quebra o formato CSV perto da linha {line}: exporte-o de novo como CSV (separado por vírgulas, aspas fechadas, linhas terminando em LF ou CRLF).',
    },
    "idx.cells_mismatch": {
        "en": '{where} has {n} cells where the header has {expected}',
        "pt": '{where} tem {n} células onde o cabeçalho tem {expected}',
    },
    "idx.parquet_broken": {
        "en": '{name} cannot be read as Parquet (the file is damaged or not Parquet): export it again.',
        "pt": '{name} não pode ser lido como Parquet (o arquivo está danificado ou não é Parquet): exporte-o de novo.',
    },
    "idx.text_not_strings": {
        "en": "The column {column} of {name} holds {kind}, not text: export the chunks' texts as strings.",
        "pt": 'A coluna {column} de {name} contém {kind}, não texto: exporte os textos dos chunks como strings.',
    },
    "idx.column_twice": {
        "en": '{name} has two columns named {column}: keep one and export it again.',
        "pt": '{name} tem duas colunas chamadas {column}: mantenha uma e exporte de novo.',
    },
    "idx.number_too_long": {
        "en": '{where} holds a number of thousands of digits, which is no vector value or offset',
        "pt": '{where} contém um número de milhares de dígitos, que não é valor de vetor nem posição',
    },
    "idx.vector_too_long": {
        "en": '{where}: the vector has {n} values; ragviz reads vectors of at most {limit}',
        "pt": '{where}: o vetor tem {n} valores; o ragviz lê vetores de no máximo {limit}',
    },
    "idx.table_too_big": {
        "en": '{name} unpacks to more text or vectors than ragviz reads from one file: export fewer or shorter chunks.',
        "pt": '{name} se expande para mais texto ou vetores do que o ragviz lê de um arquivo: exporte menos chunks ou chunks mais curtos.',
    },
    "idx.not_an_index": {
        "en": '{spec} is not an index ragviz reads: give {forms}',
        "pt": '{spec} não é um índice que o ragviz leia: dê {forms}',
    },
    "idx.pg_connect": {
        "en": 'ragviz could not connect to {where} ({reason}): check the URI, that the server runs and that it lets this user in',
        "pt": 'o ragviz não conseguiu se conectar com {where} ({reason}): confira a URI, se o servidor está no ar e se ele aceita este usuário',
    },
    "idx.pg_no_extension": {
        "en": '{where} has no pgvector extension (no vector type): point --index at the database that holds the embeddings',
        "pt": '{where} não tem a extensão pgvector (nenhum tipo vector): aponte --index para o banco que guarda os embeddings',
    },
    "idx.pg_timeout": {
        "en": '{where} did not answer a query within {seconds} s: give it longer with --timeout, or ask a smaller collection',
        "pt": '{where} não respondeu a uma consulta em {seconds} s: dê mais tempo com --timeout ou consulte uma coleção menor',
    },
    "idx.pg_error": {
        "en": '{where} refused a query ({reason}): check that the table and its columns are as ragviz found them',
        "pt": '{where} recusou uma consulta ({reason}): confira se a tabela e as colunas estão como o ragviz as encontrou',
    },
    "idx.pg_no_layout": {
        "en": '{where} holds no LangChain (langchain_pg_embedding) or LlamaIndex (data_<name>) table: name the table with --table (its tables: {tables})',
        "pt": '{where} não tem tabela do LangChain (langchain_pg_embedding) nem do LlamaIndex (data_<nome>): indique a tabela com --table (as tabelas: {tables})',
    },
    "idx.pg_no_table": {
        "en": '{where} has no table {table}: name one of its tables with --table ({tables})',
        "pt": '{where} não tem a tabela {table}: indique uma das tabelas com --table ({tables})',
    },
    "idx.pg_no_column": {
        "en": 'the table {table} has no column {column}: name its column with {option} (its columns: {columns})',
        "pt": 'a tabela {table} não tem a coluna {column}: indique a coluna com {option} (as colunas: {columns})',
    },
    "idx.pg_not_vector": {
        "en": 'the column {column} of {table} is {type}, not a pgvector vector: name the vector column with --vector-column',
        "pt": 'a coluna {column} de {table} é {type}, não um vector do pgvector: indique a coluna de vetores com --vector-column',
    },
    "idx.pg_null_vectors": {
        "en": '{n} of the {total} rows of {name} have no embedding ({column} is NULL): embed them, or point --table at a view without them',
        "pt": '{n} das {total} linhas de {name} não têm embedding ({column} é NULL): gere os embeddings ou aponte --table para uma view sem elas',
    },
    "idx.read_progress": {
        "en": 'reading the index: {n} records',
        "pt": 'lendo o índice: {n} registros',
    },
    "idx.qdrant_error": {
        "en": '{where} could not be read ({reason}): check the path or the server and the collection',
        "pt": 'não foi possível ler {where} ({reason}): confira o caminho ou o servidor e a coleção',
    },
    "idx.qdrant_vector_name": {
        "en": 'the Qdrant collection {name} holds several named vectors: choose one with --vector-name ({names})',
        "pt": 'a coleção Qdrant {name} tem vários vetores nomeados: escolha um com --vector-name ({names})',
    },
    "idx.not_qdrant_dir": {
        "en": '{path} is not a Qdrant storage folder: it holds no meta.json and collection folder',
        "pt": '{path} não é uma pasta de armazenamento do Qdrant: não contém meta.json e a pasta collection',
    },
    "idx.qdrant_address": {
        "en": '{spec} is not a Qdrant server address: write qdrant+http://HOST:PORT',
        "pt": '{spec} não é um endereço de servidor Qdrant: escreva qdrant+http://HOST:PORTA',
    },
    "idx.host_refused_store": {
        "en": 'This app reaches only the servers its administrator names in the environment variable {env} (as {scheme}HOST:PORT), and {address} is not one of them: ask the administrator to add it (a shared app must not be a way into its network).',
        "pt": 'Este app só acessa os servidores que o administrador nomeia na variável de ambiente {env} (como {scheme}HOST:PORTA), e {address} não é um deles: peça ao administrador que o inclua (um app compartilhado não pode servir de passagem para a rede dele).',
    },
    "idx.too_many_read": {
        "en": '{name} holds more than {limit} chunks; the app loads at most {limit}: diagnose it with ragviz eval --index on the command line.',
        "pt": '{name} tem mais de {limit} chunks; o app carrega no máximo {limit}: diagnostique-o com ragviz eval --index na linha de comando.',
    },
    "idx.pg_where": {
        "en": 'the Postgres database {target}',
        "pt": 'o banco Postgres {target}',
    },
    "idx.qdrant_where": {
        "en": 'the Qdrant server at {target}',
        "pt": 'o servidor Qdrant em {target}',
    },
}
