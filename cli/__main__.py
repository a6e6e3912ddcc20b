"""``python -m bangarena.cli``: the ``bangarena`` command."""

from bangarena.cli.app import main

if __name__ == "__main__":
    main()
