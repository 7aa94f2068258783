#!/usr/bin/env python3
"""Count the lines, words and characters of a text file and print them as JSON."""

import argparse
import json
import sys


def count(text):
    """Return the line, word and character counts of text."""
    return {
        "lines": len(text.splitlines()),
        "words": len(text.split()),
        "characters": len(text),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Count the lines, words and characters of a text file and print them as JSON."
    )
    parser.add_argument("path", help="the text file to read, or - for standard input")
    parser.add_argument(
        "--encoding", default="utf-8", help="text encoding of the file (default: %(default)s)"
    )
    args = parser.parse_args(argv)

    try:
        if args.path == "-":
            text = sys.stdin.read()
        else:
            with open(args.path, encoding=args.encoding) as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError, LookupError) as error:
        print(f"error: cannot read {args.path}: {error}", file=sys.stderr)
        return 1

    result = {"path": args.path}
    result.update(count(text))
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
