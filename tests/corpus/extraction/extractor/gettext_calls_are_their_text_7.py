raise E(translate("text"))
