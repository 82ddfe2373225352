"""multilingual-e5-small's encoder layers in onnxruntime, their matmuls int8 (E5_RUNTIME="onnx").

The tokeniser, prefixes, windows, word vectors and pooling's combination are e5.py's; only the
forward pass changes. The graph is e5.py's numpy pass op for op (position Gather, LayerNormalization,
one MatMul for query/key/value, Softmax over the masked scores, GELU in its erf form, mean pooling
over the mask), built from the same dequantised weights, then `quantize_dynamic`: the weights of
the constant-weight MatMuls become int8 per output channel, activations are quantised per
call, one text's pass at a time. The word vectors (the 250k-row table) stay in e5.py's 4-bit
table and come in as an input: in the graph they would hold 384 MB in fp32.

The quantised graph is built once per weights file (a minute at most) and kept under the cache
directory (`E5_ONNX_CACHE_DIR`, default var/e5/), keyed by the file's SHA-256 and
`GRAPH_VERSION`. Figures: docs/design/vectors.md, "multilingual-e5-small".

The cache is not trusted by name: the graph's own SHA-256 is stored beside it when it is built
(`<graph>.sha256`), and a graph that does not match it (truncated, replaced, or older than
the digest files) is built again, written to a temporary name and renamed. The lock is opened
without following a symlink and without truncating, and a cache folder that others may write
to is refused (E5CacheUnsafe), since whoever writes there chooses the graph that runs.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import stat
import tempfile
from pathlib import Path

import numpy as np

from ingestion.embeddings.e5 import E5Encoder, E5Weights, dequantised_layers

# Bump when the graph or the quantisation changes: a cached graph of another version is not used.
GRAPH_VERSION = 1
OPSET = 17  # LayerNormalization


class E5CacheUnsafe(RuntimeError):
    """The graph cache folder or its lock is not safe to use; the message says what to fix."""


def file_sha256(path: Path) -> str:
    """SHA-256 of a file (hex)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def weights_digest(path: Path) -> str:
    """SHA-256 of the weights file (hex, first 16 characters)."""
    return file_sha256(path)[:16]


def graph_digest_path(graph: Path) -> Path:
    """Where the graph's SHA-256 is stored when it is built."""
    return graph.with_name(graph.name + ".sha256")


def graph_verified(graph: Path) -> bool:
    """Whether `graph` is a regular file whose SHA-256 is the one stored beside it."""
    digest_file = graph_digest_path(graph)
    try:
        if not stat.S_ISREG(os.lstat(graph).st_mode) or not stat.S_ISREG(os.lstat(digest_file).st_mode):
            return False
        return digest_file.read_text(encoding="ascii").strip() == file_sha256(graph)
    except (OSError, UnicodeDecodeError):
        return False


def cache_dir_checked(cache_dir: Path) -> Path:
    """`cache_dir`, made if missing (owner-only), refused (E5CacheUnsafe) if it is not a
    folder or others may write to it."""
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = os.stat(cache_dir).st_mode
    if not stat.S_ISDIR(mode):
        raise E5CacheUnsafe(f"The E5 graph cache {cache_dir} is not a folder (E5_ONNX_CACHE_DIR).")
    if mode & stat.S_IWOTH:
        raise E5CacheUnsafe(f"The E5 graph cache {cache_dir} is writable by every user (mode {stat.filemode(mode)}): "
                            "whoever writes there chooses the graph that runs. Make it writable by its owner only "
                            f"(chmod o-w {cache_dir}) or set E5_ONNX_CACHE_DIR to another folder.")
    return cache_dir


def _lock_open(path: Path) -> int:
    """The lock file's descriptor: created if missing, never truncated, never through a symlink
    (a symlink planted there made open(..., "w") truncate the file it pointed to)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if os.path.islink(path):
            raise E5CacheUnsafe(f"The E5 graph lock {path} is a symbolic link; remove it (nothing follows it).") from exc
        raise


def encoder_graph(weights: E5Weights):
    """The fp32 ONNX model of the encoder: inputs `words` (batch, length, hidden) and `mask`
    (batch, length, 1.0 for tokens), output `pooled` (batch, hidden), the mean of the last
    hidden states over the mask (not normalised), as E5Encoder.forward returns."""
    from onnx import TensorProto, helper, numpy_helper

    h, heads, eps = weights.hidden, weights.heads, weights.eps
    head_size = h // heads
    t = weights.tensors
    initializers = []
    nodes = []

    def const(name: str, value) -> str:
        initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(op: str, inputs: list[str], output: str, **attributes) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, **attributes))
        return output

    def layer_norm(x: str, weight: np.ndarray, bias: np.ndarray, name: str) -> str:
        return node("LayerNormalization", [x, const(name + ".w", weight), const(name + ".b", bias)], name,
                    axis=-1, epsilon=eps)

    # Embeddings: word vectors + position (Gather of 0..length-1) + token type 0, then LayerNorm.
    length = node("Gather", [node("Shape", ["words"], "shape"), const("one", np.int64(1))], "length", axis=0)
    positions = node("Range", [const("zero", np.int64(0)), length, const("step", np.int64(1))], "positions")
    position = node("Gather", [const("emb.pos", t["emb.pos"].reshape(weights.max_positions, h)), positions],
                    "position", axis=0)
    x = node("Add", [node("Add", ["words", position], "words_position"), const("emb.type", t["emb.type"][:h])],
             "embedded")
    x = layer_norm(x, t["emb.ln.w"], t["emb.ln.b"], "emb.ln")
    # (1 - mask) * -1e9 over the keys, (batch, 1, 1, length), as e5.py's attention_bias.
    bias = node("Mul", [node("Sub", [const("one_f", np.float32(1.0)), "mask"], "unmasked"),
                        const("minus_big", np.float32(-1e9))], "key_bias_flat")
    bias = node("Unsqueeze", [bias, const("axes_1_2", np.array([1, 2], dtype=np.int64))], "key_bias")
    split_heads = const("split_heads", np.array([0, 0, heads, head_size], dtype=np.int64))
    merge_heads = const("merge_heads", np.array([0, 0, h], dtype=np.int64))
    thirds = const("thirds", np.array([h, h, h], dtype=np.int64))
    scale = const("scale", np.float32(1.0 / np.sqrt(head_size)))
    half, root_half, one = const("half", np.float32(0.5)), const("root_half", np.float32(0.7071067811865476)), "one_f"
    for i, lw in enumerate(dequantised_layers(weights)):
        p = f"l{i}."
        qkv = node("Add", [node("MatMul", [x, const(p + "qkv.w", lw["qkv.w"])], p + "qkv.mm"),
                           const(p + "qkv.b", lw["qkv.b"])], p + "qkv")
        nodes.append(helper.make_node("Split", [qkv, thirds], [p + "q", p + "k", p + "v"], name=p + "split", axis=-1))
        q, k, v = (node("Reshape", [p + n, split_heads], p + n + ".heads") for n in ("q", "k", "v"))
        q = node("Transpose", [q], p + "q.t", perm=[0, 2, 1, 3])
        k = node("Transpose", [k], p + "k.t", perm=[0, 2, 3, 1])
        v = node("Transpose", [v], p + "v.t", perm=[0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], p + "qk"), scale], p + "qk.scaled"), bias],
                      p + "scores")
        probabilities = node("Softmax", [scores], p + "probabilities", axis=-1)
        context = node("Transpose", [node("MatMul", [probabilities, v], p + "context.heads")], p + "context.t",
                       perm=[0, 2, 1, 3])
        context = node("Reshape", [context, merge_heads], p + "context")
        attention = node("Add", [node("MatMul", [context, const(p + "ao.w", lw["ao.w"])], p + "ao.mm"),
                                 const(p + "ao.b", lw["ao.b"])], p + "ao")
        x = layer_norm(node("Add", [attention, x], p + "ao.res"), *lw["aln"], p + "aln")
        inner = node("Add", [node("MatMul", [x, const(p + "fi.w", lw["fi.w"])], p + "fi.mm"),
                             const(p + "fi.b", lw["fi.b"])], p + "fi")
        erf = node("Erf", [node("Mul", [inner, root_half], p + "gelu.scaled")], p + "gelu.erf")
        inner = node("Mul", [node("Mul", [inner, node("Add", [erf, one], p + "gelu.1erf")], p + "gelu.x1erf"), half],
                     p + "gelu")
        out = node("Add", [node("MatMul", [inner, const(p + "fo.w", lw["fo.w"])], p + "fo.mm"),
                           const(p + "fo.b", lw["fo.b"])], p + "fo")
        x = layer_norm(node("Add", [out, x], p + "fo.res"), *lw["oln"], p + "oln")
    mask3 = node("Unsqueeze", ["mask", const("axes_2", np.array([2], dtype=np.int64))], "mask3")
    axis_1 = const("axes_1", np.array([1], dtype=np.int64))
    summed = node("ReduceSum", [node("Mul", [x, mask3], "masked"), axis_1], "summed", keepdims=0)
    node("Div", [summed, node("ReduceSum", ["mask", axis_1], "tokens", keepdims=1)], "pooled")
    graph = helper.make_graph(
        nodes, "e5-small-encoder",
        [helper.make_tensor_value_info("words", TensorProto.FLOAT, ["batch", "length", h]),
         helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["batch", "length"])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", h])],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="cms-e5")


def quantised_graph_path(weights_path: Path, cache_dir: Path, *, weights: E5Weights | None = None) -> Path:
    """The int8 graph of these weights in `cache_dir`, built and quantised if it is not there yet.

    One process builds it: the others (a worker's prefork children, starting together) wait on a
    lock beside it and then load it, instead of each building the same graph on a shared CPU
    (67.5 s to the demo's first vectors when both built, docs/design/vectors.md). Written to a
    temporary name and renamed, so a reader never sees half a file; a graph that does not match
    its stored digest is built again the same way (see the module docstring)."""
    cache_dir = cache_dir_checked(cache_dir)
    target = cache_dir / f"e5-small-{weights_digest(weights_path)}-v{GRAPH_VERSION}-int8.onnx"
    if graph_verified(target):
        return target
    lock = _lock_open(target.with_suffix(".lock"))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the descriptor closes
        if not graph_verified(target):
            _quantised_graph_build(weights_path, target, weights=weights)
    finally:
        os.close(lock)
    return target


def _quantised_graph_build(weights_path: Path, target: Path, *, weights: E5Weights | None) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        fp32 = Path(work) / "fp32.onnx"
        onnx.save(encoder_graph(weights or E5Weights(weights_path)), fp32)
        int8 = Path(work) / "int8.onnx"
        # Only MatMuls with a constant weight (not the attention's q @ k and p @ v); signed int8
        # weights, per output channel, which VNNI runs as u8 x s8.
        quantize_dynamic(fp32, int8, op_types_to_quantize=["MatMul"], per_channel=True,
                         weight_type=QuantType.QInt8, extra_options={"MatMulConstBOnly": True})
        _graph_install(int8, target, work=Path(work))


def _graph_install(built: Path, target: Path, *, work: Path) -> None:
    """Put a built graph at `target` with its digest beside it, each renamed into place (the
    digest first: a reader that meets the new digest with the old graph rebuilds under the lock,
    and finds the new graph there)."""
    digest = work / "graph.sha256"
    digest.write_text(file_sha256(built) + "\n", encoding="ascii")
    os.replace(digest, graph_digest_path(target))
    os.replace(built, target)


class E5OnnxEncoder(E5Encoder):
    """E5Encoder whose layers run as the int8 onnxruntime graph on `threads` threads."""

    def __init__(self, path: Path, *, threads: int = 1, cache_dir: Path):
        self.threads, self.cache_dir = threads, Path(cache_dir)
        super().__init__(path)

    def load_layers(self, weights: E5Weights, path: Path) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        # Threads that spin waiting for work take a shared machine's CPU from its neighbours
        # (docs/design/vectors.md: two OpenBLAS threads cost 10-20x the CPU per query under load).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        graph = quantised_graph_path(path, self.cache_dir, weights=weights)
        self.session = onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])

    def forward(self, passes: list[list[int]]) -> np.ndarray:
        # One pass per run: dynamic quantisation scales each matrix's activations by their
        # range over the whole batch, so batched with others (or padded) a text would get
        # another vector. A pass of a 500-character chunk is already a GEMM of ~130 rows.
        pooled = []
        for tokens in passes:
            words, mask = self.padded([tokens])
            pooled.append(self.session.run(["pooled"], {"words": words, "mask": mask})[0])
        return np.concatenate(pooled)
