"""Runs PassportEye's read_mrz, with its default settings, on each case's images.

Reads a JSON list of {"id": ..., "images": [path, ...]} on stdin; writes one JSON object per
case on stdout: the zone PassportEye found with the highest valid_score over the case's images
(a back side may carry the zone), or found: false. PassportEye itself is installed from its
public repository's source, never copied here.
"""
import json
import sys
import time

from passporteye import read_mrz

FIELDS = ["mrz_type", "valid_score", "number", "date_of_birth", "expiration_date", "nationality",
          "country", "names", "surname", "valid_number", "valid_date_of_birth",
          "valid_expiration_date", "valid_composite"]


def best_zone(paths):
    best = None
    for path in paths:
        try:
            mrz = read_mrz(path)
        except Exception as e:  # a crash on one side should not lose the other
            sys.stderr.write(f"{path}: {e!r}\n")
            continue
        if mrz is None:
            continue
        d = mrz.to_dict()
        if best is None or d.get("valid_score", 0) > best.get("valid_score", 0):
            best = d
    return best


def main():
    cases = json.load(sys.stdin)
    for case in cases:
        start = time.monotonic()
        zone = best_zone(case["images"])
        out = {"id": case["id"], "ms": round((time.monotonic() - start) * 1000), "found": zone is not None}
        if zone is not None:
            out.update({k: zone.get(k) for k in FIELDS})
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
