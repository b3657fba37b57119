"""Bech32 (BIP 173), enough for uAgents addresses (`agent1…`) and signatures (`sig1…`)."""

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
GENERATORS = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]


def _polymod(values):
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i, generator in enumerate(GENERATORS):
            checksum ^= generator if (top >> i) & 1 else 0
    return checksum


def _expand(hrp):
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convert(data, from_bits, to_bits, pad):
    acc, bits, out, maxv = 0, 0, [], (1 << to_bits) - 1
    for value in data:
        if value < 0 or value >> from_bits:
            raise ValueError("value out of range")
        acc = (acc << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((acc >> bits) & maxv)
    if pad and bits:
        out.append((acc << (to_bits - bits)) & maxv)
    elif not pad and (bits >= from_bits or (acc << (to_bits - bits)) & maxv):
        raise ValueError("invalid padding")
    return out


def encode(hrp: str, data: bytes) -> str:
    words = _convert(data, 8, 5, True)
    checksum = _polymod(_expand(hrp) + words + [0] * 6) ^ 1
    words += [(checksum >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(CHARSET[w] for w in words)


def decode(text: str) -> tuple[str, bytes]:
    if text.lower() != text and text.upper() != text:
        raise ValueError("mixed case")
    text = text.lower()
    hrp, _, rest = text.rpartition("1")
    if not hrp or len(rest) < 6 or any(c not in CHARSET for c in rest):
        raise ValueError("not bech32")
    words = [CHARSET.index(c) for c in rest]
    if _polymod(_expand(hrp) + words) != 1:
        raise ValueError("bad checksum")
    return hrp, bytes(_convert(words[:-6], 5, 8, False))
