raise E(info, message=reason)
