def _(v):
    return f'helper {v}'
raise E(_("x"))
