"""TwinRack: Siamese Mah Jongg."""

import os as _os

__version__ = "0.1.0"

#: which card analysis runs (card/kernel.py): ``numpy`` for the numpy code alone, anything
#: else (``numba``, unset) for the compiled kernel when numba is installed. Read here, once,
#: so that the rules core itself reads no environment; both give the same answers.
KERNEL_SETTING = _os.environ.get("TWINRACK_KERNEL", "").strip().lower()
