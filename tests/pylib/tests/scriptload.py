# SPDX-License-Identifier: GPL-2.0
"""Load one of the repository's scripts/*.py (file names with dashes too)
as a module for its unit test, and skip that test where the scripts are
not beside this copy of the tests (the tests' library runs in the VM
too)."""

import importlib.util
import os
import unittest

SCRIPTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..',
                                        '..', 'scripts'))


def path(name):
    """The path of scripts/@name."""
    return os.path.join(SCRIPTS, name)


def load(name):
    """scripts/@name, executed as a new module."""
    modname = os.path.splitext(name)[0].replace('-', '_')
    spec = importlib.util.spec_from_file_location(modname, path(name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def needs(name):
    """A class decorator: skip unless scripts/@name is there."""
    return unittest.skipUnless(os.path.isfile(path(name)),
                               f'scripts/{name} is not beside this copy of '
                               'the tests (in the VM)')
