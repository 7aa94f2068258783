#!/usr/bin/env python3
"""Print a greeting for the name given on the command line."""

import sys


def main() -> int:
    name = " ".join(sys.argv[1:]).strip() or "world"
    print(f"Hello, {name}!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
