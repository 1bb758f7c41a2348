raise E(_("Invalid start character for option ({option})").format(option=opt))
