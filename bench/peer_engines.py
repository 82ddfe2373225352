"""The engines bench/peers.py sets beside the product, each configured as its documentation recommends.

Bench-only: they come from requirements-peers.txt (`make bench-peers`); nothing under cms/,
search/ or ingestion/ imports them. Every engine indexes the same rows (the product's chunks:
their text, their stored vector, two filter columns) and answers with row positions, best first.

Tokenizers, by the text's script (`Script`):

- latin (SciFact, StackFAQ, CovidFAQ): each engine's English analyzer. Tantivy: its `en_stem`
  chain (simple tokenizer, remove_long 40, lowercase, English Snowball stemmer), built here by
  name so the query side runs the very same chain. bm25s: `bm25s.tokenize` with its English
  stopwords and PyStemmer's English stemmer (its README's setup). LanceDB: native FTS,
  `simple` tokenizer, English stemming and stop words (its defaults).
- cjk (JSQuAD, JaQuAD: Japanese; DRCD: Chinese): Tantivy's Python package has no Japanese or
  Chinese tokenizer (Lindera and Jieba are Rust crates it does not bundle), so its n-gram
  tokenizer, bigrams (min 2, max 2). bm25s has neither a CJK tokenizer nor an n-gram option:
  it indexes token lists it is handed, so character bigrams of each CJK run (and the words of
  any Latin text) are handed to it. LanceDB: `icu` (ICU's dictionary word segmentation, which
  covers Japanese and Chinese and needs no model download; its `lindera/*` and `jieba/*`
  tokenizers load a model from Lance's language-model home, which this machine cannot fetch).
- mixed (the speed corpus: English and Japanese chunks in one index): Tantivy gets two fields,
  the text through `en_stem` and its CJK runs through the bigram tokenizer, a query searching
  both; bm25s the union of the two token lists; LanceDB `icu` with English stemming.

BM25 parameters: each engine's default (Tantivy k1 1.2, b 0.75; bm25s `lucene`, k1 1.5, b 0.75;
LanceDB's own). Vector engines get the product's stored vectors (L2-normalised, 512 dims,
cosine). HNSW: hnswlib with its README's M 16, ef_construction 200; usearch with its defaults
(connectivity 16, expansion_add 128); the search-time `ef` is chosen by bench/peers.py to
reach a stated recall@10. LanceDB's vector search is its flat (exact) scan, which its
documentation advises below about 100,000 rows; its hybrid query fuses its FTS and vector
results with its default reranker (RRFReranker) or the LinearCombinationReranker.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af々〆ー]+")
LATIN_WORD = re.compile(r"(?u)\b\w\w+\b")
SCRIPTS = ("latin", "cjk", "mixed")
# LanceDB's hybrid query logs a deprecation warning per query (a column it will stop adding).
os.environ.setdefault("LANCEDB_LOG", "error")


@dataclass
class Rows:
    """What every engine indexes: texts, their (normalised) vectors, and two filter columns."""

    texts: list[str]
    vectors: np.ndarray
    bucket: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    tenth: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))

    def __post_init__(self) -> None:
        if not len(self.bucket):
            self.bucket = np.zeros(len(self.texts), dtype=np.int32)
        if not len(self.tenth):
            self.tenth = np.zeros(len(self.texts), dtype=np.int32)


def cjk_bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of each CJK run (a one-character run is itself)."""
    grams: list[str] = []
    for run in CJK_RUN.findall(text):
        grams.extend([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
    return grams


def dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


class Engine:
    """One peer: build() once, then search(); `build_s` and `disk_mb` say what the build cost."""

    name = ""
    build_s = 0.0
    disk_mb = 0.0

    def close(self) -> None:
        pass


# --- keyword engines -------------------------------------------------------------------------

class TantivyKeyword(Engine):
    name = "tantivy"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        import tantivy

        self.tantivy, self.script = tantivy, script
        en = (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.remove_long(40))
              .filter(tantivy.Filter.lowercase()).filter(tantivy.Filter.stemmer("english")).build())
        grams = (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.ngram(min_gram=2, max_gram=2, prefix_only=False))
                 .filter(tantivy.Filter.lowercase()).build())
        builder = tantivy.SchemaBuilder()
        self.fields = {"latin": [("text", "en")], "cjk": [("text", "bigram")],
                       "mixed": [("text", "en"), ("cjk", "bigram")]}[script]
        for name, analyzer in self.fields:
            builder.add_text_field(name, stored=False, tokenizer_name=analyzer, index_option="freq")
        builder.add_integer_field("bucket", indexed=True, fast=True)
        builder.add_integer_field("tenth", indexed=True, fast=True)
        builder.add_integer_field("row", stored=True, fast=True)
        self.schema = builder.build()
        self.path = workdir / "tantivy"
        self.path.mkdir(parents=True)
        started = time.perf_counter()
        self.index = tantivy.Index(self.schema, path=str(self.path))
        self.analyzers = {"en": en, "bigram": grams}
        for name, analyzer in self.analyzers.items():
            self.index.register_tokenizer(name, analyzer)
        writer = self.index.writer(heap_size=256 * 2**20, num_threads=1)
        for i, text in enumerate(rows.texts):
            values = {"bucket": int(rows.bucket[i]), "tenth": int(rows.tenth[i]), "row": i}
            for name, analyzer in self.fields:
                # Only the CJK runs go through the bigram field of a mixed index (bigrams of English
                # words would be noise and bulk); a CJK-only index takes the whole text.
                values[name] = " ".join(CJK_RUN.findall(text)) if script == "mixed" and analyzer == "bigram" else text
            writer.add_document(tantivy.Document(**values))
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        self.build_s = time.perf_counter() - started
        self.disk_mb = dir_mb(self.path)

    def query(self, text: str, flt: tuple[str, int] | None = None):
        t = self.tantivy
        clauses = []
        for name, analyzer in self.fields:
            for token in dict.fromkeys(self.analyzers[analyzer].analyze(text)):
                clauses.append((t.Occur.Should, t.Query.term_query(self.schema, name, token)))
        if not clauses:
            return None
        query = t.Query.boolean_query(clauses)
        if flt is not None:
            condition = t.Query.const_score_query(t.Query.term_query(self.schema, flt[0], flt[1]), 0.0)
            query = t.Query.boolean_query([(t.Occur.Must, query), (t.Occur.Must, condition)])
        return query

    def search(self, text: str, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        query = self.query(text, flt)
        if query is None:
            return []
        hits = self.searcher.search(query, k).hits
        return [self.searcher.doc(address)["row"][0] for _, address in hits]


class Bm25sKeyword(Engine):
    name = "bm25s"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        import bm25s
        import Stemmer

        self.bm25s, self.script = bm25s, script
        self.stemmer = Stemmer.Stemmer("english")
        self.filters = {"bucket": rows.bucket, "tenth": rows.tenth}
        started = time.perf_counter()
        tokens = [self.tokens(text) for text in rows.texts]
        self.retriever = bm25s.BM25()  # method "lucene", k1 1.5, b 0.75
        self.retriever.index(tokens, show_progress=False)
        self.vocab = self.retriever.vocab_dict
        self.build_s = time.perf_counter() - started
        path = workdir / "bm25s"
        self.retriever.save(str(path))
        self.disk_mb = dir_mb(path)
        self.rows = len(rows.texts)

    def tokens(self, text: str) -> list[str]:
        words: list[str] = []
        if self.script != "cjk":
            english = self.bm25s.tokenize(text, stopwords="en", stemmer=self.stemmer, return_ids=False,
                                          show_progress=False)
            words = english[0] if english else []
        if self.script != "latin":
            words = words + cjk_bigrams(text)
        return words

    def search(self, text: str, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        tokens = [t for t in self.tokens(text) if t in self.vocab]
        if not tokens:
            return []
        mask = None if flt is None else (self.filters[flt[0]] == flt[1]).astype(np.float32)
        docs, scores = self.retriever.retrieve([tokens], k=min(k, self.rows), show_progress=False, weight_mask=mask,
                                               n_threads=1)
        return [int(d) for d, s in zip(docs[0], scores[0]) if s > 0]


# --- vector engines ----------------------------------------------------------------------------

class ExactVector(Engine):
    """Exact kNN with NumPy: every cosine computed (the vectors are normalised: a dot product)."""

    name = "exact"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        self.vectors = np.ascontiguousarray(rows.vectors, dtype=np.float32)
        self.filters = {"bucket": rows.bucket, "tenth": rows.tenth}
        self.disk_mb = self.vectors.nbytes / 2**20

    def search_vector(self, vector: np.ndarray, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        if flt is None:
            scores, ids = self.vectors @ vector, None
        else:
            ids = np.flatnonzero(self.filters[flt[0]] == flt[1])
            scores = self.vectors[ids] @ vector
        k = min(k, len(scores))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [int(i) for i in (top if ids is None else ids[top])]


class HnswlibVector(Engine):
    name = "hnswlib"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        import hnswlib

        self.filters = {"bucket": rows.bucket, "tenth": rows.tenth}
        started = time.perf_counter()
        self.index = hnswlib.Index(space="cosine", dim=rows.vectors.shape[1])
        self.index.init_index(max_elements=len(rows.vectors), M=16, ef_construction=200, random_seed=100)
        self.index.set_num_threads(1)
        self.index.add_items(rows.vectors, np.arange(len(rows.vectors)))
        self.build_s = time.perf_counter() - started
        path = workdir / "hnswlib.bin"
        self.index.save_index(str(path))
        self.disk_mb = path.stat().st_size / 2**20
        self.ef = 50

    def set_ef(self, ef: int) -> None:
        self.ef = ef
        self.index.set_ef(ef)

    def search_vector(self, vector: np.ndarray, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        self.index.set_ef(max(self.ef, k))
        if flt is None:
            labels, _ = self.index.knn_query(vector, k=k)
        else:
            column, value = self.filters[flt[0]], flt[1]
            # hnswlib's filter: a Python callable asked about each candidate label. It raises
            # when the walk finds fewer than k passing labels: that answer counts as empty.
            try:
                labels, _ = self.index.knn_query(vector, k=min(k, int((column == value).sum())),
                                                 filter=lambda label: column[label] == value)
            except RuntimeError:
                return []
        return [int(i) for i in labels[0]]


class UsearchVector(Engine):
    name = "usearch"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        from usearch.index import Index

        started = time.perf_counter()
        self.index = Index(ndim=rows.vectors.shape[1], metric="cos", dtype="f32")
        self.index.add(np.arange(len(rows.vectors)), rows.vectors, threads=1)
        self.build_s = time.perf_counter() - started
        path = workdir / "usearch.bin"
        self.index.save(str(path))
        self.disk_mb = path.stat().st_size / 2**20

    def set_ef(self, ef: int) -> None:
        self.index.expansion_search = ef

    def search_vector(self, vector: np.ndarray, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        if flt is not None:
            raise NotImplementedError("usearch's Python API has no filtered search")
        return [int(key) for key in self.index.search(vector, k, threads=1).keys]


# --- LanceDB: FTS, vector and hybrid over one table ------------------------------------------------

class Lance(Engine):
    name = "lancedb"

    def __init__(self, rows: Rows, script: str, workdir: Path):
        import lancedb
        import pyarrow as pa

        self.path = workdir / "lancedb"
        started = time.perf_counter()
        db = lancedb.connect(str(self.path))
        dims = rows.vectors.shape[1]
        table = pa.table({
            "row": pa.array(np.arange(len(rows.texts), dtype=np.int64)),
            "text": pa.array(rows.texts, type=pa.string()),
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(rows.vectors.reshape(-1), type=pa.float32()), dims),
            "bucket": pa.array(rows.bucket.astype(np.int32)),
            "tenth": pa.array(rows.tenth.astype(np.int32)),
        })
        self.table = db.create_table("chunks", table, mode="overwrite")
        tokenizer = {"latin": {"base_tokenizer": "simple"}, "cjk": {"base_tokenizer": "icu"},
                     "mixed": {"base_tokenizer": "icu"}}[script]
        self.table.create_fts_index("text", with_position=False, **tokenizer)
        self.table.create_scalar_index("bucket")
        self.table.create_scalar_index("tenth")
        self.build_s = time.perf_counter() - started
        self.disk_mb = dir_mb(self.path)
        from lancedb.rerankers import LinearCombinationReranker, RRFReranker

        self.rerankers = {"rrf": RRFReranker(), "linear": LinearCombinationReranker()}

    @staticmethod
    def where(query, flt: tuple[str, int] | None):
        return query if flt is None else query.where(f"{flt[0]} = {int(flt[1])}", prefilter=True)

    def search(self, text: str, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        query = self.where(self.table.search(text, query_type="fts", fts_columns="text"), flt)
        return query.select(["row", "_score"]).limit(k).to_arrow()["row"].to_pylist()

    def search_vector(self, vector: np.ndarray, k: int, flt: tuple[str, int] | None = None) -> list[int]:
        query = self.where(self.table.search(vector, vector_column_name="vector").distance_type("cosine"), flt)
        return query.select(["row", "_distance"]).limit(k).to_arrow()["row"].to_pylist()

    def search_hybrid(self, text: str, vector: np.ndarray, k: int, reranker: str = "rrf",
                      flt: tuple[str, int] | None = None) -> list[int]:
        query = (self.table.search(query_type="hybrid", vector_column_name="vector", fts_columns="text")
                 .vector(vector).text(text).distance_type("cosine"))
        query = self.where(query, flt).rerank(self.rerankers[reranker])
        return query.select(["row"]).limit(k).to_arrow()["row"].to_pylist()


KEYWORD_ENGINES = {"tantivy": TantivyKeyword, "bm25s": Bm25sKeyword}
VECTOR_ENGINES = {"exact": ExactVector, "hnswlib": HnswlibVector, "usearch": UsearchVector}


class Peers:
    """Every peer built over the same rows, in a temporary folder removed by close()."""

    def __init__(self, rows: Rows, script: str, only: tuple[str, ...] | None = None):
        self.workdir = Path(tempfile.mkdtemp(prefix="bench-peers-"))
        # Removed at exit too: a run that fails midway must not leave ~750 MB (100k chunks) in /tmp.
        atexit.register(shutil.rmtree, self.workdir, True)
        self.engines: dict[str, Engine] = {}
        for name, cls in {**KEYWORD_ENGINES, **VECTOR_ENGINES, "lancedb": Lance}.items():
            if only is None or name in only:
                self.engines[name] = cls(rows, script, self.workdir)

    def __getitem__(self, name: str) -> Engine:
        return self.engines[name]

    def close(self) -> None:
        self.engines.clear()
        shutil.rmtree(self.workdir, ignore_errors=True)


def versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for package in ("tantivy", "bm25s", "lancedb", "pyarrow", "hnswlib", "usearch", "numpy"):
        try:
            out.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            out.append(f"{package} (missing)")
    return ", ".join(out)


def missing_peers() -> list[str]:
    """The peer packages that cannot be imported here (empty when all are installed)."""
    import importlib

    missing = []
    for module in ("tantivy", "bm25s", "lancedb", "hnswlib", "usearch", "Stemmer", "pyarrow"):
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    return missing
