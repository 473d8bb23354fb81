"""Generates the expectation fixtures in test/python/fixtures/ with CPython 3.11.

Usage (from the repository root):  python3 test/python/gen/gen_fixtures.py
Deterministic (fixed seed). The jest tests only read the JSON files; they never run Python.

Encodings used in the fixtures (all JSON, written with ensure_ascii so lone surrogates survive):
- a float is its IEEE-754 bits as 16 hex digits (exact, and covers nan/inf/-0.0);
- bytes are hex strings;
- Python errors are null, or {"error": "<ExceptionName>", "message": "..."} where the message matters.
"""
import hashlib
import json
import os
import random
import re
import struct
import sys
import tempfile
import unicodedata
from pathlib import Path

assert sys.version_info[:2] == (3, 11), "generate with Python 3.11"
OUT = Path("test/python/fixtures")
OUT.mkdir(parents=True, exist_ok=True)
rng = random.Random(20240611)


def bits(x):
    return struct.pack(">d", x).hex()


def unbits(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


def write(name, data):
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    (OUT / name).write_text(text + "\n")
    print(f"{name}: {len(text)} bytes")


# ---------------------------------------------------------------- every code point, as digests
BLOCK = 0x1000


def utf16(s):
    return s.encode("utf-16-le", "surrogatepass")


PER_CP = {
    "repr": lambda ch: repr(ch),
    "reprInList": lambda ch: repr([ch, ch + "'", ch + "\""]),
    "lower": lambda ch: ch.lower(),
    "strip": lambda ch: ("a" + ch).strip() + "|" + (ch + "a").strip() + "|" + ch.strip(),
    "isspace": lambda ch: "1" if ch.isspace() else "0",
    "singleDigit": lambda ch: "%d%d" % (re.match(r"^\d$", ch) is not None, re.match(r"^\d$", ch + "\n") is not None),
    "splitlines": lambda ch: "|".join(("a" + ch + "b").splitlines()) + "#" + "|".join((ch + "\n").splitlines()),
    "float": lambda ch: float_or_none(ch + "5") + "|" + float_or_none(ch) + "|" + float_or_none("5" + ch),
    "sigma": lambda ch: ("A" + ch + "\u03a3").lower() + ("A\u03a3" + ch).lower() + (ch + "\u03a3").lower(),
    "jsonDumps": lambda ch: json.dumps(ch) + json.dumps({ch: [ch]}, indent=1),
    "jsonLoads": lambda ch: json_outcome('"' + ch + '"') + json_outcome(ch),
}


def float_or_none(s):
    try:
        return bits(float(s))
    except ValueError:
        return "E"


def json_outcome(text):
    try:
        return repr(json.loads(text))
    except json.JSONDecodeError as e:
        return "E:" + str(e)


def codepoint_digests():
    out = {"block": BLOCK, "functions": {}}
    for name, fn in PER_CP.items():
        blocks = []
        total = hashlib.sha256()
        for start in range(0, 0x110000, BLOCK):
            h = hashlib.sha256()
            for c in range(start, start + BLOCK):
                h.update(utf16(fn(chr(c))))
                h.update(b"\0\0")
            d = h.hexdigest()[:16]
            blocks.append(d)
            total.update(d.encode())
        out["functions"][name] = {"total": total.hexdigest()[:16], "blocks": blocks}
    return out


# ---------------------------------------------------------------- random strings
CATEGORIES = {}
for c in range(0x110000):
    CATEGORIES.setdefault(unicodedata.category(chr(c)), []).append(c)
SPECIAL = (
    [chr(c) for c in range(0x110000) if chr(c).isspace()]
    + ["\r\n", "\u03a3", "\u0130", "'", '"', "\\", "\x00", "\x7f", "\ufeff", "\u200b", "\u0345", "\u00ad", "\u2019", "_", "."]
    + ["\ud800", "\udfff", "\U0001d7cf", "\U0001f600", "\u0667", "\uff15", "\u00b2", "e", "E", "+", "-", "inf", "nan", "1", "0"]
)


def rand_char():
    r = rng.random()
    if r < 0.3:
        return chr(rng.randrange(0x20, 0x7f))
    if r < 0.55:
        return rng.choice(SPECIAL)
    if r < 0.65:
        return chr(rng.randrange(0x80, 0x3000))
    cat = rng.choice(sorted(CATEGORIES))
    return chr(rng.choice(CATEGORIES[cat]))


# A JS string cannot tell a high surrogate code point followed by a low one (two code points in Python, which
# only arise from concatenating lone surrogates) from the astral character they encode: avoid that pair.
PAIRED = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def rand_string(maxlen=12):
    while True:
        s = "".join(rand_char() for _ in range(rng.randrange(0, maxlen + 1)))
        if not PAIRED.search(s):
            return s


def sigma_string():
    pool = ["\u03a3", "A", "a", "\u0391", "'", "\u0345", "\u00ad", " ", ".", "\U0001d400", "\u0300", "1", "\u02b0", "\u2019", "\ud800"]
    return "".join(rng.choice(pool) for _ in range(rng.randrange(1, 7)))


def string_cases():
    cases = []
    for i in range(1600):
        s = sigma_string() if i % 5 == 0 else rand_string()
        cases.append({
            "s": s,
            "repr": repr(s),
            "strip": s.strip(),
            "lower": s.lower(),
            "splitlines": s.splitlines(),
            "digit": re.match(r"^\d$", s) is not None,
        })
    return cases


# ---------------------------------------------------------------- floats
def rand_double():
    r = rng.random()
    if r < 0.08:
        return unbits("%016x" % rng.getrandbits(64))
    if r < 0.12:
        return rng.choice([1, -1]) * unbits("%016x" % rng.randrange(1, 1 << 52))  # subnormal
    if r < 0.45:
        return rng.choice([1, -1]) * rng.random() * 10 ** rng.randrange(-12, 24)
    if r < 0.6:  # ties of binary fractions
        return rng.choice([1, -1]) * rng.randrange(0, 100000) / rng.choice([2, 4, 8, 16, 32, 64, 1024])
    if r < 0.8:  # decimal-looking values: x.xx5, k/1000, k/10**n
        n = rng.randrange(1, 8)
        return float(f"{rng.choice(['', '-'])}{rng.randrange(0, 10 ** rng.randrange(1, 9))}.{rng.randrange(0, 10 ** n):0{n}d}5")
    if r < 0.9:
        return rng.randrange(-10 ** 6, 10 ** 6) / rng.choice([3, 7, 10, 100, 1000, 10000])
    return float(rng.choice([1, -1]) * rng.randrange(0, 1 << rng.randrange(1, 80)))


SPECIAL_FLOATS = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 5e-324, -5e-324, 2.2250738585072014e-308,
                  1.7976931348623157e308, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.0001234, 1e22, 1e21, 1e23,
                  0.1, 0.2, 0.3, 2.675, 1.005, 0.125, 0.375, 0.0625, 0.0005, 0.0015, 2 / 3, 1 / 3, 123456789.5, 0.5,
                  1.5, 2.5, -2.5, 1e300, 1.5e300, 2.0 ** 53, 2.0 ** 53 + 2, 2.0 ** 63, 2.0 ** 64, 4.35, 4.45, 100.0, 20.0]


def float_case(x):
    case = {"x": bits(x), "repr": repr(x)}
    try:
        case["int"] = str(int(x))
    except (ValueError, OverflowError):
        case["int"] = None
    if x != x or abs(x) < 1e40:
        case["fixed"] = [format(x, f".{d}f") for d in range(0, 4)]
        k = rng.randrange(4, 12)
        case["fixedK"] = [k, format(x, f".{k}f")]
    case["round"] = [repr(round(x, d)) for d in range(0, 4)]  # repr is exact for a float (nan aside)
    k = rng.randrange(0, 16)
    case["roundK"] = [k, repr(round(x, k))]
    return case


def float_cases():
    assert all(isinstance(x, float) for x in SPECIAL_FLOATS)
    xs = SPECIAL_FLOATS + [rand_double() for _ in range(3000)]
    return [float_case(x) for x in xs]


# ---------------------------------------------------------------- float(str)
def numberish():
    digits = "0123456789"
    r = rng.random()
    if r < 0.1:
        return rand_string(6)
    parts = []
    if rng.random() < 0.3:
        parts.append(rng.choice([" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u3000", "\u2028"]))
    if rng.random() < 0.3:
        parts.append(rng.choice("+-"))
    if rng.random() < 0.1:
        parts.append(rng.choice(["inf", "INF", "Infinity", "iNfInItY", "nan", "NaN", "infinit", "na", "in_f", "nan1"]))
    else:
        alphabet = digits * 4 + "_.eE+-,x " + "\u0661\u0662\u0966\uff15\U0001d7d0\u00b2\u2155"
        parts.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 10))))
    if rng.random() < 0.3:
        parts.append(rng.choice([" ", "\t", "\n", "\x1c", "\x85", "\u00a0", "\u205f"]))
    return "".join(parts)


def floatstr_cases():
    fixed = ["1_000", "1__0", "_1", "1_", "1e1_0", "0x10", "1,000", "", "1 2", "\u0663", "1e500", "-1e500", ".5", "5.",
             "+.5", "-.e1", "1e", "1e+", "00012", "\u0663.\u0665", "nan", "-nan", "+inf", "infinity", "\x1c1", "\x851"]
    out = []
    for s in fixed + [numberish() for _ in range(4000)]:
        try:
            v = bits(float(s))
        except ValueError:
            v = None
        out.append([s, v])
    return out


# ---------------------------------------------------------------- json
def rand_json_string():
    s = rand_string(8)
    out = ['"']
    for ch in s:
        c = ord(ch)
        r = rng.random()
        if ch == '"' or ch == "\\" or c < 0x20:
            if r < 0.5 and ch in '"\\\b\f\n\r\t':
                out.append(json.dumps(ch)[1:-1])
            else:
                out.append("\\u%04x" % c if r < 0.8 else "\\u%04X" % c)
        elif r < 0.1 and c > 0xffff:
            hi, lo = divmod(c - 0x10000, 0x400)
            out.append("\\u%04x\\u%04x" % (0xd800 + hi, 0xdc00 + lo))
        elif r < 0.15 and c <= 0xffff:
            out.append("\\u%04x" % c)
        elif r < 0.17:
            out.append("\\/" if ch == "/" else ch)
        else:
            out.append(ch)
    if rng.random() < 0.05:
        out.append(rng.choice(["\\ud800", "\\udc00", "\\ud83d\\ude00", "\\ud83d\\u0041", "\\ud83d\\ud83d\\ude00"]))
    out.append('"')
    return "".join(out)


def rand_number():
    r = rng.random()
    sign = "-" if rng.random() < 0.3 else ""
    if r < 0.3:
        return sign + str(rng.randrange(0, 1000))
    if r < 0.45:
        return sign + str(rng.randrange(10 ** 15, 10 ** rng.randrange(16, 40)))
    if r < 0.6:
        return sign + f"{rng.randrange(0, 10 ** 6)}.{rng.randrange(0, 10 ** 4)}"
    if r < 0.75:
        e = rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + str(rng.randrange(0, 400))
        return sign + str(rng.randrange(0, 100)) + rng.choice(["", ".5", ".0"]) + e
    return rng.choice(["0", "-0", "0.0", "-0.0", "1.0", "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
                       "9007199254740993", "-9007199254740993", "9007199254740991", "1e-400", "123.456e2"])


def ws():
    return "".join(rng.choice([" ", "\t", "\n", "\r"]) for _ in range(rng.choice([0, 0, 0, 1, 2])))


def rand_json(depth=0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return rng.choice([rand_json_string, rand_number, lambda: rng.choice(["true", "false", "null"])])()
    if r < 0.72:
        items = [ws() + rand_json(depth + 1) + ws() for _ in range(rng.randrange(0, 4))]
        return "[" + ",".join(items) + ("" if items else ws()) + "]"
    keys = [rand_json_string() for _ in range(rng.randrange(0, 4))]
    if keys and rng.random() < 0.3:
        keys.append(rng.choice(keys))  # duplicate key
    items = [ws() + k + ws() + ":" + ws() + rand_json(depth + 1) + ws() for k in keys]
    return "{" + ",".join(items) + ("" if items else ws()) + "}"


def mutate(t):
    r = rng.random()
    i = rng.randrange(0, len(t) + 1)
    if r < 0.25 and t:
        return t[:i] + t[i + 1:]
    if r < 0.5:
        return t[:i] + rng.choice(list(',:[]{}"\\\'x0-. \x01\t\u00a0\ufeff') + ["\\u", "\\x", "tru", "NaN", "1e"]) + t[i:]
    if r < 0.65:
        return t[:i]
    if r < 0.75:
        return t.replace('"', "'", 1)
    if r < 0.85:
        return t + rng.choice([",", " x", " 1", "]", "\n\n", "  "])
    return rng.choice(["\ufeff", " ", "\u00a0", "\x0b", "[", "{\"a\":"]) + t


def has_paired_surrogates(v):
    """A raw lone surrogate next to an escaped one: two code points for Python, one character for JS (see PAIRED)."""
    if isinstance(v, str):
        return PAIRED.search(v) is not None
    if isinstance(v, list):
        return any(has_paired_surrogates(x) for x in v)
    if isinstance(v, dict):
        return any(has_paired_surrogates(k) or has_paired_surrogates(x) for k, x in v.items())
    return False


def json_case(t):
    case = {"text": t}
    try:
        v = json.loads(t)
    except json.JSONDecodeError as e:
        case["error"] = "JSONDecodeError"
        case["message"] = str(e)
        return case
    except (ValueError, RecursionError) as e:
        case["error"] = type(e).__name__
        return case
    if has_paired_surrogates(v):
        return None
    case["repr"] = repr(v)
    case["dumps"] = json.dumps(v)
    if isinstance(v, (list, dict)) and rng.random() < 0.5:
        case["dumps2"] = json.dumps(v, indent=2)
    return case


def json_cases():
    fixed = ["", " ", "\ufeff1", "[1,]", "{\"a\":1,}", "'a'", "01", "1.", "-", "[1e]", "NaN", "-NaN", "-Infinity",
             "{\"a\":1,\"b\":2,\"a\":3}", "\"\\ud800\"", "\"\\ud800\\udc00\"", "\"\\ud800\\u12\"", "\"\\u12\"", "\"\\u12",
             "\"\t\"", "\"\x7f\"", "1" * 4300, "1" * 4301, "-" + "1" * 4301, "[" * 50 + "]" * 50, "\"\U0001f600\"x",
             "\U0001f600\n\U0001f600 x", "[1,\n2,\n\U0001f600]", "{\"a\"\n:\n\"\\q\"}", "[\"\U0001f600\", \"\\x\"]"]
    texts = fixed + [rand_json() for _ in range(1100)]
    texts += [mutate(rand_json()) for _ in range(1100)]
    return [c for c in map(json_case, texts) if c is not None]


# ---------------------------------------------------------------- Path.read_text()
def read_text_cases():
    chunks = [b"a", b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf", "\u00e9".encode(), "\U0001f600".encode(), "\u2028".encode(),
              b"\xed\xa0\x80", b"\xc0\xaf", b"\xff", b"\xe2\x82", b"\x80", b"\xf4\x90\x80\x80", b"\x00", b"\x85", b" "]
    out = []
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "f.txt"
        for _ in range(600):
            data = b"".join(rng.choice(chunks) if rng.random() < 0.7 else bytes([rng.randrange(0x20, 0x7f)])
                            for _ in range(rng.randrange(0, 12)))
            if rng.random() < 0.5:  # mostly valid
                data = data.decode("utf-8", "ignore").encode("utf-8")
            p.write_bytes(data)
            try:
                text = p.read_text()
            except UnicodeDecodeError:
                text = None
            out.append([data.hex(), text])
    return out


if __name__ == "__main__":
    assert __import__("locale").getpreferredencoding(False).lower() in ("utf-8", "utf8"), "run under a UTF-8 locale"
    write("strings.json", string_cases())
    write("floats.json", float_cases())
    write("floatstr.json", floatstr_cases())
    write("json.json", json_cases())
    write("readtext.json", read_text_cases())
    write("codepoints.json", codepoint_digests())
