import logging
import sys

import click

logger = logging.getLogger(__name__)


class PluginLoadFailure(Exception):
    def __init__(self, path, *, cause):
        self.path = path
        self.cause = cause


class SettingsError(Exception):
    pass


def report_plugin_failure(e, out):
    out.write(f"could not load the plugin module '{e.path}'.\n")
    for line in str(e.cause).splitlines():
        out.write(line)


def helper_not_called_with_the_exception(out):
    out.write("this text reports nothing that was caught\n")


def main(argv):
    try:
        plugins = load(argv)
    except PluginLoadFailure as e:
        report_plugin_failure(e, out=sys.stderr)
        return 4
    try:
        run(plugins)
    except (SettingsError, KeyError) as exc:
        click.echo(f"the settings file is invalid: {exc}", err=True)
    except ValueError:
        logger.error("Could not start the worker pool")
        sys.exit("fatal: no worker could start")
    except OSError as err:
        print("Error: %s" % err)
        self.exit("not an output call: a method named exit")
    print("nothing was caught here, so this is no handler text")
    return 0
