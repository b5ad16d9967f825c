"""The initializers (weights) of an ONNX file, read without the ``onnx`` package.

An ONNX model is a Protocol Buffers message (``onnx.proto``: ``ModelProto.graph`` = field 7,
``GraphProto.node`` = field 1 and ``initializer`` = field 5, ``NodeProto`` fields ``input`` = 1,
``output`` = 2, ``op_type`` = 4, ``TensorProto`` fields ``dims`` = 1, ``data_type`` = 2,
``name`` = 8, ``raw_data`` = 9). Only what :mod:`.bert` needs is read: tensors stored as
``raw_data`` (little-endian, as ONNX specifies) of the types below. The wire format is
protobuf's (varints, length-delimited fields; https://protobuf.dev/programming-guides/encoding/).
It is read here because ``onnx`` and ``onnxruntime`` would add ≈100 MB to an install bound to
400 MB (issue 18); ``tests/unit/test_minilm_int8.py`` checks the model against onnxruntime when the
test extra has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

_DTYPES = {1: np.float32, 3: np.int8, 7: np.int64, 9: np.bool_}
"""``TensorProto.DataType`` codes read: FLOAT, INT8, INT64, BOOL."""


class OnnxFormatError(ValueError):
    """The file is not an ONNX model this reader understands."""


def _varint(buf: memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise OnnxFormatError("truncated varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise OnnxFormatError("varint longer than 64 bits")


def _fields(buf: memoryview) -> list[tuple[int, int, int | memoryview]]:
    """``(field number, wire type, value)`` of one message, in order (groups refused)."""
    out: list[tuple[int, int, int | memoryview]] = []
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            out.append((field, wire, value))
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > len(buf):
                raise OnnxFormatError("truncated field")
            out.append((field, wire, buf[pos : pos + size]))
            pos += size
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            out.append((field, wire, int.from_bytes(buf[pos : pos + width], "little")))
            pos += width
        else:
            raise OnnxFormatError(f"unsupported wire type {wire}")
    return out


def _tensor(buf: memoryview) -> tuple[str, np.ndarray | None]:
    dims: list[int] = []
    dtype = name = None
    raw: memoryview | None = None
    for field, wire, value in _fields(buf):
        if field == 1 and wire == 0 and isinstance(value, int):
            dims.append(value)
        elif field == 1 and wire == 2 and isinstance(value, memoryview):  # packed dims
            pos = 0
            while pos < len(value):
                dim, pos = _varint(value, pos)
                dims.append(dim)
        elif field == 2 and isinstance(value, int):
            dtype = value
        elif field == 8 and isinstance(value, memoryview):
            name = bytes(value).decode("utf-8")
        elif field == 9 and isinstance(value, memoryview):
            raw = value
    if name is None:
        raise OnnxFormatError("an initializer without a name")
    if raw is None or dtype not in _DTYPES:
        return name, None
    array = np.frombuffer(raw, dtype=np.dtype(_DTYPES[dtype]).newbyteorder("<"))
    return name, array.reshape(dims).astype(_DTYPES[dtype])


@dataclass(frozen=True)
class Node:
    """One ``NodeProto``: its operator and the names of its inputs and outputs."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


def _node(buf: memoryview) -> Node:
    inputs: list[str] = []
    outputs: list[str] = []
    op_type = ""
    for field, wire, value in _fields(buf):
        if field not in (1, 2, 4) or wire != 2 or not isinstance(value, memoryview):
            continue
        text = bytes(value).decode("utf-8")
        if field == 1:
            inputs.append(text)
        elif field == 2:
            outputs.append(text)
        elif field == 4:
            op_type = text
    return Node(op_type, tuple(inputs), tuple(outputs))


def read_graph(path: Path) -> tuple[dict[str, np.ndarray], list[Node]]:
    """The initializers and nodes of an ONNX file's graph.

    Args:
        path: An ``.onnx`` file.

    Returns:
        ``(name → array, nodes)``: every initializer stored as ``raw_data`` of a supported
        type, in native byte order (others are left out), and the nodes in graph order.

    Raises:
        OnnxFormatError: The file is not a well-formed ONNX model with a graph.
        OSError: The file cannot be read.
    """
    data = memoryview(Path(path).read_bytes())
    try:
        graphs = [v for f, w, v in _fields(data) if f == 7 and w == 2]
        if not graphs or not isinstance(graphs[0], memoryview):
            raise OnnxFormatError(f"{path} holds no ONNX graph")
        tensors: dict[str, np.ndarray] = {}
        nodes: list[Node] = []
        for field, wire, value in _fields(graphs[0]):
            if wire != 2 or not isinstance(value, memoryview):
                continue
            if field == 5:
                name, array = _tensor(value)
                if array is not None:
                    tensors[name] = array
            elif field == 1:
                nodes.append(_node(value))
    except OnnxFormatError:
        raise
    except (ValueError, OverflowError, MemoryError) as exc:  # UnicodeDecodeError included
        raise OnnxFormatError(f"{path} is not a well-formed ONNX model: {exc}") from exc
    return tensors, nodes


__all__ = ["Node", "OnnxFormatError", "read_graph"]
