"""The ``bangarena`` command line: one module per command group, thin over the library.

``app.py`` assembles the groups (loaded lazily); ``support.py`` holds the helpers every group
shares (one-line errors, reading files). This is the top layer: it may import every other
package of the project, and none of them imports it.
"""
