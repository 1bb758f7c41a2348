raise E(_("a", context="b"))
