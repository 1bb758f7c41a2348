raise E(_(msg))
