#!/usr/bin/env python3
"""Checks `kinetic schema` (run by `make test`):
- its output equals the committed docs/kinetic.schema.json;
- it is a valid draft 2020-12 schema;
- every scene in scenes/, and every scene under Tests/ that `kinetic validate` accepts,
  validate against it;
- every scene in Tests/schema/invalid/ (unknown keys, wrong types, bad enum values at each
  level, as the loader's tests write them) is rejected by it, and by `kinetic validate`
  (exit 65), so the schema is no looser than the loader there.

YAML is read as YAML 1.2 (as the loader's Yams does): `on`, `yes`, `no` are strings, and
1e3 is a number."""
import glob
import json
import os
import re
import subprocess
import sys

import jsonschema
import yaml

KINETIC = os.environ.get("KINETIC", ".build/release/kinetic")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's core schema for booleans and floats."""


Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:float")]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                   list("tTfF"))
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Yaml12Loader)


def main():
    failures = []
    output = subprocess.run([KINETIC, "schema"], capture_output=True, text=True, check=True).stdout
    with open(os.path.join(ROOT, "docs", "kinetic.schema.json"), encoding="utf-8") as f:
        committed = f.read()
    if output != committed:
        failures.append("docs/kinetic.schema.json differs from `kinetic schema` (run: kinetic schema > docs/kinetic.schema.json)")
    schema = json.loads(output)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    # The gallery, and every test scene `kinetic validate` accepts: what the loader takes,
    # the schema takes too.
    tests = [p for p in sorted(glob.glob(os.path.join(ROOT, "Tests", "**", "*.yaml"), recursive=True))
             if os.sep + os.path.join("schema", "invalid") + os.sep not in p]
    accepted = [p for p in tests if subprocess.run([KINETIC, "validate", p], capture_output=True).returncode == 0]
    valid = sorted(glob.glob(os.path.join(ROOT, "scenes", "*.yaml"))) + accepted
    for path in valid:
        errors = sorted(validator.iter_errors(load(path)), key=lambda e: list(e.path))
        for e in errors[:3]:
            failures.append(f"{os.path.relpath(path, ROOT)}: /{'/'.join(map(str, e.path))}: {e.message[:200]}")
    invalid = sorted(glob.glob(os.path.join(ROOT, "Tests", "schema", "invalid", "*.yaml"))) + [
        os.path.join(ROOT, "Tests", "cli", "scenes", "broken.yaml")]
    for path in invalid:
        name = os.path.relpath(path, ROOT)
        if validator.is_valid(load(path)):
            failures.append(f"{name}: the schema accepts it")
        status = subprocess.run([KINETIC, "validate", path], capture_output=True).returncode
        if status != 65:
            failures.append(f"{name}: `kinetic validate` exits {status}, not 65")
    for f in failures:
        print("FAIL " + f)
    print(f"schema: {len(valid)} scenes validate, {len(invalid)} invalid ones rejected; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
