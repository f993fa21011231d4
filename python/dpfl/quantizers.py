"""dpfl.quantizers — dpfl's production encoders on tensors, without copies (docs/python.md).

    q = dpfl.quantizers.LDPQ(eps=1.0, c=0.0, r=1.0)
    msg = q.encode(weights, key=7)        # weights: float32 torch CPU tensor or numpy array
    msg.bits                              # packed bits, uint8 (same layout as the C++ message)
    msg.decode()                          # the released values, same shape and kind as weights

The encoder reads the caller's memory in place: a C-contiguous float32 numpy array through the
buffer protocol, a torch CPU tensor through `tensor.numpy()` (which shares its memory); anything
else raises TypeError instead of being copied silently. Keys: an int seed expanded as `dpfl sample
--seed` does, or 32 bytes. The same key, stream address (round, client, pair) and generator give
the same bits as the C++ encoder. `threads` splits the work as in C++; the bits do not depend on it.
"""
import operator
import sys

from . import _dpfl

__all__ = ["LDPQ", "CorBinQ", "CoQ", "RandomizedResponse", "StoSign", "QuantizedGaussian", "CEPAM", "Message"]


def _buffer(x):
    """(a float32 view of x's own memory, a function that wraps a flat float32 array like x)."""
    torch = sys.modules.get("torch")  # a tensor implies torch is imported; subclasses count
    if torch is not None and isinstance(x, torch.Tensor):
        if x.device.type != "cpu" or x.dtype != torch.float32:
            raise TypeError("x: expected a float32 CPU tensor (use .float().cpu(): a copy, made by you)")
        if not x.is_contiguous():
            raise TypeError("x: expected a contiguous tensor (use .contiguous(): a copy, made by you)")
        try:
            view = x.detach().numpy()  # shares memory
        except RuntimeError as e:  # e.g. a conjugate or negative view
            raise TypeError(f"x: this tensor cannot be read in place ({e}); pass a plain tensor") from None
        shape = tuple(x.shape)  # the shape at encode time: x may be resized or replaced later
        return view, (lambda flat: torch.from_numpy(flat).reshape(shape))
    if hasattr(x, "__array_interface__") or hasattr(x, "__buffer__") or isinstance(x, memoryview):
        shape = getattr(x, "shape", None)
        return x, (lambda flat: flat.reshape(shape) if shape is not None else flat)
    raise TypeError(f"x: expected a numpy float32 array or a torch float32 CPU tensor, got {type(x).__name__}")


class Message:
    """One encoded message: `.bits` (uint8, packed little-endian, ceil(m/8) bytes), `.decode()`."""

    def __init__(self, raw, decode, wrap):
        self._raw, self._decode, self._wrap = raw, decode, wrap

    @property
    def bits(self):
        return self._raw.bits

    @property
    def size(self):
        return self._raw.size

    @property
    def source_address(self):
        """The address of the memory the encoder read (the caller's tensor: no copy)."""
        return self._raw.source_address

    def decode(self):
        return self._wrap(self._decode(self._raw))


def _integer(name, v, lo, hi, hi_text):
    """v as a Python int (ints and integer types such as numpy.int64; not bool) in [lo, hi]."""
    if isinstance(v, bool):
        raise TypeError(f"{name}: expected an integer, got bool")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(v).__name__}") from None
    if not lo <= i <= hi:
        raise ValueError(f"{name}: must be an integer in [{lo}, {hi_text}], got {i}")
    return i


def _check_index(name, v):
    return _integer(name, v, 0, 2 ** 32 - 1, "2^32 - 1")


def _threads(v):
    return _integer("threads", v, 1, 256, "256")  # the C++ encoders' bound


class _BinaryQuantizer:
    _kind = 0

    def __init__(self, eps, c, r, d=0, px=0.5):
        self._q = _dpfl.quantizers.Binary(float(eps), float(c), float(r))
        self._d, self._px = _integer("d", d, 0, 62, "62"), float(px)
        if self._px != 0.5:  # checked here, not at the first encode
            raise ValueError(f"px: the production CoQ-FL path supports the codebook bias p_x = 1/2 only, got {px!r}")

    @property
    def alpha(self):
        return self._q.alpha

    def encode(self, x, key, round=0, client=0, pair=0, role="q1", threads=1, generator="chacha20"):
        if role not in ("q1", "q2", "alice", "bob"):
            raise ValueError(f"role: must be 'q1'/'alice' or 'q2'/'bob', got {role!r}")
        view, wrap = _buffer(x)
        raw = self._q.encode(self._kind, view, key, _check_index("round", round), _check_index("client", client),
                             _check_index("pair", pair), self._d, 0 if role in ("q1", "alice") else 1, self._px,
                             generator, _threads(threads))
        return Message(raw, self._q.decode, wrap)


class LDPQ(_BinaryQuantizer):
    """LDPQ (seed-000 Alg. 1): c + r*alpha w.p. 1/2 + (w - c)/(2 r alpha), after the clip."""
    _kind = 0

    def __init__(self, eps, c, r):
        super().__init__(eps, c, r)


class CorBinQ(_BinaryQuantizer):
    """CorBinQ (seed-000 Alg. 2, E3 corrected), one client of pair `pair` in role q1 or q2; both
    clients pass the pair's shared key (the simulation form: one key for both streams)."""
    _kind = 1

    def __init__(self, eps, c, r, d):
        super().__init__(eps, c, r, d=d)


class CoQ(_BinaryQuantizer):
    """CoQ-FL (seed 001), Alice (role 'alice') or Bob ('bob') of pair `pair`."""
    _kind = 2

    def __init__(self, eps, c, r, d, px=0.5):
        super().__init__(eps, c, r, d=d, px=px)


class _Bnn:
    def __init__(self, stochastic, gamma, mode):
        self._q = _dpfl.quantizers.Bnn(stochastic, float(gamma))
        self._mode = mode

    def encode(self, x, key, round=0, client=0, threads=1, generator="chacha20"):
        view, wrap = _buffer(x)
        raw = self._q.encode(self._mode, view, key, _check_index("round", round), _check_index("client", client),
                             generator, _threads(threads))
        return Message(raw, _dpfl.quantizers.Bnn.decode, wrap)


class RandomizedResponse(_Bnn):
    """RR (seed-004 Alg. C) of the signs of x: keep w.p. 1/2 + rr_gamma."""

    def __init__(self, rr_gamma):
        super().__init__(False, rr_gamma, 1)


class StoSign(_Bnn):
    """StoSign (seed-004 Alg. B, hard sigmoid); with rr_gamma, the client upload RR(StoSign(x))."""

    def __init__(self, rr_gamma=None):
        super().__init__(True, 0.5 if rr_gamma is None else rr_gamma, 0 if rr_gamma is None else 2)


class QuantizedGaussian:
    """The quantized Gaussian of seed 003 (Alg. 2): the vector l2-clipped to clip/2, exact discrete
    Gaussian noise of std sigma on a fine grid (implemented_sigma >= sigma), stochastic rounding to
    `levels` levels on [-clip, clip]. `.bits` are the packed level indices."""

    def __init__(self, sigma, levels, clip):
        levels = _integer("levels", levels, 0, 2 ** 32 - 1, "2^32 - 1")  # the library checks [2, 2^16]
        self._q = _dpfl.quantizers.Qgauss(float(sigma), levels, float(clip))

    @property
    def implemented_sigma(self):
        return self._q.implemented_sigma

    def encode(self, x, key, round=0, client=0, threads=1, generator="chacha20"):
        view, wrap = _buffer(x)
        raw = self._q.encode(view, key, _check_index("round", round), _check_index("client", client), generator,
                             _threads(threads))
        return Message(raw, self._q.decode, wrap)


class CEPAM:
    """CEPAM / layered RSUQ (seed 002): blocks of `lattice_dim` coordinates, the error of each block
    exactly N(0, sigma^2 I) (noise='gaussian') or Lap(b) (noise='laplace'); `clip` is gamma."""

    def __init__(self, noise, lattice_dim, sigma=None, b=None, c=1.0, clip=1.0):
        if (noise == "gaussian") == (sigma is None) or (noise == "laplace") == (b is None):
            raise ValueError("give sigma for noise='gaussian', b for noise='laplace'")
        scale = sigma if noise == "gaussian" else b
        lattice_dim = _integer("lattice_dim", lattice_dim, 0, 2 ** 31 - 1, "2^31 - 1")  # the library checks its range
        self._q = _dpfl.quantizers.Cepam(noise, lattice_dim, float(scale), float(c), float(clip))

    def encode(self, x, key, round=0, client=0, generator="chacha20"):
        view, wrap = _buffer(x)
        raw = self._q.encode(view, key, _check_index("round", round), _check_index("client", client), generator)
        return Message(raw, self._q.decode, wrap)
