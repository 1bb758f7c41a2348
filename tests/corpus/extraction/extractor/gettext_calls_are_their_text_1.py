raise E(_("Missing option"))
