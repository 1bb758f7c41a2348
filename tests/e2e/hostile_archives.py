"""Hostile wheels and sdists, written at test time with zipfile and tarfile (no binary fixtures in the
repository): each must be refused by `errdex index FILE` with a one-line error, in bounded time and memory
(docs/environments.md, "Wheels and source archives"). Used by tests/e2e/run_artifacts.py and
fuzz/make_archive_seeds.py.

write_all(DIR, big=True) -> [(file name, words the refusal must contain)]."""

import io
import os
import struct
import tarfile
import zipfile

METADATA = b"Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n"


class _Filler:
    """SIZE bytes of BYTE, read in pieces (never held in memory at once)."""

    def __init__(self, size, byte=b"\0"):
        self.left = size
        self.byte = byte

    def read(self, n=-1):
        n = self.left if n is None or n < 0 else min(n, self.left)
        self.left -= n
        return self.byte * n


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _zip(path, members, compression=zipfile.ZIP_DEFLATED):
    """MEMBERS: [(name, bytes or _Filler) or (ZipInfo, bytes)]."""
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in members:
            if isinstance(data, _Filler):
                with z.open(name, "w") as f:
                    while True:
                        piece = data.read(1 << 20)
                        if not piece:
                            break
                        f.write(piece)
            else:
                z.writestr(name, data)


def _tgz(path, members):
    """MEMBERS: [(TarInfo, bytes or None)]."""
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as t:
        for info, data in members:
            if isinstance(data, _Filler):
                info.size = data.left
                t.addfile(info, data)
            else:
                if data is not None:
                    info.size = len(data)
                t.addfile(info, io.BytesIO(data) if data is not None else None)


def _tar_info(name, kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    return info


def _lie_about_sizes(path, size, prefix):
    """Rewrites the uncompressed size of the members whose name starts with PREFIX (local headers and the
    central directory) to SIZE."""
    data = bytearray(_read(path))
    for signature, size_at, name_length_at, name_at in ((b"PK\x01\x02", 24, 28, 46), (b"PK\x03\x04", 22, 26, 30)):
        at = data.find(signature)
        while at >= 0:
            length = struct.unpack_from("<H", data, at + name_length_at)[0]
            if bytes(data[at + name_at:at + name_at + length]).startswith(prefix):
                struct.pack_into("<I", data, at + size_at, size)
            at = data.find(signature, at + 4)
    _write(path, bytes(data))


def _symlink_info(name):
    info = zipfile.ZipInfo(name)
    info.external_attr = (0o120777 << 16)
    info.create_system = 3  # Unix: the mode in external_attr counts
    return info


def write_all(out, big=True):
    cases = []

    def add(name, words):
        cases.append((name, words))
        return os.path.join(out, name)

    meta = ("evil-1.0.dist-info/METADATA", METADATA)
    # A deflate bomb: members that say they are 1 byte and inflate to 64 MiB each (a ratio near 1000).
    if big:
        path = add("bomb-1.0-py3-none-any.whl", "times its own size")
        _zip(path, [meta] + [(f"evil/z{i}.py", _Filler(64 << 20)) for i in range(8)])
        _lie_about_sizes(path, 1, b"evil/z")
    # The same with honest sizes: one member larger than the per-member limit.
    if big:
        path = add("huge-1.0-py3-none-any.whl", "larger than")
        _zip(path, [meta, ("evil/huge.py", _Filler(257 << 20, b"#"))])
    path = add("escape-1.0-py3-none-any.whl", "'..' component")
    _zip(path, [meta, ("evil/../../outside.py", b"x = 1\n")])
    path = add("absolute-1.0-py3-none-any.whl", "absolute path")
    _zip(path, [meta, ("/etc/evil.py", b"x = 1\n")])
    path = add("link-1.0-py3-none-any.whl", "symbolic link")
    _zip(path, [meta, (_symlink_info("evil/passwd.py"), b"/etc/passwd")])
    path = add("twice-1.0-py3-none-any.whl", "appears twice")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(*meta)
        z.writestr("evil/a.py", b"a = 1\n")
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z.writestr("evil/a.py", b"a = 2\n")
    path = add("latin1-1.0-py3-none-any.whl", "not UTF-8")
    _zip(path, [meta, ("evil/caf\u00e9.py", b"x = 1\n")])
    data = _read(path).replace("caf\u00e9".encode("utf-8"), b"caf\xe9\x20")
    # The UTF-8 flag (bit 11) stays set, so the name claims to be UTF-8 and is not.
    _write(path, data)
    path = add("truncated-1.0-py3-none-any.whl", "")
    _zip(path, [meta, ("evil/a.py", b"raise ValueError('x')\n" * 200)])
    data = _read(path)
    _write(path, data[: len(data) // 2])
    path = add("text-1.0-py3-none-any.whl", "not a zip archive")
    _write(path, b"This is not a wheel, only text named like one.\n")
    path = add("evil-link-1.0.tar.gz", "symbolic link")
    _tgz(path, [(_tar_info("evil-1.0/PKG-INFO"), METADATA), (_tar_info("evil-1.0/x.py", tarfile.SYMTYPE, "/etc/passwd"),
                                                              None)])
    path = add("evil-hard-1.0.tar.gz", "hard link")
    _tgz(path, [(_tar_info("evil-1.0/PKG-INFO"), METADATA), (_tar_info("evil-1.0/x.py", tarfile.LNKTYPE, "/etc/passwd"),
                                                              None)])
    path = add("evil-dots-1.0.tar.gz", "'..' component")
    _tgz(path, [(_tar_info("evil-1.0/PKG-INFO"), METADATA), (_tar_info("evil-1.0/../../x.py"), b"x = 1\n")])
    path = add("evil-fifo-1.0.tar.gz", "not a regular file")
    _tgz(path, [(_tar_info("evil-1.0/PKG-INFO"), METADATA), (_tar_info("evil-1.0/pipe", tarfile.FIFOTYPE), None)])
    if big:
        path = add("evil-gzbomb-1.0.tar.gz", "times its own size")
        _tgz(path, [(_tar_info("evil-1.0/PKG-INFO"), METADATA), (_tar_info("evil-1.0/z.py"), _Filler(200 << 20))])
    return cases
