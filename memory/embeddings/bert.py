"""A BERT encoder on numpy, for all-MiniLM-L6-v2's int8 weights (issue 18).

The architecture of Devlin et al. 2019 ("BERT", NAACL) as Hugging Face's ``BertModel``
computes it and the model's ONNX export encodes it: word + position + token-type
embeddings, layer norm (ε = 1e-12), then per layer multi-head self-attention (scaled dot
product, padded keys masked out), a residual layer norm, a feed-forward block with the
exact (erf) GELU, and a residual layer norm. Weights are stored int8 with one float scale per
output column (weight-only quantisation: ``w = q · scale``); the arithmetic is float32, as
in the export. The matrices are bound to their roles through the graph (the ``MatMul`` whose
output meets each layer's named bias), not by file order.

Why not onnxruntime: it would add ≈100 MB (with ``protobuf`` and ``flatbuffers``) to a
default install bound to 400 MB; this is the one computation Penchant needs from it.
``tests/unit/test_minilm_int8.py`` checks it against onnxruntime (the test extra) on a corpus.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .onnx_weights import Node, OnnxFormatError

LAYER_NORM_EPS = 1e-12
"""BERT's layer-norm epsilon (the export's ``LayerNormalization`` attribute)."""

_ROLES = (
    "attention.self.query", "attention.self.key", "attention.self.value",
    "attention.output.dense", "intermediate.dense", "output.dense",
)  # fmt: skip


_ERF_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027,
                                        1.061405429))  # fmt: skip
_ERF_P = np.float32(0.3275911)
_SQRT_HALF = np.float32(1.0 / math.sqrt(2.0))


def erf(x: np.ndarray) -> np.ndarray:
    """Error function, elementwise: Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7,
    under float32's resolution near 1; numpy has no ``erf``)."""
    a = np.abs(x)
    t = a * _ERF_P
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * _ERF_A[4]
    for coefficient in (_ERF_A[3], _ERF_A[2], _ERF_A[1], _ERF_A[0]):  # Horner, in place
        poly += coefficient
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(1.0, poly, out=poly)
    return np.copysign(poly, x, out=poly)  # erf(-x) = -erf(x); erf(±0) = ±0


def gelu(x: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    """The exact GELU, ``x · Φ(x)`` (Hendrycks & Gimpel 2016), as BERT uses it; with
    ``inplace`` it overwrites ``x`` (the encoder's temporaries: no copy per layer)."""
    phi = erf(x * _SQRT_HALF)
    phi += 1.0
    phi *= 0.5
    if inplace:
        x *= phi
        return x
    return np.asarray(x * phi, x.dtype)


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Normalise the last axis to zero mean and unit variance, then scale and shift; a
    float32 ``x`` is overwritten (the encoder's temporaries) and returned."""
    x = x if x.dtype == np.float32 and x.flags.writeable else x.astype(np.float32)
    x -= x.mean(axis=-1, keepdims=True)
    std = np.square(x).mean(axis=-1, keepdims=True)
    std += LAYER_NORM_EPS
    np.sqrt(std, out=std)
    x /= std
    x *= weight
    x += bias
    return x


@dataclass(frozen=True)
class _Layer:
    qkv: tuple[np.ndarray, np.ndarray]  # query, key and value side by side: one product
    attention_out: tuple[np.ndarray, np.ndarray]
    attention_norm: tuple[np.ndarray, np.ndarray]
    intermediate: tuple[np.ndarray, np.ndarray]
    out: tuple[np.ndarray, np.ndarray]
    out_norm: tuple[np.ndarray, np.ndarray]


class BertEncoder:
    """The encoder of a BERT export with int8 weight-only quantisation.

    Args:
        tensors: The graph's initializers (:func:`~.onnx_weights.read_graph`).
        nodes: The graph's nodes.
        prefix: Name prefix of the model's tensors (``"inner."`` in the MiniLM export).
        heads: Attention heads (12 for all-MiniLM-L6-v2).

    Raises:
        OnnxFormatError: A tensor or a layer's matrix is missing or misshapen.
    """

    def __init__(
        self,
        tensors: Mapping[str, np.ndarray],
        nodes: Sequence[Node],
        prefix: str = "inner.",
        heads: int = 12,
    ) -> None:
        self.heads = heads

        def take(name: str) -> np.ndarray:
            found = tensors.get(name)
            if found is None:
                raise OnnxFormatError(f"the model has no tensor {name!r}")
            return np.asarray(found, dtype=np.float32)

        emb = f"{prefix}embeddings."
        word_q = tensors.get(f"{emb}word_embeddings.weight_q")
        word_scale = tensors.get(f"{emb}word_embeddings.weight_scale")
        if word_q is None or word_scale is None:
            raise OnnxFormatError("the model has no int8 word embeddings")
        self.word_q: np.ndarray = word_q
        self.word_scale: np.ndarray = np.asarray(word_scale, dtype=np.float32)
        self.position = take(f"{emb}position_embeddings.weight_q") * take(
            f"{emb}position_embeddings.weight_scale"
        )
        self.token_type = take(f"{emb}token_type_embeddings.weight")
        self.norm = (take(f"{emb}LayerNorm.weight"), take(f"{emb}LayerNorm.bias"))
        matrices = _matrices_by_bias(tensors, nodes)
        self.layers: list[_Layer] = []
        index = 0
        while f"{prefix}encoder.layer.{index}.output.dense.bias" in tensors:
            base = f"{prefix}encoder.layer.{index}."

            def linear(role: str, base: str = base) -> tuple[np.ndarray, np.ndarray]:
                bias = f"{base}{role}.bias"
                if bias not in matrices:
                    raise OnnxFormatError(f"no matrix meets {bias!r} in the graph")
                return matrices[bias], take(bias)

            def norm(name: str, base: str = base) -> tuple[np.ndarray, np.ndarray]:
                return take(f"{base}{name}.weight"), take(f"{base}{name}.bias")

            q, k, v, o, i, out = (linear(role) for role in _ROLES)
            qkv = (np.ascontiguousarray(np.concatenate([q[0], k[0], v[0]], axis=1)),
                   np.concatenate([q[1], k[1], v[1]]))  # fmt: skip
            self.layers.append(_Layer(qkv, o, norm("attention.output.LayerNorm"), i, out,
                                      norm("output.LayerNorm")))  # fmt: skip
            index += 1
        if not self.layers:
            raise OnnxFormatError("the model has no encoder layers")
        self.dim = int(self.token_type.shape[1])
        if self.dim % heads:
            raise OnnxFormatError(f"width {self.dim} does not split into {heads} heads")

    @property
    def max_positions(self) -> int:
        """Longest input the position table covers (512)."""
        return int(self.position.shape[0])

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden states.

        Args:
            ids: ``int64[batch, length]`` token ids.
            mask: ``int64[batch, length]``, 1 for tokens, 0 for padding.

        Returns:
            ``float32[batch, length, dim]``.
        """
        batch, length = ids.shape
        word = self.word_q[ids].astype(np.float32) * self.word_scale[ids]
        x = layer_norm(word + self.position[:length] + self.token_type[0], *self.norm)
        # Rows of all texts in one matrix: numpy's matmul runs a (batch, length, dim) array
        # against a weight matrix as one BLAS call per text, each streaming the matrix
        # again; as (batch · length, dim) it is one call (a batch of 32 runs ≈35% faster).
        x = x.reshape(batch * length, self.dim)
        heads, width = self.heads, self.dim // self.heads
        blocked = None  # a batch without padding masks nothing (one query never has any)
        if not mask.all():
            blocked = np.where(mask[:, None, None, :] > 0, 0.0, -1e30).astype(np.float32)
        scale = np.float32(1.0 / math.sqrt(width))
        for layer in self.layers:
            qkv = x @ layer.qkv[0]
            qkv += layer.qkv[1]
            q, k, v = qkv.reshape(batch, length, 3, heads, width).transpose(2, 0, 3, 1, 4)
            scores = q @ k.transpose(0, 1, 3, 2)
            scores *= scale
            if blocked is not None:
                scores += blocked
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, self.dim)
            attended = context @ layer.attention_out[0]
            attended += layer.attention_out[1]
            attended += x
            x = layer_norm(attended, *layer.attention_norm)
            hidden = x @ layer.intermediate[0]
            hidden += layer.intermediate[1]
            out = gelu(hidden, inplace=True) @ layer.out[0]
            out += layer.out[1]
            out += x
            x = layer_norm(out, *layer.out_norm)
        return x.reshape(batch, length, self.dim)


def _matrices_by_bias(
    tensors: Mapping[str, np.ndarray], nodes: Sequence[Node]
) -> dict[str, np.ndarray]:
    """Bias name → the dequantised matrix of the ``MatMul`` whose output is added to it.

    The export computes ``y = x @ W + b`` as ``MatMul(x, W)`` then ``Add(·, b)``, with ``W``
    made by ``Mul(Cast(W_q), W_scale)``; the matrix is rebuilt here as ``W_q · W_scale``.
    """
    made_by = {out: node for node in nodes for out in node.outputs}
    found: dict[str, np.ndarray] = {}
    for node in nodes:
        if node.op_type != "Add" or len(node.inputs) != 2:
            continue
        bias = next((i for i in node.inputs if i.endswith(".bias") and i in tensors), None)
        other = node.inputs[0] if node.inputs[1] == bias else node.inputs[1]
        matmul = made_by.get(other)
        if bias is None or matmul is None or matmul.op_type != "MatMul":
            continue
        weight = matmul.inputs[1]
        quantised, scale = tensors.get(f"{weight}_q"), tensors.get(f"{weight}_scale")
        if quantised is not None and scale is not None:
            found[bias] = (quantised.astype(np.float32) * scale).astype(np.float32)
        elif weight in tensors:
            found[bias] = np.asarray(tensors[weight], dtype=np.float32)
    return found


__all__ = ["BertEncoder", "LAYER_NORM_EPS", "erf", "gelu", "layer_norm"]
