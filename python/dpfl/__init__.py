"""dpfl for Python: the conformance check and the PLD accountant of dpfl's C++ core.

    import dpfl
    dpfl.__version__
    dpfl.check.ldpq(my_quantizer, eps=1, c=0, r=1)      # docs/check.md
    dpfl.accounting.PLDAccountant().compose(event, 100).get_epsilon(1e-5)

Built from this repository (docs/python.md); the extension module is dpfl._dpfl.
"""
from . import _dpfl
from . import accounting, certificate, check, quantizers

__version__ = _dpfl.__version__
__all__ = ["accounting", "certificate", "check", "quantizers", "__version__"]
