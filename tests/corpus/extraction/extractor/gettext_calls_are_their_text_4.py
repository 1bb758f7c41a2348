raise E(gettext("no %s here") % name)
