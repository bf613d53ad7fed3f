"""extract_vmlinux.py VMLINUZ VMLINUX: the uncompressed kernel (an ELF file)
out of a bzImage whose payload is xz-compressed, as Debian's amd64 kernels'
is (CONFIG_KERNEL_XZ). QEMU boots the ELF directly through its PVH entry,
which under TCG saves the seconds the kernel spends decompressing itself."""
import lzma
import sys

XZ_MAGIC = b"\xfd7zXZ\x00"


def main(vmlinuz, vmlinux):
    data = open(vmlinuz, "rb").read()
    at = data.find(XZ_MAGIC)
    if at < 0:
        sys.exit(f"extract_vmlinux: {vmlinuz}: no xz payload (is the kernel built with CONFIG_KERNEL_XZ?)")
    # the stream ends before the bzImage's trailer: the decompressor stops there
    elf = lzma.LZMADecompressor().decompress(data[at:])
    if not elf.startswith(b"\x7fELF"):
        sys.exit(f"extract_vmlinux: {vmlinuz}: the xz payload at byte {at} is not an ELF kernel")
    open(vmlinux, "wb").write(elf)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: extract_vmlinux.py VMLINUZ VMLINUX")
    main(sys.argv[1], sys.argv[2])
