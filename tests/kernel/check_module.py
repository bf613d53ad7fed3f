"""The kernel module's safety checks on its build (tests/kernel/checks.sh):

- stack: every function's frame in the objects' .su files (gcc
  -fstack-usage, which Kbuild passes) is at most --frame-max bytes and not
  dynamic (unless bounded), and the model's predict wrapper
  (spoor_ra_model_predict_locked, into which the header's static inline
  predict is inlined) within the header's SPOOR_MODEL_STACK_BYTES + 64;
- no floating point: `objdump -d` of the .ko shows no x87, MMX, SSE or AVX
  instruction (none on an x87, MMX, XMM, YMM, ZMM or mask register, and none
  of the state instructions).

    check_module.py --frame-max N [--model HEADER] KO SU...

Prints the largest frames; exits 1 naming each failure."""
import argparse
import re
import subprocess
import sys

PREDICT = "spoor_ra_model_predict_locked"
# Registers of the x87, MMX, SSE, AVX and AVX-512 units, as objdump spells them.
FP_REGISTER = re.compile(r"%(st|mm[0-7]|[xyz]mm[0-9]+|k[0-7])\b")
# Instructions that touch that state without naming such a register.
FP_STATE = {"fninit", "fnstcw", "fldcw", "fnstsw", "fwait", "fnclex", "fxsave", "fxsave64", "fxrstor", "fxrstor64",
            "ldmxcsr", "stmxcsr", "vldmxcsr", "vstmxcsr", "emms", "femms", "vzeroupper", "vzeroall", "xsave", "xsaveopt",
            "xsavec", "xsaves", "xrstor", "xrstors", "xsave64", "xrstor64"}
# x87 arithmetic and moves all start with f (fld, fstp, fadd, fild, ...); no
# integer instruction does.
X87 = re.compile(r"f[a-z0-9]+$")


def frames(su_paths):
    """[(bytes, kind, where)] of every function in the .su files."""
    out = []
    for path in su_paths:
        for line in open(path):
            where, size, kind = line.rstrip("\n").split("\t")
            out.append((int(size), kind, where))
    return out


def stated_stack(header):
    m = re.search(r"#define \w+_STACK_BYTES (\d+)", open(header).read())
    if not m:
        sys.exit(f"check_module: {header}: no _STACK_BYTES")
    return int(m.group(1))


def fp_instructions(ko):
    """The lines of objdump -d that are floating-point instructions."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", ko], check=True, capture_output=True,
                          text=True).stdout
    out = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) < 2 or not re.match(r"\s*[0-9a-f]+:$", parts[0]):
            continue
        words = parts[1].split()
        if not words:
            continue
        # a prefix (lock, rep, ds, bnd, notrack) before the mnemonic
        mnemonic = next((w for w in words if w not in ("lock", "rep", "repz", "repnz", "ds", "cs", "bnd", "notrack")),
                        "")
        if FP_REGISTER.search(parts[1]) or mnemonic in FP_STATE or X87.match(mnemonic):
            out.append(line.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frame-max", type=int, required=True)
    ap.add_argument("--model")
    ap.add_argument("ko")
    ap.add_argument("su", nargs="+")
    a = ap.parse_args()
    failures = []
    fs = frames(a.su)
    if not fs:
        failures.append("no functions in the .su files")
    for size, kind, where in fs:
        if size > a.frame_max:
            failures.append(f"{where}: a frame of {size} bytes, over {a.frame_max}")
        if kind.startswith("dynamic") and "bounded" not in kind:
            failures.append(f"{where}: an unbounded dynamic frame ({kind})")
    for size, kind, where in sorted(fs, reverse=True)[:3]:
        print(f"  frame {size} bytes ({kind}): {where}")
    if a.model:
        predict = [size for size, _, where in fs if where.endswith(":" + PREDICT)]
        stated = stated_stack(a.model)
        if len(predict) != 1:
            failures.append(f"no one frame of {PREDICT} in the .su files")
        elif predict[0] > stated + 64:
            failures.append(f"{PREDICT}: a frame of {predict[0]} bytes, over the model's {stated} + 64")
        else:
            print(f"  the model's predict: a frame of {predict[0]} bytes for its stated {stated} (+ 64 allowed)")
    fp = fp_instructions(a.ko)
    for line in fp[:5]:
        failures.append(f"{a.ko}: a floating-point instruction: {line}")
    if not fp:
        print(f"  no x87, MMX, SSE or AVX instruction in {a.ko}")
    for f in failures:
        print(f"check_module: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
