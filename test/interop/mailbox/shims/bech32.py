"""The `bech32` package's API (bech32_encode, bech32_decode, convertbits), which uagents_core.identity imports.

Debian has no python3-bech32; this keeps the package's names and returns (None on a bad string, as it does)
over BIP 173 as test/interop/bech32.py implements it.
"""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_bip173", os.path.join(os.path.dirname(__file__), "..", "..", "bech32.py"))
_bip173 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bip173)


def convertbits(data, frombits, tobits, pad=True):
    try:
        return _bip173._convert(data, frombits, tobits, pad)
    except ValueError:
        return None


def bech32_encode(hrp, data):
    checksum = _bip173._polymod(_bip173._expand(hrp) + list(data) + [0] * 6) ^ 1
    words = list(data) + [(checksum >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_bip173.CHARSET[w] for w in words)


def bech32_decode(bech):
    if bech.lower() != bech and bech.upper() != bech:
        return (None, None)
    bech = bech.lower()
    hrp, _, rest = bech.rpartition("1")
    if not hrp or len(rest) < 6 or any(c not in _bip173.CHARSET for c in rest):
        return (None, None)
    words = [_bip173.CHARSET.index(c) for c in rest]
    if _bip173._polymod(_bip173._expand(hrp) + words) != 1:
        return (None, None)
    return (hrp, words[:-6])
