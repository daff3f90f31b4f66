"""The Python package's sandbox launcher.

``python -m ginlab._sandbox_exec __sandbox-exec [POLICY] -- COMMAND...``
sets the resource limits, drops every capability, restricts itself with
Landlock and becomes COMMAND, as ``ginlab __sandbox-exec`` does (it calls
the same library function). The package registers it as the launcher of
its process's bots; it is not meant to be run by hand.
"""

import sys

from ginlab._ginlab import _sandbox_exec


def main():
    args = sys.argv[1:]
    if args[:1] == ["__sandbox-exec"]:
        args = args[1:]
    return _sandbox_exec(args)


if __name__ == "__main__":
    sys.exit(main())
